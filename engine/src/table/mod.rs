//! One table for every game: a running game as a value (its pending
//! [`Decision`], [`Table::apply`], [`Table::fork`]), the same interface for
//! Aristeia! and Invictus; the registry of the games by name is
//! `crate::sim::registry` (`GAMES`, `find`), above the batches it also
//! describes. Models: OpenSpiel's `State` (`CurrentPlayer`, `LegalActions`,
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
//! replayed. Where a replay stopped inside an Aristeia! Activation, the
//! table also keeps an **inner point** ([`Run::inner`]: the Actions Step
//! choice it stopped at or in), and replays from there instead of the
//! Activation's start; what a caller sees does not change (the log's
//! segments, the events since the quiet point, [`Table::replays`]), only
//! the replay's length ([`Table::replay_length`]). ARCHITECTURE.md §
//! Decisions says why and what was rejected.
//!
//! - `log`: the event log, shared by forks;
//! - `replay`: the machinery common to both games ([`Replayed`]);
//! - `aristeia`, `invictus`: each game's engine behind it (and
//!   [`AristeiaSetup`], an Aristeia! game's setup as a replay file records it).
//!
//! Players are written once against [`Player`], which is handed a
//! [`SeatView`]: what the deciding seat may know (`rules::view::View`,
//! `invictus::View`: the state is private to them), never the table or its
//! state. [`play_out`] drives a table with them; `players::AsController`
//! seats one in either engine directly.
//! Replay files are recorded and verified through it (`crate::replay_file`).

mod aristeia;
mod invictus;
mod log;
mod replay;

pub use aristeia::{Aristeia, AristeiaSetup, AristeiaTable, start_aristeia, start_aristeia_at};
pub use invictus::{Invictus, InvictusTable, start_invictus, start_invictus_at};
pub use log::Log;
pub use replay::{Engine, Feed, Live, Passed, Replayed, Run, Stop};

use crate::rules::seats::PlayerId;
use serde::Serialize;

/// How to set a game up, in terms every game reads (`sim::Rules::start`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// Aristeia!: a `setup` id, or a Scenario id (random teams drawn from
    /// the seed). Invictus: the seating, `teams` (or empty), `every-other`,
    /// `random` or `free-for-all` (`003 § Team Assignment`).
    pub name: String,
    /// How many seats; `None`: the setup's, or the Scenario's default (Aristeia), 2 (Invictus).
    pub seats: Option<usize>,
    /// The RNG seed.
    pub seed: u64,
}

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

/// The game's own types at the table's position, for whoever holds the
/// table (the simulator, tests: the umpire): the pending Decision (none once
/// over), the whole state, and the view the deciding seat's controller is
/// given (seat 1's once over). Players are handed only a [`SeatView`]. A new
/// game adds its variant here.
pub enum Native<'v> {
    /// An Aristeia! game. The view's events are those since the last
    /// quiet point (the Activation's or the Round's start); [`Table::narrative`]
    /// has them all.
    Aristeia {
        /// The pending Decision.
        decision: Option<&'v crate::rules::decision::Decision>,
        /// The whole state, hidden information included.
        state: &'v crate::rules::state::GameState,
        /// What the deciding seat's controller sees.
        view: crate::rules::view::View<'v>,
    },
    /// An Invictus game. The view's events are those since the turn's start.
    Invictus {
        /// The pending Decision.
        decision: Option<&'v crate::invictus::Decision>,
        /// The whole state, hidden information included.
        state: &'v crate::invictus::GameState,
        /// What the deciding seat's controller sees.
        view: crate::invictus::View<'v>,
    },
}

/// What a seat's player is given at its Decision: the game's own Decision
/// and per-seat view, in which the state is private and only what that
/// seat may know can be read (`rules::view`, `invictus::view`), and the
/// Decision as every game shows it (built when first asked for). Built by
/// [`Table::seat_view`], or by the engine for a player seated through
/// `players::AsController`.
pub struct SeatView<'v> {
    /// The game's own Decision and the seat's view.
    pub native: SeatNative<'v>,
    neutral: std::cell::OnceCell<Decision>,
}

