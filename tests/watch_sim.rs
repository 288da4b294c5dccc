//! `arena watch --sim`: after each good reload, a seeded batch compared with
//! the previous content's (paired where the two pair), played as `arena sim`
//! plays it, `--games auto` by default (README § arena watch,
//! docs/balance-runs.md § In `arena watch --sim`).

use arena_tests::watching::{Cli, copy_dir, core_pack, duelist_file, edit, repo};

#[test]
fn cli_sim_compares_with_the_previous_content() {
    let dir = core_pack();
    let root = dir.path().display().to_string();
    let args: Vec<String> = [
        "watch",
        "--once",
        "--debounce",
        "50",
        "--color",
        "never",
        "--sim",
        "assault",
        "--games",
        "4",
        "--jobs",
        "1",
        "--players",
        "random",
        &root,
    ]
    .map(String::from)
    .to_vec();
    let mut cli = Cli::start(args);
    cli.wait_for("[1] live");
    cli.wait_for("  draws ");
    assert!(cli.stdout.contains("sim first-game: 4 games, seeds 1-4"), "{}", cli.stdout);
    assert!(cli.stdout.contains("player 1 win rate "), "{}", cli.stdout);
    let file = dir.path().join("aristeia-core/characters/characters.toml");
    edit(&file, "hit_points = 5", "hit_points = 2");
    let (code, out, err) = cli.finish();
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("[2] reloaded"), "{out}");
    assert!(out.contains("compared with [1]"), "{out}");
    let line = out.lines().rev().find(|l| l.contains("player 2 win rate")).unwrap();
    assert!(line.contains("% [") && line.contains("(was ") && line.contains(", mean VP "), "{line}");
}

/// After a change, `watch --sim` pairs its batch with the previous
/// content's (the same seeds and the same setups): the paired difference per
/// seat and per changed Character, with Holm's correction said.
#[test]
fn cli_sim_pairs_each_batch_with_the_previous_contents_on_the_same_seeds_and_teams() {
    let dir = core_pack();
    copy_dir(&arena_tests::tests_dir().join("fixtures/good/worked-example/duelist"), &dir.path().join("duelist"));
    let root = dir.path().display().to_string();
    let args: Vec<String> = [
        "watch",
        "--once",
        "--debounce",
        "50",
        "--color",
        "never",
        "--sim",
        "assault",
        "--random-teams",
        "--games",
        "6",
        "--jobs",
        "1",
        &root,
    ]
    .map(String::from)
    .to_vec();
    let mut cli = Cli::start(args);
    cli.wait_for("[1] live");
    cli.wait_for("  draws ");
    assert!(!cli.stdout.contains("paired with"), "nothing to pair with yet: {}", cli.stdout);
    edit(&duelist_file(dir.path()), "initiative = 6", "initiative = 9");
    let (code, out, err) = cli.finish();
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("  paired with [1] (the same seeds and teams): "), "{out}");
    assert!(out.contains("Holm across "), "{out}");
    for row in ["    player 1 ", "    player 2 ", "    la-duelista "] {
        let line = out.lines().find(|l| l.starts_with(row)).unwrap_or_else(|| panic!("no `{row}` row:\n{out}"));
        assert!(line.contains("], z ") && line.contains(", p ") && line.ends_with(" changed"), "{line}");
    }
}

