#!/usr/bin/env bash
# The engine's cost against issue 26's targets ("One table for every game",
# item 4 and its acceptance list), side by side with the binary of another
# commit in the same run: instructions per game (callgrind), games per second
# (whole process, one job, best of 3), allocations per greedy Assault game,
# and the fork-and-step medians (divan, this checkout only: the base commit
# has no fork).
#
#   tools/bench.sh engine                  # base: 4c547b7, the commit the one-table work started from
#   tools/bench.sh engine --base REV       # another base commit
#   tools/bench.sh engine --no-fork        # skip the divan fork benchmark (about 1 minute)
#
# The base is exported with `git archive` into target/bench/base-REV and built
# there once (its own target directory: the first run compiles every
# dependency, several minutes on 2 cores). Needs valgrind.
#
# A game's instructions are (those of N games - those of 1 game) / (N - 1):
# that takes the start-up and the loading of the packs out. Instruction counts
# do not depend on the machine's load; games per second do (the load average
# is printed before and after).
set -euo pipefail
cd "$(dirname "$0")/.."

base=4c547b7
fork=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --base) base=${2:?--base REV}; shift ;;
        --no-fork) fork=0 ;;
        *) echo "usage: tools/bench.sh engine [--base REV] [--no-fork]" >&2; exit 2 ;;
    esac
    shift
done
command -v valgrind >/dev/null || { echo "tools/bench.sh engine needs valgrind" >&2; exit 1; }

mkdir -p target/bench
root=$PWD
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "building this checkout: cargo build --release --locked -p arena" >&2
cargo build --release --locked -p arena >target/bench/build.log 2>&1 || { tail -20 target/bench/build.log >&2; exit 1; }
new=target/release/arena

rev=$(git rev-parse --short "$base")
dir=target/bench/base-$rev
old=$PWD/$dir/target/release/arena
new=$PWD/$new
if [[ ! -x $old ]]; then
    echo "building base $rev in $dir (first time: every dependency)" >&2
    mkdir -p "$dir"
    git archive "$rev" | tar -x -C "$dir"
    (cd "$dir" && CARGO_TARGET_DIR=target cargo build --release --locked -p arena) >target/bench/build-base.log 2>&1 ||
        { tail -20 target/bench/build-base.log >&2; exit 1; }
fi
# Each binary plays the packs of its own commit (the base reads its own
# content/, which the newer keys of this checkout's would fail).
[[ -d $dir/content ]] || git archive "$rev" content | tar -x -C "$dir"
old_dir=$dir
new_dir=.
# Fail loudly rather than print a figure of a run that did not play.
(cd "$old_dir" && "$old" sim assault --games 1 -q >/dev/null) || { echo "the base binary does not play its packs" >&2; exit 1; }

