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

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A kebab-case identifier, unique within its kind (`valkyrie`, `ice-wall`).
pub type Id = String;

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
    /// Dice: colour and six faces (`000 § Dice`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub die: Vec<Die>,
    /// States with their red and blue sides (`000 § States`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub state: Vec<State>,
    /// Characters (`000 § Characters`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub character: Vec<Character>,
    /// Tactics cards (`000 § Tactics`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tactic: Vec<Tactic>,
    /// HexaDome maps (`000 § HexaDome`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub map: Vec<Map>,
    /// Scenarios (`000 § Scenarios`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scenario: Vec<Scenario>,
    /// Prime Time Objective cards (`001 § Objective Cards`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objective: Vec<Objective>,
    /// Prime Time Special Space markers (`001 § Special Spaces`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_space: Vec<SpecialSpace>,
    /// Prime Time Running Projectiles (`001 § Running Projectiles`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub running_projectile: Vec<RunningProjectile>,
    /// Ready-made team and Tactics deck setups (`000 § Setting Up Your First Game`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setup: Vec<Setup>,
    /// Invictus Artifact cards (`003 § Artifact card reference`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub artifact: Vec<Artifact>,
    /// Invictus components other than Artifacts: Boosts, Reinforcements, gods,
    /// the Apocalypse card, Charge Stations, counters (`003 § Components`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub component: Vec<Component>,
    /// Patches to entries of the packs this pack depends on: errata, balance
    /// changes (docs/patches.md).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patch: Vec<Patch>,
}

/// A patch: operations on one entry of another pack (docs/patches.md).
///
/// ```toml
/// [[patch]]
/// target = "character:hannibal"
/// reason = "Errata v1.6"
/// [[patch.op]]
/// op = "replace"
/// path = "actions[id=coordinated-assault].effects[0].text"
/// expect = "Add an Orange die ... for each of your Allies ..."
/// value = "Add an Orange die ... for each Ally other than you ..."
/// ```
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Patch {
    /// The entry patched, as `kind:id` (`character:hannibal`).
    pub target: String,
    /// Why: the erratum or change this is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Citation of the erratum's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The operations, applied in order; all or none.
    #[schemars(length(min = 1))]
    pub op: Vec<PatchOp>,
}

/// One patch operation: the RFC 6902 verbs and a merge shorthand.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchOp {
    /// What to do.
    pub op: PatchVerb,
    /// Where, in the entry: keys joined by dots, list items chosen by id
    /// (`actions[id=coordinated-assault].effects[0].text`). An index alone
    /// (`actions[2]`) is accepted with a warning: a reordered list would retarget it.
    pub path: String,
    /// The value to add, replace with, test against, or merge in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Value>")]
    pub value: Option<serde_json::Value>,
    /// For `move` and `copy`: where from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// A guard: the value found at `path` before this operation. When it differs
    /// (the card changed since the patch was written) the patch fails loudly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Value>")]
    pub expect: Option<serde_json::Value>,
}

/// A patch verb.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PatchVerb {
    /// Add a value (or a list item) at the path.
    Add,
    /// Remove the value at the path.
    Remove,
    /// Replace the value at the path.
    Replace,
    /// Move the value at `from` to the path.
    Move,
    /// Copy the value at `from` to the path.
    Copy,
    /// Fail unless the value at the path equals `value`.
    Test,
    /// Merge a table into the value at the path (RFC 7386 merge patch).
    Merge,
}

/// The kinds of content entry, as written in TOML (`[[special_space]]`) and in
/// references (`special_space:jump-pad`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Die,
    State,
    Character,
    Tactic,
    Map,
    Scenario,
    Objective,
    SpecialSpace,
    RunningProjectile,
    Setup,
    Artifact,
    Component,
}

impl Kind {
    /// Every kind, in the order the summary lists them.
    pub const ALL: [Kind; 12] = [
        Kind::Die,
        Kind::State,
        Kind::Character,
        Kind::Tactic,
        Kind::Map,
        Kind::Scenario,
        Kind::Objective,
        Kind::SpecialSpace,
        Kind::RunningProjectile,
        Kind::Setup,
        Kind::Artifact,
        Kind::Component,
    ];

