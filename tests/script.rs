//! The Lua sandbox: the hostile-script suite (`hostile/*.lua`, one attack each,
//! with the expected outcome in its header) and the runtime's promises: effects
//! are not half-applied, nothing persists between calls or cards, randomness is
//! the game's seeded RNG, and the VM stays healthy after every attack.

use arena_engine::content::Content;
use arena_engine::script::api::ApiValue;
use arena_engine::script::host::{Call, RecordingHost};
use arena_engine::script::runtime::{Ctx, Limits, Runtime, ScriptErrorKind, ScriptSource, compile_all};
use std::path::PathBuf;
use std::sync::Arc;

fn source(card: &str, file: &str, text: &str) -> ScriptSource {
    ScriptSource {
        pack: "test".into(),
        card: card.into(),
        effect: String::new(),
        file: PathBuf::from(file),
        first_line: 1,
        source: text.into(),
        module: None,
    }
}

fn runtime() -> Runtime {
    let (set, errors) = compile_all(Vec::new());
    assert!(errors.is_empty());
    Runtime::new(Arc::new(Content::default()), set, Limits::default()).unwrap()
}

const BENIGN: &str = "local game, ctx = ...\ngame:inflict_damage(\"valkyrie\", 1)\nreturn 42\n";

fn assert_healthy(rt: &Runtime, after: &str) {
    let mut host = RecordingHost::new(1);
    let r = rt.run_source(&source("benign", "benign.lua", BENIGN), &mut host, &Ctx::default());
    assert_eq!(r, Ok(ApiValue::Int(42)), "the VM is unhealthy after {after}");
    assert_eq!(
        host.calls,
        vec![Call { name: "inflict_damage", args: vec![ApiValue::Str("valkyrie".into()), ApiValue::Int(1)] }]
    );
    assert!(rt.used_memory() < 8 * 1024 * 1024, "{after} left {} bytes in use", rt.used_memory());
}

#[test]
fn hostile_scripts_are_contained() {
    let dir = arena_tests::tests_dir().join("hostile");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 30, "the suite has {} attacks", files.len());
    let rt = runtime();
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let header = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("-- {key}:")))
                .map(|v| v.trim().to_string())
                .unwrap_or_else(|| panic!("{name}: no `-- {key}:` header"))
        };
        let kind = match header("expect").as_str() {
            "runtime" => ScriptErrorKind::Runtime,
            "budget" => ScriptErrorKind::Budget,
            "memory" => ScriptErrorKind::Memory,
            other => panic!("{name}: unknown expectation {other}"),
        };
        let message = header("message");
        let mut host = RecordingHost::new(1);
        let file = format!("hostile/{name}.lua");
        let result = rt.run_source(&source(&format!("hostile:{name}"), &file, &text), &mut host, &Ctx::default());
        let err = result.expect_err(&format!("{name}: the attack was not stopped"));
        assert_eq!(err.kind, kind, "{name}: {err:?}");
        assert!(err.message.contains(&message), "{name}: message {:?} lacks {message:?}", err.message);
        let d = err.to_diagnostic();
        let loc = d.location.as_ref().unwrap();
        assert_eq!(loc.file, PathBuf::from(&file), "{name}: diagnostic names the file");
        // An error object whose __tostring fails leaves Luau only "error in error
        // handling", with no position to report.
        if kind == ScriptErrorKind::Runtime && err.message != "error in error handling" {
            assert!(err.line.is_some_and(|l| l >= 4), "{name}: a runtime error names its line: {err:?}");
        }
        // A script stopped for its budget names the line it was running (the
        // interrupt's error has no position of its own).
        if kind == ScriptErrorKind::Budget {
            assert!(err.line.is_some_and(|l| l >= 4), "{name}: a budget error names its line: {err:?}");
        }
        assert!(d.notes.iter().any(|n| n.contains("test")), "{name}: diagnostic names the pack");
        assert_eq!(d.content_path.as_deref(), Some(format!("hostile:{name}").as_str()), "{name}: names the card");
        assert!(host.calls.is_empty(), "{name}: a failed effect applied calls: {:?}", host.calls);
        assert_healthy(&rt, &name);
    }
}

