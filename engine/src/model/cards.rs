//! Characters and their cards: Actions, Switches, Automatic Skills, Minions, effects and their timing windows, Tactics, States (`000 § Characters`, `000 § Tactics`, `000 § States`, `002 § Minion`).

use super::*;

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

pub(super) fn yes() -> bool {
    true
}
pub(super) fn is_true(b: &bool) -> bool {
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

pub(super) fn is_one(n: &u8) -> bool {
    *n == 1
}

pub(super) fn is_zero(n: &u8) -> bool {
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
    /// included): ctx.target = the active Character (Fairy Dust); also run
    /// for Characters in the Infirmary or on the Bench, as are the three
    /// phase windows (docs/rulings.md R78).
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
    /// The die a Standard Tactic adds to a Roll (Dodge: `blue`): what it
    /// adds to another player's Roll with an Advanced Tactics deck, where
    /// "only the die is added, the other Effects are not applied" (`001 §
    /// Sterling Forge`, `§ TComm`). A Tactic without one cannot be played so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub die: Option<Id>,
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

pub(super) fn is_zero_i(n: &i8) -> bool {
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
    /// What the players take a token of this State to be worth to the
    /// Character holding it, in Victory Points: negative for a hindrance
    /// (Stunned, -2 Speed), positive for a help (Focused, Hidden). Read by
    /// the players' evaluation of a position only (`players::eval`, so that
    /// the greedy player aims a State at the right side), never by the
    /// rules; without it a State is taken as a hindrance of
    /// `players::eval::UNRATED_STATE` (the rulebooks do not rate States:
    /// these are the players' judgement, docs/players.md § Evaluation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = -5.0, max = 5.0))]
    pub worth: Option<f64>,
    #[serde(flatten)]
    pub meta: Meta,
}