    /// The TOML table name and reference prefix (`character`).
    pub fn key(self) -> &'static str {
        match self {
            Kind::Die => "die",
            Kind::State => "state",
            Kind::Character => "character",
            Kind::Tactic => "tactic",
            Kind::Map => "map",
            Kind::Scenario => "scenario",
            Kind::Objective => "objective",
            Kind::SpecialSpace => "special_space",
            Kind::RunningProjectile => "running_projectile",
            Kind::Setup => "setup",
            Kind::Artifact => "artifact",
            Kind::Component => "component",
        }
    }

    /// Parse a TOML table name back into a kind.
    pub fn from_key(key: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.key() == key)
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

/// The game a pack or entry is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Game {
    /// Aristeia! and its expansions.
    Aristeia,
    /// Invictus: A Team Deck Building Game.
    Invictus,
}

/// A die symbol (`000 § Symbols`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Symbol {
    /// Success: cancels a Block of the opponent; uncancelled ones inflict Damage.
    Success,
    /// Block: cancels a Success of the opponent.
    Block,
    /// Special: pays for Switches.
    Special,
    /// Critical Success: cannot be cancelled; worth 2 symbols when paying Switches (`000 § Critical Success`).
    CriticalSuccess,
    /// Critical Block: may Nullify one opposing die or added symbol, or be kept as one Block (`000 § Critical Block`).
    CriticalBlock,
}

/// A die (`000 § Dice`). Faces have no order; a blank face is an empty list,
/// or `"blank"`.
///
/// Example: `faces = [["critical_success"], ["success", "special"], "blank", ...]`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Die {
    /// Kebab-case id; for the printed dice, the colour (`red`).
    pub id: Id,
    /// Display name (`Red die`).
    pub name: String,
    /// Exactly six faces, each the list of symbols printed on it; a blank face
    /// is `[]` or `"blank"`.
    #[serde(deserialize_with = "faces")]
    #[schemars(with = "Vec<Face>", length(min = 6, max = 6))]
    pub faces: Vec<Vec<Symbol>>,
    /// How many dice of this colour one Roll may hold at most (`000 § Dice`: one red,
    /// one green, three of each other colour).
    pub max_per_roll: u8,
    #[serde(flatten)]
    pub meta: Meta,
}

/// A die face as written: the symbols printed on it, or `"blank"` for a face
/// with none (the same as `[]`).
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Face {
    /// The symbols on the face (`["success", "special"]`).
    Symbols(Vec<Symbol>),
    /// A blank face.
    Blank(BlankFace),
}

/// The word for a face with no symbol.
#[derive(Deserialize, JsonSchema)]
enum BlankFace {
    /// `"blank"`.
    #[serde(rename = "blank")]
    Blank,
}

/// Die faces, each a list of symbols or `"blank"`.
fn faces<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Vec<Symbol>>, D::Error> {
    let faces = Vec::<Face>::deserialize(d)?;
    Ok(faces
        .into_iter()
        .map(|f| match f {
            Face::Symbols(s) => s,
            Face::Blank(BlankFace::Blank) => Vec::new(),
        })
        .collect())
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

/// A pool of dice plus automatically added symbols (`000 § Rolls`).
///
/// Example: `{ dice = ["red", "orange"], symbols = ["success"] }`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pool {
    /// Die ids (`red`, `green`, `orange`, `blue`, `yellow`, `black`); repeat an id for several dice.
    #[serde(default)]
    pub dice: Vec<Id>,
    /// Symbols added to every result of this pool, as if rolled (`000 § Symbols`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symbols: Vec<Symbol>,
}

/// A card effect: the printed text, and the Lua that performs it.
///
/// Give either `lua` (an inline chunk) or `script` (a file in the pack, relative
/// to the pack folder) with an optional `function` name; or neither, when the
/// engine does not run this effect yet (`arena check` lists it as unsupported).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Effect {
    /// The card's printed wording.
    pub text: String,
    /// Inline Luau source. It runs as a chunk; see docs/effects.md.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lua: Option<String>,
    /// Path of a `.lua` file inside the pack, relative to the pack folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// Name of the function the script file returns in its table; defaults to the effect's owner id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// What this effect says cannot happen, for an effect that is a restriction
    /// rather than something done ("Enemy Effects cannot move, Place or Displace
    /// you."). Such a restriction "always takes precedence" over any other rule
    /// or Effect (`000 § Solving Rules Contradictions`, 1). The engine applies it
    /// for Automatic Skills, which are always active (`001 § Automatic Skills`);
    /// an effect that only restricts needs no Lua.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prevents: Vec<Prevention>,
}

