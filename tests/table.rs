//! Tables: a running game of either game as a value you can fork and step
//! (`arena_engine::table`), the same players for both, and the promise that
//! a fork is the game: continued with the original answers it ends as the
//! original did, answered differently it is a fresh game replayed with that
//! answer prefix.

use arena_engine::invictus::{self, InvictusSetup};
use arena_engine::load;
use arena_engine::players::{RandomPlayer, ScriptedPlayer};
use arena_engine::rules::game::GameSetup;
use arena_engine::rules::state::Location;
use arena_engine::script::runtime::Runtime;
use arena_engine::sim;
use arena_engine::table::{self, Native, Played, Player, Setup, Table, TableError};
use std::sync::{Arc, OnceLock};

fn load_paths(paths: &[&str]) -> load::Loaded {
    let root = arena_tests::tests_dir().join("..");
    let paths: Vec<_> = paths.iter().map(|p| root.join(p)).collect();
    let loaded = load::load(&paths, &load::Options { run_script_tests: false, ..load::Options::default() });
    assert!(!loaded.has_errors(), "errors loading {paths:?}");
    loaded
}

fn aristeia() -> &'static load::Loaded {
    static L: OnceLock<load::Loaded> = OnceLock::new();
    L.get_or_init(|| load_paths(&["content"]))
}

fn invictus_content() -> &'static load::Loaded {
    static L: OnceLock<load::Loaded> = OnceLock::new();
    L.get_or_init(|| load_paths(&["content/invictus"]))
}

/// One kind of game the acceptance test plays.
#[derive(Debug, Clone, Copy)]
struct Mode {
    game: &'static str,
    name: &'static str,
    seats: usize,
}

const MODES: [Mode; 5] = [
    Mode { game: "aristeia", name: "assault", seats: 2 },
    Mode { game: "aristeia", name: "crossover-assault", seats: 3 },
    Mode { game: "aristeia", name: "crossover-assault", seats: 4 },
    Mode { game: "invictus", name: "teams", seats: 4 },
    Mode { game: "invictus", name: "teams", seats: 6 },
];

impl Mode {
    fn loaded(self) -> &'static load::Loaded {
        if self.game == "invictus" { invictus_content() } else { aristeia() }
    }

    fn runtime(self) -> Runtime {
        let l = self.loaded();
        let rules = table::find(self.game).expect("a registered game");
        rules.runtime(Arc::new(l.content.clone()), l.script_set.clone()).unwrap()
    }

    fn start<'a>(self, rt: &'a Runtime, seed: u64) -> Box<dyn Table<'a> + 'a> {
        let setup = Setup { name: self.name.into(), seats: Some(self.seats), seed };
        table::find(self.game).unwrap().start(&self.loaded().content, rt, &setup).unwrap()
    }
}

/// Everything a table shows, for comparing two of them.
#[derive(Debug, PartialEq)]
struct Seen {
    events: Vec<serde_json::Value>,
    state: serde_json::Value,
    decision: Option<table::Decision>,
    answers: Vec<usize>,
    outcome: Option<table::Outcome>,
}

fn seen(t: &dyn Table<'_>) -> Seen {
    Seen {
        events: t.events_json(),
        state: t.state_json(),
        decision: t.decision().cloned(),
        answers: t.answers(),
        outcome: t.outcome().cloned(),
    }
}

/// The same, without the whole log: the events from `from` on.
fn seen_from(t: &dyn Table<'_>, from: usize) -> (Vec<String>, usize, serde_json::Value, Option<table::Decision>) {
    (t.narrative(from), t.event_count(), t.state_json(), t.decision().cloned())
}

/// Play a seeded game of `mode` with random players, keeping a fork at
/// every Decision; the forks, the answers and the finished table.
fn forks_of<'a>(mode: Mode, rt: &'a Runtime, seed: u64) -> (Vec<Box<dyn Table<'a> + 'a>>, Box<dyn Table<'a> + 'a>) {
    let mut t = mode.start(rt, seed);
    let mut players: Vec<RandomPlayer> = (0..mode.seats).map(|s| RandomPlayer::for_seat(seed, s)).collect();
    let mut forks = Vec::new();
    while let Some(p) = t.to_move() {
        let a = players[p.index()].choose(&*t).expect("an answer");
        forks.push(t.fork());
        t.apply(a).unwrap();
    }
    (forks, t)
}

/// The acceptance test of tables on `games` seeds of `mode`: at every
/// Decision, the fork answered as the original did is the original's next
/// position; at `ends` Decisions spread over the game (all of them when
/// `ends` is `usize::MAX`), the fork continued with the original answers
/// ends as the original, and answered otherwise equals a fresh game replayed
/// with that answer prefix.
fn check_forks(mode: Mode, seeds: std::ops::Range<u64>, ends: usize) {
    let rt = mode.runtime();
    for seed in seeds {
        let (forks, end) = forks_of(mode, &rt, seed);
        let answers = end.answers();
        assert_eq!(answers.len(), forks.len(), "{mode:?} seed {seed}: one answer per Decision");
        let want = seen(&*end);
        assert!(want.outcome.is_some(), "{mode:?} seed {seed}: the game ended");
        for i in 0..forks.len() {
            let mut f = forks[i].fork();
            f.apply(answers[i]).unwrap();
            let next: &dyn Table = if i + 1 < forks.len() { &*forks[i + 1] } else { &*end };
            let from = forks[i].event_count();
            assert_eq!(seen_from(&*f, from), seen_from(next, from), "{mode:?} seed {seed}: fork at Decision {i}");
        }
        let step = if ends == usize::MAX { 1 } else { (forks.len() / ends.max(1)).max(1) };
        for i in (0..forks.len()).step_by(step) {
            let mut f = forks[i].fork();
            f.apply_all(&answers[i..]).unwrap();
            assert_eq!(seen(&*f), want, "{mode:?} seed {seed}: fork at Decision {i} continued to the end");
            let options = forks[i].options();
            if options < 2 {
                continue;
            }
            let other = (answers[i] + 1) % options;
            let mut branch = forks[i].fork();
            branch.apply(other).unwrap();
            let mut fresh = mode.start(&rt, seed);
            let mut prefix = answers[..i].to_vec();
            prefix.push(other);
            fresh.apply_all(&prefix).unwrap();
            assert_eq!(seen(&*branch), seen(&*fresh), "{mode:?} seed {seed}: fork at Decision {i} answered {other}");
            assert_ne!(seen(&*branch).answers, want.answers);
        }
    }
}

#[test]
fn forks_of_assault_games_are_the_games() {
    check_forks(MODES[0], 1..3, 6);
}

#[test]
fn forks_of_three_seat_crossover_assault_games_are_the_games() {
    check_forks(MODES[1], 1..2, 6);
}

#[test]
fn forks_of_four_seat_crossover_assault_games_are_the_games() {
    check_forks(MODES[2], 1..2, 6);
}

#[test]
fn forks_of_four_seat_invictus_games_are_the_games() {
    check_forks(MODES[3], 1..3, 6);
}

#[test]
fn forks_of_six_seat_invictus_games_are_the_games() {
    check_forks(MODES[4], 1..3, 6);
}

/// The full acceptance run: 20 seeded games of every mode, forks at
/// every Decision each continued to the end. Minutes in a release build:
/// `cargo test --release --workspace --test table -- --ignored`.
#[test]
#[ignore]
fn forks_of_twenty_games_of_every_mode_at_every_decision_are_the_games() {
    for mode in MODES {
        check_forks(mode, 1..21, usize::MAX);
    }
}
