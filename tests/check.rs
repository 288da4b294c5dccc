//! `arena check` end to end: the corpus of bad packs (one folder per diagnostic,
//! each with an `expect.toml`), the valid edge cases, and the bundled content.
//!
//! Each fixture's rendered human and JSON diagnostics are snapshots; on top of
//! that, the expected code, file, line and column are asserted, as are the exit
//! code, a hint on every error, and that nothing was written.

use arena_tests::{arena, tests_dir, tree_fingerprint};
use serde_json::Value;
use std::path::Path;

#[derive(Debug)]
struct Expect {
    code: String,
    file: String,
    line: u64,
    column: u64,
    exit: u8,
}

fn read_expect(path: &Path) -> Expect {
    let text = std::fs::read_to_string(path).unwrap();
    let v: toml::Table = text.parse().unwrap();
    Expect {
        code: v["code"].as_str().unwrap().to_string(),
        file: v["file"].as_str().unwrap().to_string(),
        line: v["line"].as_integer().unwrap() as u64,
        column: v["column"].as_integer().unwrap() as u64,
        exit: v["exit"].as_integer().unwrap() as u8,
    }
}

/// Run check on a fixture folder (relative to tests/) in human and JSON form.
fn check_fixture(rel: &str) -> (arena_tests::Run, arena_tests::Run) {
    // Every fixture is checked beside a stand-in core pack that supplies the dice.
    let args = vec!["check", "--color", "never", rel, "fixtures/base/aristeia-core"];
    let human = arena(&args);
    let mut json_args = args.clone();
    json_args.extend(["--format", "json"]);
    let json = arena(&json_args);
    (human, json)
}

#[test]
fn bad_packs() {
    std::env::set_current_dir(tests_dir()).unwrap();
    insta::glob!("fixtures/bad/*/expect.toml", |path| {
        let dir = path.parent().unwrap();
        let rel = dir.strip_prefix(tests_dir()).unwrap().to_str().unwrap().to_string();
        let expect = read_expect(path);
        let before = tree_fingerprint(dir);
        let (human, json) = check_fixture(&rel);
        assert_eq!(tree_fingerprint(dir), before, "{rel}: check wrote into the fixture");

        assert_eq!(human.code, expect.exit, "{rel}: exit code\n{}", human.stderr);
        assert_eq!(json.code, expect.exit, "{rel}: exit code (json)");
        let doc: Value = serde_json::from_str(&json.stdout).expect("--format json parses");
        let diags = doc["diagnostics"].as_array().unwrap();
        let want_file = format!("{rel}/{}", expect.file);
        let hit = diags.iter().find(|d| {
            d["code"] == expect.code.as_str()
                && (expect.file.is_empty()
                    || (d["location"]["file"] == want_file.as_str()
                        && d["location"]["line"] == expect.line
                        && d["location"]["column"] == expect.column))
        });
        assert!(
            hit.is_some(),
            "{rel}: no `{}` at {want_file}:{}:{}; got:\n{}",
            expect.code,
            expect.line,
            expect.column,
            serde_json::to_string_pretty(diags).unwrap()
        );
        for d in diags.iter().filter(|d| d["severity"] == "error") {
            assert!(d["help"].is_string(), "{rel}: error without a hint: {d}");
            if d["code"] != "not-a-pack" {
                assert!(d["location"]["line"].is_u64(), "{rel}: error without a line: {d}");
            }
        }
        insta::assert_snapshot!("human", format!("exit: {}\n{}{}", human.code, human.stderr, human.stdout));
        insta::assert_snapshot!("json", json.stdout);
    });
}

#[test]
fn valid_edge_cases_load_clean() {
    std::env::set_current_dir(tests_dir()).unwrap();
    insta::glob!("fixtures/good/*/README.md", |path| {
        let dir = path.parent().unwrap();
        let rel = dir.strip_prefix(tests_dir()).unwrap().to_str().unwrap().to_string();
        let (human, json) = check_fixture(&rel);
        assert_eq!(human.code, 0, "{rel}:\n{}", human.stderr);
        let doc: Value = serde_json::from_str(&json.stdout).unwrap();
        assert_eq!(doc["summary"]["entries"]["character"], 1, "{rel}: the fixture's Character loaded");
        assert_eq!(doc["diagnostics"].as_array().unwrap().len(), 0);
    });
}

