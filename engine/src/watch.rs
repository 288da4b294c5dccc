//! Hot reload: watch pack folders and keep the last good content live.
//!
//! [`Watcher::start`] watches the paths [`load::load`] would be given (pack
//! folders or folders of packs), recursively, through notify's full debouncer.
//! When a change can affect what a load sees it runs [`load::load`] again; a load
//! with no error diagnostic becomes the next [`Snapshot`] and is swapped into
//! [`Live`] in one atomic store. A load with errors is reported as
//! [`WatchEvent::Rejected`] and the last good snapshot stays live, so the next good
//! save recovers. Every outcome is a [`WatchEvent`] on a `std::sync::mpsc` channel:
//! this module never prints.
//!
//! **What a change rebuilds.** The whole load, when it is needed:
//! [`load::load`] has no per-file entry point, and the cross-content checks
//! (references, dice limits, scripts and their tests) need all the content
//! anyway. What is skipped is every change the content cannot see
//! ([`Reloader::needs_reload`]): files that are not content (other extensions;
//! hidden, temporary and swap files, as [`load::is_ignored`] names them; files
//! outside every pack), the loader's own reads (inotify open and close-after-read
//! events), and saves that leave a file's bytes as the last attempt read them.
//! docs/performance.md ("Hot reload") measures what a reload costs.
//!
//! **Atomic swap and snapshots.** [`Live`] holds an
//! `ArcSwapOption<Snapshot>`. A game or a simulation takes
//! [`Live::snapshot`] once and keeps the `Arc<Snapshot>` until it ends: the
//! snapshot is never mutated and stays alive while anyone holds it, so content
//! never changes under a game in progress, and a game started after a swap gets
//! the new one. A reader sees either the old or the new snapshot, never a mix.
//!
//! **Saves that are not finished.** Editors that write a temporary file and
//! rename it over the real one produce a rename, which is handled like any
//! change (the temporary name itself is ignored). A file still open for writing
//! (inotify reports a modification but not yet the close) holds the reload
//! back ([`WatchEvent::Waiting`]) until it is closed, or until
//! [`WatchOptions::write_settle`] has passed. After a load, every file it read
//! is checked against the events seen so far: a file modified after its last
//! event was delivered (its event is still inside the debounce window, or the
//! file changed during the load) makes the result unsettled, so it is
//! discarded and the load is tried again once things are quiet. No half-written
//! file is ever swapped in, whatever its content parses as.

use crate::content::Content;
use crate::diag::{Diagnostic, SourceMap};
use crate::load::{self, Loaded, Options, Summary};
use crate::rules::seats::{PlayerId, Seated};
use crate::script::runtime::{Limits, Runtime, ScriptSet};
use crate::sim::{GameSummary, Policy, Report};
use arc_swap::ArcSwapOption;
use notify_debouncer_full::notify::event::{AccessKind, AccessMode, CreateKind, ModifyKind};
use notify_debouncer_full::notify::{self, EventKind, RecursiveMode, Watcher as _, WatcherKind};
use notify_debouncer_full::{DebounceEventResult, DebouncedEvent};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant, SystemTime};

// ---------------------------------------------------------------------------
// Snapshots

/// One good load, immutable once built. Hold the `Arc` for as long as a game
/// or simulation runs.
pub struct Snapshot {
    /// 1 for the first good load, then one more for each good reload.
    pub generation: u64,
    /// The load: entries, diagnostics (warnings and notes only), sources, scripts.
    pub loaded: Loaded,
    content: OnceLock<Arc<Content>>,
    hash: OnceLock<String>,
}

impl Snapshot {
    fn new(generation: u64, loaded: Loaded) -> Self {
        Snapshot { generation, loaded, content: OnceLock::new(), hash: OnceLock::new() }
    }

    /// The content, shared: copied out of the load the first time it is asked
    /// for (by a game or a simulation), so a reload does not pay for it.
    pub fn content(&self) -> Arc<Content> {
        self.content.get_or_init(|| Arc::new(self.loaded.content.clone())).clone()
    }

    /// The compiled scripts, shared.
    pub fn scripts(&self) -> Arc<ScriptSet> {
        self.loaded.script_set.clone()
    }

    /// A Lua runtime for a game on this snapshot.
    pub fn runtime(&self) -> Result<Runtime, String> {
        Runtime::new(self.content(), self.scripts(), Limits::default())
            .map_err(|e| format!("cannot start the Lua VM: {e}"))
    }

