//! The games by name: [`GAMES`] lists every game's [`Rules`], [`find`] finds
//! one, so tools never compare game names themselves.

use super::Table;
use crate::content::Content;
use crate::invictus::{InvictusSetup, Seating};
use crate::rules::game::GameSetup;
use crate::script::runtime::{Limits, Runtime, ScriptSet};
use std::sync::Arc;

/// How to set a game up, in terms every game reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// Aristeia!: a `setup` id, or a Scenario id (random teams drawn from
    /// the seed). Invictus: the seating, `teams` (or empty), `every-other`,
    /// `random` or `free-for-all` (`003 § Team Assignment`).
    pub name: String,
    /// How many seats; `None`: the setup's, or the Scenario's default (Aristeia), 2 (Invictus).
    pub seats: Option<usize>,
    /// The RNG seed.
    pub seed: u64,
}

/// A game in the registry: its name, its seat counts, the Lua VM its
/// effects need, and how to start a table of it (OpenSpiel's `Game`).
pub trait Rules: Sync {
    /// The name tools use (`aristeia`, `invictus`).
    fn name(&self) -> &'static str;

    /// The seat counts it plays at.
    fn seat_counts(&self) -> &'static [usize];

    /// A Lua VM with this game's API over `scripts`.
    ///
    /// # Errors
    /// The VM could not be made.
    fn runtime(&self, content: Arc<Content>, scripts: Arc<ScriptSet>) -> Result<Runtime, String>;

    /// A table of a new game, at its first Decision.
    ///
    /// # Errors
    /// The setup names nothing loaded, or cannot be played at that many seats.
    fn start<'a>(
        &self,
        content: &'a Content,
        runtime: &'a Runtime,
        setup: &Setup,
    ) -> Result<Box<dyn Table<'a> + 'a>, String>;
}

/// Aristeia! (`000`-`004`): 2 seats, 3-4 in Prime Time's Scenarios.
struct AristeiaRules;

impl Rules for AristeiaRules {
    fn name(&self) -> &'static str {
        "aristeia"
    }

    fn seat_counts(&self) -> &'static [usize] {
        &[2, 3, 4]
    }

    fn runtime(&self, content: Arc<Content>, scripts: Arc<ScriptSet>) -> Result<Runtime, String> {
        Runtime::new(content, scripts, Limits::default()).map_err(|e| e.to_string())
    }

    fn start<'a>(
        &self,
        content: &'a Content,
        runtime: &'a Runtime,
        setup: &Setup,
    ) -> Result<Box<dyn Table<'a> + 'a>, String> {
        let game = if content.setups.contains_key(&setup.name) {
            let g = GameSetup::from_content(content, &setup.name, setup.seed)?;
            let n = g.teams.table().len();
            if setup.seats.is_some_and(|s| s != n) {
                return Err(format!("setup `{}` is for {n} players", setup.name));
            }
            g
        } else if let Some(sc) = content.scenarios.get(&setup.name) {
            let seats = setup.seats.unwrap_or_else(|| GameSetup::default_seats(&sc.value));
            GameSetup::random(content, &setup.name, seats, setup.seed)?
        } else {
            return Err(format!("no setup or Scenario `{}` is loaded", setup.name));
        };
        Ok(Box::new(super::start_aristeia(content, runtime, &game)?))
    }
}

/// Invictus (`003`): 2, 4 or 6 seats in two teams, or 3 to 6 in a free-for-all.
struct InvictusRules;

impl Rules for InvictusRules {
    fn name(&self) -> &'static str {
        "invictus"
    }

    fn seat_counts(&self) -> &'static [usize] {
        &[2, 3, 4, 5, 6]
    }

    fn runtime(&self, content: Arc<Content>, scripts: Arc<ScriptSet>) -> Result<Runtime, String> {
        Runtime::with_api(content, scripts, Limits::default(), crate::invictus::api::REGISTRY)
            .map_err(|e| e.to_string())
    }

    fn start<'a>(
        &self,
        content: &'a Content,
        runtime: &'a Runtime,
        setup: &Setup,
    ) -> Result<Box<dyn Table<'a> + 'a>, String> {
        let seating = match setup.name.as_str() {
            "" | "teams" => Seating::Standard,
            "every-other" => Seating::EveryOther,
            "random" => Seating::Random,
            "free-for-all" => Seating::FreeForAll,
            other => {
                return Err(format!("`{other}` is no Invictus seating: teams, every-other, random or free-for-all"));
            }
        };
        let game = InvictusSetup { seating, ..InvictusSetup::teams(setup.seats.unwrap_or(2)) };
        Ok(Box::new(super::start_invictus(content, runtime, &game, setup.seed)?))
    }
}

/// Every game, by name.
pub static GAMES: &[&dyn Rules] = &[&AristeiaRules, &InvictusRules];

/// The game called `name`, if there is one.
pub fn find(name: &str) -> Option<&'static dyn Rules> {
    GAMES.iter().copied().find(|g| g.name() == name)
}
