//! Hot reload (`arena_engine::watch` and `arena watch`): real file changes in a
//! temporary pack, each followed by a bounded wait for the watcher's event.
//! Nothing here sleeps in place of an assertion: every wait is a
//! `recv_timeout` on the event channel (or on the CLI's output) with a
//! deadline generous enough for a loaded 2-core machine.

use arena_engine::content::Content;
use arena_engine::load;
use arena_engine::players::GreedyPlayer;
use arena_engine::rules::decision::{Controller, Decision};
use arena_engine::rules::game::GameSetup;
use arena_engine::rules::state::View;
use arena_engine::script::runtime::{Limits, Runtime, ScriptSet};
use arena_engine::watch::{Live, Snapshot, WaitReason, WatchEvent, WatchOptions, Watcher};
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arena_tests::watching::{Cli, WAIT, copy_dir, core_pack, duelist_file, edit};

/// A folder of packs: the fixture base (the core dice) and the docs' worked
/// example `duelist` (a Character with inline Lua and a script file).
fn small_packs() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&arena_tests::tests_dir().join("fixtures/base/aristeia-core"), &dir.path().join("aristeia-core"));
    copy_dir(&arena_tests::tests_dir().join("fixtures/good/worked-example/duelist"), &dir.path().join("duelist"));
    dir
}

fn options() -> WatchOptions {
    WatchOptions { debounce: Duration::from_millis(50), ..WatchOptions::default() }
}

/// Start watching and take the first load's event, which must be good.
fn start(paths: Vec<PathBuf>) -> (Watcher, Arc<Snapshot>) {
    let w = Watcher::start(paths, options()).expect("the watcher starts");
    let first = w.events().recv_timeout(WAIT).expect("the first load's event");
    let WatchEvent::Reloaded { generation: 1, snapshot, .. } = first else {
        panic!("the first load is not clean: {}", describe(&first));
    };
    (w, snapshot)
}

fn describe(e: &WatchEvent) -> String {
    match e {
        WatchEvent::Rejected { diagnostics, .. } => {
            let lines: Vec<String> =
                diagnostics.iter().filter(|d| d.is_error()).map(|d| format!("{}: {}", d.code, d.message)).collect();
            format!("Rejected [{}]", lines.join("; "))
        }
        other => format!("{other:?}").chars().take(300).collect(),
    }
}

/// Wait for the first event `pick` accepts, up to [`WAIT`]; every event before
/// it is returned too, for assertions about what happened on the way.
fn wait_for<T>(w: &Watcher, what: &str, mut pick: impl FnMut(&WatchEvent) -> Option<T>) -> (T, Vec<WatchEvent>) {
    let deadline = Instant::now() + WAIT;
    let mut before = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match w.events().recv_timeout(left) {
            Ok(e) => match pick(&e) {
                Some(t) => return (t, before),
                None => before.push(e),
            },
            Err(_) => {
                let seen: Vec<String> = before.iter().map(describe).collect();
                panic!("no {what} within {WAIT:?}; events seen: {seen:#?}");
            }
        }
    }
}

fn reloaded(e: &WatchEvent) -> Option<(Arc<Snapshot>, Vec<PathBuf>)> {
    match e {
        WatchEvent::Reloaded { snapshot, changed, .. } => Some((snapshot.clone(), changed.clone())),
        _ => None,
    }
}

fn rejected(e: &WatchEvent) -> Option<Vec<String>> {
    match e {
        WatchEvent::Rejected { diagnostics, live, .. } => {
            assert!(live.is_some(), "a good load was live before");
            Some(diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code.to_string()).collect())
        }
        _ => None,
    }
}

/// No load came in between (waiting and no-op events are fine).
fn no_loads(events: &[WatchEvent]) {
    for e in events {
        assert!(
            !matches!(e, WatchEvent::Reloaded { .. } | WatchEvent::Rejected { .. }),
            "unexpected load on the way: {}",
            describe(e)
        );
    }
}