    /// `Loaded::content_hash`, computed once.
    pub fn content_hash(&self) -> &str {
        self.hash.get_or_init(|| self.loaded.content_hash())
    }

    /// Play `seeds` games of a Scenario (its first ready-made setup) or of a
    /// setup, on this snapshot, with `sim::batch` on `jobs` threads.
    pub fn simulate(
        &self,
        scenario: &str,
        seeds: std::ops::Range<u64>,
        players: &[Policy],
        jobs: usize,
        random_teams: bool,
    ) -> Result<SimStats, String> {
        let content = self.content();
        let (setup, teams) = if random_teams {
            let sc = if content.scenarios.contains_key(scenario) {
                scenario.to_string()
            } else {
                content
                    .setups
                    .get(scenario)
                    .map(|s| s.value.scenario.clone())
                    .ok_or_else(|| format!("no Scenario or setup is called `{scenario}`"))?
            };
            (format!("{sc} (random teams)"), crate::sim::Teams::Random(sc))
        } else {
            let setup = setup_for(&content, scenario).ok_or_else(|| {
                format!("no setup, and no Scenario with a ready-made setup, is called `{scenario}` (with --random-teams any Scenario id works)")
            })?;
            (setup.clone(), crate::sim::Teams::Setup(setup))
        };
        let games = crate::sim::batch(content, self.scripts(), &teams, seeds, players, jobs, &|| {})?;
        Ok(SimStats::of(setup, &games))
    }
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snapshot")
            .field("generation", &self.generation)
            .field("packs", &self.loaded.packs.len())
            .field("files", &self.loaded.files)
            .finish_non_exhaustive()
    }
}

/// The setup a name stands for in `content`: a setup id as is, else the first
/// ready-made setup of the Scenario with that id (as `arena sim` takes it).
pub fn setup_for(content: &Content, name: &str) -> Option<String> {
    if content.setups.contains_key(name) {
        return Some(name.to_string());
    }
    content.setups.values().find(|s| s.value.scenario == name).map(|s| s.value.id.clone())
}

/// A short simulation batch, summed up for comparing two versions of the content.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SimStats {
    /// The setup played.
    pub setup: String,
    /// Win rates, mean Victory Points and the rest, as `arena sim --games` reports them.
    pub report: Report,
    /// 95% interval of each side's mean Victory Points (normal approximation:
    /// mean ± 1.96 standard errors); the mean itself when fewer than 2 games.
    pub victory_points_interval: Seated<(f64, f64)>,
}

impl SimStats {
    /// Sum up a batch.
    pub fn of(setup: String, games: &[GameSummary]) -> SimStats {
        let report = Report::of(games);
        let interval = |side: PlayerId| {
            let mean = report.mean_victory_points[side];
            let n = games.len();
            if n < 2 {
                return (mean, mean);
            }
            let var =
                games.iter().map(|g| (g.victory_points[side] as f64 - mean).powi(2)).sum::<f64>() / (n as f64 - 1.0);
            let half = 1.96 * (var / n as f64).sqrt();
            ((mean - half).max(0.0), mean + half)
        };
        let table = report.mean_victory_points.table();
        SimStats { setup, victory_points_interval: Seated::from_fn(table, interval), report }
    }
}

/// The last good content, swapped atomically.
#[derive(Debug, Default)]
pub struct Live {
    current: ArcSwapOption<Snapshot>,
}

impl Live {
    /// The live snapshot (none before the first good load). Take it once per
    /// game and keep it: later swaps do not touch it.
    pub fn snapshot(&self) -> Option<Arc<Snapshot>> {
        self.current.load_full()
    }

    /// Generation of the live snapshot, 0 when there is none.
    pub fn generation(&self) -> u64 {
        self.current.load().as_ref().map_or(0, |s| s.generation)
    }

    /// Make `snapshot` live; the one it replaces.
    fn swap(&self, snapshot: Arc<Snapshot>) -> Option<Arc<Snapshot>> {
        self.current.swap(Some(snapshot))
    }
}

// ---------------------------------------------------------------------------
// Events

