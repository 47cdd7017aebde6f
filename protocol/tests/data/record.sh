#!/bin/sh
# Records the transcripts in this directory with the real arena and sample bots.
# Run from the workspace root:  sh protocol/tests/data/record.sh
# See README.md here for what each recording is for.
set -eu

cargo build --workspace --bins

data=protocol/tests/data
arena=target/debug/arena
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# record NAME ARENA-ARGS...: one match; its transcripts become NAME.seat0.txt, ...
record() {
    name=$1
    shift
    rm -f "$data/$name".seat*.txt
    "$arena" match "$@" --transcripts "$tmp/$name"
    for file in "$tmp/$name"/*.txt; do
        # Strip machine-specific absolute paths, should any appear.
        sed -e "s|$PWD/||g" -e "s|$tmp/||g" "$file" >"$data/$name.$(basename "$file")"
    done
}

# Classic, 4 seats: blind play, sees, shows, sideshows (accepted and refused), and
# faulty_bot.py in seat 2: illegal, malformed (twice) and wrong_id answers.
record classic --game classic --hands 12 --seed 14 \
    --bot target/debug/random-bot \
    --bot "python3 sample-bots/python/random_bot.py" \
    --bot "python3 protocol/tests/data/faulty_bot.py" \
    --bot target/debug/random-bot

# Closest to 555, 3 seats: swaps, keeps, shows, sideshows.
record closest-555 --game closest-555 --hands 10 --seed 2 \
    --bot target/debug/random-bot \
    --bot "python3 sample-bots/python/random_bot.py" \
    --bot target/debug/random-bot

# Lallan Kallan, 4 seats: dead hands, a redeal (hand 5), sideshows, shows.
record lallan-kallan --game lallan-kallan --hands 10 --seed 43 \
    --bot target/debug/random-bot \
    --bot "python3 sample-bots/python/random_bot.py" \
    --bot target/debug/random-bot \
    --bot "python3 sample-bots/python/random_bot.py"

# Classic, 3 seats, low limits: group reveals at the pot limit and at the turn cap; a
# timeout (with the late answer dropped), a crash and a restart (seat2-from-handN.txt).
record classic-limits --game classic --hands 8 --seed 14 \
    --pot-limit 24 --max-turns 5 --decision-ms 300 --bank-ms 200 \
    --bot target/debug/random-bot \
    --bot "python3 sample-bots/python/random_bot.py" \
    --bot "python3 protocol/tests/data/faulty_bot.py late crash"

ls -l "$data"
