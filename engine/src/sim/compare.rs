//! Paired comparison of two contents (`arena sim SCENARIO --compare
//! BASE_PACK...`): the same seeds and the same teams played under a base
//! content and a changed one (common random numbers), and per seat and per
//! Character the paired difference in win rate.
//!
//! Each game is played twice, from one [`GameSetup`] drawn from the **base**
//! content (teams, Tactics decks, Deployment Zones, seed), so the two sides
//! differ only by the change. Per row (a seat, or a Character: its side in
//! the games it played) and per game the outcome is a win, a draw or a loss
//! under each content; [`PairedCounts`] keeps the integer counts, which add
//! up across shards like a [`super::Tally`]'s, and [`PairedTally::report`]
//! computes from them:
//!
//! - the difference `(c − b) / n` in win rate, changed minus base, where `b`
//!   counts the games the row won under the base only and `c` those it won
//!   under the change only (the discordant games) of its `n` games;
//! - its 95% interval: Agresti and Min's adjusted Wald interval for paired
//!   proportions (2005: half a game added to each of the four cells), which
//!   keeps its coverage with few discordant games where the plain Wald
//!   interval does not;
//! - McNemar's `z = (c − b) / √(b + c)`, and the **exact** McNemar test's
//!   two-sided p: `2·P(X ≤ min(b, c))`, `X ~ Binomial(b + c, ½)` (the
//!   conditional binomial test on the discordant games: conservative, no
//!   normal approximation);
//! - Holm's step-down correction of those p across every row reported, so a
//!   row marked significant at 5% stays so with all the others read at once.
//!
//! docs/balance-runs.md has the command, the statistics and an example.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::aristeia_game::{GameSummary, Teams};
use super::policy::Policy;
use crate::content::Content;
use crate::model::Id;
use crate::rules::game::{GameSetup, OptionalRule, Restriction};
use crate::script::runtime::ScriptSet;

/// The level of the tests and intervals: 5% (95% intervals).
pub const ALPHA: f64 = 0.05;

/// One content of a comparison: its entries and its scripts.
#[derive(Clone)]
pub struct Side {
    /// The content.
    pub content: Arc<Content>,
    /// Its scripts.
    pub scripts: Arc<ScriptSet>,
}

/// One seed's game under both contents.
#[derive(Debug, Clone)]
pub struct PairedGame {
    /// Under the base content.
    pub base: GameSummary,
    /// Under the changed content, from the same setup.
    pub changed: GameSummary,
}

/// Why a setup drawn from the base content cannot be played under `content`:
/// a Scenario, Character or Tactic it names that `content` lacks.
fn missing_in(setup: &GameSetup, content: &Content, which: &str) -> Option<String> {
    if !content.scenarios.contains_key(&setup.scenario) {
        return Some(format!("the {which} content has no Scenario `{}`", setup.scenario));
    }
    let characters: BTreeSet<&Id> =
        setup.teams.iter().flatten().filter(|c| !content.characters.contains_key(*c)).collect();
    if !characters.is_empty() {
        let ids: Vec<String> = characters.iter().map(|c| format!("`{c}`")).collect();
        return Some(format!(
            "the teams drawn from the base content (seed {}) have Characters the {which} content lacks: {}",
            setup.seed,
            ids.join(", ")
        ));
    }
    let tactics: BTreeSet<&Id> = setup.decks.iter().flatten().filter(|t| !content.tactics.contains_key(*t)).collect();
    if !tactics.is_empty() {
        let ids: Vec<String> = tactics.iter().map(|t| format!("`{t}`")).collect();
        return Some(format!(
            "the Tactics decks drawn from the base content (seed {}) have Tactics the {which} content lacks: {}",
            setup.seed,
            ids.join(", ")
        ));
    }
    None
}

