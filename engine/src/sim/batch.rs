//! The one batch runner, for every game: [`run`] plays the games of a
//! range of seeds in parallel (rayon, one Lua VM per worker thread, seeds
//! handed out one at a time from a shared counter) and returns each game's
//! [`Summary`] in seed order; [`digests`] plays them one after another on
//! one VM and hashes each.
//!
//! What differs between games comes from the game, through the registry
//! ([`super::Rules`]): a [`Spec`] (what one request plays: its seats, its
//! setup, how one seeded game is played and summed up, how it is played
//! whole with any players), a [`Summary`] per game and a [`BatchTally`], the
//! exact counts of a batch that add up across shards and give its report
//! and readout. The runner, shards, `arena sim merge` and `arena check
//! --sims` are written once against these.
//!
//! Every game depends on its seed only (its setup and players are drawn
//! from it), so a batch is as deterministic as one game, however many
//! threads play it and whichever thread plays which seed.

use super::Policy;
use super::registry::Rules;
use crate::content::Content;
use crate::script::runtime::{Runtime, ScriptSet};
use crate::table::Player;
use std::any::Any;
use std::ops::Range;
use std::sync::Arc;

/// What one request plays ([`Rules::resolve`]): its game, seats and setup,
/// how one seeded game of a batch is played and summed up, and how one game
/// is played whole with any players (a person included).
pub trait Spec: Send + Sync + Any {
    /// Its game.
    fn rules(&self) -> &'static dyn Rules;

    /// How many seats every game has.
    fn seats(&self) -> usize;

    /// The head of the batch's JSON, after `kind` and before `seeds`:
    /// `setup` (Aristeia!: the setup's name, `assault (random teams)`;
    /// Invictus: its setup), then the game's own keys, which a shard's
    /// file must repeat for `arena sim merge` (Aristeia!'s `optional_rules`,
    /// when some are played). Keys `players`, `content_hash`, `shard`,
    /// `report`, `tally` and `games` are the runner's.
    fn head(&self) -> serde_json::Map<String, serde_json::Value>;

    /// Play the game seeded `seed` with a player of each `players[seat]`
    /// policy, and sum it up; an engine error is the summary's.
    fn summary(&self, content: &Content, runtime: &Runtime, seed: u64, players: &[Policy]) -> Box<dyn Summary>;

    /// The summary of a game that could not be played at all (its VM could not start).
    fn failed(&self, seed: u64, error: String) -> Box<dyn Summary>;

    /// Play the game seeded `seed` whole, `players[seat]` at each seat
    /// (`arena sim NAME` without `--games`: a person may sit there).
    ///
    /// # Errors
    /// The game cannot be set up or stops on an engine error.
    fn play(
        &self,
        content: &Content,
        runtime: &Runtime,
        seed: u64,
        players: &mut [Box<dyn Player>],
    ) -> Result<Box<dyn Played>, String>;

    /// The game's own setup as a replay file records it (`Rules::start_recorded` reads it).
    fn recorded(&self) -> serde_json::Value;

    /// The spec as `Any`, for the commands that only one game has (Aristeia!'s `--compare`).
    fn as_any(&self) -> &dyn Any;
}

/// One game of a batch, summed up by its game: what its tally counts,
/// what `--format json` lists under `games`, and what `arena check
/// --sims` says about it.
pub trait Summary: Send + Any {
    /// Its seed.
    fn seed(&self) -> u64;

    /// The scripted effects that ran (indices of the batch's `ScriptSet`).
    fn effects_run(&self) -> &[usize];

    /// Its entry in the batch JSON's `games`.
    fn to_json(&self) -> serde_json::Value;

    /// `arena check --sims`: each problem of this game (an engine error,
    /// a game that did not end, each failed effect at its script line), as
    /// `note(key, diagnostic)`; the same key is one problem counted in many
    /// games. `what` (the `arena sim` arguments of its table, of `seats`
    /// seats) names the game; `repro` is the help that plays it again
    /// (`reproduce with ...`).
    fn problems(&self, what: &str, seats: usize, repro: &str, note: &mut dyn FnMut(String, crate::diag::Diagnostic));

    /// The summary as `Any`, for its game's tally.
    fn as_any(&self) -> &dyn Any;

    /// The summary as `Any`, owned.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

/// One game played whole ([`Spec::play`]).
pub trait Played {
    /// Every answer, in order (with the seed and setup, a replay).
    fn answers(&self) -> &[usize];

    /// The narrative, one event a line.
    fn narrative(&self) -> String;

    /// The `--format json` document after its `version`: `kind`
    /// (`sim-game`, `invictus-sim-game`) and the game's record.
    fn to_json(&self) -> serde_json::Value;

    /// Effects that failed and were undone (`arena sim` exits 1 when some did).
    fn effect_failures(&self) -> usize;

    /// A short hash of everything the game did (`arena sim --digest`):
    /// two games with the same digest told the same story with the same answers.
    fn digest(&self) -> String;
}

/// What a readout prints: on stdout, and on stderr.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Text {
    /// For stdout.
    pub out: String,
    /// For stderr.
    pub err: String,
}

/// The exact counts of a batch of one game ([`Rules::tally`]), from which
/// its report is computed: integer sums, so the tallies of a batch's
/// disjoint shards [`merge`](BatchTally::merge) into the whole batch's,
/// and its report is the one the unsharded batch gives, bit for bit.
pub trait BatchTally: Send + Any {
    /// Add the counts of another, disjoint set of games of the same batch,
    /// which comes after these in seed order.
    ///
    /// # Errors
    /// `other` is another game's, counts another table, or a sum would overflow.
    fn merge(&mut self, other: &dyn BatchTally) -> Result<(), String>;

    /// Whether these counts can be those of the games of `seeds` at a table
    /// of `seats` (a shard's tally read back from a file is not trusted).
    ///
    /// # Errors
    /// The first count that cannot be, named by its key.
    fn check(&self, seeds: Range<u64>, seats: usize) -> Result<(), String>;

    /// The counts as the batch JSON's `tally` holds them.
    fn to_json(&self) -> serde_json::Value;

    /// The rates and means, as the batch JSON's `report` holds them.
    fn report_json(&self) -> serde_json::Value;

    /// Whether every game played as written: none stopped on an engine
    /// error, no effect failed (else `arena sim` exits 1).
    fn clean(&self) -> bool;

    /// The readout under the batch's first line (`games`: the batch's games
    /// in seed order, none for a merge of shards).
    fn text(&self, games: &[Box<dyn Summary>], players: &[Policy], context: &super::ReportContext<'_>) -> Text;

    /// The tally as `Any`, for [`BatchTally::merge`] and its game's readouts.
    fn as_any(&self) -> &dyn Any;
}

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
