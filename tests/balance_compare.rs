//! Paired comparisons (`arena sim SCENARIO --games N --compare BASE_PACK...`):
//! the same seeds and teams played under a base content and a changed one,
//! and per seat and Character the paired difference in win rate, its
//! interval, McNemar's test and Holm's correction (docs/balance-runs.md).

use arena_tests::arena;
use serde_json::Value;

const CORE: &str = "../content/aristeia-core";
const SAME: &str = "fixtures/packs/wild-bill-same-hit-points";
const PLUS_ONE: &str = "fixtures/packs/wild-bill-plus-one-hit-point";
const ORANGE_AT_ONE: &str = "fixtures/packs/orange-team-at-one-hit-point";

fn run(args: &[&str]) -> arena_tests::Run {
    arena(args)
}

/// `sim SCENARIO --pack CHANGED --compare BASE --games N` with `extra`, as JSON.
fn compare_json(scenario: &str, changed: &str, base: &str, games: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "sim",
        scenario,
        "--pack",
        changed,
        "--compare",
        base,
        "--games",
        games,
        "--jobs",
        "2",
        "--format",
        "json",
    ];
    args.extend(extra);
    let r = run(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap()
}

/// Every row of a comparison's report: the seats', then the Characters'.
fn rows(v: &Value) -> Vec<(String, Value)> {
    let report = &v["report"];
    let mut out: Vec<(String, Value)> = report["seats"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, r)| (format!("player {}", i + 1), r.clone()))
        .collect();
    out.extend(report["characters"].as_object().unwrap().iter().map(|(c, r)| (c.clone(), r.clone())));
    out
}

fn assert_nothing_changed(v: &Value) {
    let rows = rows(v);
    assert!(rows.len() > 2, "seats and Characters: {rows:?}");
    assert_eq!(v["paired"]["errors"], 0);
    for (name, r) in &rows {
        assert!(r["games"].as_u64().unwrap() > 0, "{name}: {r}");
        assert_eq!(r["difference"], 0.0, "{name}: {r}");
        assert_eq!(r["outcome_changed"], 0, "{name}: {r}");
        assert_eq!(r["significant"], false, "{name}: {r}");
        assert_eq!(r["win_rate_base"], r["win_rate_changed"], "{name}: {r}");
    }
    for (name, counts) in v["paired"]["characters"].as_object().unwrap() {
        assert_eq!(counts["won_base_only"], 0, "{name}");
        assert_eq!(counts["won_changed_only"], 0, "{name}");
    }
}

#[test]
fn a_patch_that_changes_nothing_gives_a_paired_difference_of_zero_and_no_changed_game() {
    // A pack that patches Wild Bill's Hit Points to their own value: other
    // content (its hash differs), the same games.
    let v = compare_json("first-game", SAME, CORE, "12", &[]);
    assert_ne!(v["content_hash"], v["base_content_hash"]);
    assert_eq!(v["kind"], "sim-compare");
    assert_eq!(v["paired"]["games"], 12);
    assert_nothing_changed(&v);
    // The same packs on both sides, with random teams drawn per seed.
    let v = compare_json("assault", CORE, CORE, "8", &["--random-teams", "--players", "greedy,random"]);
    assert_eq!(v["content_hash"], v["base_content_hash"]);
    assert_nothing_changed(&v);
}

