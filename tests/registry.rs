//! The games by name and the one batch runner (`arena_engine::sim`): every
//! name a command takes finds its game in the registry, the game reads a
//! request into what it plays (seat counts, setups, seatings: rules that
//! once lived in the CLI), and the batches of both games run through the
//! same runner with their own tallies.

use arena_engine::load;
use arena_engine::sim::{self, GAMES, Policy, Request, Rules};
use std::sync::{Arc, OnceLock};

fn load_paths(paths: &[&str]) -> load::Loaded {
    let root = arena_tests::tests_dir().join("..");
    let paths: Vec<_> = paths.iter().map(|p| root.join(p)).collect();
    let loaded = load::load(&paths, &load::Options { run_script_tests: false, ..load::Options::default() });
    assert!(!loaded.has_errors(), "errors loading {paths:?}");
    loaded
}

/// Every bundled pack: Aristeia!'s and Invictus's.
fn everything() -> &'static load::Loaded {
    static L: OnceLock<load::Loaded> = OnceLock::new();
    L.get_or_init(|| load_paths(&["content"]))
}

fn request(name: &str) -> Request {
    Request { name: name.into(), ..Request::default() }
}

#[test]
fn a_name_on_the_command_line_finds_its_game_in_the_registry() {
    let content = &everything().content;
    let game = |name: &str| sim::game_of_setup(content, name).map(|g| g.name());
    // A setup id, a Scenario id with and without a ready-made setup, a game's own name.
    assert_eq!(game("first-game"), Some("aristeia"));
    assert_eq!(game("assault"), Some("aristeia"));
    assert_eq!(game("crossover-assault"), Some("aristeia"));
    assert_eq!(game("invictus"), Some("invictus"));
    assert_eq!(game("chess"), None);
    let names = sim::setup_names(content);
    for n in ["first-game", "assault", "invictus"] {
        assert!(names.iter().any(|x| x == n), "{n} in {names:?}");
    }
    // A batch's JSON by its kind; a situation file by its `game` key.
    assert_eq!(sim::game_of_batch("sim-batch").map(|g| g.name()), Some("aristeia"));
    assert_eq!(sim::game_of_batch("invictus-sim-batch").map(|g| g.name()), Some("invictus"));
    assert!(sim::game_of_batch("sim-compare").is_none());
    assert_eq!(sim::game_of_situation("game = \"invictus\"\nturns = 1\n").unwrap().name(), "invictus");
    assert_eq!(sim::game_of_situation("scenario = \"assault\"\n").unwrap().name(), "aristeia");
    let unknown = sim::game_of_situation("game = \"chess\"\n").err().unwrap();
    assert!(unknown.message.contains("aristeia, invictus"), "{unknown}");
    assert_eq!(unknown.at, Some((1, 1)), "at the `game` key");
    // Each game's batch kind is its own.
    let kinds: std::collections::BTreeSet<&str> = GAMES.iter().map(|g| g.batch_kind()).collect();
    assert_eq!(kinds.len(), GAMES.len());
}