/// What the watcher did about a change.
#[derive(Debug, Clone)]
pub enum WatchEvent {
    /// A clean load is live.
    Reloaded {
        /// Its generation.
        generation: u64,
        /// What it holds.
        summary: Summary,
        /// The snapshot now live.
        snapshot: Arc<Snapshot>,
        /// The changed paths (as the loader names them) that caused it; empty
        /// for the first load.
        changed: Vec<PathBuf>,
        /// How long it took.
        timing: Timing,
    },
    /// A load had errors; it was not swapped in.
    Rejected {
        /// Every diagnostic of the load (errors, warnings, notes).
        diagnostics: Vec<Diagnostic>,
        /// The text of the files they point into, for rendering.
        sources: SourceMap,
        /// What the load held.
        summary: Summary,
        /// Generation still live, if any good load happened yet.
        live: Option<u64>,
        /// The changed paths that caused it.
        changed: Vec<PathBuf>,
        /// How long it took.
        timing: Timing,
    },
    /// Files changed on disk, but not in any way a load can see (same bytes,
    /// not content); nothing was loaded.
    Unchanged {
        /// The paths that changed.
        changed: Vec<PathBuf>,
    },
    /// The reload waits: these files are being written.
    Waiting {
        /// The files.
        paths: Vec<PathBuf>,
        /// Why.
        reason: WaitReason,
    },
    /// The file watcher reported a problem (a root that cannot be watched,
    /// an overflowing event queue...). Watching goes on.
    WatchError {
        /// What happened.
        message: String,
    },
}

/// Why a reload waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitReason {
    /// A changed file is still open for writing (inotify saw no close yet).
    OpenForWriting,
    /// A file the load read changed during the load or within the debounce
    /// window; the load was discarded and will be tried again.
    Settling,
}

/// Time spent on one reload, from the moment the change was seen (the debounced
/// event arrived, so the debounce window itself is not counted).
#[derive(Debug, Clone, Copy, Default)]
pub struct Timing {
    /// `load::load` alone.
    pub load: Duration,
    /// From the change being seen to the new content being live (or rejected).
    pub seen_to_live: Duration,
}

// ---------------------------------------------------------------------------
// The reloader: loading and swapping, without threads

/// Loads the packs and swaps good loads into [`Live`]. Used by [`Watcher`]'s
/// thread; usable on its own (benchmarks, tests) with no file watching.
pub struct Reloader {
    paths: Vec<PathBuf>,
    options: Options,
    live: Arc<Live>,
    generation: u64,
    attempted: bool,
    /// Texts the last attempt (good or not) read.
    last_sources: SourceMap,
    /// Every file the last attempt walked, and the pack roots it found.
    last_files: BTreeSet<PathBuf>,
    last_roots: Vec<PathBuf>,
}

impl Reloader {
    /// A reloader for these paths (as `load::load` takes them). Loads nothing yet.
    pub fn new(paths: Vec<PathBuf>, options: Options) -> Self {
        Reloader {
            paths: paths.into_iter().map(normalize_root).collect(),
            options,
            live: Arc::new(Live::default()),
            generation: 0,
            attempted: false,
            last_sources: SourceMap::default(),
            last_files: BTreeSet::new(),
            last_roots: Vec::new(),
        }
    }

    /// The live content this reloader swaps into.
    pub fn live(&self) -> Arc<Live> {
        self.live.clone()
    }

    /// The watched paths, as given to the loader.
    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// Whether changes to `changed` (paths as the loader names them: below one
    /// of [`Self::paths`]) can change what a load sees: a pack appeared or went,
    /// or a content file, manifest or script was added, removed, or now reads
    /// differently from what the last attempt read.
    pub fn needs_reload(&self, changed: &[PathBuf]) -> bool {
        !self.changes(changed).is_empty()
    }

    /// The paths of `changed` that make a reload needed (see
    /// [`Self::needs_reload`]); all of them when the set of packs changed or
    /// nothing was loaded yet.
    pub fn changes(&self, changed: &[PathBuf]) -> Vec<PathBuf> {
        let (roots, _) = load::discover(&self.paths);
        if !self.attempted || roots != self.last_roots {
            return if changed.is_empty() { self.paths.clone() } else { changed.to_vec() };
        }
        changed.iter().filter(|p| self.path_changed(p, &roots)).cloned().collect()
    }

