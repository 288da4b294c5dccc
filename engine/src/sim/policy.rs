//! Which player plays a seat in a batch: [`Policy`], random or greedy, for every game.

use crate::players::{GreedyPlayer, RandomPlayer};
use crate::rules::decision::Controller;

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

    /// The player of this kind for seat `seat` of the game seeded `seed`, for any game.
    pub fn player(self, seed: u64, seat: usize) -> Box<dyn crate::table::Player> {
        match self {
            Policy::Random => Box::new(RandomPlayer::for_seat(seed, seat)),
            Policy::Greedy => Box::new(GreedyPlayer),
        }
    }

    /// Its name on the command line and in a batch's JSON (`greedy`, `random`).
    pub fn name(self) -> &'static str {
        match self {
            Policy::Greedy => "greedy",
            Policy::Random => "random",
        }
    }
}
