//! The reloader: loading and swapping snapshots, without threads (so tests and
//! benchmarks drive it directly).

use super::*;

/// Loads the packs and swaps good loads into [`Live`]. Used by [`Watcher`]'s
/// thread; usable on its own (benchmarks, tests) with no file watching.
pub struct Reloader {
    pub(super) paths: Vec<PathBuf>,
    pub(super) options: Options,
    pub(super) live: Arc<Live>,
    pub(super) generation: u64,
    pub(super) attempted: bool,
    /// Texts the last attempt (good or not) read.
    pub(super) last_sources: SourceMap,
    /// Every file the last attempt walked, and the pack roots it found.
    pub(super) last_files: BTreeSet<PathBuf>,
    pub(super) last_roots: Vec<PathBuf>,
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
pub(super) fn normalize_root(p: PathBuf) -> PathBuf {
    if p.file_name().is_some_and(|n| n == load::MANIFEST) {
        p.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        p
    }
}

/// Every file a load walked: manifests, content files, scripts, and whatever it parsed.
pub(super) fn walked_files(loaded: &Loaded) -> BTreeSet<PathBuf> {
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
pub(super) fn is_loadable(root: &Path, p: &Path) -> bool {
    let Ok(rel) = p.strip_prefix(root) else { return false };
    has_content_extension(p) && !rel.components().any(|c| load::is_ignored(&c.as_os_str().to_string_lossy()))
}

pub(super) fn has_content_extension(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("toml" | "lua" | "luau"))
}