    fn path_changed(&self, p: &Path, roots: &[PathBuf]) -> bool {
        let inside = |p: &Path| roots.iter().any(|r| p.starts_with(r));
        match std::fs::symlink_metadata(p) {
            // A folder created, renamed or removed inside a pack may bring files
            // in or take them out.
            Ok(m) if m.is_dir() => inside(p) || roots.iter().any(|r| r.starts_with(p)),
            Ok(_) => {
                if !roots.iter().any(|r| is_loadable(r, p)) {
                    return false;
                }
                match self.last_sources.get(p) {
                    Some(text) => std::fs::read(p).map_or(true, |bytes| bytes != text.as_bytes()),
                    None => true,
                }
            }
            // Gone: it matters if the last attempt read it, or anything below it.
            Err(_) => {
                self.last_files.contains(p)
                    || self.last_files.range(p.to_path_buf()..).next().is_some_and(|f| f.starts_with(p))
                    || self.last_roots.iter().any(|r| r.starts_with(p))
            }
        }
    }

    /// Run `load::load` on the paths (does not swap anything in).
    pub fn attempt(&self) -> (Loaded, Duration) {
        let started = Instant::now();
        let loaded = load::load(&self.paths, &self.options);
        (loaded, started.elapsed())
    }

    /// Take an attempt's result: a clean load becomes the next snapshot and is
    /// swapped in; a load with errors is rejected. `seen` is when the change was
    /// seen, for [`Timing`].
    pub fn commit(&mut self, loaded: Loaded, load_time: Duration, changed: Vec<PathBuf>, seen: Instant) -> WatchEvent {
        self.attempted = true;
        self.last_sources = loaded.sources.clone();
        self.last_files = walked_files(&loaded);
        self.last_roots = load::discover(&self.paths).0;
        let summary = loaded.summary();
        if loaded.has_errors() {
            let live = self.live.snapshot().map(|s| s.generation);
            return WatchEvent::Rejected {
                diagnostics: loaded.diagnostics,
                sources: loaded.sources,
                summary,
                live,
                changed,
                timing: Timing { load: load_time, seen_to_live: seen.elapsed() },
            };
        }
        self.generation += 1;
        let snapshot = Arc::new(Snapshot::new(self.generation, loaded));
        let replaced = self.live.swap(snapshot.clone());
        let timing = Timing { load: load_time, seen_to_live: seen.elapsed() };
        // The snapshot replaced is freed here (if no game holds it), after the
        // new one is live.
        drop(replaced);
        WatchEvent::Reloaded { generation: self.generation, summary, snapshot, changed, timing }
    }

    /// Load and commit.
    pub fn reload(&mut self, changed: Vec<PathBuf>, seen: Instant) -> WatchEvent {
        let (loaded, load_time) = self.attempt();
        self.commit(loaded, load_time, changed, seen)
    }

    /// [`Self::reload`] when [`Self::needs_reload`], else [`WatchEvent::Unchanged`].
    /// The event names the paths that made the reload needed.
    pub fn reload_if_needed(&mut self, changed: Vec<PathBuf>, seen: Instant) -> WatchEvent {
        let relevant = self.changes(&changed);
        if relevant.is_empty() { WatchEvent::Unchanged { changed } } else { self.reload(relevant, seen) }
    }
}

/// A `pack.toml` path stands for its folder, as in `load::discover`.
fn normalize_root(p: PathBuf) -> PathBuf {
    if p.file_name().is_some_and(|n| n == load::MANIFEST) {
        p.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        p
    }
}

/// Every file a load walked: manifests, content files, scripts, and whatever it parsed.
fn walked_files(loaded: &Loaded) -> BTreeSet<PathBuf> {
    let mut out: BTreeSet<PathBuf> = loaded.docs.keys().cloned().collect();
    for pack in &loaded.packs {
        out.insert(pack.root.join(load::MANIFEST));
        out.extend(pack.content_files.iter().cloned());
        out.extend(pack.scripts.values().cloned());
    }
    out
}

/// Whether the loader reads `p` as part of the pack at `root`: a `.toml`,
/// `.lua` or `.luau` file below it with no ignored component.
fn is_loadable(root: &Path, p: &Path) -> bool {
    let Ok(rel) = p.strip_prefix(root) else { return false };
    has_content_extension(p) && !rel.components().any(|c| load::is_ignored(&c.as_os_str().to_string_lossy()))
}

fn has_content_extension(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("toml" | "lua" | "luau"))
}

// ---------------------------------------------------------------------------
// The watcher

