//! Headless Invictus games: [`play`] one seeded game, [`batch`] many
//! through the one runner, a [`Report`] with the win rate of every god and
//! every seat (95% Wilson intervals) and the mean game length, computed
//! from an [`InvictusTally`] (exact counts that add up across shards).
//! Invictus in the registry is `InvictusRules` (`invictus_rules.rs`).
//! Replay files of Invictus games are `crate::replay_file`'s (format 2,
//! both games).

use super::batch::failures_warning;
use super::batch::{Seeded, each_seed};
use super::policy::Policy;
use super::rate::Rate;
use super::rules::{BatchTally, Played, ReportContext, Summary, Text};
use crate::content::Content;
use crate::invictus::api;
use crate::invictus::decision::Controller;
use crate::invictus::event::Event;
use crate::invictus::game::{Game, InvictusSetup};
use crate::invictus::state::Outcome;
use crate::script::runtime::{Limits, Runtime, ScriptSet};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

/// A controller of `policy` for seat `seat` of the game seeded `seed`.
pub fn controller(policy: Policy, seed: u64, seat: usize) -> Box<dyn Controller> {
    match policy {
        Policy::Random => Box::new(crate::players::RandomPlayer::for_seat(seed, seat)),
        // In the engine's own loop there is no table to search.
        Policy::Greedy | Policy::Mcts(_) => Box::new(crate::players::GreedyPlayer),
    }
}

/// A VM for Invictus games: the Invictus API over `scripts`.
///
/// # Errors
/// The VM could not be made (the scripts do not fit).
pub fn runtime(content: Arc<Content>, scripts: Arc<ScriptSet>) -> Result<Runtime, String> {
    Runtime::with_api(content, scripts, Limits::default(), api::REGISTRY).map_err(|e| e.to_string())
}

/// What one game left behind.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Record {
    /// The seed.
    pub seed: u64,
    /// Every event.
    pub events: Vec<Event>,
    /// Every answer, in order.
    pub answers: Vec<usize>,
    /// The winning team, if any.
    pub winner: Option<usize>,
    /// Turns played.
    pub turns: u32,
    /// The god of each seat.
    pub gods: Vec<String>,
    /// The team of each seat.
    pub teams: Vec<usize>,
    /// Effects that failed and were undone.
    pub effect_failures: usize,
    /// The last failure, for reports.
    pub last_failure: Option<String>,
    /// Scripts run (indices of the runtime's set).
    #[serde(skip)]
    pub effects_run: Vec<usize>,
}

impl Record {
    /// The readable narrative, one event a line.
    pub fn narrative(&self) -> String {
        self.events.iter().map(|e| format!("{e}\n")).collect()
    }
}

/// Play one game with these controllers.
///
/// # Errors
/// The setup is not playable with this content.
pub fn play_with<'a>(
    content: &'a Content,
    runtime: &'a Runtime,
    setup: &InvictusSetup,
    seed: u64,
    controllers: Vec<Box<dyn Controller + 'a>>,
) -> Result<Record, String> {
    runtime.begin_game();
    let mut game = Game::new(content, Some(runtime), setup, seed, controllers).map_err(|e| e.0)?;
    let outcome = game.play();
    Ok(Record {
        seed,
        winner: match outcome {
            Outcome::Team(t) => Some(t),
            Outcome::NoWinner => None,
        },
        turns: game.state.turn,
        gods: game.state.players.iter().map(|p| p.god.to_string()).collect(),
        teams: game.state.players.iter().map(|p| p.team).collect(),
        effect_failures: game.effect_failures,
        last_failure: game.last_failure.clone(),
        effects_run: std::mem::take(&mut game.effects_run),
        answers: std::mem::take(&mut game.answers),
        events: std::mem::take(&mut game.events),
    })
}

