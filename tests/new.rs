//! `arena new`, the scaffolds: each kind of scaffold is a valid entry
//! with every required key, each key commented, and for effects a Lua script
//! with its test; `arena check` passes on the result at once.

use arena_tests::arena;
use serde_json::Value;
use std::path::Path;

/// `arena check PACK --format json`: its summary, after asserting a clean exit
/// with no diagnostic at all.
fn check_clean(pack: &Path) -> Value {
    let run = arena(&["check", pack.to_str().unwrap(), "--format", "json"]);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(run.code, 0, "{}\n{}", run.stderr, run.stdout);
    assert_eq!(doc["diagnostics"].as_array().unwrap().len(), 0, "{}", run.stdout);
    doc["summary"].clone()
}

/// The required keys of a kind of entry, from the generated content schema.
fn required_keys(definition: &str) -> Vec<String> {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas/content.schema.json")).unwrap(),
    )
    .unwrap();
    schema["definitions"][definition]["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap().into())
        .collect()
}

/// Every key of the file's first `[[header]]` table is set, and each has a
/// comment line right above it.
fn assert_commented_keys(text: &str, header: &str, keys: &[String]) {
    let start = text.find(&format!("[[{header}]]\n")).unwrap_or_else(|| panic!("no [[{header}]] in\n{text}"));
    let lines: Vec<&str> = text[start..].lines().collect();
    let table: Vec<&str> = lines.iter().skip(1).take_while(|l| !l.starts_with("[[")).copied().collect();
    for key in keys {
        let at = table
            .iter()
            .position(|l| l.starts_with(&format!("{key} =")))
            .unwrap_or_else(|| panic!("required key `{key}` of [[{header}]] not set in\n{text}"));
        assert!(at > 0 && table[at - 1].starts_with('#'), "`{key}` of [[{header}]] has no comment above it:\n{text}");
    }
    for (i, l) in table.iter().enumerate() {
        if l.contains(" = ") && !l.starts_with('#') {
            assert!(i > 0 && table[i - 1].starts_with('#'), "`{l}` has no comment above it:\n{text}");
        }
    }
}