/// Settings of a [`Watcher`].
#[derive(Debug, Clone)]
pub struct WatchOptions {
    /// Loader settings.
    pub load: Options,
    /// Quiet time after the last event on a path before it is reported
    /// (notify-debouncer-full's timeout). Default 100 ms.
    pub debounce: Duration,
    /// Longest wait for a file that is open for writing to be closed. Default 2 s.
    pub write_settle: Duration,
}

impl Default for WatchOptions {
    fn default() -> Self {
        WatchOptions {
            load: Options::default(),
            debounce: Duration::from_millis(100),
            write_settle: Duration::from_secs(2),
        }
    }
}

enum Msg {
    Fs(DebounceEventResult, Instant, SystemTime),
    Reload,
    Stop,
}

/// Stops a [`Watcher`] from any thread.
#[derive(Debug, Clone)]
pub struct StopHandle(Sender<Msg>);

impl StopHandle {
    /// Ask the watcher to stop; its event channel closes once it has.
    pub fn stop(&self) {
        let _ = self.0.send(Msg::Stop);
    }

    /// Ask for a full reload now, whatever changed.
    pub fn reload(&self) {
        let _ = self.0.send(Msg::Reload);
    }
}

impl std::fmt::Debug for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Msg::Fs(..) => "Fs",
            Msg::Reload => "Reload",
            Msg::Stop => "Stop",
        })
    }
}

/// Watches pack folders and keeps the last good content live. Stops (and joins
/// its thread) on [`Watcher::stop`] or when dropped.
pub struct Watcher {
    live: Arc<Live>,
    events: Receiver<WatchEvent>,
    control: Sender<Msg>,
    thread: Option<std::thread::JoinHandle<()>>,
}

type Debouncer = notify_debouncer_full::Debouncer<notify::RecommendedWatcher, notify_debouncer_full::RecommendedCache>;

impl Watcher {
    /// Watch `paths` (pack folders or folders of packs, as `load::load` takes
    /// them), load them once, and go on reloading in a thread of its own. The
    /// first event is the first load's ([`WatchEvent::Reloaded`] with generation 1,
    /// or [`WatchEvent::Rejected`]); it is on the channel when this returns.
    /// Fails only when the file watcher cannot be created.
    pub fn start(paths: Vec<PathBuf>, options: WatchOptions) -> Result<Watcher, String> {
        let (control, inbox) = mpsc::channel::<Msg>();
        let (events_tx, events) = mpsc::channel::<WatchEvent>();
        let fs_tx = control.clone();
        let handler = move |result: DebounceEventResult| {
            let _ = fs_tx.send(Msg::Fs(result, Instant::now(), SystemTime::now()));
        };
        let debouncer = notify_debouncer_full::new_debouncer(options.debounce, None, handler)
            .map_err(|e| format!("cannot watch files: {e}"))?;
        let mut reloader = Reloader::new(paths, options.load.clone());
        let live = reloader.live();
        let roots = reloader
            .paths()
            .iter()
            .map(|given| Root {
                abs: std::path::absolute(given).unwrap_or_else(|_| given.clone()),
                given: given.clone(),
            })
            .collect();
        let mut worker = Worker {
            debouncer,
            roots,
            watched: BTreeMap::new(),
            parents: BTreeSet::new(),
            events: events_tx,
            inotify: notify::RecommendedWatcher::kind() == WatcherKind::Inotify,
            options,
            state: Pending::default(),
        };
        // Watch first, then load: a change made once `start` has returned is
        // always seen.
        worker.watch_roots();
        let first = reloader.reload(Vec::new(), Instant::now());
        let _ = worker.events.send(first);
        let thread = std::thread::Builder::new()
            .name("arena-watch".into())
            .spawn(move || worker.run(&mut reloader, &inbox))
            .map_err(|e| format!("cannot start the watch thread: {e}"))?;
        Ok(Watcher { live, events, control, thread: Some(thread) })
    }

    /// The live content.
    pub fn live(&self) -> &Arc<Live> {
        &self.live
    }

    /// The events, in the order they happened. The channel closes when the
    /// watcher stops.
    pub fn events(&self) -> &Receiver<WatchEvent> {
        &self.events
    }

    /// A handle that stops the watcher (or asks for a reload) from elsewhere.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(self.control.clone())
    }

    /// Stop watching and wait for the thread to end.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        let _ = self.control.send(Msg::Stop);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// A watched path: as given to the loader, and absolute (as notify reports it).