impl<'v> SeatView<'v> {
    /// The view of the seat deciding `native`'s Decision.
    pub fn new(native: SeatNative<'v>) -> SeatView<'v> {
        SeatView { native, neutral: std::cell::OnceCell::new() }
    }

    /// The deciding seat.
    pub fn seat(&self) -> PlayerId {
        match &self.native {
            SeatNative::Aristeia { decision, .. } => decision.player,
            SeatNative::Invictus { decision, .. } => decision.player,
        }
    }

    /// How far the game has gone, in its own unit: the Round (Aristeia!,
    /// from 1; 0 before the first) or the turn (Invictus, from 1). What a
    /// rollout's horizon counts (`players::mcts`).
    pub fn progress(&self) -> u32 {
        match &self.native {
            SeatNative::Aristeia { view, .. } => u32::from(view.round()),
            SeatNative::Invictus { view, .. } => view.turn(),
        }
    }

    /// How many legal options the Decision has (never 0).
    pub fn options(&self) -> usize {
        match &self.native {
            SeatNative::Aristeia { decision, .. } => decision.options.len(),
            SeatNative::Invictus { decision, .. } => decision.options.len(),
        }
    }

    /// The Decision as every game shows it.
    pub fn decision(&self) -> &Decision {
        use replay::Engine as _;
        self.neutral.get_or_init(|| match &self.native {
            SeatNative::Aristeia { decision, .. } => Aristeia::neutral(decision),
            SeatNative::Invictus { decision, .. } => Invictus::neutral(decision),
        })
    }

    /// The events the seat has been shown from the `from`-th on, as it
    /// reads them, one line each (at a table, the events count from the last
    /// quiet point; seated in an engine, from the game's start).
    pub fn narrative(&self, from: usize) -> Vec<String> {
        match &self.native {
            SeatNative::Aristeia { view, .. } => view.events().skip(from).map(|e| e.to_string()).collect(),
            SeatNative::Invictus { view, .. } => view.narrative().skip(from).collect(),
        }
    }

    /// How many events the seat has been shown.
    pub fn event_count(&self) -> usize {
        match &self.native {
            SeatNative::Aristeia { view, .. } => view.event_count(),
            SeatNative::Invictus { view, .. } => view.event_count(),
        }
    }

    /// Everything the seat knows, as JSON (its view and the Decision).
    pub fn to_json(&self) -> serde_json::Value {
        match &self.native {
            SeatNative::Aristeia { decision, view } => {
                let mut v = view.to_json();
                v["decision"] = serde_json::to_value(decision).unwrap_or_default();
                v
            }
            SeatNative::Invictus { decision, view } => view.to_json(Some(decision)),
        }
    }
}

/// One game's Decision and per-seat view ([`SeatView::native`]).
pub enum SeatNative<'v> {
    /// Aristeia!.
    Aristeia {
        /// The pending Decision.
        decision: &'v crate::rules::decision::Decision,
        /// What the seat may know.
        view: crate::rules::view::View<'v>,
    },
    /// Invictus.
    Invictus {
        /// The pending Decision.
        decision: &'v crate::invictus::Decision,
        /// What the seat may know.
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

    /// The events from `from` on (counted from the game's start), one line
    /// each, as `seat` reads them: what it may not know left out.
    fn seat_narrative(&self, seat: PlayerId, from: usize) -> Vec<String>;

    /// How many answers every fork of this position replays from the last
    /// quiet point (what a fork costs, in Decisions played again).
    fn replays(&self) -> usize;

    /// How many of those answers [`Table::apply`] replays before its own:
    /// fewer than [`Table::replays`] where the table resumes from a point
    /// inside the Activation (Aristeia!: the Actions Step choice it is at or
    /// in, ARCHITECTURE.md § Decisions, inner points), none at an Actions
    /// Step's own Decision.
    fn replay_length(&self) -> usize;

    /// Whether an effect failed since the last quiet point, so that every
    /// fork of this position ([`Table::apply`], [`Table::determinize`],
    /// [`Table::reseeded`]) runs it again. [`play_out`] stops asking
    /// search players at the table from there on, so that a mod script
    /// that fails by exhausting its budget is not run again for each fork.
    fn replays_a_failed_effect(&self) -> bool;

    /// The game's state at this position, as JSON (Aristeia's hidden
    /// Objective cards and the RNG are not in it).
    fn state_json(&self) -> serde_json::Value;

    /// A copy of this game that goes on on its own: the same position, RNG,
    /// pending work and log (shared, not copied).
    fn fork(&self) -> Box<dyn Table<'a> + 'a>;

    /// A game consistent with everything `seat` knows at this Decision,
    /// with the rest drawn anew from `seed` (OpenSpiel's
    /// `ResampleFromInfostate`, the determinization of Cowling, Powley &
    /// Whitehouse's IS-MCTS): the hidden cards `seat` has not seen (the
    /// other players' Tactics and Invictus hands, every deck's order below
    /// the cards drawn since the last quiet point, the Objectives Deck and
    /// the other players' hidden Objective cards, face-down Running Order
    /// placements, Running Projectile and Special Space markers face down)
    /// dealt anew, and the dice and draws from this Decision on reseeded.
    /// `seat`'s view of the new game equals its view of this one (checked:
    /// a deal that the replay since the quiet point contradicts is dealt
    /// again). The new game is not a replay of the original's seed, and its
    /// log before the quiet point is the original's.
    ///
    /// # Errors
    /// The game is over; or no deal could be replayed (an engine defect).
    fn determinize(&self, seat: PlayerId, seed: u64) -> Result<Box<dyn Table<'a> + 'a>, TableError>;

    /// A fork of this game whose dice and draws from this Decision on come
    /// from `seed` instead of the game's own randomness; nothing hidden is
    /// dealt anew (the other players' cards stay where they are). Cheap: a
    /// copy of the last quiet point's state, no replay. What a one-Action
    /// look-ahead plays on ([`InfoSet::probe`]), so that it cannot see the
    /// game's own coming dice.
    ///
    /// # Errors
    /// The game is over, or this table is itself reseeded at an earlier
    /// Decision since its last quiet point (a world or a probe: reseed the
    /// original).
    fn reseeded(&self, seed: u64) -> Result<Box<dyn Table<'a> + 'a>, TableError>;

    /// Play on with one player per seat (`players[seat]`; a shorter list is
    /// cycled) until the game is over or a player gives up: the same game
    /// as [`play_out`] with the same players, in one run of the engine from
    /// the last quiet point (the answers since replayed, then the players
    /// asked as the engine meets each Decision) instead of one replay per
    /// answer. What search players' rollouts use.
    ///
    /// # Errors
    /// A player answered out of range (the table is unchanged), or the
    /// engine could not resume the game.
    fn play_on(&mut self, players: &mut [&mut dyn Player]) -> Result<Played, TableError>;

    /// The game's own typed Decision, whole state and deciding seat's
    /// view ([`Native`]): for the umpire (the simulator, tests), never a player.
    fn native(&self) -> Native<'_>;

    /// What the deciding seat may know ([`SeatView`]), or `None` once the
    /// game is over: what [`play_out`] hands each [`Player`].
    fn seat_view(&self) -> Option<SeatView<'_>> {
        let native = match self.native() {
            Native::Aristeia { decision: Some(decision), view, .. } => SeatNative::Aristeia { decision, view },
            Native::Invictus { decision: Some(decision), view, .. } => SeatNative::Invictus { decision, view },
            _ => return None,
        };
        Some(SeatView::new(native))
    }
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

/// A seat's player, written once for every game: it is given what its seat
/// may know ([`SeatView`]: the Decision, neutral or the game's own, and the
/// seat's view), never the table.
pub trait Player {
    /// The index of an option of the pending Decision, or `None` to give up
    /// (the game stops at that Decision: [`play_out`] returns).
    fn choose(&mut self, seat: &SeatView<'_>) -> Option<usize>;

    /// The same, at a table ([`play_out`]), where the player may also
    /// sample worlds consistent with its view ([`InfoSet::world`]): what a
    /// search player searches. By default [`Player::choose`] with the view.
    fn choose_in(&mut self, info: &InfoSet<'_, '_>) -> Option<usize> {
        self.choose(info.view())
    }

    /// Whether the player searches ([`Player::choose_in`] does more than
    /// [`Player::choose`]): a game with such a player is played at a table
    /// (`sim`'s batches), not in the engine's own loop.
    fn searches(&self) -> bool {
        false
    }

    /// Whether the player needs the table at this Decision: elsewhere its
    /// [`Player::choose`] is its answer, and [`play_out`] plays on without
    /// a table at every Decision. By default whether it [`Player::searches`].
    fn needs_table(&self, seat: &SeatView<'_>) -> bool {
        let _ = seat;
        self.searches()
    }
}

impl<P: Player + ?Sized> Player for &mut P {
    fn choose(&mut self, seat: &SeatView<'_>) -> Option<usize> {
        (**self).choose(seat)
    }

