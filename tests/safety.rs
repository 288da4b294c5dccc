//! Data safety (`arena check`, docs/diagnostics.md): what a pack refers to that is not there, and why.

use arena_engine::diag::Code;
use arena_engine::load;

fn pack(dir: &std::path::Path, name: &str, manifest_extra: &str, content: &str) -> std::path::PathBuf {
    let root = dir.join(name);
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("pack.toml"),
        format!("id = \"{name}\"\nversion = \"1.0.0\"\ngame = \"aristeia\"\ntitle = \"T\"\n{manifest_extra}"),
    )
    .unwrap();
    std::fs::write(root.join("content.toml"), content).unwrap();
    root
}

/// A reference to content of an optional dependency that is not loaded says
/// so, instead of reading like a typo (issue 12 item 13).
#[test]
fn a_reference_into_an_absent_optional_dependency_says_it_is_optional_and_absent() {
    let dir = tempfile::tempdir().unwrap();
    let root = pack(
        dir.path(),
        "uses-mercenaries",
        "[optional_dependencies]\nmercenaries = \"^1.0\"\n",
        "[[setup]]\nid = \"with-a-mercenary\"\nname = \"S\"\nscenario = \"assault\"\n\n[[setup.teams]]\nname = \"a\"\ncharacters = [\"hired-gun\"]\n",
    );
    let core = arena_tests::tests_dir().join("../content/aristeia-core");
    let loaded = load::load(&[root, core], &load::Options { run_script_tests: false, ..load::Options::default() });
    let d = loaded
        .diagnostics
        .iter()
        .find(|d| d.code == Code::DanglingReference && d.message.contains("character:hired-gun"))
        .expect("the dangling reference is reported");
    assert!(
        d.notes.iter().any(|n| n.contains("optional dependency `mercenaries` that is not loaded")),
        "{:?}",
        d.notes
    );
}

/// A patch that moves an Action to the end of the list and adds a Switch
/// with Lua: every effect of the patched Character keeps its own Lua, named
/// from the patched entry (issue 12 item 11: the names came from the
/// original file, so the added Switch was "not scripted" and a reordered
/// Action ran another Action's Lua).
#[test]
fn a_patched_entrys_effects_keep_their_own_lua() {
    let tests = arena_tests::tests_dir();
    let loaded = load::load(
        &[tests.join("../content/aristeia-core"), tests.join("fixtures/packs/patch-moves-lua")],
        &load::Options { run_script_tests: false, ..load::Options::default() },
    );
    assert!(!loaded.has_errors(), "{:#?}", loaded.diagnostics.iter().filter(|d| d.is_error()).collect::<Vec<_>>());
    let card = &loaded.content.characters["8-ball"].value;
    assert_eq!(card.actions.last().map(|a| a.id.as_str()), Some("eat-my-fa-jing"), "moved to the end with [-]");
    let source = |path: &str| {
        let set = &loaded.script_set;
        let id = set.find("character:8-ball", path).unwrap_or_else(|| panic!("no script for {path}"));
        set.sources()[id.0].source.to_string()
    };
    assert!(source("switches[id=second-breath].effect").contains("game:heal(ctx.self, 1)"));
    assert!(source("actions[id=be-water-dude].effects[0]").contains("game:place(ctx.target, space)"));
    assert!(
        source("actions[id=eat-my-fa-jing].switches[id=displace-target].effect")
            .contains("game:displace(ctx.target, 1)")
    );
}

/// A patch that replaces printed text or a number without an `expect` guard
/// would silently overwrite a changed base: a warning under `--strict`
/// (issue 12 item 12). Lua and notes are not printed text.
#[test]
fn a_replace_without_a_guard_is_a_warning_under_strict() {
    let dir = tempfile::tempdir().unwrap();
    let root = pack(
        dir.path(),
        "blind-errata",
        "[dependencies]\naristeia-core = \"^1.0\"\n",
        "[[patch]]\ntarget = \"character:8-ball\"\n[[patch.op]]\nop = \"replace\"\npath = \"speed\"\nvalue = 5\n",
    );
    let core = arena_tests::tests_dir().join("../content/aristeia-core");
    let paths = [root, core];
    let strict =
        load::load(&paths, &load::Options { run_script_tests: false, notes: true, ..load::Options::default() });
    let found: Vec<_> = strict.diagnostics.iter().filter(|d| d.code == Code::PatchUnguarded).collect();
    assert_eq!(found.len(), 1, "{:#?}", strict.diagnostics);
    assert!(found[0].message.contains("character:8-ball") && found[0].message.contains("speed"));
    assert!(found[0].location.as_ref().is_some_and(|l| l.file.ends_with("content.toml") && l.line == 4));
    let plain = load::load(&paths, &load::Options { run_script_tests: false, ..load::Options::default() });
    assert!(!plain.diagnostics.iter().any(|d| d.code == Code::PatchUnguarded), "only under --strict");
}