#[test]
fn every_scaffold_passes_check_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("my-mod");
    let p = pack.to_str().unwrap();

    let run = arena(&["new", "pack", "my-mod", "--pack", p]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let manifest = std::fs::read_to_string(pack.join("pack.toml")).unwrap();
    for key in ["id", "version", "game", "title"] {
        assert!(manifest.contains(&format!("\n{key} = ")), "`{key}` missing:\n{manifest}");
    }
    let before = check_clean(&pack);
    assert!(before["packs"].as_array().unwrap().iter().any(|p| p == "my-mod@0.1.0"), "{before}");

    let run = arena(&["new", "character", "la-bruja", "--pack", p]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for f in ["characters/la-bruja.toml", "scripts/la-bruja.lua", "tests/la-bruja.test.lua"] {
        assert!(run.stdout.contains(f), "{f} not listed:\n{}", run.stdout);
        assert!(pack.join(f).is_file(), "{f} not written");
    }
    let text = std::fs::read_to_string(pack.join("characters/la-bruja.toml")).unwrap();
    assert_commented_keys(&text, "character", &required_keys("Character"));
    assert_commented_keys(&text, "character.switches", &required_keys("Switch"));
    assert!(text.contains("name = \"La Bruja\""), "{text}");
    let after = check_clean(&pack);
    assert_eq!(after["entries"]["character"].as_u64().unwrap(), before["entries"]["character"].as_u64().unwrap() + 1);
    // Its test ran (and passed): one more script test than before.
    assert_eq!(after["script_tests"].as_u64().unwrap(), before["script_tests"].as_u64().unwrap_or(0) + 1, "{after}");

    let run = arena(&["new", "tactic", "hex", "--pack", p, "--character", "la-bruja", "--name", "Hex!"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(pack.join("tactics/hex.toml")).unwrap();
    assert_commented_keys(&text, "tactic", &required_keys("Tactic"));
    assert!(text.contains("name = \"Hex!\"") && text.contains("character = \"la-bruja\""), "{text}");
    let run = arena(&["new", "tactic", "rally", "--pack", p]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let tactics = check_clean(&pack);
    assert_eq!(tactics["script_tests"].as_u64().unwrap(), after["script_tests"].as_u64().unwrap() + 2, "{tactics}");

    let run = arena(&["new", "map", "the-ring", "--pack", p]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(pack.join("maps/the-ring.toml")).unwrap();
    assert_commented_keys(&text, "map", &required_keys("Map"));
    assert_commented_keys(&text, "map.zones", &required_keys("Zone"));
    check_clean(&pack);

    let run = arena(&["new", "scenario", "the-pit", "--pack", p]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(pack.join("scenarios/the-pit.toml")).unwrap();
    assert_commented_keys(&text, "scenario", &required_keys("Scenario"));
    let last = check_clean(&pack);
    assert_eq!(last["entries"]["scenario"].as_u64().unwrap(), before["entries"]["scenario"].as_u64().unwrap() + 1);

    // The new Scenario plays: a game with random teams ends.
    let run = arena(&["sim", "the-pit", "--pack", p, "--pack", "../content/aristeia-core", "--random-teams"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("the-pit"), "{}", run.stdout);
}

/// A printed name with quotes, an apostrophe, a backslash and Lua's long
/// brackets is written escaped into every file of every kind of scaffold (the
/// Lua test files pasted it raw, and did not compile), so each still passes
/// `arena check` at once; a name with a control character (a newline would
/// end the Lua comment it is written into, and make the rest code) is
/// refused with exit 2, before anything is written.
#[test]
fn a_name_with_quotes_or_control_characters_never_breaks_a_scaffold() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("q");
    let p = pack.to_str().unwrap();
    let hostile = r#"Victor "Doom" von's \ ]] [[ Switch"#;
    let run = arena(&["new", "pack", "q", "--pack", p, "--name", hostile]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for (kind, id) in [("character", "doom"), ("tactic", "trick"), ("map", "lair"), ("scenario", "siege")] {
        let run = arena(&["new", kind, id, "--pack", p, "--name", hostile]);
        assert_eq!(run.code, 0, "{kind}: {}", run.stderr);
        check_clean(&pack);
    }
    let run = arena(&["new", "tactic", "ploy", "--pack", p, "--character", "doom", "--name", hostile]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    check_clean(&pack);
    let test = std::fs::read_to_string(pack.join("tests/doom.test.lua")).unwrap();
    assert!(test.contains(r#"name = "Victor \"Doom\" von's \\ ]] [[ Switch's Switch"#), "{test}");
    // A backslash and an `n` are two printable characters: allowed, escaped.
    let run = arena(&["new", "character", "written", "--pack", p, "--name", "Line one\\nos.exit()"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    check_clean(&pack);
    for name in ["Line one\nos.exit()", "Tab\there", "Esc\u{1b}[31m"] {
        let run = arena(&["new", "character", "injected", "--pack", p, "--name", name]);
        assert_eq!(run.code, 2, "{name:?}: {}", run.stdout);
        assert!(run.stderr.contains("holds the control character U+00"), "{}", run.stderr);
        assert!(!pack.join("scripts/injected.lua").exists(), "{name:?}: written anyway");
    }
}

#[test]
fn new_refuses_bad_ids_missing_packs_and_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("p");
    let p = pack.to_str().unwrap();
    let bad = arena(&["new", "character", "La Bruja", "--pack", p]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("not a kebab-case id"), "{}", bad.stderr);
    let nopack = arena(&["new", "character", "la-bruja", "--pack", p]);
    assert_eq!(nopack.code, 2);
    assert!(nopack.stderr.contains("holds no pack.toml"), "{}", nopack.stderr);
    assert!(!pack.exists(), "nothing is written on an error");
    assert_eq!(arena(&["new", "pack", "p", "--pack", p]).code, 0);
    assert_eq!(arena(&["new", "map", "m", "--pack", p]).code, 0);
    // -q: the files are written, nothing is printed.
    let quiet = arena(&["-q", "new", "scenario", "quiet-one", "--pack", p]);
    assert_eq!((quiet.code, quiet.stdout.as_str(), quiet.stderr.as_str()), (0, "", ""));
    assert!(pack.join("scenarios/quiet-one.toml").is_file());
    std::fs::write(pack.join("maps/m.toml"), "# mine\n").unwrap();
    let again = arena(&["new", "map", "m", "--pack", p]);
    assert_eq!(again.code, 2);
    assert!(again.stderr.contains("exists (--force overwrites it)"), "{}", again.stderr);
    assert_eq!(std::fs::read_to_string(pack.join("maps/m.toml")).unwrap(), "# mine\n");
    assert_eq!(arena(&["new", "map", "m", "--pack", p, "--force"]).code, 0);
    assert!(std::fs::read_to_string(pack.join("maps/m.toml")).unwrap().contains("[[map]]"));
}

/// `arena new` never follows a symbolic link: a dangling link at the file's
/// name is refused (it was followed, and the file made outside the pack),
/// with `--force` too, and so is a folder of the pack that is a link, before
/// anything is written.
#[cfg(unix)]
#[test]
fn new_never_follows_a_symlink() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("p");
    let p = pack.to_str().unwrap();
    assert_eq!(arena(&["new", "pack", "p", "--pack", p]).code, 0);
    let outside = dir.path().join("outside.toml");
    std::fs::create_dir_all(pack.join("maps")).unwrap();
    std::os::unix::fs::symlink(&outside, pack.join("maps/m.toml")).unwrap();
    let run = arena(&["new", "map", "m", "--pack", p]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("symbolic link"), "{}", run.stderr);
    assert!(!outside.exists(), "the dangling link was followed out of the pack");
    let forced = arena(&["new", "map", "m", "--pack", p, "--force"]);
    assert_eq!(forced.code, 2, "{}", forced.stderr);
    assert!(!outside.exists(), "--force followed the link");
    // A folder of the pack that leads elsewhere.
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, pack.join("scenarios")).unwrap();
    let run = arena(&["new", "scenario", "s", "--pack", p]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("scenarios is a symbolic link"), "{}", run.stderr);
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0, "a file was written through the folder link");
}

/// `arena new tactic --character C` refuses a Character that neither the
/// pack nor its dependencies define (exit 2, with "did you mean"), before
/// writing a scaffold that would fail `check` with a dangling reference; a
/// Character of a dependency is accepted.
#[test]
fn a_tactic_for_a_character_nobody_defines_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("t");
    let p = pack.to_str().unwrap();
    assert_eq!(arena(&["new", "pack", "t", "--pack", p]).code, 0);
    let run = arena(&["new", "tactic", "trick", "--pack", p, "--character", "maximuss"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("--character `maximuss` is not a Character"), "{}", run.stderr);
    assert!(run.stderr.contains("did you mean `maximus`?"), "{}", run.stderr);
    assert!(!pack.join("tactics/trick.toml").exists(), "written anyway");
    let run = arena(&["new", "tactic", "trick", "--pack", p, "--character", "maximus"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    check_clean(&pack);
}

/// A scaffolded pack carries what editors need, so it works on any machine
/// it is cloned to: its `#:schema` lines name the pack's own copy of this
/// arena's schemas (`.arena/`, hidden from the loader), every scaffolded
/// file is valid against the schema its line names, `.luarc.json` points
/// the Lua language server at `.arena/arena.d.lua`, and the scaffolded
/// scripts say their arguments' types. A second `arena new` keeps an
/// edited `.luarc.json`.
#[test]
fn a_scaffolded_pack_carries_its_schemas_and_lua_types_for_editors() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("my-mod");
    let p = pack.to_str().unwrap();
    for args in [
        vec!["new", "pack", "my-mod", "--pack", p],
        vec!["new", "character", "la-bruja", "--pack", p],
        vec!["new", "tactic", "sleight", "--pack", p],
        vec!["new", "map", "arena-b", "--pack", p],
        vec!["new", "scenario", "showdown", "--pack", p],
    ] {
        let run = arena(&args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    }
    for (file, text) in arena_engine::schema::generated_files() {
        assert_eq!(std::fs::read_to_string(pack.join(".arena").join(file)).unwrap(), text, "{file}");
    }
    let mut checked = 0;
    for rel in [
        "pack.toml",
        "characters/la-bruja.toml",
        "tactics/sleight.toml",
        "maps/arena-b.toml",
        "scenarios/showdown.toml",
    ] {
        let path = pack.join(rel);
        let text = std::fs::read_to_string(&path).unwrap();
        let line = text.lines().next().unwrap();
        let schema = line.strip_prefix("#:schema ").unwrap_or_else(|| panic!("{rel}: {line}"));
        assert!(schema.starts_with("../.arena/") || schema.starts_with(".arena/"), "{rel}: {schema}");
        let schema: Value =
            serde_json::from_str(&std::fs::read_to_string(path.parent().unwrap().join(schema)).unwrap()).unwrap();
        let doc: Value = toml::from_str(&text).unwrap();
        let validator = jsonschema::draft7::new(&schema).unwrap();
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{rel}: {errors:#?}");
        checked += 1;
    }
    assert_eq!(checked, 5);
    let luarc: Value = serde_json::from_str(&std::fs::read_to_string(pack.join(".luarc.json")).unwrap()).unwrap();
    assert_eq!(luarc["workspace.library"], serde_json::json!([".arena"]));
    let types = std::fs::read_to_string(pack.join(".arena/arena.d.lua")).unwrap();
    assert!(types.contains("---@class Game") && types.contains("---@class Ctx"));
    for script in ["scripts/la-bruja.lua", "scripts/sleight.lua"] {
        let text = std::fs::read_to_string(pack.join(script)).unwrap();
        assert!(text.contains("---@param game Game\n---@param ctx Ctx\nreturn function(game, ctx)"), "{text}");
    }
    check_clean(&pack);
    // A `.arena` that is not a folder: the scaffold is written, the
    // editors' files are a warning (one line), the exit 0.
    std::fs::remove_dir_all(pack.join(".arena")).unwrap();
    std::fs::write(pack.join(".arena"), "not a folder\n").unwrap();
    let run = arena(&["new", "character", "la-sombra", "--pack", p]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(pack.join("characters/la-sombra.toml").is_file());
    assert_eq!(run.stderr.lines().filter(|l| l.starts_with("warning: ")).count(), 1, "{}", run.stderr);
    std::fs::remove_file(pack.join(".arena")).unwrap();
    // An edited .luarc.json is the modder's: kept.
    std::fs::write(pack.join(".luarc.json"), "{}\n").unwrap();
    let run = arena(&["new", "character", "el-mago", "--pack", p]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(pack.join(".luarc.json")).unwrap(), "{}\n");
}
