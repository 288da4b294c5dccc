//! The one batch runner, for every game: [`run`] plays the games of a
//! range of seeds in parallel (rayon, one Lua VM per worker thread, seeds
//! handed out one at a time from a shared counter) and returns each game's
//! [`Summary`] in seed order; [`digests`] plays them one after another on
//! one VM and hashes each. What differs between games comes from the game
//! (`rules.rs`: a [`Spec`] plays and sums up one seeded game).
//!
//! Every game depends on its seed only (its setup and players are drawn
//! from it), so a batch is as deterministic as one game, however many
//! threads play it and whichever thread plays which seed.

use super::policy::Policy;
use super::rules::{Spec, Summary};
use crate::content::Content;
use crate::script::runtime::{Runtime, ScriptSet};
use crate::table::Player;
use std::ops::Range;
use std::sync::Arc;

/// Most worker threads a batch starts: more than any machine's cores gains
/// nothing, and a typo (`--jobs 100000`) must not start a hundred thousand.
pub const MAX_JOBS: usize = 256;

fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Play the games of `seeds` as `spec` says, `players[seat]` at each seat,
/// on `jobs` threads, calling `progress` after each game: each game's
/// summary, in seed order.
///
/// # Errors
/// More than [`MAX_JOBS`] jobs, or the thread pool could not start. A VM
/// that cannot start is every game's error.
#[allow(clippy::too_many_arguments)]
pub fn run(
    spec: &dyn Spec,
    content: Arc<Content>,
    scripts: Arc<ScriptSet>,
    seeds: Range<u64>,
    players: &[Policy],
    jobs: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Box<dyn Summary>>, String> {
    let rules = spec.rules();
    let vm = || rules.runtime(content.clone(), scripts.clone());
    each_seed(&vm, seeds, jobs, progress, &|rt, seed| match rt {
        Ok(rt) => spec.summary(&content, rt, seed, players),
        Err(e) => spec.failed(seed, e.clone()),
    })
}

/// The runner itself: `play(vm, seed)` for every seed of `seeds` on `jobs`
/// threads, each with one VM made by `vm` for the whole batch, `progress`
/// after each; the results in seed order.
///
/// # Errors
/// As [`run`].
pub(crate) fn each_seed<T: Seeded + Send>(
    vm: &(dyn Fn() -> Result<Runtime, String> + Sync),
    seeds: Range<u64>,
    jobs: usize,
    progress: &(dyn Fn() + Sync),
    play: &(dyn Fn(&Result<Runtime, String>, u64) -> T + Sync),
) -> Result<Vec<T>, String> {
    use std::sync::atomic::{AtomicU64, Ordering};
    if jobs > MAX_JOBS {
        return Err(format!(
            "--jobs {jobs}: at most {MAX_JOBS} worker threads (this machine has {})",
            available_cores()
        ));
    }
    let jobs = jobs.max(1).min(usize::try_from(seeds.end - seeds.start).unwrap_or(usize::MAX).max(1));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(|e| e.to_string())?;
    let next = AtomicU64::new(seeds.start);
    // One VM per worker thread, for the whole batch; the next seed from the
    // shared counter, so a long game on one thread does not leave the
    // others idle at the end of a static split.
    let per_thread: Vec<Vec<T>> = pool.broadcast(|_| {
        let rt = vm();
        let mut mine = Vec::new();
        loop {
            let seed = next.fetch_add(1, Ordering::Relaxed);
            if seed >= seeds.end || seed < seeds.start {
                break;
            }
            mine.push(play(&rt, seed));
            progress();
        }
        mine
    });
    let mut games: Vec<T> = per_thread.into_iter().flatten().collect();
    games.sort_by_key(|g| g.seed_of());
    Ok(games)
}

/// What the runner sorts its results by.
pub(crate) trait Seeded {
    /// The game's seed.
    fn seed_of(&self) -> u64;
}

impl Seeded for Box<dyn Summary> {
    fn seed_of(&self) -> u64 {
        self.seed()
    }
}

/// The [`Played::digest`] of each game of `seeds` as `spec` plays it with
/// `players` (an engine error is digested as its message), played one after
/// another on one Lua VM, and the digest of them all (BLAKE3 of the lines
/// `seed digest`).
///
/// # Errors
/// The VM could not start.
pub fn digests(
    spec: &dyn Spec,
    content: &Content,
    scripts: Arc<ScriptSet>,
    seeds: Range<u64>,
    players: &[Policy],
) -> Result<(Vec<(u64, String)>, String), String> {
    let rt = spec.rules().runtime(Arc::new(content.clone()), scripts)?;
    let mut all = blake3::Hasher::new();
    let mut out = Vec::new();
    for seed in seeds {
        let mut seated: Vec<Box<dyn Player>> =
            players.iter().enumerate().map(|(seat, p)| p.player(seed, seat)).collect();
        let d = match spec.play(content, &rt, seed, &mut seated) {
            Ok(played) => played.digest(),
            Err(e) => format!("error: {e}"),
        };
        all.update(format!("{seed} {d}\n").as_bytes());
        out.push((seed, d));
    }
    Ok((out, all.finalize().to_hex().to_string()))
}

/// The players of `seats` seats from the `kinds` named (cycled: one value
/// plays every seat, one per seat plays each).
pub fn cycle<T: Copy>(kinds: &[T], seats: usize) -> Vec<T> {
    if kinds.is_empty() {
        return Vec::new();
    }
    (0..seats).map(|i| kinds[i % kinds.len()]).collect()
}

/// The warning above a batch's figures when some of its games had failed
/// effects (undone, so the games went on without them) or stopped on an
/// engine error: the figures are then of games the content did not play as
/// written. `None` for a clean batch.
pub fn failures_warning(games: usize, with_failed_effects: usize, errors: usize) -> Option<String> {
    (with_failed_effects + errors > 0).then(|| {
        format!(
            "warning: {with_failed_effects} of {games} games had failed effects and {errors} stopped on an engine error: the figures below are of games the content did not play as written"
        )
    })
}
