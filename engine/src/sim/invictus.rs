//! Headless Invictus games: [`play`] one seeded game, [`batch`] many in
//! parallel (rayon, one Lua VM per worker), a [`Report`] with the win rate
//! of every god and every seat (95% Wilson intervals) and the mean game
//! length. Replay files of Invictus games are `crate::replay_file`'s
//! (format 2, both games).

use super::{Policy, Rate};
use crate::content::Content;
use crate::invictus::api;
use crate::invictus::decision::Controller;
use crate::invictus::event::Event;
use crate::invictus::game::{Game, InvictusSetup};
use crate::invictus::state::Outcome;
use crate::script::runtime::{Limits, Runtime, ScriptSet};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A controller of `policy` for seat `seat` of the game seeded `seed`.
pub fn controller(policy: Policy, seed: u64, seat: usize) -> Box<dyn Controller> {
    match policy {
        Policy::Random => Box::new(crate::players::RandomPlayer::for_seat(seed, seat)),
        Policy::Greedy => Box::new(crate::players::GreedyPlayer),
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
    let controllers = (0..setup.players)
        .map(|s| controller(*policies.get(s % policies.len().max(1)).unwrap_or(&Policy::Random), seed, s))
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

/// Play the games of `seeds` on `jobs` threads; results in seed order.
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
    use rayon::prelude::*;
    if jobs > crate::sim::MAX_JOBS {
        return Err(format!("--jobs {jobs}: at most {} worker threads", crate::sim::MAX_JOBS));
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs.max(1)).build().map_err(|e| e.to_string())?;
    Ok(pool.install(|| {
        seeds
            .into_par_iter()
            .map_init(
                || runtime(content.clone(), scripts.clone()),
                |rt, seed| {
                    let result =
                        rt.as_ref().map_err(Clone::clone).and_then(|rt| play(&content, rt, setup, seed, policies));
                    progress();
                    match result {
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
                        Err(e) => GameSummary {
                            seed,
                            winner: None,
                            turns: 0,
                            gods: Vec::new(),
                            teams: Vec::new(),
                            effect_failures: 0,
                            last_failure: None,
                            error: Some(e),
                            effects_run: Vec::new(),
                        },
                    }
                },
            )
            .collect()
    }))
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
    /// The report of a batch.
    pub fn of(games: &[GameSummary]) -> Report {
        let played: Vec<&GameSummary> = games.iter().filter(|g| g.error.is_none()).collect();
        let mut gods: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        let seats_n = played.iter().map(|g| g.gods.len()).max().unwrap_or(0);
        let mut seats = vec![(0usize, 0usize); seats_n];
        for g in &played {
            for (s, god) in g.gods.iter().enumerate() {
                let won = g.winner == Some(g.teams[s]);
                let e = gods.entry(god.clone()).or_default();
                e.0 += 1;
                e.1 += usize::from(won);
                seats[s].0 += 1;
                seats[s].1 += usize::from(won);
            }
        }
        let line = |(games, wins): (usize, usize)| WinLine { games, wins, rate: Rate::of(wins, games) };
        Report {
            games: games.len(),
            decided: played.iter().filter(|g| g.winner.is_some()).count(),
            errors: games.len() - played.len(),
            effect_failures: played.iter().map(|g| g.effect_failures).sum(),
            mean_turns: if played.is_empty() {
                0.0
            } else {
                played.iter().map(|g| g.turns as f64).sum::<f64>() / played.len() as f64
            },
            gods: gods.into_iter().map(|(k, v)| (k, line(v))).collect(),
            seats: seats.into_iter().map(line).collect(),
        }
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} games: {} won by a team, {} without a winner, {} engine errors; mean {:.1} turns per game; {} effect failures",
            self.games,
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

/// The Invictus part of `arena check --sims N`: `N` 4-player and `N`
/// 6-player team games (a greedy seat beside random ones, then the other
/// way round). Returns the scripts that ran and one diagnostic per problem
/// (keyed, to count repeats), each with the command that plays it again.
pub fn check_sims(
    loaded: &crate::loaded::Loaded,
    n: u64,
    jobs: usize,
    packs: &str,
) -> (Vec<usize>, Vec<(String, crate::diag::Diagnostic)>) {
    use crate::diag::{Code, Diagnostic};
    let content = Arc::new(loaded.content.clone());
    let mut ran = Vec::new();
    let mut found = Vec::new();
    let half = n.div_ceil(2);
    let mixes: [(&[Policy], std::ops::Range<u64>, &str); 2] = [
        (&[Policy::Greedy, Policy::Random], 1..half + 1, "greedy,random"),
        (&[Policy::Random, Policy::Greedy], half + 1..n + 1, "random,greedy"),
    ];
    for players in [4usize, 6] {
        if content.gods.len() < players {
            continue;
        }
        let setup = InvictusSetup::teams(players);
        for (policies, seeds, named) in mixes.iter().filter(|m| !m.1.is_empty()) {
            let games = match batch(
                content.clone(),
                loaded.script_set.clone(),
                &setup,
                seeds.clone(),
                policies,
                jobs,
                &|| {},
            ) {
                Ok(g) => g,
                Err(e) => {
                    found.push((
                        format!("invictus batch {players}"),
                        Diagnostic::error(Code::SimFailed, format!("cannot play Invictus with {players} players: {e}")),
                    ));
                    continue;
                }
            };
            for g in games {
                ran.extend(g.effects_run.iter().copied());
                let repro = format!(
                    "reproduce with `arena sim invictus --seats {players} --seed {} --players {named}{packs}`",
                    g.seed
                );
                if let Some(e) = &g.error {
                    found.push((
                        format!("invictus error {e}"),
                        Diagnostic::error(
                            Code::SimFailed,
                            format!("Invictus, {players} players, seed {}: {e}", g.seed),
                        )
                        .help(repro),
                    ));
                    continue;
                }
                if let Some(f) = &g.last_failure {
                    found.push((
                        format!("invictus effect {f}"),
                        Diagnostic::error(Code::ScriptError, format!("in a simulated Invictus game: {f}"))
                            .help(repro.clone()),
                    ));
                }
                if g.winner.is_none() {
                    found.push((
                        format!("invictus unfinished {players}"),
                        Diagnostic::warning(
                            Code::SimFailed,
                            format!("Invictus, {players} players, seed {}: no team won", g.seed),
                        )
                        .help(repro),
                    ));
                }
            }
        }
    }
    (ran, found)
}