/// issue 13 item 4: after a change, `watch --sim` prints the changed
/// Character's row (games, side's win rate, Damage, Infirmary) with the
/// previous content's figures beside each.
#[test]
fn cli_sim_shows_the_changed_characters_row_beside_the_previous_one() {
    let dir = core_pack();
    copy_dir(&arena_tests::tests_dir().join("fixtures/good/worked-example/duelist"), &dir.path().join("duelist"));
    let root = dir.path().display().to_string();
    let args: Vec<String> = [
        "watch",
        "--once",
        "--debounce",
        "50",
        "--color",
        "never",
        "--sim",
        "assault",
        "--random-teams",
        "--games",
        "4",
        "--jobs",
        "1",
        &root,
    ]
    .map(String::from)
    .to_vec();
    let mut cli = Cli::start(args);
    cli.wait_for("[1] live");
    cli.wait_for("  draws ");
    // Nothing has changed yet: no Character rows.
    assert!(!cli.stdout.contains("(changed)"), "{}", cli.stdout);
    edit(&duelist_file(dir.path()), "initiative = 6", "initiative = 9");
    let (code, out, err) = cli.finish();
    assert_eq!(code, 0, "{out}\n{err}");
    let rows: Vec<&str> = out.lines().filter(|l| l.contains("(changed)")).collect();
    assert_eq!(rows.len(), 1, "only la-duelista changed:\n{out}");
    let row = rows[0];
    assert!(row.starts_with("  la-duelista (changed): "), "{row}");
    assert!(
        row.contains(" games (was ") && row.contains("side wins ") && row.contains("% [") && row.contains("(was "),
        "{row}"
    );
    assert!(
        row.contains(", dealt ")
            && row.contains(", taken ")
            && row.contains(", Infirmary ")
            && row.ends_with(" per game"),
        "{row}"
    );
}

/// `watch --sim`: a batch whose games had failed effects says so above its
/// win rates.
#[test]
fn cli_sim_says_a_batch_had_failed_effects_above_its_figures() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = arena_tests::tests_dir().join("fixtures");
    copy_dir(&fixtures.join("base/aristeia-core"), &dir.path().join("aristeia-core"));
    let pack = dir.path().join("fails-in-play");
    std::fs::create_dir_all(&pack).unwrap();
    for f in ["pack.toml", "duel.toml"] {
        std::fs::copy(fixtures.join("packs/fails-in-play").join(f), pack.join(f)).unwrap();
    }
    let root = dir.path().display().to_string();
    let args: Vec<String> =
        ["watch", "--once", "--debounce", "50", "--color", "never", "--sim", "duel", "--random-teams", "--games", "2"]
            .into_iter()
            .chain(["--jobs", "1", &root])
            .map(String::from)
            .collect();
    let mut cli = Cli::start(args);
    cli.wait_for("[1] live");
    cli.wait_for("  draws ");
    let lines: Vec<&str> = cli.stdout.lines().collect();
    let warning = lines.iter().position(|l| l.starts_with("  warning: 2 of 2 games had failed effects"));
    let figures = lines.iter().position(|l| l.starts_with("  player 1 win rate "));
    assert!(warning.is_some() && figures.is_some() && warning < figures, "{}", cli.stdout);
    edit(&pack.join("duel.toml"), "rounds = 3", "rounds = 2");
    let _ = cli.finish();
}

/// `watch --sim invictus`: the game and its batch come from the registry,
/// as `arena sim invictus` reads them: 4 players in two teams, the
/// `--players` cycled around the table; each god's win rate is the one
/// `arena sim invictus` gives for the same seeds and players.
#[test]
fn cli_sim_invictus_plays_the_batch_arena_sim_plays() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("content/invictus"), &dir.path().join("invictus"));
    let root = dir.path().display().to_string();
    let players = ["--games", "4", "--jobs", "1", "--players", "greedy,random"];
    let args: Vec<String> = ["watch", "--once", "--debounce", "50", "--color", "never", "--sim", "invictus"]
        .into_iter()
        .chain(players)
        .chain([root.as_str()])
        .map(String::from)
        .collect();
    let mut cli = Cli::start(args);
    cli.wait_for("[1] live");
    cli.wait_for("  sim invictus: 4 games, seeds 1-4");
    let pack = dir.path().join("invictus/pack.toml");
    let text = std::fs::read_to_string(&pack).unwrap();
    std::fs::write(&pack, text + "\n# touched\n").unwrap();
    let (code, out, err) = cli.finish();
    assert_eq!(code, 0, "{out}\n{err}");
    let pack_arg = dir.path().join("invictus").display().to_string();
    let mut sim_args = vec!["sim", "invictus", "--format", "json", "--pack", pack_arg.as_str()];
    sim_args.extend(players);
    let sim = arena_tests::arena(&sim_args);
    assert_eq!(sim.code, 0, "{}", sim.stderr);
    let v: serde_json::Value = serde_json::from_str(&sim.stdout).unwrap();
    assert_eq!(v["setup"]["players"], 4);
    // The first batch's lines: from its heading to the reload.
    let first: Vec<&str> =
        out.lines().skip_while(|l| !l.starts_with("  sim invictus:")).take_while(|l| !l.contains("reloaded")).collect();
    let gods = v["report"]["gods"].as_object().unwrap();
    assert!(!gods.is_empty());
    for (god, line) in gods {
        let rate = line["rate"]["rate"].as_f64().unwrap() * 100.0;
        let want = format!("  {god:<12} {rate:5.1}%");
        assert!(first.contains(&want.as_str()), "`{want}` in {first:#?}");
    }
}