/// Play one game, one controller of its policy per seat (`policies` is cycled).
///
/// # Errors
/// As [`play_with`].
pub fn play(
    content: &Content,
    runtime: &Runtime,
    setup: &InvictusSetup,
    seed: u64,
    policies: &[Policy],
) -> Result<Record, String> {
    // The greedy player looks ahead in Aristeia! only: an Invictus game
    // needs a table for the search player alone.
    if policies.iter().any(|p| matches!(p, Policy::Mcts(_))) {
        let mut seated: Vec<Box<dyn crate::table::Player>> = (0..setup.players)
            .map(|s| policies.get(s % policies.len().max(1)).unwrap_or(&Policy::Random).player(seed, s))
            .collect();
        return play_at_table(content, runtime, setup, seed, &mut seated);
    }
    let controllers = (0..setup.players)
        .map(|s| controller(*policies.get(s % policies.len().max(1)).unwrap_or(&Policy::Random), seed, s))
        .collect();
    play_with(content, runtime, setup, seed, controllers)
}

/// Play one game at a table with `players` (search players sample worlds
/// there: `sim::at_table`), then again in the engine's loop from its
/// answers, for its [`Record`].
///
/// # Errors
/// The setup is not playable, or a player gives up.
pub fn play_at_table(
    content: &Content,
    runtime: &Runtime,
    setup: &InvictusSetup,
    seed: u64,
    players: &mut [Box<dyn crate::table::Player>],
) -> Result<Record, String> {
    let mut table = crate::table::start_invictus(content, runtime, setup, seed)?;
    let answers = super::at_table::answers(&mut table, players)?;
    let controllers = super::at_table::SharedScript::seats(answers, setup.players)
        .into_iter()
        .map(|c| Box::new(c) as Box<dyn Controller>)
        .collect();
    play_with(content, runtime, setup, seed, controllers)
}

/// One game of a batch.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GameSummary {
    /// The seed.
    pub seed: u64,
    /// The winning team, if any.
    pub winner: Option<usize>,
    /// Turns played.
    pub turns: u32,
    /// The god of each seat.
    pub gods: Vec<String>,
    /// The team of each seat.
    pub teams: Vec<usize>,
    /// Effects that failed.
    pub effect_failures: usize,
    /// The last failure.
    pub last_failure: Option<String>,
    /// The engine's error, if the game could not be played.
    pub error: Option<String>,
    /// Scripts run (indices of the runtime's set), for coverage.
    #[serde(skip)]
    pub effects_run: Vec<usize>,
}

/// Play the games of `seeds` on `jobs` threads through the one runner
/// (`sim::run`); results in seed order.
///
/// # Errors
/// Too many jobs, or the thread pool could not start.
pub fn batch(
    content: Arc<Content>,
    scripts: Arc<ScriptSet>,
    setup: &InvictusSetup,
    seeds: std::ops::Range<u64>,
    policies: &[Policy],
    jobs: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<GameSummary>, String> {
    let vm = || runtime(content.clone(), scripts.clone());
    each_seed(&vm, seeds, jobs, progress, &|rt, seed| match rt {
        Ok(rt) => batch_game(&content, rt, setup, seed, policies),
        Err(e) => GameSummary::failed(seed, e.clone()),
    })
}

/// Play the game seeded `seed` with a player of each policy (cycled over
/// the seats) and sum it up.
pub(super) fn batch_game(
    content: &Content,
    rt: &Runtime,
    setup: &InvictusSetup,
    seed: u64,
    policies: &[Policy],
) -> GameSummary {
    match play(content, rt, setup, seed, policies) {
        Ok(r) => GameSummary {
            seed,
            winner: r.winner,
            turns: r.turns,
            gods: r.gods,
            teams: r.teams,
            effect_failures: r.effect_failures,
            last_failure: r.last_failure,
            error: None,
            effects_run: r.effects_run,
        },
        Err(e) => GameSummary::failed(seed, e),
    }
}

impl GameSummary {
    /// A game the engine could not play.
    pub(super) fn failed(seed: u64, error: String) -> GameSummary {
        GameSummary {
            seed,
            winner: None,
            turns: 0,
            gods: Vec::new(),
            teams: Vec::new(),
            effect_failures: 0,
            last_failure: None,
            error: Some(error),
            effects_run: Vec::new(),
        }
    }
}

/// Games and wins of a god or a seat.
#[derive(Debug, Clone, serde::Serialize)]
pub struct WinLine {
    /// Games played by it.
    pub games: usize,
    /// Games its team won.
    pub wins: usize,
    /// wins / games with its interval.
    pub rate: Rate,
}

/// What a batch amounted to.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    /// Games played.
    pub games: usize,
    /// Games that ended with a winning team.
    pub decided: usize,
    /// Games the engine could not play.
    pub errors: usize,
    /// Effects that failed, in all games.
    pub effect_failures: usize,
    /// Mean turns per game (games played).
    pub mean_turns: f64,
    /// Per god.
    pub gods: BTreeMap<String, WinLine>,
    /// Per seat (seat 1 first).
    pub seats: Vec<WinLine>,
}