/// Something a restriction says cannot happen (`000 § Solving Rules
/// Contradictions`, 1). Serialized in kebab-case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Prevention {
    /// Enemy Effects cannot move, Place or Displace the skill's Character
    /// (Valkyrie's Benediction of Thor, `002`): `game:displace`, `game:place`
    /// and `game:swap` run by an enemy's Effect leave it where it is.
    MovedByEnemyEffects,
}

/// An Action's Effect line: automatic (always applies) or optional (only with at
/// least one Success) (`000 § Actions`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionEffect {
    /// Optional Effects apply only if the Roll had at least one Success, and may be declined.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// `before-roll` for an Effect that changes the Action's own Roll before the
    /// dice are rolled ("add an Orange die to your Attack Roll for each ...");
    /// `before-switches` for one that changes it once rolled, before the
    /// Switches step; absent: after the Roll, in the Effects step (`000 § Actions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<Window>,
    /// The printed wording.
    pub text: String,
    /// Inline Luau source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lua: Option<String>,
    /// Path of a `.lua` file inside the pack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// Function name in the script's returned table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
}

/// A Switch: pay symbols from a Roll's result for an Effect (`000 § Switches`).
///
/// Example: `{ id = "taunt", cost = ["special"], effect.text = "Impose the Taunted State to the Target." }`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Switch {
    /// Kebab-case id, unique within the Character or Action.
    pub id: Id,
    /// The symbols paid; a Critical Success or Critical Block pays for two of its kind.
    #[schemars(length(min = 1))]
    pub cost: Vec<Symbol>,
    /// What the Switch does.
    pub effect: Effect,
}

/// Range in spaces, `min`-`max` inclusive (`000 § Range`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Range {
    /// Minimum distance in spaces (0 means the Character itself may be the Target).
    pub min: u8,
    /// Maximum distance in spaces.
    pub max: u8,
    /// Line-of-Sight Range (the default) counts around Occupied and Blocked spaces
    /// and needs Line of Sight; `false` is No-Line-of-Sight Range (`000 § Range`).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub line_of_sight: bool,
}

fn yes() -> bool {
    true
}
fn is_true(b: &bool) -> bool {
    *b
}

/// An Action or Attack on a Character or Minion card (`000 § Actions`, `§ Attacks`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// Kebab-case id, unique within the card (`charge-of-the-valkyrie`).
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// True for Attacks (red title): a Face to Face Roll against the Target's Defense.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub attack: bool,
    /// Cost in Action Points.
    pub cost: u8,
    /// Movement Points gained when performing it, if any.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub movement_points: u8,
    /// Movement Points spent to perform it (Gata's Freerun: "Spend 1 Movement
    /// Point"); it can be performed only by a Character that has them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub movement_cost: u8,
    /// Whether its Target may be an Obstacle such as a Barrier, not only a
    /// Character or a Minion (`000 § Obstacles`: "Actions, Attacks and Tactics
    /// can Target Obstacles"; Freerun's Target in 000 Turn 4 is one). A Barrier
    /// is named `barrier@q,r` in the game (`barrier@3,0`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub obstacle_targets: bool,
    /// Range; absent for Actions without a Target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
    /// The Roll's dice and added symbols; absent for "No Roll" Actions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<Pool>,
    /// Switches usable on this Action's Rolls only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub switches: Vec<Switch>,
    /// Effect lines, in printed order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<ActionEffect>,
    /// When the Action may be declared on a Target (¡Tangana!: "only if
    /// they're Taunted"): Lua returning true for a valid `ctx.target` (the
    /// Action's own Range and cost are checked by the engine). It is asked
    /// before the options are offered, so an invalid Target is never offered
    /// (`000 § Actions`, step 1); whatever it changes is undone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Effect>,
}

fn is_one(n: &u8) -> bool {
    *n == 1
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// An Automatic Skill: always in force (`000 § Automatic Skills`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AutomaticSkill {
    /// Kebab-case id (`benediction-of-thor`).
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// When its Lua runs, for a skill that acts at a moment (Regeneration:
    /// `activation-start`; Kaze Tachinu: `attack-resolved`). Absent: always in
    /// force, which the engine applies itself where it knows the skill.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<Window>,
    /// What it does.
    pub effect: Effect,
    /// When a skill that the player may use (timing `switches`) is offered:
    /// Lua returning true (Dead Man's Hand: while the player holds a Tactic).
    /// Whatever it changes is undone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Effect>,
}