fn character_initiative(s: &Snapshot, id: &str) -> u8 {
    s.loaded.content.characters[id].value.initiative
}

#[test]
fn valid_edit_goes_live() {
    let dir = small_packs();
    let (w, first) = start(vec![dir.path().to_path_buf()]);
    assert_eq!(character_initiative(&first, "la-duelista"), 6);
    edit(&duelist_file(dir.path()), "initiative = 6", "initiative = 7");
    let ((snap, changed), before) = wait_for(&w, "reload", reloaded);
    no_loads(&before);
    assert_eq!(snap.generation, 2);
    assert_eq!(character_initiative(&snap, "la-duelista"), 7);
    assert_eq!(w.live().generation(), 2);
    assert!(changed.iter().any(|p| p.ends_with("characters/duelist.toml")), "{changed:?}");
    // The old snapshot is untouched.
    assert_eq!(character_initiative(&first, "la-duelista"), 6);
    w.stop();
}

#[test]
fn invalid_edit_is_rejected_and_the_fix_recovers() {
    let dir = small_packs();
    let (w, _) = start(vec![dir.path().to_path_buf()]);
    let file = duelist_file(dir.path());
    let good = std::fs::read_to_string(&file).unwrap();

    // A TOML syntax error.
    std::fs::write(&file, good.replace("initiative = 6", "initiative = = 6")).unwrap();
    let (codes, before) = wait_for(&w, "rejection", rejected);
    no_loads(&before);
    assert!(codes.contains(&"toml-syntax".to_string()), "{codes:?}");
    assert_eq!(w.live().generation(), 1, "the last good content stays live");
    assert_eq!(character_initiative(&w.live().snapshot().unwrap(), "la-duelista"), 6);

    // A schema error: the same file, valid TOML, wrong type.
    std::fs::write(&file, good.replace("initiative = 6", "initiative = \"six\"")).unwrap();
    let (codes, _) = wait_for(&w, "rejection", rejected);
    assert!(codes.contains(&"wrong-type".to_string()), "{codes:?}");
    assert_eq!(w.live().generation(), 1);

    // The fix.
    std::fs::write(&file, good.replace("initiative = 6", "initiative = 8")).unwrap();
    let ((snap, _), _) = wait_for(&w, "reload", reloaded);
    assert_eq!(snap.generation, 2);
    assert_eq!(character_initiative(&snap, "la-duelista"), 8);
    w.stop();
}

/// Editors that save by writing a temporary file and renaming it over the real
/// one; the temporary and swap files themselves are never content.
#[test]
fn rename_save_from_a_temporary_file() {
    let dir = small_packs();
    let (w, _) = start(vec![dir.path().to_path_buf()]);
    let file = duelist_file(dir.path());
    let text = std::fs::read_to_string(&file).unwrap().replace("initiative = 6", "initiative = 9");
    let chars = file.parent().unwrap();
    // A swap file as vim leaves it, and a temporary file renamed into place.
    std::fs::write(chars.join(".duelist.toml.swp"), "not toml at all [[[").unwrap();
    let tmp = chars.join("duelist.toml.tmp");
    std::fs::write(&tmp, &text).unwrap();
    std::fs::rename(&tmp, &file).unwrap();
    let ((snap, changed), before) = wait_for(&w, "reload", reloaded);
    no_loads(&before);
    assert_eq!(character_initiative(&snap, "la-duelista"), 9);
    for p in &changed {
        let name = p.file_name().unwrap().to_string_lossy();
        assert!(
            !name.ends_with(".tmp") && !name.ends_with(".swp"),
            "a temporary file counted as a change: {changed:?}"
        );
    }
    assert!(snap.loaded.sources.get(&chars.join(".duelist.toml.swp")).is_none());
    w.stop();
}