/// bad-input.md: "A content file of 50 MiB." Made at test time (sparse), not committed.
#[test]
fn case_bad_input_content_file_of_50_mib() {
    let tmp = tempfile::tempdir().unwrap();
    let pack = tmp.path().join("huge");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(
        pack.join("pack.toml"),
        "id = \"huge\"\nversion = \"1.0.0\"\ngame = \"aristeia\"\ntitle = \"Huge\"\n",
    )
    .unwrap();
    let f = std::fs::File::create(pack.join("big.toml")).unwrap();
    f.set_len(50 * 1024 * 1024).unwrap();
    let run = arena(&["check", "--format", "json", pack.to_str().unwrap()]);
    assert_eq!(run.code, 1);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let d = &doc["diagnostics"][0];
    assert_eq!(d["code"], "file-too-large");
    assert!(d["location"]["file"].as_str().unwrap().ends_with("big.toml"));
    assert_eq!(d["location"]["line"], 1);
    assert!(d["help"].is_string());
}

#[test]
fn bundled_content_checks_clean() {
    std::env::set_current_dir(tests_dir()).unwrap();
    // No path: the bundled content/ and mods/ (the embedded default).
    let run = arena(&["check", "--color", "never"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "", "no warnings or errors on the bundled content");
    insta::assert_snapshot!("bundled_summary", run.stdout);
    let strict = arena(&["check", "--color", "never", "--strict", "--format", "json"]);
    assert_eq!(strict.code, 0);
    let doc: Value = serde_json::from_str(&strict.stdout).unwrap();
    let provisional = doc["diagnostics"].as_array().unwrap().iter().filter(|d| d["code"] == "provisional").count();
    assert_eq!(provisional as u64, doc["summary"]["provisional"].as_u64().unwrap());
}

/// `arena check --strict` lists what the engine does not perform, and only
/// that: the bundled packs' one effect without Lua is the Switch whose text
/// the sources lack; the Wildcard Marker (`001 § Special Spaces`: "These
/// markers must not be played unless the scenario specifies so") is not
/// listed, since the engine never places one, which is all its text asks.
#[test]
fn check_strict_lists_only_the_effects_the_engine_does_not_perform() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let strict = arena(&["check", "--color", "never", "--strict", "--format", "json"]);
    assert_eq!(strict.code, 0, "{}", strict.stderr);
    let doc: Value = serde_json::from_str(&strict.stdout).unwrap();
    let unsupported: Vec<String> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "unsupported-effect")
        .map(|d| d["message"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(unsupported.len(), 1, "{unsupported:?}");
    assert!(unsupported[0].contains("Effect not recorded in the sources"), "{unsupported:?}");
    assert!(!strict.stdout.contains("Wildcard Marker. These markers"), "the Wildcard is listed");
}

#[test]
fn usage_errors_exit_2() {
    let run = arena(&["check", "--format", "yaml"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("invalid value 'yaml'"), "{}", run.stderr);
    let run = arena(&["check", "/no/such/folder"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("io-error"), "{}", run.stderr);
    // `diff` and `show` exit as `check` does for a folder they cannot read.
    let run = arena(&["diff", "--with", "/no/such/folder"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let run = arena(&["show", "character:gata", "/no/such/folder"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

/// docs/packs.md quotes the worked example exactly.
#[test]
fn docs_quote_the_worked_example() {
    let docs = std::fs::read_to_string(tests_dir().join("../docs/packs.md")).unwrap();
    let ex = tests_dir().join("fixtures/good/worked-example/duelist");
    for f in ["pack.toml", "characters/duelist.toml", "scripts/en-garde.lua"] {
        let text = std::fs::read_to_string(ex.join(f)).unwrap();
        assert!(docs.contains(&text), "docs/packs.md no longer quotes {f} exactly");
    }
}

/// The worked example's script runs as the docs say (not only that it is quoted).
#[test]
fn the_worked_example_script_runs() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let run = arena(&[
        "script",
        "fixtures/good/worked-example/duelist/scripts/en-garde.lua",
        "--pack",
        "fixtures/base/aristeia-core",
        "--self",
        "la-duelista",
        "--answer",
        r#"enemies_within=["maximus","gata"]"#,
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("result: 2"), "{}", run.stdout);
}

/// issue 6 § 2: `arena lock` writes the resolved packs; `check --locked` fails
/// when they change.
#[test]
fn check_locked_fails_when_the_packs_change() {
    let tmp = tempfile::tempdir().unwrap();
    let packs = tmp.path().join("packs");
    let src = tests_dir().join("fixtures/good/worked-example/duelist");
    let dst = packs.join("duelist");
    for entry in ["pack.toml", "characters/duelist.toml", "scripts/en-garde.lua"] {
        std::fs::create_dir_all(dst.join(entry).parent().unwrap()).unwrap();
        std::fs::copy(src.join(entry), dst.join(entry)).unwrap();
    }
    let core = tests_dir().join("fixtures/base/aristeia-core");
    let lock = tmp.path().join("arena.lock");
    let (p, c, l) = (dst.to_str().unwrap(), core.to_str().unwrap(), lock.to_str().unwrap());
    assert_eq!(arena(&["lock", p, c, "--output", l]).code, 0);
    let ok = arena(&["check", p, c, "--locked", "--lockfile", l]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    std::fs::write(
        dst.join("characters/duelist.toml"),
        std::fs::read_to_string(src.join("characters/duelist.toml")).unwrap().replace("speed = 4", "speed = 5"),
    )
    .unwrap();
    let changed = arena(&["check", p, c, "--locked", "--lockfile", l, "--format", "json"]);
    assert_eq!(changed.code, 1);
    assert!(changed.stdout.contains("lock-mismatch"), "{}", changed.stdout);
}

/// issue 6: the errata pack changes exactly the three corrections it quotes:
/// Coordinated Assault and Pointman (each its text and the Lua that plays it),
/// Epic Regeneration's timing (window and printed line).
#[test]
fn the_errata_diff_is_the_three_corrections() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let run = arena(&["diff", "--base", "../content", "--with", "../mods/errata-1.6", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let changes: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(changes["version"], 1);
    let mut got: Vec<String> = changes["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| format!("{} {}", c["reference"].as_str().unwrap(), c["path"].as_str().unwrap()))
        .collect();
    got.sort();
    assert_eq!(
        got,
        vec![
            "character:hannibal actions[id=coordinated-assault].effects[0].lua",
            "character:hannibal actions[id=coordinated-assault].effects[0].text",
            "character:hannibal automatic_skills[id=pointman].effect.lua",
            "character:hannibal automatic_skills[id=pointman].effect.text",
            "tactic:epic-regeneration timing",
            "tactic:epic-regeneration timing_text",
        ]
    );
    let text = arena(&["diff", "--base", "../content", "--with", "../mods/errata-1.6"]);
    insta::assert_snapshot!("diff_with_errata", text.stdout);
    let show = arena(&["show", "character:hannibal", "../content", "../mods/errata-1.6"]);
    assert_eq!(show.code, 0, "{}", show.stderr);
    insta::assert_snapshot!(
        "show_hannibal_with_errata",
        show.stdout.lines().filter(|l| l.starts_with('#')).collect::<Vec<_>>().join("\n")
    );
}

/// `show --fields` credits each replaced value to whoever set it: a value set
/// by an earlier patch of the same pack is that patch's, not the base file's;
/// an item appended to a list (`[-]`) marks the list as patched.
#[test]
fn show_credits_earlier_patches_and_appended_items() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let pack = tmp.path().join("twice");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(
        pack.join("pack.toml"),
        "id = \"twice\"\nversion = \"0.1.0\"\ngame = \"aristeia\"\ntitle = \"t\"\nauthors = [\"t\"]\n\
         [dependencies]\naristeia-core = \"^1.0\"\n",
    )
    .unwrap();
    let op = |value: u32| {
        format!(
            "[[patch]]\ntarget = \"character:maximus\"\n[[patch.op]]\nop = \"replace\"\npath = \"speed\"\nvalue = {value}\n"
        )
    };
    std::fs::write(pack.join("a.toml"), op(4)).unwrap();
    std::fs::write(
        pack.join("b.toml"),
        format!(
            "{}[[patch.op]]\nop = \"add\"\npath = \"actions[id=jotums-shield].roll.dice[-]\"\nvalue = \"orange\"\n",
            op(6)
        ),
    )
    .unwrap();
    let run = arena(&["show", "character:maximus", "../content/aristeia-core", pack.to_str().unwrap(), "--fields"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let a = pack.join("a.toml").display().to_string();
    assert!(run.stdout.contains(&format!("was: 4 (set by pack `twice` at {a}:4)")), "{}", run.stdout);
    assert!(run.stdout.contains("was: 3 (pack `aristeia-core`"), "{}", run.stdout);
    let dice = run.stdout.lines().find(|l| l.starts_with("#   actions[id=jotums-shield].roll.dice ")).unwrap();
    assert!(dice.contains("twice") && dice.ends_with("(patch)"), "{dice}");
}

/// Copies of the worked example's duelist pack and the stand-in core in a
/// temporary folder: (tmp, duelist, core).
fn lockable_packs() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let src = tests_dir().join("fixtures/good/worked-example/duelist");
    let dst = tmp.path().join("packs/duelist");
    for entry in ["pack.toml", "characters/duelist.toml", "scripts/en-garde.lua"] {
        std::fs::create_dir_all(dst.join(entry).parent().unwrap()).unwrap();
        std::fs::copy(src.join(entry), dst.join(entry)).unwrap();
    }
    (tmp, dst, tests_dir().join("fixtures/base/aristeia-core"))
}

/// issue 12, 15: a write that fails part-way (here a file-size limit of 0
/// bytes, as on a full disk) leaves the old lockfile whole, and no temporary
/// file behind. `arena lock` runs in a child process that has the limit.
#[test]
fn a_failed_write_leaves_the_old_file_whole() {
    if let Ok(args) = std::env::var("ARENA_TEST_LIMITED_CHILD") {
        let args: Vec<String> = serde_json::from_str(&args).unwrap();
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        std::process::exit(arena(&argv).code as i32);
    }
    if !cfg!(unix) {
        return;
    }
    let (tmp, duelist, core) = lockable_packs();
    let lock = tmp.path().join("arena.lock");
    std::fs::write(&lock, "# the old lockfile\n").unwrap();
    let args = serde_json::to_string(&[
        "lock",
        duelist.to_str().unwrap(),
        core.to_str().unwrap(),
        "--output",
        lock.to_str().unwrap(),
    ])
    .unwrap();
    let exe = std::env::current_exe().unwrap();
    let child = std::process::Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 0; exec \"$0\" --exact a_failed_write_leaves_the_old_file_whole --test-threads 1 -q")
        .arg(&exe)
        .env("ARENA_TEST_LIMITED_CHILD", args)
        .output()
        .unwrap();
    assert!(!child.status.success(), "the write succeeded despite the limit");
    assert_eq!(std::fs::read_to_string(&lock).unwrap(), "# the old lockfile\n", "the old lockfile was damaged");
    let names: Vec<String> =
        std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names.len(), 2, "a temporary file was left behind: {names:?}");
}

/// issue 12, 16: `arena lock` does not write through a symlink at its output:
/// the link is replaced by the lockfile and its target is left as it was.
#[cfg(unix)]
#[test]
fn lock_replaces_a_symlink_not_its_target() {
    let (tmp, duelist, core) = lockable_packs();
    let victim = tmp.path().join("precious.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let lock = tmp.path().join("arena.lock");
    std::os::unix::fs::symlink(&victim, &lock).unwrap();
    let run = arena(&["lock", duelist.to_str().unwrap(), core.to_str().unwrap(), "--output", lock.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n", "the link's target was overwritten");
    assert!(std::fs::symlink_metadata(&lock).unwrap().file_type().is_file(), "the lockfile is still a link");
    assert!(std::fs::read_to_string(&lock).unwrap().contains("[[pack]]"));
}

/// issue 12, 17: `check --locked` hashes content, not bytes: packs and a
/// lockfile checked out with CRLF line endings, and a comment added to the
/// lockfile, still match; a changed file is named with its pack.
#[test]
fn check_locked_ignores_line_endings_and_names_what_differs() {
    let (tmp, duelist, core) = lockable_packs();
    let lock = tmp.path().join("arena.lock");
    let (p, c, l) = (duelist.to_str().unwrap(), core.to_str().unwrap(), lock.to_str().unwrap());
    assert_eq!(arena(&["lock", p, c, "--output", l]).code, 0);
    let crlf = |path: &Path| {
        let text = std::fs::read_to_string(path).unwrap();
        std::fs::write(path, text.replace("\r\n", "\n").replace('\n', "\r\n")).unwrap();
    };
    for entry in ["pack.toml", "characters/duelist.toml", "scripts/en-garde.lua"] {
        crlf(&duelist.join(entry));
    }
    crlf(&lock);
    let commented = format!("# pinned for CI\r\n{}", std::fs::read_to_string(&lock).unwrap());
    std::fs::write(&lock, commented).unwrap();
    let ok = arena(&["check", p, c, "--locked", "--lockfile", l]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    // A lockfile written before per-file hashes still matches.
    let old = "[[pack]]\nid = \"aristeia-core\"\nversion = \"1.0.0\"\nhash = \"HASH_CORE\"\n\n[[pack]]\nid = \"duelist\"\nversion = \"0.1.0\"\nhash = \"HASH_DUELIST\"\n";
    let lf_hashes = {
        // The hashes earlier lockfiles hold: `Loaded::pack_hash` of the packs with LF endings.
        let (_tmp, d, c) = lockable_packs();
        let lf = arena_engine::load::load(&[d, c], &arena_engine::load::Options::default());
        let h = |id: &str| lf.pack_hash(lf.packs.iter().find(|x| x.manifest.id == id).unwrap());
        (h("aristeia-core"), h("duelist"))
    };
    let old = old.replace("HASH_CORE", &lf_hashes.0).replace("HASH_DUELIST", &lf_hashes.1);
    let old_lock = tmp.path().join("old.lock");
    std::fs::write(&old_lock, old).unwrap();
    let ok = arena(&["check", p, c, "--locked", "--lockfile", old_lock.to_str().unwrap()]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    // A change is named: the pack and the file.
    let file = duelist.join("characters/duelist.toml");
    std::fs::write(&file, std::fs::read_to_string(&file).unwrap().replace("speed = 4", "speed = 5")).unwrap();
    let changed = arena(&["check", p, c, "--locked", "--lockfile", l, "--format", "json"]);
    assert_eq!(changed.code, 1);
    let doc: Value = serde_json::from_str(&changed.stdout).unwrap();
    let messages: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "lock-mismatch")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].contains("pack `duelist`") && messages[0].contains("`characters/duelist.toml` differs"),
        "{messages:?}"
    );
}

/// issue 12, 5: games load exactly the scripts effects name; a pack's other
/// `.lua` files are still compiled by `check` for their errors.
#[test]
fn unreferenced_scripts_are_checked_but_not_loaded() {
    let (_tmp, duelist, core) = lockable_packs();
    std::fs::write(duelist.join("scripts/helper.lua"), "local function unused()\n  return 1 +\nend\n").unwrap();
    std::fs::write(duelist.join("scripts/fine.lua"), "return function() end\n").unwrap();
    let loaded = arena_engine::load::load(&[duelist.clone(), core], &arena_engine::load::Options::default());
    assert!(
        loaded.diagnostics.iter().any(|d| d.code.to_string() == "script-compile"
            && d.location.as_ref().is_some_and(|l| l.file.ends_with("scripts/helper.lua"))),
        "{:?}",
        loaded.diagnostics
    );
    let cards: Vec<&str> = loaded.script_set.sources().iter().map(|s| s.card.as_str()).collect();
    assert!(!cards.is_empty() && cards.iter().all(|c| !c.starts_with("script:")), "{cards:?}");
}

/// A pack `errata` (beside `lockable_packs`) whose `patches.toml` is `text`.
fn errata_pack(tmp: &Path, text: &str) -> std::path::PathBuf {
    let dir = tmp.join("packs/errata");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("pack.toml"),
        "id = \"errata\"\nversion = \"1.0.0\"\ngame = \"aristeia\"\ntitle = \"Errata\"\n\n[dependencies]\nduelist = \"^0.1\"\n",
    )
    .unwrap();
    std::fs::write(dir.join("patches.toml"), text).unwrap();
    dir
}

/// issue 24: n one-op patches of one entry cost time linear in n (they took
/// about n^2.3: 4,000 `replace` patches 61 s in a release build, 4,000
/// `add actions[-]` past 120 s). 4,000 of each on one Character load in a
/// debug build well within the bound; the result is the last `replace` and
/// every added Action, in order, each credited to its patch.
#[test]
fn thousands_of_patches_of_one_entry_apply_in_linear_time() {
    const N: usize = 4000;
    let (tmp, duelist, core) = lockable_packs();
    let mut text = String::new();
    for i in 0..N {
        let speed = 1 + i % 6;
        text.push_str(&format!(
            "[[patch]]\ntarget = \"character:la-duelista\"\n[[patch.op]]\nop = \"replace\"\npath = \"speed\"\nvalue = {speed}\n\n"
        ));
        text.push_str(&format!(
            "[[patch]]\ntarget = \"character:la-duelista\"\n[[patch.op]]\nop = \"add\"\npath = \"actions[-]\"\nvalue = {{ id = \"extra-{i}\", name = \"Extra {i}\", cost = 1 }}\n\n"
        ));
    }
    let errata = errata_pack(tmp.path(), &text);
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let loaded = arena_engine::load::load(&[errata, duelist, core], &arena_engine::load::Options::default());
        let _ = done.send(loaded);
    });
    // A bound for a hang, not a speed measurement: the old code took minutes.
    let loaded = finished
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("8,000 patches of one entry still applying after 30 s");
    let errors: Vec<String> = loaded.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let c = &loaded.content.characters["la-duelista"].value;
    assert_eq!(u64::from(c.speed), 1 + ((N - 1) % 6) as u64);
    assert_eq!(c.actions.len(), 1 + N);
    assert!(c.actions.iter().skip(1).enumerate().all(|(i, a)| a.id == format!("extra-{i}")));
    let credited = &loaded.provenance["character:la-duelista"];
    assert_eq!(credited.len(), 2 * N);
    assert_eq!(credited.last().unwrap().line, 14 * (N - 1) + 11, "the last `add` op's line");
}

/// A patch that fails part-way is taken back out whole, and later patches of
/// the same entry still apply: an invalid value among thousands of good
/// patches is reported at its own op, and only that patch is left out.
#[test]
fn a_bad_patch_among_many_is_left_out_alone() {
    let (tmp, duelist, core) = lockable_packs();
    let mut text = String::new();
    for i in 0..300 {
        text.push_str(&format!(
            "[[patch]]\ntarget = \"character:la-duelista\"\n[[patch.op]]\nop = \"add\"\npath = \"actions[-]\"\nvalue = {{ id = \"extra-{i}\", name = \"Extra {i}\", cost = 1 }}\n\n"
        ));
        if i == 100 {
            // Two ops: the first applies, the second makes the entry invalid.
            text.push_str("[[patch]]\ntarget = \"character:la-duelista\"\n[[patch.op]]\nop = \"replace\"\npath = \"name\"\nvalue = \"Renamed\"\n[[patch.op]]\nop = \"replace\"\npath = \"speed\"\nvalue = \"fast\"\n\n");
        }
        if i == 200 {
            // Fails at its second op (no such key): its first op is undone.
            text.push_str("[[patch]]\ntarget = \"character:la-duelista\"\n[[patch.op]]\nop = \"replace\"\npath = \"energy\"\nvalue = 1\n[[patch.op]]\nop = \"remove\"\npath = \"no-such-key\"\n\n");
        }
    }
    let errata = errata_pack(tmp.path(), &text);
    let loaded = arena_engine::load::load(&[errata, duelist, core], &arena_engine::load::Options::default());
    let errors: Vec<(String, String)> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code.to_string(), d.location.as_ref().map_or(0, |l| l.line).to_string()))
        .collect();
    let invalid_line = text.find("value = \"fast\"").map(|at| text[..at].lines().count() + 1).unwrap();
    let missing_line = text.find("path = \"no-such-key\"").map(|at| text[..at].lines().count() + 1).unwrap();
    assert_eq!(
        errors,
        vec![
            ("patch-invalid".to_string(), invalid_line.to_string()),
            ("patch-key-not-found".to_string(), missing_line.to_string())
        ]
    );
    let c = &loaded.content.characters["la-duelista"].value;
    assert_eq!(c.name, "La Duelista", "the invalid patch's first op stayed");
    assert_eq!(c.energy, 5, "the failed patch's first op stayed");
    assert_eq!(c.actions.len(), 301);
}

/// A patch naming an entry no pack defines gets "did you mean" when an id of
/// that kind (or a kind) is close.
#[test]
fn a_missing_patch_target_gets_did_you_mean() {
    let (tmp, duelist, core) = lockable_packs();
    let text = "[[patch]]\ntarget = \"character:la-duelistaa\"\n[[patch.op]]\nop = \"replace\"\npath = \"speed\"\nvalue = 5\n\n[[patch]]\ntarget = \"charactr:la-duelista\"\n[[patch.op]]\nop = \"replace\"\npath = \"speed\"\nvalue = 5\n";
    let errata = errata_pack(tmp.path(), text);
    let loaded = arena_engine::load::load(&[errata, duelist, core], &arena_engine::load::Options::default());
    let helps: Vec<String> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.code.to_string() == "patch-target-missing")
        .map(|d| d.help.clone().unwrap_or_default())
        .collect();
    assert_eq!(helps, vec!["did you mean `character:la-duelista`?", "did you mean `character:la-duelista`?"]);
}

/// A pack in a temporary folder: `pack.toml` (for `game`) and `c.toml`.
fn temp_pack(game: &str, content: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("pack.toml"),
        format!("id = \"p\"\nversion = \"1.0.0\"\ngame = \"{game}\"\ntitle = \"P\"\n"),
    )
    .unwrap();
    std::fs::write(dir.join("c.toml"), content).unwrap();
    (tmp, dir)
}

/// `check --format json` of a pack beside the stand-in core: (code, message, help) of each diagnostic.
fn checked(dir: &Path) -> Vec<(String, String, String)> {
    let core = tests_dir().join("fixtures/base/aristeia-core");
    let run = arena(&["check", "--format", "json", dir.to_str().unwrap(), core.to_str().unwrap()]);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let s = |k: &str| d[k].as_str().unwrap_or_default().to_string();
            (s("code"), s("message"), s("help"))
        })
        .collect()
}

/// `check` resolves the ids a script passes to the API as string literals:
/// the zones of a Scenario rule's own map, Characters (and what else is a
/// unit in play: `barrier@q,r`), States and dice, each with "did you mean";
/// the ids that are loaded pass.
#[test]
fn string_literals_passed_to_the_api_name_loaded_content() {
    let (_tmp, dir) = temp_pack(
        "aristeia",
        r#"
[[map]]
id = "pit"
name = "The Pit"
radius = 3
zones = [
  { id = "west", kind = "deployment", spaces = [[-3, 0]] },
  { id = "east", kind = "deployment", spaces = [[3, 0]] },
  { id = "middle", kind = "central", spaces = [[0, 0]] },
]

[[scenario]]
id = "duel"
name = "Duel"
map = "pit"
players = { min = 2, max = 2 }
characters_per_team = 1
rounds = 3
deployment_zones = ["west", "east"]

[[scenario.rules]]
id = "move"
when = "round-start"
text = "The Scoring Zone moves."
effect.text = "The Scoring Zone moves."
effect.lua = '''
local game, ctx = ...
game:set_scoring_zones({ "middle", "midle" })
local n = #game:characters_in_zone("scoring-zone") + #game:zone_spaces("west")
'''

[[state]]
id = "stunned"
name = "Stunned"
text = "Stunned."

[[character]]
id = "brawler"
name = "Brawler"
initiative = 3
speed = 3
energy = 4
hit_points = 4
defense = { dice = ["blue"] }
brawn = { dice = ["blue"] }
agility = { dice = ["orange"] }

[[character.automatic_skills]]
id = "grit"
name = "Grit"
effect.text = "Grit."
effect.lua = '''
local game, ctx = ...
if game:has_state("brawler", "stunned") and game:distance("barrier@1,0", "brawlr") < 2 then
  game:roll_die("orang")
end
'''
"#,
    );
    let mut found = checked(&dir);
    found.retain(|(code, ..)| code == "dangling-reference");
    let got: Vec<(&str, &str)> = found.iter().map(|(_, m, h)| (m.as_str(), h.as_str())).collect();
    assert_eq!(
        got,
        [
            (
                "`game:set_scoring_zones` is given zone `midle`, which map `pit` does not have",
                "did you mean \"middle\"?"
            ),
            ("`game:distance` is given `character:brawlr`, which no loaded pack defines", "did you mean \"brawler\"?"),
            ("`game:roll_die` is given `die:orang`, which no loaded pack defines", "did you mean \"orange\"?"),
        ]
    );
}

/// Invictus scripts are checked against the Invictus registry only, with
/// its docs; a valid Invictus call is never "not a function of the API".
/// The fixture's god does not load (`target = "self"`), so its script is
/// checked by its pack's game.
#[test]
fn invictus_scripts_are_checked_against_the_invictus_api_only() {
    let found = checked(&tests_dir().join("fixtures/bad/script-invictus-api/p"));
    let calls: Vec<&(String, String, String)> = found.iter().filter(|(c, ..)| c.starts_with("script-")).collect();
    assert_eq!(calls.len(), 1, "{found:?}");
    assert_eq!(calls[0].1, "`game:gain_stamnia` is not a function of the Invictus Lua API");
    assert_eq!(calls[0].2, "did you mean `game:gain_stamina`? (docs/invictus-lua-api.md)");
    // And an Aristeia! card calling an Invictus function hears which API it is in.
    let (_tmp, dir) = temp_pack(
        "aristeia",
        r#"
[[tactic]]
id = "rally"
name = "Rally"
timing = "before-roll"
timing_text = "Before a Roll."
effect.text = "Rally."
effect.lua = '''
local game, ctx = ...
game:gain_stamina(ctx.self, 2)
'''
"#,
    );
    let found = checked(&dir);
    let d = found.iter().find(|(c, ..)| c == "script-unknown-function").expect("reported");
    assert_eq!(d.1, "`game:gain_stamina` is not a function of the Aristeia! Lua API");
    assert!(d.2.contains("docs/lua-api.md"), "{d:?}");
}

/// `check --sims`: a simulated game's failed effect does not hide a
/// situation that fails; both are reported (the situations used to be
/// skipped once the games had found an error).
#[test]
fn a_failed_simulated_game_does_not_hide_a_failing_situation() {
    let pack = tests_dir().join("fixtures/packs/fails-in-play");
    let core = tests_dir().join("fixtures/base/aristeia-core");
    let run = arena(&["check", "--sims", "2", "--format", "json", pack.to_str().unwrap(), core.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let codes: Vec<&str> = doc["diagnostics"].as_array().unwrap().iter().filter_map(|d| d["code"].as_str()).collect();
    assert!(codes.contains(&"situation-failed"), "{codes:?}");
    let fuse = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["severity"] == "error" && d["message"].as_str().is_some_and(|m| m.contains("the fuse blew")));
    assert!(fuse, "the simulated games' failed effect is reported: {codes:?}");
}

/// `arena sim --games`: a batch whose games had failed effects says so
/// above its win rates, not only in its last line.
#[test]
fn a_batch_with_failed_effects_says_so_above_its_figures() {
    let pack = tests_dir().join("fixtures/packs/fails-in-play");
    let core = tests_dir().join("fixtures/base/aristeia-core");
    let run = arena(&[
        "sim",
        "duel",
        "--random-teams",
        "--games",
        "3",
        "--jobs",
        "1",
        "--pack",
        pack.to_str().unwrap(),
        "--pack",
        core.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let warning = lines.iter().position(|l| l.starts_with("warning: 3 of 3 games had failed effects"));
    let figures = lines.iter().position(|l| l.starts_with("player 1 wins"));
    assert!(warning.is_some() && figures.is_some() && warning < figures, "{}", run.stdout);
}
