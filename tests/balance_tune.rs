//! `arena tune` (docs/balance-runs.md § arena tune): the whole value of a
//! numeric field that brings a figure of the readout to a target, found by
//! batches on the same seeds, written as a guarded patch pack that `arena
//! check` and `arena diff` take as it is.
//!
//! The fixture pack `duel-hit-points` plays Assault with Wild Bill alone
//! (player 1) against Maximus alone, Wild Bill patched down to 1 Hit Point.
//! With greedy players that race for the Scoring Zone (since 2026-12-08),
//! player 1 wins about 51.5% at 1, 2 and 3 Hit Points and more from 4: 66.5%
//! at 4, 70% at 5 (seeds 1-200), so the searches aim at 65%.

use arena_tests::arena;
use serde_json::Value;
use std::path::Path;

const CORE: &str = "../content/aristeia-core";
const DUEL: &str = "fixtures/packs/duel-hit-points";

/// `arena tune duel` on the fixture, player 1 to 65% ± 10 points (unless
/// `extra` gives `--at`), Wild Bill's Hit Points from 1 to 5, writing to `out`.
fn tune(out: &Path, extra: &[&str]) -> (u8, Value, String) {
    let out = out.to_str().unwrap();
    let mut args = vec![
        "tune",
        "duel",
        "--pack",
        CORE,
        "--pack",
        DUEL,
        "--target",
        "seat:1",
        "--field",
        "character:wild-bill.hit_points=1..5",
        "--precision",
        "10",
        "--out",
        out,
        "--format",
        "json",
    ];
    args.extend(extra);
    if !extra.contains(&"--at") {
        args.extend(["--at", "65"]);
    }
    if !extra.contains(&"--jobs") {
        args.extend(["--jobs", "2"]);
    }
    let r = arena(&args);
    let v = serde_json::from_str(&r.stdout).unwrap_or(Value::Null);
    (r.code, v, r.stderr)
}

