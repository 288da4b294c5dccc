//! Diagnostics that say how to fix them: an unknown die names the valid ones,
//! a blank die face may be written `blank`, and `lock-mismatch` names the pack,
//! its folder and the lockfile line.

use arena_tests::{arena, tests_dir};
use serde_json::Value;
use std::path::Path;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const MANIFEST: &str = "id = \"greys\"\nversion = \"1.0.0\"\ngame = \"aristeia\"\ntitle = \"Grey dice\"\n";

#[test]
fn a_blank_face_may_be_written_blank() {
    let tmp = tempfile::tempdir().unwrap();
    let pack = tmp.path().join("greys");
    write(&pack.join("pack.toml"), MANIFEST);
    write(
        &pack.join("dice.toml"),
        "[[die]]\nid = \"grey\"\nname = \"Grey die\"\nfaces = [[\"success\"], \"blank\", [], [\"block\"], \"blank\", [\"special\"]]\nmax_per_roll = 2\n",
    );
    let p = pack.to_str().unwrap();
    let run = arena(&["check", p]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The engine reads both spellings of a blank face as a face with no symbol.
    let loaded = arena_engine::load::load(std::slice::from_ref(&pack), &arena_engine::load::Options::default());
    let faces = &loaded.content.dice["grey"].value.faces;
    assert_eq!(faces.iter().map(Vec::len).collect::<Vec<_>>(), [1, 0, 0, 1, 0, 1]);

    // A misspelt blank is an error that offers `blank`.
    write(
        &pack.join("dice.toml"),
        "[[die]]\nid = \"grey\"\nname = \"Grey die\"\nfaces = [[\"success\"], \"blnk\", [], [\"block\"], \"blank\", [\"special\"]]\nmax_per_roll = 2\n",
    );
    let run = arena(&["check", p, "--format", "json"]);
    assert_eq!(run.code, 1);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "invalid-value", "{d}");
    assert_eq!(d["location"]["line"], 4, "{d}");
    assert_eq!(d["help"], "did you mean \"blank\"?", "{d}");
}

#[test]
fn an_unknown_die_lists_the_loaded_dice() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let pack = tmp.path().join("purple");
    write(
        &pack.join("pack.toml"),
        "id = \"purple\"\nversion = \"1.0.0\"\ngame = \"aristeia\"\ntitle = \"Purple\"\n[dependencies]\naristeia-core = \"^1.0\"\n",
    );
    write(
        &pack.join("c.toml"),
        "[[character]]\nid = \"violet\"\nname = \"Violet\"\ninitiative = 1\nspeed = 1\nenergy = 1\nhit_points = 1\n\
         defense = { dice = [\"green\"] }\nbrawn = { dice = [\"purple\"] }\nagility = { dice = [\"orange\"] }\n",
    );
    let run = arena(&["check", pack.to_str().unwrap(), "../content/aristeia-core", "--format", "json"]);
    assert_eq!(run.code, 1);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let d = v["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "dangling-reference").unwrap();
    assert_eq!(d["message"], "no loaded pack defines `die:purple`");
    assert_eq!(d["notes"][0], "the loaded dice are: black, blue, green, orange, red, yellow", "{d}");
}

#[test]
fn lock_mismatch_names_the_pack_its_folder_and_the_lockfile_line() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tests_dir().join("fixtures/good/worked-example/duelist");
    let dst = tmp.path().join("packs/duelist");
    for entry in ["pack.toml", "characters/duelist.toml", "scripts/en-garde.lua"] {
        write(&dst.join(entry), &std::fs::read_to_string(src.join(entry)).unwrap());
    }
    let core = tests_dir().join("fixtures/base/aristeia-core");
    let lock = tmp.path().join("arena.lock");
    let (p, c, l) = (dst.to_str().unwrap(), core.to_str().unwrap(), lock.to_str().unwrap());
    assert_eq!(arena(&["lock", p, c, "--output", l]).code, 0);
    let text = std::fs::read_to_string(&lock).unwrap();
    let duelist_line = text.lines().position(|l| l == "id = \"duelist\"").unwrap() + 1;

    // One file of the duelist pack changes.
    let file = dst.join("characters/duelist.toml");
    write(&file, &std::fs::read_to_string(&file).unwrap().replace("speed = 4", "speed = 5"));
    let run = arena(&["check", p, c, "--locked", "--lockfile", l, "--format", "json"]);
    assert_eq!(run.code, 1);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let found: Vec<&Value> =
        v["diagnostics"].as_array().unwrap().iter().filter(|d| d["code"] == "lock-mismatch").collect();
    assert_eq!(found.len(), 1, "{}", run.stdout);
    let message = found[0]["message"].as_str().unwrap();
    assert!(message.contains("pack `duelist`") && message.contains(p), "{message}");
    assert_eq!(found[0]["location"]["file"], l);
    assert_eq!(found[0]["location"]["line"], duelist_line);

    // A locked pack left out (named at its line of the lockfile), and a loaded
    // pack not locked.
    let run = arena(&["check", c, "--locked", "--lockfile", l, "--format", "json"]);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let found: Vec<&Value> =
        v["diagnostics"].as_array().unwrap().iter().filter(|d| d["code"] == "lock-mismatch").collect();
    assert_eq!(found.len(), 1, "{}", run.stdout);
    assert_eq!(found[0]["message"], format!("pack `duelist` is in `{l}` but not loaded"));
    assert_eq!(found[0]["location"]["line"], duelist_line);
    // The lockfile pins what it lists: a loaded pack it does not list (a
    // mod's own, under test) is checked as it is, and a note with --strict.
    assert_eq!(arena(&["lock", c, "--output", l]).code, 0);
    let run = arena(&["check", p, c, "--locked", "--lockfile", l, "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let run = arena(&["check", p, c, "--locked", "--lockfile", l, "--format", "json", "--strict"]);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let found: Vec<&Value> =
        v["diagnostics"].as_array().unwrap().iter().filter(|d| d["code"] == "lock-mismatch").collect();
    assert_eq!(found.len(), 1, "{}", run.stdout);
    assert_eq!(found[0]["severity"], "note", "{}", run.stdout);
    assert_eq!(found[0]["message"], format!("pack `duelist` ({p}) is not pinned by `{l}`: checked as it is"));
}
