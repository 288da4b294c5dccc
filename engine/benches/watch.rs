//! Benchmark of hot reload (`arena watch`): the time from a file's change being
//! seen to the validated content being live, for a one-file edit.
//!
//! Inputs (copied or written under the target folder's tmp, never into the
//! repository):
//! - `bundled`: a copy of `content/`;
//! - `generated-10000`: a copy of `content/aristeia-core` plus a generated pack
//!   of 5,000 Characters and 5,000 Tactics (10,000 entries, 100 a file).
//!
//! The edit appends a comment line to one content file (a new line each time,
//! so the bytes differ and the reload cannot be skipped): `aristeia-core`'s
//! `characters/characters.toml` in `bundled`, the generated pack's first
//! Characters file in `generated-10000`.
//!
//! Two measures:
//! - divan benches `reload/*` time `Reloader::reload_if_needed` after the edit:
//!   the change check, `load::load` and the swap, in-process. The edit itself is
//!   made outside the timing, and the snapshot replaced is freed outside it too.
//!   `noop/*` times a save that leaves the bytes as they were.
//! - end to end, before divan starts: a real `Watcher` (50 ms debounce) on the
//!   copy, real edits, and the `Timing::seen_to_live` of each `Reloaded` event
//!   (from the debounced event arriving to the swap, so the debounce window is
//!   excluded). Printed as `arena-bench watch ...` lines on stderr.
//!
//! Run with `cargo bench -p arena-engine --bench watch`; figures in
//! docs/performance.md ("Hot reload").

use arena_engine::load::Options;
use arena_engine::watch::{Reloader, WatchEvent, WatchOptions, Watcher};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const INPUTS: [&str; 2] = ["bundled", "generated-10000"];
/// Characters (and as many Tactics) in the generated pack.
const GENERATED: usize = 5000;
const PER_FILE: usize = 100;
/// Edits in the end-to-end measure, per input.
const E2E_EDITS: [usize; 2] = [40, 12];

fn main() {
    for (name, edits) in INPUTS.iter().zip(E2E_EDITS) {
        end_to_end(name, edits);
    }
    divan::main();
}

struct Input {
    /// Paths given to the loader.
    paths: Vec<PathBuf>,
    /// The file edited.
    file: PathBuf,
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create a folder");
    for entry in std::fs::read_dir(from).expect("read a folder") {
        let entry = entry.expect("a folder entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy a file");
        }
    }
}

/// A fresh copy of an input, in a folder of its own (`tag` keeps the divan and
/// end-to-end copies apart).
fn prepare(name: &str, tag: &str) -> Input {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("arena-bench-watch").join(format!("{name}-{tag}"));
    if root.exists() {
        std::fs::remove_dir_all(&root).expect("clear the old copy");
    }
    match name {
        "bundled" => {
            copy_dir(&repo().join("content"), &root);
            let file = root.join("aristeia-core/characters/characters.toml");
            Input { paths: vec![root], file }
        }
        _ => {
            let core = root.join("aristeia-core");
            copy_dir(&repo().join("content/aristeia-core"), &core);
            let pack = root.join("bench-generated");
            generate(&pack).expect("write the generated pack");
            let file = pack.join("characters/characters-0000.toml");
            Input { paths: vec![core, pack], file }
        }
    }
}

static EDITS: AtomicUsize = AtomicUsize::new(0);

/// Append a new comment line to the file: its bytes change, its content does not.
fn edit(file: &Path) {
    let n = EDITS.fetch_add(1, Ordering::Relaxed);
    let mut text = std::fs::read_to_string(file).expect("read the edited file");
    let _ = writeln!(text, "# watch benchmark edit {n}");
    std::fs::write(file, text).expect("write the edited file");
}

fn options() -> Options {
    Options::default()
}

