//! Invictus content: Energy types, Artifacts, components (`003`).

use super::*;

/// The Energy type of an Invictus Artifact (`003 § Components`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EnergyType {
    /// Prisma Energy: the currency (Radiant Core, Mystic Pearl, Nova Shard).
    Prisma,
    /// Fire Energy: standard attacks, needs Stamina (Gladius, Xiphos, Sol Fire).
    Fire,
    /// Wild Energy: 2 Energy of your choice, or a standard attack (Elementium, Beam Rifle).
    Wild,
    /// Life Energy: healing (Elixir, Nectar, Ambrosia).
    Life,
    /// Aqua Energy: blocking, Counters (Relic of Styx, Hoplon, Aegis).
    Aqua,
    /// No Energy: the counterfeit Clinker.
    None,
}

/// An Invictus Artifact card (`003 § Artifact card reference`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Artifact {
    /// Kebab-case id.
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// Energy type.
    pub energy_type: EnergyType,
    /// Prisma it produces when played, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prisma: Option<u8>,
    /// Energy it produces when played, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy: Option<u8>,
    /// Stamina it costs to play, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stamina_cost: Option<u8>,
    /// Damage it deals, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<u8>,
    /// Damage it heals, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub healing: Option<u8>,
    /// Damage it blocks, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<u8>,
    /// Copies in the box.
    pub count: u8,
    /// Copies in each player's starter deck.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub starter: u8,
    /// Prisma to buy it from the marketplace, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purchase_price: Option<u8>,
    /// Prisma to destroy it, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destroy_price: Option<u8>,
    /// Any further printed effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
    #[serde(flatten)]
    pub meta: Meta,
}

/// An Invictus component other than an Artifact (`003 § Components`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Component {
    /// Kebab-case id.
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// What sort of component (`boost`, `reinforcement`, `god`, `apocalypse`, `charge-station`, `counter`, `board`, ...).
    pub category: String,
    /// Pieces in the box.
    #[serde(default = "one")]
    pub count: u8,
    /// Its rule, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
    #[serde(flatten)]
    pub meta: Meta,
}
