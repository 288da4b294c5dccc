//! Scenarios are data (docs/scenarios.md, `000 § Scenarios`). A Scenario's objectives and special rules are
//! its pack's declarative keys and Lua (docs/scenarios.md); the engine knows no
//! Scenario or rule id. The windows and keys are played one by one by
//! `situations/scenarios/*.toml` (tests/situations.rs); here: a Scenario
//! written from the docs scores in a batch, no id is in the engine, a failing
//! rule is undone and reported, and what is text only is listed and counted.

use arena_tests::{arena, tests_dir};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    tests_dir().join("..")
}

/// The acceptance's first item: the worked example of docs/scenarios.md, a new
/// map and Scenario with one declarative and one Lua objective, scores Victory
/// Points in a seeded batch of greedy players, by both objectives.
#[test]
fn the_worked_example_scores_victory_points_in_a_batch() {
    let pack = root().join("mods/crater-control");
    let pack = pack.to_str().unwrap();
    let run = arena(&["sim", "crater-control", "--pack", pack, "--games", "10", "--format", "json", "-q"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let report = &doc["report"];
    assert_eq!(report["errors"], 0);
    assert_eq!(report["games_with_effect_failures"], 0);
    let vp: f64 = report["mean_victory_points"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).sum();
    assert!(vp > 0.0, "no Victory Points in 10 games: {report}");

    // Both kinds of objective score: the narrative names the rule that scored.
    let scored = |rule: &str| {
        (1..=10).any(|seed| {
            let seed = seed.to_string();
            let run = arena(&["sim", "crater-control", "--pack", pack, "--seed", &seed, "-q"]);
            assert_eq!(run.code, 0, "{}", run.stderr);
            run.stdout.lines().any(|l| l.contains(&format!(" VP for {rule} (")))
        })
    };
    assert!(scored("hold-the-rim"), "the declarative objective never scored in 10 games");
    assert!(scored("frag-lead"), "the Lua objective never scored in 10 games");
}

/// Every Scenario id and Scenario rule id of the bundled packs and mods.
fn scenario_ids() -> Vec<String> {
    use arena_engine::load;
    let loaded = load::load(
        &[root().join("content"), root().join("mods")],
        &load::Options { run_script_tests: false, compile_scripts: false, ..load::Options::default() },
    );
    let mut ids = Vec::new();
    for e in loaded.content.scenarios.values() {
        ids.push(e.value.id.to_string());
        ids.extend(e.value.rules.iter().map(|r| r.id.to_string()));
    }
    assert!(ids.iter().any(|i| i == "assault") && ids.iter().any(|i| i == "move-scoring-zone"), "{ids:?}");
    ids.sort();
    ids.dedup();
    ids
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The acceptance's second item: no Scenario or rule id appears as a string in
/// the engine's code (comments may cite them). Tests and docs are not engine code.
#[test]
fn no_scenario_or_rule_id_in_engine_code() {
    let ids = scenario_ids();
    let mut files = Vec::new();
    rust_files(&root().join("engine/src"), &mut files);
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut in_tests = false;
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                in_tests = true; // unit tests at the end of a file
            }
            let code = line.split("//").next().unwrap_or("");
            if in_tests || code.trim().is_empty() {
                continue;
            }
            for id in &ids {
                if code.contains(&format!("\"{id}\"")) {
                    found.push(format!("{}:{}: \"{id}\"", file.display(), n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "Scenario or rule ids in engine code:\n{}", found.join("\n"));
}

/// A rule whose Lua fails is undone (its Victory Points too) and reported with
/// its path, and the game goes on: `arena run` reports it as a failure.
#[test]
fn a_failing_rule_is_undone_and_reported() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let run = arena(&["run", "fixtures/situations/scenario-rule-fails.toml"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(
            "scenario:failing-rule rules[id=bad-zone].effect failed and was undone: characters_in_zone: the map has no zone `zone-99`"
        ),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("VP for bad-zone"), "the failed rule's Victory Points stayed:\n{}", run.stdout);
    assert!(run.stdout.contains("draws"), "the Recovery Phase did not go on:\n{}", run.stdout);
}

/// Issue 14 § 3: `check --strict` lists every text-only rule, the summary
/// counts them with or without `--strict`, and the count matches the list.
#[test]
fn text_only_rules_are_listed_and_counted() {
    let content = root().join("content");
    let content = content.to_str().unwrap();
    let strict = arena(&["check", content, "--strict", "--format", "json", "-q"]);
    let doc: Value = serde_json::from_str(&strict.stdout).unwrap();
    let listed =
        doc["diagnostics"].as_array().unwrap().iter().filter(|d| d["code"] == "scenario-rule-text-only").count();
    assert!(listed > 0);
    assert_eq!(doc["summary"]["text_only_rules"], listed);
    let plain = arena(&["check", content, "--format", "json", "-q"]);
    let doc: Value = serde_json::from_str(&plain.stdout).unwrap();
    assert_eq!(doc["summary"]["text_only_rules"], listed, "the count without --strict");
    // Assault has none: every rule of it is performed.
    let assault = arena(&["check", &format!("{content}/aristeia-core"), "--strict", "--format", "json", "-q"]);
    let doc: Value = serde_json::from_str(&assault.stdout).unwrap();
    assert!(doc["summary"].get("text_only_rules").is_none(), "{}", doc["summary"]);
}

/// `001 § Scenarios`: the Prime Time Scenarios' objectives and special rules
/// are data or Lua; `check --strict` lists as text only the rules the engine
/// does not play yet and Gaia's Tectonic Shake, whose
/// Character no pack holds: Common Goals' Objectives Deck rules are played
/// (`objectives_deck`), the tutorials' Characters are their `characters`, and
/// their Prime Time marker the engine's Team Creation.
#[test]
fn prime_time_scenario_rules_are_data_or_lua_but_the_declared_text_only_ones() {
    let pack = root().join("content/aristeia-prime-time");
    let strict = arena(&["check", pack.to_str().unwrap(), "--strict", "--format", "json", "-q"]);
    let doc: Value = serde_json::from_str(&strict.stdout).unwrap();
    let mut listed: Vec<String> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "scenario-rule-text-only")
        .map(|d| d["message"].as_str().unwrap().split(" is text only").next().unwrap().to_string())
        .collect();
    listed.sort();
    assert_eq!(listed, ["Scenario rule `no-tectonic-shake` of `crow-accumulator`",]);
    assert_eq!(doc["summary"]["errors"], 0, "{}", doc["summary"]);
}

/// A rule whose Lua ends the game at the start of Round 1 (a mistake: meant for
/// a later Round) is noticed: `arena sim` prints a warning in its summary, and
/// `arena check --sims` warns with the rule's name and a command that plays
/// the game again; the narrative names the rule
/// (`situations/scenarios/end-game-at-round-start.toml`).
#[test]
fn a_game_ended_before_any_activation_is_reported() {
    let core = root().join("content/aristeia-core");
    let pack = tests_dir().join("fixtures/packs/ends-at-once");
    let (core, pack) = (core.to_str().unwrap(), pack.to_str().unwrap());
    let sim = arena(&["sim", "sudden-death", "--pack", core, "--pack", pack, "--games", "3", "--random-teams", "-q"]);
    assert_eq!(sim.code, 0, "{}{}", sim.stdout, sim.stderr);
    assert!(
        sim.stdout.contains(
            "warning: 3 of 3 games ended before any Activation (first: seed 1; Scenario rule `last-round` ended it)"
        ),
        "{}",
        sim.stdout
    );
    let run = arena(&["sim", "sudden-death", "--pack", core, "--pack", pack, "--seed", "1", "--random-teams", "-q"]);
    assert!(run.stdout.contains("last-round ends the game in Round 1"), "{}", run.stdout);

    let check = arena(&["check", core, pack, "--sims", "2", "--format", "json", "-q"]);
    assert_eq!(check.code, 0, "a warning, not an error: {}{}", check.stdout, check.stderr);
    let doc: Value = serde_json::from_str(&check.stdout).unwrap();
    let warned: Vec<&Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "warning" && d["code"] == "sim-failed")
        .collect();
    assert!(
        warned.iter().any(|d| d["message"]
            .as_str()
            .unwrap()
            .contains("the game ended in Round 1 before any Activation: Scenario rule `last-round` ended it")),
        "{warned:?}"
    );
    // The ordinary games of the core pack end after Activations: no such warning.
    let plain = arena(&["check", core, "--sims", "2", "--format", "json", "-q"]);
    assert!(!plain.stdout.contains("before any Activation"), "{}", plain.stdout);
}

/// The command `arena check --sims` gives to play a game again works pasted in
/// the folder check ran in (here `tests/`): a pack given as a relative path
/// stays as given, and a bundled pack borrowed for a dependency, found beside
/// the binary's checkout as `.../tools/../content/...`, is an absolute path
/// without `..`.
#[test]
fn the_reproduce_command_works_where_check_ran() {
    let check = arena(&["check", "fixtures/packs/ends-at-once", "--sims", "1", "--format", "json", "-q"]);
    let doc: Value = serde_json::from_str(&check.stdout).unwrap();
    let help = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|d| d["help"].as_str().filter(|h| h.starts_with("reproduce with `arena sim ")))
        .unwrap_or_else(|| panic!("no reproduce command: {}", check.stdout))
        .to_string();
    let command = help.trim_start_matches("reproduce with `arena ").trim_end_matches('`');
    let args: Vec<&str> = command.split(' ').collect();
    let packs: Vec<&str> = args.windows(2).filter(|w| w[0] == "--pack").map(|w| w[1]).collect();
    assert!(packs.contains(&"fixtures/packs/ends-at-once"), "the pack as given: {help}");
    for p in &packs {
        assert!(!p.contains(".."), "a path through `..`: {help}");
        assert!(Path::new(p).is_dir(), "`{p}` is not a folder from tests/: {help}");
    }
    let core = packs.iter().find(|p| p.ends_with("aristeia-core")).expect("the borrowed core pack");
    assert!(Path::new(core).is_absolute(), "{help}");
    // Pasted: it plays the game that was reported.
    let run = arena(&args);
    assert_eq!(run.code, 0, "{command}: {}", run.stderr);
    assert!(run.stdout.contains("last-round ends the game in Round 1"), "{}", run.stdout);
}

/// `deploy_in`: by default a team deploys in or next to its zone (Assault's
/// rule); `deploy_in = "zone"` keeps it to the zone's own spaces (a
/// fresh-user trial found the default applied to every Scenario, unsaid).
#[test]
fn deploy_in_zone_keeps_teams_inside_their_zones() {
    let zones: Vec<String> = [
        "[0, -5]", "[1, -6]", "[1, -5]", "[0, -4]", "[-1, -4]", "[-1, -5]", "[0, -6]", // north
        "[0, 5]", "[1, 5]", "[1, 4]", "[0, 4]", "[-1, 5]", "[-1, 6]", "[0, 6]", // south
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let deployed = |pack: &Path| -> Vec<String> {
        let mut spaces = Vec::new();
        for seed in 1..=5 {
            let seed = seed.to_string();
            let run = arena(&["sim", "crater-control", "--pack", pack.to_str().unwrap(), "--seed", &seed, "-q"]);
            assert_eq!(run.code, 0, "{}", run.stderr);
            spaces.extend(run.stdout.lines().filter_map(|l| l.split_once(" deploys at ").map(|(_, s)| s.to_string())));
        }
        assert_eq!(spaces.len(), 40, "8 Characters deploy in each of 5 games");
        spaces
    };
    let original = root().join("mods/crater-control");
    assert!(
        deployed(&original).iter().any(|s| !zones.contains(s)),
        "by default some Character deploys next to its zone"
    );
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(original.join("pack.toml"), tmp.path().join("pack.toml")).unwrap();
    let text = std::fs::read_to_string(original.join("crater.toml")).unwrap();
    let line = "deployment_zones = [\"north\", \"south\"]";
    assert!(text.contains(line));
    std::fs::write(tmp.path().join("crater.toml"), text.replace(line, &format!("{line}\ndeploy_in = \"zone\"")))
        .unwrap();
    let inside = deployed(tmp.path());
    assert!(inside.iter().all(|s| zones.contains(s)), "a Character deployed outside its zone: {inside:?}");
}

/// A Prime Time Scenario's printed deployment is performed by its
/// `team_deployment` (or `deployment_zones`); without them `check --strict`
/// lists it as text only, and the count says so (`001 § Preparations`, 8.
/// Team Deployment: "The scenario will indicate where to deploy").
#[test]
fn a_prime_time_deployment_without_team_deployment_is_listed_as_text_only() {
    let dir = std::env::temp_dir().join(format!("arena-deploy-text-{}", std::process::id()));
    let pack = dir.join("aristeia-prime-time");
    std::fs::create_dir_all(&dir).unwrap();
    let status = std::process::Command::new("cp")
        .args(["-r", root().join("content/aristeia-prime-time").to_str().unwrap(), pack.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    let file = pack.join("scenarios/deathmatch-ballroom-dancing.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let without: String = text.lines().filter(|l| !l.starts_with("team_deployment")).collect::<Vec<_>>().join("\n");
    assert_ne!(without, text, "the bundled Scenario has a team_deployment");
    std::fs::write(&file, without).unwrap();
    let strict = arena(&["check", pack.to_str().unwrap(), "--strict", "--format", "json", "-q"]);
    let doc: Value = serde_json::from_str(&strict.stdout).unwrap();
    let listed: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "scenario-rule-text-only")
        .filter_map(|d| d["message"].as_str())
        .collect();
    assert!(
        listed.iter().any(|m| m.starts_with("the deployment of `deathmatch-ballroom-dancing` is text only")),
        "{listed:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
