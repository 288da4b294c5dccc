//! The ladder: players against each other on the same seeds, each pairing
//! from both sides ([`play`]), summed up as a win rate of each against each
//! (95% Wilson intervals), a Bradley-Terry rating with 95% intervals
//! (`sim::strength`'s fit, each player a "team" of one), and the time a
//! game takes.
//!
//! Two players A and B play the seeds twice: A at the seats of one side
//! and B at the other's (`Spec::sides`: in Aristeia! seats 1 and 3 against
//! 2 and 4; in Invictus the two teams of the seating), then the sides
//! swapped. A game is A's when a seat of A's won it; a draw is nobody's; a
//! game the engine stopped on an error is counted apart. The same content
//! and seeds give the same ladder.

use super::batch::{Seeded, each_seed};
use super::policy::Policy;
use super::rate::Rate;
use super::rules::Spec;
use super::rules::Summary;
use super::strength::{Composition, Strengths};
use crate::content::Content;
use crate::model::Id;
use crate::script::runtime::ScriptSet;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

/// One pairing played from both sides.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Pairing {
    /// The first player (its name, `mcts:32`).
    pub a: String,
    /// The second.
    pub b: String,
    /// Games played (twice the seeds).
    pub games: u64,
    /// Games a seat of `a` won.
    pub a_wins: u64,
    /// Games a seat of `b` won.
    pub b_wins: u64,
    /// Games nobody won.
    pub draws: u64,
    /// Games an engine error stopped (in no other count).
    pub errors: u64,
    /// `a`'s win rate over the games played to their end, with its 95% interval.
    pub a_rate: Rate,
    /// Seconds a game took on its thread, both sides' players together:
    /// the mean over the games (a core's time when no more jobs run than
    /// the machine has cores and nothing else runs).
    pub seconds_a_game: f64,
}

/// A player's rating in a ladder.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Rating {
    /// The player.
    pub player: String,
    /// Bradley-Terry strength on the log-odds scale with its 95% interval;
    /// 0 is the average player of the ladder.
    pub log_odds: super::strength::Estimate,
    /// Seats it played in the fitted games (a game of 4 seats counts its 2 seats).
    pub seats_played: u64,
}

/// The ratings of a ladder's players.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Ratings {
    /// Each player, strongest first.
    pub players: Vec<Rating>,
    /// Games fitted (some seat won).
    pub games: u64,
    /// Games left out: draws (games an error stopped are not counted at all).
    pub left_out: u64,
    /// The advantage of seats 2, 3, ... over seat 1, log-odds.
    pub seat_advantage: Vec<super::strength::Estimate>,
}

/// A ladder's results ([`play`]).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Ladder {
    /// Each pairing, in the order the players were given.
    pub pairings: Vec<Pairing>,
    /// The rating of each player: Bradley-Terry log-odds with 95%
    /// intervals, 0 the average player; `None` when no game had a winner.
    pub ratings: Option<Ratings>,
}

