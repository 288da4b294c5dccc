//! The arena engine: content model, pack loading, validation and diagnostics for
//! Aristeia! and Invictus content packs.
//!
//! Data flows one way: files → [`load`] (the only module that reads files) →
//! [`model`] (typed content, no IO) → validated [`content::Content`] plus
//! [`diag::Diagnostic`]s. Printing and exiting belong to the `arena` binary.

pub mod content;
pub mod diag;
pub mod generate;
pub mod invictus;
pub mod load;
pub mod loaded;
pub mod lock;
pub mod model;
pub mod packtest;
pub mod patch;
pub mod players;
pub mod read;
pub mod render;
pub mod replay_file;
pub mod resolve;
pub mod rules;
pub mod schema;
pub mod script;
pub mod sim;
pub mod table;
pub mod tomljson;
pub mod validate;
pub mod watch;
