//! Simulation: whole games headless, one or many, for every game.
//!
//! - `registry`: the games by name ([`GAMES`], [`find`], [`game_of_setup`]);
//!   `rules`: what each game supplies, its [`Rules`] (its table, its
//!   setups, its batches' [`Spec`], [`Summary`], [`BatchTally`], its smoke
//!   games, its situations, its readouts).
//! - `batch`: the one batch runner ([`run`], [`digests_of`]).
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
mod at_table;
mod batch;
mod check;
pub mod compare;
mod digest;
pub mod invictus;
mod invictus_rules;
pub mod ladder;
mod policy;
mod rate;
mod registry;
mod replay;
mod rules;
mod situation;
pub mod strength;
mod tally;
pub mod tune;

pub use crate::table::Setup;
pub use aristeia::{AristeiaRules, AristeiaSpec, Named};
pub use aristeia_game::digest;
pub use aristeia_game::{
    CharacterLine, GameSummary, Record, Teams, batch, batch_with_rules, character_lines, play, play_observed,
    play_random, play_with,
};
pub use batch::{MAX_JOBS, cycle, digests as digests_of, failures_warning, run};
pub use check::{SimCheck, check_sims, check_situations};
pub use digest::{digests, digests_with_rules};
pub use invictus_rules::{InvictusRules, InvictusSpec};
pub use policy::Policy;
pub use rate::Rate;
pub use registry::{GAMES, find, game_of_batch, game_of_setup, game_of_situation, setup_names};
pub use replay::{RANDOM_TEAMS, random_teams_name, replay_setup};
pub use rules::{
    BatchTally, Mix, Played, ReportContext, Request, Rules, Smoke, SmokeTable, Spec, Summary, Text, WatchBatch,
};
pub use situation::{SituationError, SituationFile, SituationRun};
pub use strength::Strengths;
pub use tally::{
    CharacterReport, CharacterTally, Composition, Failure, MAX_FAILURES, PositionReport, PositionTally, Report, Shard,
    Tally,
};

/// `1 game`, `N games`: a count of games in a report's text.
pub fn games_text(n: u64) -> String {
    if n == 1 { "1 game".into() } else { format!("{n} games") }
}

/// `seed S`, `seeds S-L`: the seeds of `seeds` (a half-open range) in a
/// report's text.
pub fn seeds_text(seeds: &std::ops::Range<u64>) -> String {
    let last = seeds.end.saturating_sub(1);
    if seeds.start >= last { format!("seed {}", seeds.start) } else { format!("seeds {}-{last}", seeds.start) }
}
