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
