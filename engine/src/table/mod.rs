//! One table for every game: a running game as a value (its pending
//! [`Decision`], [`Table::apply`], [`Table::fork`]), the same interface for
//! Aristeia! and Invictus, and a registry of the games by name ([`GAMES`],
//! [`find`]). Models: OpenSpiel's `State` (`CurrentPlayer`, `LegalActions`,
//! `ApplyAction`, `IsTerminal`, `Returns`, `Clone`) and boardgame.io's game
//! object.
//!
//! The engines stay synchronous: each game is played by its own Round loop
//! (Aristeia, `rules::game`) or turn loop (Invictus), asking controllers deep
//! inside. A table is a **checkpoint at the last quiet point** (before the
//! Setup, a Round's or an Activation's start; an Invictus turn's start)
//! plus **the answers given since**: [`Table::apply`] resumes the checkpoint
//! and replays those
//! answers through the real engine (same code, same RNG draws) until the
//! next Decision, which the answering controller captures (state, events)
//! before it gives up (`usize::MAX`, the engine's halting). A fork copies a
//! few reference counts and the answers since the checkpoint. Lua that asks
//! mid-effect (`game:choose`) resumes by re-running, as every answer is
//! replayed. ARCHITECTURE.md § Decisions says why and what was rejected.
//!
//! - `log`: the event log, shared by forks;
//! - `replay`: the machinery common to both games ([`Replayed`]);
//! - `aristeia`, `invictus`: each game's engine behind it;
//! - `registry`: [`Rules`], [`GAMES`], [`find`].
//!
//! Players written once against [`Table`]: `players::RandomPlayer`,
//! `players::ScriptedPlayer` (the `players` module is a client of this one);
//! [`play_out`] drives a table with them.
//! Not here yet (issue "One table for every game"): the view of one seat
//! with hidden information removed, `determinize`, the greedy players and
//! the human seat against this interface, sim and replay files through it.

mod aristeia;
mod invictus;
mod log;
mod registry;
mod replay;

pub use aristeia::{Aristeia, AristeiaTable, start_aristeia};
pub use invictus::{Invictus, InvictusTable, start_invictus};
pub use log::Log;
pub use registry::{GAMES, Rules, Setup, find};
pub use replay::{Engine, Feed, Passed, Replayed, Run, Stop};

use crate::rules::seats::PlayerId;
use serde::Serialize;

/// A Decision as every game shows it: who decides, about what, and the
/// legal options as text (the answer is an index into them). The game's own
/// typed Decision is [`Table::native`]'s.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// The deciding seat.
    pub player: PlayerId,
    /// What it is about: the game's decision kind, kebab-case (`running-order`, `action`...).
    pub kind: String,
    /// A short question for people.
    pub prompt: String,
    /// Each legal option, as people read it; never empty.
    pub options: Vec<String>,
}

/// How a game ended, for every seat.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// The winning seats (a team's every seat in Invictus); empty without a winner.
    pub winners: Vec<PlayerId>,
    /// Per seat: 1 for a winner, 0 for a loser, 0.5 for every seat of a game
    /// without a winner (OpenSpiel's `Returns`).
    pub returns: Vec<f64>,
    /// The engine's error, when one stopped the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Outcome {
    /// The outcome of `seats` seats with these winners.
    pub fn of(seats: usize, winners: Vec<PlayerId>) -> Outcome {
        let returns = (0..seats)
            .map(|s| {
                if winners.is_empty() {
                    0.5
                } else if winners.contains(&PlayerId::seat(s)) {
                    1.0
                } else {
                    0.0
                }
            })
            .collect();
        Outcome { winners, returns, error: None }
    }

    /// A game stopped by the engine's `error`: no winner.
    pub fn failed(seats: usize, error: String) -> Outcome {
        Outcome { error: Some(error), ..Outcome::of(seats, Vec::new()) }
    }
}

/// Why an answer could not be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The game is over: there is no Decision to answer.
    #[error("the game is over: no Decision to answer")]
    Over,
    /// An answer is not an option of the Decision it met.
    #[error("answer {index} (from 0) is {answer}, but its Decision has {options} options")]
    BadAnswer {
        /// Which of the answers given, from 0.
        index: usize,
        /// Its value.
        answer: usize,
        /// How many options the Decision had.
        options: usize,
    },
    /// The engine could not resume the game (a defect: a replay of the
    /// same answers from the same checkpoint must go the same way).
    #[error("the game could not be played on: {0}")]
    Engine(String),
}