/// Whether the two contents can be compared with `teams` at `seats` players
/// before any game is played: the Characters random teams may be drawn from
/// (the base content's, or the Scenario's own list) all exist in the changed
/// content, and a ready-made setup's teams and decks do.
///
/// # Errors
/// The Characters or Tactics missing, or why a setup cannot be drawn at all.
/// Also the Draft optional rule (`001 § Draft`), where the teams are picked
/// at the table, so the two contents would play different teams.
pub fn refuse(
    base: &Content,
    changed: &Content,
    teams: &Teams,
    rules: &BTreeSet<OptionalRule>,
    seats: usize,
    first_seed: u64,
) -> Result<(), String> {
    if rules.contains(&OptionalRule::Draft) {
        return Err(
            "--optional-rule draft drafts the teams at the table, so the two contents would not play the same teams: a paired comparison needs them the same".into(),
        );
    }
    if let Teams::Random(scenario) = teams {
        let sc = base
            .scenarios
            .get(scenario.as_str())
            .ok_or_else(|| format!("no scenario `{scenario}` in the base content"))?;
        let pool: Vec<&Id> = if sc.value.characters.is_empty() {
            base.characters.keys().collect()
        } else {
            sc.value.characters.iter().filter(|c| base.characters.contains_key(*c)).collect()
        };
        let lacking: Vec<String> =
            pool.iter().filter(|c| !changed.characters.contains_key(**c)).map(|c| format!("`{c}`")).collect();
        if !lacking.is_empty() {
            return Err(format!(
                "random teams are drawn from the base content's Characters, and the changed content lacks {}",
                lacking.join(", ")
            ));
        }
    }
    let setup = teams.setup(base, first_seed, seats)?;
    match missing_in(&setup, changed, "changed") {
        Some(why) => Err(why),
        None => Ok(()),
    }
}

/// Whether `changed` would draw other teams, decks or zones than `base` for
/// the first seed (a change to a setup, or a Character added): the
/// comparison then still plays the base content's, and says so.
pub fn setups_differ(base: &Content, changed: &Content, teams: &Teams, seats: usize, first_seed: u64) -> bool {
    match (teams.setup(base, first_seed, seats), teams.setup(changed, first_seed, seats)) {
        (Ok(a), Ok(b)) => a.teams != b.teams || a.decks != b.decks || a.zones != b.zones,
        _ => true,
    }
}

/// Whether `base` and `changed` draw the same setup (teams, Tactics decks,
/// Deployment Zones) with `teams` for every seed of `seeds`: then two
/// batches played apart, one on each, are already paired game for game (the
/// same seed and setup), as [`compare_batch`] would play them. `arena watch
/// --sim` pairs each batch with the previous content's this way.
pub fn same_setups(
    base: &Content,
    changed: &Content,
    teams: &Teams,
    seeds: std::ops::Range<u64>,
    seats: usize,
) -> bool {
    seeds.into_iter().all(|seed| match (teams.setup(base, seed, seats), teams.setup(changed, seed, seats)) {
        (Ok(a), Ok(b)) => a.teams == b.teams && a.decks == b.decks && a.zones == b.zones,
        _ => false,
    })
}

/// Play the games of `seeds` under both contents, each from the setup drawn
/// from the base content for its seed (with the optional rules `rules`), on
/// `jobs` threads; `progress` is called after each of the `2 × games`.
/// Results are in seed order, so a comparison is as deterministic as a batch.
/// The changed side's games are played with `restrict` (restricted play:
/// the same content, a player who may not use something).
///
/// # Errors
/// What [`refuse`] refuses; a worker pool that cannot start.
#[allow(clippy::too_many_arguments)]
pub fn compare_batch(
    base: &Side,
    changed: &Side,
    restrict: &[Restriction],
    teams: &Teams,
    rules: &BTreeSet<OptionalRule>,
    seeds: std::ops::Range<u64>,
    players: &[Policy],
    jobs: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<PairedGame>, String> {
    refuse(&base.content, &changed.content, teams, rules, players.len(), seeds.start)?;
    let setup = |seed: u64| {
        teams.setup(&base.content, seed, players.len()).map(|mut s| {
            s.optional_rules = rules.clone();
            s
        })
    };
    let changed_setup = |seed: u64| {
        let mut s = setup(seed)?;
        s.restrictions = restrict.to_vec();
        match missing_in(&s, &changed.content, "changed") {
            Some(why) => Err(why),
            None => Ok(s),
        }
    };
    let b = super::aristeia_game::batch_of_setups(
        base.content.clone(),
        base.scripts.clone(),
        &setup,
        seeds.clone(),
        players,
        jobs,
        progress,
    )?;
    let c = super::aristeia_game::batch_of_setups(
        changed.content.clone(),
        changed.scripts.clone(),
        &changed_setup,
        seeds,
        players,
        jobs,
        progress,
    )?;
    Ok(b.into_iter().zip(c).map(|(base, changed)| PairedGame { base, changed }).collect())
}

/// One row's paired counts over the games it played under both contents
/// (games an engine error stopped on either side left out).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct PairedCounts {
    /// Games played under both contents.
    pub games: u64,
    /// Of those, games won under the base content.
    pub wins_base: u64,
    /// Games won under the changed content.
    pub wins_changed: u64,
    /// Games drawn under the base content.
    pub draws_base: u64,
    /// Games drawn under the changed content.
    pub draws_changed: u64,
    /// Discordant games won under the base content only (McNemar's `b`).
    pub won_base_only: u64,
    /// Discordant games won under the changed content only (McNemar's `c`).
    pub won_changed_only: u64,
    /// Games whose outcome for the row (win, draw or loss) differs between
    /// the contents.
    pub outcome_changed: u64,
}