# Instructions of one whole process.
instructions() {
    local out=$root/target/bench/cg.$$
    valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>&1 || true
    callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
    rm -f "$out"
}
# Instructions per game of `sim ARGS`: (N games - 1 game) / (N - 1).
per_game() {
    local wd=$1 bin=$2 n=$3; shift 3
    local one many
    one=$(cd "$wd" && instructions "$bin" sim "$@" --games 1 --jobs 1 -q)
    many=$(cd "$wd" && instructions "$bin" sim "$@" --games "$n" --jobs 1 -q)
    echo $(((many - one) / (n - 1)))
}
# Heap allocations per game (memcheck's "total heap usage"), the same way.
allocs() {
    local wd=$1 bin=$2 n=$3; shift 3
    count() {
        valgrind --tool=memcheck --leak-check=no "$@" 2>&1 >/dev/null |
            awk '/total heap usage/ { gsub(",", "", $5); print $5 }'
    }
    local one many
    one=$(cd "$wd" && count "$bin" sim "$@" --games 1 --jobs 1 -q)
    many=$(cd "$wd" && count "$bin" sim "$@" --games "$n" --jobs 1 -q)
    echo $(((many - one) / (n - 1)))
}
# Games per second of `sim ARGS --games N`, best of 3 wall-clock runs.
rate() {
    local wd=$1 bin=$2 n=$3; shift 3
    local best="" s e us
    for _ in 1 2 3; do
        s=$(date +%s%N)
        (cd "$wd" && "$bin" sim "$@" --games "$n" --jobs 1 -q >/dev/null 2>&1) || true
        e=$(date +%s%N)
        us=$(((e - s) / 1000))
        if [[ -z $best || $us -lt $best ]]; then best=$us; fi
    done
    awk -v n="$n" -v us="$best" 'BEGIN { printf "%.0f", n / (us / 1e6) }'
}
mi() { awk -v x="$1" 'BEGIN { printf "%.1f M", x / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }

printf '\n| workload | base %s | this checkout | base / this | target |\n|---|---:|---:|---:|---:|\n' "$rev"
row() {
    local name=$1 target=$2 n=$3; shift 3
    echo "measuring: $name" >&2
    local a b
    a=$(per_game "$old_dir" "$old" "$n" "$@")
    b=$(per_game "$new_dir" "$new" "$n" "$@")
    printf '| %s, instructions a game | %s | %s | %s | %s |\n' "$name" "$(mi "$a")" "$(mi "$b")" "$(ratio "$a" "$b")" "$target"
}
row "greedy Assault" "<= 6 M" 20 assault
row "random Assault" "<= 2.5 M" 20 assault --players random
row "Crossover Assault, 4 greedy seats" "<= 10 M" 11 crossover-assault --seats 4
row "Invictus, 4 greedy seats" "<= 4 M" 20 invictus --seats 4
echo "measuring: games per second" >&2
for spec in "greedy:1000:400" "random:3000:1000"; do
    IFS=: read -r players target n <<<"$spec"
    a=$(rate "$old_dir" "$old" "$n" assault --players "$players")
    b=$(rate "$new_dir" "$new" "$n" assault --players "$players")
    printf '| %s Assault, games per second (whole process, one job, %s games) | %s | %s | %s | >= %s |\n' \
        "$players" "$n" "$a" "$b" "$(ratio "$b" "$a")" "$target"
done
echo "measuring: allocations" >&2
a=$(allocs "$old_dir" "$old" 10 assault)
b=$(allocs "$new_dir" "$new" 10 assault)
printf '| greedy Assault, heap allocations a game | %s | %s | %s | <= 2,000 |\n' "$a" "$b" "$(ratio "$a" "$b")"

if [[ $fork == 1 ]]; then
    echo "measuring: fork and step (cargo bench -p arena-engine --bench table)" >&2
    cargo bench -p arena-engine --bench table >target/bench/table.log 2>&1 || { tail -20 target/bench/table.log >&2; exit 1; }
    sed -e 's/│/|/g' -e 's/├─/+-/g' -e 's/╰─/`-/g' -e 's/µs/us/g' target/bench/table.log |
        awk '
            function row(name, median) {
                printf "| %s, median (this checkout only) | - | %s | | %s |\n", name, median, (name ~ /_4$/ ? "<= 10 us (4 seats)" : "<= 5 us (2 seats)")
            }
            # The bench prints its `arena-bench` line inside the name column,
            # which then puts the figures on the next line.
            /fork_and_step/ {
                n = split($0, f, "|"); name = f[1]; sub(/arena-bench.*/, "", name); gsub(/[+`| -]/, "", name)
                if (n >= 4) { row(name, f[4]); name = "" }
                next
            }
            name != "" && /\|/ { split($0, f, "|"); row(name, f[3]); name = "" }'
fi
printf '\nMachine: %s, %s cores; load average %s before, %s after. Base: %s.\n' \
    "$(uname -m)" "$(nproc)" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(git log -1 --format='%h %ad' --date=short "$rev")"
