#!/usr/bin/env bash
# Benchmark `arena check`-style validation (arena_engine::load::load) against bare
# TOML parsing (read + toml::from_str::<toml::Table>) of the same files, and print
# a summary table. See engine/benches/check.rs and docs/performance.md.
#
#   tools/bench.sh                      # everything, about 3-4 minutes on 2 cores
#   tools/bench.sh --sample-count 3     # quicker, noisier
#   tools/bench.sh generated            # only benchmarks whose path matches
#
# Arguments go to divan. The raw divan output is kept in target/bench/check.log;
# `tools/bench.sh --from-log FILE` prints the tables of an earlier run.
#
#   tools/bench.sh speed [--write-docs]   # issue 17's game-speed targets instead (tools/bench-speed.sh)
#   tools/bench.sh engine [--base REV]    # the engine's cost per game against a base commit (tools/bench-engine.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "speed" ]]; then
    shift
    exec tools/bench-speed.sh "$@"
fi
if [[ "${1:-}" == "engine" ]]; then
    shift
    exec tools/bench-engine.sh "$@"
fi

log=target/bench/check.log
if [[ "${1:-}" == "--from-log" ]]; then
    log=${2:?usage: tools/bench.sh --from-log FILE}
else
    mkdir -p target/bench
    echo "running: cargo bench -p arena-engine --bench check -- $* (raw output: $log)" >&2
    if ! cargo bench -p arena-engine --bench check -- "$@" >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "bench failed; full output in $log" >&2
        exit 1
    fi
fi

# Divan prints a tree; make its box-drawing ASCII, then read name paths and medians.
sed -e 's/│/|/g' -e 's/├─/+-/g' -e 's/╰─/`-/g' -e 's/µs/us/g' "$log" | LC_ALL=C awk '
function us(v,   a) {
    split(v, a, " ")
    if (a[2] == "ns") return a[1] / 1000
    if (a[2] == "us") return a[1]
    if (a[2] == "ms") return a[1] * 1000
    if (a[2] == "s") return a[1] * 1000000
    return ""
}
function ms(x) { return (x == "") ? "-" : sprintf("%.2f ms", x / 1000) }
function pct(x, whole) { return (x == "" || whole == "") ? "-" : sprintf("%.0f%%", 100 * x / whole) }
function r2(x) { return sprintf("%.2f", x) }

/^arena-bench / {
    name = ""
    for (i = 2; i <= NF; i++) {
        split($i, kv, "=")
        if (kv[1] == "input") name = kv[2]
        else meta[name, kv[1]] = kv[2]
    }
    if (!(name in seen)) { seen[name] = 1; order[++inputs] = name }
    next
}
/fastest/ && /median/ { tree = 1; next }
tree && /\|/ {
    match($0, /^[|`+ -]*/)
    depth = RLENGTH / 3
    rest = substr($0, RLENGTH + 1)
    split(rest, cols, "|")
    split(cols[1], w, " ")
    path[depth] = w[1]
    full = path[1]
    for (i = 2; i <= depth; i++) full = full "/" path[i]
    m = cols[3]
    gsub(/^ +| +$/, "", m)
    if (m != "") median[full] = us(m)
    f = cols[1]
    sub(/^ *[^ ]+ */, "", f)
    gsub(/ +$/, "", f)
    if (f != "") fastest[full] = us(f)
    next
}
END {
    if (length(median) == 0) { print "no divan results found" > "/dev/stderr"; exit 1 }
    print "## Full validation (load) vs bare parse (read + toml::from_str::<toml::Table>), medians"
    print ""
    print "| input | files | MiB | entries | full check | bare parse | ratio | us/entry check | us/entry parse | check fastest |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (k = 1; k <= inputs; k++) {
        name = order[k]
        split(name, p, "/")
        if (p[1] == "bundled") { ck = "bundled/check"; pk = "bundled/parse" }
        else { ck = p[1] "/check/" p[2]; pk = p[1] "/parse/" p[2] }
        if (!(ck in median) || !(pk in median)) continue
        c = median[ck]; b = median[pk]; e = meta[name, "entries"]
        ratio[name] = c / b; per[name] = c / e
        printf "| %s | %s | %.1f | %s | %s | %s | %.1fx | %.1f | %.1f | %s |\n", name, meta[name, "files"],
            meta[name, "bytes"] / 1048576, e, ms(c), ms(b), c / b, c / e, b / e, ms(fastest[ck])
    }
    # Target: within 3x of bare parsing, linear in entries (largest generated input).
    first = ""; last = ""
    for (k = 1; k <= inputs; k++) if (order[k] ~ /^generated\// && (order[k] in ratio)) { if (first == "") first = order[k]; last = order[k] }
    if (last != "") {
        print ""
        verdict = (ratio[last] <= 3) ? "met" : sprintf("MISSED by %.1fx", ratio[last] / 3)
        printf "Target full <= 3x bare parse at %s: ratio %.1fx, %s.\n", last, ratio[last], verdict
        printf "Linearity: %.1f us/entry at %s, %.1f us/entry at %s (x%.2f).\n", per[first], first, per[last], last, per[last] / per[first]
    }

    print ""
    print "## Where the time goes: public pieces of load timed alone (generated inputs, medians)"
    print ""
    print "| N | full check | read | tomljson::parse | schema compile | schema iter_errors | deserialize | cross checks | (of which line_column) | (of which content_path) | rest | bare toml::Table (in memory) |"
    print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (k = 1; k <= inputs; k++) {
        name = order[k]
        if (name !~ /^generated\//) continue
        split(name, p, "/"); n = p[2]
        c = median["generated/check/" n]
        if (c == "") continue
        rd = median["parts/read/" n]; tj = median["parts/tomljson_parse/" n]; sc = median["parts/schema_compile"]
        sv = median["parts/schema_validate/" n]; de = median["parts/deserialize/" n]; cc = median["parts/cross_checks/" n]
        lc = median["parts/effect_line_column/" n]; cp = median["parts/effect_content_path/" n]; tt = median["parts/toml_table/" n]
        rest = (rd == "" || tj == "" || sc == "" || sv == "" || de == "" || cc == "") ? "" : c - rd - tj - sc - sv - de - cc
        printf "| %s | %s | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %s (%s) | %s |\n", n, ms(c),
            ms(rd), pct(rd, c), ms(tj), pct(tj, c), ms(sc), pct(sc, c), ms(sv), pct(sv, c), ms(de), pct(de, c),
            ms(cc), pct(cc, c), ms(lc), pct(lc, c), ms(cp), pct(cp, c), ms(rest), pct(rest, c), ms(tt)
    }

    print ""
    print "## Cheaper ways to do some pieces (bench code, not the engine), medians at the largest N"
    print ""
    print "| piece as load does it | time | alternative | time |"
    print "|---|---:|---|---:|"
    alt("parts/effect_line_column/", "line_column per effect (scan from file start)", "ideas/effect_line_index/", "line-start table per file + binary search", n)
    alt("parts/deserialize/", "deserialize: 2 clones + from_value", "ideas/deserialize_borrowed/", "T::deserialize(&Value), no clone", n)
    alt("parts/tomljson_parse/", "tomljson::parse (JSON + pointer->span map)", "ideas/toml_typed/", "toml::from_str::<ContentFile> (no JSON, no spans)", n)
    alt("parts/schema_validate/", "schema iter_errors", "parts/schema_is_valid/", "schema is_valid", n)
}
function alt(a, an, b, bn, n) {
    if ((a n) in median && (b n) in median)
        printf "| %s | %s | %s | %s |\n", an, ms(median[a n]), bn, ms(median[b n])
}
'
