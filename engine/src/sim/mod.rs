//! Simulation: play whole games headless with controllers, one or many.
//!
//! [`play`] plays one seeded game and returns its record (events, answers,
//! result). Deterministic: the same content, setup, seed and controllers give the
//! same record, byte for byte.

mod check;
pub mod compare;
mod digest;
pub mod invictus;
mod replay;
pub mod strength;
mod tally;

pub use check::{SimCheck, check_sims, check_situations};
pub use digest::{digest, digests, digests_with_rules};
pub use replay::{RANDOM_TEAMS, random_teams_name, replay_setup};
pub use strength::Strengths;
pub use tally::{CharacterTally, Composition, Failure, MAX_FAILURES, PositionTally, Shard, Tally};

use crate::content::Content;
use crate::model::Id;
use crate::players::{GreedyPlayer, RandomPlayer};
use crate::rules::decision::Controller;
use crate::rules::event::Event;
use crate::rules::game::{Game, GameSetup};
use crate::rules::seats::{PlayerId, Seated, Table};
use crate::script::runtime::Runtime;

/// What one game left behind.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Record {
    /// The seed.
    pub seed: u64,
    /// Every event.
    pub events: Vec<Event>,
    /// Every answer, in order (with the seed and content, a replay).
    pub answers: Vec<usize>,
    /// Effects that failed and were undone.
    pub effect_failures: usize,
    /// The scripted effects that ran (indices of the runtime's `ScriptSet`).
    #[serde(skip)]
    pub effects_run: Vec<usize>,
    /// The optional rules played (`001 § Additional Rules`), for its replay.
    #[serde(skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub optional_rules: std::collections::BTreeSet<crate::rules::game::OptionalRule>,
}

impl Record {
    /// The winner, if the game ended with one.
    pub fn winner(&self) -> Option<PlayerId> {
        self.events.iter().rev().find_map(|e| match e {
            Event::GameEnded { winner, .. } => *winner,
            _ => None,
        })
    }

    /// The readable narrative, one event a line.
    pub fn narrative(&self) -> String {
        let mut s = String::new();
        for e in &self.events {
            s.push_str(&e.to_string());
            s.push('\n');
        }
        s
    }
}

/// Which player plays a seat: the random or the greedy policy ([`crate::players`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// Uniformly random legal options, seeded from the game's seed.
    Random,
    /// The greedy heuristic.
    Greedy,
}

impl Policy {
    /// A controller of this kind for seat `seat` of the game seeded `seed`.
    pub fn controller(self, seed: u64, seat: usize) -> Box<dyn Controller> {
        match self {
            Policy::Random => Box::new(RandomPlayer::for_seat(seed, seat)),
            Policy::Greedy => Box::new(GreedyPlayer),
        }
    }
}

/// Play one game with the given kinds of controller.
pub fn play_with(
    content: &Content,
    runtime: &Runtime,
    setup: &GameSetup,
    players: &[Policy],
) -> Result<Record, String> {
    let mut seats: Vec<Box<dyn Controller>> =
        players.iter().enumerate().map(|(seat, p)| p.controller(setup.seed, seat)).collect();
    play(content, runtime, setup, seats.iter_mut().map(|c| c.as_mut() as &mut dyn Controller).collect())
}

/// Play one game with random-legal controllers seeded from `seed`.
pub fn play_random(content: &Content, runtime: &Runtime, setup: &GameSetup) -> Result<Record, String> {
    let players = vec![Policy::Random; setup.teams.table().len()];
    play_with(content, runtime, setup, &players)
}

/// Play one game with the given controllers.
pub fn play<'a>(
    content: &'a Content,
    runtime: &'a Runtime,
    setup: &GameSetup,
    controllers: Vec<&'a mut dyn Controller>,
) -> Result<Record, String> {
    play_observed(content, runtime, setup, controllers, None)
}

/// Play one game with the given controllers, `observer` (the umpire's, a
/// test's) called at every Decision answered with the Decision, the whole
/// state and the answer ([`Game::observe`]).
pub fn play_observed<'a>(
    content: &'a Content,
    runtime: &'a Runtime,
    setup: &GameSetup,
    controllers: Vec<&'a mut dyn Controller>,
    observer: Option<crate::rules::game::Observer<'a>>,
) -> Result<Record, String> {
    let mut game = Game::new(content, runtime, setup, controllers)?;
    if let Some(o) = observer {
        game.observe(o);
    }
    game.play()?;
    Ok(Record {
        seed: setup.seed,
        effect_failures: game.effect_failures(),
        effects_run: game.effects_run().iter().copied().collect(),
        answers: std::mem::take(&mut game.answers),
        events: std::mem::take(&mut game.events),
        optional_rules: setup.optional_rules.clone(),
    })
}

