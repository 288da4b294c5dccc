//! The games by name: [`GAMES`] lists every game's [`Rules`], [`find`] finds
//! one, so tools never compare game names themselves.

use super::Table;
use crate::content::Content;
use crate::invictus::{InvictusSetup, Seating};
use crate::rules::game::{GameSetup, OptionalRule};
use crate::script::runtime::{Limits, Runtime, ScriptSet};
use std::collections::BTreeSet;
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

    /// A table of a new game from a recorded setup (a replay file's
    /// `setup`: [`AristeiaSetup`] for Aristeia!, `InvictusSetup` for
    /// Invictus, as JSON) and seed, at its first Decision.
    ///
    /// # Errors
    /// `setup` is not this game's setup, or [`Rules::start`]'s.
    fn start_recorded<'a>(
        &self,
        content: &'a Content,
        runtime: &'a Runtime,
        setup: &serde_json::Value,
        seed: u64,
    ) -> Result<Box<dyn Table<'a> + 'a>, String>;
}

/// How an Aristeia! game was set up, as a replay file records it: a
/// ready-made `setup` entry, or random teams for a Scenario, at a number of
/// seats, with the optional rules played (`001 § Additional Rules`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AristeiaSetup {
    /// The `setup` entry's id (its Scenario, teams, Tactics decks and
    /// Deployment Zones); with `random_teams`, the Scenario's id.
    pub name: String,
    /// Teams drawn from the seed (`GameSetup::random`: every loaded
    /// Character, or the Scenario's own) instead of a setup's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub random_teams: bool,
    /// How many seats; absent: the setup's, or the Scenario's default
    /// (`GameSetup::default_seats`; only in files upgraded from format 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<usize>,
    /// The optional rules played; absent when none.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub optional_rules: BTreeSet<OptionalRule>,
}

impl AristeiaSetup {
    /// The engine's setup of this game with `seed`.
    ///
    /// # Errors
    /// The setup or Scenario is not loaded, or is not for that many seats.
    pub fn game_setup(&self, content: &Content, seed: u64) -> Result<GameSetup, String> {
        let mut game = if self.random_teams {
            let sc = &content
                .scenarios
                .get(self.name.as_str())
                .ok_or_else(|| format!("no Scenario `{}` is loaded", self.name))?;
            let seats = self.seats.unwrap_or_else(|| GameSetup::default_seats(&sc.value));
            GameSetup::random(content, &self.name, seats, seed)?
        } else {
            if !content.setups.contains_key(self.name.as_str()) {
                return Err(format!("no setup `{}` is loaded", self.name));
            }
            let g = GameSetup::from_content(content, &self.name, seed)?;
            let n = g.teams.table().len();
            if self.seats.is_some_and(|s| s != n) {
                return Err(format!("setup `{}` is for {n} players", self.name));
            }
            g
        };
        game.optional_rules = self.optional_rules.clone();
        Ok(game)
    }
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
        let game = if content.setups.contains_key(setup.name.as_str()) {
            let g = GameSetup::from_content(content, &setup.name, setup.seed)?;
            let n = g.teams.table().len();
            if setup.seats.is_some_and(|s| s != n) {
                return Err(format!("setup `{}` is for {n} players", setup.name));
            }
            g
        } else if let Some(sc) = content.scenarios.get(setup.name.as_str()) {
            let seats = setup.seats.unwrap_or_else(|| GameSetup::default_seats(&sc.value));
            GameSetup::random(content, &setup.name, seats, setup.seed)?
        } else {
            return Err(format!("no setup or Scenario `{}` is loaded", setup.name));
        };
        Ok(Box::new(super::start_aristeia(content, runtime, &game)?))
    }

    fn start_recorded<'a>(
        &self,
        content: &'a Content,
        runtime: &'a Runtime,
        setup: &serde_json::Value,
        seed: u64,
    ) -> Result<Box<dyn Table<'a> + 'a>, String> {
        let setup: AristeiaSetup =
            serde_json::from_value(setup.clone()).map_err(|e| format!("not an Aristeia! setup: {e}"))?;
        Ok(Box::new(super::start_aristeia(content, runtime, &setup.game_setup(content, seed)?)?))
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

    fn start_recorded<'a>(
        &self,
        content: &'a Content,
        runtime: &'a Runtime,
        setup: &serde_json::Value,
        seed: u64,
    ) -> Result<Box<dyn Table<'a> + 'a>, String> {
        let setup: InvictusSetup =
            serde_json::from_value(setup.clone()).map_err(|e| format!("not an Invictus setup: {e}"))?;
        Ok(Box::new(super::start_invictus(content, runtime, &setup, seed)?))
    }
}

/// Every game, by name.
pub static GAMES: &[&dyn Rules] = &[&AristeiaRules, &InvictusRules];

/// The game called `name`, if there is one.
pub fn find(name: &str) -> Option<&'static dyn Rules> {
    GAMES.iter().copied().find(|g| g.name() == name)
}
