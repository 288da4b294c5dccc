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
    /// The map's Line of Sight table (not content): built by the first game
    /// on the map (`rules::state::Board::of`), then shared by every game on it.
    #[serde(skip)]
    #[schemars(skip)]
    pub sight: std::sync::OnceLock<std::sync::Arc<crate::rules::geometry::SightTable>>,
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

/// A Prime Time Objective card (`001 § Objective Cards`): its Victory
/// Points, its requirement and its colour. How a Scenario uses the deck:
/// `objectives_deck` on the Scenario (`001 § Objectives Deck`); how to write
/// a card: docs/scenarios.md § The Objectives Deck.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Objective {
    /// Kebab-case id.
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// Colour of the card: it says when the card is claimed (`001 § Claiming
    /// Objective Cards`).
    pub family: ObjectiveColour,
    /// Victory Points it grants (per Deployment Zone controlled for
    /// `control = "each"`; taken from the leader for the green card).
    pub vp: u8,
    /// Copies in the deck.
    #[serde(default = "one")]
    pub count: u8,
    /// What must be met to claim it, as data the engine checks. Absent: the
    /// card is text only and never put in the deck (`arena check --strict`
    /// lists it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requirement: Option<ObjectiveRequirement>,
    /// The printed requirement, for people.
    pub effect: Effect,
    #[serde(flatten)]
    pub meta: Meta,
}

/// The four colours of Objective cards (`001 § Objective Cards`). Serialized
/// in kebab-case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ObjectiveColour {
    /// Inflict Damage: claimed when met, on a Character sent to the Bench.
    Red,
    /// Impose States: claimed when met, on a State imposed.
    Orange,
    /// Control: claimed at the Objectives Check, in card order, by every
    /// player who meets it.
    Blue,
    /// Last One in Victory Points: claimed at the Objectives Check by the
    /// single player with the least Victory Points.
    Green,
}

impl ObjectiveColour {
    /// The kebab-case name (`red`).
    pub fn name(self) -> &'static str {
        match self {
            ObjectiveColour::Red => "red",
            ObjectiveColour::Orange => "orange",
            ObjectiveColour::Blue => "blue",
            ObjectiveColour::Green => "green",
        }
    }
}

/// What an Objective card requires, by the moment it can be claimed at
/// (`001 § Objective Cards`). `on` names the moment; the other keys are the
/// card's icons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "on", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ObjectiveRequirement {
    /// Red (Inflict Damage): the player's Character forces an Enemy Character
    /// to go to the Bench (or the Infirmary), by one of `causes`.
    SentToBench {
        /// Which Enemy Character: any, or the one with the highest or lowest
        /// `attribute` of its Team (one of them on a tie).
        #[serde(default)]
        enemy: BenchedEnemy,
        /// The Attribute `enemy` compares (needed for `highest` and `lowest`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attribute: Option<TeamAttribute>,
        /// The situations that count as "forcing" it there; default: all four
        /// of 001 (docs/rulings.md R61).
        #[serde(default = "BenchCause::all")]
        causes: Vec<BenchCause>,
    },
    /// Orange (Impose States): the player's Character imposes a State on a
    /// Character that already has `already` different States.
    StateImposed {
        /// How many States other than the imposed one the Target already has
        /// (at least): 1 or 2.
        #[serde(default = "one")]
        already: u8,
        /// The State on the card's underside: +`bonus_vp` if the Target has it
        /// once the State is imposed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bonus_state: Option<Id>,
        /// The additional Victory Points for `bonus_state`.
        #[serde(default = "one")]
        bonus_vp: u8,
    },
    /// Blue (Control): the player controls Deployment Zones at the end of the
    /// Round (`001 § Controlling a Deployment Zone`).
    Control {
        /// Which control the card asks for.
        control: ZoneControl,
        /// The Deployment Zones shown on the card (ids of the map's zones):
        /// one for `zone`, two for `each`, none for the others.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        zones: Vec<Id>,
    },
    /// Green (Last One in Victory Points): the single player with the least
    /// Victory Points takes `vp` from the player with the most.
    LeastVictoryPoints,
}

impl ObjectiveRequirement {
    /// The colour whose moment this requirement is claimed at.
    pub fn colour(&self) -> ObjectiveColour {
        match self {
            ObjectiveRequirement::SentToBench { .. } => ObjectiveColour::Red,
            ObjectiveRequirement::StateImposed { .. } => ObjectiveColour::Orange,
            ObjectiveRequirement::Control { .. } => ObjectiveColour::Blue,
            ObjectiveRequirement::LeastVictoryPoints => ObjectiveColour::Green,
        }
    }
}

/// Which Enemy Character a red card asks for. Serialized in kebab-case.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BenchedEnemy {
    /// Any Enemy Character.
    #[default]
    Any,
    /// The one with the highest value of the Attribute in its Team.
    Highest,
    /// The one with the lowest value of the Attribute in its Team.
    Lowest,
}

/// The Attribute a red card compares within the Enemy's Team ("Wounds or
/// Initiative"). Serialized in kebab-case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TeamAttribute {
    /// Hit Points (the card's Wounds icon).
    HitPoints,
    /// Initiative.
    Initiative,
}

/// Why a Character went to the Bench (`001 § Objective Cards`, Inflict
/// Damage). Serialized in kebab-case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BenchCause {
    /// Damage inflicted during the Resolution of a Combat Roll.
    CombatRoll,
    /// An Action or Automatic Skill's Effects (Suppressive Fire, Moon Cycle).
    ActionOrSkill,
    /// A Tactic's Effects (Valkyrie's Cry).
    Tactic,
    /// A Poisoned or Burning State it imposed, in the States Phase.
    State,
}

impl BenchCause {
    /// Every cause 001 lists.
    pub fn all() -> Vec<BenchCause> {
        vec![BenchCause::CombatRoll, BenchCause::ActionOrSkill, BenchCause::Tactic, BenchCause::State]
    }
}

/// The control a blue card asks for (`001 § Objective Cards`, Control).
/// Serialized in kebab-case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ZoneControl {
    /// The player controls the one zone shown.
    Zone,
    /// At least one of the zones shown: `vp` for each one controlled.
    Each,
    /// The Central Deployment Zone and any other Deployment Zone.
    CentralAndOther,
    /// More Deployment Zones than any rival (at least one; not on a tie).
    Most,
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
