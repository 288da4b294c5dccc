//! Simulation: whole games headless, one or many, for every game.
//!
//! - `registry`: the games by name ([`GAMES`], [`find`], [`game_of_setup`]),
//!   each game's [`Rules`]: its table, its setups, its batches' tally and
//!   readouts, its smoke games.
//! - `batch`: the one batch runner ([`run`], [`digests`]) and what a game
//!   supplies to it ([`Spec`], [`Summary`], [`BatchTally`], [`Played`]).
//! - `check`: `arena check --sims` over every game's smoke tables, and the
//!   packs' situations; `situation`: `arena run FILE` for every game.
//! - `aristeia`, `tally`, `strength`, `compare`, `digest`, `replay`,
//!   `aristeia_text`: Aristeia!'s part ([`play`] one seeded game and its
//!   [`Record`], [`GameSummary`], [`Tally`] and [`Report`], adjusted
//!   strengths, paired comparisons, digests, the naming of random teams,
//!   the readouts).
//! - `invictus`: Invictus's part.
//!
//! Deterministic: the same content, setup, seed and players give the same
//! games, byte for byte, however many threads play a batch.

mod aristeia;
mod aristeia_game;
mod aristeia_text;
mod batch;
mod check;
pub mod compare;
mod digest;
pub mod invictus;
mod invictus_rules;
mod invictus_tally;
mod registry;
mod replay;
mod situation;
pub mod strength;
mod tally;

pub use crate::table::Setup;
pub use aristeia::{AristeiaRules, AristeiaSpec, Named};
pub use aristeia_game::{
    CharacterLine, GameSummary, Record, Teams, batch, batch_with_rules, character_lines, play, play_observed,
    play_random, play_with,
};
pub use batch::{
    BatchTally, MAX_JOBS, Played, Spec, Summary, Text, cycle, digests as digests_of, failures_warning, run,
};
pub use check::{Mix, SimCheck, Smoke, SmokeTable, check_sims, check_situations};
pub use digest::{digest, digests, digests_with_rules};
pub use invictus_rules::{InvictusRules, InvictusSpec};
pub use registry::{
    GAMES, ReportContext, Request, Rules, WatchBatch, find, game_of_batch, game_of_setup, game_of_situation,
    setup_names,
};
pub use replay::{RANDOM_TEAMS, random_teams_name, replay_setup};
pub use situation::{SituationError, SituationFile, SituationRun};
pub use strength::Strengths;
pub use tally::{
    CharacterReport, CharacterTally, Composition, Failure, MAX_FAILURES, PositionReport, PositionTally, Report, Shard,
    Tally,
};

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

fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}
