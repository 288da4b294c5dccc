//! Which player plays a seat in a batch: [`Policy`], random, greedy or
//! the search player, for every game.

use crate::players::{GreedyPlayer, MctsPlayer, RandomPlayer};
use crate::rules::decision::Controller;

/// Which player plays a seat ([`crate::players`]). Written as its name:
/// `random`, `greedy`, `mcts` (the default budget,
/// `players::mcts::DEFAULT_ITERATIONS`) or `mcts:N` (N iterations a
/// Decision), on the command line and in a batch's JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Policy {
    /// Uniformly random legal options, seeded from the game's seed.
    Random,
    /// The greedy player: the fast heuristic, with look-ahead at the
    /// Decisions it cannot judge (`players::lookahead`); its games are
    /// played at a table.
    Greedy,
    /// Information-set Monte Carlo tree search with this many iterations a
    /// Decision (`players::mcts`); its games are played at a table.
    Mcts(u32),
}

/// The largest search budget `mcts:N` accepts: iterations a Decision
/// (about 1 ms each in Assault, so 100,000 is minutes a Decision).
pub const MAX_ITERATIONS: u32 = 100_000;

impl From<Policy> for String {
    fn from(p: Policy) -> String {
        p.name()
    }
}

impl TryFrom<String> for Policy {
    type Error = String;

    fn try_from(s: String) -> Result<Policy, String> {
        s.parse()
    }
}

impl std::str::FromStr for Policy {
    type Err = String;

    /// `random`, `greedy`, `mcts` or `mcts:N` (N from 1), any case.
    fn from_str(s: &str) -> Result<Policy, String> {
        let lower = s.to_ascii_lowercase();
        match lower.as_str() {
            "random" => Ok(Policy::Random),
            "greedy" => Ok(Policy::Greedy),
            "mcts" => Ok(Policy::Mcts(crate::players::mcts::DEFAULT_ITERATIONS)),
            _ => match lower.strip_prefix("mcts:").map(str::parse::<u32>) {
                Some(Ok(n)) if (1..=MAX_ITERATIONS).contains(&n) => Ok(Policy::Mcts(n)),
                Some(_) => Err(format!(
                    "mcts:N takes a number of iterations a Decision from 1 to {MAX_ITERATIONS} (for example mcts:32; below about 12 it mostly plays as greedy)"
                )),
                None => Err("expected greedy, random, mcts or mcts:N".to_string()),
            },
        }
    }
}

impl Policy {
    /// A controller of this kind for seat `seat` of the game seeded `seed`.
    pub fn controller(self, seed: u64, seat: usize) -> Box<dyn Controller> {
        match self {
            Policy::Random => Box::new(RandomPlayer::for_seat(seed, seat)),
            // Seated in the engine's own loop, without a table to search.
            Policy::Greedy | Policy::Mcts(_) => Box::new(GreedyPlayer),
        }
    }

    /// The player of this kind for seat `seat` of the game seeded `seed`, for any game.
    pub fn player(self, seed: u64, seat: usize) -> Box<dyn crate::table::Player> {
        match self {
            Policy::Random => Box::new(RandomPlayer::for_seat(seed, seat)),
            Policy::Greedy => Box::new(GreedyPlayer),
            Policy::Mcts(n) => Box::new(MctsPlayer::for_seat(seed, seat, n)),
        }
    }

    /// Whether this player searches: its games are played at a table
    /// (`crate::table::Player::searches`).
    pub fn searches(self) -> bool {
        matches!(self, Policy::Mcts(_) | Policy::Greedy)
    }

    /// Its name on the command line and in a batch's JSON (`greedy`,
    /// `random`, `mcts:64`).
    pub fn name(self) -> String {
        match self {
            Policy::Greedy => "greedy".into(),
            Policy::Random => "random".into(),
            Policy::Mcts(n) => format!("mcts:{n}"),
        }
    }
}