#[test]
fn teams_are_drawn_from_the_base_packs_so_a_character_only_the_change_has_never_plays() {
    // The duelist mod adds La Duelista: drawn from the changed packs, the
    // random teams would hold her in some games and differ; drawn from the
    // base, both sides play the same teams, and the same games.
    let args = [
        "sim",
        "assault",
        "--random-teams",
        "--pack",
        CORE,
        "--pack",
        "../mods/duelist",
        "--compare",
        CORE,
        "--games",
        "10",
        "--jobs",
        "2",
        "--format",
        "json",
    ];
    let r = run(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("`la-duelista` never plays"), "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(v["paired"]["characters"].get("la-duelista").is_none());
    assert_nothing_changed(&v);
}

#[test]
fn a_team_at_one_hit_point_is_flagged_significant_after_holm() {
    let v = compare_json("first-game", ORANGE_AT_ONE, CORE, "60", &[]);
    let report = &v["report"];
    let orange = &report["seats"][1];
    assert!(orange["difference"].as_f64().unwrap() < -0.1, "{orange}");
    assert!(orange["high"].as_f64().unwrap() < 0.0, "{orange}");
    assert_eq!(orange["significant"], true, "{orange}");
    assert!(orange["p_holm"].as_f64().unwrap() >= orange["p"].as_f64().unwrap());
    assert_eq!(report["characters"]["wild-bill"]["significant"], true);
    // Holm's correction runs across every row printed: 2 seats and 8 Characters.
    assert_eq!(report["holm_rows"], 10);
    // The paired counts behind the row.
    let counts = &v["paired"]["seats"][1];
    assert!(counts["won_base_only"].as_u64().unwrap() > counts["won_changed_only"].as_u64().unwrap() + 10, "{counts}");

    let r = run(&["sim", "first-game", "--pack", ORANGE_AT_ONE, "--compare", CORE, "--games", "60", "--jobs", "2"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let player_2 = r.stdout.lines().find(|l| l.trim_start().starts_with("player 2")).unwrap();
    assert!(player_2.contains(" * "), "marked significant: {player_2}");
    assert!(r.stdout.contains("Holm-corrected across the 10 rows"), "{}", r.stdout);
    assert!(r.stdout.contains("even share: 50.0%"), "{}", r.stdout);
    assert!(r.stdout.contains("* wild-bill"), "the patched Characters are marked: {}", r.stdout);
}

/// Shards 4..1 of a comparison with random teams, as files.
fn shard_files(dir: &std::path::Path) -> Vec<String> {
    let mut files = Vec::new();
    for i in (1..=4).rev() {
        let shard = format!("{i}/4");
        let v = compare_json(
            "assault",
            PLUS_ONE,
            CORE,
            "12",
            &["--random-teams", "--players", "greedy,random", "--seed", "3", "--shard", &shard, "--without-games"],
        );
        let path = dir.join(format!("shard-{i}.json"));
        std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
        files.push(path.to_string_lossy().into_owned());
    }
    files
}

#[test]
fn four_merged_shards_of_a_comparison_equal_one_comparison_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path());
    let whole = run(&[
        "sim",
        "assault",
        "--pack",
        PLUS_ONE,
        "--compare",
        CORE,
        "--games",
        "12",
        "--jobs",
        "2",
        "--format",
        "json",
        "--random-teams",
        "--players",
        "greedy,random",
        "--seed",
        "3",
    ]);
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    let mut args = vec!["sim", "merge", "--pack", PLUS_ONE, "--compare", CORE, "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let merged = run(&args);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert_eq!(merged.stdout, whole.stdout, "byte for byte");
    let v: Value = serde_json::from_str(&merged.stdout).unwrap();
    assert!(v["report"]["characters"].as_object().unwrap().len() > 4, "random teams give many rows");

    // Without the base packs the shards cannot be checked: refused.
    let mut args = vec!["sim", "merge", "--pack", PLUS_ONE];
    args.extend(files.iter().map(String::as_str));
    let r = run(&args);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--compare"), "{}", r.stderr);
    // With other base packs: refused, naming the file.
    let mut args = vec!["sim", "merge", "--pack", PLUS_ONE, "--compare", SAME];
    args.extend(files.iter().map(String::as_str));
    let r = run(&args);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("shard-1.json") && r.stderr.contains("other content"), "{}", r.stderr);
    // Paired counts are read back, not trusted: more discordant wins than wins.
    let path = dir.path().join("shard-2.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    v["paired"]["seats"][0]["won_base_only"] = 999.into();
    std::fs::write(&path, v.to_string()).unwrap();
    let mut args = vec!["sim", "merge", "--pack", PLUS_ONE, "--compare", CORE];
    args.extend(files.iter().map(String::as_str));
    let r = run(&args);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("shard-2.json") && r.stderr.contains("paired.seats[0].won_base_only"), "{}", r.stderr);
}

#[test]
fn a_team_character_the_changed_packs_lack_is_refused() {
    // Random teams drawn from the base (core and the duelist mod) may pick
    // La Duelista, whom the changed packs (core alone) do not have.
    let r = run(&[
        "sim",
        "assault",
        "--pack",
        CORE,
        "--compare",
        CORE,
        "--compare",
        "../mods/duelist",
        "--games",
        "4",
        "--random-teams",
    ]);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("`la-duelista`") && r.stderr.contains("lacks"), "{}", r.stderr);
    // Invictus batches are not compared (yet): refused, not ignored.
    let r = run(&["sim", "invictus", "--compare", CORE, "--games", "2"]);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("Invictus"), "{}", r.stderr);
    // A Draft game picks its teams at the table: nothing to pair.
    let r = run(&[
        "sim",
        "common-goals",
        "--pack",
        "../content",
        "--compare",
        "../content",
        "--games",
        "2",
        "--seats",
        "3",
        "--optional-rule",
        "draft",
    ]);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("draft"), "{}", r.stderr);
}
