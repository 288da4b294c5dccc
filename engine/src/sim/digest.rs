//! Digests of seeded games: a short hash of everything a game did, to show
//! that a change to the engine's speed left every game byte for byte the same.

use std::sync::Arc;

use super::aristeia_game::{Teams, digest, play_with};
use super::policy::Policy;
use crate::content::Content;
use crate::script::runtime::{Limits, Runtime, ScriptSet};

/// The [`digest`] of each game of `seeds`, in seed order (an engine error is
/// digested as its message), played one after another on one Lua VM, and the
/// digest of them all (BLAKE3 of the lines `seed digest`).
pub fn digests(
    content: Arc<Content>,
    scripts: Arc<ScriptSet>,
    teams: &Teams,
    seeds: std::ops::Range<u64>,
    players: &[Policy],
) -> Result<(Vec<(u64, String)>, String), String> {
    digests_with_rules(content, scripts, teams, &Default::default(), seeds, players)
}

/// [`digests`], every game played with the optional rules `rules` (`001 §
/// Additional Rules`).
pub fn digests_with_rules(
    content: Arc<Content>,
    scripts: Arc<ScriptSet>,
    teams: &Teams,
    rules: &std::collections::BTreeSet<crate::rules::game::OptionalRule>,
    seeds: std::ops::Range<u64>,
    players: &[Policy],
) -> Result<(Vec<(u64, String)>, String), String> {
    let rt = Runtime::new(content.clone(), scripts, Limits::default()).map_err(|e| e.to_string())?;
    let mut all = blake3::Hasher::new();
    let mut out = Vec::new();
    for seed in seeds {
        let setup = teams.setup(&content, seed, players.len()).map(|mut s| {
            s.optional_rules = rules.clone();
            s
        });
        let d = match setup.and_then(|s| play_with(&content, &rt, &s, players)) {
            Ok(record) => digest(&record),
            Err(e) => format!("error: {e}"),
        };
        all.update(format!("{seed} {d}\n").as_bytes());
        out.push((seed, d));
    }
    Ok((out, all.finalize().to_hex().to_string()))
}
