#!/usr/bin/env bash
# Issue 15's acceptance run: every Prime Time Scenario played to its end at 3
# and at 4 players, for GAMES seeds each (default 200), all-greedy and
# all-random seats, with no script or engine error; the mean Victory Points
# per seat; and replays of the first seeds played again and verified.
#
#   tools/prime-time-batches.sh              # 7 Scenarios x 2 tables x 2 controllers x 200 games
#   tools/prime-time-batches.sh --games 20   # quicker
#
# Prints a Markdown table; exits 1 if any game had an error, a failed effect,
# a Scenario scored no Victory Point in all its batches, or a replay did not
# verify. (Random seats may score none in a Scenario whose objective takes
# several deliberate steps, such as Crow Accumulator's capsules.)
# Needs jq. Uses the release build of arena (built first).
set -euo pipefail
cd "$(dirname "$0")/.."
games=200
replays=3
while [[ $# -gt 0 ]]; do
    case "$1" in
        --games) games=${2:?--games N}; shift ;;
        --replays) replays=${2:?--replays N}; shift ;;
        *) echo "usage: tools/prime-time-batches.sh [--games N] [--replays N]" >&2; exit 2 ;;
    esac
    shift
done
command -v jq >/dev/null || { echo "tools/prime-time-batches.sh needs jq" >&2; exit 2; }
echo "building: cargo build --release --locked -p arena" >&2
cargo build --release --locked -p arena >&2
arena=target/release/arena
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

scenarios=$(ls content/aristeia-prime-time/scenarios/*.toml | xargs -n1 basename | sed 's/\.toml$//')
bad=0
echo "| Scenario | players | controllers | games | mean VP per seat | mean Rounds | errors | failed effects | replays verified |"
echo "|---|---:|---|---:|---|---:|---:|---:|---|"
for sc in $scenarios; do
    scenario_vp=0
    for seats in 3 4; do
        for policy in greedy random; do
            code=0
            "$arena" -q sim "$sc" --seats "$seats" --players "$policy" --games "$games" --format json --without-games \
                >"$tmp/batch.json" 2>"$tmp/batch.err" || code=$?
            if [[ $code -gt 1 ]]; then
                echo "$sc $seats $policy: arena sim failed (exit $code): $(head -3 "$tmp/batch.err")" >&2
                bad=1
                continue
            fi
            read -r n vp rounds errors failed total <<<"$(jq -r '.report as $r | [$r.games, ($r.mean_victory_points | map(. * 100 | round / 100 | tostring) | join(" / ")), ($r.mean_rounds * 100 | round / 100), $r.errors, $r.games_with_effect_failures, ($r.mean_victory_points | add)] | map(tostring) | map(gsub(" "; "_")) | join(" ")' "$tmp/batch.json")"
            vp=${vp//_/ }
            verified=0
            for seed in $(seq 1 "$replays"); do
                "$arena" -q sim "$sc" --seats "$seats" --players "$policy" --seed "$seed" --replay "$tmp/r.json" >/dev/null 2>&1 || true
                if "$arena" -q replay "$tmp/r.json" >/dev/null 2>&1; then verified=$((verified + 1)); fi
            done
            echo "| $sc | $seats | $policy | $n | $vp | $rounds | $errors | $failed | $verified of $replays |"
            if [[ $errors != 0 || $failed != 0 || $verified != "$replays" ]]; then bad=1; fi
            scenario_vp=$(awk -v a="$scenario_vp" -v b="$total" 'BEGIN { print a + b }')
        done
    done
    if [[ $scenario_vp == 0 ]]; then
        echo "$sc: no Victory Point in any batch" >&2
        bad=1
    fi
done
exit $bad
