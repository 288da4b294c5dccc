//! The worker's decisions, driven step by step with the file system events
//! it is given (no real watching, no timing): a save caught between its
//! truncation and its write is never taken as content.

use super::*;
use notify_debouncer_full::notify::event::{AccessKind, AccessMode, DataChange, ModifyKind};

/// A fresh folder of packs: the fixture base (the core dice) and the docs'
/// worked example `duelist`, under the system's temporary folder.
fn packs() -> PathBuf {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
    let nanos = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let root = std::env::temp_dir().join(format!("arena-watch-torn-{}-{nanos}", std::process::id()));
    for (from, to) in [("base/aristeia-core", "aristeia-core"), ("good/worked-example/duelist", "duelist")] {
        copy(&fixtures.join(from), &root.join(to));
    }
    // Made a minute ago: only what the test changes is recent.
    age(&root, SystemTime::now() - Duration::from_secs(60));
    root
}

fn age(path: &Path, t: SystemTime) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            age(&entry.unwrap().path(), t);
        }
    }
    std::fs::File::open(path).unwrap().set_modified(t).unwrap();
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            copy(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// A worker on `root` that is fed events by hand, and its event channel.
fn worker(root: &Path) -> (Worker, Receiver<WatchEvent>) {
    let (events, received) = mpsc::channel();
    let debouncer = notify_debouncer_full::new_debouncer(Duration::from_secs(10), None, |_: DebounceEventResult| {})
        .expect("a debouncer");
    let worker = Worker {
        debouncer,
        roots: vec![Root { given: root.to_path_buf(), abs: root.to_path_buf() }],
        watched: BTreeMap::new(),
        parents: BTreeSet::new(),
        events,
        inotify: true,
        // A window of 12.5 s: nothing here depends on how fast it runs.
        options: WatchOptions { debounce: Duration::from_secs(10), ..WatchOptions::default() },
        state: Pending::default(),
    };
    (worker, received)
}

/// The events of a whole save of `file` (a write, then its close), as
/// delivered `ago` before now.
fn saved(w: &mut Worker, file: &Path, ago: Duration) {
    let now = Instant::now();
    let time = now.checked_sub(ago).unwrap_or(now);
    let events = [
        EventKind::Modify(ModifyKind::Data(DataChange::Content)),
        EventKind::Access(AccessKind::Close(AccessMode::Write)),
    ]
    .map(|kind| DebouncedEvent::new(notify::Event::new(kind).add_path(file.to_path_buf()), time));
    w.absorb(events.into(), now, SystemTime::now());
}

fn set_mtime(file: &Path, t: SystemTime) {
    std::fs::File::options().write(true).open(file).unwrap().set_modified(t).unwrap();
}

fn live_text(e: &WatchEvent, file: &Path) -> Option<String> {
    match e {
        WatchEvent::Reloaded { snapshot, .. } => {
            Some(snapshot.loaded.sources.get(file).unwrap_or_default().to_string())
        }
        _ => None,
    }
}

/// `std::fs::write` truncates, then writes. A load that reads the file in
/// between sees it empty; its truncation, when it falls in the same tick of
/// the file system's clock as the last event delivered, has a modification
/// time no later than that event, so the file looked settled and its empty
/// text went live ("torn content went live: \"\"" in `rapid_successive_saves`).
/// Here that moment is made by hand: the empty file is held back, the save's
/// write then goes live whole, and a file really emptied (closed, and empty
/// for a whole window) is taken.
#[test]
fn a_save_caught_between_its_truncation_and_its_write_is_not_taken() {
    let root = packs();
    let file = root.join("duelist/characters/duelist.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let (mut w, events) = worker(&root);
    let (_control, inbox) = mpsc::channel::<Msg>();
    let mut reloader = Reloader::new(vec![root.clone()], Options::default());
    assert!(matches!(reloader.reload(Vec::new(), Instant::now()), WatchEvent::Reloaded { generation: 1, .. }));

    // A save whose events were delivered; then the next save's truncation,
    // in the same clock tick, its event still in the debounce window.
    std::fs::write(&file, text.replace("La Duelista", "La Duelista 2")).unwrap();
    saved(&mut w, &file, Duration::ZERO);
    let seen = w.state.last_event[&file];
    std::fs::File::create(&file).unwrap();
    set_mtime(&file, seen - Duration::from_millis(1));
    assert!(w.step(&mut reloader, &inbox));
    let first: Vec<WatchEvent> = events.try_iter().collect();
    assert!(first.iter().all(|e| live_text(e, &file).is_none()), "the truncated file went live: {first:?}");
    assert!(
        first.iter().any(
            |e| matches!(e, WatchEvent::Waiting { paths, reason: WaitReason::Settling } if *paths == [file.clone()])
        ),
        "{first:?}"
    );
    assert_eq!(reloader.live().snapshot().map(|s| s.generation), Some(1));

    // The write comes, and its events: the whole save goes live.
    let whole = text.replace("La Duelista", "La Duelista 3");
    std::fs::write(&file, &whole).unwrap();
    saved(&mut w, &file, Duration::ZERO);
    w.state.not_before = None;
    assert!(w.step(&mut reloader, &inbox));
    let second: Vec<Option<String>> = events.try_iter().map(|e| live_text(&e, &file)).collect();
    assert_eq!(second, vec![Some(whole)]);

    // Emptied for real, long enough ago: taken.
    std::fs::write(&file, "").unwrap();
    let long_ago = Duration::from_secs(20);
    saved(&mut w, &file, long_ago);
    set_mtime(&file, SystemTime::now() - long_ago - Duration::from_millis(1));
    assert!(w.step(&mut reloader, &inbox));
    let third: Vec<Option<String>> = events.try_iter().map(|e| live_text(&e, &file)).collect();
    assert_eq!(third, vec![Some(String::new())]);
    let _ = std::fs::remove_dir_all(&root);
}