    fn choose_in(&mut self, info: &InfoSet<'_, '_>) -> Option<usize> {
        (**self).choose_in(info)
    }

    fn searches(&self) -> bool {
        (**self).searches()
    }

    fn needs_table(&self, seat: &SeatView<'_>) -> bool {
        (**self).needs_table(seat)
    }
}

impl<P: Player + ?Sized> Player for Box<P> {
    fn choose(&mut self, seat: &SeatView<'_>) -> Option<usize> {
        (**self).choose(seat)
    }

    fn choose_in(&mut self, info: &InfoSet<'_, '_>) -> Option<usize> {
        (**self).choose_in(info)
    }

    fn searches(&self) -> bool {
        (**self).searches()
    }

    fn needs_table(&self, seat: &SeatView<'_>) -> bool {
        (**self).needs_table(seat)
    }
}

/// What a player at a table may use at its Decision ([`Player::choose_in`]):
/// its seat's view, and games drawn consistent with that view
/// ([`Table::determinize`]: the information set's worlds). Never the table
/// itself, so a search player cannot read the cards its seat has not seen.
pub struct InfoSet<'t, 'a> {
    table: &'t (dyn Table<'a> + 't),
    view: SeatView<'t>,
}

impl<'t, 'a> InfoSet<'t, 'a> {
    /// The information set of the seat deciding at `table`; `None` once the game is over.
    pub fn of(table: &'t (dyn Table<'a> + 't)) -> Option<InfoSet<'t, 'a>> {
        Some(InfoSet { table, view: table.seat_view()? })
    }

