//! Balance runs split across machines: a batch's exact counts ([`Tally`]),
//! which add up, and the seed ranges of its shards ([`Shard`]).
//!
//! A [`Report`] holds rates and means, which do not add up; a [`Tally`] holds
//! the integer sums they are computed from. `Tally::of(games).report()` is
//! exactly `Report::of(games)`, and the tallies of disjoint shards of a batch,
//! [`merge`](Tally::merge)d, give the tally of the whole batch, so its report
//! is the one the unsharded batch gives, bit for bit (every sum is an integer,
//! exact in `f64` below 2^53).

use std::collections::BTreeMap;

use super::aristeia_game::GameSummary;
use super::rate::{Rate, is_zero as zero};
pub use super::strength::Composition;
use super::strength::Strengths;
use crate::model::Id;
use crate::rules::seats::{Seated, Table};

/// How many games with failed effects or engine errors a tally names (the
/// first ones, in seed order); the counts are always complete.
pub const MAX_FAILURES: usize = 100;

/// The exact counts of a batch: what its [`Report`] is computed from.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    /// Games played.
    pub games: u64,
    /// Games each player won.
    pub wins: Seated<u64>,
    /// Games that ended with no winner and no engine error.
    pub draws: u64,
    /// Victory Points of each player, summed over the games.
    pub victory_points: Seated<u64>,
    /// Frags of each player, summed over the games.
    pub frags: Seated<u64>,
    /// Rounds played, summed over the games.
    pub rounds: u64,
    /// Games with at least one failed effect.
    pub games_with_effect_failures: u64,
    /// Games an engine error stopped.
    pub errors: u64,
    /// Games that ended before any Activation.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub games_ended_before_activation: u64,
    /// Per Character, the sums behind its rates and means.
    pub characters: BTreeMap<Id, CharacterTally>,
    /// The first [`MAX_FAILURES`] games with failed effects or an engine
    /// error, in seed order.
    pub failures: Vec<Failure>,
    /// At Prime Time tables, the sums by position clockwise from the first
    /// Prime Time (see [`Report::by_position`]); empty for 2 seats.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<PositionTally>,
    /// The games played (engine errors left out) counted by team
    /// composition and outcome, sorted, one entry per distinct key: what the
    /// adjusted strengths are fitted to ([`super::Strengths`]). Its JSON is
    /// one entry per distinct composition and outcome: at 2 seats of 4
    /// Characters about 130 bytes compact and 260 as `arena sim` prints it
    /// (pretty), so at most that per game, and no more entries than the
    /// distinct compositions times `seats + 1` outcomes (random teams of 4
    /// from 12 Characters: at most 103,950 entries, about 27 MB pretty,
    /// however many games; 1,000 games: 992 entries, 257 KB); every game of
    /// a ready-made setup is one of at most `seats + 1` entries.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compositions: Vec<Composition>,
}

/// The sums of one position at the table, counted clockwise from the player
/// who received the Prime Time marker at Team Creation (`001 § Preparation`).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct PositionTally {
    /// Games played from this position (games an engine error stopped left out).
    pub games: u64,
    /// Of those, games won.
    pub wins: u64,
    /// Victory Points scored from this position, summed.
    pub victory_points: u64,
}

/// One Character's sums over a batch (games stopped by an engine error left out).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct CharacterTally {
    /// Games its team played (from the setups).
    pub team_games: u64,
    /// Of those, games its team won.
    pub team_wins: u64,
    /// Games it played (from the events).
    pub games: u64,
    /// Of those, games its side won.
    pub wins: u64,
    /// Damage its Enemies suffered during its Activations.
    pub damage_dealt: u64,
    /// Damage it suffered.
    pub damage_taken: u64,
    /// Times it was sent to the Infirmary.
    pub infirmary: u64,
}

/// A game with failed effects or an engine error.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Failure {
    /// Its seed.
    pub seed: u64,
    /// The engine error, or the failed effects joined by `; `.
    pub what: String,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// `a + b`, or the error of counts that overflow.
fn sum(a: u64, b: u64, what: &str) -> Result<u64, String> {
    a.checked_add(b).ok_or_else(|| format!("the `{what}` counts add up past 2^64"))
}