/// The game's own types at the table's position, for players written for
/// one game (the greedy players read the state): the pending Decision (none
/// once over) and the view its controllers are given. A new game adds its
/// variant here.
pub enum Native<'v> {
    /// An Aristeia! game. The view's `events` are those since the last
    /// quiet point (the Activation's or the Round's start); [`Table::narrative`]
    /// has them all.
    Aristeia {
        /// The pending Decision.
        decision: Option<&'v crate::rules::decision::Decision>,
        /// What its controller would see.
        view: crate::rules::state::View<'v>,
    },
    /// An Invictus game. The view's `events` are those since the turn's start.
    Invictus {
        /// The pending Decision.
        decision: Option<&'v crate::invictus::Decision>,
        /// What its controller would see.
        view: crate::invictus::View<'v>,
    },
}

/// A running game of any game, as a value: at a Decision, or over.
///
/// Object-safe: a registry's game is a `Box<dyn Table<'a> + 'a>`, `'a` being
/// the borrow of the content and the Lua runtime it plays on (a table is not
/// `Send`: the runtime is one thread's Lua VM).
pub trait Table<'a> {
    /// The game's name in the registry (`aristeia`, `invictus`).
    fn game(&self) -> &'static str;

    /// How many seats.
    fn seats(&self) -> usize;

    /// The seat to decide, or `None` when the game is over (OpenSpiel's `CurrentPlayer`).
    fn to_move(&self) -> Option<PlayerId>;

    /// How many legal options the pending Decision has (0 when over).
    fn options(&self) -> usize;

    /// The pending Decision, or `None` when the game is over (built on the
    /// first call at a position).
    fn decision(&self) -> Option<&Decision>;

    /// Answer the pending Decision with the index of an option; the game
    /// plays on to its next Decision or its end.
    ///
    /// # Errors
    /// The game is over, or `answer` is not an option; the table is unchanged.
    fn apply(&mut self, answer: usize) -> Result<(), TableError>;

    /// Answer the coming Decisions with `answers` in order, in one replay
    /// (a replay file, a fork's branch): the same as applying each.
    ///
    /// # Errors
    /// An answer is not an option of its Decision, or the game ended first;
    /// the table is unchanged.
    fn apply_all(&mut self, answers: &[usize]) -> Result<(), TableError>;

    /// Whether the game is over (OpenSpiel's `IsTerminal`).
    fn is_over(&self) -> bool {
        self.to_move().is_none()
    }

    /// How it ended, once over.
    fn outcome(&self) -> Option<&Outcome>;

    /// Every answer given from the game's start, in order (with the setup
    /// and the seed, a replay).
    fn answers(&self) -> Vec<usize>;

    /// How many events so far.
    fn event_count(&self) -> usize;

    /// Every event so far, as the JSON `arena sim --format json` prints.
    fn events_json(&self) -> Vec<serde_json::Value>;

    /// The events from `from` on, one line each, as people read them.
    fn narrative(&self, from: usize) -> Vec<String>;

    /// The game's state at this position, as JSON (Aristeia's hidden
    /// Objective cards and the RNG are not in it).
    fn state_json(&self) -> serde_json::Value;

    /// A copy of this game that goes on on its own: the same position, RNG,
    /// pending work and log (shared, not copied).
    fn fork(&self) -> Box<dyn Table<'a> + 'a>;

    /// The game's own typed Decision and view ([`Native`]).
    fn native(&self) -> Native<'_>;
}

impl std::fmt::Debug for dyn Table<'_> + '_ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("game", &self.game())
            .field("seats", &self.seats())
            .field("to_move", &self.to_move())
            .field("options", &self.options())
            .field("events", &self.event_count())
            .finish()
    }
}

/// A seat's player, written once for every game: it reads the table (the
/// neutral [`Decision`], or [`Table::native`] for one game's players).
pub trait Player {
    /// The index of an option of the pending Decision, or `None` to give up
    /// (the game stops at that Decision: [`play_out`] returns).
    fn choose(&mut self, table: &dyn Table<'_>) -> Option<usize>;
}

/// How [`play_out`] left the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Played {
    /// The game is over.
    Over,
    /// The player of this seat gave up at its Decision.
    GaveUp(PlayerId),
}

/// Play `table` on with one player per seat (`players[seat]`; a shorter
/// list is cycled) until it is over or a player gives up.
///
/// # Errors
/// A player answered out of range; the table is left at that Decision.
pub fn play_out(table: &mut dyn Table<'_>, players: &mut [&mut dyn Player]) -> Result<Played, TableError> {
    if players.is_empty() {
        return Ok(match table.to_move() {
            Some(p) => Played::GaveUp(p),
            None => Played::Over,
        });
    }
    while let Some(seat) = table.to_move() {
        let n = players.len();
        let Some(answer) = players[seat.index() % n].choose(&*table) else {
            return Ok(Played::GaveUp(seat));
        };
        table.apply(answer)?;
    }
    Ok(Played::Over)
}
