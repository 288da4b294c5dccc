//! The random player: uniform over the legal options, from its own seeded RNG.

use crate::table::{Player, SeatView};
use rand::{RngExt, SeedableRng};

/// Uniformly random legal options, for every game: the engine's
/// random-policy baseline and the player of the table's property tests.
#[derive(Debug)]
pub struct RandomPlayer {
    rng: rand_chacha::ChaCha8Rng,
}

impl RandomPlayer {
    /// A player seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RandomPlayer { rng: rand_chacha::ChaCha8Rng::seed_from_u64(seed) }
    }

    /// The player of `seat` (from 0) in the game seeded `seed` ([`seat_seed`]).
    pub fn for_seat(seed: u64, seat: usize) -> Self {
        RandomPlayer::new(seat_seed(seed, seat))
    }
}

/// The seed of the random player of `seat` (from 0) in the game seeded
/// `seed`, the same in every game: `2 * seed + seat + 1` (wrapping), so
/// seats never share a stream and a game's players are fixed by its seed.
pub fn seat_seed(seed: u64, seat: usize) -> u64 {
    seed.wrapping_mul(2).wrapping_add(seat as u64 + 1)
}

impl Player for RandomPlayer {
    fn choose(&mut self, seat: &SeatView<'_>) -> Option<usize> {
        // Ending an Activation or stopping is as likely as anything else, so
        // games move on; a Running Order is any permutation.
        let n = seat.options();
        (n > 0).then(|| self.rng.random_range(0..n))
    }
}
