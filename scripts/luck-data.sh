#!/bin/bash
# Replays for the luck-correction measurement (BENCHMARKS.md section 6).
# usage: scripts/luck-data.sh OUT NAME GAME BOT_A BOT_B FIRST_SEED BLOCKS HANDS
#   GAME: classic, closest-555 or lallan-kallan; BOT_A, BOT_B: commands (quoted if they have arguments).
# Each seed is one duplicate block: OUT/NAME/s<seed>-ab.jsonl (A in seat 0) and -ba (A in seat 1).
# With BOT_A == BOT_B (an A/A pair) every seat gets its own `--seed` (the random bots' option),
# or the two matches of a block would mirror each other exactly.
# ARENA (default target/release/arena) is the arena binary; ARENA_ARGS (optional) are more
# `arena match` options, e.g. ARENA_ARGS="--max-turns 100".
set -u
out=$1; name=$2; game=$3; a=$4; b=$5; first=$6; n=$7; hands=$8
arena=${ARENA:-target/release/arena}
dir=$out/$name; mkdir -p "$dir"
for ((s = first; s < first + n; s++)); do
  for ord in ab ba; do
    f=$dir/s$s-$ord.jsonl
    [ -s "$f" ] && continue
    if [ "$a" = "$b" ]; then
      k=$((4 * s)); [ $ord = ba ] && k=$((k + 2))
      x="$a --seed $k"; y="$b --seed $((k + 1))"
    elif [ $ord = ab ]; then x=$a; y=$b; else x=$b; y=$a; fi
    "$arena" match --game "$game" --hands "$hands" --seed "$s" --bot "$x" --bot "$y" \
      --replay "$f" --sandbox none --json ${ARENA_ARGS:-} > /dev/null || echo "failed: $f" >&2
  done
done