/// One game of a batch, summed up.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GameSummary {
    /// Its seed.
    pub seed: u64,
    /// The winner, or none on a draw or error.
    pub winner: Option<PlayerId>,
    /// Victory Points of each player.
    pub victory_points: Seated<u32>,
    /// Frags of each player.
    pub frags: Seated<u32>,
    /// Rounds played.
    pub rounds: u8,
    /// Effects that failed and were undone, with their messages.
    pub effect_failures: Vec<String>,
    /// An engine error that stopped the game, if any.
    pub error: Option<String>,
    /// The Characters of each team.
    pub teams: Seated<Vec<Id>>,
    /// What each Character did in the game (see [`CharacterLine`]).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub characters: std::collections::BTreeMap<Id, CharacterLine>,
    /// The scripted effects that ran (indices of the batch's `ScriptSet`).
    #[serde(skip)]
    pub effects_run: Vec<usize>,
    /// The game ended before any Character's Activation (a Scenario rule
    /// ending it at once, say): suspicious, `arena sim` and `check --sims`
    /// warn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ended_before_activation: bool,
    /// At a Prime Time table (3-4 seats), who received the Prime Time marker
    /// at Team Creation (`001 § Preparation`, 4. Team Creation): the seat the
    /// report's positions are counted from. None at a 2-seat table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prime_time: Option<PlayerId>,
    /// The Scenario rule whose Lua ended the game (`game:end_game`), if one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_by: Option<Id>,
}

impl GameSummary {
    fn of(seed: u64, result: Result<Record, String>) -> GameSummary {
        match result {
            Err(e) => GameSummary {
                seed,
                winner: None,
                victory_points: Seated::splat(Table::of(2), 0),
                frags: Seated::splat(Table::of(2), 0),
                rounds: 0,
                effect_failures: vec![],
                error: Some(e),
                teams: Default::default(),
                characters: Default::default(),
                effects_run: Vec::new(),
                ended_before_activation: false,
                prime_time: None,
                ended_by: None,
            },
            Ok(r) => {
                let (mut vp, mut frags, mut rounds) =
                    (Seated::splat(Table::of(2), 0), Seated::splat(Table::of(2), 0), 0);
                let mut failures = Vec::new();
                let (mut activated, mut ended_before_activation, mut ended_by) = (false, false, None);
                let (mut prime_time, mut prime_time_table) = (None, false);
                for e in &r.events {
                    match e {
                        Event::GameStarted { teams, .. } => prime_time_table = teams.table().prime_time(),
                        // The marker at Team Creation: Prime Time's, or the
                        // Underdog's under `001 § Underdog`.
                        Event::PrimeTime { player, .. } | Event::Underdog { player, .. }
                            if prime_time.is_none() && prime_time_table =>
                        {
                            prime_time = Some(*player)
                        }
                        Event::ActivationStarted { .. } => activated = true,
                        Event::GameEndedByRule { rule, .. } => ended_by = Some(*rule),
                        Event::GameEnded { victory_points, frags: f, rounds: n, .. } => {
                            vp = victory_points.clone();
                            frags = f.clone();
                            rounds = *n;
                            ended_before_activation = !activated;
                        }
                        Event::EffectFailed { card, effect, message, file, line } => {
                            failures.push(format!("{file}:{}: {card} {effect}: {message}", line.unwrap_or(1)))
                        }
                        Event::Stopped { card, effect, message, file } => {
                            failures.push(format!("{file}:1: {card} {effect}: {message}"))
                        }
                        _ => {}
                    }
                }
                GameSummary {
                    seed,
                    winner: r.winner(),
                    victory_points: vp,
                    frags,
                    rounds,
                    effect_failures: failures,
                    error: None,
                    teams: Default::default(),
                    characters: character_lines(&r.events),
                    effects_run: r.effects_run,
                    ended_before_activation,
                    prime_time,
                    ended_by,
                }
            }
        }
    }
}

/// Which teams a batch plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Teams {
    /// A ready-made setup, by id: the same teams every game.
    Setup(String),
    /// Random teams of the loaded Characters for this Scenario, drawn per seed
    /// (`GameSetup::random`).
    Random(String),
}

