//! Invictus content (`003`): Energy types, Artifacts, god boards, Boosts,
//! Reinforcements, skill tracks, the marketplace, and the rule components
//! that have no card of their own.
//!
//! The rulebook prints none of the god boards, Boosts or Reinforcements: the
//! bundled ones are provisional (`provisional = true`), following every hint
//! the text gives, so that the real cards can be patched in as errata.

use super::*;

/// The Energy type of an Invictus Artifact (`003 § Components`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
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
    /// No Energy: the counterfeit Clinker and Heavy Clinker.
    None,
}

impl EnergyType {
    /// The kebab-case name, as in TOML and Lua (`"fire"`).
    pub fn as_str(self) -> &'static str {
        match self {
            EnergyType::Prisma => "prisma",
            EnergyType::Fire => "fire",
            EnergyType::Wild => "wild",
            EnergyType::Life => "life",
            EnergyType::Aqua => "aqua",
            EnergyType::None => "none",
        }
    }

    /// Parse the kebab-case name.
    pub fn parse(s: &str) -> Option<EnergyType> {
        [Self::Prisma, Self::Fire, Self::Wild, Self::Life, Self::Aqua, Self::None].into_iter().find(|e| e.as_str() == s)
    }
}

/// What an Artifact does when played as an Artifact rather than as Energy
/// (`003 § During Your Turn`: "Prisma currency, standard attack, healing, or blocking").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ArtifactUse {
    /// Prisma currency worth `prisma` (`003 § Financial Transactions`).
    Prisma,
    /// A standard attack dealing `damage` for `stamina_cost` (`003 § Attack the Enemy`).
    StandardAttack,
    /// Heals `healing` HP of yourself or an ally (`003 § Heal Yourself or Allies`).
    Healing,
    /// Increases an ally's Stamina by `stamina_gain` (Elixir, `003 § Artifact Card Reference`).
    Stamina,
    /// A counter that blocks `block` damage of an attack on you (`003 § Counters`).
    Block,
    /// No benefit: must be destroyed to leave your deck (Clinker).
    None,
}

/// An Invictus Artifact card (`003 § Artifact Card Reference`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Artifact {
    /// Kebab-case id.
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// Energy type.
    pub energy_type: EnergyType,
    /// What it does played as an Artifact.
    #[serde(rename = "use")]
    pub use_: ArtifactUse,
    /// Prisma it is worth as currency (Prisma Artifacts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prisma: Option<u8>,
    /// Energy it gives towards a character ability (printed top-left). A
    /// Wild Artifact's Energy is of the player's choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy: Option<u8>,
    /// Stamina a standard attack with it costs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stamina_cost: Option<u8>,
    /// Damage its standard attack deals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<u16>,
    /// HP it heals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub healing: Option<u16>,
    /// Stamina it gives an ally (Elixir: 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stamina_gain: Option<u8>,
    /// Damage it blocks as a counter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<u16>,
    /// Copies in the box. A Starter Card's copies make up the starter decks;
    /// the others are its marketplace pile.
    pub count: u8,
    /// Copies in each player's starter deck.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub starter: u8,
    /// Prisma to buy it from the marketplace; absent for Starter Cards, which
    /// are not sold (`003 § Marketplace Setup`, step 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purchase_price: Option<u8>,
    /// Prisma to destroy it from your hand (printed bottom-right).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destroy_price: Option<u8>,
    /// Its printed text, and Lua for anything beyond its `use`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
    #[serde(flatten)]
    pub meta: Meta,
}

/// Energy of one type and amount, part of a character ability's cost
/// (`003 § Perform Character Abilities`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnergyCost {
    /// The Energy type paid (a Wild Artifact's Energy may pay any type).
    #[serde(rename = "type")]
    pub energy_type: EnergyType,
    /// How much of it.
    pub amount: u8,
}

/// When a character ability may be performed (`003 § Perform Character
/// Abilities`, `003 § Counters`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum AbilityTiming {
    /// During your own turn; Energy from your hand and Charge Station.
    #[default]
    OwnTurn,
    /// As a counter during another player's turn, when its `trigger` happens;
    /// Energy from your hand only.
    Counter,
}

/// What sets off a counter (`003 § Counters`: "A counter can only be used when
/// a triggering event has occurred").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CounterTrigger {
    /// An on-target attack (standard or ability) against you.
    Attacked,
    /// An on-target character-ability attack against you.
    AbilityAttack,
    /// An on-target standard attack against you.
    StandardAttack,
    /// An enemy countered your attack or your counter (a counter to a counter).
    Countered,
}