impl Report {
    /// The report of a batch: its [`InvictusTally`]'s.
    pub fn of(games: &[GameSummary]) -> Report {
        InvictusTally::of(games).report()
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{}: {} won by a team, {} without a winner, {} engine errors; mean {:.1} turns per game; {} effect failures",
            super::games_text(self.games as u64),
            self.decided,
            self.games - self.decided - self.errors,
            self.errors,
            self.mean_turns,
            self.effect_failures
        )?;
        writeln!(f, "win rate by god (95% interval):")?;
        for (god, l) in &self.gods {
            writeln!(
                f,
                "  {god:<12} {:>5.1}%  [{:>5.1}%, {:>5.1}%]  {} of {}",
                l.rate.rate * 100.0,
                l.rate.low * 100.0,
                l.rate.high * 100.0,
                l.wins,
                l.games
            )?;
        }
        writeln!(f, "win rate by seat:")?;
        for (s, l) in self.seats.iter().enumerate() {
            writeln!(
                f,
                "  seat {:<7} {:>5.1}%  [{:>5.1}%, {:>5.1}%]  {} of {}",
                s + 1,
                l.rate.rate * 100.0,
                l.rate.low * 100.0,
                l.rate.high * 100.0,
                l.wins,
                l.games
            )?;
        }
        Ok(())
    }
}

impl Seeded for GameSummary {
    fn seed_of(&self) -> u64 {
        self.seed
    }
}

impl Summary for GameSummary {
    fn seed(&self) -> u64 {
        self.seed
    }

    fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    fn winning_seats(&self) -> Vec<usize> {
        match (self.winner, &self.error) {
            (Some(w), None) => (0..self.teams.len()).filter(|s| self.teams[*s] == w).collect(),
            _ => Vec::new(),
        }
    }

    fn effects_run(&self) -> &[usize] {
        &self.effects_run
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }

    /// An engine error; else the last failed effect, and no team winning.
    fn problems(&self, _what: &str, seats: usize, repro: &str, note: &mut dyn FnMut(String, crate::diag::Diagnostic)) {
        use crate::diag::{Code, Diagnostic};
        if let Some(e) = &self.error {
            note(
                format!("invictus error {e}"),
                Diagnostic::error(Code::SimFailed, format!("Invictus, {seats} players, seed {}: {e}", self.seed))
                    .help(repro),
            );
            return;
        }
        if let Some(f) = &self.last_failure {
            note(
                format!("invictus effect {f}"),
                Diagnostic::error(Code::ScriptError, format!("in a simulated Invictus game: {f}")).help(repro),
            );
        }
        if self.winner.is_none() {
            note(
                format!("invictus unfinished {seats}"),
                Diagnostic::warning(
                    Code::SimFailed,
                    format!("Invictus, {seats} players, seed {}: no team won", self.seed),
                )
                .help(repro),
            );
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }
}

/// One Invictus game played whole, with its setup.
pub(super) struct InvictusPlayed {
    pub(super) setup: InvictusSetup,
    pub(super) record: Record,
}

impl Played for InvictusPlayed {
    fn answers(&self) -> &[usize] {
        &self.record.answers
    }

    fn narrative(&self) -> String {
        self.record.narrative()
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "kind": "invictus-sim-game", "setup": self.setup, "record": self.record })
    }

    fn effect_failures(&self) -> usize {
        self.record.effect_failures
    }

    /// BLAKE3 of the events and answers as JSON and the count of failed
    /// effects, as Aristeia!'s `sim::digest`.
    fn digest(&self) -> String {
        let mut h = blake3::Hasher::new();
        h.update(&serde_json::to_vec(&self.record.events).unwrap_or_default());
        h.update(b"\n");
        h.update(&serde_json::to_vec(&self.record.answers).unwrap_or_default());
        h.update(format!("\n{}", self.record.effect_failures).as_bytes());
        h.finalize().to_hex().to_string()
    }
}