struct Root {
    given: PathBuf,
    abs: PathBuf,
}

/// Changes seen and not yet loaded.
#[derive(Default)]
struct Pending {
    changed: BTreeSet<PathBuf>,
    /// When the first of them was seen.
    seen: Option<Instant>,
    /// A rescan was asked for (an event queue overflowed, or `StopHandle::reload`).
    full: bool,
    /// Content files written to and not closed yet, since when.
    open: BTreeMap<PathBuf, Instant>,
    /// Those already announced in an `WatchEvent::Waiting`.
    announced: BTreeSet<PathBuf>,
    /// Wall-clock time of the last event seen for a path.
    last_event: HashMap<PathBuf, SystemTime>,
    /// Do not load before this (a discarded, unsettled load).
    not_before: Option<Instant>,
    /// Loads discarded in a row.
    discarded: u32,
}

struct Worker {
    debouncer: Debouncer,
    roots: Vec<Root>,
    /// Roots currently watched (by index), recursively.
    watched: BTreeMap<usize, bool>,
    /// Parents of roots watched non-recursively, to see a root come back.
    parents: BTreeSet<PathBuf>,
    events: Sender<WatchEvent>,
    inotify: bool,
    options: WatchOptions,
    state: Pending,
}

/// Loads discarded as unsettled in a row before one is taken anyway (about
/// three seconds of a file that never stops changing, at the default debounce;
/// a slow machine writing many saves in a row needs more than a few).
const MAX_DISCARDS: u32 = 20;

impl Worker {
    fn send(&self, e: WatchEvent) {
        let _ = self.events.send(e);
    }

    /// Watch every root that exists and is not watched yet, and the parent of
    /// each root (to see it removed and created again). Returns the roots that
    /// became watched.
    fn watch_roots(&mut self) -> Vec<PathBuf> {
        let mut added = Vec::new();
        for i in 0..self.roots.len() {
            if self.watched.get(&i).copied().unwrap_or(false) || !self.roots[i].abs.is_dir() {
                continue;
            }
            let abs = self.roots[i].abs.clone();
            let _ = self.debouncer.unwatch(&abs);
            match self.debouncer.watch(&abs, RecursiveMode::Recursive) {
                Ok(()) => {
                    self.watched.insert(i, true);
                    added.push(self.roots[i].given.clone());
                }
                Err(e) => {
                    self.send(WatchEvent::WatchError { message: format!("cannot watch `{}`: {e}", abs.display()) })
                }
            }
        }
        let parents: Vec<PathBuf> = self.roots.iter().filter_map(|r| r.abs.parent().map(Path::to_path_buf)).collect();
        for parent in parents {
            // A parent inside a root is watched already, recursively.
            let covered = self.roots.iter().any(|r| parent.starts_with(&r.abs));
            if covered || self.parents.contains(&parent) || !parent.is_dir() {
                continue;
            }
            if self.debouncer.watch(&parent, RecursiveMode::NonRecursive).is_ok() {
                self.parents.insert(parent);
            }
        }
        added
    }

    /// The loader's name for an absolute path notify reported, unless it is
    /// outside every root or has an ignored component (hidden, temporary, swap).
    fn to_load_path(&self, p: &Path) -> Option<(usize, PathBuf)> {
        self.roots.iter().enumerate().find_map(|(i, r)| {
            let rel = p.strip_prefix(&r.abs).ok()?;
            if rel.components().any(|c| load::is_ignored(&c.as_os_str().to_string_lossy())) {
                return None;
            }
            Some((i, if rel.as_os_str().is_empty() { r.given.clone() } else { r.given.join(rel) }))
        })
    }

