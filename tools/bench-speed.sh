#!/usr/bin/env bash
# Issue 17's target table in one run: game speed (whole process), the effect
# call, `arena check` against its floor, two jobs against one, memory per game.
# Prints the table with absolute times, ratios, each target's verdict and the
# machine; `--write-docs` also puts it into docs/performance.md (§ Game speed).
#
#   tools/bench.sh speed                 # about 3 minutes on 2 cores
#   tools/bench.sh speed --write-docs    # and regenerate docs/performance.md's figures
#   tools/bench.sh speed --games 100     # fewer games per whole-process run (noisier)
#
# Whole-process figures are the best of 3 runs of `target/release/arena sim`
# (wall clock: another process on the machine only ever makes a run slower).
# In-process figures are divan medians from `cargo bench -p arena-engine
# --bench speed` (raw output: target/bench/speed.log).
set -euo pipefail
cd "$(dirname "$0")/.."

games=400
write_docs=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --write-docs) write_docs=1 ;;
        --games) games=${2:?--games N}; shift ;;
        *) echo "usage: tools/bench.sh speed [--write-docs] [--games N]" >&2; exit 2 ;;
    esac
    shift
done

mkdir -p target/bench
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "building: cargo build --release --locked -p arena" >&2
cargo build --release --locked -p arena >target/bench/build.log 2>&1 || { tail -20 target/bench/build.log >&2; exit 1; }
arena=target/release/arena

# Best of 3 wall-clock runs of one command, in microseconds. Exit 1 (an
# effect failed in some game) is a finding, not a broken run.
best_us() {
    local best="" s e code
    for _ in 1 2 3; do
        code=0
        s=$(date +%s%N)
        "$@" >/dev/null 2>&1 || code=$?
        e=$(date +%s%N)
        if [[ $code -gt 1 ]]; then echo "failed (exit $code): $*" >&2; exit 1; fi
        local us=$(( (e - s) / 1000 ))
        if [[ -z "$best" || $us -lt $best ]]; then best=$us; fi
    done
    echo "$best"
}

echo "timing: arena sim assault --games $games (greedy and random, --jobs 1 and 2), best of 3 each" >&2
greedy1=$(best_us "$arena" -q sim assault --games "$games" --jobs 1 --players greedy)
random1=$(best_us "$arena" -q sim assault --games "$games" --jobs 1 --players random)
greedy2=$(best_us "$arena" -q sim assault --games "$games" --jobs 2 --players greedy)
check_process=$(best_us "$arena" -q check content)

echo "running: cargo bench -p arena-engine --bench speed (raw output: target/bench/speed.log)" >&2
cargo bench --locked -p arena-engine --bench speed >target/bench/speed.log 2>&1 || { tail -40 target/bench/speed.log >&2; exit 1; }
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
rustc_v=$(rustc --version)
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- engine tools content || echo "+uncommitted")

