//! The watcher: a notify debouncer feeding a worker thread that reloads when a
//! content file really changed and sends a [`WatchEvent`] for every outcome.

use super::reloader::{has_content_extension, walked_files};
use super::*;

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

pub(super) enum Msg {
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
pub(super) struct Root {
    given: PathBuf,
    abs: PathBuf,
}

/// Changes seen and not yet loaded.
#[derive(Default)]
pub(super) struct Pending {
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

pub(super) struct Worker {
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
        // Changes that arrived during the load: load again with them. Every
        // event of a write made a debounce window before this drain has been
        // delivered by then, and is taken in by it.
        let before = self.state.changed.len();
        let drained_at = SystemTime::now();
        if !self.drain(inbox) {
            return false;
        }
        let grew = self.state.changed.len() > before || !self.state.open.is_empty();
        let mut unsettled = if grew { Vec::new() } else { self.unsettled(&loaded, reloader, drained_at) };
        // A file caught between a save's truncation and its write is never
        // taken, however many loads were discarded before.
        let torn = self.torn(&loaded, reloader, drained_at);
        if !torn.is_empty() || (grew || !unsettled.is_empty()) && self.state.discarded < MAX_DISCARDS {
            self.state.discarded = self.state.discarded.saturating_add(1);
            unsettled.extend(torn.into_iter().filter(|p| !unsettled.contains(p)).collect::<Vec<_>>());
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
    fn unsettled(&self, loaded: &Loaded, reloader: &Reloader, drained_at: SystemTime) -> Vec<PathBuf> {
        let now = SystemTime::now();
        let horizon = self.horizon(drained_at);
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

impl Worker {
    /// Every event of a write older than this was delivered before the drain
    /// at `drained_at` (the debouncer emits a path's events once they are a
    /// timeout old, checking every timeout / 4), so the drain took it in.
    fn horizon(&self, drained_at: SystemTime) -> SystemTime {
        let window = self.options.debounce + self.options.debounce / 4 + Duration::from_millis(5);
        drained_at.checked_sub(window).unwrap_or(SystemTime::UNIX_EPOCH)
    }

    /// Content files the load read as empty that the last attempt read with
    /// text, and that may be a save caught between its truncation and its
    /// write (what `std::fs::write` and most editors do: truncate, then
    /// write): modified inside the delivery window, open for writing, or no
    /// longer empty. The modification time of the truncation cannot be told
    /// from that of the last delivered event when both fall in one tick of
    /// the file system's clock, so, unlike [`Worker::unsettled`], no event
    /// seen vouches for such a file: it must have been empty for a whole
    /// window, closed. A file really emptied is taken then.
    fn torn(&self, loaded: &Loaded, reloader: &Reloader, drained_at: SystemTime) -> Vec<PathBuf> {
        let horizon = self.horizon(drained_at);
        reloader
            .last_sources
            .paths()
            .filter(|p| {
                loaded.sources.get(p) == Some("") && reloader.last_sources.get(p).is_some_and(|t| !t.is_empty())
            })
            .filter(|p| {
                let meta = std::fs::metadata(p).ok();
                torn_suspect(
                    meta.as_ref().map(std::fs::Metadata::len),
                    meta.and_then(|m| m.modified().ok()),
                    horizon,
                    self.state.open.contains_key(*p),
                )
            })
            .map(Path::to_path_buf)
            .collect()
    }
}

/// Whether a file read as empty, now `len` bytes long and modified at
/// `mtime`, may be a save between its truncation and its write: it is open
/// for writing, or no longer empty, or was modified after `horizon` (its
/// events may not all have been delivered).
fn torn_suspect(len: Option<u64>, mtime: Option<SystemTime>, horizon: SystemTime, open: bool) -> bool {
    open || len != Some(0) || mtime.is_none_or(|m| m > horizon)
}

impl Pending {
    /// The same, with the changes it held taken (after a load or a no-op).
    fn cleared(self) -> Pending {
        Pending { open: self.open, ..Pending::default() }
    }
}

#[cfg(test)]
mod tests;