/// A failed effect is never half-applied: its calls are rolled back.
#[test]
fn failed_effect_is_rolled_back() {
    let rt = runtime();
    let mut host = RecordingHost::new(1);
    let text = "local game = ...\ngame:inflict_damage(\"valkyrie\", 2)\nerror(\"the card text was wrong\")\n";
    let err = rt.run_source(&source("card:x", "x.lua", text), &mut host, &Ctx::default()).unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::Runtime);
    assert_eq!(err.line, Some(3));
    assert!(err.message.contains("the card text was wrong"));
    assert!(host.calls.is_empty());
    assert_eq!(host.rolled_back.len(), 1);
}

/// Module upvalues are fresh on every call; globals cannot carry state between cards.
#[test]
fn no_state_survives_between_calls_or_cards() {
    let counter = "local n = 0\nreturn function(game, ctx)\n  n = n + 1\n  return n\nend\n";
    let mut a = source("card:a", "a.lua", counter);
    a.module = Some(None);
    let (set, errors) = compile_all(vec![a]);
    assert!(errors.is_empty());
    let rt = Runtime::new(Arc::new(Content::default()), set.clone(), Limits::default()).unwrap();
    let id = set.find("card:a", "").unwrap();
    let mut host = RecordingHost::new(1);
    assert_eq!(rt.call(id, &mut host, &Ctx::default()), Ok(ApiValue::Int(1)));
    assert_eq!(rt.call(id, &mut host, &Ctx::default()), Ok(ApiValue::Int(1)), "upvalue state leaked between calls");
    // Card B cannot see what card A tried to leave behind.
    let _ = rt.run_source(&source("card:a", "a.lua", "shared = 1"), &mut host, &Ctx::default());
    let read = rt.run_source(&source("card:b", "b.lua", "return shared == nil"), &mut host, &Ctx::default());
    assert_eq!(read, Ok(ApiValue::Bool(true)));
}

/// `math.random` is the host's seeded RNG: same seed, same numbers.
#[test]
fn randomness_comes_from_the_game_seed() {
    let rt = runtime();
    let roll = "local t = {}\nfor i = 1, 8 do t[i] = math.random(1, 6) end\nreturn table.concat(t, ',')";
    let run = |seed| {
        let mut host = RecordingHost::new(seed);
        rt.run_source(&source("dice", "dice.lua", roll), &mut host, &Ctx::default()).unwrap()
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7), run(8));
}

/// Content queries answer from the loaded packs, read-only.
#[test]
fn content_queries_read_the_packs() {
    let loaded = arena_engine::load::load(
        &[arena_tests::tests_dir().join("../content/aristeia-core")],
        &arena_engine::load::Options::default(),
    );
    let rt = Runtime::new(Arc::new(loaded.content), loaded.script_set, Limits::default()).unwrap();
    let mut host = RecordingHost::new(1);
    let text = "local game = ...\nlocal red = game:die_faces(\"red\")\nreturn #red .. ':' .. red[1][1]";
    let r = rt.run_source(&source("q", "q.lua", text), &mut host, &Ctx::default());
    assert_eq!(r, Ok(ApiValue::Str("6:critical_success".into())));
    let write = "local game = ...\nlocal red = game:die_faces(\"red\")\nred[1] = {}";
    let err = rt.run_source(&source("q", "q.lua", write), &mut host, &Ctx::default()).unwrap_err();
    assert!(err.message.contains("readonly"), "{err:?}");
}

/// `arena script FILE`: result and recorded calls, or the diagnostic and exit 1.
#[test]
fn arena_script_prints_calls_and_result() {
    std::env::set_current_dir(arena_tests::tests_dir()).unwrap();
    let ok = arena_tests::arena(&[
        "script",
        "fixtures/scripts/frostbite.lua",
        "--pack",
        "../content/aristeia-core",
        "--pack",
        "../content/aristeia-soldiers-of-fortune",
        "--self",
        "valkyrie",
        "--answer",
        r#"enemies_within=["hannibal","laxmee"]"#,
    ]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    insta::assert_snapshot!("script_ok", ok.stdout);
    let bad = arena_tests::arena(&[
        "script",
        "--color",
        "never",
        "fixtures/scripts/bad-argument.lua",
        "--pack",
        "../content/aristeia-core",
    ]);
    assert_eq!(bad.code, 1);
    insta::assert_snapshot!("script_bad_argument", format!("{}{}", bad.stdout, bad.stderr));
}
