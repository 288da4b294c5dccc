//! The HexaDome and Scenarios: maps and zones, Scenarios and their rules, Objective cards, Special Spaces, Running Projectiles, ready-made setups (`000 § HexaDome`, `000 § Scenarios`, `001`).

use super::*;

/// A space of the HexaDome in axial coordinates `[q, r]` (pointy-top layout).
pub type Hex = [i16; 2];

/// A named zone of a map: a Deployment Zone, the Central Zone, or another
/// scenario area (`000 § Deployment Zones`, `§ Scoring Zones`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    /// Kebab-case id (`zone-1`, `central`).
    pub id: Id,
    /// Printed number of a Deployment Zone (1-6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u8>,
    /// What the zone is.
    pub kind: ZoneKind,
    /// Its spaces.
    #[schemars(length(min = 1))]
    pub spaces: Vec<Hex>,
    /// Ids of zones next to this one (Wanted's adjacency of Deployment Zones).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adjacent: Vec<Id>,
    /// Id of the opposite zone (1 & 4, 2 & 5, 3 & 6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opposite: Option<Id>,
}

/// The kind of a zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ZoneKind {
    /// A numbered Deployment Zone.
    Deployment,
    /// The Central Zone.
    Central,
    /// A Ziggurat of the B side, whose spaces are Scoring Spaces (`001 § Short Distance`).
    Ziggurat,
}

/// A HexaDome map (`000 § HexaDome`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Map {
    /// Kebab-case id (`hexadome-a`).
    pub id: Id,
    /// Display name.
    pub name: String,
    /// The board is every space within this many spaces of `[0, 0]`.
    pub radius: u8,
    /// Blocked spaces: cannot be entered, block Line of Sight (`000 § Blocked Spaces`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocked: Vec<Hex>,
    /// Barriers (Obstacles) at setup (`000 § Barriers`, `§ Obstacles`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub barriers: Vec<Hex>,
    /// Zones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<Zone>,
    #[serde(flatten)]
    pub meta: Meta,
}

/// A player count range.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Players {
    /// Fewest players.
    pub min: u8,
    /// Most players.
    pub max: u8,
}

/// A Prime Time Objective card (`001 § Objective Cards`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Objective {
    /// Kebab-case id.
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// Colour family of the card.
    pub family: String,
    /// Victory Points for fulfilling it.
    pub vp: u8,
    /// Copies in the deck.
    #[serde(default = "one")]
    pub count: u8,
    /// What must be done, and the Lua that checks it.
    pub effect: Effect,
    #[serde(flatten)]
    pub meta: Meta,
}

pub(super) fn one() -> u8 {
    1
}

/// A Prime Time Special Space marker (`001 § Special Spaces`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecialSpace {
    /// Kebab-case id.
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// Markers in the box.
    #[serde(default = "one")]
    pub count: u8,
    /// Effects on a green (or yellow) background: the Character "may decide
    /// whether to apply them"; red ones are resolved immediately (`001 §
    /// Special Spaces`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// A Wildcard Marker: left out of the markers unless the scenario's own
    /// rules use it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wildcard: bool,
    /// What happens when a Character advances, is Placed or is Displaced into
    /// its space: Lua with ctx.self = that Character.
    pub effect: Effect,
    #[serde(flatten)]
    pub meta: Meta,
}

/// A Prime Time Running Projectile (`001 § Running Projectiles`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunningProjectile {
    /// Kebab-case id.
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// Markers in the box.
    #[serde(default = "one")]
    pub count: u8,
    /// What it does to the Character in Contact or the chosen Target: Lua with
    /// ctx.self = the Running Projectile and ctx.target = that Character (how
    /// it moves and triggers is the engine's, `001 § Running Projectiles`).
    pub effect: Effect,
    #[serde(flatten)]
    pub meta: Meta,
}

/// One player's side of a ready-made setup.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupTeam {
    /// Team colour or name (`green`, `orange`).
    pub name: String,
    /// Character ids.
    pub characters: Vec<Id>,
    /// Tactic ids of the deck, repeated for copies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tactics: Vec<Id>,
    /// Deployment Zone id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deployment_zone: Option<Id>,
}

/// A ready-made game: Scenario, teams and decks (`000 § Setting Up Your First Game`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Kebab-case id (`first-game`).
    pub id: Id,
    /// Display name.
    pub name: String,
    /// Scenario id.
    pub scenario: Id,
    /// The teams, in player order.
    pub teams: Vec<SetupTeam>,
    #[serde(flatten)]
    pub meta: Meta,
}