/// Two files whose names differ only in case: a warning naming both
/// (issue 12 item 14).
#[test]
fn two_files_differing_only_in_case_are_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let root = pack(dir.path(), "cases", "", "[[state]]\nid = \"soaked\"\nname = \"Soaked\"\n");
    std::fs::write(root.join("Content.toml"), "[[state]]\nid = \"drenched\"\nname = \"Drenched\"\n").unwrap();
    let loaded = load::load(&[root], &load::Options { run_script_tests: false, ..load::Options::default() });
    let found: Vec<_> = loaded.diagnostics.iter().filter(|d| d.code == Code::CaseConflict).collect();
    assert_eq!(found.len(), 1, "{:#?}", loaded.diagnostics);
    assert!(found[0].message.contains("`Content.toml` and `content.toml`"), "{}", found[0].message);
}

/// One mistake, one error (issue 13 item 5): a typo in a Character skips it;
/// the setup that names it and the script test of its effect report
/// consequences (notes, shown with --strict), not errors of their own. A
/// second, independent mistake in the same file is still an error.
#[test]
fn one_mistake_is_one_error_and_each_independent_mistake_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let content = r#"
[[character]]
id = "la-typo"
name = "La Typo"
initiative = 5
speeed = 3
energy = 4
hit_points = 5
defense = { dice = ["blue"] }
brawn = { dice = ["blue"] }
agility = { dice = ["orange"] }

[[character.actions]]
id = "jab"
name = "Jab"
cost = 1
effects = [{ text = "Heal yourself of 1 Damage.", lua = "local game, ctx = ...\ngame:heal(ctx.self, 1)" }]

[[tactic]]
id = "second-typo"
name = "Second Typo"
timming = "before-roll"
timing_text = "Before making a Roll."
effect.text = "Nothing."

[[setup]]
id = "with-la-typo"
name = "S"
scenario = "assault"

[[setup.teams]]
name = "a"
characters = ["la-typo"]
"#;
    let root = pack(dir.path(), "typos", "[dependencies]\naristeia-core = \"^1.0\"\n", content);
    std::fs::write(
        root.join("jab.test.lua"),
        "return {\n  { name = \"jab heals\", card = \"character:la-typo\", effect = \"actions[id=jab].effects[0]\", ctx = { self = \"la-typo\" }, expect = { { \"heal\", \"la-typo\", 1 } } },\n}\n",
    )
    .unwrap();
    let core = arena_tests::tests_dir().join("../content/aristeia-core");
    let loaded = load::load(&[root, core], &load::Options::default());
    let errors: Vec<_> = loaded.diagnostics.iter().filter(|d| d.is_error()).collect();
    let codes: Vec<&str> = errors.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, vec!["unknown-field", "unknown-field"], "{errors:#?}");
    assert!(
        errors.iter().any(|d| d.message.contains("speeed")) && errors.iter().any(|d| d.message.contains("timming"))
    );
    let consequence = loaded
        .diagnostics
        .iter()
        .find(|d| d.code == Code::DanglingReference)
        .expect("the setup's reference is still mentioned");
    assert_eq!(consequence.severity, arena_engine::diag::Severity::Note, "{consequence:?}");
}

/// Run a situation file of `tests/` with `arena run`.
fn run_situation(rel: &str) -> arena_tests::Run {
    std::env::set_current_dir(arena_tests::tests_dir()).unwrap();
    arena_tests::arena(&["run", rel])
}

/// `game:inflict_damage(t, 999)` on a Character that has Damage already: the
/// excess is ignored and it goes to the Infirmary (`000 § Damage`), where the
/// sum of the Damage used to overflow (a panic in debug builds, a Damage total
/// wrapped round to 0, so healed, in release builds).
#[test]
fn damage_past_the_hit_points_sends_a_damaged_character_to_the_infirmary() {
    let run = run_situation("fixtures/packs/overkill/situations/overkill-on-a-damaged-character.toml");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("maximus suffers 1 Damage (5)\nmaximus goes to the Infirmary\n"), "{}", run.stdout);
    // `arena check` plays the pack's situations (it used to panic on this one).
    let check = arena_tests::arena(&["check", "fixtures/packs/overkill"]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
}

