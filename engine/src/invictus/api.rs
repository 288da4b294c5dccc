//! The Invictus Lua API: the `game` object of god abilities, Boosts,
//! Reinforcements and Artifacts' Lua, one registry like Aristeia's
//! (`crate::script::api`), registered only in Invictus games
//! (`Runtime::with_api(.., REGISTRY)`). The ids are
//! [`crate::script::api::InvictusFn`] (declared with `host_fns!`) plus the
//! shared `random` and `log`. [`generated_files`] writes
//! `docs/invictus-lua-api.md` and `schemas/invictus.d.lua`; a test fails when
//! they are stale.
//!
//! Players are named by their god's id (`"athena"`): a god is dealt to one
//! player at most.

use crate::script::api::{Answer, ApiFn, ChanceFn, HostFn, InvictusFn as F, Param, Ty};

const fn p(name: &'static str, ty: Ty, doc: &'static str) -> Param {
    Param { name, ty, optional: false, doc, range: None }
}

const fn opt(name: &'static str, ty: Ty, doc: &'static str) -> Param {
    Param { name, ty, optional: true, doc, range: None }
}

const GOD: Param = p("god", Ty::String, "a player, by their god's id (`\"athena\"`)");

const fn host(
    id: F,
    name: &'static str,
    params: &'static [Param],
    returns: Ty,
    doc: &'static str,
    source: &'static str,
) -> ApiFn {
    ApiFn { id: HostFn::Invictus(id), name, params, returns, answer: Answer::Host, doc, source }
}

/// Every function of the Invictus API, in documentation order.
pub const REGISTRY: &[ApiFn] = &[
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
    host(F::Health, "health", &[GOD], Ty::Integer, "The player's HP now.", "003 § Character Boards"),
    host(F::MaxHealth, "max_health", &[GOD], Ty::Integer, "The player's maximum HP.", "003 § Character Boards"),
    host(F::Stamina, "stamina", &[GOD], Ty::Integer, "The player's Stamina left.", "003 § Stamina"),
    host(
        F::Enemies,
        "enemies",
        &[GOD],
        Ty::StringList,
        "The player's enemies not defeated, in seat order.",
        "003 § Team Assignment",
    ),
    host(
        F::Allies,
        "allies",
        &[GOD],
        Ty::StringList,
        "The player's allies not defeated, not the player, in seat order.",
        "003 § Team Assignment",
    ),
    host(
        F::InRange,
        "in_range",
        &[p("from", Ty::String, "the attacking player's god"), p("to", Ty::String, "the other player's god")],
        Ty::Boolean,
        "Whether `to` is within `from`'s Range around the ring of players not defeated.",
        "003 § Range",
    ),
    host(
        F::Hand,
        "hand",
        &[GOD],
        Ty::StringList,
        "The ids of the Artifacts (and counterfeits) in the player's hand.",
        "003 § During Your Turn",
    ),
    host(
        F::Attacker,
        "attacker",
        &[],
        Ty::String,
        "The attacker of the attack being declared or countered, or nil.",
        "003 § Attacking and Countering",
    ),
    host(
        F::Defender,
        "defender",
        &[],
        Ty::String,
        "The attacked player of the attack being declared or countered, or nil.",
        "003 § Attacking and Countering",
    ),
    host(
        F::AttackKind,
        "attack_kind",
        &[],
        Ty::String,
        "`\"standard\"` or `\"ability\"` for the attack being declared or countered, or nil.",
        "003 § Attack the Enemy",
    ),
    host(
        F::AttackDamage,
        "attack_damage",
        &[],
        Ty::Integer,
        "The damage the attack would deal as things stand (after bonuses, failures and blocks); 0 with no attack.",
        "003 § Attacking and Countering",
    ),
    host(
        F::DealDamage,
        "deal_damage",
        &[GOD, p("amount", Ty::Integer, "HP of damage, 0 to 1000")],
        Ty::Nil,
        "Damage outside an attack: no counter blocks it. A player it takes to 0 HP is revived or defeated once the effect has run.",
        "003 § Revival and Defeat",
    ),
    host(
        F::Heal,
        "heal",
        &[GOD, p("amount", Ty::Integer, "HP, 0 to 1000")],
        Ty::Nil,
        "Heal the player, never above their maximum HP.",
        "003 § Heal Yourself or Allies",
    ),
    host(
        F::GainStamina,
        "gain_stamina",
        &[GOD, p("amount", Ty::Integer, "Stamina, 0 to 1000")],
        Ty::Nil,
        "Add Stamina, never above 24.",
        "003 § Artifact Card Reference",
    ),
    host(
        F::Draw,
        "draw",
        &[GOD, p("count", Ty::Integer, "cards, at most 20")],
        Ty::Integer,
        "Draw cards from the player's draw pile (shuffling the discard pile when it runs out); returns how many were drawn.",
        "003 § Completing Your Turn",
    ),
    host(
        F::DiscardEnergyType,
        "discard_energy_type",
        &[GOD, p("energy_type", Ty::String, "`prisma`, `fire`, `wild`, `life`, `aqua` or `none`")],
        Ty::Integer,
        "The player discards every Artifact of that Energy type from their hand (Olympian Slash); returns how many.",
        "003 § Boosts",
    ),
    host(
        F::FlipBoost,
        "flip_boost",
        &[],
        Ty::String,
        "Flip the top Boost for probability and return its colour (`omega`, `sigma`, `phi`, `delta`); the effect's player chooses a Wild Boost's colour. Exposing the Apocalypse sets it off.",
        "003 § Boosts",
    ),
    host(
        F::AddAttackDamage,
        "add_attack_damage",
        &[p("amount", Ty::Integer, "damage, -1000 to 1000")],
        Ty::Nil,
        "The attack being declared or countered deals this much more (Godlike: 20). Undone if this Boost is negated.",
        "003 § Attacking and Countering",
    ),
    host(
        F::FailAttack,
        "fail_attack",
        &[],
        Ty::Boolean,
        "A character ability's attack fails: 0 damage and none of its further effects (Aegis Perfected); returns false, doing nothing, for a standard attack.",
        "003 § Attacking and Countering",
    ),
    host(
        F::NegatePreviousBoost,
        "negate_previous_boost",
        &[],
        Ty::Boolean,
        "Fully negate the latest Boost played with or against the attack before this one (Server Down); returns false if there is none.",
        "003 § Attacking and Countering",
    ),
    host(
        F::Block,
        "block",
        &[p("amount", Ty::Integer, "damage, 0 to 1000")],
        Ty::Nil,
        "Block this much of the attack's damage (a counter).",
        "003 § Counters",
    ),
    host(
        F::InactivateToken,
        "inactivate_token",
        &[GOD, p("skill", Ty::String, "`stamina`, `range` or `accuracy`")],
        Ty::Boolean,
        "Flip the player's last active token of the skill to its black side; returns false if none was active.",
        "003 § Tokens: Active vs Inactive",
    ),
    host(
        F::ActivateToken,
        "activate_token",
        &[GOD, p("skill", Ty::String, "`stamina`, `range` or `accuracy`")],
        Ty::Boolean,
        "Flip the player's last inactive token of the skill back; returns false if none was inactive.",
        "003 § Tokens: Active vs Inactive",
    ),
    host(
        F::Choose,
        "choose",
        &[p("options", Ty::StringList, "1 to 64 options"), opt("prompt", Ty::String, "the question")],
        Ty::String,
        "The effect's player chooses one of the options (a decision); nil for an empty list.",
        "",
    ),
];