    fn absorb(&mut self, events: Vec<DebouncedEvent>, at: Instant, wall: SystemTime) {
        for ev in events {
            if ev.need_rescan() {
                self.state.full = true;
                self.state.seen.get_or_insert(at);
            }
            let write = match ev.kind {
                EventKind::Access(AccessKind::Close(AccessMode::Write)) => Some(false),
                EventKind::Modify(ModifyKind::Data(_) | ModifyKind::Any | ModifyKind::Other)
                | EventKind::Create(CreateKind::File | CreateKind::Any) => Some(self.inotify),
                EventKind::Modify(ModifyKind::Metadata(_)) => None,
                EventKind::Modify(ModifyKind::Name(_)) | EventKind::Remove(_) | EventKind::Create(_) => Some(false),
                // Opens and reads (the loader's own among them), and meta events.
                EventKind::Access(_) | EventKind::Any | EventKind::Other => continue,
            };
            let when = wall.checked_sub(at.saturating_duration_since(ev.time)).unwrap_or(wall);
            for p in &ev.paths {
                // A root removed, moved or made again: the watch on the old
                // folder is gone (or watches the wrong one); watch it anew.
                if let Some(i) = self.roots.iter().position(|r| &r.abs == p) {
                    let replaced = matches!(
                        ev.kind,
                        EventKind::Remove(_) | EventKind::Create(_) | EventKind::Modify(ModifyKind::Name(_))
                    );
                    if replaced || !p.exists() {
                        self.watched.insert(i, false);
                    }
                }
                let Some((_, lp)) = self.to_load_path(p) else { continue };
                // A folder's modification time moves with the entries made,
                // removed or renamed in it.
                for q in std::iter::once(lp.as_path()).chain(lp.parent()) {
                    let last = self.state.last_event.entry(q.to_path_buf()).or_insert(when);
                    *last = (*last).max(when);
                }
                match write {
                    Some(true) if has_content_extension(&lp) => {
                        self.state.open.entry(lp.clone()).or_insert(ev.time);
                    }
                    Some(true) => {}
                    Some(false) => {
                        self.state.open.remove(&lp);
                    }
                    None => {}
                }
                // Renames report both names; a rename from a temporary file
                // makes only the real name a change.
                self.state.changed.insert(lp);
                self.state.seen.get_or_insert(at);
            }
        }
    }

    /// Handle one message; false on stop.
    fn handle(&mut self, msg: Msg) -> bool {
        match msg {
            Msg::Stop => return false,
            Msg::Reload => {
                self.state.full = true;
                self.state.seen.get_or_insert_with(Instant::now);
            }
            Msg::Fs(Ok(events), at, wall) => self.absorb(events, at, wall),
            Msg::Fs(Err(errors), _, _) => {
                for e in errors {
                    self.send(WatchEvent::WatchError { message: e.to_string() });
                }
            }
        }
        true
    }

    /// Take every message already waiting; false on stop.
    fn drain(&mut self, inbox: &Receiver<Msg>) -> bool {
        loop {
            match inbox.try_recv() {
                Ok(msg) => {
                    if !self.handle(msg) {
                        return false;
                    }
                }
                Err(mpsc::TryRecvError::Empty) => return true,
                Err(mpsc::TryRecvError::Disconnected) => return false,
            }
        }
    }

    /// How long to wait for the next message: until a writer's grace runs out
    /// or an unsettled load may be retried.
    fn wait_for(&self, now: Instant) -> Option<Duration> {
        let settle = self.state.open.values().map(|since| *since + self.options.write_settle).min();
        let deadline = match (settle, self.state.not_before) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        deadline.map(|d| d.saturating_duration_since(now) + Duration::from_millis(1))
    }

    fn run(mut self, reloader: &mut Reloader, inbox: &Receiver<Msg>) {
        loop {
            let msg = match self.wait_for(Instant::now()) {
                None if self.state.changed.is_empty() && !self.state.full => match inbox.recv() {
                    Ok(m) => Some(m),
                    Err(_) => break,
                },
                None => None,
                Some(d) => match inbox.recv_timeout(d) {
                    Ok(m) => Some(m),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => break,
                },
            };
            if let Some(msg) = msg {
                if !self.handle(msg) {
                    break;
                }
            }
            if !self.drain(inbox) {
                break;
            }
            // Roots that came back (a pack folder restored) are watched again
            // and loaded in full.
            for given in self.watch_roots() {
                self.state.changed.insert(given);
                self.state.seen.get_or_insert_with(Instant::now);
            }
            if !self.step(reloader, inbox) {
                break;
            }
        }
        let Worker { debouncer, .. } = self;
        debouncer.stop();
    }