    /// The deciding seat's view.
    pub fn view(&self) -> &SeatView<'t> {
        &self.view
    }

    /// The deciding seat.
    pub fn seat(&self) -> PlayerId {
        self.view.seat()
    }

    /// How many seats the game has.
    pub fn seats(&self) -> usize {
        self.table.seats()
    }

    /// How many Decisions were answered before this one (to seed a search).
    pub fn answered(&self) -> usize {
        self.table.answers().len()
    }

    /// How many answers each fork of this position replays
    /// ([`Table::replays`]): a search may answer without forking where a
    /// fork costs too much.
    pub fn fork_replays(&self) -> usize {
        self.table.replays()
    }

    /// How many events the game has had so far (what a person at the seat
    /// has been shown when it answers here).
    pub fn event_count(&self) -> usize {
        self.table.event_count()
    }

    /// The events from the `from`-th on (counted from the game's start), as
    /// the seat reads them, one line each ([`Table::seat_narrative`]).
    pub fn narrative(&self, from: usize) -> Vec<String> {
        self.table.seat_narrative(self.seat(), from)
    }

    /// A game consistent with everything the seat knows here, the rest
    /// drawn from `seed` ([`Table::determinize`]).
    ///
    /// # Errors
    /// As [`Table::determinize`].
    pub fn world(&self, seed: u64) -> Result<Box<dyn Table<'a> + 'a>, TableError> {
        self.table.determinize(self.seat(), seed)
    }

