//! One Aristeia! game headless and its summary in a batch: [`play`] one
//! seeded game with any controllers and keep its [`Record`];
//! [`GameSummary`] sums it up for a batch's tally (sim's `tally.rs`);
//! [`Teams`] says which teams a batch plays; [`batch`] plays many through
//! the one runner (`batch.rs`).

use super::batch::{Seeded, each_seed};
use super::policy::Policy;
use super::replay::random_teams_name;
use super::rules::{Played, Summary};
use crate::content::Content;
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

impl Played for Record {
    fn answers(&self) -> &[usize] {
        &self.answers
    }

    fn narrative(&self) -> String {
        Record::narrative(self)
    }

    fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({ "kind": "sim-game" });
        if let (Some(head), Ok(serde_json::Value::Object(fields))) = (v.as_object_mut(), serde_json::to_value(self)) {
            head.extend(fields);
        }
        v
    }

    fn effect_failures(&self) -> usize {
        self.effect_failures
    }

    fn digest(&self) -> String {
        digest(self)
    }
}

/// Play one game with the given kinds of controller.
pub fn play_with(
    content: &Content,
    runtime: &Runtime,
    setup: &GameSetup,
    players: &[Policy],
) -> Result<Record, String> {
    if players.iter().any(|p| p.searches()) {
        let mut seated: Vec<Box<dyn crate::table::Player>> =
            players.iter().enumerate().map(|(seat, p)| p.player(setup.seed, seat)).collect();
        return play_at_table(content, runtime, setup, &mut seated);
    }
    let mut seats: Vec<Box<dyn Controller>> =
        players.iter().enumerate().map(|(seat, p)| p.controller(setup.seed, seat)).collect();
    play(content, runtime, setup, seats.iter_mut().map(|c| c.as_mut() as &mut dyn Controller).collect())
}

/// Play one game at a table with `players` (search players sample worlds
/// there: `sim::at_table`), then again in the engine's loop from its
/// answers, for its [`Record`].
///
/// # Errors
/// The game cannot be set up, stops on an engine error, or a player gives up.
pub fn play_at_table(
    content: &Content,
    runtime: &Runtime,
    setup: &GameSetup,
    players: &mut [Box<dyn crate::table::Player>],
) -> Result<Record, String> {
    let mut table = crate::table::start_aristeia(content, runtime, setup)?;
    let answers = super::at_table::answers(&mut table, players)?;
    let mut script = super::at_table::SharedScript::seats(answers, setup.teams.table().len());
    play(content, runtime, setup, script.iter_mut().map(|c| c as &mut dyn Controller).collect())
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
    pub teams: Seated<Vec<crate::model::Id>>,
    /// What each Character did in the game (see [`CharacterLine`]).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub characters: std::collections::BTreeMap<crate::model::Id, CharacterLine>,
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
    pub ended_by: Option<crate::model::Id>,
}

impl GameSummary {
    pub(super) fn of(seed: u64, result: Result<Record, String>) -> GameSummary {
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

    /// [`Teams::setup`], played with the optional rules `rules` (`001 § Additional Rules`).
    pub fn setup_with(
        &self,
        content: &Content,
        seed: u64,
        seats: usize,
        rules: &std::collections::BTreeSet<crate::rules::game::OptionalRule>,
    ) -> Result<GameSetup, String> {
        self.setup(content, seed, seats).map(|mut s| {
            s.optional_rules = rules.clone();
            s
        })
    }

    /// How a replay names these teams for `seats` players
    /// ([`super::replay_setup`]): the setup id, or `random-teams:<scenario>`, with
    /// `@<seats>` when that is not the Scenario's default number of players.
    pub fn replay_name(&self, content: &Content, seats: usize) -> String {
        match self {
            Teams::Setup(id) => id.clone(),
            Teams::Random(scenario) => random_teams_name(content, scenario, seats),
        }
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
        self.winner.filter(|_| self.error.is_none()).map(|w| w.index()).into_iter().collect()
    }

    fn effects_run(&self) -> &[usize] {
        &self.effects_run
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }

    fn problems(&self, what: &str, _seats: usize, repro: &str, note: &mut dyn FnMut(String, crate::diag::Diagnostic)) {
        report_game(self, what, repro, note);
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }
}

/// Play the game of `setup` (an `Err`: that game's engine error) seeded
/// `seed`, `players[seat]` at each seat, and sum it up; the teams are the
/// setup's, or those drafted at the table (`001 § Draft`).
pub(super) fn summarize(
    content: &Content,
    runtime: &Runtime,
    setup: Result<GameSetup, String>,
    seed: u64,
    players: &[Policy],
) -> GameSummary {
    let result = setup.and_then(|s| {
        let teams = s.teams.clone();
        play_with(content, runtime, &s, players).map(|r| (r, teams))
    });
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
}

/// Play games with seeds `seeds` in parallel on `jobs` threads, calling
/// `progress` after each game, through the one runner (`sim::run`).
/// Results are in seed order, so a batch is as deterministic as one game.
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
    let setup = |seed: u64| teams.setup_with(&content, seed, players.len(), rules);
    batch_of_setups(content.clone(), scripts, &setup, seeds, players, jobs, progress)
}

