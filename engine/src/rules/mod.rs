//! The Aristeia! rules: pure, deterministic, no IO.
//!
//! - [`geometry`]: hexes, Range, Line of Sight and Cover in exact integer arithmetic.
//! - [`roll`]: Simple and Face to Face Rolls, step by step.
//! - [`decision`]: every player choice as a `Decision`, and the controllers that answer.
//! - [`event`]: every change of state, the game's narrative and replay check.
//! - [`view`]: what one seat may know, the only way controllers see the game.
//! - [`game`]: the game state and the Round loop; card effects run as Lua with the game as host.
//!
//! This module never reads files, prints, or draws randomness except from the
//! game's seeded RNG.

pub mod decision;
pub(crate) mod determinize;
pub mod event;
pub mod game;
pub mod geometry;
pub mod roll;
pub mod seats;
pub mod situation;
mod situation_setup;
pub mod state;
pub mod view;