#[test]
fn deleted_files() {
    let dir = small_packs();
    let (w, first) = start(vec![dir.path().to_path_buf()]);
    assert_eq!(first.loaded.content.characters.len(), 1);

    // A script an effect names: the content no longer holds together.
    let script = dir.path().join("duelist/scripts/en-garde.lua");
    let lua = std::fs::read_to_string(&script).unwrap();
    std::fs::remove_file(&script).unwrap();
    let (codes, _) = wait_for(&w, "rejection", rejected);
    assert!(codes.contains(&"script-not-found".to_string()), "{codes:?}");
    assert_eq!(w.live().generation(), 1);
    std::fs::write(&script, lua).unwrap();
    let ((snap, _), _) = wait_for(&w, "reload", reloaded);
    assert_eq!(snap.generation, 2);

    // A whole content file: its entries go, which is a valid change.
    std::fs::remove_file(duelist_file(dir.path())).unwrap();
    let ((snap, changed), _) = wait_for(&w, "reload", reloaded);
    assert_eq!(snap.generation, 3);
    assert!(snap.loaded.content.characters.is_empty());
    assert!(snap.loaded.content.tactics.is_empty());
    assert!(changed.iter().any(|p| p.ends_with("characters/duelist.toml")), "{changed:?}");
    w.stop();
}

#[test]
fn new_file() {
    let dir = small_packs();
    let (w, first) = start(vec![dir.path().to_path_buf()]);
    let states = first.loaded.content.states.len();
    let file = dir.path().join("duelist/states.toml");
    std::fs::write(
        &file,
        "[[state]]\nid = \"riposting\"\nname = \"Riposting\"\ntext = \"The next Attack against you rolls one die less.\"\nsource = \"original design\"\n",
    )
    .unwrap();
    let ((snap, changed), _) = wait_for(&w, "reload", reloaded);
    assert_eq!(snap.loaded.content.states.len(), states + 1, "{:?}", snap.loaded.diagnostics);
    assert!(snap.loaded.content.states.contains_key("riposting"));
    assert_eq!(changed, vec![file]);
    w.stop();
}

#[test]
fn script_edit() {
    let dir = small_packs();
    let (w, first) = start(vec![dir.path().to_path_buf()]);
    let script = dir.path().join("duelist/scripts/en-garde.lua");
    let lua = std::fs::read_to_string(&script).unwrap();
    assert_eq!(first.loaded.sources.get(&script), Some(lua.as_str()));

    std::fs::write(
        &script,
        lua.replace("#game:enemies_within(ctx.self, 1, 1), 2)", "#game:enemies_within(ctx.self, 1, 1, 2)"),
    )
    .unwrap();
    let (codes, _) = wait_for(&w, "rejection", rejected);
    assert!(codes.contains(&"script-compile".to_string()), "{codes:?}");
    assert_eq!(w.live().generation(), 1);

    let fixed = lua.replace("return near", "return near + 0");
    std::fs::write(&script, &fixed).unwrap();
    let ((snap, changed), _) = wait_for(&w, "reload", reloaded);
    assert_eq!(snap.loaded.sources.get(&script), Some(fixed.as_str()));
    assert_eq!(changed, vec![script]);
    w.stop();
}

/// A save that leaves the bytes as they were (an editor's `:w` with no change,
/// `touch`) loads nothing.
#[test]
fn unchanged_save_loads_nothing() {
    let dir = small_packs();
    let (w, _) = start(vec![dir.path().to_path_buf()]);
    let file = duelist_file(dir.path());
    let text = std::fs::read(&file).unwrap();
    std::fs::write(&file, &text).unwrap();
    let (changed, before) = wait_for(&w, "no-op", |e| match e {
        WatchEvent::Unchanged { changed } => Some(changed.clone()),
        _ => None,
    });
    no_loads(&before);
    assert!(changed.contains(&file), "{changed:?}");
    assert_eq!(w.live().generation(), 1);
    // A real change after it still goes live.
    edit(&file, "speed = 4", "speed = 5");
    let ((snap, _), _) = wait_for(&w, "reload", reloaded);
    assert_eq!(snap.generation, 2);
    w.stop();
}