/// [`batch_with_rules`] with each game's setup given by `setup` (from its
/// seed): a paired comparison plays the setups drawn from one content under
/// another (`sim::compare`). An `Err` from `setup` is that game's engine error.
pub(crate) fn batch_of_setups(
    content: std::sync::Arc<Content>,
    scripts: std::sync::Arc<crate::script::runtime::ScriptSet>,
    setup: &(dyn Fn(u64) -> Result<GameSetup, String> + Sync),
    seeds: std::ops::Range<u64>,
    players: &[Policy],
    jobs: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<GameSummary>, String> {
    let vm = || runtime(content.clone(), scripts.clone());
    each_seed(&vm, seeds, jobs, progress, &|rt, seed| match rt {
        Ok(rt) => summarize(&content, rt, setup(seed), seed, players),
        Err(e) => GameSummary::of(seed, Err(e.clone())),
    })
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
pub fn character_lines(events: &[Event]) -> std::collections::BTreeMap<crate::model::Id, CharacterLine> {
    let mut lines: std::collections::BTreeMap<crate::model::Id, CharacterLine> = Default::default();
    let mut active: Option<crate::model::Id> = None;
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

/// A VM for Aristeia! games: the Aristeia! API over `scripts`.
///
/// # Errors
/// The VM could not be made (the scripts do not fit).
pub(super) fn runtime(
    content: std::sync::Arc<Content>,
    scripts: std::sync::Arc<crate::script::runtime::ScriptSet>,
) -> Result<Runtime, String> {
    Runtime::new(content, scripts, crate::script::runtime::Limits::default()).map_err(|e| e.to_string())
}

/// The BLAKE3 hash (hex) of a game's record: its events and its answers, as
/// the JSON `arena sim --format json` prints them, and its count of failed
/// effects. Two games with the same digest told the same story with the same
/// answers.
pub fn digest(record: &Record) -> String {
    let mut h = blake3::Hasher::new();
    // Serializing plain data to a Vec cannot fail.
    h.update(&serde_json::to_vec(&record.events).unwrap_or_default());
    h.update(b"\n");
    h.update(&serde_json::to_vec(&record.answers).unwrap_or_default());
    h.update(format!("\n{}", record.effect_failures).as_bytes());
    h.finalize().to_hex().to_string()
}

/// One game of `arena check --sims`: its engine error, an unfinished game, and one
/// diagnostic per failing script line, each with the command that plays it again.
fn report_game(g: &GameSummary, what: &str, repro: &str, note: &mut dyn FnMut(String, crate::diag::Diagnostic)) {
    use crate::diag::{Code, Diagnostic, Location};
    let repro = repro.to_string();
    if let Some(e) = &g.error {
        note(
            format!("error {what} {e}"),
            Diagnostic::error(Code::SimFailed, format!("`{what}`, seed {}: {e}", g.seed)).help(repro.clone()),
        );
        return;
    }
    if g.rounds == 0 {
        note(
            format!("unfinished {what}"),
            Diagnostic::error(Code::SimFailed, format!("`{what}`, seed {}: the game did not end", g.seed))
                .help(repro.clone()),
        );
    }
    // Over before anyone played: a rule that ends the game at once, most likely.
    if g.ended_before_activation {
        let by = match &g.ended_by {
            Some(rule) => format!(": Scenario rule `{rule}` ended it"),
            None => String::new(),
        };
        note(
            format!("ended early {what}"),
            Diagnostic::warning(
                Code::SimFailed,
                format!("`{what}`, seed {}: the game ended in Round {} before any Activation{by}", g.seed, g.rounds),
            )
            .with_note("a game that ends before any Character is activated is usually a rule ending it too soon (`game:end_game()` at `round-start`?)")
            .help(repro.clone()),
        );
    }
    let mut this_game = std::collections::BTreeSet::new();
    for f in g.effect_failures.iter().filter(|f| this_game.insert((*f).clone())) {
        // "file:line: card effect: message"
        let mut parts = f.splitn(3, ':');
        let (file, line, rest) =
            (parts.next().unwrap_or_default(), parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
        let line: usize = line.trim().parse().unwrap_or(1);
        let code = if rest.contains("instruction budget exhausted") {
            Code::ScriptBudget
        } else if rest.contains("not enough memory") || rest.contains("memory limit") {
            Code::ScriptMemory
        } else {
            Code::ScriptError
        };
        // One diagnostic per script line, however its message varies.
        let key = if file.is_empty() { f.clone() } else { format!("{file}:{line}") };
        note(
            key,
            Diagnostic::error(code, format!("in a simulated game: {}", rest.trim()))
                .at(Location { file: file.into(), span: None, line, column: 1 })
                .with_note(format!("first seen in `{what}`, seed {}", g.seed))
                .help(repro.clone()),
        );
    }
}