// ---------------------------------------------------------------------------
// The tally: exact counts that add up across shards (`InvictusTally::of(games).report()` is
// `Report::of(games)`: the mean turns are an integer sum over a count, exact in `f64` below 2^53).

/// How many games with an engine error or a failed effect a tally names
/// (the first ones, in seed order); the counts are always complete.
pub const MAX_FAILURES: usize = super::tally::MAX_FAILURES;

/// Games played by a god or from a seat, and games its team won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Wins {
    /// Games played.
    pub games: u64,
    /// Of those, games its team won.
    pub wins: u64,
}

/// A game with an engine error or a failed effect.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Failure {
    /// Its seed.
    pub seed: u64,
    /// The engine error, or the last failed effect.
    pub what: String,
}

/// The exact counts of an Invictus batch: what its [`Report`] is computed from.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct InvictusTally {
    /// Games in the batch.
    pub games: u64,
    /// Games a team won.
    pub decided: u64,
    /// Games the engine could not play.
    pub errors: u64,
    /// Effects that failed, summed over the games played.
    pub effect_failures: u64,
    /// Games played with at least one failed effect.
    pub games_with_effect_failures: u64,
    /// Turns, summed over the games played.
    pub turns: u64,
    /// Per god.
    pub gods: BTreeMap<String, Wins>,
    /// Per seat, seat 1 first.
    pub seats: Vec<Wins>,
    /// The first [`MAX_FAILURES`] games with an engine error or a failed
    /// effect, in seed order.
    pub failures: Vec<Failure>,
}

fn sum(a: u64, b: u64, what: &str) -> Result<u64, String> {
    a.checked_add(b).ok_or_else(|| format!("the `{what}` counts add up past 2^64"))
}

fn within(what: &str, n: u64, bound: u128, of: &str) -> Result<(), String> {
    if u128::from(n) > bound {
        return Err(format!("`{what}` is {n}, more than {of} allow ({bound})"));
    }
    Ok(())
}

impl InvictusTally {
    /// The counts of `games`, in seed order.
    pub fn of<'g>(games: impl IntoIterator<Item = &'g GameSummary>) -> InvictusTally {
        let mut t = InvictusTally::default();
        for g in games {
            t.games += 1;
            if let Some(what) = g.error.as_ref().or(g.last_failure.as_ref()) {
                if t.failures.len() < MAX_FAILURES {
                    t.failures.push(Failure { seed: g.seed, what: what.clone() });
                }
            }
            if g.error.is_some() {
                t.errors += 1;
                continue;
            }
            t.decided += u64::from(g.winner.is_some());
            t.effect_failures += g.effect_failures as u64;
            t.games_with_effect_failures += u64::from(g.effect_failures > 0);
            t.turns += u64::from(g.turns);
            if t.seats.len() < g.gods.len() {
                t.seats.resize(g.gods.len(), Wins::default());
            }
            for (s, god) in g.gods.iter().enumerate() {
                let won = u64::from(g.teams.get(s).is_some_and(|t| g.winner == Some(*t)));
                let e = t.gods.entry(god.clone()).or_default();
                e.games += 1;
                e.wins += won;
                t.seats[s].games += 1;
                t.seats[s].wins += won;
            }
        }
        t
    }

    /// The rates and means of these counts.
    pub fn report(&self) -> Report {
        let played = self.games - self.errors.min(self.games);
        let line = |w: &Wins| WinLine {
            games: w.games as usize,
            wins: w.wins as usize,
            rate: Rate::of(w.wins as usize, w.games as usize),
        };
        Report {
            games: self.games as usize,
            decided: self.decided as usize,
            errors: self.errors as usize,
            effect_failures: self.effect_failures as usize,
            mean_turns: if played == 0 { 0.0 } else { self.turns as f64 / played as f64 },
            gods: self.gods.iter().map(|(k, v)| (k.clone(), line(v))).collect(),
            seats: self.seats.iter().map(line).collect(),
        }
    }
}