/// The seat count of a Scenario, whether a name is a Scenario or a setup,
/// and the Invictus batch of `arena sim invictus` and `arena watch --sim
/// invictus`: the games' own rules, read from a request.
#[test]
fn each_game_reads_a_request_into_its_seats_and_setup() {
    let content = &everything().content;
    let aristeia = sim::find("aristeia").unwrap();
    let seats = |r: Request| aristeia.resolve(content, &r).map(|s| (s.seats(), s.head()["setup"].clone()));
    assert_eq!(seats(request("assault")).unwrap(), (2, "first-game".into()));
    assert_eq!(
        seats(Request { random_teams: true, ..request("first-game") }).unwrap(),
        (2, "assault (random teams)".into())
    );
    // A Prime Time Scenario without a ready-made setup: random teams, its default 3 seats.
    assert_eq!(seats(request("crossover-assault")).unwrap(), (3, "crossover-assault (random teams)".into()));
    assert_eq!(seats(Request { players: 4, ..request("crossover-assault") }).unwrap().0, 4);
    let two = seats(Request { seats: Some(2), ..request("crossover-assault") }).unwrap_err();
    assert!(two.contains("is a 3-4 player Scenario, not for 2"), "{two}");
    let mismatch = seats(Request { seats: Some(4), players: 3, ..request("crossover-assault") }).unwrap_err();
    assert!(mismatch.contains("--players names 3 controllers"), "{mismatch}");
    let setup = seats(Request { seats: Some(3), ..request("first-game") }).unwrap_err();
    assert!(setup.contains("not for 3"), "{setup}");
    let seating = seats(Request { seating: Some("random".into()), ..request("assault") }).unwrap_err();
    assert!(seating.contains("--seating is for Invictus"), "{seating}");
    let rule = seats(Request { optional_rules: vec!["underdog".into()], ..request("assault") }).unwrap_err();
    assert!(rule.contains("underdog"), "{rule}");
    let named = sim::Named::of(content, "first-game");
    assert_eq!((named.setup.as_deref(), named.scenario.as_deref()), (Some("first-game"), Some("assault")));
    assert_eq!(sim::Named::of(content, "crossover-assault").default_seats(content), 3);

    let invictus = sim::find("invictus").unwrap();
    let spec = invictus.resolve(content, &request("invictus")).unwrap();
    assert_eq!(spec.seats(), 4, "the default Invictus batch is 4 players");
    assert_eq!(spec.head()["setup"]["seating"], "standard");
    let six = invictus
        .resolve(content, &Request { seats: Some(6), seating: Some("every-other".into()), ..request("invictus") });
    assert_eq!(six.unwrap().head()["setup"]["seating"], "every-other");
    let compare = invictus.resolve(content, &Request { compare: true, ..request("invictus") }).err().unwrap();
    assert!(compare.contains("--compare is for Aristeia!"), "{compare}");
    let rule = invictus
        .resolve(content, &Request { optional_rules: vec!["underdog".into()], ..request("invictus") })
        .err()
        .unwrap();
    assert!(rule.contains("Invictus has none"), "{rule}");
}

/// Both games' batches run through the one runner: the same games on 1 and
/// on 2 threads, in seed order; the games are those each game plays on its
/// own (Aristeia!'s digests, Invictus's records); the game's tally gives the
/// report its own summaries give; and the tallies of two halves merge into
/// the whole batch's.
#[test]
fn a_batch_of_either_game_runs_through_the_one_runner() {
    let loaded = everything();
    let content = Arc::new(loaded.content.clone());
    for name in ["assault", "invictus"] {
        let rules: &dyn Rules = sim::game_of_setup(&content, name).unwrap();
        let spec = rules.resolve(&content, &request(name)).unwrap();
        let players = sim::cycle(&[Policy::Greedy, Policy::Random], spec.seats());
        let run = |seeds: std::ops::Range<u64>, jobs| {
            sim::run(&*spec, content.clone(), loaded.script_set.clone(), seeds, &players, jobs, &|| {}).unwrap()
        };
        let (one, two) = (run(1..7, 1), run(1..7, 2));
        let json = |g: &[Box<dyn sim::Summary>]| g.iter().map(|g| g.to_json()).collect::<Vec<_>>();
        assert_eq!(json(&one), json(&two), "{name}: 1 and 2 threads");
        assert_eq!(one.iter().map(|g| g.seed()).collect::<Vec<_>>(), (1..7).collect::<Vec<_>>());
        let tally = rules.tally(&two);
        let mut halves = rules.tally(&run(1..4, 2));
        halves.merge(&*rules.tally(&run(4..7, 2))).unwrap();
        assert_eq!(halves.to_json(), tally.to_json(), "{name}: two shards");
        tally.check(1..7, spec.seats()).unwrap();
        assert!(tally.check(1..8, spec.seats()).is_err(), "{name}: a tally of 6 games is not of 7");
        match name {
            "assault" => {
                let own: Vec<sim::GameSummary> =
                    two.iter().map(|g| g.as_any().downcast_ref::<sim::GameSummary>().unwrap().clone()).collect();
                assert_eq!(tally.report_json(), serde_json::to_value(sim::Report::of(&own)).unwrap());
                // The games are the engine's own: the digests of `sim::digests`.
                let (theirs, _) = sim::digests(
                    content.clone(),
                    loaded.script_set.clone(),
                    &sim::Teams::Setup("first-game".into()),
                    1..7,
                    &players,
                )
                .unwrap();
                let (ours, _) = sim::digests_of(&*spec, &content, loaded.script_set.clone(), 1..7, &players).unwrap();
                assert_eq!(ours, theirs);
            }
            _ => {
                let own: Vec<sim::invictus::GameSummary> = two
                    .iter()
                    .map(|g| g.as_any().downcast_ref::<sim::invictus::GameSummary>().unwrap().clone())
                    .collect();
                assert_eq!(tally.report_json(), serde_json::to_value(sim::invictus::Report::of(&own)).unwrap());
                let rt = rules.runtime(content.clone(), loaded.script_set.clone()).unwrap();
                // A batch deals the gods evenly (`GodDeal::Even`).
                let setup = arena_engine::invictus::InvictusSetup {
                    deal: arena_engine::invictus::GodDeal::Even,
                    ..arena_engine::invictus::InvictusSetup::teams(4)
                };
                for g in &own {
                    let r = sim::invictus::play(&content, &rt, &setup, g.seed, &players).unwrap();
                    assert_eq!((r.winner, r.turns, &r.gods), (g.winner, g.turns, &g.gods), "seed {}", g.seed);
                }
            }
        }
    }
}