/// A character ability on a god board (`003 § Character Boards`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    /// Kebab-case id, unique on its board.
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// The Energy it costs, by type (discarded from hand or Charge Station).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub energy: Vec<EnergyCost>,
    /// Stamina it costs.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stamina_cost: u8,
    /// Whether it attacks an enemy, who must be in Range
    /// (`003 § Perform Character Abilities`: "If Range is required ... it will say so").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub range: bool,
    /// Own turn, or a counter.
    #[serde(default)]
    pub timing: AbilityTiming,
    /// For a counter: what sets it off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<CounterTrigger>,
    /// The damage it deals, for an attack (the Lua may change it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<u16>,
    /// What it chooses: `enemy` (an enemy, in Range when `range`), `ally`
    /// (yourself or an ally), or nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<AbilityTarget>,
    /// Its text and Lua (docs/invictus.md).
    pub effect: Effect,
}

/// Whom an ability is performed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum AbilityTarget {
    /// An active enemy (in Range when the ability needs it); its damage makes it an attack.
    Enemy,
    /// Yourself or an active ally.
    Ally,
}

/// A god: a character board (`003 § Character Boards`, `003 § Backstory`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct God {
    /// Kebab-case id.
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// Starting and maximum Health (HP).
    pub health: u16,
    /// The two character abilities.
    pub abilities: Vec<Ability>,
    /// Energy types it may charge in its Charge Station; empty means the types
    /// its abilities use, and Wild, which pays any type (`003 § Charge Station`:
    /// "a player can only charge Energy types that can be used for their
    /// character abilities").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chargeable: Vec<EnergyType>,
    #[serde(flatten)]
    pub meta: Meta,
}

impl God {
    /// The Energy types this god may charge.
    pub fn chargeable_types(&self) -> Vec<EnergyType> {
        if !self.chargeable.is_empty() {
            return self.chargeable.clone();
        }
        let mut out: Vec<EnergyType> =
            self.abilities.iter().flat_map(|a| a.energy.iter().map(|e| e.energy_type)).collect();
        out.push(EnergyType::Wild);
        out.sort();
        out.dedup();
        out
    }
}

/// A Boost's colour, what a flip shows (`003 § Boosts`, Purpose #1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BoostColour {
    /// Omega: every player's first Accuracy token.
    Omega,
    /// Sigma.
    Sigma,
    /// Phi.
    Phi,
    /// Delta.
    Delta,
    /// Wild: the player who flipped it chooses its colour.
    Wild,
}

impl BoostColour {
    /// The four colours (not Wild).
    pub const COLOURS: [BoostColour; 4] =
        [BoostColour::Omega, BoostColour::Sigma, BoostColour::Phi, BoostColour::Delta];

    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            BoostColour::Omega => "omega",
            BoostColour::Sigma => "sigma",
            BoostColour::Phi => "phi",
            BoostColour::Delta => "delta",
            BoostColour::Wild => "wild",
        }
    }

    /// Parse the kebab-case name.
    pub fn parse(s: &str) -> Option<BoostColour> {
        [Self::Omega, Self::Sigma, Self::Phi, Self::Delta, Self::Wild].into_iter().find(|c| c.as_str() == s)
    }
}

/// When a Boost is played (`003 § Boosts`: "There are 4 types of Boost abilities").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BoostTiming {
    /// Played as soon as it is drawn (bought).
    Immediately,
    /// On your next turn or later; with `attack = true`, declared with an attack.
    FutureTurn,
    /// At any time, before another player declares an action; not a counter.
    Anytime,
    /// After its `trigger` happens.
    Counter,
}

/// Copies of a Boost per colour, in the 72-card deck.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ColourCopies {
    /// Omega copies.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub omega: u8,
    /// Sigma copies.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sigma: u8,
    /// Phi copies.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub phi: u8,
    /// Delta copies.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub delta: u8,
    /// Wild copies (the 4 Supercharged Wild Boosts).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub wild: u8,
}

impl ColourCopies {
    /// (colour, copies) for each colour with copies.
    pub fn list(&self) -> Vec<(BoostColour, u8)> {
        [
            (BoostColour::Omega, self.omega),
            (BoostColour::Sigma, self.sigma),
            (BoostColour::Phi, self.phi),
            (BoostColour::Delta, self.delta),
            (BoostColour::Wild, self.wild),
        ]
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .collect()
    }
}

