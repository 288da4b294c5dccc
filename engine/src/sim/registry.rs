//! The registry of the games: [`GAMES`] lists every game's
//! [`Rules`](super::Rules) once, and the lookups find one: by its name
//! ([`find`]), by a name `arena sim NAME` gives ([`game_of_setup`]:
//! Aristeia!'s setup and Scenario ids are Aristeia!'s, `invictus` is
//! Invictus), by the `kind` of a batch's JSON ([`game_of_batch`]) and by a
//! situation file's `game` key ([`game_of_situation`]). The tools never
//! compare game names themselves. It sits above the tables and the batches
//! it describes; the games' own modules (`rules`, `invictus`) know nothing
//! of it. A new game adds its `Rules` here.

use super::aristeia::AristeiaRules;
use super::invictus_rules::InvictusRules;
use super::rules::Rules;
use crate::content::Content;

/// Every game, by name; the first is the default of a situation file
/// without a `game`.
pub static GAMES: &[&dyn Rules] = &[&AristeiaRules, &InvictusRules];

/// The game called `name`, if there is one.
pub fn find(name: &str) -> Option<&'static dyn Rules> {
    GAMES.iter().copied().find(|g| g.name() == name)
}

/// The game whose games `name` names in `content` (`arena sim NAME`): a
/// game's own name first, then the first game that [`Rules::owns`] it.
pub fn game_of_setup(content: &Content, name: &str) -> Option<&'static dyn Rules> {
    find(name).or_else(|| GAMES.iter().copied().find(|g| g.owns(content, name)))
}

/// Every name [`game_of_setup`] finds in `content`, for "did you mean".
pub fn setup_names(content: &Content) -> Vec<String> {
    GAMES.iter().flat_map(|g| g.names(content)).collect()
}

/// The game whose batch JSON is of this `kind` ([`Rules::batch_kind`]).
pub fn game_of_batch(kind: &str) -> Option<&'static dyn Rules> {
    GAMES.iter().copied().find(|g| g.batch_kind() == kind)
}

/// The game of a situation file: its `game` key, the first game of
/// [`GAMES`] when it has none.
///
/// # Errors
/// The text is not TOML (at the place the parser names, whatever the
/// game); the `game` key names no registered game (the message lists them,
/// at the key).
pub fn game_of_situation(text: &str) -> Result<&'static dyn Rules, super::SituationError> {
    // A file that is no TOML at all (or holds a number past 64 bits) is
    // said so at its place, whatever its game.
    let table = toml::from_str::<toml::Table>(text).map_err(|e| super::SituationError::of_toml(text, &e))?;
    match table.get("game").and_then(|g| g.as_str()) {
        None => Ok(GAMES[0]),
        Some(name) => find(name).ok_or_else(|| {
            let known: Vec<&str> = GAMES.iter().map(|g| g.name()).collect();
            super::SituationError {
                message: format!(
                    "`game = \"{name}\"` is no game arena plays: {}{}",
                    known.join(", "),
                    crate::rules::situation::mean(name, &known)
                ),
                at: crate::rules::situation::locate_key(text, "/game").map(|(_, l, c)| (l, c)),
            }
        }),
    }
}