impl Teams {
    /// The setup of one game of `seats` players.
    pub fn setup(&self, content: &Content, seed: u64, seats: usize) -> Result<GameSetup, String> {
        match self {
            Teams::Setup(id) => {
                let s = GameSetup::from_content(content, id, seed)?;
                if s.teams.table().len() != seats {
                    return Err(format!(
                        "setup `{id}` has {} teams, but {seats} players were asked for",
                        s.teams.table().len()
                    ));
                }
                Ok(s)
            }
            Teams::Random(scenario) => GameSetup::random(content, scenario, seats, seed),
        }
    }

    /// How a replay names these teams for `seats` players
    /// ([`replay_setup`]): the setup id, or `random-teams:<scenario>`, with
    /// `@<seats>` when that is not the Scenario's default number of players.
    pub fn replay_name(&self, content: &Content, seats: usize) -> String {
        match self {
            Teams::Setup(id) => id.clone(),
            Teams::Random(scenario) => random_teams_name(content, scenario, seats),
        }
    }
}

/// Most worker threads a batch starts: more than any machine's cores gains
/// nothing, and a typo (`--jobs 100000`) must not start a hundred thousand.
pub const MAX_JOBS: usize = 256;

fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Play games with seeds `seeds` in parallel on `jobs` threads, calling
/// `progress` after each game. Results are in seed order, so a batch is as
/// deterministic as one game.
///
/// Each worker thread starts one Lua VM and plays game after game on it,
/// taking the next seed from a shared counter (so a long game on one thread
/// does not leave the other idle at the end of a static split).
pub fn batch(
    content: std::sync::Arc<Content>,
    scripts: std::sync::Arc<crate::script::runtime::ScriptSet>,
    teams: &Teams,
    seeds: std::ops::Range<u64>,
    players: &[Policy],
    jobs: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<GameSummary>, String> {
    batch_with_rules(content, scripts, teams, &Default::default(), seeds, players, jobs, progress)
}

/// [`batch`], every game played with the optional rules `rules` (`001 §
/// Additional Rules`).
#[allow(clippy::too_many_arguments)]
pub fn batch_with_rules(
    content: std::sync::Arc<Content>,
    scripts: std::sync::Arc<crate::script::runtime::ScriptSet>,
    teams: &Teams,
    rules: &std::collections::BTreeSet<crate::rules::game::OptionalRule>,
    seeds: std::ops::Range<u64>,
    players: &[Policy],
    jobs: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<GameSummary>, String> {
    let setup = |seed: u64| {
        teams.setup(&content, seed, players.len()).map(|mut s| {
            s.optional_rules = rules.clone();
            s
        })
    };
    batch_of_setups(content.clone(), scripts, &setup, seeds, players, jobs, progress)
}

/// [`batch_with_rules`] with each game's setup given by `setup` (from its
/// seed): a paired comparison plays the setups drawn from one content under
/// another ([`compare`]). An `Err` from `setup` is that game's engine error.
pub(crate) fn batch_of_setups(
    content: std::sync::Arc<Content>,
    scripts: std::sync::Arc<crate::script::runtime::ScriptSet>,
    setup: &(dyn Fn(u64) -> Result<GameSetup, String> + Sync),
    seeds: std::ops::Range<u64>,
    players: &[Policy],
    jobs: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<GameSummary>, String> {
    use std::sync::atomic::{AtomicU64, Ordering};
    if jobs > MAX_JOBS {
        return Err(format!(
            "--jobs {jobs}: at most {MAX_JOBS} worker threads (this machine has {})",
            available_cores()
        ));
    }
    let jobs = jobs.max(1).min(usize::try_from(seeds.end - seeds.start).unwrap_or(usize::MAX).max(1));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(|e| e.to_string())?;
    let limits = crate::script::runtime::Limits::default();
    let next = AtomicU64::new(seeds.start);
    let play_one = |rt: &Result<Runtime, String>, seed: u64| {
        let result = match rt {
            Err(e) => Err(e.clone()),
            Ok(rt) => setup(seed).and_then(|s| {
                let teams = s.teams.clone();
                play_with(&content, rt, &s, players).map(|r| (r, teams))
            }),
        };
        progress();
        match result {
            Ok((record, mut teams)) => {
                // Drafted teams (`001 § Draft`) replace the setup's.
                for e in &record.events {
                    if let Event::Drafted { player, characters } = e {
                        if player.index() < teams.as_slice().len() {
                            teams[*player] = characters.clone();
                        }
                    }
                }
                let mut g = GameSummary::of(seed, Ok(record));
                g.teams = teams;
                g
            }
            Err(e) => GameSummary::of(seed, Err(e)),
        }
    };
    // One VM per worker thread, for the whole batch.
    let per_thread: Vec<Vec<GameSummary>> = pool.broadcast(|_| {
        let rt = Runtime::new(content.clone(), scripts.clone(), limits).map_err(|e| e.to_string());
        let mut mine = Vec::new();
        loop {
            let seed = next.fetch_add(1, Ordering::Relaxed);
            if seed >= seeds.end || seed < seeds.start {
                break;
            }
            mine.push(play_one(&rt, seed));
        }
        mine
    });
    let mut games: Vec<GameSummary> = per_thread.into_iter().flatten().collect();
    games.sort_by_key(|g| g.seed);
    Ok(games)
}

/// A proportion with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Rate {
    /// Successes / trials.
    pub rate: f64,
    /// Lower bound of the 95% interval.
    pub low: f64,
    /// Upper bound of the 95% interval.
    pub high: f64,
}

impl Rate {
    /// `k` of `n`, with the Wilson interval at z = 1.96.
    pub fn of(k: usize, n: usize) -> Rate {
        if n == 0 {
            return Rate { rate: 0.0, low: 0.0, high: 1.0 };
        }
        let (k, n, z) = (k as f64, n as f64, 1.96f64);
        let p = k / n;
        let denom = 1.0 + z * z / n;
        let centre = (p + z * z / (2.0 * n)) / denom;
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
        Rate { rate: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0) }
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
    #[serde(skip_serializing_if = "is_zero")]
    pub games_ended_before_activation: usize,
    /// Win rate of each Character: games its team won over games it played.
    pub characters: std::collections::BTreeMap<Id, Rate>,
    /// The balance readout of each Character (see [`CharacterReport`]).
    pub per_character: std::collections::BTreeMap<Id, CharacterReport>,
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

/// What one Character did in one game. Damage dealt is the Damage its Enemies
/// suffered during its own Activations (its Attacks and effects; `000 §
/// Damage`); Damage taken is all the Damage it suffered.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CharacterLine {
    /// Its player (serialized as the seat index: 0 for player 1).
    pub player: PlayerId,
    /// Damage its Enemies suffered during its Activations.
    pub damage_dealt: u32,
    /// Damage it suffered.
    pub damage_taken: u32,
    /// Times it was sent to the Infirmary (`000 § Infirmary`), or at Hit
    /// Points to the Bench in Prime Time (`001 § Bench`).
    pub infirmary: u32,
}

/// Each team Character's [`CharacterLine`], from a game's events.
pub fn character_lines(events: &[Event]) -> std::collections::BTreeMap<Id, CharacterLine> {
    let mut lines: std::collections::BTreeMap<Id, CharacterLine> = Default::default();
    let mut active: Option<Id> = None;
    // Prime Time has no Infirmary: a Character at Hit Points goes straight to the Bench.
    let mut prime_time = false;
    for e in events {
        match e {
            Event::GameStarted { teams, .. } => {
                prime_time = teams.table().prime_time();
                for (player, team) in teams.enumerate() {
                    for c in team {
                        let line = CharacterLine { player, damage_dealt: 0, damage_taken: 0, infirmary: 0 };
                        lines.insert(*c, line);
                    }
                }
            }
            // Drafted teams join after the start (`001 § Draft`).
            Event::Drafted { player, characters } => {
                for c in characters {
                    let line = CharacterLine { player: *player, damage_dealt: 0, damage_taken: 0, infirmary: 0 };
                    lines.insert(*c, line);
                }
            }
            Event::ActivationStarted { character, .. } => active = Some(*character),
            Event::Damage { character, amount, .. } => {
                let victim = lines.get(character).map(|l| l.player);
                if let Some(l) = lines.get_mut(character) {
                    l.damage_taken += u32::from(*amount);
                }
                if let Some(l) = active.as_ref().and_then(|a| lines.get_mut(a)) {
                    if victim.is_some_and(|v| v != l.player) {
                        l.damage_dealt += u32::from(*amount);
                    }
                }
            }
            Event::Infirmary { character } => {
                if let Some(l) = lines.get_mut(character) {
                    l.infirmary += 1;
                }
            }
            Event::Benched { character } if prime_time => {
                if let Some(l) = lines.get_mut(character) {
                    l.infirmary += 1;
                }
            }
            _ => {}
        }
    }
    lines
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
    pub fn of(games: &[GameSummary]) -> std::collections::BTreeMap<Id, CharacterReport> {
        Tally::of(games).report().per_character
    }
}

fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}
