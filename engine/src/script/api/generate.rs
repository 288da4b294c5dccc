//! The generated files: LuaLS and Luau definitions (`schemas/arena.d.lua`, `schemas/arena.d.luau`) and `docs/lua-api.md`, from the registry.

use super::*;

/// Every generated file as (path relative to the repository root, text).
pub fn generated_files() -> Vec<(&'static str, String)> {
    vec![
        ("schemas/arena.d.lua", lua_ls_definitions()),
        ("schemas/arena.d.luau", luau_definitions()),
        ("docs/lua-api.md", markdown()),
    ]
}

pub(super) const HEADER: &str = "Generated from engine/src/script/api/ by `arena generate`; do not edit.";

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
    ("choose_zone", "when there is no zone to choose"),
    ("choose_space_for", "when there is no candidate"),
];

/// Whether `f` can return nil (see [`MAY_RETURN_NIL`]).
pub fn may_return_nil(f: &ApiFn) -> bool {
    MAY_RETURN_NIL.iter().any(|(n, _)| *n == f.name)
}

/// The fields of `ctx` that can be nil: the others are always set when the
/// game runs an effect (a script test may leave any out).
pub const CTX_MAY_BE_NIL: &[&str] = &["target", "successes", "player", "zone", "state"];

/// The `nil ...` of a function that can return nil.
pub(super) fn nil_when(f: &ApiFn) -> Option<&'static str> {
    MAY_RETURN_NIL.iter().find(|(n, _)| *n == f.name).map(|(_, w)| *w)
}

pub(super) fn lua_ls_definitions() -> String {
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
    s.push_str("---@alias Player integer A player's number (1, 2, ...), as the narrative names them\n");
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

pub(super) fn luau_definitions() -> String {
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
    s.push_str("export type CharacterId = string\nexport type StateId = string\nexport type DieId = string\nexport type Player = number\n");
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

pub(super) fn markdown() -> String {
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
    (
        "player",
        Ty::Player,
        "a Scenario rule's player: the Character's player, or the player credited with a Frag (docs/scenarios.md)",
    ),
    ("zone", Ty::String, "the zone a Character entered, for a Scenario rule run at `zone-entered`"),
    ("state", Ty::State, "the State imposed, for a Scenario rule run at `state-imposed`"),
];