    /// A fork of the game itself with its coming dice and draws drawn from
    /// `seed` ([`Table::reseeded`]): cheaper than a [`InfoSet::world`] but
    /// not blind, since the other seats' cards are the real ones. For a
    /// look-ahead that reads the fork only through the evaluation function
    /// (`players::eval`, the public part of a view) and answers the other
    /// seats' Decisions without their cards (the greedy player's,
    /// `players::lookahead`); a search over what other seats would do
    /// samples worlds instead.
    ///
    /// # Errors
    /// As [`Table::reseeded`].
    pub fn probe(&self, seed: u64) -> Result<Box<dyn Table<'a> + 'a>, TableError> {
        self.table.reseeded(seed)
    }
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
/// list is cycled) until it is over or a player gives up. A player is asked
/// at the table ([`Player::choose_in`]) where it needs it
/// ([`Player::needs_table`]); between those Decisions the game is played on
/// in one run of the engine ([`Table::play_on`]) with the players'
/// [`Player::choose`], the same answers without a replay per Decision.
/// Once an effect has failed, a player that searches is no longer asked at
/// the table ([`Table::replays_a_failed_effect`]): it answers from the view
/// for the rest of the game.
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
    let n = players.len();
    // Once an effect failed, search players answer from the view for the
    // rest of the game (`Table::replays_a_failed_effect`).
    let mut failed = false;
    while let Some(seat) = table.to_move() {
        failed = failed || table.replays_a_failed_effect();
        let player = &mut players[seat.index() % n];
        // An answer given at the table is the run's first: the run replays
        // to this Decision once, not once to apply it and once to go on.
        let mut given = None;
        if table.seat_view().is_some_and(|v| player.needs_table(&v) && !(failed && player.searches())) {
            let Some(info) = InfoSet::of(&*table) else { break };
            let Some(answer) = player.choose_in(&info) else {
                return Ok(Played::GaveUp(seat));
            };
            let options = table.options();
            if answer >= options {
                return Err(TableError::BadAnswer { index: 0, answer, options });
            }
            given = Some(answer);
        }
        let wanted = std::cell::Cell::new(false);
        let given = std::cell::Cell::new(given);
        let mut quick: Vec<Quick<'_, '_>> =
            players.iter_mut().map(|p| Quick { player: &mut **p, wanted: &wanted, given: &given, failed }).collect();
        let mut seats: Vec<&mut dyn Player> = quick.iter_mut().map(|q| q as &mut dyn Player).collect();
        match table.play_on(&mut seats)? {
            Played::Over => return Ok(Played::Over),
            Played::GaveUp(p) if !wanted.get() => return Ok(Played::GaveUp(p)),
            Played::GaveUp(_) => {}
        }
    }
    Ok(Played::Over)
}

/// A player in [`play_out`]'s runs: the answer given at the table for the
/// run's first Decision (`given`), then its own quick answer, or a stop
/// (`wanted`) where it needs the table.
struct Quick<'p, 'w> {
    player: &'p mut dyn Player,
    wanted: &'w std::cell::Cell<bool>,
    given: &'w std::cell::Cell<Option<usize>>,
    /// An effect failed: a search player is not stopped for the table.
    failed: bool,
}

impl Player for Quick<'_, '_> {
    fn choose(&mut self, seat: &SeatView<'_>) -> Option<usize> {
        if let Some(answer) = self.given.take() {
            return Some(answer);
        }
        if self.player.needs_table(seat) && !(self.failed && self.player.searches()) {
            self.wanted.set(true);
            return None;
        }
        self.player.choose(seat)
    }
}
