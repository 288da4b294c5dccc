//! `POST /api/balance.svg`: a batch of greedy games, one batch at a time, on
//! a thread of its own (never one the other routes wait for), stopped between
//! games when the client that asked for it leaves.
//!
//! The batch is played with `sim::batch` a few games at a time (one per
//! worker thread), with the cancel flag looked at between those steps; the
//! results are those of one `sim::batch` over all the seeds, since every
//! game depends on its seed only.

use super::State;
use super::api::{MAX_GAMES, Reply};
use super::query::Query;
use arena_engine::render;
use arena_engine::sim::{self, Policy, Teams};
use arena_engine::watch::{SimStats, Snapshot};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A batch the viewer was asked for, its query checked.
pub(crate) struct Job {
    snap: Arc<Snapshot>,
    /// The setup's name, as the chart's title gives it.
    setup: String,
    teams: Teams,
    seeds: std::ops::Range<u64>,
    seats: usize,
}

impl Job {
    /// `scenario=S&games=N&seed=N&random_teams=1&seats=N` on `snap`.
    ///
    /// # Errors
    /// 400 for a bad number (games 1 to [`MAX_GAMES`], seats 2 to 4, seeds
    /// that would pass 2^64), 404 when nothing is called `S`.
    pub(crate) fn of(snap: Arc<Snapshot>, q: &Query) -> Result<Job, Reply> {
        let scenario = q.text("scenario");
        let games = q.number("games", 20u64)?;
        if !(1..=MAX_GAMES).contains(&games) {
            return Err(Reply::error(400, format!("`games` must be 1 to {MAX_GAMES}, not {games}")));
        }
        let seed = q.number("seed", 1u64)?;
        let Some(end) = seed.checked_add(games) else {
            return Err(Reply::error(400, format!("`seed` must be at most {} for {games} games", u64::MAX - games)));
        };
        let random_teams = q.flag("random_teams")?;
        // As many greedy seats as the Scenario's table (Prime Time's: 3 or
        // `seats`); setups are 2-player, so other tables play random teams.
        let content = snap.content();
        let named = arena_engine::sim::Named::of(&content, scenario);
        let Some(scenario_of) = named.scenario.clone().filter(|s| content.scenarios.contains_key(s.as_str())) else {
            return Err(Reply::error(404, format!("no Scenario or setup is called `{scenario}`")));
        };
        let seats = q.number("seats", named.default_seats(&content))?;
        if !(2..=4).contains(&seats) {
            return Err(Reply::error(400, format!("`seats` must be 2, 3 or 4, not {seats}")));
        }
        // As `Snapshot::simulate` names and picks them.
        let (setup, teams) = if random_teams || seats != 2 {
            (format!("{scenario_of} (random teams)"), Teams::Random(scenario_of))
        } else {
            let Some(setup) = named.setup else {
                return Err(Reply::error(
                    404,
                    format!(
                        "no setup, and no Scenario with a ready-made setup, is called `{scenario}`: tick random teams"
                    ),
                ));
            };
            (setup.clone(), Teams::Setup(setup))
        };
        drop(content);
        Ok(Job { snap, setup, teams, seeds: seed..end, seats })
    }

    /// Play the games on `jobs` threads, a step of `jobs` games at a time;
    /// none once `cancel` is set.
    fn play(&self, jobs: usize, cancel: &AtomicBool) -> Option<Result<SimStats, String>> {
        let policies = vec![Policy::Greedy; self.seats];
        let mut games = Vec::with_capacity((self.seeds.end - self.seeds.start) as usize);
        let mut next = self.seeds.start;
        while next < self.seeds.end {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let end = next.saturating_add(jobs as u64).min(self.seeds.end);
            match sim::batch(self.snap.content(), self.snap.scripts(), &self.teams, next..end, &policies, jobs, &|| {})
            {
                Ok(step) => games.extend(step),
                Err(e) => return Some(Err(e)),
            }
            next = end;
        }
        Some(Ok(SimStats::of(self.setup.clone(), &games)))
    }
}

/// Marks the batch slot free when the batch's thread ends.
struct Slot(Arc<State>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.batch_running.store(false, Ordering::Release);
    }
}

/// Sets the batch's cancel flag when the request goes away: its client left
/// (hyper drops the request's future), or the viewer stops.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Play `job` and chart it: 409 while another batch runs.
pub(super) async fn run(state: &Arc<State>, job: Job) -> Reply {
    if state.batch_running.compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire).is_err() {
        return Reply::error(409, "a balance batch is running already: one at a time (close its page to stop it)");
    }
    let slot = Slot(state.clone());
    let cancel = Arc::new(AtomicBool::new(false));
    let leave = CancelOnDrop(cancel.clone());
    let (tx, rx) = tokio::sync::oneshot::channel();
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get()).min(sim::MAX_JOBS);
    let seeds = job.seeds.clone();
    let spawned = std::thread::Builder::new().name("arena-balance".into()).spawn(move || {
        let _slot = slot;
        let _ = tx.send(job.play(jobs, &cancel));
    });
    if spawned.is_err() {
        return Reply::error(503, "cannot start the batch's thread");
    }
    let reply = match rx.await {
        Ok(Some(Ok(stats))) => {
            let title = format!(
                "{}: {} greedy games, seeds {}-{}",
                stats.setup,
                seeds.end - seeds.start,
                seeds.start,
                seeds.end - 1
            );
            Reply::svg(render::chart::balance_svg(&title, &stats.report))
        }
        Ok(Some(Err(e))) => Reply::error(404, e),
        Ok(None) | Err(_) => Reply::error(503, "the batch was stopped"),
    };
    drop(leave);
    reply
}