fn add(into: &mut Seated<u64>, from: &Seated<u64>, what: &str) -> Result<(), String> {
    if into.as_slice().is_empty() {
        *into = from.clone();
        return Ok(());
    }
    if into.as_slice().len() != from.as_slice().len() {
        return Err(format!(
            "`{what}` counts {} players in one tally and {} in another",
            into.as_slice().len(),
            from.as_slice().len()
        ));
    }
    for (a, b) in into.iter_mut().zip(from) {
        *a = sum(*a, *b, what)?;
    }
    Ok(())
}

/// `n` is at most `bound` (a count within the games it is counted over).
fn within(what: &str, n: u64, bound: u128, of: &str) -> Result<(), String> {
    if u128::from(n) > bound {
        return Err(format!("`{what}` is {n}, more than {of} allow ({bound})"));
    }
    Ok(())
}

impl Tally {
    /// The counts of `games` (a slice of summaries, or references to them).
    pub fn of<'g>(games: impl IntoIterator<Item = &'g GameSummary>) -> Tally {
        let mut games = games.into_iter().peekable();
        // Every game of a batch has the same table; an empty batch has two seats.
        let table = games.peek().map_or(Table::of(2), |g| g.victory_points.table());
        let mut t = Tally {
            wins: Seated::splat(table, 0),
            victory_points: Seated::splat(table, 0),
            frags: Seated::splat(table, 0),
            ..Tally::default()
        };
        let mut compositions: BTreeMap<(Vec<Vec<Id>>, Option<usize>), u64> = BTreeMap::new();
        for g in games {
            t.games += 1;
            if let Some(w) = g.winner {
                t.wins[w] += 1;
            } else if g.error.is_none() {
                t.draws += 1;
            }
            for (p, vp) in g.victory_points.enumerate() {
                t.victory_points[p] += u64::from(*vp);
            }
            for (p, f) in g.frags.enumerate() {
                t.frags[p] += u64::from(*f);
            }
            t.rounds += u64::from(g.rounds);
            t.games_with_effect_failures += u64::from(!g.effect_failures.is_empty());
            t.errors += u64::from(g.error.is_some());
            t.games_ended_before_activation += u64::from(g.ended_before_activation);
            if (g.error.is_some() || !g.effect_failures.is_empty()) && t.failures.len() < MAX_FAILURES {
                let what = g.error.clone().unwrap_or_else(|| g.effect_failures.join("; "));
                t.failures.push(Failure { seed: g.seed, what });
            }
            if g.error.is_some() {
                continue;
            }
            if let Some(first) = g.prime_time {
                let seats = table.len();
                t.positions.resize_with(seats, PositionTally::default);
                for (p, vp) in g.victory_points.enumerate() {
                    let at = &mut t.positions[(p.index() + seats - first.index()) % seats];
                    at.games += 1;
                    at.wins += u64::from(g.winner == Some(p));
                    at.victory_points += u64::from(*vp);
                }
            }
            if !g.teams.as_slice().is_empty() {
                let mut teams: Vec<Vec<Id>> = g.teams.iter().cloned().collect();
                for t in &mut teams {
                    t.sort();
                }
                *compositions.entry((teams, g.winner.map(|w| w.index()))).or_default() += 1;
            }
            for (p, team) in g.teams.enumerate() {
                for c in team {
                    let e = t.characters.entry(*c).or_default();
                    e.team_games += 1;
                    e.team_wins += u64::from(g.winner == Some(p));
                }
            }
            for (c, l) in &g.characters {
                let e = t.characters.entry(*c).or_default();
                e.games += 1;
                e.wins += u64::from(g.winner == Some(l.player));
                e.damage_dealt += u64::from(l.damage_dealt);
                e.damage_taken += u64::from(l.damage_taken);
                e.infirmary += u64::from(l.infirmary);
            }
        }
        t.compositions =
            compositions.into_iter().map(|((teams, winner), games)| Composition { teams, winner, games }).collect();
        t
    }

    /// Add the counts of another, disjoint set of games of the same batch.
    /// `other`'s failures are taken to come after this tally's in seed order
    /// (merge shards in seed order).
    ///
    /// # Errors
    /// When the two count different numbers of players, or a sum would
    /// pass `u64::MAX` (tallies read from files: [`Tally::check`] them first).
    pub fn merge(&mut self, other: &Tally) -> Result<(), String> {
        self.games = sum(self.games, other.games, "games")?;
        add(&mut self.wins, &other.wins, "wins")?;
        self.draws = sum(self.draws, other.draws, "draws")?;
        add(&mut self.victory_points, &other.victory_points, "victory_points")?;
        add(&mut self.frags, &other.frags, "frags")?;
        self.rounds = sum(self.rounds, other.rounds, "rounds")?;
        self.games_with_effect_failures =
            sum(self.games_with_effect_failures, other.games_with_effect_failures, "games_with_effect_failures")?;
        self.errors = sum(self.errors, other.errors, "errors")?;
        self.games_ended_before_activation = sum(
            self.games_ended_before_activation,
            other.games_ended_before_activation,
            "games_ended_before_activation",
        )?;
        for (c, o) in &other.characters {
            let e = self.characters.entry(*c).or_default();
            e.team_games = sum(e.team_games, o.team_games, "team_games")?;
            e.team_wins = sum(e.team_wins, o.team_wins, "team_wins")?;
            e.games = sum(e.games, o.games, "games")?;
            e.wins = sum(e.wins, o.wins, "wins")?;
            e.damage_dealt = sum(e.damage_dealt, o.damage_dealt, "damage_dealt")?;
            e.damage_taken = sum(e.damage_taken, o.damage_taken, "damage_taken")?;
            e.infirmary = sum(e.infirmary, o.infirmary, "infirmary")?;
        }
        if self.positions.len() < other.positions.len() {
            self.positions.resize_with(other.positions.len(), PositionTally::default);
        }
        for (a, b) in self.positions.iter_mut().zip(&other.positions) {
            a.games = sum(a.games, b.games, "positions games")?;
            a.wins = sum(a.wins, b.wins, "positions wins")?;
            a.victory_points = sum(a.victory_points, b.victory_points, "positions victory_points")?;
        }
        let mut compositions: BTreeMap<(Vec<Vec<Id>>, Option<usize>), u64> = BTreeMap::new();
        for c in self.compositions.drain(..).chain(other.compositions.iter().cloned()) {
            let n = compositions.entry((c.teams, c.winner)).or_default();
            *n = sum(*n, c.games, "compositions games")?;
        }
        self.compositions =
            compositions.into_iter().map(|((teams, winner), games)| Composition { teams, winner, games }).collect();
        let room = MAX_FAILURES.saturating_sub(self.failures.len());
        self.failures.extend(other.failures.iter().take(room).cloned());
        Ok(())
    }

    /// Whether these counts can be those of the games of `seeds` at a table
    /// of `seats` players, as [`Tally::of`] counts them (a shard's tally read
    /// back from a file is not trusted): every game a win, a draw or an
    /// engine error (`wins + draws + errors = games`); the seats the same in
    /// every per-seat count; each count within the games it is counted over
    /// (a Character's games and wins, a position's, the games with failures);
    /// sums within what that many games can score (a game's Victory Points,
    /// Frags and Damage fit a `u32`, its Rounds a `u8`); the failures named
    /// among the seeds, in order.
    ///
    /// # Errors
    /// The first count that cannot be, named by its key.
    pub fn check(&self, seeds: std::ops::Range<u64>, seats: usize) -> Result<(), String> {
        let games = seeds.end.saturating_sub(seeds.start);
        if self.games != games {
            return Err(format!(
                "`games` is {}, but the shard plays {games} (seeds {}-{})",
                self.games,
                seeds.start,
                seeds.end.saturating_sub(1)
            ));
        }
        if !(2..=4).contains(&seats) {
            return Err(format!("the batch has {seats} players; a game has 2 to 4"));
        }
        for (what, s) in [("wins", &self.wins), ("victory_points", &self.victory_points), ("frags", &self.frags)] {
            if s.as_slice().len() != seats {
                return Err(format!("`{what}` counts {} players; the batch has {seats}", s.as_slice().len()));
            }
        }
        let all = u128::from(games);
        let decided: u128 =
            self.wins.iter().map(|w| u128::from(*w)).sum::<u128>() + u128::from(self.draws) + u128::from(self.errors);
        if decided != all {
            return Err(format!(
                "`wins` ({}), `draws` ({}) and `errors` ({}) add up to {decided}, not the {games} games",
                self.wins.iter().map(u64::to_string).collect::<Vec<_>>().join(" + "),
                self.draws,
                self.errors
            ));
        }
        for (what, n) in [
            ("games_with_effect_failures", self.games_with_effect_failures),
            ("errors", self.errors),
            ("games_ended_before_activation", self.games_ended_before_activation),
        ] {
            within(what, n, all, "the games")?;
        }
        let points = all * u128::from(u32::MAX);
        for (p, (vp, f)) in self.victory_points.iter().zip(&self.frags).enumerate() {
            within(&format!("victory_points of player {}", p + 1), *vp, points, "the games")?;
            within(&format!("frags of player {}", p + 1), *f, points, "the games")?;
        }
        within("rounds", self.rounds, all * u128::from(u8::MAX), "the games")?;
        // Games an engine error stopped count no Character and no position.
        let played = all - u128::from(self.errors);
        for (id, c) in &self.characters {
            let of = format!("the games played of `{id}`");
            within(&format!("characters.{id}.games"), c.games, played, "the games played")?;
            within(&format!("characters.{id}.wins"), c.wins, u128::from(c.games), &of)?;
            within(
                &format!("characters.{id}.team_games"),
                c.team_games,
                played * seats as u128,
                "the seats of the games played",
            )?;
            within(&format!("characters.{id}.team_wins"), c.team_wins, u128::from(c.team_games), "its team's games")?;
            let sums = u128::from(c.games) * u128::from(u32::MAX);
            for (what, n) in
                [("damage_dealt", c.damage_dealt), ("damage_taken", c.damage_taken), ("infirmary", c.infirmary)]
            {
                within(&format!("characters.{id}.{what}"), n, sums, &of)?;
            }
        }
        if !self.positions.is_empty() && (seats < 3 || self.positions.len() != seats) {
            return Err(format!("`positions` counts {} positions at a table of {seats}", self.positions.len()));
        }
        for (i, p) in self.positions.iter().enumerate() {
            within(&format!("positions[{i}].games"), p.games, played, "the games played")?;
            within(&format!("positions[{i}].wins"), p.wins, u128::from(p.games), "that position's games")?;
            within(
                &format!("positions[{i}].victory_points"),
                p.victory_points,
                u128::from(p.games) * u128::from(u32::MAX),
                "that position's games",
            )?;
        }
        self.check_compositions(played, seats)?;
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

    /// The compositions: sorted and distinct, each of `seats` non-empty
    /// teams of distinct Characters with a winner among them and at least
    /// one game; their games those played, their wins each seat's, their
    /// draws the draws, and each Character's appearances its `team_games`.
    fn check_compositions(&self, played: u128, seats: usize) -> Result<(), String> {
        let (mut games, mut wins, mut draws) = (0u128, vec![0u128; seats], 0u128);
        let mut appearances: BTreeMap<&Id, u128> = BTreeMap::new();
        for (i, c) in self.compositions.iter().enumerate() {
            let at = format!("compositions[{i}]");
            if i > 0 && (&self.compositions[i - 1].teams, self.compositions[i - 1].winner) >= (&c.teams, c.winner) {
                return Err(format!("`{at}` is out of order or repeats a composition"));
            }
            if c.teams.len() != seats || c.teams.iter().any(|t| t.is_empty() || t.windows(2).any(|w| w[0] >= w[1])) {
                return Err(format!("`{at}` is not {seats} non-empty teams of Characters sorted by id"));
            }
            let mut all: Vec<&Id> = c.teams.iter().flatten().collect();
            all.sort();
            if all.windows(2).any(|w| w[0] == w[1]) {
                return Err(format!("`{at}` names a Character in two teams"));
            }
            if c.games == 0 {
                return Err(format!("`{at}.games` is 0"));
            }
            games += u128::from(c.games);
            match c.winner {
                Some(w) if w >= seats => return Err(format!("`{at}.winner` is {w}: the batch has {seats} players")),
                Some(w) => wins[w] += u128::from(c.games),
                None => draws += u128::from(c.games),
            }
            for id in all {
                *appearances.entry(id).or_default() += u128::from(c.games);
            }
        }
        if games != played {
            return Err(format!("`compositions` count {games} games, but {played} were played"));
        }
        for (p, (w, counted)) in wins.iter().zip(self.wins.iter()).enumerate() {
            if *w != u128::from(*counted) {
                return Err(format!("`compositions` give player {} {w} wins, `wins` {counted}", p + 1));
            }
        }
        if draws != u128::from(self.draws) {
            return Err(format!("`compositions` count {draws} draws, `draws` {}", self.draws));
        }
        for (id, c) in &self.characters {
            let n = appearances.get(id).copied().unwrap_or(0);
            if n != u128::from(c.team_games) {
                return Err(format!(
                    "`compositions` name `{id}` in {n} games, `characters.{id}.team_games` is {}",
                    c.team_games
                ));
            }
        }
        if let Some(id) = appearances.keys().find(|id| !self.characters.contains_key(**id)) {
            return Err(format!("`compositions` name `{id}`, which `characters` does not count"));
        }
        Ok(())
    }

    /// The rates and means of these counts: for the tally of a batch,
    /// exactly [`Report::of`] that batch.
    pub fn report(&self) -> Report {
        let n = self.games as usize;
        let table = if self.wins.as_slice().is_empty() { Table::of(2) } else { self.wins.table() };
        let mean = |sum: u64| if n == 0 { 0.0 } else { sum as f64 / n as f64 };
        let at = |s: &Seated<u64>, p| s.as_slice().get(p).copied().unwrap_or(0);
        Report {
            games: n,
            win_rate: Seated::from_fn(table, |p| Rate::of(at(&self.wins, p.index()) as usize, n)),
            draws: self.draws as usize,
            mean_victory_points: Seated::from_fn(table, |p| mean(at(&self.victory_points, p.index()))),
            mean_frags: Seated::from_fn(table, |p| mean(at(&self.frags, p.index()))),
            mean_rounds: mean(self.rounds),
            games_with_effect_failures: self.games_with_effect_failures as usize,
            errors: self.errors as usize,
            games_ended_before_activation: self.games_ended_before_activation as usize,
            characters: self
                .characters
                .iter()
                .filter(|(_, c)| c.team_games > 0)
                .map(|(id, c)| (*id, Rate::of(c.team_wins as usize, c.team_games as usize)))
                .collect(),
            per_character: self
                .characters
                .iter()
                .filter(|(_, c)| c.games > 0)
                .map(|(id, c)| {
                    let per = |x: u64| x as f64 / c.games.max(1) as f64;
                    let r = CharacterReport {
                        games: c.games as usize,
                        win_rate: Rate::of(c.wins as usize, c.games as usize),
                        mean_damage_dealt: per(c.damage_dealt),
                        mean_damage_taken: per(c.damage_taken),
                        mean_infirmary: per(c.infirmary),
                    };
                    (*id, r)
                })
                .collect(),
            by_position: self
                .positions
                .iter()
                .map(|p| PositionReport {
                    win_rate: Rate::of(p.wins as usize, p.games as usize),
                    mean_victory_points: p.victory_points as f64 / p.games.max(1) as f64,
                })
                .collect(),
            strength: Strengths::fit(&self.compositions, table.len()),
        }
    }
}