/// Many saves in a row: the last one ends up live, and every snapshot that went
/// live on the way is one of the saved versions, whole.
#[test]
fn rapid_successive_saves() {
    let dir = small_packs();
    let (w, _) = start(vec![dir.path().to_path_buf()]);
    let file = duelist_file(dir.path());
    let text = std::fs::read_to_string(&file).unwrap();
    let versions: Vec<String> = (1..=30).map(|i| text.replace("La Duelista", &format!("La Duelista {i}"))).collect();
    for v in &versions {
        std::fs::write(&file, v).unwrap();
    }
    let last_name = "La Duelista 30";
    let name =
        |s: &Snapshot| s.loaded.content.characters.get("la-duelista").map(|c| c.value.name.clone()).unwrap_or_default();
    let (snap, before) = wait_for(&w, "the last version live", |e| match e {
        WatchEvent::Reloaded { snapshot, .. } if name(snapshot) == last_name => Some(snapshot.clone()),
        _ => None,
    });
    for e in &before {
        match e {
            WatchEvent::Reloaded { snapshot, .. } => {
                let text = snapshot.loaded.sources.get(&file).unwrap();
                assert!(versions.iter().any(|v| v == text), "torn content went live: {text:?}");
                assert_eq!(snapshot.loaded.content.tactics.len(), 1);
            }
            WatchEvent::Rejected { .. } => panic!("a whole save was rejected: {}", describe(e)),
            _ => {}
        }
    }
    assert_eq!(snap.loaded.sources.get(&file), Some(versions.last().unwrap().as_str()));
    assert_eq!(w.live().snapshot().unwrap().generation, snap.generation);
    w.stop();
}

/// A file that is being written: nothing loads while it is open for writing,
/// even though its first half is valid content on its own.
#[cfg(target_os = "linux")]
#[test]
fn a_file_being_written_is_not_loaded_until_closed() {
    let dir = small_packs();
    let (w, _) = start(vec![dir.path().to_path_buf()]);
    let file = duelist_file(dir.path());
    let text = std::fs::read_to_string(&file).unwrap().replace("initiative = 6", "initiative = 5");
    // The Character alone, without the Tactic, is a valid file: loading it
    // would lose the Tactic.
    let cut = text.find("[[tactic]]").unwrap();
    let mut f = std::fs::File::create(&file).unwrap();
    f.write_all(&text.as_bytes()[..cut]).unwrap();
    f.flush().unwrap();
    let (paths, before) = wait_for(&w, "a wait for the writer", |e| match e {
        WatchEvent::Waiting { paths, reason: WaitReason::OpenForWriting } => Some(paths.clone()),
        _ => None,
    });
    no_loads(&before);
    assert_eq!(paths, vec![file.clone()]);
    f.write_all(&text.as_bytes()[cut..]).unwrap();
    drop(f);
    let ((snap, _), before) = wait_for(&w, "reload", reloaded);
    no_loads(&before);
    assert_eq!(snap.generation, 2);
    assert_eq!(character_initiative(&snap, "la-duelista"), 5);
    assert!(snap.loaded.content.tactics.contains_key("flourish"), "the whole file is live");
    w.stop();
}

/// A pack folder inside a watched folder of packs, moved away and back.
#[test]
fn pack_folder_removed_and_restored() {
    let dir = small_packs();
    let away = tempfile::tempdir().unwrap();
    let (w, _) = start(vec![dir.path().to_path_buf()]);
    let pack = dir.path().join("duelist");
    let parked = away.path().join("duelist");
    std::fs::rename(&pack, &parked).unwrap();
    let ((snap, _), _) = wait_for(&w, "reload without the pack", reloaded);
    assert_eq!(snap.loaded.packs.len(), 1);
    assert!(snap.loaded.content.characters.is_empty());

    std::fs::rename(&parked, &pack).unwrap();
    let ((snap, _), _) = wait_for(&w, "reload with the pack back", reloaded);
    assert_eq!(snap.loaded.packs.len(), 2);
    assert_eq!(character_initiative(&snap, "la-duelista"), 6);

    // And an edit inside the restored folder is seen.
    edit(&duelist_file(dir.path()), "initiative = 6", "initiative = 4");
    let ((snap, _), _) = wait_for(&w, "reload after an edit", reloaded);
    assert_eq!(character_initiative(&snap, "la-duelista"), 4);
    w.stop();
}

