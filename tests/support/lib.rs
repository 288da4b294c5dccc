//! Shared helpers for the integration tests: run the `arena` CLI in-process and
//! read fixture expectations.

pub mod watching;

use std::path::{Path, PathBuf};

/// What one CLI run produced.
#[derive(Debug)]
pub struct Run {
    /// Exit code.
    pub code: u8,
    /// Everything written to stdout.
    pub stdout: String,
    /// Everything written to stderr.
    pub stderr: String,
}

/// Run `arena` with these arguments (without the program name), from the
/// `tests/` folder, so paths in output are relative and stable.
pub fn arena(args: &[&str]) -> Run {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let argv: Vec<&str> = std::iter::once("arena").chain(args.iter().copied()).collect();
    let code = arena::run(argv, &mut out, &mut err);
    Run {
        code,
        stdout: String::from_utf8(out).expect("stdout is UTF-8"),
        stderr: String::from_utf8(err).expect("stderr is UTF-8"),
    }
}

/// [`arena`], with `stdin` as its standard input (what a FILE of `-` reads).
pub fn arena_with_stdin(args: &[&str], stdin: impl Into<Vec<u8>>) -> Run {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let argv: Vec<&str> = std::iter::once("arena").chain(args.iter().copied()).collect();
    let code = arena::run_with_stdin(argv, std::io::Cursor::new(stdin.into()), &mut out, &mut err);
    Run {
        code,
        stdout: String::from_utf8(out).expect("stdout is UTF-8"),
        stderr: String::from_utf8(err).expect("stderr is UTF-8"),
    }
}

/// The `tests/` folder (the integration tests run with it as their current folder).
pub fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file below `dir` with its length and modification time, sorted: taken
/// before and after a run to show the run wrote nothing.
pub fn tree_fingerprint(dir: &Path) -> Vec<(PathBuf, u64, std::time::SystemTime)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            let Ok(m) = std::fs::symlink_metadata(&p) else { continue };
            if m.is_dir() {
                stack.push(p.clone());
            }
            out.push((p, m.len(), m.modified().unwrap_or(std::time::UNIX_EPOCH)));
        }
    }
    out.sort();
    out
}

use arena_engine::load::Loaded;
use arena_engine::script::runtime::{ScriptError, ScriptSet, ScriptSource};
use std::sync::Arc;

/// The bundled packs of `content/`, without their script tests; they load
/// without errors.
pub fn bundled() -> Loaded {
    let root = tests_dir().join("..");
    let options = arena_engine::load::Options { run_script_tests: false, ..arena_engine::load::Options::default() };
    let loaded = arena_engine::load::load(&[root.join("content")], &options);
    assert!(!loaded.has_errors(), "the bundled content has errors");
    loaded
}

/// The scripts of `loaded`, each one for which `replace` gives a text
/// replaced by that text (as the file `file`, line 1), compiled; with the
/// compile errors (a script refused is left out of the set).
pub fn scripts_with<'t>(
    loaded: &Loaded,
    file: &str,
    replace: impl Fn(&ScriptSource) -> Option<&'t str>,
) -> (Arc<ScriptSet>, Vec<ScriptError>) {
    let sources: Vec<ScriptSource> = loaded
        .script_set
        .sources()
        .iter()
        .map(|s| match replace(s) {
            Some(text) => ScriptSource {
                file: PathBuf::from(file),
                first_line: 1,
                source: text.into(),
                module: None,
                ..s.clone()
            },
            None => s.clone(),
        })
        .collect();
    arena_engine::script::runtime::compile_all(sources)
}

/// The bundled scripts with the effect `(card, effect)` replaced by `text`, and
/// the compile errors (an attack refused before it runs is left out of the set).
pub fn with_script(
    loaded: &Loaded,
    card: &str,
    effect: &str,
    file: &str,
    text: &str,
) -> (Arc<ScriptSet>, Vec<ScriptError>) {
    scripts_with(loaded, file, |s| (s.card == card && s.effect == effect).then_some(text))
}

/// The first effect that runs in the bundled `first-game` of seed 7 (a
/// random player against a greedy one): every script is replaced by one that
/// logs its card and effect.
pub fn first_effect(loaded: &Loaded) -> (String, String) {
    use arena_engine::script::runtime::{Limits, Runtime};
    use arena_engine::sim;
    let logger = "local game, ctx = ...\ngame:log(\"RAN \" .. ctx.card .. \"|\" .. ctx.effect)\nreturn true\n";
    let (set, _) = scripts_with(loaded, "logger.lua", |_| Some(logger));
    let rt = Runtime::new(Arc::new(loaded.content.clone()), set, Limits::default()).unwrap();
    let setup = arena_engine::rules::game::GameSetup::from_content(&loaded.content, "first-game", 7).unwrap();
    let record = sim::play_with(&loaded.content, &rt, &setup, &[sim::Policy::Random, sim::Policy::Greedy]).unwrap();
    record
        .events
        .iter()
        .find_map(|e| match e {
            arena_engine::rules::event::Event::Log { text } => text.strip_prefix("RAN ").map(|r| {
                let (card, effect) = r.split_once('|').unwrap();
                (card.to_string(), effect.to_string())
            }),
            _ => None,
        })
        .expect("an effect runs in the game")
}

/// A game played by the engine's own controllers and recorded as a format 2
/// replay `file` (`ReplayFile::record_aristeia` / `record_invictus`, through
/// the game's table): the file holds the game's `events` (as JSON), and it
/// reads back and verifies (`replay_file::read`, `Recording::verify`).
/// Returns the recording read back.
pub fn replays_the_same(
    file: &arena_engine::replay_file::ReplayFile,
    events: &[impl serde::Serialize],
    content: &arena_engine::content::Content,
    runtime: &arena_engine::script::runtime::Runtime,
) -> arena_engine::replay_file::Recording {
    let played: Vec<serde_json::Value> = events.iter().map(|e| serde_json::to_value(e).unwrap()).collect();
    assert!(file.events == played, "the table plays the game the engine played");
    let recording = arena_engine::replay_file::read(&serde_json::to_string(file).unwrap()).unwrap();
    match recording.verify(content, runtime) {
        Ok(table) => assert_eq!(table.event_count(), played.len()),
        Err(e) => panic!("the replay does not verify: {e}"),
    }
    recording
}

/// Every file under these folders, recursively, sorted.
pub fn files_under(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = dirs.to_vec();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() { stack.push(path) } else { out.push(path) }
        }
    }
    out.sort();
    out
}