/// What a batch amounted to.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    /// Games played.
    pub games: usize,
    /// Win rate of each player.
    pub win_rate: Seated<Rate>,
    /// Draws.
    pub draws: usize,
    /// Mean Victory Points of each player.
    pub mean_victory_points: Seated<f64>,
    /// Mean Frags of each player.
    pub mean_frags: Seated<f64>,
    /// Mean Rounds played.
    pub mean_rounds: f64,
    /// Games with at least one failed effect.
    pub games_with_effect_failures: usize,
    /// Games an engine error stopped.
    pub errors: usize,
    /// Games that ended before any Activation (suspicious: a Scenario rule
    /// that ends the game at once?).
    #[serde(skip_serializing_if = "zero")]
    pub games_ended_before_activation: usize,
    /// Win rate of each Character: games its team won over games it played.
    pub characters: std::collections::BTreeMap<crate::model::Id, Rate>,
    /// The balance readout of each Character (see [`CharacterReport`]).
    pub per_character: std::collections::BTreeMap<crate::model::Id, CharacterReport>,
    /// At Prime Time tables, the readout by position from the player who
    /// received the Prime Time marker at Team Creation: index 0 is that
    /// player, 1 the player to their left, and so on clockwise (`001 §
    /// Preparation`). Empty for 2-seat batches.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_position: Vec<PositionReport>,
    /// Each Character's strength adjusted for its teammates and opponents,
    /// fitted to the games some team won ([`Strengths`]); none when no game
    /// had a winner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strength: Option<Strengths>,
}

