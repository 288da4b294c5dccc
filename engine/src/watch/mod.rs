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
//! discarded and the load is tried again once things are quiet. A file read as
//! empty that the last load read with text may be a save caught between its
//! truncation and its write (the truncation's modification time can fall in
//! the same clock tick as the last event seen, so no event vouches for it):
//! it is taken only once it has been empty, and closed, for a whole debounce
//! window, however many loads were discarded before. No half-written file is
//! ever swapped in, whatever its content parses as.

mod reloader;
mod watcher;

pub use reloader::Reloader;
pub use watcher::{StopHandle, WatchOptions, Watcher};

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
        let named = crate::sim::Named::of(&content, scenario);
        let (setup, teams) = if random_teams {
            let sc = named.scenario.ok_or_else(|| format!("no Scenario or setup is called `{scenario}`"))?;
            (format!("{sc} (random teams)"), crate::sim::Teams::Random(sc))
        } else {
            let setup = named.setup.ok_or_else(|| {
                format!("no setup, and no Scenario with a ready-made setup, is called `{scenario}` (with --random-teams any Scenario id works)")
            })?;
            (setup.clone(), crate::sim::Teams::Setup(setup))
        };
        let games = crate::sim::batch(content, self.scripts(), &teams, seeds, players, jobs, &|| {})?;
        let mut stats = SimStats::of(setup, &games);
        stats.teams = Some(teams);
        Ok(stats)
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
    crate::sim::Named::of(content, name).setup
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
    /// The games, in seed order: the next content's batch is paired with
    /// them when both draw the same setups (`sim::compare::same_setups`).
    #[serde(skip)]
    pub games: Vec<GameSummary>,
    /// The teams the batch played (a setup, or random teams of a Scenario).
    #[serde(skip)]
    pub teams: Option<crate::sim::Teams>,
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
        SimStats {
            setup,
            victory_points_interval: Seated::from_fn(table, interval),
            report,
            games: games.to_vec(),
            teams: None,
        }
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