/// A Minion card: an Obstacle a Controller deploys and activates (`002 § Minion`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Minion {
    /// Kebab-case id.
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// How many the Controller may have deployed at once.
    #[schemars(range(min = 1))]
    pub count: u8,
    /// Damage it can suffer before it is removed.
    #[schemars(range(min = 1))]
    pub hit_points: u8,
    /// Defense pool, if the Minion may roll for Defense.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defense: Option<Pool>,
    /// Brawn pool, if the Minion may force Disengage Rolls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brawn: Option<Pool>,
    /// Agility pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agility: Option<Pool>,
    /// Switches on the Minion card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub switches: Vec<Switch>,
    /// Actions the Controller may activate it to perform.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Action>,
}

/// A Character card (`000 § Characters`, `§ Attributes`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Character {
    /// Kebab-case id (`valkyrie`).
    pub id: Id,
    /// Printed name (`Valkyrie`).
    pub name: String,
    /// Collection number printed on the card, if known (852).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<u32>,
    /// Initiative attribute: who acts first in a Turn (`000 § Initiative`).
    pub initiative: u8,
    /// Speed: Movement Points gained by the Move Action (`000 § Speed`).
    pub speed: u8,
    /// Energy: Action Points at the Preparation Step (`000 § Energy`).
    pub energy: u8,
    /// Damage the Character can suffer before going to the Infirmary (`000 § Hit Points`).
    pub hit_points: u8,
    /// Defense pool, rolled when Attacked (`000 § Defense`).
    pub defense: Pool,
    /// Brawn pool, rolled to stop an Enemy's Disengage (`000 § Brawn`).
    pub brawn: Pool,
    /// Agility pool, rolled to Disengage (`000 § Agility`).
    pub agility: Pool,
    /// General Switches, usable on any of this Character's Rolls (`000 § Switches`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub switches: Vec<Switch>,
    /// Actions and Attacks printed on the card; Move and the Contender Attack are implicit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Action>,
    /// Automatic Skills.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub automatic_skills: Vec<AutomaticSkill>,
    /// Smoke tokens supplied with the Character: the most it may have deployed at once (`004 § Smoke`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub smoke_tokens: u8,
    /// Minion cards, for Controllers (`002 § Controller`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub minions: Vec<Minion>,
    #[serde(flatten)]
    pub meta: Meta,
}

/// When a Tactic may be played, as a window of the rules' sequence
/// (`000 § When Do Things Happen`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Window {
    /// At the beginning of an Activation.
    ActivationStart,
    /// During the Actions Step of an Activation.
    ActionsStep,
    /// At the end of the Actions Step.
    ActionsStepEnd,
    /// During the States Step.
    StatesStep,
    /// Before you make a Roll.
    BeforeRoll,
    /// Before each Roll the Character makes, whatever it is (Attack, Defense,
    /// Simple, Disengage): an Automatic Skill that changes its own Rolls
    /// ("Add a Blue die to your Rolls for each ...": Benediction of Freyja).
    /// Its Lua adds to the Character's own pool (`game:add_die`), with
    /// ctx.target = the other side's Character, if any.
    OwnRoll,
    /// When an Enemy declares an Attack (any Attack, on anyone): Automatic
    /// Skills of the attacker's Enemies in the HexaDome, ctx.target = the
    /// attacker (Implacable: "you may Displace yourself once").
    AttackDeclared,
    /// At the beginning of the Actions Step of an Ally (the skill's Character
    /// included): ctx.target = the active Character (Fairy Dust).
    AllyActionsStepStart,
    /// In the Switches step of the Character's Rolls, offered like a Switch
    /// with no cost while its `condition` holds (Dead Man's Hand: "During the
    /// Switches step of your Rolls, you may Discard a Tactic to add a Success").
    Switches,
    /// Before you make an Attack Roll (Holographic Sight: "Before making an Attack Roll").
    BeforeAttackRoll,
    /// Before your opponent makes a Roll.
    BeforeOpponentRoll,
    /// After the dice are rolled, before the Critical Block step.
    AfterRoll,
    /// After the Critical Block step, before the Switches step of a Roll: an
    /// Action's Effect that changes its own rolled Roll ("Before the Switches
    /// step, Nullify a Block of your opponent's Roll": Charge of the Valkyrie).
    BeforeSwitches,
    /// After Damage is received, before the Character is sent to the Infirmary.
    DamageSuffered,
    /// After an Attack of the Character has been resolved (its Damage inflicted).
    AttackResolved,
    /// When Cover is checked for the Character's Attack, before the Cover dice
    /// are added (`000 § Cover`; Marksmanship, Veteran Sniper: `000` Turn 4).
    Cover,
    /// When a Character receives enough Damage to go to the Infirmary.
    SentToInfirmary,
    /// When a Tactic is played (to answer it).
    TacticPlayed,
    /// During the Planning Phase.
    PlanningPhase,
    /// During the Objectives Phase.
    ObjectivesPhase,
    /// During the Recovery Phase.
    RecoveryPhase,
}