/// A game's outcome for one row.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Win,
    Draw,
    Loss,
}

impl PairedCounts {
    fn add_game(&mut self, base: Outcome, changed: Outcome) {
        self.games += 1;
        self.wins_base += u64::from(base == Outcome::Win);
        self.wins_changed += u64::from(changed == Outcome::Win);
        self.draws_base += u64::from(base == Outcome::Draw);
        self.draws_changed += u64::from(changed == Outcome::Draw);
        self.won_base_only += u64::from(base == Outcome::Win && changed != Outcome::Win);
        self.won_changed_only += u64::from(changed == Outcome::Win && base != Outcome::Win);
        self.outcome_changed += u64::from(base != changed);
    }

    fn merge(&mut self, o: &PairedCounts, what: &str) -> Result<(), String> {
        let sum = |a: u64, b: u64, k: &str| {
            a.checked_add(b).ok_or_else(|| format!("the `{what}.{k}` counts add up past 2^64"))
        };
        self.games = sum(self.games, o.games, "games")?;
        self.wins_base = sum(self.wins_base, o.wins_base, "wins_base")?;
        self.wins_changed = sum(self.wins_changed, o.wins_changed, "wins_changed")?;
        self.draws_base = sum(self.draws_base, o.draws_base, "draws_base")?;
        self.draws_changed = sum(self.draws_changed, o.draws_changed, "draws_changed")?;
        self.won_base_only = sum(self.won_base_only, o.won_base_only, "won_base_only")?;
        self.won_changed_only = sum(self.won_changed_only, o.won_changed_only, "won_changed_only")?;
        self.outcome_changed = sum(self.outcome_changed, o.outcome_changed, "outcome_changed")?;
        Ok(())
    }

    /// Whether these counts can be those of `bound` games at most.
    fn check(&self, what: &str, bound: u64) -> Result<(), String> {
        let over = |k: &str, n: u64, of: u64, of_what: &str| {
            if n > of { Err(format!("`{what}.{k}` is {n}, more than {of_what} ({of})")) } else { Ok(()) }
        };
        over("games", self.games, bound, "the games played")?;
        over("wins_base", self.wins_base, self.games, "its games")?;
        over("wins_changed", self.wins_changed, self.games, "its games")?;
        over("draws_base", self.draws_base, self.games - self.wins_base, "its games not won under the base")?;
        over(
            "draws_changed",
            self.draws_changed,
            self.games - self.wins_changed,
            "its games not won under the change",
        )?;
        over("won_base_only", self.won_base_only, self.wins_base, "its wins under the base")?;
        over("won_changed_only", self.won_changed_only, self.wins_changed, "its wins under the change")?;
        over("outcome_changed", self.outcome_changed, self.games, "its games")?;
        // Games won under both: the same count seen from either side.
        if self.wins_base - self.won_base_only != self.wins_changed - self.won_changed_only {
            return Err(format!(
                "`{what}`: wins_base − won_base_only ({}) and wins_changed − won_changed_only ({}) count the games won under both, and differ",
                self.wins_base - self.won_base_only,
                self.wins_changed - self.won_changed_only
            ));
        }
        if u128::from(self.won_base_only) + u128::from(self.won_changed_only) > u128::from(self.outcome_changed) {
            return Err(format!("`{what}`: more discordant wins than games whose outcome changed"));
        }
        Ok(())
    }

    /// The rates, the paired difference and its test; `p_holm` and
    /// `significant` are filled in by [`PairedTally::report`].
    pub fn row(&self) -> PairedRow {
        let n = self.games;
        let share = |k: u64| if n == 0 { 0.0 } else { k as f64 / n as f64 };
        let (b, c) = (self.won_base_only, self.won_changed_only);
        let (low, high) = agresti_min(b, c, n);
        PairedRow {
            games: n,
            win_rate_base: share(self.wins_base),
            win_rate_changed: share(self.wins_changed),
            draw_rate_base: share(self.draws_base),
            draw_rate_changed: share(self.draws_changed),
            difference: share(c) - share(b),
            low,
            high,
            z: mcnemar_z(b, c),
            p: mcnemar_exact(b, c),
            p_holm: 1.0,
            significant: false,
            outcome_changed: self.outcome_changed,
        }
    }
}