/// A reloader with the input loaded once (clean), for the divan benches.
fn reloader(name: &str) -> &'static std::sync::Mutex<(Reloader, Input)> {
    static R: OnceLock<Vec<std::sync::Mutex<(Reloader, Input)>>> = OnceLock::new();
    let all = R.get_or_init(|| {
        INPUTS
            .iter()
            .map(|name| {
                let input = prepare(name, "divan");
                let mut r = Reloader::new(input.paths.clone(), options());
                match r.reload(Vec::new(), Instant::now()) {
                    WatchEvent::Reloaded { summary, .. } => eprintln!(
                        "arena-bench watch-input input={name} files={} entries={}",
                        summary.files,
                        summary.entries.values().sum::<usize>()
                    ),
                    other => panic!("input {name} does not load cleanly: {other:?}"),
                }
                std::sync::Mutex::new((r, input))
            })
            .collect()
    });
    &all[INPUTS.iter().position(|n| *n == name).expect("an input")]
}

/// One-file edit: change check, load, swap.
#[divan::bench(args = INPUTS, sample_count = 10, sample_size = 1)]
fn reload(bencher: divan::Bencher, name: &str) {
    let mut guard = reloader(name).lock().expect("the reloader");
    let (r, input) = &mut *guard;
    let file = input.file.clone();
    let live = r.live();
    bencher
        .with_inputs(|| {
            edit(&file);
            // Hold the live snapshot, so freeing it is not timed.
            (live.snapshot(), Instant::now())
        })
        .bench_local_values(|(held, seen)| {
            let event = r.reload_if_needed(vec![file.clone()], seen);
            assert!(matches!(event, WatchEvent::Reloaded { .. }), "the edit did not go live");
            (held, event)
        });
}

/// A save that leaves the bytes as they were: nothing is loaded.
#[divan::bench(args = INPUTS, sample_count = 20, sample_size = 10)]
fn noop(bencher: divan::Bencher, name: &str) {
    let mut guard = reloader(name).lock().expect("the reloader");
    let (r, input) = &mut *guard;
    let file = input.file.clone();
    // Bring the reloader up to date with the file first.
    edit(&file);
    r.reload(vec![file.clone()], Instant::now());
    bencher.bench_local(|| {
        let event = r.reload_if_needed(vec![file.clone()], Instant::now());
        assert!(matches!(event, WatchEvent::Unchanged { .. }));
        event
    });
}

/// Real edits under a real watcher: `seen_to_live` of each reload.
fn end_to_end(name: &str, edits: usize) {
    let input = prepare(name, "e2e");
    let debounce = Duration::from_millis(50);
    let watcher = Watcher::start(input.paths.clone(), WatchOptions { load: options(), debounce, ..Default::default() })
        .expect("start the watcher");
    let first = watcher.events().recv_timeout(Duration::from_secs(120)).expect("the first load");
    assert!(matches!(first, WatchEvent::Reloaded { .. }), "{name} does not load cleanly: {first:?}");
    let mut seen_to_live = Vec::new();
    let mut loads = Vec::new();
    let mut edit_to_event = Vec::new();
    for _ in 0..edits {
        let edited = Instant::now();
        edit(&input.file);
        loop {
            match watcher.events().recv_timeout(Duration::from_secs(120)).expect("a reload") {
                WatchEvent::Reloaded { timing, .. } => {
                    edit_to_event.push(edited.elapsed());
                    seen_to_live.push(timing.seen_to_live);
                    loads.push(timing.load);
                    break;
                }
                WatchEvent::Rejected { diagnostics, .. } => panic!("an edit was rejected: {diagnostics:?}"),
                // Waiting (a load discarded because a file was still settling) or a no-op.
                _ => {}
            }
        }
        // Let the debouncer deliver the loader's own reads before the next edit.
        std::thread::sleep(debounce * 3);
    }
    watcher.stop();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let stats = |v: &mut Vec<Duration>| {
        v.sort();
        let median = v[v.len() / 2];
        let p90 = v[(v.len() * 9 / 10).min(v.len() - 1)];
        format!("median={:.2}ms p90={:.2}ms max={:.2}ms", ms(median), ms(p90), ms(*v.last().expect("a sample")))
    };
    eprintln!(
        "arena-bench watch input={name} edits={edits} debounce={}ms seen_to_live: {} | load: {} | edit_to_event: {}",
        debounce.as_millis(),
        stats(&mut seen_to_live),
        stats(&mut loads),
        stats(&mut edit_to_event)
    );
}