/// Look an Invictus API function up by name.
pub fn find(name: &str) -> Option<&'static ApiFn> {
    REGISTRY.iter().find(|f| f.name == name)
}

const HEADER: &str = "Generated from engine/src/invictus/api.rs by `arena generate`; do not edit.";

/// The generated files: `docs/invictus-lua-api.md` and `schemas/invictus.d.lua`.
pub fn generated_files() -> Vec<(&'static str, String)> {
    vec![("docs/invictus-lua-api.md", markdown()), ("schemas/invictus.d.lua", lua_ls())]
}

fn signature(f: &ApiFn) -> String {
    f.params
        .iter()
        .map(|p| format!("{}{}: {}", p.name, if p.optional { "?" } else { "" }, p.ty.lua_name()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn markdown() -> String {
    let mut s = format!("# The Invictus Lua API\n\n<!-- {HEADER} -->\n\n");
    s.push_str(
        "The Lua of Invictus god abilities, Boosts, Reinforcements and Artifacts\n\
         receives `game`, the API below (call it with `:`), and `ctx`: `ctx.self` is\n\
         the god id of the player whose card it is, `ctx.target` the god id of the\n\
         ability's target (or, for a counter, of the other side of the attack),\n\
         `ctx.card` and `ctx.effect` name the card and effect. The sandbox is the\n\
         same as Aristeia's (docs/effects.md). How to write a god, a Boost or a\n\
         Reinforcement: docs/invictus.md.\n\n## `game`\n\n",
    );
    for f in REGISTRY {
        s.push_str(&format!("#### `game:{}({})` → `{}`\n\n{}", f.name, signature(f), f.returns.lua_name(), f.doc));
        if !f.source.is_empty() {
            s.push_str(&format!(" *{}*", f.source));
        }
        s.push_str("\n\n");
        for p in f.params {
            s.push_str(&format!("- `{}`{}: {}\n", p.name, if p.optional { " (optional)" } else { "" }, p.doc));
        }
        if !f.params.is_empty() {
            s.push('\n');
        }
    }
    s
}

fn lua_ls() -> String {
    let mut s = format!("---@meta\n-- {HEADER}\n\n---@class InvictusGame\nlocal InvictusGame = {{}}\n\n");
    for f in REGISTRY {
        s.push_str(&format!("--- {}\n", f.doc.replace('\n', " ")));
        for p in f.params {
            s.push_str(&format!(
                "---@param {}{} {} {}\n",
                p.name,
                if p.optional { "?" } else { "" },
                p.ty.lua_name(),
                p.doc
            ));
        }
        if f.returns != Ty::Nil {
            s.push_str(&format!("---@return {}\n", f.returns.lua_name()));
        }
        let names: Vec<&str> = f.params.iter().map(|p| p.name).collect();
        s.push_str(&format!("function InvictusGame:{}({}) end\n\n", f.name, names.join(", ")));
    }
    s.push_str(
        "---@class InvictusCtx\n---@field self string the god id of the card's player\n\
         ---@field target string? the god id of the target\n---@field card string the card (`god:athena`)\n\
         ---@field effect string which effect of the card\n",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every Invictus function id has exactly one entry, named as the id says.
    #[test]
    fn every_invictus_fn_has_exactly_one_registry_entry() {
        for id in F::ALL {
            let entries: Vec<&ApiFn> = REGISTRY.iter().filter(|f| f.id == HostFn::Invictus(*id)).collect();
            assert_eq!(entries.len(), 1, "{}", id.name());
            assert_eq!(entries[0].name, id.name());
        }
        assert_eq!(REGISTRY.len(), F::ALL.len() + 2, "the Invictus functions plus random and log");
    }
}