/// A watched pack folder itself deleted (the content no longer loads) and
/// written again (it recovers, and is watched again).
#[test]
fn watched_pack_folder_deleted_and_recreated() {
    let dir = small_packs();
    let pack = dir.path().join("duelist");
    let (w, _) = start(vec![dir.path().join("aristeia-core"), pack.clone()]);
    let backup = tempfile::tempdir().unwrap();
    copy_dir(&pack, backup.path());
    // Deleting and copying a folder are many changes, not one: on a loaded
    // machine the watcher may see (and load) a state in between, which is
    // fine as long as it ends on the state the folder is left in.
    std::fs::remove_dir_all(&pack).unwrap();
    let (codes, _) = wait_for(&w, "rejection for the missing folder", |e| {
        rejected(e).filter(|codes| codes.contains(&"io-error".to_string()))
    });
    assert!(codes.contains(&"io-error".to_string()), "{codes:?}");
    assert!(w.live().snapshot().is_some(), "good content stays live");

    copy_dir(backup.path(), &pack);
    let ((snap, _), _) = wait_for(&w, "reload of the whole pack", |e| {
        reloaded(e).filter(|(s, _)| s.loaded.packs.len() == 2 && s.loaded.content.tactics.contains_key("flourish"))
    });
    assert_eq!(character_initiative(&snap, "la-duelista"), 6);

    edit(&duelist_file(dir.path()), "initiative = 6", "initiative = 3");
    let ((snap, _), _) = wait_for(&w, "reload after an edit", reloaded);
    assert_eq!(character_initiative(&snap, "la-duelista"), 3);
    w.stop();
}

/// Plays greedy, but stops at its first decision until told to go on.
struct Paused {
    inner: GreedyPlayer,
    started: Option<mpsc::Sender<()>>,
    go: Arc<Mutex<mpsc::Receiver<()>>>,
}

impl Controller for Paused {
    fn decide(&mut self, d: &Decision, view: &View<'_>) -> usize {
        if let Some(tx) = self.started.take() {
            let _ = tx.send(());
            let _ = self.go.lock().unwrap().recv_timeout(WAIT);
        }
        self.inner.decide(d, view)
    }
}

type Pause = (mpsc::Sender<()>, Arc<Mutex<mpsc::Receiver<()>>>);

/// One greedy game of the first-game setup, as its narrative.
fn play(content: Arc<Content>, scripts: Arc<ScriptSet>, seed: u64, pause: Option<Pause>) -> String {
    let rt = Runtime::new(content.clone(), scripts, Limits::default()).unwrap();
    let setup = GameSetup::from_content(&content, "first-game", seed).unwrap();
    let mut a: Box<dyn Controller> = match pause {
        Some((started, go)) => Box::new(Paused { inner: GreedyPlayer, started: Some(started), go }),
        None => Box::new(GreedyPlayer),
    };
    let mut b = GreedyPlayer;
    arena_engine::sim::play(&content, &rt, &setup, vec![a.as_mut(), &mut b]).unwrap().narrative()
}

