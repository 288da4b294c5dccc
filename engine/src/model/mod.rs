//! The content model: typed Aristeia! and Invictus content as designers write it.
//!
//! These types are the single source of truth for the content format. The JSON
//! Schemas in `schemas/` are derived from them (doc comments become the
//! descriptions an editor shows on hover), and the loader deserializes every
//! content file into [`ContentFile`] after validating it against that schema.
//!
//! This module does no IO and knows nothing of files or spans: see `load` for
//! that. Every struct denies unknown keys, so a misspelt key is an error with a
//! suggestion, never a silently dropped rule.
//!
//! Entry type: [`ContentFile`], one TOML file holding any number of entries of
//! any kinds, each kind an array of tables (`[[character]]`, `[[tactic]]`, ...).

mod board;
mod cards;
mod dice;
mod id;
mod invictus;
mod manifest;
mod patch;
mod scenario;

pub use board::*;
pub use cards::*;
pub use dice::*;
pub use id::Id;
pub use invictus::*;
pub use manifest::*;
pub use patch::*;
pub use scenario::*;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The one list of content kinds: `Variant, toml_key, content_table: Type`
/// with the doc of its content-file key. Everything per kind comes from it
/// through a callback macro: [`Kind`], the fields of [`ContentFile`], the
/// tables of `content::Content` and every per-kind dispatch (count, origin,
/// metas, insert, replace). Adding a kind is one line here plus its type.
#[macro_export]
macro_rules! content_kinds {
    ($callback:ident) => {
        $callback! {
            #[doc = "Dice: colour and six faces (`000 § Dice`)."]
            Die, die, dice: Die;
            #[doc = "States with their red and blue sides (`000 § States`)."]
            State, state, states: State;
            #[doc = "Characters (`000 § Characters`)."]
            Character, character, characters: Character;
            #[doc = "Tactics cards (`000 § Tactics`)."]
            Tactic, tactic, tactics: Tactic;
            #[doc = "HexaDome maps (`000 § HexaDome`)."]
            Map, map, maps: Map;
            #[doc = "Scenarios (`000 § Scenarios`)."]
            Scenario, scenario, scenarios: Scenario;
            #[doc = "Prime Time Objective cards (`001 § Objective Cards`)."]
            Objective, objective, objectives: Objective;
            #[doc = "Prime Time Special Space markers (`001 § Special Spaces`)."]
            SpecialSpace, special_space, special_spaces: SpecialSpace;
            #[doc = "Prime Time Running Projectiles (`001 § Running Projectiles`)."]
            RunningProjectile, running_projectile, running_projectiles: RunningProjectile;
            #[doc = "Ready-made team and Tactics deck setups (`000 § Setting Up Your First Game`)."]
            Setup, setup, setups: Setup;
            #[doc = "Invictus Artifact cards (`003 § Artifact card reference`)."]
            Artifact, artifact, artifacts: Artifact;
            #[doc = "Invictus god boards: Health and two character abilities (`003 § Character Boards`)."]
            God, god, gods: God;
            #[doc = "Invictus Boost cards (`003 § Boosts`)."]
            Boost, boost, boosts: Boost;
            #[doc = "Invictus Reinforcement cards (`003 § Reinforcements`)."]
            Reinforcement, reinforcement, reinforcements: Reinforcement;
            #[doc = "Invictus character skill tracks: Stamina, Range, Accuracy (`003 § Character Skills`)."]
            SkillTrack, skill_track, skill_tracks: SkillTrack;
            #[doc = "The Invictus marketplace, starter deck and rule numbers (`003 § Marketplace Setup`)."]
            Marketplace, marketplace, marketplaces: Marketplace;
            #[doc = "Invictus components and rules with no typed card: the Apocalypse card,"]
            #[doc = "Charge Stations, counters (`003 § Components`)."]
            Component, component, components: Component;
        }
    };
}

/// Declares [`Kind`] and [`ContentFile`] from [`content_kinds!`].
macro_rules! declare_kinds {
    ($( $(#[$doc:meta])* $variant:ident, $key:ident, $table:ident: $ty:ty; )*) => {
        /// The kinds of content entry, as written in TOML (`[[special_space]]`) and in
        /// references (`special_space:jump-pad`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Kind {
            $( $(#[$doc])* $variant, )*
        }

        impl Kind {
            /// Every kind, in the order the summary lists them.
            pub const ALL: &'static [Kind] = &[$( Kind::$variant ),*];

            /// The TOML table name and reference prefix (`character`).
            pub fn key(self) -> &'static str {
                match self {
                    $( Kind::$variant => stringify!($key), )*
                }
            }
        }

        /// One content file: any number of entries of each kind.
        ///
        /// Example:
        /// ```toml
        /// #:schema ../../schemas/content.schema.json
        /// [[tactic]]
        /// id = "ice-wall"
        /// name = "Ice Wall"
        /// ```
        #[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        #[schemars(title = "Aristeia! / Invictus content file")]
        pub struct ContentFile {
            $(
                $(#[$doc])*
                #[serde(default, skip_serializing_if = "Vec::is_empty")]
                pub $key: Vec<$ty>,
            )*
            /// Patches to entries of the packs this pack depends on: errata, balance
            /// changes (docs/patches.md).
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub patch: Vec<Patch>,
        }
    };
}

content_kinds!(declare_kinds);

impl Kind {
    /// Parse a TOML table name back into a kind.
    pub fn from_key(key: &str) -> Option<Kind> {
        Kind::ALL.iter().copied().find(|k| k.key() == key)
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

// Named `GameTitle` in Rust so that `Game` means only the running game
// (`rules::game::Game`); still `Game` in the schemas.
/// The game a pack or entry is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[schemars(rename = "Game")]
pub enum GameTitle {
    /// Aristeia! and its expansions.
    Aristeia,
    /// Invictus: A Team Deck Building Game.
    Invictus,
}

/// Where an entry comes from and how sure we are of it. Shared by every kind.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Meta {
    /// Citation of the rulebook text this entry is typed from, as
    /// `<file> § <heading>` (`002_aae683fc0d96e3b9.txt § Valkyrie`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// True when the rulebooks print a picture instead of this data and the entry
    /// stands in for it; `arena check --strict` lists these.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub provisional: bool,
    /// Free text for maintainers: what a provisional entry stands for, caveats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}