/// Play every pairing of `players` over `seeds`, from both sides, with
/// `jobs` threads; `progress` is called after each game.
///
/// # Errors
/// A player is named twice, fewer than two are given, or a VM could not start.
pub fn play(
    spec: &dyn Spec,
    content: Arc<Content>,
    scripts: Arc<ScriptSet>,
    players: &[Policy],
    seeds: Range<u64>,
    jobs: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Ladder, String> {
    if players.len() < 2 {
        return Err("a ladder needs at least two players".into());
    }
    for (i, p) in players.iter().enumerate() {
        if players[..i].contains(p) {
            return Err(format!(
                "`{}` is named twice (`mcts` is `mcts:{}`)",
                p.name(),
                crate::players::mcts::DEFAULT_ITERATIONS
            ));
        }
    }
    let seats = spec.seats();
    let sides = spec.sides();
    let mut pairings = Vec::new();
    let mut compositions: BTreeMap<(Vec<Vec<Id>>, Option<usize>), u64> = BTreeMap::new();
    for (i, &a) in players.iter().enumerate() {
        for &b in &players[i + 1..] {
            let mut pairing = Pairing {
                a: a.name(),
                b: b.name(),
                games: 0,
                a_wins: 0,
                b_wins: 0,
                draws: 0,
                errors: 0,
                a_rate: Rate::of(0, 0),
                seconds_a_game: 0.0,
            };
            let mut seconds = 0.0;
            for side in [[a, b], [b, a]] {
                let seated: Vec<Policy> = (0..seats).map(|s| side[sides.get(s).copied().unwrap_or(s % 2)]).collect();
                let games = timed_batch(spec, &content, &scripts, seeds.clone(), &seated, jobs, progress)?;
                for Timed(g, took) in &games {
                    seconds += took;
                    pairing.games += 1;
                    if g.error().is_some() {
                        pairing.errors += 1;
                        continue;
                    }
                    let won = g.winning_seats();
                    match won.first().map(|s| seated[*s]) {
                        Some(p) if p == a => pairing.a_wins += 1,
                        Some(_) => pairing.b_wins += 1,
                        None => pairing.draws += 1,
                    }
                    let teams = seated.iter().map(|p| vec![Id::new(&p.name())]).collect();
                    *compositions.entry((teams, won.first().copied())).or_default() += 1;
                }
            }
            pairing.seconds_a_game = seconds / pairing.games.max(1) as f64;
            pairing.a_rate = Rate::of(pairing.a_wins as usize, (pairing.games - pairing.errors) as usize);
            pairings.push(pairing);
        }
    }
    let compositions: Vec<Composition> =
        compositions.into_iter().map(|((teams, winner), games)| Composition { teams, winner, games }).collect();
    let ratings = Strengths::fit(&compositions, seats).map(|s| {
        let mut players: Vec<Rating> = s
            .characters
            .iter()
            .map(|(id, st)| Rating { player: id.to_string(), log_odds: st.log_odds, seats_played: st.games })
            .collect();
        players.sort_by(|x, y| y.log_odds.estimate.total_cmp(&x.log_odds.estimate));
        Ratings { players, games: s.games, left_out: s.left_out, seat_advantage: s.seat_advantage }
    });
    Ok(Ladder { pairings, ratings })
}

/// A game's summary and the seconds it took on its thread.
struct Timed(Box<dyn Summary>, f64);

impl Seeded for Timed {
    fn seed_of(&self) -> u64 {
        self.0.seed()
    }
}

/// `sim::run`, each game timed on its thread.
fn timed_batch(
    spec: &dyn Spec,
    content: &Arc<Content>,
    scripts: &Arc<ScriptSet>,
    seeds: Range<u64>,
    players: &[Policy],
    jobs: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Timed>, String> {
    let rules = spec.rules();
    let vm = || rules.runtime(content.clone(), scripts.clone());
    each_seed(&vm, seeds, jobs, progress, &|rt, seed| {
        let started = std::time::Instant::now();
        let summary = match rt {
            Ok(rt) => spec.summary(content, rt, seed, players),
            Err(e) => spec.failed(seed, e.clone()),
        };
        Timed(summary, started.elapsed().as_secs_f64())
    })
}

/// The ladder as text: one line per pairing, then the ratings.
pub fn text(ladder: &Ladder) -> String {
    use std::fmt::Write as _;
    // No "-0.00".
    let signed = |x: f64| format!("{:+.2}", if x.abs() < 0.005 { 0.0 } else { x });
    let mut s = String::new();
    let _ = writeln!(s, "| A | B | games | A wins | B wins | draws | errors | A's win rate [95%] | seconds a game |");
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for p in &ladder.pairings {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {:.1}% [{:.1}-{:.1}] | {} |",
            p.a,
            p.b,
            p.games,
            p.a_wins,
            p.b_wins,
            p.draws,
            p.errors,
            100.0 * p.a_rate.rate,
            100.0 * p.a_rate.low,
            100.0 * p.a_rate.high,
            if p.seconds_a_game < 0.1 {
                format!("{:.1} ms", p.seconds_a_game * 1000.0)
            } else {
                format!("{:.2} s", p.seconds_a_game)
            }
        );
    }
    match &ladder.ratings {
        Some(r) => {
            let _ = writeln!(s, "\n| player | rating (log-odds) [95%] | seats played |");
            let _ = writeln!(s, "|---|---:|---:|");
            for p in &r.players {
                let e = p.log_odds;
                let _ = writeln!(
                    s,
                    "| {} | {} [{} to {}] | {} |",
                    p.player,
                    signed(e.estimate),
                    signed(e.low),
                    signed(e.high),
                    p.seats_played
                );
            }
            let _ = writeln!(
                s,
                "(Bradley-Terry over the {} games some seat won, {} draws left out; 0 is the average player; seconds a game: wall time on its thread, both players together, a core's time with no more --jobs than idle cores)",
                r.games, r.left_out
            );
        }
        None => s.push_str("\n(no game had a winner: no rating)\n"),
    }
    s
}