/// `watch --sim` plays `--games auto` unless told a number: chunks of 200
/// seeds until every seat's win rate is within ±--precision points; after a
/// change, on the same seeds (the previous content played on any seed it
/// had not played), until the paired differences it prints are. The line
/// under the figures says how many games it took, and of which interval.
#[test]
fn cli_sim_plays_games_auto_by_default_until_the_interval_read_is_narrow_enough() {
    let dir = core_pack();
    let root = dir.path().display().to_string();
    let args: Vec<String> = [
        "watch",
        "--once",
        "--debounce",
        "50",
        "--color",
        "never",
        "--sim",
        "first-game",
        "--players",
        "random",
        "--precision",
        "5",
        "--max-games",
        "400",
        &root,
    ]
    .map(String::from)
    .to_vec();
    let mut cli = Cli::start(args);
    cli.wait_for("[1] live");
    cli.wait_for("(asked ±5.0)");
    let first = cli.stdout.clone();
    let auto = first.lines().find(|l| l.starts_with("  --games auto: ")).unwrap();
    assert!(auto.contains("every seat's win rate"), "{auto}");
    let games: u64 = auto["  --games auto: ".len()..].split(' ').next().unwrap().parse().unwrap_or(400);
    assert!(games % 200 == 0 && games <= 400, "whole chunks of 200, at most --max-games: {auto}");
    assert!(first.contains(&format!("sim first-game: {games} games, seeds 1-{games}")), "{first}");
    let file = dir.path().join("aristeia-core/characters/characters.toml");
    edit(&file, "hit_points = 5", "hit_points = 2");
    let (code, out, err) = cli.finish();
    assert_eq!(code, 0, "{out}\n{err}");
    let after: Vec<&str> = out.lines().skip_while(|l| !l.contains("[2] reloaded")).collect();
    assert!(after.iter().any(|l| l.starts_with("  paired with [1] (the same seeds and teams)")), "{after:#?}");
    let auto = after.iter().find(|l| l.starts_with("  --games auto: ")).unwrap();
    assert!(auto.contains("the widest difference read"), "{auto}");
}

/// `watch --sim` options that no content can make playable are refused
/// before anything is watched (exit 2); a batch the content cannot play as
/// asked (a table size its Scenario refuses) is an error after each reload,
/// and `--once` then exits 2, not 0.
#[test]
fn cli_sim_refuses_what_cannot_be_played_and_once_says_so() {
    let dir = core_pack();
    let root = dir.path().display().to_string();
    for (args, says) in [
        (vec!["--seed", "18446744073709551615"], "give a lower --seed"),
        (vec!["--games", "5", "--precision", "3"], "go with --games auto"),
        (vec!["--games", "5", "--max-games", "3"], "go with --games auto"),
    ] {
        let mut all = vec!["watch", "--once", "--sim", "first-game", root.as_str()];
        all.extend(args.iter());
        let r = arena_tests::arena(&all);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
    let args: Vec<String> = [
        "watch",
        "--once",
        "--debounce",
        "50",
        "--color",
        "never",
        "--sim",
        "first-game",
        "--players",
        "random,random,random",
        &root,
    ]
    .map(String::from)
    .to_vec();
    let mut cli = Cli::start(args);
    cli.wait_for("[1] live");
    edit(&dir.path().join("aristeia-core/characters/characters.toml"), "hit_points = 5", "hit_points = 4");
    let (code, out, err) = cli.finish();
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(err.contains("error: sim: "), "{err}");
}
