//! Replay files: one format (2) for both games, written by `arena sim
//! --replay`, checked by `arena replay`; the two formats of before still
//! verify and `arena replay --upgrade` rewrites them as format 2
//! (engine/src/replay_file.rs, docs/json.md § Replay files).

use arena_tests::{arena, tests_dir};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn write(path: &Path, v: &Value) {
    std::fs::write(path, v.to_string()).unwrap();
}

fn fixture(name: &str) -> PathBuf {
    tests_dir().join("fixtures/replays").join(name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `arena replay FILE` exits 0 saying how many events were the same.
fn verifies(file: &Path, events: usize) {
    let run = arena(&["replay", s(file)]);
    assert_eq!(run.code, 0, "{}: {}", file.display(), run.stderr);
    assert!(run.stdout.contains(&format!("replay ok: {events} events, the same as recorded")), "{}", run.stdout);
}

/// Record a game with `arena sim ... --replay FILE --format json`: the file
/// and the game's JSON.
fn record(dir: &Path, name: &str, args: &[&str]) -> (PathBuf, Value) {
    let file = dir.join(name);
    let mut all = vec!["sim"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json", "--replay", s(&file)]);
    let run = arena(&all);
    assert!(run.code <= 1, "{}", run.stderr);
    (file.clone(), serde_json::from_str(&run.stdout).unwrap())
}

/// The content hash of the bundled packs, as `arena sim` records it now.
fn current_hash(dir: &Path) -> String {
    let (file, _) = record(dir, "hash.json", &["assault", "--seed", "1"]);
    json(&file)["content_hash"].as_str().unwrap().to_string()
}

#[test]
fn a_recorded_aristeia_game_round_trips_through_format_2() {
    let dir = tempfile::tempdir().unwrap();
    let (file, game) = record(
        dir.path(),
        "prime-time.json",
        &[
            "crossover-assault",
            "--seats",
            "4",
            "--players",
            "greedy,random,greedy,random",
            "--optional-rule",
            "underdog",
            "--seed",
            "9",
        ],
    );
    let v = json(&file);
    assert_eq!(v["game"], "aristeia");
    assert_eq!(v["format"], 2);
    assert_eq!(v["content_hash"].as_str().unwrap().len(), 64, "a BLAKE3 hex digest");
    assert!(v["packs"].as_array().unwrap().iter().any(|p| p == "aristeia-core@1.0.0"), "{}", v["packs"]);
    assert_eq!(
        v["setup"],
        serde_json::json!({"name": "crossover-assault", "random_teams": true, "seats": 4, "optional_rules": ["underdog"]})
    );
    assert_eq!(v["seed"], 9);
    // The file holds the game that was played: its answers and its events.
    assert_eq!(v["answers"], game["answers"]);
    assert_eq!(v["events"], game["events"]);
    let events = v["events"].as_array().unwrap().len();
    assert!(events > 100, "a whole game");
    verifies(&file, events);
    // A ready-made setup at two seats.
    let (file, game) = record(dir.path(), "first-game.json", &["first-game", "--seed", "4"]);
    let v = json(&file);
    assert_eq!(v["setup"], serde_json::json!({"name": "first-game", "seats": 2}));
    assert_eq!(v["events"], game["events"]);
    verifies(&file, game["events"].as_array().unwrap().len());
}

#[test]
fn a_recorded_invictus_game_at_4_seats_round_trips_through_format_2() {
    let dir = tempfile::tempdir().unwrap();
    let (file, game) = record(
        dir.path(),
        "invictus.json",
        &["invictus", "--seats", "4", "--players", "greedy,random", "--seed", "11"],
    );
    let v = json(&file);
    assert_eq!(v["game"], "invictus");
    assert_eq!(v["format"], 2);
    assert_eq!(v["content_hash"].as_str().unwrap().len(), 64, "Invictus files have a content hash too");
    assert!(v["packs"].as_array().unwrap().iter().any(|p| p.as_str().unwrap().starts_with("invictus@")));
    assert_eq!(v["setup"], game["setup"], "the InvictusSetup");
    assert_eq!(v["setup"]["players"], 4);
    assert_eq!(v["answers"], game["record"]["answers"]);
    assert_eq!(v["events"], game["record"]["events"], "the events as JSON, not the narrative");
    verifies(&file, v["events"].as_array().unwrap().len());
}

/// Recordings made before format 2 (the fixtures were recorded by the
/// `arena` of main 2d56c01, before it; the format-1 file's answers and
/// events were played again in its own format after rulings R79 and R7 changed
/// where Prime Time Teams deploy and what an empty deck draws) still verify, and `--upgrade` turns them
/// into format 2 files of the same game that verify.
#[test]
fn replays_recorded_in_the_old_formats_verify_and_upgrade_to_format_2() {
    let dir = tempfile::tempdir().unwrap();
    let hash = current_hash(dir.path());
    for (name, game, events) in [
        ("format-1-crossover-assault-4-seats-underdog-seed-4.json", "aristeia", 937),
        ("invictus-unversioned-4-seats-seed-5.json", "invictus", 360),
    ] {
        let old = json(&fixture(name));
        assert!(old.get("format").is_none_or(|f| f == 1), "{name} is of an old format");
        verifies(&fixture(name), events);
        // The Aristeia! file names the content it was recorded on, which every
        // later edit of a bundled pack changes: the copy upgraded here names
        // today's (a file of other content is refused: the test below).
        let copy = dir.path().join(name);
        let mut text = old.clone();
        if text.get("content_hash").is_some() {
            text["content_hash"] = Value::String(hash.clone());
        }
        write(&copy, &text);
        let out = dir.path().join(format!("upgraded-{name}"));
        let run = arena(&["replay", "--upgrade", s(&copy), "--out", s(&out)]);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        assert!(run.stdout.contains("to format 2"), "{}", run.stdout);
        let new = json(&out);
        assert_eq!(new["game"], game);
        assert_eq!(new["format"], 2);
        assert_eq!(new["content_hash"], Value::String(hash.clone()));
        assert_eq!(new["seed"], old["seed"]);
        assert_eq!(new["answers"], old["answers"]);
        assert_eq!(new["events"].as_array().unwrap().len(), events);
        if let Some(recorded) = old.get("events") {
            assert_eq!(&new["events"], recorded, "{name}: the same events");
        }
        verifies(&out, events);
        assert_eq!(json(&copy), text, "--out leaves the old file as it was");
    }
    // Without --out the file itself is rewritten.
    let copy = dir.path().join("in-place.json");
    std::fs::copy(fixture("invictus-unversioned-4-seats-seed-5.json"), &copy).unwrap();
    let run = arena(&["replay", "--upgrade", s(&copy)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(json(&copy)["format"], 2);
    verifies(&copy, 360);
}

#[test]
fn an_upgrade_refuses_a_file_recorded_on_other_content() {
    let dir = tempfile::tempdir().unwrap();
    let old = fixture("assault-greedy-seed-7.json");
    let out = dir.path().join("out.json");
    let run = arena(&["replay", "--upgrade", s(&old), "--out", s(&out)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("assault-greedy-seed-7.json"), "names the file: {}", run.stderr);
    assert!(run.stderr.contains("not upgraded: it was recorded on other content"), "{}", run.stderr);
    assert!(run.stderr.contains("3de10d645c53 then"), "{}", run.stderr);
    assert!(!out.exists(), "nothing is written");
    // Told to, it upgrades a file whose every event is still the same.
    let run = arena(&["replay", "--upgrade", "--allow-changed-content", s(&old), "--out", s(&out)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(json(&out)["setup"], serde_json::json!({"name": "first-game"}));
    verifies(&out, 619);
}

#[test]
fn an_upgrade_refuses_a_file_that_does_not_verify() {
    let dir = tempfile::tempdir().unwrap();
    let mut old = json(&fixture("invictus-unversioned-4-seats-seed-5.json"));
    old["narrative"][20] = Value::String("someone wins at once".into());
    let bad = dir.path().join("edited.json");
    write(&bad, &old);
    let out = dir.path().join("out.json");
    let run = arena(&["replay", "--upgrade", s(&bad), "--out", s(&out)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("edited.json: not upgraded: replay differs at event 20"), "{}", run.stderr);
    assert!(run.stderr.contains("recorded: someone wins at once"), "{}", run.stderr);
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn a_tampered_answer_or_event_fails_saying_where() {
    let dir = tempfile::tempdir().unwrap();
    for (name, args) in [
        ("aristeia.json", vec!["assault", "--seed", "3"]),
        ("invictus.json", vec!["invictus", "--seats", "4", "--seed", "2"]),
    ] {
        let (file, _) = record(dir.path(), name, &args);
        let v = json(&file);
        // An answer no Decision could take: which one, and the Decision.
        let mut t = v.clone();
        t["answers"][3] = serde_json::json!(999);
        let edited = dir.path().join(format!("answer-{name}"));
        write(&edited, &t);
        let run = arena(&["replay", s(&edited)]);
        assert_eq!(run.code, 1, "{name}: {}", run.stderr);
        assert!(run.stderr.contains("answer 3 (from 0) is 999, but the Decision it met has"), "{}", run.stderr);
        assert!(run.stderr.contains("player "), "the Decision is named: {}", run.stderr);
        // An event that is not what the game plays: which one, both sides.
        let mut t = v.clone();
        t["events"][40]["event"] = Value::String("nonsense".into());
        let edited = dir.path().join(format!("event-{name}"));
        write(&edited, &t);
        let run = arena(&["replay", s(&edited)]);
        assert_eq!(run.code, 1, "{name}: {}", run.stderr);
        assert!(run.stderr.contains("replay differs at event 40:"), "{}", run.stderr);
        assert!(run.stderr.contains(r#"recorded: {"event":"nonsense""#), "{}", run.stderr);
        // Answers cut short: where the game waits.
        let mut t = v.clone();
        let n = t["answers"].as_array().unwrap().len();
        t["answers"].as_array_mut().unwrap().truncate(n - 3);
        let edited = dir.path().join(format!("short-{name}"));
        write(&edited, &t);
        let run = arena(&["replay", s(&edited)]);
        assert_eq!(run.code, 1, "{name}: {}", run.stderr);
        assert!(run.stderr.contains("answers run out before the game ends"), "{}", run.stderr);
    }
}

#[test]
fn a_replay_of_an_unknown_game_or_a_future_format_is_refused_naming_what_is_known() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = record(dir.path(), "game.json", &["assault", "--seed", "2"]);
    let v = json(&file);
    let mut t = v.clone();
    t["game"] = Value::String("chess".into());
    let chess = dir.path().join("chess.json");
    write(&chess, &t);
    let run = arena(&["replay", s(&chess)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("chess.json: `chess` is not a game this arena knows: it knows aristeia, invictus"),
        "{}",
        run.stderr
    );
    let mut t = v.clone();
    t["format"] = serde_json::json!(3);
    let future = dir.path().join("future.json");
    write(&future, &t);
    let run = arena(&["replay", s(&future)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("replay format 3 is not one this arena reads"), "{}", run.stderr);
    assert!(run.stderr.contains("format 2 (every game), Aristeia!'s format 1"), "{}", run.stderr);
    // --upgrade refuses them the same way, writing nothing.
    let run = arena(&["replay", "--upgrade", s(&future)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(json(&future)["format"], 3);
}

/// `arena render replay` and the viewer draw a format 2 file and an old one alike.
#[test]
fn render_replay_draws_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = record(dir.path(), "game.json", &["assault", "--seed", "3"]);
    for f in [file, fixture("format-1-crossover-assault-4-seats-underdog-seed-4.json")] {
        let run = arena(&["render", "replay", s(&f), "--event", "30"]);
        assert_eq!(run.code, 0, "{}: {}", f.display(), run.stderr);
        assert!(run.stdout.starts_with("<svg"), "{}", &run.stdout[..run.stdout.len().min(100)]);
        assert!(!run.stderr.contains("warning"), "{}", run.stderr);
    }
}

/// A replay names the packs it was played on: given no `--pack`, `arena
/// replay` and `arena render replay` load those (the bundled packs of those
/// ids), so a Prime Time game plays again on the Prime Time packs alone; and
/// the viewer refuses a file whose recorded events differ from the game it
/// gives on the packs it serves (it showed another game without a word).
#[test]
fn a_replay_loads_the_packs_it_records_and_the_viewer_refuses_another_game() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = record(
        dir.path(),
        "wanted.json",
        &["wanted", "--pack", "aristeia-core", "--pack", "aristeia-prime-time", "--seed", "2"],
    );
    let packs = json(&file)["packs"].clone();
    assert_eq!(packs.as_array().map(Vec::len), Some(2), "{packs}");
    let run = arena(&["replay", s(&file), "-v"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("loaded pack aristeia-prime-time@"), "{}", run.stderr);
    assert!(
        !run.stderr.contains("loaded pack aristeia-soldiers-of-fortune"),
        "only the recorded packs: {}",
        run.stderr
    );
    assert!(!run.stderr.contains("content has changed"), "{}", run.stderr);
    let drawn = arena(&["render", "replay", s(&file), "--event", "20"]);
    assert_eq!(drawn.code, 0, "{}", drawn.stderr);
    assert!(drawn.stderr.is_empty(), "{}", drawn.stderr);

    // An event changed by hand: `replay` says so, the viewer will not serve it.
    let mut v = json(&file);
    let events = v["events"].as_array_mut().unwrap();
    let n = events.len() / 2;
    events[n] = serde_json::json!({"kind": "round-started", "round": 99});
    let edited = dir.path().join("edited.json");
    write(&edited, &v);
    assert_eq!(arena(&["replay", s(&edited)]).code, 1);
    let serve = |paths: Vec<PathBuf>, replay: &Path| {
        arena::serve::start(arena::serve::Config {
            paths,
            port: 0,
            replays: vec![replay.to_path_buf()],
            ..arena::serve::Config::default()
        })
    };
    let recorded_packs =
        vec![tests_dir().join("../content/aristeia-core"), tests_dir().join("../content/aristeia-prime-time")];
    serve(recorded_packs.clone(), &file).expect("served on the packs it records").stop();
    let err = serve(recorded_packs, &edited).err().expect("the viewer refuses the edited replay").to_string();
    assert!(err.contains(&format!("differs from the one it recorded at event {n}")), "{err}");
    // On more packs the teams are drawn from more Characters: another game.
    let err = serve(vec![tests_dir().join("../content")], &file).err().expect("refused on other content").to_string();
    assert!(err.contains("differs from the one it recorded at event"), "{err}");
}
