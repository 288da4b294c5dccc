//! An Invictus batch's exact counts ([`InvictusTally`]): games, wins per god
//! and per seat, turns, failures. Integer sums, so the tallies of disjoint
//! shards merge into the whole batch's and give its [`Report`] bit for bit
//! (`InvictusTally::of(games).report()` is `Report::of(games)`: the mean
//! turns are an integer sum over a count, exact in `f64` below 2^53).

use super::invictus::{GameSummary, Report, WinLine};
use super::{BatchTally, Policy, Rate, ReportContext, Summary, Text};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// How many games with an engine error or a failed effect a tally names
/// (the first ones, in seed order); the counts are always complete.
pub const MAX_FAILURES: usize = super::MAX_FAILURES;

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
        if let Some(line) = super::failures_warning(self.games as usize, played_with_failures, self.errors as usize) {
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
