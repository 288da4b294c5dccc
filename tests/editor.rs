//! Lua editor support: both definition files type `game`
//! and `ctx`, mark optional exactly the returns that can be nil, and the
//! annotations docs/effects.md shows run in the sandbox as written; inline-Lua
//! errors name lines of the TOML file.

use arena_engine::script::api::{self, REGISTRY, Ty};
use arena_tests::{arena, tests_dir};
use serde_json::Value;

fn read(rel: &str) -> String {
    std::fs::read_to_string(tests_dir().join("..").join(rel)).unwrap()
}

#[test]
fn both_definition_files_are_valid_luau_and_declare_game_ctx_and_effect() {
    for file in ["schemas/arena.d.lua", "schemas/arena.d.luau"] {
        let text = read(file);
        arena_engine::script::compile(&text).unwrap_or_else(|e| panic!("{file} does not compile: {e:?}"));
        for name in ["Game", "Ctx", "Effect"] {
            let declared = text.contains(&format!("---@class {name}\n"))
                || text.contains(&format!("---@alias {name} "))
                || text.contains(&format!("export type {name} = "));
            assert!(declared, "{file} does not declare {name}");
        }
    }
    // A definitions file holds declarations only (luau-lsp refuses statements).
    assert!(!read("schemas/arena.d.luau").contains("\nreturn"), "arena.d.luau has a statement");
}

#[test]
fn only_returns_that_can_be_nil_are_optional() {
    let lua = read("schemas/arena.d.lua");
    let luau = read("schemas/arena.d.luau");
    for (name, _) in api::MAY_RETURN_NIL {
        let f = api::find(name).unwrap_or_else(|| panic!("`{name}` is not an API function"));
        assert_ne!(f.returns, Ty::Nil, "`{name}` returns nothing");
    }
    let mut optional = 0;
    for f in REGISTRY {
        let nil = api::may_return_nil(f);
        // The docs that say a function gives nil and the list agree.
        if f.doc.contains("or nil") || f.doc.contains("nil when") {
            assert!(nil, "`{}` says it may give nil but is not in MAY_RETURN_NIL", f.name);
        }
        if f.returns == Ty::Nil {
            continue;
        }
        // Luau: `name: (self: Game, ...) -> T?` only for those.
        let line = luau
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{}: (self: Game", f.name)))
            .unwrap_or_else(|| panic!("`{}` missing from arena.d.luau", f.name));
        assert_eq!(line.trim_end().ends_with("?,"), nil, "arena.d.luau: {line}");
        // LuaLS: the `---@return` just above `function Game:name(`.
        let at = lua.find(&format!("function Game:{}(", f.name)).unwrap();
        let ret = lua[..at].lines().last().unwrap();
        assert!(ret.starts_with("---@return "), "`{}`: {ret}", f.name);
        let ty = ret.trim_start_matches("---@return ").split_whitespace().next().unwrap();
        assert_eq!(ty.ends_with('?'), nil, "arena.d.lua: {ret}");
        optional += usize::from(nil);
    }
    assert_eq!(optional, api::MAY_RETURN_NIL.len());
    // ctx: self, card and effect are always set; target and successes may be nil.
    assert!(luau.contains("\tself: CharacterId, --") && luau.contains("\ttarget: CharacterId?, --"));
    assert!(lua.contains("---@field self CharacterId ") && lua.contains("---@field successes integer? "));
}

/// The code blocks of docs/effects.md § Editor support, each run by `arena
/// script` in the sandbox, annotations and all.
#[test]
fn the_documented_annotations_run_in_the_sandbox() {
    let docs = read("docs/effects.md");
    let section = &docs[docs.find("## Editor support").unwrap()..docs.find("## The sandbox").unwrap()];
    let blocks: Vec<&str> = section.split("```lua\n").skip(1).map(|b| b.split("```").next().unwrap()).collect();
    assert_eq!(blocks.len(), 4, "{section}");
    let dir = tempfile::tempdir().unwrap();
    let expected: [(&[&str], &str); 4] = [
        (&["--answer", "enemies_within=[\"gata\"]"], "impose_state(\"gata\", \"immobilized\", nil)"),
        (&["--function", "regeneration"], "heal(\"valkyrie\", 1)"),
        (&["--target", "gata", "--answer", "position=[2,-1]"], "log(\"the Target is at 2, -1\")"),
        (&["--function", "regeneration"], "heal(\"valkyrie\", 1)"),
    ];
    for (i, (block, (args, call))) in blocks.iter().zip(expected).enumerate() {
        let file = dir.path().join(format!("block{i}.lua"));
        std::fs::write(&file, block).unwrap();
        let mut argv = vec!["script", file.to_str().unwrap(), "--self", "valkyrie", "--format", "json"];
        argv.extend(args);
        let run = arena(&argv);
        assert_eq!(run.code, 0, "block {i}:\n{block}\n{}{}", run.stdout, run.stderr);
        let v: Value = serde_json::from_str(&run.stdout).unwrap();
        let calls: Vec<&str> = v["calls"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        assert!(calls.contains(&call), "block {i}: {calls:?}");
    }
}

#[test]
fn inline_lua_errors_count_lines_in_the_toml_file() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("p");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(pack.join("pack.toml"), "id = \"p\"\nversion = \"1.0.0\"\ngame = \"aristeia\"\ntitle = \"P\"\n")
        .unwrap();
    // The call opened on line 8 of the file (line 2 of the chunk) is never closed.
    let toml = "[[tactic]]\nid = \"oops\"\nname = \"Oops\"\ntiming = \"before-roll\"\n\
                timing_text = \"Before making a Roll.\"\neffect.text = \"Add a Yellow die.\"\n\
                effect.lua = '''\nlocal game, ctx = ...\ngame:add_die(\"yellow\"\n'''\n";
    std::fs::write(pack.join("t.toml"), toml).unwrap();
    let run = arena(&["check", pack.to_str().unwrap(), "--format", "json"]);
    assert_eq!(run.code, 1);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "script-compile", "{d}");
    let message = d["message"].as_str().unwrap();
    assert!(message.contains("at line 9)"), "the message counts chunk lines: {message}");
    assert_eq!(toml.lines().nth(8), Some("game:add_die(\"yellow\""));
}
