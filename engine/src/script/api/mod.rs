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
//!
//! `registry.rs` holds the table ([`REGISTRY`]), `generate.rs` the generated
//! files; the types, the function ids ([`HostFn`]) and values are here.

mod generate;
mod registry;
mod registry_scenario;

pub use generate::{CTX_FIELDS, CTX_MAY_BE_NIL, MAY_RETURN_NIL, generated_files, may_return_nil};
pub use registry::REGISTRY;

use crate::model::Id;
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
    /// A player's number: 1, 2, ... (the narrative's "player 1").
    Player,
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
            Ty::Player => "Player",
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
        HasRoundEffect = "has_round_effect",
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
        RoundEffect = "round_effect",
        GrantAction = "grant_action",
        DrawTactics = "draw_tactics",
        DiscardTactics = "discard_tactics",
        DiscardTacticsAtRandom = "discard_tactics_at_random",
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
    /// Scenario rules: Rounds, players, zones, Victory Points, counters, the end of the game (docs/scenarios.md).
    Scenario(ScenarioFn) {
        Round = "round",
        PlayerCount = "player_count",
        PlayerOf = "player_of",
        CharactersOf = "characters_of",
        Underdog = "underdog",
        PrimeTime = "prime_time",
        VictoryPoints = "victory_points",
        VictoryPointsScored = "victory_points_scored",
        Frags = "frags",
        FragsEarned = "frags_earned",
        GainVictoryPoints = "gain_victory_points",
        Zones = "zones",
        AdjacentZones = "adjacent_zones",
        ZoneSpaces = "zone_spaces",
        CharactersInZone = "characters_in_zone",
        ScoringZones = "scoring_zones",
        SetScoringZones = "set_scoring_zones",
        ChooseZone = "choose_zone",
        ChooseSpaceFor = "choose_space_for",
        Counter = "counter",
        AddCounter = "add_counter",
        EndGame = "end_game",
    }
    /// Invictus (`003`): the API of god abilities, Boosts and Reinforcements,
    /// registered only in Invictus games (`crate::invictus::api::REGISTRY`).
    Invictus(InvictusFn) {
        Health = "health",
        MaxHealth = "max_health",
        Stamina = "stamina",
        Enemies = "enemies",
        Allies = "allies",
        InRange = "in_range",
        Hand = "hand",
        Attacker = "attacker",
        Defender = "defender",
        AttackKind = "attack_kind",
        AttackDamage = "attack_damage",
        DealDamage = "deal_damage",
        Heal = "heal",
        GainStamina = "gain_stamina",
        Draw = "draw",
        DiscardEnergyType = "discard_energy_type",
        FlipBoost = "flip_boost",
        AddAttackDamage = "add_attack_damage",
        FailAttack = "fail_attack",
        NegatePreviousBoost = "negate_previous_boost",
        Block = "block",
        InactivateToken = "inactivate_token",
        ActivateToken = "activate_token",
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
    /// For an integer: the values allowed, inclusive, and what they count
    /// (`"Victory Points"`): a value outside is refused with a message that
    /// says the range ("Victory Points must be 0..=100, got 900").
    pub range: Option<(i64, i64, &'static str)>,
}

impl Param {
    /// The same parameter, allowing only `min..=max` of `what`.
    pub const fn range(self, min: i64, max: i64, what: &'static str) -> Param {
        Param { range: Some((min, max, what)), ..self }
    }
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
        (Value::Number(n), Ty::Integer | Ty::Player) => ApiValue::Int(n.as_i64().ok_or("whole numbers only")?),
        (Value::String(s), Ty::String | Ty::Character | Ty::State | Ty::Die | Ty::Symbol | Ty::Side) => {
            ApiValue::Str(s.as_str().into())
        }
        (Value::Array(_), Ty::Space) => ApiValue::Space(space(v)?),
        (Value::Array(a), Ty::SpaceList) => ApiValue::Spaces(a.iter().map(space).collect::<Result<_, _>>()?),
        (Value::Array(a), Ty::CharacterList | Ty::StringList) => ApiValue::List(
            a.iter().map(|x| x.as_str().map(Id::from).ok_or("lists hold strings")).collect::<Result<_, _>>()?,
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
    Str(Id),
    /// A space `{q, r}`.
    Space([i64; 2]),
    /// A list of spaces.
    Spaces(Vec<[i64; 2]>),
    /// A list of strings.
    List(Vec<Id>),
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
        // Invictus functions are in the Invictus registry (`crate::invictus::api`).
        let ids: Vec<HostFn> = HostFn::all().into_iter().filter(|f| !matches!(f, HostFn::Invictus(_))).collect();
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