impl BatchTally for InvictusTally {
    fn merge(&mut self, other: &dyn BatchTally) -> Result<(), String> {
        let o = other.as_any().downcast_ref::<InvictusTally>().ok_or("the tallies are of two different games")?;
        self.games = sum(self.games, o.games, "games")?;
        self.decided = sum(self.decided, o.decided, "decided")?;
        self.errors = sum(self.errors, o.errors, "errors")?;
        self.effect_failures = sum(self.effect_failures, o.effect_failures, "effect_failures")?;
        self.games_with_effect_failures =
            sum(self.games_with_effect_failures, o.games_with_effect_failures, "games_with_effect_failures")?;
        self.turns = sum(self.turns, o.turns, "turns")?;
        for (god, w) in &o.gods {
            let e = self.gods.entry(god.clone()).or_default();
            e.games = sum(e.games, w.games, "gods games")?;
            e.wins = sum(e.wins, w.wins, "gods wins")?;
        }
        if self.seats.len() < o.seats.len() {
            self.seats.resize(o.seats.len(), Wins::default());
        }
        for (a, b) in self.seats.iter_mut().zip(&o.seats) {
            a.games = sum(a.games, b.games, "seats games")?;
            a.wins = sum(a.wins, b.wins, "seats wins")?;
        }
        let room = MAX_FAILURES.saturating_sub(self.failures.len());
        self.failures.extend(o.failures.iter().take(room).cloned());
        Ok(())
    }

    /// Every game a team's win, a game without a winner or an engine error;
    /// at most `seats` seats, each seat's and god's wins within its games,
    /// its games within those played; the failures named among the seeds,
    /// in order.
    fn check(&self, seeds: std::ops::Range<u64>, seats: usize) -> Result<(), String> {
        let games = seeds.end.saturating_sub(seeds.start);
        if self.games != games {
            return Err(format!(
                "`games` is {}, but the shard plays {games} (seeds {}-{})",
                self.games,
                seeds.start,
                seeds.end.saturating_sub(1)
            ));
        }
        within("errors", self.errors, u128::from(games), "the games")?;
        let played = u128::from(games - self.errors);
        within("decided", self.decided, played, "the games played")?;
        within("games_with_effect_failures", self.games_with_effect_failures, played, "the games played")?;
        within("turns", self.turns, played * u128::from(u32::MAX), "the games played")?;
        if self.seats.len() > seats {
            return Err(format!("`seats` counts {} seats; the batch has {seats}", self.seats.len()));
        }
        for (i, s) in self.seats.iter().enumerate() {
            within(&format!("seats[{i}].games"), s.games, played, "the games played")?;
            within(&format!("seats[{i}].wins"), s.wins, u128::from(s.games), "that seat's games")?;
        }
        for (god, w) in &self.gods {
            within(&format!("gods.{god}.games"), w.games, played * seats as u128, "the seats of the games played")?;
            within(&format!("gods.{god}.wins"), w.wins, u128::from(w.games), "its games")?;
        }
        let failed = u128::from(self.errors) + u128::from(self.games_with_effect_failures);
        within("failures", self.failures.len() as u64, failed.min(MAX_FAILURES as u128), "the games with failures")?;
        if let Some(f) = self.failures.iter().find(|f| !seeds.contains(&f.seed)) {
            return Err(format!("`failures` names seed {}, which the shard does not play", f.seed));
        }
        if self.failures.windows(2).any(|w| w[0].seed >= w[1].seed) {
            return Err("`failures` are not in seed order".to_string());
        }
        Ok(())
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }

    fn report_json(&self) -> serde_json::Value {
        serde_json::to_value(self.report()).unwrap_or_default()
    }

    fn clean(&self) -> bool {
        self.errors == 0 && self.effect_failures == 0
    }

    /// The warning of a batch with failures, the per-god and per-seat table
    /// (`Report`'s), then the first failed games (every one with `-v`).
    fn text(&self, _games: &[Box<dyn Summary>], _players: &[Policy], context: &ReportContext<'_>) -> Text {
        let mut out = String::new();
        let played_with_failures = self.games_with_effect_failures as usize;
        if let Some(line) = failures_warning(self.games as usize, played_with_failures, self.errors as usize) {
            let _ = writeln!(out, "{line}");
        }
        let _ = write!(out, "{}", self.report());
        for f in self.failures.iter().take(if context.verbose { usize::MAX } else { 5 }) {
            let _ = writeln!(out, "seed {}: {}", f.seed, f.what);
        }
        Text { out, err: String::new() }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