/// One position at the table, counted clockwise from the first Prime Time
/// (see [`Report::by_position`]).
#[derive(Debug, Clone, serde::Serialize)]
pub struct PositionReport {
    /// Games won from this position over games played, with the 95% interval.
    pub win_rate: Rate,
    /// Mean Victory Points scored from this position.
    pub mean_victory_points: f64,
}

impl Report {
    /// Sum up a batch: the rates and means of its [`Tally`].
    pub fn of(games: &[GameSummary]) -> Report {
        Tally::of(games).report()
    }
}

/// A Character's balance readout over a batch: games played, its side's win
/// rate, and per-game means of Damage dealt and taken and of times sent to the
/// Infirmary.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CharacterReport {
    /// Games it played (games an engine error stopped are left out).
    pub games: usize,
    /// Games its side won over games it played, with the 95% interval.
    pub win_rate: Rate,
    /// Mean Damage its Enemies suffered during its Activations, per game.
    pub mean_damage_dealt: f64,
    /// Mean Damage it suffered, per game.
    pub mean_damage_taken: f64,
    /// Mean times it was sent to the Infirmary, per game.
    pub mean_infirmary: f64,
}

impl CharacterReport {
    /// Every Character's readout over `games`.
    pub fn of(games: &[GameSummary]) -> std::collections::BTreeMap<crate::model::Id, CharacterReport> {
        Tally::of(games).report().per_character
    }
}

