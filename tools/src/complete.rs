//! Dynamic shell completion: the ids of the bundled packs offered where a
//! command takes one (a Scenario or setup, a map, a Character, a god, an
//! entry of `arena show`, a player), through clap_complete's engine
//! (`COMPLETE=bash arena`, registered by `arena completions SHELL
//! --dynamic`).
//!
//! Each candidate list loads the bundled packs (the base games, no script
//! tests: about 50 ms in release) when the shell asks, so it follows the
//! content arena has now; a pack that does not load offers nothing.

use clap_complete::engine::{ArgValueCandidates, CompletionCandidate};

/// The bundled base games' content, loaded for one completion.
fn bundled() -> Option<arena_engine::load::Loaded> {
    let options = arena_engine::load::Options { run_script_tests: false, ..arena_engine::load::Options::default() };
    let loaded = arena_engine::load::load(&crate::content_paths(), &options);
    (!loaded.has_errors()).then_some(loaded)
}

fn candidates(names: impl IntoIterator<Item = String>) -> Vec<CompletionCandidate> {
    names.into_iter().map(CompletionCandidate::new).collect()
}

/// What `arena sim` and `ladder` play: Scenarios, setups and games.
pub(crate) fn games() -> ArgValueCandidates {
    ArgValueCandidates::new(|| {
        bundled().map(|l| candidates(arena_engine::sim::setup_names(&l.content))).unwrap_or_default()
    })
}

/// What `arena render map` draws: maps, and Scenarios (their map).
pub(crate) fn maps() -> ArgValueCandidates {
    ArgValueCandidates::new(|| {
        let Some(l) = bundled() else { return Vec::new() };
        let maps = l.content.maps.keys().map(|k| k.to_string());
        candidates(maps.chain(l.content.scenarios.keys().map(|k| k.to_string())))
    })
}

/// Characters (`arena script --self`, `--target`).
pub(crate) fn characters() -> ArgValueCandidates {
    ArgValueCandidates::new(|| {
        bundled().map(|l| candidates(l.content.characters.keys().map(|k| k.to_string()))).unwrap_or_default()
    })
}

/// Invictus gods (`arena sim invictus --gods`).
pub(crate) fn gods() -> ArgValueCandidates {
    ArgValueCandidates::new(|| {
        bundled().map(|l| candidates(l.content.gods.keys().map(|k| k.to_string()))).unwrap_or_default()
    })
}

/// Every entry as `kind:id` (`arena show`).
pub(crate) fn references() -> ArgValueCandidates {
    ArgValueCandidates::new(|| bundled().map(|l| candidates(arena_engine::patch::references(&l))).unwrap_or_default())
}

/// The players (`--players`).
pub(crate) fn players() -> ArgValueCandidates {
    ArgValueCandidates::new(|| candidates(["greedy", "random", "mcts", "human"].map(String::from)))
}
