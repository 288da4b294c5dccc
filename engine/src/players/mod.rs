//! The players: clients of the rules that answer [`Decision`](crate::rules::decision::Decision)s
//! from the legal options and a read-only [`View`](crate::rules::state::View).
//!
//! - [`RandomController`]: uniform over the legal options, seeded.
//! - [`GreedyController`]: a heuristic (toward the Scoring Zone, attacks the most wounded Enemy).
//! - [`ScriptedController`]: a list of answers, then a fallback.
//! - [`RandomPlayer`], [`ScriptedPlayer`]: the same, written once for every
//!   game against [`crate::table::Table`].
//!
//! The rules never depend on this module; the simulator and the tool choose
//! a player per seat.

mod greedy;
mod random;
mod scripted;

pub use greedy::GreedyController;
pub use random::{RandomController, RandomPlayer, seat_seed};
pub use scripted::{ScriptedController, ScriptedPlayer};