/// Once an effect has ended the game, its later calls change nothing and add
/// no event: no Damage, no State, no narrative after the Game over line.
#[test]
fn nothing_changes_after_the_game_has_ended() {
    let run = run_situation("fixtures/packs/overkill/situations/nothing-happens-after-the-game-ends.toml");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let over = run.stdout.find("== Game over").expect("the game ends");
    assert_eq!(run.stdout[over..].lines().count(), 1, "events after the end:\n{}", run.stdout);
}

/// `enemies_within(self, 1, 2^32)` is every Enemy, as `(1, 100)` is: the
/// distance bounds saturate instead of wrapping round to 0.
#[test]
fn distance_bounds_of_questions_saturate() {
    let run = run_situation("fixtures/packs/overkill/situations/range-bounds-saturate.toml");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("enemies within 2^32: 1\n"), "{}", run.stdout);
}

/// `game:heal(t, -3)` is an error naming the amount, as
/// `game:inflict_damage(t, -3)` is (it used to do nothing, silently).
#[test]
fn a_negative_heal_is_an_error_as_a_negative_inflict_is() {
    let run = run_situation("fixtures/situations/heal-below-zero.toml");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("failed and was undone: heal: -3 Damage; the amount is at least 0"), "{}", run.stdout);
    assert!(!run.stdout.contains("is healed"), "{}", run.stdout);
}

/// A control character a pack puts in an id (an ESC that would colour or
/// move the designer's terminal) is shown as its control picture in every
/// line of a human diagnostic, the label under the caret included, and never
/// sent raw.
#[test]
fn control_characters_from_a_pack_are_never_printed_raw_in_a_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let root = pack(
        dir.path(),
        "esc",
        "[dependencies]\naristeia-core = \"^1.0\"\n",
        "[[patch]]\ntarget = \"character:\\u001b[31mRED\"\nreason = \"test\"\n\n[[patch.op]]\nop = \"remove\"\npath = \"speed\"\n",
    );
    let run = arena_tests::arena(&["check", root.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(all.contains("character:\u{241b}[31mRED"), "{all}");
    assert!(!all.contains('\u{1b}'), "a raw ESC was printed:\n{}", all.escape_debug());
}

/// Invictus marketplace numbers that make every game run to its turn limit
/// are refused by `arena check` itself (not only with `--sims`): a hand of 0
/// Artifacts, an empty starter deck; each at its line, with the range.
#[test]
fn a_marketplace_no_game_can_be_played_with_is_refused_at_load() {
    let dir = tempfile::tempdir().unwrap();
    for (name, path, value) in [("no-hand", "hand_size", "0"), ("no-deck", "starter_deck", "[]")] {
        let root = pack(
            dir.path(),
            name,
            "[dependencies]\ninvictus = \"^1.1\"\n",
            &format!(
                "[[patch]]\ntarget = \"marketplace:standard\"\nreason = \"test\"\n\n[[patch.op]]\nop = \"replace\"\npath = \"{path}\"\nvalue = {value}\n"
            ),
        );
        std::fs::write(
            root.join("pack.toml"),
            format!("id = \"{name}\"\nversion = \"1.0.0\"\ngame = \"invictus\"\ntitle = \"T\"\n[dependencies]\ninvictus = \"^1.1\"\n"),
        )
        .unwrap();
        let run = arena_tests::arena(&["check", root.to_str().unwrap()]);
        assert_eq!(run.code, 1, "{name}: {}{}", run.stdout, run.stderr);
        // The value's line and column, and the note says the limit.
        assert!(run.stderr.contains("error[patch-invalid]"), "{name} ({path}): {}", run.stderr);
        assert!(run.stderr.contains("content.toml:8:9"), "{name}: {}", run.stderr);
        assert!(run.stderr.contains("less than"), "{name}: {}", run.stderr);
    }
}

/// An Invictus pack that depends on `aristeia-core` (the other game's pack)
/// is an error at the dependency's key, saying which games they are for.
#[test]
fn a_dependency_on_the_other_games_pack_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let root = pack(dir.path(), "mixed", "[dependencies]\naristeia-core = \"^1.0\"\n", "");
    std::fs::write(
        root.join("pack.toml"),
        "id = \"mixed\"\nversion = \"1.0.0\"\ngame = \"invictus\"\ntitle = \"T\"\n[dependencies]\naristeia-core = \"^1.0\"\n",
    )
    .unwrap();
    let run = arena_tests::arena(&["check", root.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("pack `mixed` is for invictus, but depends on `aristeia-core`, a pack for aristeia"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("pack.toml:6:"), "{}", run.stderr);
}
