//! The random player: uniform over the legal options, from its own seeded RNG.

use crate::rules::decision::{Controller, Decision};
use crate::rules::state::View;
use rand::{RngExt, SeedableRng};

/// Uniformly random legal options, from its own seeded RNG.
#[derive(Debug)]
pub struct RandomController {
    rng: rand_chacha::ChaCha8Rng,
}

impl RandomController {
    /// A controller seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RandomController { rng: rand_chacha::ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Controller for RandomController {
    fn decide(&mut self, decision: &Decision, _view: &View<'_>) -> usize {
        // Ending an Activation or stopping is as likely as anything else, so
        // games move on; a Running Order is any permutation.
        self.rng.random_range(0..decision.options.len())
    }
}

/// The seed of seat `seat`'s random player in the game seeded `seed`: the
/// one formula of every game's random seats (`sim::Policy::controller`,
/// `invictus::sim::controller`), so a table's random game is the engine's.
pub fn seat_seed(seed: u64, seat: usize) -> u64 {
    seed.wrapping_mul(2).wrapping_add(seat as u64 + 1)
}

/// Uniformly random legal options at a table of any game, from its own
/// seeded RNG (the same draws as [`RandomController`] with the same seed).
#[derive(Debug)]
pub struct RandomPlayer {
    rng: rand_chacha::ChaCha8Rng,
}

impl RandomPlayer {
    /// A player seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RandomPlayer { rng: rand_chacha::ChaCha8Rng::seed_from_u64(seed) }
    }

    /// The random player of seat `seat` in the game seeded `seed` ([`seat_seed`]).
    pub fn for_seat(seed: u64, seat: usize) -> Self {
        RandomPlayer::new(seat_seed(seed, seat))
    }
}

impl crate::table::Player for RandomPlayer {
    fn choose(&mut self, table: &dyn crate::table::Table<'_>) -> Option<usize> {
        let n = table.options();
        (n > 0).then(|| self.rng.random_range(0..n))
    }
}