/// A Boost card (`003 § Boosts`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Boost {
    /// Kebab-case id.
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// Copies in the deck by colour.
    pub copies: ColourCopies,
    /// When it is played.
    pub timing: BoostTiming,
    /// For a counter: what sets it off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<CounterTrigger>,
    /// Declared with one of your attacks ("Any attack-related Boost cards should
    /// be declared and discarded at the same time", `003 § Attack the Enemy`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub attack: bool,
    /// Team Symbol: only in team games; drawn in a free-for-all, another may be drawn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub team: bool,
    /// A counterfeit Artifact (Heavy Clinker): it goes to the hand as an
    /// Artifact, counts towards the 5, and when destroyed goes to the Boost
    /// discard pile (`003 § What do I do with destroyed Artifacts?`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub counterfeit: bool,
    /// Prisma to destroy it, for a counterfeit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destroy_price: Option<u8>,
    /// Its text and Lua (docs/invictus.md).
    pub effect: Effect,
    #[serde(flatten)]
    pub meta: Meta,
}

/// A character skill (`003 § Character Skills`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Skill {
    /// Stamina: 14 for the first token, +2 for each further active token.
    Stamina,
    /// Range: one seat left and right per active token.
    Range,
    /// Accuracy: one colour per active token.
    Accuracy,
}

impl Skill {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Skill::Stamina => "stamina",
            Skill::Range => "range",
            Skill::Accuracy => "accuracy",
        }
    }

    /// Parse the kebab-case name.
    pub fn parse(s: &str) -> Option<Skill> {
        [Skill::Stamina, Skill::Range, Skill::Accuracy].into_iter().find(|k| k.as_str() == s)
    }
}

/// A Reinforcement card (`003 § Reinforcements`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reinforcement {
    /// Kebab-case id.
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// Copies in the Reinforcement deck.
    pub copies: u8,
    /// The skill whose 4th tier token owning it gives (`003 § Character
    /// Skills`: Sniper Division, Hired Assassin, Mercenaries).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill_tier: Option<Skill>,
    /// Extra damage of every attack its owner makes.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub attack_bonus: u8,
    /// Its text, and Lua run when it is gained.
    pub effect: Effect,
    #[serde(flatten)]
    pub meta: Meta,
}

/// One placeholder of a skill track.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillTier {
    /// Prisma to buy it; absent for the 1st tier (owned at start) and the 4th
    /// (owning a Reinforcement with this skill's `skill_tier`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<u8>,
}

/// A character skill track: its four placeholders (`003 § Character Skills`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillTrack {
    /// Kebab-case id: `stamina`, `range` or `accuracy`.
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// The skill.
    pub skill: Skill,
    /// The four placeholders, 1st to 4th.
    pub tiers: Vec<SkillTier>,
    #[serde(flatten)]
    pub meta: Meta,
}

/// An Artifact and a number of copies.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactCount {
    /// Artifact id.
    pub artifact: Id,
    /// Copies.
    pub count: u8,
}

/// The marketplace and the numbers of the rules (`003 § Marketplace Setup`,
/// `003 § Character Setup`, `003 § Financial Transactions`, `003 § The Apocalypse`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Marketplace {
    /// Kebab-case id (`standard`).
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// Each player's starter deck (4 Radiant Cores, 1 Gladius, 1 Clinker): at
    /// least one entry (with none, nobody ever holds an Artifact).
    #[schemars(length(min = 1))]
    pub starter_deck: Vec<ArtifactCount>,
    /// Artifacts in the hand after drawing (5): at least 1 (with 0 nobody can
    /// ever attack, and every game runs to its turn limit).
    #[schemars(range(min = 1))]
    pub hand_size: u8,
    /// Stamina of the first Stamina token (14).
    pub base_stamina: u8,
    /// Stamina each further token adds (2).
    pub stamina_step: u8,
    /// Most Stamina a player may have at any time (24, Elixir).
    pub max_stamina: u8,
    /// Prisma for a Boost (2).
    pub boost_price: u8,
    /// Prisma for a Reinforcement (5).
    pub reinforcement_price: u8,
    /// Prisma to draw a Reinforcement and keep 2 of 3 (7).
    pub reinforcement_replace_price: u8,
    /// Most Reinforcements owned at once (2).
    pub max_reinforcements: u8,
    /// Successful attacks that defeat a Reinforcement (2).
    pub reinforcement_hits: u8,
    /// HP a reviving ally loses as a penalty (10).
    pub revival_penalty: u16,
    /// The Apocalypse: above this HP, anyone makes everyone take `apocalypse_damage` (40).
    pub apocalypse_threshold: u16,
    /// The Apocalypse's unpreventable damage (40).
    pub apocalypse_damage: u16,
    /// The Apocalypse otherwise sets every active player's HP to this (10).
    pub apocalypse_floor: u16,
    #[serde(flatten)]
    pub meta: Meta,
}

/// An Invictus component or rule with no typed card of its own (`003 § Components`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Component {
    /// Kebab-case id.
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// What sort of component (`apocalypse`, `charge-station`, `counter`, `rule`, ...).
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
