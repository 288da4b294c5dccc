//! The Aristeia! rules: pure, deterministic, no IO.
//!
//! - [`roll`]: Simple and Face to Face Rolls, step by step.
//!
//! Entry types will be the game state and its step function; this module never
//! reads files, prints, or draws randomness except from the game's seeded RNG.

pub mod roll;
