//! Lua (Luau) card effects: the only module that links the Lua VM.
//!
//! - [`analysis`]: what a source says without running it (API calls, string literals, endless loops), for `arena check`.
//! - [`compile`]: refuse bytecode, compile source to find syntax errors (used by `arena check`).
//! - [`api`]: the one registry of the host API (names, parameters, types, docs,
//!   rule citations); it registers the functions in the VM and generates the
//!   editor definition files and the Markdown reference.
//! - [`runtime`]: a sandboxed VM with a memory limit and a per-call instruction
//!   budget; effects compiled once, called many times.
//! - [`host`]: what the VM calls back into: the game (rules engine) or the
//!   [`host::RecordingHost`] that records calls so effects can be tested alone.
//!
//! Deliberately not here: game rules. Effects ask the host to do things in the
//! rulebook's words; the host decides what that means.

pub mod analysis;
pub mod api;
pub mod compile;
pub mod host;
pub mod iteration;
pub mod runtime;

pub use compile::{CompileError, compile, is_bytecode, parse_error};