impl Window {
    /// Whether the engine offers Tactics of this timing (docs/windows.md).
    pub fn plays_tactics(self) -> bool {
        !matches!(
            self,
            Window::OwnRoll
                | Window::AttackDeclared
                | Window::AllyActionsStepStart
                | Window::Switches
                | Window::BeforeSwitches
                | Window::AttackResolved
                | Window::Cover
        )
    }

    /// Whether the engine runs Automatic Skills of this timing (docs/windows.md).
    pub fn runs_skills(self) -> bool {
        !matches!(
            self,
            Window::ActionsStep
                | Window::BeforeAttackRoll
                | Window::BeforeOpponentRoll
                | Window::BeforeSwitches
                | Window::TacticPlayed
        )
    }
}

/// A Tactics card (`000 § Tactics`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tactic {
    /// Kebab-case id (`ice-wall`).
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// Collection number printed on the card (859).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<u32>,
    /// The Character whose Tactic this is (`valkyrie`); absent for Standard Tactics.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub character: Option<Id>,
    /// One of the ten Standard Tactics every deck holds (`000 § 3. Building the
    /// Tactics Deck`: 009-018); the engine puts these in the decks it builds.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub standard: bool,
    /// How many copies of the card go into a deck (Dodge: cards 009 and 010,
    /// one entry listed twice); used when the engine builds a deck itself.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub copies: u8,
    /// The window in which it may be played.
    pub timing: Window,
    /// The printed timing line.
    pub timing_text: String,
    /// For a Character's `actions-step` Tactic: playable in the Activation of
    /// any of your Characters ("During the Actions Step of one of your
    /// Characters' Activations", Team Reset), not only its own Character's
    /// ("During the Actions Step of LaxMee's Activation").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub any_character: bool,
    /// What it does.
    pub effect: Effect,
    /// When it may be played at all (Valkyrie's Cry: a Damaged Target in
    /// Range): Lua returning true, with ctx.self = the Character it would be
    /// played for; whatever it changes is undone. Asked in the Actions Step
    /// and the phase windows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Effect>,
    #[serde(flatten)]
    pub meta: Meta,
}

/// Attribute changes while a State is in force (`000 § States`: -2 Energy, -2 Speed, +/-2 Initiative).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Modifiers {
    /// Change to Initiative.
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub initiative: i8,
    /// Change to Speed.
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub speed: i8,
    /// Change to Energy.
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub energy: i8,
}

fn is_zero_i(n: &i8) -> bool {
    *n == 0
}

/// One side of a State token: what happens when it is imposed (red) or revealed (blue).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StateSide {
    /// Damage suffered the moment this side shows (`000 § States`: X Damage).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub damage: u8,
    /// Remove the token right after this side is revealed (Poisoned, Burning).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub remove: bool,
    /// Effect run when this side shows, for anything beyond plain Damage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
}

/// A State (`000 § States`; `002`, `004` for the expansion States).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct State {
    /// Kebab-case id (`immobilized`, `minus-2-energy`).
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// The rule text of the State while it is in force.
    pub text: String,
    /// Whether a Target can have several tokens of it at once (Poisoned, Burning);
    /// otherwise a re-imposed State replaces the old token red side up.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stacking: bool,
    /// Attribute changes while in force.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modifiers: Option<Modifiers>,
    /// The red side (shown when imposed).
    #[serde(default)]
    pub red_side: StateSide,
    /// The blue side (shown after the first States Step).
    #[serde(default)]
    pub blue_side: StateSide,
    /// Whether it is placed on a space rather than a Character (Smoke).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_space: bool,
    /// The ongoing rule, as Lua, when the engine needs one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
    #[serde(flatten)]
    pub meta: Meta,
}

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