/// The exact counts of a comparison: each side's winners per seed, paired.
/// Disjoint shards [`merge`](PairedTally::merge) into the whole comparison's.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct PairedTally {
    /// Seeds played (each under both contents).
    pub games: u64,
    /// Seeds an engine error stopped under either content, or whose two
    /// games had other teams (they cannot: both play one setup): left out
    /// of every row.
    pub errors: u64,
    /// Per seat (index 0 is player 1): games won, drawn, discordant.
    pub seats: Vec<PairedCounts>,
    /// Per Character, its side's counts in the games it played (its team
    /// from the setup, the same under both contents).
    pub characters: BTreeMap<Id, PairedCounts>,
}

fn outcome(g: &GameSummary, seat: crate::rules::seats::PlayerId) -> Outcome {
    match g.winner {
        Some(w) if w == seat => Outcome::Win,
        Some(_) => Outcome::Loss,
        None => Outcome::Draw,
    }
}

impl PairedTally {
    /// The counts of `games` at a table of `seats` players.
    pub fn of(games: &[PairedGame], seats: usize) -> PairedTally {
        let mut t = PairedTally { seats: vec![PairedCounts::default(); seats], ..PairedTally::default() };
        for g in games {
            t.games += 1;
            // The setups are the same; a team that differs (it cannot,
            // without Draft, which is refused) would not pair.
            if g.base.error.is_some() || g.changed.error.is_some() || g.base.teams != g.changed.teams {
                t.errors += 1;
                continue;
            }
            for (i, row) in t.seats.iter_mut().enumerate() {
                let p = crate::rules::seats::PlayerId::seat(i);
                row.add_game(outcome(&g.base, p), outcome(&g.changed, p));
            }
            for (p, team) in g.base.teams.enumerate() {
                for c in team {
                    t.characters.entry(*c).or_default().add_game(outcome(&g.base, p), outcome(&g.changed, p));
                }
            }
        }
        t
    }

    /// Add the counts of another, disjoint part of the same comparison.
    ///
    /// # Errors
    /// When the two count different numbers of seats, or a sum would pass
    /// `u64::MAX`.
    pub fn merge(&mut self, other: &PairedTally) -> Result<(), String> {
        if self.seats.len() != other.seats.len() {
            return Err(format!("one comparison counts {} seats, another {}", self.seats.len(), other.seats.len()));
        }
        self.games = self.games.checked_add(other.games).ok_or("the `games` counts add up past 2^64")?;
        self.errors = self.errors.checked_add(other.errors).ok_or("the `errors` counts add up past 2^64")?;
        for (i, (a, b)) in self.seats.iter_mut().zip(&other.seats).enumerate() {
            a.merge(b, &format!("seats[{i}]"))?;
        }
        for (c, o) in &other.characters {
            self.characters.entry(*c).or_default().merge(o, &format!("characters.{c}"))?;
        }
        Ok(())
    }

    /// Whether these counts can be those of a comparison of `games` seeds at
    /// `seats` players (a shard's counts read back are not trusted): one row
    /// per seat, each playing every game no error stopped; every count
    /// within the games it is counted over; the games won under both
    /// contents the same seen from either side.
    ///
    /// # Errors
    /// The first count that cannot be, named by its key.
    pub fn check(&self, games: u64, seats: usize) -> Result<(), String> {
        if self.games != games {
            return Err(format!("`paired.games` is {}, but the shard plays {games}", self.games));
        }
        if self.errors > games {
            return Err(format!("`paired.errors` is {}, more than the {games} games", self.errors));
        }
        if self.seats.len() != seats {
            return Err(format!("`paired.seats` counts {} seats; the comparison has {seats}", self.seats.len()));
        }
        let played = games - self.errors;
        for (i, s) in self.seats.iter().enumerate() {
            if s.games != played {
                return Err(format!("`paired.seats[{i}].games` is {}, not the {played} games played", s.games));
            }
            s.check(&format!("paired.seats[{i}]"), played)?;
        }
        for (c, counts) in &self.characters {
            counts.check(&format!("paired.characters.{c}"), played)?;
        }
        Ok(())
    }

