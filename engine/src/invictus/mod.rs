//! Invictus (`003`): the team deck-builder, its own game beside Aristeia's
//! `rules`. It shares the plumbing (the seeded `ChaCha8` RNG, the
//! decision/controller shape, the Lua sandbox and runtime, replays as seeds
//! plus answers) and none of Aristeia's rules.
//!
//! - `state`: players, decks, tokens, the marketplace;
//! - `decision`: [`Decision`], [`Choice`], the [`Controller`] trait;
//! - `event`: the narrative;
//! - `game`: the running [`Game`], one file per rulebook chapter;
//! - `api`: the Lua API registry of Invictus effects;
//! - `players`: random and greedy controllers;
//! - `situation`: hand-made positions for tests and `arena run`;
//! - `sim`: headless games, batches with per-god and per-seat win rates, replays.

pub mod api;
pub mod decision;
pub(crate) mod determinize;
pub mod event;
pub mod game;
pub mod players;
pub mod situation;
pub mod state;
pub mod view;

pub use decision::{Choice, Controller, Decision, DecisionKind, Purchase, View};
pub use event::Event;
pub use game::{Game, GodDeal, InvictusSetup, MAX_DECISIONS_PER_GAME, Seating, SetupError};
pub use state::{GameState, Outcome};