// ---------------------------------------------------------------------------
// The generated pack

const NAMES: [&str; 8] = ["Valkyrie", "Hannibal", "Gata", "Wildcat", "Maximus", "Major Lunah", "Parvati", "LaxMee"];
const POOLS: [&str; 5] = [
    r#"["green", "blue"]"#,
    r#"["blue", "yellow"]"#,
    r#"["orange"]"#,
    r#"["green", "black"]"#,
    r#"["orange", "blue"]"#,
];
const ROLLS: [&str; 4] =
    [r#"["red"]"#, r#"["red", "orange", "yellow"]"#, r#"["orange", "orange"]"#, r#"["blue", "yellow"]"#];
const EFFECTS: [&str; 4] = [
    "Impose the Taunted State to the Target.",
    "Displace the Target 1 space away from you.",
    "Add a Special to your Roll.",
    "Heal yourself of 1 Damage at the beginning of your Activation.",
];

fn id_of(i: usize) -> String {
    format!("{}-{i}", NAMES[i % NAMES.len()].to_lowercase().replace(' ', "-"))
}

/// `GENERATED` Characters and as many Tactics, `PER_FILE` entries a file.
fn generate(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir.join("characters"))?;
    std::fs::create_dir_all(dir.join("tactics"))?;
    std::fs::write(
        dir.join("pack.toml"),
        "id = \"bench-generated\"\nversion = \"1.0.0\"\ngame = \"aristeia\"\n\
         title = \"Generated hot reload benchmark pack\"\nauthors = [\"arena benchmark\"]\n\
         description = \"Written by engine/benches/watch.rs; not game content.\"\n\n\
         [dependencies]\naristeia-core = \"^1.0\"\n",
    )?;
    for (f, start) in (0..GENERATED).step_by(PER_FILE).enumerate() {
        let (mut chars, mut tactics) = (String::new(), String::new());
        for i in start..(start + PER_FILE).min(GENERATED) {
            let (id, name) = (id_of(i), format!("{} {i}", NAMES[i % NAMES.len()]));
            let w = |k: usize| (i * 7 + k * 13) % 97;
            let _ = write!(
                chars,
                "\n[[character]]\nid = \"{id}\"\nname = \"{name}\"\ninitiative = {}\nspeed = {}\nenergy = 5\n\
                 hit_points = {}\ndefense = {{ dice = {} }}\nbrawn = {{ dice = {} }}\nagility = {{ dice = {} }}\n\
                 source = \"generated\"\n",
                3 + w(1) % 4,
                3 + w(2) % 3,
                2 + w(3) % 4,
                POOLS[w(4) % POOLS.len()],
                POOLS[w(5) % POOLS.len()],
                POOLS[w(6) % POOLS.len()],
            );
            for a in 0..2 {
                let _ = write!(
                    chars,
                    "\n[[character.actions]]\nid = \"action-{a}\"\nname = \"{name} Action {a}\"\n{}cost = {}\n\
                     range = {{ min = {}, max = {} }}\nroll = {{ dice = {} }}\n\n\
                     [[character.actions.effects]]\ntext = \"{}\"\n",
                    if a == 0 { "attack = true\n" } else { "" },
                    1 + w(10 + a) % 3,
                    a,
                    1 + w(11 + a) % 5,
                    ROLLS[w(12 + a) % ROLLS.len()],
                    EFFECTS[w(13 + a) % EFFECTS.len()],
                );
            }
            let _ = write!(
                tactics,
                "\n[[tactic]]\nid = \"tactic-of-{id}\"\nname = \"Tactic of {name}\"\ncharacter = \"{id}\"\n\
                 timing = \"before-roll\"\ntiming_text = \"Before {name} makes a Roll.\"\n\
                 effect = {{ text = \"{}\" }}\nsource = \"generated\"\n",
                EFFECTS[i % EFFECTS.len()],
            );
        }
        std::fs::write(dir.join(format!("characters/characters-{f:04}.toml")), chars)?;
        std::fs::write(dir.join(format!("tactics/tactics-{f:04}.toml")), tactics)?;
    }
    Ok(())
}