    /// The comparison's rows, with Holm's correction across all of them
    /// (the seats' and every Character's that played).
    pub fn report(&self) -> Comparison {
        let mut seats: Vec<PairedRow> = self.seats.iter().map(PairedCounts::row).collect();
        let mut characters: BTreeMap<Id, PairedRow> =
            self.characters.iter().filter(|(_, c)| c.games > 0).map(|(id, c)| (*id, c.row())).collect();
        let mut rows: Vec<&mut PairedRow> = seats.iter_mut().chain(characters.values_mut()).collect();
        let ps: Vec<f64> = rows.iter().map(|r| r.p).collect();
        for (r, adjusted) in rows.iter_mut().zip(holm(&ps)) {
            r.p_holm = adjusted;
            r.significant = adjusted <= ALPHA;
        }
        let n = self.seats.len().max(1);
        Comparison {
            games: self.games,
            errors: self.errors,
            even_share: 1.0 / n as f64,
            holm_rows: ps.len(),
            alpha: ALPHA,
            seats,
            characters,
        }
    }
}

/// What a comparison amounted to: per seat and per Character, the win rates
/// under both contents and their paired difference.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Comparison {
    /// Seeds played, each under both contents.
    pub games: u64,
    /// Seeds an engine error stopped under either content (in no row).
    pub errors: u64,
    /// The table's even share of wins: 1 / seats.
    pub even_share: f64,
    /// How many rows Holm's correction was applied across.
    pub holm_rows: usize,
    /// The level: 0.05.
    pub alpha: f64,
    /// One row per seat, player 1 first.
    pub seats: Vec<PairedRow>,
    /// One row per Character that played.
    pub characters: BTreeMap<Id, PairedRow>,
}

/// One row of a [`Comparison`]. Rates and differences are fractions (0.016
/// is 1.6 points).
#[derive(Debug, Clone, serde::Serialize)]
pub struct PairedRow {
    /// Games played under both contents.
    pub games: u64,
    /// Win rate under the base content.
    pub win_rate_base: f64,
    /// Win rate under the changed content.
    pub win_rate_changed: f64,
    /// Draw rate under the base content.
    pub draw_rate_base: f64,
    /// Draw rate under the changed content.
    pub draw_rate_changed: f64,
    /// Changed minus base win rate, paired over the same games.
    pub difference: f64,
    /// Lower bound of its 95% interval (Agresti-Min).
    pub low: f64,
    /// Upper bound of its 95% interval.
    pub high: f64,
    /// McNemar's z: `(c − b) / √(b + c)`, 0 with no discordant game.
    pub z: f64,
    /// Two-sided p of the exact McNemar test.
    pub p: f64,
    /// `p` after Holm's correction across the comparison's rows.
    pub p_holm: f64,
    /// `p_holm` at most 0.05.
    pub significant: bool,
    /// Games whose outcome for the row (win, draw or loss) changed.
    pub outcome_changed: u64,
}

/// McNemar's z for `b` games won under the base only and `c` under the
/// change only: `(c − b) / √(b + c)`; 0 when both are 0.
pub fn mcnemar_z(b: u64, c: u64) -> f64 {
    if b + c == 0 { 0.0 } else { (c as f64 - b as f64) / ((b + c) as f64).sqrt() }
}

/// `ln(m!)`: summed below 256, Stirling's series above (error below 1e-19).
fn ln_factorial(m: u64) -> f64 {
    if m < 256 {
        return (2..=m).map(|i| (i as f64).ln()).sum();
    }
    let x = m as f64;
    let x2 = x * x;
    x * x.ln() - x + 0.5 * (2.0 * std::f64::consts::PI * x).ln() + 1.0 / (12.0 * x) - 1.0 / (360.0 * x * x2)
        + 1.0 / (1260.0 * x2 * x2 * x)
}

/// The exact McNemar test's two-sided p for `b` and `c` discordant games:
/// `min(1, 2·P(X ≤ min(b, c)))` with `X ~ Binomial(b + c, ½)`. 1 when
/// `b = c`. The tail is summed from `min(b, c)` down until the terms no
/// longer count (relative 1e-17), so it costs at most a few times `√(b + c)`
/// steps.
pub fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b + c;
    let k = b.min(c);
    if n == 0 || 2 * k == n {
        return 1.0;
    }
    let ln_pmf_k = ln_factorial(n) - ln_factorial(k) - ln_factorial(n - k) - n as f64 * std::f64::consts::LN_2;
    // pmf(j − 1) = pmf(j) · j / (n − j + 1), relative to pmf(k).
    let (mut term, mut sum, mut j) = (1.0f64, 1.0f64, k);
    while j > 0 {
        term *= j as f64 / (n - j + 1) as f64;
        sum += term;
        if term < sum * 1e-17 {
            break;
        }
        j -= 1;
    }
    (2.0 * (ln_pmf_k + sum.ln()).exp()).min(1.0)
}