/// A game that is not there yet would add its own tally: a tally of one
/// game refuses to merge another game's.
#[test]
fn one_games_tally_does_not_merge_anothers() {
    let aristeia = sim::find("aristeia").unwrap();
    let invictus = sim::find("invictus").unwrap();
    let mut a = aristeia.tally(&[]);
    let err = a.merge(&*invictus.tally(&[])).unwrap_err();
    assert!(err.contains("two different games"), "{err}");
}

/// The games the committed digests record (tests/fixtures/digests, README
/// there): 50 seeded games of each mode, the same events and answers for
/// every seed. A change to the rules or the bundled content changes them on
/// purpose and re-records them; speed work must leave them as they are.
#[test]
fn seeded_games_are_the_games_the_committed_digests_record() {
    let modes: [(&str, &[&str]); 7] = [
        ("assault-greedy-50", &["assault", "--players", "greedy"]),
        ("assault-random-50", &["assault", "--players", "random"]),
        ("crossover-assault-3-greedy-50", &["crossover-assault", "--seats", "3", "--players", "greedy"]),
        ("crossover-assault-4-greedy-50", &["crossover-assault", "--seats", "4", "--players", "greedy"]),
        ("invictus-4-greedy-50", &["invictus", "--seats", "4", "--players", "greedy"]),
        ("invictus-4-random-50", &["invictus", "--seats", "4", "--players", "random"]),
        ("invictus-6-greedy-50", &["invictus", "--seats", "6", "--players", "greedy"]),
    ];
    for (file, args) in modes {
        let want =
            std::fs::read_to_string(arena_tests::tests_dir().join("fixtures/digests").join(format!("{file}.txt")))
                .unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut argv = vec!["sim"];
        argv.extend_from_slice(args);
        argv.extend_from_slice(&["--games", "50", "--digest"]);
        let run = arena_tests::arena(&argv);
        assert_eq!(run.code, 0, "{file}: {}", run.stderr);
        assert_eq!(run.stdout.lines().count(), 51, "{file}: one line a seed and the `all` line");
        for (got, want) in run.stdout.lines().zip(want.lines()) {
            assert_eq!(got, want, "{file}: `arena sim {}` plays another game", args.join(" "));
        }
    }
}