/// A Scenario objective or rule (`000 § Scenarios`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioRule {
    /// Kebab-case id.
    pub id: Id,
    /// Printed wording.
    pub text: String,
    /// Victory Points it awards, if it is an objective.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vp: Option<u8>,
    /// Lua performing it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
}

/// Where Characters return from the Bench.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BenchReturn {
    /// Any Free space of a Deployment Zone that is not the Scoring Zone.
    #[default]
    AnyDeploymentZone,
    /// A Free space of the player's own Deployment Zone.
    OwnDeploymentZone,
}

impl BenchReturn {
    fn is_default(&self) -> bool {
        *self == BenchReturn::AnyDeploymentZone
    }
}

/// A Scenario (`000 § Scenarios`; `001` for the Prime Time ones).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Kebab-case id (`assault`).
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// Id of the map it is played on.
    pub map: Id,
    /// How many players.
    pub players: Players,
    /// Characters in each team.
    pub characters_per_team: u8,
    /// Rounds before the game ends.
    pub rounds: u8,
    /// Victory Points that end the game at once, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vp_to_win: Option<u8>,
    /// Zone ids where each player deploys, in player order, or every Deployment Zone when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deployment_zones: Vec<Id>,
    /// Zone ids that are Scoring Zones at the start.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scoring_zones: Vec<Id>,
    /// The printed deployment rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deployment: Option<String>,
    /// How Characters return from the Bench (the printed rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bench_return: Option<String>,
    /// Where the engine Places a Character returning from the Bench: any
    /// Deployment Zone but the Scoring Zone (Assault, `000 § Bench`; the
    /// default), or the player's own Deployment Zone.
    #[serde(default, skip_serializing_if = "BenchReturn::is_default")]
    pub bench_return_to: BenchReturn,
    /// Whether Frags break ties on Victory Points.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub frags_break_ties: bool,
    /// Objectives and special rules.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<ScenarioRule>,
    /// Special Space markers placed before Deployment, the players taking
    /// turns from the Underdog, on Free spaces outside the Deployment Zones and
    /// not Adjacent to another marker (`001 § Scenarios with Special Spaces`:
    /// 9). 0: none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub special_spaces: u8,
    /// Running Projectiles are added (`001 § Scenarios with Running
    /// Projectiles`): one per player on the HexaDome, each activated at the end
    /// of the Turns Phase.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub running_projectiles: bool,
    /// Actions every Character gains in this Scenario (Crow Accumulator's Accumulator Actions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Action>,
    #[serde(flatten)]
    pub meta: Meta,
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

fn one() -> u8 {
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

/// A pack manifest, `pack.toml` (see docs/packs.md).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "arena pack manifest (pack.toml)")]
pub struct Manifest {
    /// Kebab-case pack id (`aristeia-core`).
    pub id: Id,
    /// Semantic version (`1.0.0`).
    pub version: String,
    /// The game the pack is for.
    pub game: Game,
    /// Display title.
    pub title: String,
    /// Authors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authors: Vec<String>,
    /// One paragraph on what the pack holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Required packs: id = semver requirement (`aristeia-core = "^1.0"`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub dependencies: std::collections::BTreeMap<Id, String>,
    /// Packs used when present: id = semver requirement.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub optional_dependencies: std::collections::BTreeMap<Id, String>,
    /// Packs this one cannot be loaded with: id = semver requirement (`"*"` for any version).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub incompatibilities: std::collections::BTreeMap<Id, String>,
    /// Load this pack after these (when they are present).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub load_after: Vec<Id>,
    /// Load this pack before these (when they are present).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub load_before: Vec<Id>,
    /// What the sources name but the pack cannot hold (a card whose text is
    /// not printed), so `arena check --strict` says it is missing rather than
    /// leaving it to a comment.
    #[serde(default, rename = "gap", skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Gap>,
}

/// Something the rulebooks name that a pack leaves out, and why.
///
/// Example: `[[gap]]` `what = "Hannibal's four Tactics"`, `why = "002 § Hannibal
/// Tactics prints four empty Code: lines"`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Gap {
    /// What is missing.
    pub what: String,
    /// Why it is missing, citing the source.
    pub why: String,
}