#[test]
fn tune_finds_the_hit_points_that_bring_a_seat_to_the_target_and_writes_a_guarded_patch() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("first").join("wild-bill-tuned");
    let (code, v, stderr) = tune(&out, &[]);
    assert_eq!(code, 0, "{stderr}\n{v:#}");
    assert_eq!(v["kind"], "tune");
    assert_eq!(v["outcome"], "reached");
    // A bisection of 1..=5: the current value and the two ends, then at most
    // log2(4) = 2 middles; every value on the seeds from 1, chunks of 200.
    let reads = v["reads"].as_array().unwrap();
    assert!(reads.len() <= 3 + 2, "{reads:#?}");
    for r in reads {
        assert_eq!(r["games"].as_u64().unwrap() % 200, 0, "{r}");
        assert_eq!(r["field"], "character:wild-bill.hit_points", "the field whose search read it");
    }
    let games: u64 = v["games"].as_u64().unwrap();
    assert_eq!(games, reads.iter().map(|r| r["games"].as_u64().unwrap()).sum::<u64>(), "no value read twice");
    // What it found: a value whose 95% interval lies inside 55-75%.
    let value = v["fields"][0]["value"].as_i64().unwrap();
    assert!((2..=5).contains(&value), "{value}");
    let reading = &v["reading"];
    assert_eq!(reading["values"]["character:wild-bill.hit_points"], value);
    assert!(reading["low"].as_f64().unwrap() >= 0.55 && reading["high"].as_f64().unwrap() <= 0.75, "{reading}");

    // The patch: guarded by the value it replaces, its note quoting the evidence.
    let patch = std::fs::read_to_string(out.join("tune.toml")).unwrap();
    let parsed: toml::Value = toml::from_str(&patch).unwrap();
    let p = &parsed["patch"][0];
    assert_eq!(p["target"].as_str(), Some("character:wild-bill"));
    let op = &p["op"][0];
    assert_eq!((op["op"].as_str(), op["path"].as_str()), (Some("replace"), Some("hit_points")));
    assert_eq!((op["expect"].as_integer(), op["value"].as_integer()), (Some(1), Some(value)));
    let reason = p["reason"].as_str().unwrap();
    let found_games = reading["games"].as_u64().unwrap();
    for says in [
        format!("over {found_games} games"),
        format!("{:.1}%", reading["estimate"].as_f64().unwrap() * 100.0),
        "players greedy".to_string(),
        "asked 65.0% ± 10.0 points".to_string(),
    ] {
        assert!(reason.contains(&says), "`{says}` in {reason}");
    }
    let manifest: toml::Value = toml::from_str(&std::fs::read_to_string(out.join("pack.toml")).unwrap()).unwrap();
    assert_eq!(manifest["id"].as_str(), Some("wild-bill-tuned"));
    // It depends on the pack that defines Wild Bill and the one that patched him.
    assert_eq!(manifest["dependencies"]["aristeia-core"].as_str(), Some("^1.0"));
    assert_eq!(manifest["dependencies"]["duel-hit-points"].as_str(), Some("^0.1"));

    // `arena check` and `arena diff` take the pack as it is.
    let out_s = out.to_str().unwrap();
    let check = arena(&["check", CORE, DUEL, out_s]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    assert!(check.stdout.contains("0 errors, 0 warnings"), "{}", check.stdout);
    let diff = arena(&["diff", "--base", CORE, "--base", DUEL, "--with", CORE, "--with", DUEL, "--with", out_s]);
    assert_eq!(diff.code, 0, "{}", diff.stderr);
    assert!(diff.stdout.contains(&format!("character:wild-bill hit_points:\n  - 1\n  + {value}")), "{}", diff.stdout);

    // The next batch, on seeds the search never played, reads 65% ± 10.
    let next = arena(&[
        "sim",
        "duel",
        "--pack",
        CORE,
        "--pack",
        DUEL,
        "--pack",
        out_s,
        "--games",
        "200",
        "--seed",
        "5001",
        "--jobs",
        "2",
        "--format",
        "json",
        "--without-games",
    ]);
    assert_eq!(next.code, 0, "{}", next.stderr);
    let next: Value = serde_json::from_str(&next.stdout).unwrap();
    let rate = next["report"]["win_rate"][0]["rate"].as_f64().unwrap();
    assert!((0.55..=0.75).contains(&rate), "player 1 wins {rate} on seeds 5001-5200");

    // The same seed writes the same pack, byte for byte (beside the first,
    // so the `#:schema` lines' relative paths are the same too).
    let again = dir.path().join("again").join("wild-bill-tuned");
    let (code, v2, stderr) = tune(&again, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(v2["reads"], v["reads"]);
    for file in ["pack.toml", "tune.toml"] {
        assert_eq!(
            std::fs::read_to_string(out.join(file)).unwrap(),
            std::fs::read_to_string(again.join(file)).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn a_current_value_already_within_the_precision_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("unchanged");
    // At 1 Hit Point player 1 wins about 51.5%: asked for 50% ± 10, nothing changes.
    let (code, v, stderr) = tune(&out, &["--at", "50"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(v["outcome"], "reached");
    assert_eq!(v["fields"][0]["value"], 1);
    assert_eq!(v["reads"].as_array().unwrap().len(), 1);
    assert_eq!(v["out"], Value::Null);
    assert!(!out.exists(), "no pack written");
}

#[test]
fn a_target_no_value_of_the_range_reaches_gives_the_closest_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("too-far");
    // Player 1 at 95% is beyond any Hit Points from 1 to 5.
    let (code, v, stderr) = tune(&out, &["--at", "95"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(v["outcome"], "out-of-range");
    assert_eq!(v["fields"][0]["value"], 5, "the closest end");
    let reason = std::fs::read_to_string(out.join("tune.toml")).unwrap();
    assert!(reason.contains("no value of the range reaches it"), "{reason}");
    let manifest = std::fs::read_to_string(out.join("pack.toml")).unwrap();
    assert!(manifest.contains("brought closest to (not reached)"), "{manifest}");
}

#[test]
fn bad_targets_fields_and_folders_are_refused_with_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let taken = dir.path().join("taken");
    std::fs::create_dir_all(&taken).unwrap();
    std::fs::write(taken.join("pack.toml"), "id = \"taken\"\n").unwrap();
    let taken = taken.to_str().unwrap().to_string();
    // A folder named as a loaded pack would give the written pack its id.
    let core_named = dir.path().join("aristeia-core").to_str().unwrap().to_string();
    let base = ["tune", "duel", "--pack", CORE, "--pack", DUEL];
    for (args, says) in [
        (vec!["--target", "seat:1", "--field", "character:wild-bill.hit_points"], "no range"),
        (vec!["--target", "seat:1", "--field", "character:wild-bill.hit_points=5..1"], "LOW < HIGH"),
        (vec!["--target", "seat:1", "--field", "character:wild-bill.hit_points=a..3"], "not a whole number"),
        (
            vec!["--target", "seat:1", "--field", "character:wild-bil.hit_points=1..5"],
            "did you mean `character:wild-bill`",
        ),
        (vec!["--target", "seat:1", "--field", "character:wild-bill.hit_point=1..5"], "(did you mean `hit_points`?)"),
        (
            vec![
                "--target",
                "seat:1",
                "--field",
                "character:wild-bill.hit_points=1..5",
                "--field",
                "character:wild-bill.hit_points=2..3",
            ],
            "given twice",
        ),
        (vec!["--target", "god:athena", "--field", "character:wild-bill.hit_points=1..5"], "no god `athena`"),
        (vec!["--target", "seat:1", "--field", "character:wild-bill.name=1..5"], "not a whole number"),
        (vec!["--target", "seat:3", "--field", "character:wild-bill.hit_points=1..5"], "the game has 2 players"),
        (
            vec!["--target", "character:wild-bil", "--field", "character:wild-bill.hit_points=1..5"],
            "did you mean `wild-bill`",
        ),
        (
            vec!["--target", "win-rate", "--field", "character:wild-bill.hit_points=1..5"],
            "seat:N, character:ID or god:ID",
        ),
        (
            vec!["--target", "seat:1", "--field", "character:wild-bill.hit_points=1..5", "--out", taken.as_str()],
            "already holds a pack",
        ),
        (
            vec!["--target", "seat:1", "--field", "character:wild-bill.hit_points=1..5", "--out", core_named.as_str()],
            "the id of a pack loaded",
        ),
        // --force replaces a tuned pack only, never a designer's own.
        (
            vec![
                "--target",
                "seat:1",
                "--field",
                "character:wild-bill.hit_points=1..5",
                "--out",
                taken.as_str(),
                "--force",
            ],
            "arena tune did not write",
        ),
        (
            vec!["--target", "seat:1", "--field", "character:wild-bill.hit_points=1..5", "--out", "-"],
            "not standard output",
        ),
    ] {
        let mut all = base.to_vec();
        all.extend(&args);
        let r = arena(&all);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: `{says}` in {}", r.stderr);
    }
    assert_eq!(std::fs::read_to_string(dir.path().join("taken/pack.toml")).unwrap(), "id = \"taken\"\n", "untouched");
}

#[test]
fn a_range_the_schema_refuses_is_a_usage_error_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("negative");
    // Hit Points below 0 break the schema: the range's low end is refused
    // with the loader's diagnostic, before a game is played.
    let r = arena(&[
        "tune",
        "duel",
        "--pack",
        CORE,
        "--pack",
        DUEL,
        "--target",
        "seat:1",
        "--field",
        "character:wild-bill.hit_points=-3..1",
        "--precision",
        "10",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("character:wild-bill.hit_points = -3 is not a value the content allows"), "{}", r.stderr);
    assert!(r.stderr.contains("patch-invalid") && r.stderr.contains("<tune candidate>"), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "no value read: {}", r.stdout);
    assert!(!out.exists(), "no pack written");
}