/// A game in progress keeps the content it started with while a reload swaps
/// new content in; a game started afterwards gets the new content.
#[test]
fn a_game_in_progress_keeps_its_snapshot() {
    let dir = core_pack();
    let pristine = load::load(&[dir.path().to_path_buf()], &load::Options::default());
    assert!(!pristine.has_errors());
    let (w, first) = start(vec![dir.path().to_path_buf()]);
    let live: Arc<Live> = w.live().clone();

    // The game takes the live snapshot and stops at its first decision.
    let (started_tx, started) = mpsc::channel();
    let (go, go_rx) = mpsc::channel();
    let go_rx = Arc::new(Mutex::new(go_rx));
    let held = live.snapshot().unwrap();
    let game = std::thread::spawn(move || play(held.content(), held.scripts(), 5, Some((started_tx, go_rx))));
    started.recv_timeout(WAIT).expect("the game started");

    let file = dir.path().join("aristeia-core/characters/characters.toml");
    edit(
        &file,
        "id = \"maximus\"\nname = \"Maximus\"\ninitiative = 4\nspeed = 3\nenergy = 5\nhit_points = 5",
        "id = \"maximus\"\nname = \"Maximus\"\ninitiative = 4\nspeed = 3\nenergy = 5\nhit_points = 9",
    );
    let ((snap, _), _) = wait_for(&w, "reload", reloaded);
    assert_eq!(snap.generation, 2);
    assert_eq!(live.generation(), 2);
    go.send(()).unwrap();
    let narrative = game.join().unwrap();

    // The same game on the content as it was when it started.
    let reference = play(Arc::new(pristine.content.clone()), pristine.script_set.clone(), 5, None);
    assert_eq!(narrative, reference, "the game saw only the content it started with");
    assert_eq!(first.loaded.content.characters["maximus"].value.hit_points, 5);
    // A new game takes the new content.
    let now = live.snapshot().unwrap();
    assert_eq!(now.content().characters["maximus"].value.hit_points, 9);
    w.stop();
}

/// A simulation batch runs on one snapshot from start to end, whatever is
/// swapped in meanwhile: its results equal a batch on the content it started with.
#[test]
fn a_simulation_holds_its_snapshot() {
    let dir = core_pack();
    let (w, _) = start(vec![dir.path().to_path_buf()]);
    let held = w.live().snapshot().unwrap();
    let players = [arena_engine::sim::Policy::Random, arena_engine::sim::Policy::Random];
    let batch = {
        let held = held.clone();
        std::thread::spawn(move || held.simulate("assault", 1..9, &players, 1, false).unwrap())
    };
    let file = dir.path().join("aristeia-core/characters/characters.toml");
    edit(&file, "hit_points = 5", "hit_points = 2");
    let ((snap, _), _) = wait_for(&w, "reload", reloaded);
    assert_eq!(snap.generation, 2);
    let during = batch.join().unwrap();
    let again = held.simulate("assault", 1..9, &players, 2, false).unwrap();
    assert_eq!(during.report.games, 8);
    assert_eq!(serde_json::to_string(&during).unwrap(), serde_json::to_string(&again).unwrap());
    w.stop();
}

// ---------------------------------------------------------------------------
// The CLI

#[test]
fn cli_reloads_a_good_save_and_reports_a_broken_one() {
    let dir = small_packs();
    let root = dir.path().display().to_string();
    let args = |extra: &[&str]| {
        let mut v: Vec<String> = ["watch", "--once", "--debounce", "50", "--color", "never"].map(String::from).to_vec();
        v.extend(extra.iter().map(|s| s.to_string()));
        v.push(root.clone());
        v
    };
    let file = duelist_file(dir.path());

    let mut cli = Cli::start(args(&[]));
    cli.wait_for("[1] live: checked 2 packs");
    edit(&file, "initiative = 6", "initiative = 7");
    let (code, out, err) = cli.finish();
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("[2] reloaded in "), "{out}");
    assert!(out.contains("duelist.toml: checked 2 packs"), "{out}");

    let mut cli = Cli::start(args(&[]));
    cli.wait_for("[1] live");
    edit(&file, "initiative = 7", "initiative = [");
    let (code, out, err) = cli.finish();
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("rejected after") && out.contains("[1] stays live"), "{out}");
    assert!(err.contains("toml-syntax"), "{err}");
}
