//! The host API registry: every function a card effect can call, defined once.
//!
//! Each [`ApiFn`] has a name (the rulebook's verb in snake_case), its parameters
//! with types, its return type, a doc line and the rule it implements. The same
//! table registers the functions in the VM ([`super::runtime`]), type-checks
//! arguments, and generates `schemas/arena.d.lua` (LuaLS `---@meta`),
//! `schemas/arena.d.luau` (Luau types) and `docs/lua-api.md`
//! ([`generated_files`]); a test fails when those are stale.
//!
//! Effects call methods on the `game` object they receive:
//! `game:inflict_damage(ctx.target, 2)`.

use std::collections::BTreeMap;

/// A type in the API, as the docs and editor definitions name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// Nothing.
    Nil,
    /// `true` or `false`.
    Boolean,
    /// A whole number.
    Integer,
    /// A string.
    String,
    /// The id of a Character in play (`"valkyrie"`).
    Character,
    /// The id of a State (`"immobilized"`).
    State,
    /// The id of a die (`"red"`).
    Die,
    /// A symbol: `"success"`, `"block"`, `"special"`, `"critical_success"`, `"critical_block"`.
    Symbol,
    /// Whose Roll: `"own"` or `"opponent"`.
    Side,
    /// A space of the HexaDome, `{q, r}` in axial coordinates.
    Space,
    /// A list of spaces, `{{q, r}, ...}`.
    SpaceList,
    /// A list of Character ids.
    CharacterList,
    /// A list of strings.
    StringList,
    /// A read-only table describing content (see the function's doc).
    Table,
}

impl Ty {
    /// The name used in docs and LuaLS annotations.
    pub fn lua_name(self) -> &'static str {
        match self {
            Ty::Nil => "nil",
            Ty::Boolean => "boolean",
            Ty::Integer => "integer",
            Ty::String => "string",
            Ty::Character => "CharacterId",
            Ty::State => "StateId",
            Ty::Die => "DieId",
            Ty::Symbol => "Symbol",
            Ty::Side => "Side",
            Ty::Space => "Space",
            Ty::SpaceList => "Space[]",
            Ty::CharacterList => "CharacterId[]",
            Ty::StringList => "string[]",
            Ty::Table => "table",
        }
    }

    /// The name in Luau type syntax.
    pub fn luau_name(self) -> &'static str {
        match self {
            Ty::Nil => "()",
            Ty::Integer => "number",
            Ty::CharacterList => "{CharacterId}",
            Ty::SpaceList => "{Space}",
            Ty::StringList => "{string}",
            Ty::Table => "{[string]: any}",
            other => other.lua_name(),
        }
    }
}

/// Who answers a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// The runtime, from the loaded content alone (read-only).
    Content,
    /// The host (the game, or the recording test host).
    Host,
}

/// Declares the API's function ids, one enum per group and [`HostFn`] over
/// them, from one list of `Variant = "lua_name"`. The game's host matches
/// each group exhaustively, so a function without a game implementation does
/// not compile; a test checks that [`REGISTRY`] lists every id exactly once.
macro_rules! host_fns {
    ($( $(#[$doc:meta])* $group:ident($genum:ident) { $( $variant:ident = $name:literal ),* $(,)? } )*) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
            pub enum $genum {
                $( #[doc = concat!("`game:", $name, "(...)`")] $variant, )*
            }

            impl $genum {
                /// Every function of the group, in declaration order.
                pub const ALL: &'static [$genum] = &[$( $genum::$variant ),*];

                /// The name Lua calls it by.
                pub const fn name(self) -> &'static str {
                    match self {
                        $( $genum::$variant => $name, )*
                    }
                }
            }
        )*

        /// Which API function: its group and the function in it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum HostFn {
            $( $(#[$doc])* $group($genum), )*
        }

        impl HostFn {
            /// The name Lua calls it by.
            pub const fn name(self) -> &'static str {
                match self {
                    $( HostFn::$group(f) => f.name(), )*
                }
            }

            /// Every function id, group by group.
            pub fn all() -> Vec<HostFn> {
                let mut all = Vec::new();
                $( all.extend($genum::ALL.iter().map(|f| HostFn::$group(*f))); )*
                all
            }
        }
    };
}

host_fns! {
    /// Content queries, answered by the runtime from the loaded packs (read-only).
    Content(ContentFn) {
        CharacterCard = "character_card",
        StateCard = "state_card",
        DieFaces = "die_faces",
    }
    /// Randomness and the narrative: through the host, so games stay reproducible.
    Chance(ChanceFn) {
        Random = "random",
        Log = "log",
    }
    /// Questions about the game: who, where, what they see (`000 § Range`, `000 § Line of Sight`).
    Query(QueryFn) {
        ActiveCharacter = "active_character",
        Attacker = "attacker",
        Damage = "damage",
        HasState = "has_state",
        States = "states",
        Position = "position",
        Distance = "distance",
        EnemiesWithin = "enemies_within",
        AlliesWithin = "allies_within",
        HasLineOfSight = "has_line_of_sight",
        MovementPointsSpent = "movement_points_spent",
        FreeSpacesWithin = "free_spaces_within",
        FreeSpacesInZone = "free_spaces_in_zone",
        DeployableSpaces = "deployable_spaces",
        Minions = "minions",
        IsMinion = "is_minion",
        HasActivationEffect = "has_activation_effect",
        TacticsInHand = "tactics_in_hand",
    }
    /// Changes to Characters: Damage, States, points, Minions, Tactics, granted Actions (`000 § Effects`).
    Change(ChangeFn) {
        InflictDamage = "inflict_damage",
        Heal = "heal",
        ImposeState = "impose_state",
        RemoveState = "remove_state",
        DeployMinion = "deploy_minion",
        GainActionPoints = "gain_action_points",
        ActivationEffect = "activation_effect",
        GrantAction = "grant_action",
        DrawTactics = "draw_tactics",
        DiscardTactics = "discard_tactics",
        NullifyTactic = "nullify_tactic",
    }
    /// Movement by effects: Displace, Place, Swap, Movement Points, Smoke (`000 § Displace`, `000 § Place`).
    Move(MoveFn) {
        Displace = "displace",
        DisplaceTo = "displace_to",
        Place = "place",
        Swap = "swap",
        SpendMovementPoints = "spend_movement_points",
        DeploySmoke = "deploy_smoke",
        GainMovementPoints = "gain_movement_points",
    }
    /// Dice outside a Roll's pools: the next Roll, a die rolled alone, reading and reducing pools, forbidding Switches (`000 § Rolls`).
    Dice(DiceFn) {
        AddDieToNextRoll = "add_die_to_next_roll",
        RollDie = "roll_die",
        PoolDice = "pool_dice",
        ReduceRollTo = "reduce_roll_to",
        ForbidSwitches = "forbid_switches",
    }
    /// Changes to the Roll being made, before or after its dice are rolled, and to its Cover (`000 § Rolls`, `000 § Cover`).
    Roll(RollFn) {
        AddDie = "add_die",
        AddSymbol = "add_symbol",
        NullifySymbol = "nullify_symbol",
        NullifyDie = "nullify_die",
        IgnoreCover = "ignore_cover",
        CoverDie = "cover_die",
    }
    /// Choices a player makes for an effect (a Decision).
    Choice(ChoiceFn) {
        ChooseSpace = "choose_space",
        ChooseTarget = "choose_target",
        Choose = "choose",
    }
}

/// One parameter.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// Name, as in the docs.
    pub name: &'static str,
    /// Type.
    pub ty: Ty,
    /// Whether it may be left out (passed as nil).
    pub optional: bool,
    /// What it is.
    pub doc: &'static str,
}