    /// Reload if there is something to reload and nothing holds it back; false on stop.
    fn step(&mut self, reloader: &mut Reloader, inbox: &Receiver<Msg>) -> bool {
        let now = Instant::now();
        if self.state.changed.is_empty() && !self.state.full {
            return true;
        }
        if self.state.not_before.is_some_and(|t| now < t) {
            return true;
        }
        // A file still open for writing holds the reload back, up to write_settle.
        let settle = self.options.write_settle;
        self.state.open.retain(|_, since| now.saturating_duration_since(*since) < settle);
        if !self.state.open.is_empty() {
            let fresh: Vec<PathBuf> =
                self.state.open.keys().filter(|p| !self.state.announced.contains(*p)).cloned().collect();
            if !fresh.is_empty() {
                self.state.announced.extend(fresh.iter().cloned());
                self.send(WatchEvent::Waiting { paths: fresh, reason: WaitReason::OpenForWriting });
            }
            return true;
        }
        self.state.announced.clear();
        let all: Vec<PathBuf> = self.state.changed.iter().cloned().collect();
        let seen = self.state.seen.unwrap_or(now);
        let mut changed = reloader.changes(&all);
        if changed.is_empty() {
            if !self.state.full {
                self.state = std::mem::take(&mut self.state).cleared();
                self.send(WatchEvent::Unchanged { changed: all });
                return true;
            }
            changed = all;
        }
        let (loaded, load_time) = reloader.attempt();
        // Changes that arrived during the load: load again with them.
        let before = self.state.changed.len();
        if !self.drain(inbox) {
            return false;
        }
        let grew = self.state.changed.len() > before || !self.state.open.is_empty();
        let unsettled = if grew { Vec::new() } else { self.unsettled(&loaded, reloader) };
        if (grew || !unsettled.is_empty()) && self.state.discarded < MAX_DISCARDS {
            self.state.discarded += 1;
            if !unsettled.is_empty() {
                // Try again once the debounce window has passed their last write.
                self.state.not_before = Some(Instant::now() + self.options.debounce + self.options.debounce / 2);
                self.send(WatchEvent::Waiting { paths: unsettled, reason: WaitReason::Settling });
            }
            return true;
        }
        let event = reloader.commit(loaded, load_time, changed, seen);
        self.state = std::mem::take(&mut self.state).cleared();
        self.send(event);
        true
    }

    /// Files the load read that were modified after the last event seen for
    /// them, within the debounce window (so their event may not have been
    /// delivered yet), or that are gone or of another length now; and the
    /// same for the folders they are in (a file being added or removed). A
    /// file read exactly as the last attempt read it is settled: that version
    /// passed.
    fn unsettled(&self, loaded: &Loaded, reloader: &Reloader) -> Vec<PathBuf> {
        let now = SystemTime::now();
        // Every event older than this has been delivered (the debouncer emits a
        // path's events once they are a timeout old, checking every timeout / 4).
        let window = self.options.debounce + self.options.debounce / 4 + Duration::from_millis(5);
        let horizon = now.checked_sub(window).unwrap_or(SystemTime::UNIX_EPOCH);
        let recent = |path: &Path, mtime: SystemTime| {
            let seen = self.state.last_event.get(path).copied().unwrap_or(SystemTime::UNIX_EPOCH);
            // A modification time in the future is a clock problem, not a write.
            mtime > horizon && mtime > seen && mtime <= now + Duration::from_secs(1)
        };
        let mut out = Vec::new();
        let files = walked_files(loaded);
        let mut folders: BTreeSet<&Path> = BTreeSet::new();
        for pack in &loaded.packs {
            folders.insert(&pack.root);
            for f in files.iter().filter(|f| f.starts_with(&pack.root)) {
                folders.extend(f.ancestors().skip(1).take_while(|a| a.starts_with(&pack.root)));
            }
        }
        for folder in folders {
            if std::fs::metadata(folder).and_then(|m| m.modified()).is_ok_and(|t| recent(folder, t)) {
                out.push(folder.to_path_buf());
            }
        }
        for path in files {
            let Ok(meta) = std::fs::metadata(&path) else {
                if loaded.sources.get(&path).is_some() {
                    out.push(path);
                }
                continue;
            };
            if let Some(text) = loaded.sources.get(&path) {
                if meta.len() != text.len() as u64 {
                    out.push(path);
                    continue;
                }
            }
            let Ok(mtime) = meta.modified() else { continue };
            if recent(&path, mtime) {
                let same = loaded.sources.get(&path).is_some_and(|t| reloader.last_sources.get(&path) == Some(t));
                if !same {
                    out.push(path);
                }
            }
        }
        out
    }
}

impl Pending {
    /// The same, with the changes it held taken (after a load or a no-op).
    fn cleared(self) -> Pending {
        Pending { open: self.open, ..Pending::default() }
    }
}