/// The I-th of N disjoint parts of a batch's seeds (`--shard I/N`, I from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// Which part, from 1.
    pub index: u64,
    /// How many parts.
    pub count: u64,
}

impl Shard {
    /// The seeds of this part of the batch of `games` games from `first`:
    /// shard I of N plays seeds `first + ⌊games·(I−1)/N⌋` up to (not
    /// including) `first + ⌊games·I/N⌋`, so the N parts are disjoint, in seed
    /// order, cover the batch, and differ in size by at most one game.
    pub fn seeds(self, first: u64, games: u64) -> std::ops::Range<u64> {
        let cut = |i: u64| first + (u128::from(games) * u128::from(i) / u128::from(self.count)) as u64;
        cut(self.index - 1)..cut(self.index)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `I/N` with `1 <= I <= N`: `3/8` is the third of eight parts.
    fn from_str(s: &str) -> Result<Shard, String> {
        let (i, n) = s.split_once('/').ok_or_else(|| format!("`{s}` is not I/N (for example 1/4)"))?;
        let number = |x: &str| x.trim().parse::<u64>().map_err(|e| format!("`{x}` in `{s}`: {e}"));
        let (index, count) = (number(i)?, number(n)?);
        if count == 0 || index == 0 || index > count {
            return Err(format!("`{s}`: I/N needs 1 <= I <= N (shards are numbered from 1)"));
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_disjoint_in_order_and_cover_the_batch() {
        for (games, n) in [(10u64, 4u64), (3, 4), (1_000_000, 7), (0, 2)] {
            let mut next = 5;
            for i in 1..=n {
                let r = Shard { index: i, count: n }.seeds(5, games);
                assert_eq!(r.start, next, "{games} games, shard {i}/{n}");
                assert!(r.end - r.start <= games / n + 1);
                next = r.end;
            }
            assert_eq!(next, 5 + games);
        }
    }

    #[test]
    fn shard_syntax_is_i_of_n_from_one() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "1/0", "4", "a/b", "1/4/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