/// One API function.
#[derive(Debug, Clone, Copy)]
pub struct ApiFn {
    /// Which function: what the host matches on.
    pub id: HostFn,
    /// Name, as called from Lua: `game:NAME(...)` (the same as `id.name()`).
    pub name: &'static str,
    /// Parameters, in order (after `self`).
    pub params: &'static [Param],
    /// Return type.
    pub returns: Ty,
    /// Who answers it.
    pub answer: Answer,
    /// One or two sentences.
    pub doc: &'static str,
    /// The rule it implements (`000 § Damage`), or empty for tooling.
    pub source: &'static str,
}

const fn p(name: &'static str, ty: Ty, doc: &'static str) -> Param {
    Param { name, ty, optional: false, doc }
}
const fn opt(name: &'static str, ty: Ty, doc: &'static str) -> Param {
    Param { name, ty, optional: true, doc }
}

const TARGET: Param = p("target", Ty::Character, "the Character it applies to");

/// Every function of the host API, in documentation order.
pub const REGISTRY: &[ApiFn] = &[
    // Content queries: answered from the loaded packs, read-only.
    ApiFn {
        id: HostFn::Content(ContentFn::CharacterCard),
        name: "character_card",
        params: &[p("id", Ty::Character, "a Character id")],
        returns: Ty::Table,
        answer: Answer::Content,
        doc: "The printed card of a Character: `{id, name, initiative, speed, energy, hit_points, defense, brawn, agility}` (pools as `{dice = {...}, symbols = {...}}`), or nil if no pack defines it.",
        source: "000 § Characters",
    },
    ApiFn {
        id: HostFn::Content(ContentFn::StateCard),
        name: "state_card",
        params: &[p("id", Ty::State, "a State id")],
        returns: Ty::Table,
        answer: Answer::Content,
        doc: "A State as loaded: `{id, name, stacking, modifiers = {initiative, speed, energy}}`, or nil.",
        source: "000 § States",
    },
    ApiFn {
        id: HostFn::Content(ContentFn::DieFaces),
        name: "die_faces",
        params: &[p("id", Ty::Die, "a die id")],
        returns: Ty::Table,
        answer: Answer::Content,
        doc: "The six faces of a die, each a list of symbols, or nil.",
        source: "000 § Dice",
    },
    // Randomness and output: through the host, so games stay reproducible.
    ApiFn {
        id: HostFn::Chance(ChanceFn::Random),
        name: "random",
        params: &[p("low", Ty::Integer, "smallest result"), p("high", Ty::Integer, "largest result")],
        returns: Ty::Integer,
        answer: Answer::Host,
        doc: "A whole number from low to high inclusive, from the game's seeded RNG (also what `math.random` uses).",
        source: "",
    },
    ApiFn {
        id: HostFn::Chance(ChanceFn::Log),
        name: "log",
        params: &[p("message", Ty::String, "text for the game's narrative")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "Add a line to the game's narrative (also what `print` does).",
        source: "",
    },
    // Game-state queries.
    ApiFn {
        id: HostFn::Query(QueryFn::ActiveCharacter),
        name: "active_character",
        params: &[],
        returns: Ty::Character,
        answer: Answer::Host,
        doc: "The active Character (whose Activation it is), or nil between Activations.",
        source: "000 § Activations",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::Attacker),
        name: "attacker",
        params: &[],
        returns: Ty::Character,
        answer: Answer::Host,
        doc: "The Character making the Attack whose Roll is being prepared or rolled, or nil; not always the active Character (an Ally acting through Programmed Strategy).",
        source: "000 § Attacks",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::Damage),
        name: "damage",
        params: &[TARGET],
        returns: Ty::Integer,
        answer: Answer::Host,
        doc: "Damage the Character has suffered.",
        source: "000 § Damage",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::HasState),
        name: "has_state",
        params: &[TARGET, p("state", Ty::State, "a State id")],
        returns: Ty::Boolean,
        answer: Answer::Host,
        doc: "Whether the Character has a token of that State.",
        source: "000 § States",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::States),
        name: "states",
        params: &[TARGET],
        returns: Ty::StringList,
        answer: Answer::Host,
        doc: "The States on a Character, each once.",
        source: "000 § States",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::Position),
        name: "position",
        params: &[TARGET],
        returns: Ty::Space,
        answer: Answer::Host,
        doc: "The Character's space, or nil when it is not in the HexaDome (Bench, Infirmary).",
        source: "000 § HexaDome",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::Distance),
        name: "distance",
        params: &[p("from", Ty::Character, "a Character"), p("to", Ty::Character, "another Character")],
        returns: Ty::Integer,
        answer: Answer::Host,
        doc: "The Range between two Characters in spaces (No-Line-of-Sight count).",
        source: "000 § Range",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::EnemiesWithin),
        name: "enemies_within",
        params: &[
            p("of", Ty::Character, "the Character whose Enemies are listed"),
            p("min", Ty::Integer, "minimum Range"),
            p("max", Ty::Integer, "maximum Range"),
        ],
        returns: Ty::CharacterList,
        answer: Answer::Host,
        doc: "Enemies of a Character within a Range, in a stable order.",
        source: "000 § Enemies",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::AlliesWithin),
        name: "allies_within",
        params: &[
            p("of", Ty::Character, "the Character whose Allies are listed"),
            p("min", Ty::Integer, "minimum Range"),
            p("max", Ty::Integer, "maximum Range"),
        ],
        returns: Ty::CharacterList,
        answer: Answer::Host,
        doc: "Allies of a Character (not the Character itself) within a Range.",
        source: "000 § Allies",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::HasLineOfSight),
        name: "has_line_of_sight",
        params: &[p("from", Ty::Character, "the looking Character"), p("to", Ty::Character, "the seen Character")],
        returns: Ty::Boolean,
        answer: Answer::Host,
        doc: "Whether `from` has Line of Sight to `to`.",
        source: "000 § Line of Sight",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::MovementPointsSpent),
        name: "movement_points_spent",
        params: &[TARGET],
        returns: Ty::Integer,
        answer: Answer::Host,
        doc: "Movement Points the Character has spent during the current Activation.",
        source: "000 § Movement Points",
    },
    // Verbs: change the game, in the rulebook's words.
    ApiFn {
        id: HostFn::Change(ChangeFn::InflictDamage),
        name: "inflict_damage",
        params: &[TARGET, p("amount", Ty::Integer, "Damage, at least 1")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "Inflict Damage (an error below 1). A Character that reaches its Hit Points goes to the Infirmary once the effect has run; excess Damage is ignored.",
        source: "000 § Inflict; § Damage",
    },
    ApiFn {
        id: HostFn::Change(ChangeFn::Heal),
        name: "heal",
        params: &[TARGET, p("amount", Ty::Integer, "Damage removed")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "Heal Damage from a Character.",
        source: "000 § Healing",
    },
    ApiFn {
        id: HostFn::Change(ChangeFn::ImposeState),
        name: "impose_state",
        params: &[
            TARGET,
            p("state", Ty::State, "a State id"),
            opt("source", Ty::Character, "who imposes it (Taunted)"),
        ],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "Impose a State red side up; a State the Target already has is replaced unless it stacks.",
        source: "000 § States",
    },
    ApiFn {
        id: HostFn::Change(ChangeFn::RemoveState),
        name: "remove_state",
        params: &[TARGET, p("state", Ty::State, "a State id")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "Remove one token of a State.",
        source: "000 § States",
    },
    ApiFn {
        id: HostFn::Move(MoveFn::Displace),
        name: "displace",
        params: &[TARGET, opt("spaces", Ty::Integer, "how many Displacements (default 1)")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "Displace a Character: move it to an adjacent Free Space, once per Displacement, without spending Movement Points.",
        source: "000 § Displacements",
    },
    ApiFn {
        id: HostFn::Move(MoveFn::DisplaceTo),
        name: "displace_to",
        params: &[TARGET, p("space", Ty::Space, "an Adjacent Free Space")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "One Displacement of a Character to a space the effect chose (Adjacent to it and Free), for an effect that restricts where it may go (Charge of the Valkyrie).",
        source: "000 § Displacements",
    },
    ApiFn {
        id: HostFn::Move(MoveFn::Place),
        name: "place",
        params: &[TARGET, p("space", Ty::Space, "a Free Space")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "Place a Character in a Free Space.",
        source: "000 § Placing",
    },
    ApiFn {
        id: HostFn::Move(MoveFn::Swap),
        name: "swap",
        params: &[p("first", Ty::Character, "a Character"), p("second", Ty::Character, "another Character")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "Swap two Characters' spaces.",
        source: "000 § Swapping",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::FreeSpacesWithin),
        name: "free_spaces_within",
        params: &[
            p("of", Ty::Character, "a Character or Minion in the HexaDome"),
            p("min", Ty::Integer, "least distance"),
            p("max", Ty::Integer, "greatest distance"),
        ],
        returns: Ty::SpaceList,
        answer: Answer::Host,
        doc: "The Free Spaces at a hex distance from min to max of the Character's space (No-Line-of-Sight Range), nearest first; 1, 1 gives the Adjacent ones.",
        source: "000 § Free Spaces, § Range",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::FreeSpacesInZone),
        name: "free_spaces_in_zone",
        params: &[p("zone", Ty::String, "a zone id of the map (`zone-1`, `central`)")],
        returns: Ty::SpaceList,
        answer: Answer::Host,
        doc: "The Free Spaces of a zone of the HexaDome (a Portal's Deployment Zone).",
        source: "000 § Deployment Zones; 001 § Special Spaces (Portal)",
    },
    ApiFn {
        id: HostFn::Choice(ChoiceFn::ChooseSpace),
        name: "choose_space",
        params: &[p("spaces", Ty::SpaceList, "the valid spaces"), opt("prompt", Ty::String, "what the choice is for")],
        returns: Ty::Space,
        answer: Answer::Host,
        doc: "The player of the Character whose effect runs chooses one space among the candidates (a Decision); nil when there are none.",
        source: "000 § Effects",
    },
    ApiFn {
        id: HostFn::Move(MoveFn::SpendMovementPoints),
        name: "spend_movement_points",
        params: &[TARGET, p("amount", Ty::Integer, "Movement Points")],
        returns: Ty::Boolean,
        answer: Answer::Host,
        doc: "The active Character spends Movement Points it has (Freerun); false, and nothing spent, when it has fewer.",
        source: "000 § Movement Points",
    },
    ApiFn {
        id: HostFn::Change(ChangeFn::DeployMinion),
        name: "deploy_minion",
        params: &[
            p("minion", Ty::String, "the Minion card's id on the Controller's card"),
            p("space", Ty::Space, "a Free Space not Adjacent to an Allied Minion"),
        ],
        returns: Ty::Character,
        answer: Answer::Host,
        doc: "The Character whose effect runs (the Controller, ctx.self) deploys one of its Minions that is to the side; returns the Minion's id (`drone-1`), or nil when all of them are already deployed. An error when the Controller has no such Minion card, the space is not Free, or it is Adjacent to an Allied Minion.",
        source: "002 § Controller",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::DeployableSpaces),
        name: "deployable_spaces",
        params: &[
            p("controller", Ty::Character, "the Controller"),
            p("min", Ty::Integer, "least distance from the Controller"),
            p("max", Ty::Integer, "greatest distance from the Controller"),
        ],
        returns: Ty::SpaceList,
        answer: Answer::Host,
        doc: "The spaces where the Controller may deploy a Minion within that hex distance of its space: Free, and not Adjacent to any Allied Minion; nearest first.",
        source: "002 § Controller",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::Minions),
        name: "minions",
        params: &[p("controller", Ty::Character, "a Character")],
        returns: Ty::CharacterList,
        answer: Answer::Host,
        doc: "The Controller's Minions in the HexaDome.",
        source: "002 § Controller",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::IsMinion),
        name: "is_minion",
        params: &[p("id", Ty::Character, "a Character or Minion")],
        returns: Ty::Boolean,
        answer: Answer::Host,
        doc: "Whether it is a Minion (Minions are Allies or Enemies, but not Characters).",
        source: "002 § Minion",
    },
    ApiFn {
        id: HostFn::Move(MoveFn::DeploySmoke),
        name: "deploy_smoke",
        params: &[p("space", Ty::Space, "the space, Free or not")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "The active Character deploys one of its Smoke tokens on a space; an error when all its tokens are already in the HexaDome. Tokens go at the start of its next Activation.",
        source: "004 § Smoke",
    },
    ApiFn {
        id: HostFn::Move(MoveFn::GainMovementPoints),
        name: "gain_movement_points",
        params: &[TARGET, p("amount", Ty::Integer, "Movement Points")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "The Character gains Movement Points.",
        source: "000 § Movement Points",
    },
    ApiFn {
        id: HostFn::Dice(DiceFn::AddDieToNextRoll),
        name: "add_die_to_next_roll",
        params: &[TARGET, p("die", Ty::Die, "a die id")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "Add a die to the next Roll the active Character makes in this Activation (an Action's Roll or a Disengage); unused at the end of the Activation, it is lost. Nothing for a Character that is not active.",
        source: "000 § Tactics (Take Aim, 000 Turn 2)",
    },
    ApiFn {
        id: HostFn::Change(ChangeFn::GainActionPoints),
        name: "gain_action_points",
        params: &[TARGET, p("amount", Ty::Integer, "Action Points")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "The active Character gains Action Points (nothing for another Character).",
        source: "000 § Action Points",
    },
    ApiFn {
        id: HostFn::Roll(RollFn::AddDie),
        name: "add_die",
        params: &[p("die", Ty::Die, "a die id"), opt("count", Ty::Integer, "how many (default 1)")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "Add dice to the current Roll, within the per-Roll limits.",
        source: "000 § Dice",
    },
    ApiFn {
        id: HostFn::Roll(RollFn::AddSymbol),
        name: "add_symbol",
        params: &[p("symbol", Ty::Symbol, "a symbol"), opt("count", Ty::Integer, "how many (default 1)")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "Add symbols to the current Roll's result, as if rolled.",
        source: "000 § Dice; § Symbols",
    },
    ApiFn {
        id: HostFn::Roll(RollFn::NullifySymbol),
        name: "nullify_symbol",
        params: &[p("side", Ty::Side, "whose Roll"), p("symbol", Ty::Symbol, "the symbol")],
        returns: Ty::Boolean,
        answer: Answer::Host,
        doc: "Nullify one symbol of a Roll's result; false when there was none to Nullify.",
        source: "000 § Nullifying Dice",
    },
    ApiFn {
        id: HostFn::Roll(RollFn::NullifyDie),
        name: "nullify_die",
        params: &[
            p("side", Ty::Side, "whose Roll"),
            p("index", Ty::Integer, "the die's position in that Roll, from 1"),
        ],
        returns: Ty::Boolean,
        answer: Answer::Host,
        doc: "Nullify one die of a Roll: before the dice are rolled it leaves the pool; once rolled, it leaves the Roll with its symbols (an added symbol counts as a die). False when there is no such die or it is Nullified already.",
        source: "000 § Nullifying Dice",
    },
    ApiFn {
        id: HostFn::Change(ChangeFn::ActivationEffect),
        name: "activation_effect",
        params: &[TARGET, p("name", Ty::String, "the effect's name, kebab-case")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "Puts a named effect on a Character \"until the end of this Activation\"; other effects ask for it with has_activation_effect. The engine knows `no-disengage-rolls` (\"you do not make Disengage Rolls\", Barrel through).",
        source: "000 § Tactics",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::HasActivationEffect),
        name: "has_activation_effect",
        params: &[TARGET, p("name", Ty::String, "the effect's name")],
        returns: Ty::Boolean,
        answer: Answer::Host,
        doc: "Whether the named effect is on the Character until the end of this Activation.",
        source: "000 § Tactics",
    },
    ApiFn {
        id: HostFn::Change(ChangeFn::NullifyTactic),
        name: "nullify_tactic",
        params: &[],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "Nullify the Tactic this one answers (a `tactic-played` Tactic, \"No!\"): its whole text is ignored.",
        source: "000 § Nullifying an Effect; 001 § No!",
    },
    ApiFn {
        id: HostFn::Dice(DiceFn::RollDie),
        name: "roll_die",
        params: &[p("die", Ty::Die, "a die id")],
        returns: Ty::StringList,
        answer: Answer::Host,
        doc: "Roll one die that is not a Roll (no Tactics, no Switches, no per-colour limit: Burning) and return the symbols it shows.",
        source: "004 § Burning",
    },
    ApiFn {
        id: HostFn::Dice(DiceFn::PoolDice),
        name: "pool_dice",
        params: &[p("side", Ty::Side, "whose pool")],
        returns: Ty::StringList,
        answer: Answer::Host,
        doc: "The dice of a Roll about to be made (before-roll Tactics and skills), in pool order.",
        source: "000 § Rolls",
    },
    ApiFn {
        id: HostFn::Dice(DiceFn::ReduceRollTo),
        name: "reduce_roll_to",
        params: &[
            p("side", Ty::Side, "whose Roll"),
            p("index", Ty::Integer, "the die's position in pool_dice, from 1"),
        ],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "Before the Roll: that side's Roll is reduced to one of its dice (added symbols go too), and no more dice can be added to it (Atom).",
        source: "002 § LaxMee Tactics (Atom)",
    },
    ApiFn {
        id: HostFn::Change(ChangeFn::GrantAction),
        name: "grant_action",
        params: &[TARGET, p("max_cost", Ty::Integer, "the most Action Points the Action may cost")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "Once this effect has run, the Character may perform one of its Actions (not Move) costing at most max_cost for no Action Points, without becoming the active Character; the effect's player chooses it, or none.",
        source: "002 § Hannibal (Programmed Strategy)",
    },
    ApiFn {
        id: HostFn::Query(QueryFn::TacticsInHand),
        name: "tactics_in_hand",
        params: &[p("of", Ty::Character, "a Character: its player's hand")],
        returns: Ty::Integer,
        answer: Answer::Host,
        doc: "How many Tactics the Character's player holds.",
        source: "000 § Tactics",
    },
    ApiFn {
        id: HostFn::Dice(DiceFn::ForbidSwitches),
        name: "forbid_switches",
        params: &[p("side", Ty::Side, "whose side of the Roll")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "That side cannot activate Switches during this Roll (before the Roll, or in its Switches step for Switches not yet activated).",
        source: "000 § Switches (Access Denied)",
    },
    ApiFn {
        id: HostFn::Roll(RollFn::IgnoreCover),
        name: "ignore_cover",
        params: &[],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "\"Ignore your Target's Cover\": the Target adds no die for Cover to its Roll in this Attack. Only in the `cover` window.",
        source: "000 § Who Does What; § Cover",
    },
    ApiFn {
        id: HostFn::Roll(RollFn::CoverDie),
        name: "cover_die",
        params: &[p("die", Ty::Die, "a die id")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "When you would add a Black die to your Attack Roll for Cover, add this die instead. Only in the `cover` window; no effect when you have no Cover.",
        source: "000 § Cover; Turn 4 (Veteran Sniper)",
    },
    ApiFn {
        id: HostFn::Change(ChangeFn::DrawTactics),
        name: "draw_tactics",
        params: &[opt("count", Ty::Integer, "how many (default 1)")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "The player of the Character whose effect runs draws Tactics.",
        source: "000 § Tactics",
    },
    ApiFn {
        id: HostFn::Change(ChangeFn::DiscardTactics),
        name: "discard_tactics",
        params: &[opt("count", Ty::Integer, "how many (default 1)")],
        returns: Ty::Nil,
        answer: Answer::Host,
        doc: "The player of the Character whose effect runs Discards Tactics of their choice.",
        source: "000 § Discarding",
    },
    ApiFn {
        id: HostFn::Choice(ChoiceFn::ChooseTarget),
        name: "choose_target",
        params: &[
            p("candidates", Ty::CharacterList, "the valid Targets"),
            opt("prompt", Ty::String, "what the choice is for"),
        ],
        returns: Ty::Character,
        answer: Answer::Host,
        doc: "The player of the Character whose effect runs chooses one Target among the candidates (a Decision); nil when there are none.",
        source: "000 § Targets",
    },
    ApiFn {
        id: HostFn::Choice(ChoiceFn::Choose),
        name: "choose",
        params: &[p("options", Ty::StringList, "the options"), opt("prompt", Ty::String, "what the choice is for")],
        returns: Ty::String,
        answer: Answer::Host,
        doc: "The player of the Character whose effect runs chooses one option (a Decision), such as which State to impose.",
        source: "000 § Effects",
    },
];

/// An answer or argument written as JSON (`[q, r]` for a space, `[[q, r], ...]`
/// for a list of spaces), as a value of type `ty`; used by `*.test.lua`
/// answers and `arena script --answer`.
///
/// # Errors
/// When the JSON is not a value of `ty` (objects never are).
pub fn value_from_json(v: &serde_json::Value, ty: Ty) -> Result<ApiValue, String> {
    use serde_json::Value;
    let space = |a: &Value| -> Result<[i64; 2], String> {
        match a.as_array().map(Vec::as_slice) {
            Some([q, r]) => Ok([q.as_i64().ok_or("a space is [q, r]")?, r.as_i64().ok_or("a space is [q, r]")?]),
            _ => Err("a space is [q, r]".into()),
        }
    };
    Ok(match (v, ty) {
        (Value::Null, _) => ApiValue::Nil,
        (Value::Bool(b), Ty::Boolean) => ApiValue::Bool(*b),
        (Value::Number(n), Ty::Integer) => ApiValue::Int(n.as_i64().ok_or("whole numbers only")?),
        (Value::String(s), Ty::String | Ty::Character | Ty::State | Ty::Die | Ty::Symbol | Ty::Side) => {
            ApiValue::Str(s.clone())
        }
        (Value::Array(_), Ty::Space) => ApiValue::Space(space(v)?),
        (Value::Array(a), Ty::SpaceList) => ApiValue::Spaces(a.iter().map(space).collect::<Result<_, _>>()?),
        (Value::Array(a), Ty::CharacterList | Ty::StringList) => ApiValue::List(
            a.iter().map(|x| x.as_str().map(str::to_string).ok_or("lists hold strings")).collect::<Result<_, _>>()?,
        ),
        _ => return Err(format!("not a {}", ty.lua_name())),
    })
}

/// Look a function up by name.
pub fn find(name: &str) -> Option<&'static ApiFn> {
    REGISTRY.iter().find(|f| f.name == name)
}

/// A value passed between Lua and the host.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(untagged)]
pub enum ApiValue {
    /// nil.
    Nil,
    /// A boolean.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A string (ids, symbols, sides, text).
    Str(String),
    /// A space `{q, r}`.
    Space([i64; 2]),
    /// A list of spaces.
    Spaces(Vec<[i64; 2]>),
    /// A list of strings.
    List(Vec<String>),
}

impl std::fmt::Display for ApiValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApiValue::Nil => f.write_str("nil"),
            ApiValue::Bool(b) => write!(f, "{b}"),
            ApiValue::Int(i) => write!(f, "{i}"),
            ApiValue::Str(s) => write!(f, "{s:?}"),
            ApiValue::Space([q, r]) => write!(f, "{{{q}, {r}}}"),
            ApiValue::Spaces(l) => {
                let items: Vec<String> = l.iter().map(|[q, r]| format!("{{{q}, {r}}}")).collect();
                write!(f, "{{{}}}", items.join(", "))
            }
            ApiValue::List(l) => {
                let items: Vec<String> = l.iter().map(|s| format!("{s:?}")).collect();
                write!(f, "{{{}}}", items.join(", "))
            }
        }
    }
}

/// Allowed values of the enumerated string types.
pub fn allowed(ty: Ty) -> Option<&'static [&'static str]> {
    match ty {
        Ty::Symbol => Some(&["success", "block", "special", "critical_success", "critical_block"]),
        Ty::Side => Some(&["own", "opponent"]),
        _ => None,
    }
}

/// Every generated file as (path relative to the repository root, text).
pub fn generated_files() -> Vec<(&'static str, String)> {
    vec![
        ("schemas/arena.d.lua", lua_ls_definitions()),
        ("schemas/arena.d.luau", luau_definitions()),
        ("docs/lua-api.md", markdown()),
    ]
}

const HEADER: &str = "Generated from engine/src/script/api.rs by `arena generate`; do not edit.";

/// The API functions that can return nil, and when. Every other function with
/// a return type always returns a value of it; the definition files mark only
/// these returns optional.
pub const MAY_RETURN_NIL: &[(&str, &str)] = &[
    ("character_card", "when no pack defines the Character"),
    ("state_card", "when no pack defines the State"),
    ("die_faces", "when no pack defines the die"),
    ("active_character", "between Activations"),
    ("attacker", "when no Attack is being made"),
    ("position", "when the Character is not in the HexaDome (Bench, Infirmary)"),
    ("choose_space", "when there is no candidate"),
    ("deploy_minion", "when no Minion can be deployed"),
    ("choose_target", "when there is no candidate"),
    ("choose", "when there is no option"),
];

/// Whether `f` can return nil (see [`MAY_RETURN_NIL`]).
pub fn may_return_nil(f: &ApiFn) -> bool {
    MAY_RETURN_NIL.iter().any(|(n, _)| *n == f.name)
}

/// The fields of `ctx` that can be nil: the others are always set when the
/// game runs an effect (a script test may leave any out).
pub const CTX_MAY_BE_NIL: &[&str] = &["target", "successes"];

/// The `nil ...` of a function that can return nil.
fn nil_when(f: &ApiFn) -> Option<&'static str> {
    MAY_RETURN_NIL.iter().find(|(n, _)| *n == f.name).map(|(_, w)| *w)
}

fn lua_ls_definitions() -> String {
    let mut s = format!("---@meta arena\n-- {HEADER}\n");
    s.push_str(concat!(
        "--\n",
        "-- LuaLS (sumneko): add `schemas` to `Lua.workspace.library`. Effects receive\n",
        "-- `game` and `ctx` as arguments, so type them where they arrive:\n",
        "--\n",
        "--   ---@type Game, Ctx\n",
        "--   local game, ctx = ...            -- an inline effect\n",
        "--\n",
        "--   ---@param game Game\n",
        "--   ---@param ctx Ctx\n",
        "--   local function effect(game, ctx) -- a script file's function\n\n",
    ));
    s.push_str("---@alias CharacterId string A Character's id (\"valkyrie\")\n");
    s.push_str("---@alias StateId string A State's id (\"immobilized\")\n");
    s.push_str("---@alias DieId string A die's id (\"red\")\n");
    s.push_str("---@alias Symbol \"success\"|\"block\"|\"special\"|\"critical_success\"|\"critical_block\"\n");
    s.push_str("---@alias Side \"own\"|\"opponent\"\n");
    s.push_str("---@alias Space integer[] A space {q, r} in axial coordinates\n\n");
    s.push_str("---The context an effect runs in (its second argument, `ctx`).\n---@class Ctx\n");
    for (name, ty, doc) in CTX_FIELDS {
        let q = if CTX_MAY_BE_NIL.contains(name) { "?" } else { "" };
        s.push_str(&format!("---@field {name} {}{q} {doc}\n", ty.lua_name()));
    }
    s.push_str(concat!(
        "\n---An effect: the function a script file returns (or one of the table of\n",
        "---them it returns), called with the game and the context.\n",
        "---@alias Effect fun(game: Game, ctx: Ctx): any\n",
    ));
    s.push_str(
        "\n---The game, passed to every effect as its first argument (`game`). Call with `:`.\n---@class Game\nlocal Game = {}\n\n",
    );
    for f in REGISTRY {
        s.push_str(&format!("---{}", f.doc));
        if !f.source.is_empty() {
            s.push_str(&format!(" ({})", f.source));
        }
        s.push('\n');
        for p in f.params {
            let q = if p.optional { "?" } else { "" };
            s.push_str(&format!("---@param {}{q} {} {}\n", p.name, p.ty.lua_name(), p.doc));
        }
        if f.returns != Ty::Nil {
            match nil_when(f) {
                Some(when) => s.push_str(&format!("---@return {}? # nil {when}\n", f.returns.lua_name())),
                None => s.push_str(&format!("---@return {}\n", f.returns.lua_name())),
            }
        }
        let names: Vec<&str> = f.params.iter().map(|p| p.name).collect();
        s.push_str(&format!("function Game:{}({}) end\n\n", f.name, names.join(", ")));
    }
    s
}

fn luau_definitions() -> String {
    let mut s = format!("-- {HEADER}\n");
    s.push_str(concat!(
        "--\n",
        "-- luau-lsp: list this file in `luau-lsp.types.definitionFiles`; it declares\n",
        "-- only types. Effects receive `game` and `ctx` as arguments, so type them\n",
        "-- where they arrive:\n",
        "--\n",
        "--   local game: Game, ctx: Ctx = ...            -- an inline effect\n",
        "--   return function(game: Game, ctx: Ctx) end   -- a script file\n\n",
    ));
    s.push_str("export type CharacterId = string\nexport type StateId = string\nexport type DieId = string\n");
    s.push_str(
        "export type Symbol = \"success\" | \"block\" | \"special\" | \"critical_success\" | \"critical_block\"\n",
    );
    s.push_str("export type Side = \"own\" | \"opponent\"\nexport type Space = {number}\n\n");
    s.push_str("-- The context an effect runs in (its second argument, `ctx`).\nexport type Ctx = {\n");
    for (name, ty, doc) in CTX_FIELDS {
        let q = if CTX_MAY_BE_NIL.contains(name) { "?" } else { "" };
        s.push_str(&format!("\t{name}: {}{q}, -- {doc}\n", ty.luau_name()));
    }
    s.push_str(
        "}\n\n-- The game, passed to every effect as its first argument (`game`). Call with `:`.\nexport type Game = {\n",
    );
    for f in REGISTRY {
        let params: Vec<String> = f
            .params
            .iter()
            .map(|p| format!("{}: {}{}", p.name, p.ty.luau_name(), if p.optional { "?" } else { "" }))
            .collect();
        let ret = match (f.returns, nil_when(f)) {
            (Ty::Nil, _) => "()".to_string(),
            (ty, Some(_)) => format!("{}?", ty.luau_name()),
            (ty, None) => ty.luau_name().to_string(),
        };
        // Said once: many docs already say when they give nil.
        let when = nil_when(f).filter(|_| !f.doc.contains("nil")).map(|w| format!(" Nil {w}.")).unwrap_or_default();
        s.push_str(&format!(
            "\t-- {}{when}\n\t{}: (self: Game{}{}) -> {ret},\n",
            f.doc,
            f.name,
            if params.is_empty() { "" } else { ", " },
            params.join(", ")
        ));
    }
    s.push_str(concat!(
        "}\n\n-- An effect: the function a script file returns (or one of the table of them\n",
        "-- it returns), called with the game and the context.\n",
        "export type Effect = (game: Game, ctx: Ctx) -> any\n",
    ));
    s
}

fn markdown() -> String {
    let mut s = format!("# The Lua effect API\n\n<!-- {HEADER} -->\n\n");
    s.push_str(
        "Every effect is Luau code that receives two arguments: `game`, the API below\n\
         (call it with `:`), and `ctx`, the context. An inline effect reads them with\n\
         `local game, ctx = ...`; a script file returns a function (or a table of\n\
         functions, chosen by the effect's `function` key) taking `(game, ctx)`.\n\n\
         Effects run sandboxed: only `string`, `table`, `math` and `utf8` and the safe\n\
         base functions exist; globals are read-only (use `local`); `math.random` and\n\
         `print` go through the game; every call has a memory limit and an instruction\n\
         budget. See docs/effects.md.\n\n## `ctx`\n\n| field | type | meaning |\n|---|---|---|\n",
    );
    for (name, ty, doc) in CTX_FIELDS {
        let q = if CTX_MAY_BE_NIL.contains(name) { "?" } else { "" };
        s.push_str(&format!("| `{name}` | `{}{q}` | {doc} |\n", ty.lua_name()));
    }
    s.push_str(concat!(
        "\n`?`: may be nil. In the game, `self`, `card` and `effect` are always set.\n\n",
        "Editors type `game` and `ctx` from `schemas/arena.d.lua` (LuaLS) and\n",
        "`schemas/arena.d.luau` (luau-lsp) with an annotation where they arrive: see\n",
        "docs/effects.md § Editor support. A return type with `?` may be nil; the\n",
        "others never are.\n",
    ));
    s.push_str("\n## `game`\n\n");
    let mut by_answer: BTreeMap<&str, Vec<&ApiFn>> = BTreeMap::new();
    for f in REGISTRY {
        by_answer.entry(if f.answer == Answer::Content { "1" } else { "2" }).or_default().push(f);
    }
    for (key, fns) in by_answer {
        s.push_str(if key == "1" {
            "### Content queries (read-only, from the loaded packs)\n\n"
        } else {
            "### Game queries and verbs (answered by the game)\n\n"
        });
        for f in fns {
            let sig: Vec<String> = f
                .params
                .iter()
                .map(|p| format!("{}{}: {}", p.name, if p.optional { "?" } else { "" }, p.ty.lua_name()))
                .collect();
            let q = if nil_when(f).is_some() { "?" } else { "" };
            s.push_str(&format!(
                "#### `game:{}({})` → `{}{q}`\n\n{}",
                f.name,
                sig.join(", "),
                f.returns.lua_name(),
                f.doc
            ));
            if !f.source.is_empty() {
                s.push_str(&format!(" *{}*", f.source));
            }
            if let Some(when) = nil_when(f).filter(|_| !f.doc.contains("nil")) {
                s.push_str(&format!(" Returns nil {when}."));
            }
            s.push_str("\n\n");
            for p in f.params {
                s.push_str(&format!("- `{}`{}: {}\n", p.name, if p.optional { " (optional)" } else { "" }, p.doc));
            }
            if !f.params.is_empty() {
                s.push('\n');
            }
        }
    }
    s
}

/// The fields of `ctx`: name, type, meaning.
pub const CTX_FIELDS: &[(&str, Ty, &str)] = &[
    ("self", Ty::Character, "the Character whose card the effect is on (for Tactics, the active Character)"),
    ("target", Ty::Character, "the declared Target, when the Action has one"),
    ("card", Ty::String, "the card's reference (`character:valkyrie`, `tactic:ice-wall`)"),
    ("effect", Ty::String, "which effect of the card (`actions[id=frostbite].effects[0]`)"),
    ("successes", Ty::Integer, "Successes in the Roll's result, when the effect follows a Roll"),
];

#[cfg(test)]
mod registry_tests {
    use super::*;

    /// The registry and the host's dispatch are one list: every [`HostFn`]
    /// has exactly one registry entry, named as the id says, and only the
    /// content queries are answered by the runtime. (A function the game
    /// does not implement cannot compile: the host matches every group
    /// without a fallback arm.)
    #[test]
    fn every_host_fn_has_exactly_one_registry_entry() {
        let ids = HostFn::all();
        assert_eq!(ids.len(), REGISTRY.len(), "one registry entry per HostFn");
        for id in ids {
            let entries: Vec<&ApiFn> = REGISTRY.iter().filter(|f| f.id == id).collect();
            assert_eq!(entries.len(), 1, "{}: {} registry entries", id.name(), entries.len());
            assert_eq!(entries[0].name, id.name(), "{id:?}");
            let by_content = matches!(id, HostFn::Content(_));
            assert_eq!(entries[0].answer == Answer::Content, by_content, "{}: who answers it", id.name());
        }
    }
}
