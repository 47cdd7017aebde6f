#!/bin/bash
# Replays for the luck-correction measurement (BENCHMARKS.md section 6).
# usage: scripts/luck-data.sh OUT NAME BOT_A BOT_B FIRST_SEED BLOCKS HANDS [BINDIR]
# Each seed is one duplicate block: OUT/NAME/s<seed>-ab.jsonl (A in seat 0) and -ba (A in seat 1).
# With BOT_A == BOT_B (an A/A pair) every seat gets its own `--seed` (random-bot's option), or the
# two matches of a block would mirror each other exactly.
set -u
out=$1; name=$2; a=$3; b=$4; first=$5; n=$6; hands=$7; bin=${8:-target/release}
dir=$out/$name; mkdir -p "$dir"
for ((s = first; s < first + n; s++)); do
  for ord in ab ba; do
    f=$dir/s$s-$ord.jsonl
    [ -s "$f" ] && continue
    if [ "$a" = "$b" ]; then
      k=$((4 * s)); [ $ord = ba ] && k=$((k + 2))
      x="$bin/$a --seed $k"; y="$bin/$b --seed $((k + 1))"
    elif [ $ord = ab ]; then x=$bin/$a; y=$bin/$b; else x=$bin/$b; y=$bin/$a; fi
    "$bin/arena" match --game classic --hands "$hands" --seed "$s" --bot "$x" --bot "$y" \
      --replay "$f" --sandbox none --json > /dev/null || echo "failed: $f" >&2
  done
done
