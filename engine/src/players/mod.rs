//! The players, written once for every game against [`Player`]: each is
//! handed a [`SeatView`] (what its seat may know, the Decision) and answers
//! with the index of an option.
//!
//! - [`RandomPlayer`]: uniform over the legal options, seeded per seat ([`seat_seed`]).
//! - [`GreedyPlayer`]: one heuristic per game, each reading only the seat's
//!   view (`greedy::aristeia`: toward the Scoring Zone, at the most wounded
//!   Enemy; `crate::invictus::players`: a score per option).
//! - [`ScriptedPlayer`]: a list of answers, then gives up or a fallback player.
//! - [`MctsPlayer`]: information-set Monte Carlo tree search over sampled
//!   worlds, with greedy playouts scored by [`eval`] (`players::mcts`).
//!
//! Every [`Player`] is also a controller of both engines
//! (`rules::decision::Controller`, `invictus::Controller`, blanket impls
//! below), so the simulator seats the same players in either game's Round
//! or turn loop and at a [`crate::table::Table`]. A player that gives up
//! answers `usize::MAX`, the engines' halting.
//!
//! The rules never depend on this module; the simulator and the tool choose
//! a player per seat.

pub mod eval;
mod greedy;
mod lookahead;
pub mod mcts;
mod random;
mod scripted;

pub use greedy::GreedyPlayer;
pub use mcts::MctsPlayer;
pub use random::{RandomPlayer, seat_seed};
pub use scripted::ScriptedPlayer;

use crate::table::{Player, SeatNative, SeatView};

impl<P: Player + ?Sized> crate::rules::decision::Controller for P {
    fn decide(&mut self, decision: &crate::rules::decision::Decision, view: &crate::rules::view::View<'_>) -> usize {
        let seat = SeatView::new(SeatNative::Aristeia { decision, view: *view });
        self.choose(&seat).unwrap_or(usize::MAX)
    }
}

impl<P: Player + ?Sized> crate::invictus::Controller for P {
    fn decide(&mut self, decision: &crate::invictus::Decision, view: &crate::invictus::View<'_>) -> usize {
        let seat = SeatView::new(SeatNative::Invictus { decision, view: *view });
        self.choose(&seat).unwrap_or(usize::MAX)
    }
}