out=$(sed -e 's/│/|/g' -e 's/├─/+-/g' -e 's/╰─/`-/g' -e 's/µs/us/g' target/bench/speed.log | LC_ALL=C awk \
    -v games="$games" -v g1="$greedy1" -v r1="$random1" -v g2="$greedy2" -v chk="$check_process" \
    -v cpu="$cpu" -v cores="$(nproc)" -v rustc_v="$rustc_v" -v kernel="$(uname -r)" -v commit="$commit" \
    -v date="$(date -u +%Y-%m-%d)" -v load1="$load_before" -v load2="$load_after" '
function us(v,   a) {
    split(v, a, " ")
    if (a[2] == "ns") return a[1] / 1000
    if (a[2] == "us") return a[1]
    if (a[2] == "ms") return a[1] * 1000
    if (a[2] == "s") return a[1] * 1000000
    return ""
}
function verdict(ok, by) { return ok ? "**met**" : "missed by " by }
/^arena-bench game-memory/ {
    for (i = 2; i <= NF; i++) { split($i, kv, "="); m[kv[1]] = kv[2] }
    mem[m["players"]] = m["median_peak_bytes"]; memmax[m["players"]] = m["max_peak_bytes"]; vm = m["vm_bytes"]
    next
}
/^arena-bench game-rounds/ {
    for (i = 2; i <= NF; i++) { split($i, kv, "="); gr[kv[1]] = kv[2] }
    rounds[gr["seats"]] = gr["rounds"]
    next
}
/^arena-bench check-input/ {
    for (i = 2; i <= NF; i++) { split($i, kv, "="); c[kv[1]] = kv[2] }
    next
}
/fastest/ && /median/ { tree = 1; next }
tree && /\|/ {
    rest = $0; sub(/^[|`+ -]*/, "", rest)
    split(rest, cols, "|"); split(cols[1], w, " ")
    med = cols[3]; gsub(/^ +| +$/, "", med)
    if (med != "") median[w[1]] = us(med)
    next
}
END {
    gps1 = games / (g1 / 1e6); rps1 = games / (r1 / 1e6); gps2 = games / (g2 / 1e6)
    eff = median["effect_call"]; ck = median["check_bundled"]; pc = median["parse_and_compile_bundled"]
    if (eff == "" || ck == "" || pc == "") { print "no divan results found" > "/dev/stderr"; exit 1 }
    printf "Measured %s on %s (%s cores), %s, Linux %s, code %s.\n", date, cpu, cores, rustc_v, kernel, commit
    split(load1, l1, " ")
    printf "Load average (1, 5, 15 min) %s before and %s after%s (whole-process figures are the best of 3 runs; in-process ones divan medians).\n\n", load1, load2, (l1[1] + 0 < 1.0) ? ": nothing else was running" : ": other work shared the cores, so wall-clock times are noisy"
    print "| measure | issue 17 \"now\" | target | measured | verdict |"
    print "|---|---:|---:|---:|---|"
    printf "| greedy Assault games/s, one job, whole process, %d games | ~50 | >= 200 | **%.0f** (%.2f s; %.2f ms a game) | %s |\n", games, gps1, g1 / 1e6, g1 / 1e3 / games, verdict(gps1 >= 200, sprintf("%.2fx", 200 / gps1))
    printf "| random Assault games/s, same | ~290 | >= 800 | **%.0f** (%.2f s; %.2f ms a game) | %s |\n", rps1, r1 / 1e6, r1 / 1e3 / games, verdict(rps1 >= 800, sprintf("%.2fx", 800 / rps1))
    printf "| effect call (Lua call with one host callback, including undo) | ~60k instr. (7-12 us) | <= 2 us | **%.2f us** | %s |\n", eff, verdict(eff <= 2, sprintf("%.1fx", eff / 2))
    printf "| `arena check` of the bundled packs (in process) vs bare TOML parse + one Luau compile per script | ~11x | <= 3x | **%.1fx** (%.2f ms vs %.2f ms; %s files, %s scripts) | %s |\n", ck / pc, ck / 1e3, pc / 1e3, c["files"], c["scripts"], verdict(ck / pc <= 3, sprintf("%.1fx", ck / pc / 3))
    printf "| `--jobs 2` vs `--jobs 1`, %d greedy games | 1.68x | >= 1.85x | **%.2fx** (%.2f s vs %.2f s) | %s |\n", games, g1 / g2, g2 / 1e6, g1 / 1e6, verdict(g1 / g2 >= 1.85, sprintf("%.2fx", 1.85 / (g1 / g2)))
    printf "| memory per game (peak allocation, median of 20) | ~0.2 MiB | unchanged or lower | **%.0f KiB** greedy, %.0f KiB random (max %.0f KiB; plus the worker'"'"'s Lua VM, %.1f MiB, shared by its games) | %s |\n", mem["greedy"] / 1024, mem["random"] / 1024, memmax["greedy"] / 1024, vm / 1048576, verdict(mem["greedy"] <= 0.2 * 1048576 * 1.1, "")
    printf "\nAlso: `arena check content` as a whole process (start, load, script tests, exit): %.1f ms, best of 3.\n", chk / 1e3
    effc = median["effect_call_changing"]; ckn = median["check_bundled_without_script_tests"]
    if (effc != "") printf "\nWhy the effect call and check figures are what they are:\n\n- an effect call that changes the game (`game:heal`, then `game:damage`) copies the state for its undo first: **%.2f us** (the question alone: %.2f us, no copy);\n", effc, eff
    if (ckn != "") printf "- `arena check` less the packs'"'"' own script tests (`*.test.lua`, which the floor does not run): **%.2f ms**, %.1fx the floor; the script tests are the other %.2f ms.\n", ckn / 1e3, ckn / pc, (ck - ckn) / 1e3
    if (rounds[2] != "" && median["2"] != "" && median["4"] != "") {
        r2 = median["2"] / rounds[2]; r3 = median["3"] / rounds[3]; r4 = median["4"] / rounds[4]
        printf "\nIssue 15 (a 4-player game costs no more than 2.5x a 2-player game of as many Rounds): 8 greedy games of random teams (seeds 1-8), Assault at 2 players and Crossover Assault at 3 and 4: **%.2f ms a Round** at 2 players (%d Rounds), %.2f ms at 3 (%d Rounds, %.2fx), **%.2f ms at 4** (%d Rounds): **%.2fx** the 2-player Round, %s.\n", r2 / 1e3, rounds[2], r3 / 1e3, rounds[3], r3 / r2, r4 / 1e3, rounds[4], r4 / r2, (r4 / r2 <= 2.5) ? "within the 2.5x target" : "over the 2.5x target"
    }
}')
echo "$out"

if [[ $write_docs -eq 1 ]]; then
    begin='<!-- tools/bench.sh speed: begin -->'
    end='<!-- tools/bench.sh speed: end -->'
    doc=docs/performance.md
    grep -qF "$begin" "$doc" || { echo "$doc has no '$begin' marker" >&2; exit 1; }
    tmp=$(mktemp)
    BENCH_OUT="$out" awk -v b="$begin" -v e="$end" '
        $0 == b { print; print ENVIRON["BENCH_OUT"]; skip = 1; next }
        $0 == e { skip = 0 }
        !skip { print }' "$doc" >"$tmp"
    mv "$tmp" "$doc"
    echo "wrote the figures into $doc" >&2
fi