/// The 95% interval of the paired difference `(c − b) / n`: Agresti and
/// Min's (2005) adjusted Wald interval, half a game added to each cell of
/// the 2×2 table: `θ̃ ± 1.96·√((p̃b + p̃c − θ̃²) / (n + 2))` with `p̃b = (b +
/// ½)/(n + 2)`, `p̃c = (c + ½)/(n + 2)`, `θ̃ = p̃c − p̃b`; clamped to [−1, 1].
/// With no discordant game it is not [0, 0]: a few games more could have
/// changed.
pub fn agresti_min(b: u64, c: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (-1.0, 1.0);
    }
    let m = n as f64 + 2.0;
    let (pb, pc) = ((b as f64 + 0.5) / m, (c as f64 + 0.5) / m);
    let theta = pc - pb;
    let half = 1.96 * ((pb + pc - theta * theta) / m).max(0.0).sqrt();
    ((theta - half).max(-1.0), (theta + half).min(1.0))
}

/// Holm's step-down adjusted p-values (1979), in the order given: sorted
/// ascending, the i-th of m (from 1) is `max over j ≤ i of min(1, (m − j +
/// 1)·p_(j))`. A row is significant at level α after the correction exactly
/// when its adjusted p is at most α.
pub fn holm(ps: &[f64]) -> Vec<f64> {
    let m = ps.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| ps[a].total_cmp(&ps[b]).then(a.cmp(&b)));
    let mut out = vec![1.0; m];
    let mut running = 0.0f64;
    for (i, &at) in order.iter().enumerate() {
        running = running.max(((m - i) as f64 * ps[at]).min(1.0));
        out[at] = running;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `2·P(X ≤ k)` summed term by term from the binomial coefficients.
    fn exact_by_hand(b: u64, c: u64) -> f64 {
        let n = b + c;
        let mut coef = 1.0f64;
        let mut tail = 0.0;
        for j in 0..=b.min(c) {
            if j > 0 {
                coef *= (n - j + 1) as f64 / j as f64;
            }
            tail += coef;
        }
        (2.0 * tail / 2f64.powi(n as i32)).min(1.0)
    }

    #[test]
    fn the_exact_mcnemar_test_is_the_binomial_tail_of_the_discordant_games() {
        for (b, c) in [(0, 5), (1, 9), (3, 4), (10, 30), (40, 70), (100, 160), (7, 0)] {
            let (got, want) = (mcnemar_exact(b, c), exact_by_hand(b, c));
            assert!((got - want).abs() <= 1e-12 * want.max(1e-300), "b {b} c {c}: {got} vs {want}");
        }
        // 0 vs 5: 2 / 32.
        assert!((mcnemar_exact(0, 5) - 0.0625).abs() < 1e-15);
        assert_eq!(mcnemar_exact(4, 4), 1.0);
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        // A large count: the normal tail at z ≈ 2.7 is about 0.007.
        let p = mcnemar_exact(50_000, 50_860);
        assert!((0.005..0.009).contains(&p), "{p}");
    }

    #[test]
    fn holm_multiplies_the_smallest_p_by_the_number_of_rows_and_stays_monotone() {
        let adjusted = holm(&[0.01, 0.04, 0.03, 0.5]);
        // Sorted 0.01, 0.03, 0.04, 0.5: times 4, 3, 2, 1, then the running maximum.
        let want = [0.04, 0.09, 0.09, 0.5];
        for (a, w) in adjusted.iter().zip(want) {
            assert!((a - w).abs() < 1e-12, "{adjusted:?}");
        }
    }

    #[test]
    fn no_discordant_game_gives_a_zero_difference_inside_a_narrow_interval() {
        let counts = PairedCounts { games: 1000, wins_base: 400, wins_changed: 400, ..Default::default() };
        let r = counts.row();
        assert_eq!(r.difference, 0.0);
        assert_eq!(r.z, 0.0);
        assert_eq!(r.p, 1.0);
        assert!(r.low < 0.0 && r.high > 0.0 && r.high < 0.003, "{r:?}");
    }
}
