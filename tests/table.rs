//! Tables: a running game of either game as a value you can fork and step
//! (`arena_engine::table`), the same players for both, and the promise that
//! a fork is the game: continued with the original answers it ends as the
//! original did, answered differently it is a fresh game replayed with that
//! answer prefix.

use arena_engine::invictus::InvictusSetup;
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
        let rules = sim::find(self.game).expect("a registered game");
        rules.runtime(Arc::new(l.content.clone()), l.script_set.clone()).unwrap()
    }

    fn start<'a>(self, rt: &'a Runtime, seed: u64) -> Box<dyn Table<'a> + 'a> {
        let setup = Setup { name: self.name.into(), seats: Some(self.seats), seed };
        sim::find(self.game).unwrap().start(&self.loaded().content, rt, &setup).unwrap()
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
        let a = players[p.index()].choose(&t.seat_view().unwrap()).expect("an answer");
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
        // The original line, answered one Decision at a time, is the engine's own game.
        let (events, answers) = engine_game(mode, &rt, seed);
        assert_eq!((&want.events, &want.answers), (&events, &answers), "{mode:?} seed {seed}: the engine's game");
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
        }
        if ends == usize::MAX {
            eprintln!("{mode:?} seed {seed}: {} Decisions, every fork checked", forks.len());
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

/// `000 § Actions Step`: a table at one of an Actions Step's Decisions
/// resumes from that choice, not from the Activation's start (an inner
/// point, ARCHITECTURE.md § Decisions), and one deeper in that choice (a
/// Target, a Switch...) replays only the answers since it; the forks above
/// check that the games are the same. Invictus keeps no inner point.
#[test]
fn a_table_at_an_actions_step_choice_replays_from_that_choice() {
    for mode in [MODES[0], MODES[2], MODES[3]] {
        let rt = mode.runtime();
        let (forks, _) = forks_of(mode, &rt, 3);
        let (mut actions, mut shorter) = (0, 0);
        for f in &forks {
            let (length, since) = (f.replay_length(), f.replays());
            assert!(length <= since, "{mode:?}: {length} answers replayed of {since}");
            if mode.game == "invictus" {
                assert_eq!(length, since, "{mode:?}: Invictus replays from its turn's start");
                continue;
            }
            // The Actions Step's own question (an effect that lets a
            // Character perform an Action asks one of the same kind inside
            // an Action, where no inner point is kept).
            if f.decision().is_some_and(|d| d.kind == "action" && d.prompt == "What next?") {
                actions += 1;
                assert_eq!(length, 0, "{mode:?}: an Actions Step Decision replays nothing before its answer");
            }
            shorter += usize::from(length < since);
        }
        if mode.game == "aristeia" {
            assert!(
                actions > 10 && shorter >= actions,
                "{mode:?}: {actions} Action Decisions, {shorter} shorter replays"
            );
        }
    }
}

/// Twenty seeded games of every mode, a fork at every Decision answered as
/// the original was and compared with the original's next position, and one
/// fork per game continued to the end (the test of each mode above continues
/// six per game). The same check at every Decision to the end, which takes
/// minutes, is `check_forks(mode, 1..21, usize::MAX)`; docs/performance.md §
/// Tables gives its last run.
#[test]
fn forks_of_twenty_aristeia_games_of_every_table_size_are_the_games() {
    for mode in &MODES[..3] {
        check_forks(*mode, 1..21, 1);
    }
}

/// The same for Invictus at 4 and 6 seats.
#[test]
fn forks_of_twenty_invictus_games_at_4_and_6_seats_are_the_games() {
    for mode in &MODES[3..] {
        check_forks(*mode, 1..21, 1);
    }
}

/// The engine's own record of a random game of `mode`: `sim::play_random`
/// (Aristeia) or `sim::invictus::play` with random seats.
fn engine_game(mode: Mode, rt: &Runtime, seed: u64) -> (Vec<serde_json::Value>, Vec<usize>) {
    let content = &mode.loaded().content;
    if mode.game == "invictus" {
        let r =
            sim::invictus::play(content, rt, &InvictusSetup::teams(mode.seats), seed, &[sim::Policy::Random]).unwrap();
        (r.events.iter().map(|e| serde_json::to_value(e).unwrap()).collect(), r.answers)
    } else {
        let setup = GameSetup::random(content, mode.name, mode.seats, seed).unwrap();
        let r = sim::play_random(content, rt, &setup).unwrap();
        (r.events.iter().map(|e| serde_json::to_value(e).unwrap()).collect(), r.answers)
    }
}

/// The table's replays are the real game: a table played by random players
/// (seeded as the engine seeds its random seats) tells the same story, event
/// for event and answer for answer, as the engine playing the game on its
/// own call stack, for both games.
#[test]
fn random_players_at_a_table_play_the_engines_own_random_games() {
    for mode in MODES {
        let rt = mode.runtime();
        for seed in 1..2 {
            let mut t = mode.start(&rt, seed);
            let mut players: Vec<RandomPlayer> = (0..mode.seats).map(|s| RandomPlayer::for_seat(seed, s)).collect();
            let mut seats: Vec<&mut dyn Player> = players.iter_mut().map(|p| p as &mut dyn Player).collect();
            assert_eq!(table::play_out(&mut *t, &mut seats).unwrap(), Played::Over);
            let (events, answers) = engine_game(mode, &rt, seed);
            assert_eq!(t.answers(), answers, "{mode:?} seed {seed}");
            assert_eq!(t.events_json(), events, "{mode:?} seed {seed}");
            assert_eq!(t.event_count(), events.len());
            let outcome = t.outcome().expect("over");
            assert_eq!(outcome.returns.len(), mode.seats);
            assert!(outcome.error.is_none(), "{mode:?} seed {seed}: {outcome:?}");
        }
    }
}

/// The scripted player, written once, plays both games: a recorded game's
/// answers play it again; cut short, it gives up at the first Decision it
/// has no answer for, and the table waits there for another player.
#[test]
fn a_scripted_player_replays_either_game_and_gives_up_where_its_answers_end() {
    for mode in [MODES[0], MODES[3]] {
        let rt = mode.runtime();
        let (events, answers) = engine_game(mode, &rt, 5);
        let mut whole = ScriptedPlayer::new(answers.clone());
        let mut t = mode.start(&rt, 5);
        assert_eq!(table::play_out(&mut *t, &mut [&mut whole]).unwrap(), Played::Over);
        assert_eq!((t.events_json(), whole.left()), (events.clone(), 0), "{mode:?}");

        let half = answers.len() / 2;
        let mut short = ScriptedPlayer::new(answers[..half].to_vec());
        let mut t = mode.start(&rt, 5);
        let played = table::play_out(&mut *t, &mut [&mut short]).unwrap();
        assert_eq!(played, Played::GaveUp(t.to_move().expect("waiting at a Decision")), "{mode:?}");
        assert_eq!(t.answers(), answers[..half], "{mode:?}");
        // Another player takes over where it stopped and ends the same game.
        let mut rest = ScriptedPlayer::new(answers[half..].to_vec());
        assert_eq!(table::play_out(&mut *t, &mut [&mut rest]).unwrap(), Played::Over);
        assert_eq!(t.events_json(), events, "{mode:?}");

        // An answer that is no option: it gives up and says which.
        let mut wrong = ScriptedPlayer::new(vec![10_000]);
        let mut t = mode.start(&rt, 5);
        assert!(matches!(table::play_out(&mut *t, &mut [&mut wrong]).unwrap(), Played::GaveUp(_)));
        assert_eq!(wrong.refused(), Some(10_000));
    }
}

/// Games are found by name, each once, and start at their seat counts.
#[test]
fn games_are_found_by_name_in_the_registry() {
    let names: Vec<&str> = sim::GAMES.iter().map(|g| g.name()).collect();
    assert_eq!(names, ["aristeia", "invictus"]);
    assert!(sim::find("chess").is_none());
    assert_eq!(sim::find("invictus").unwrap().seat_counts(), [2, 3, 4, 5, 6]);
    let rt = MODES[0].runtime();
    let aristeia = sim::find("aristeia").unwrap();
    let content = &aristeia_content().content;
    let at = |name: &str, seats| aristeia.start(content, &rt, &Setup { name: name.into(), seats, seed: 1 });
    // A setup id, a Scenario id with random teams, and neither.
    assert_eq!(at("first-game", None).unwrap().seats(), 2);
    assert_eq!(at("crossover-assault", Some(4)).unwrap().seats(), 4);
    assert!(at("crossover-assault", Some(2)).unwrap_err().contains("3-4"));
    assert!(at("no-such-thing", None).unwrap_err().contains("no-such-thing"));
    assert!(at("first-game", Some(3)).is_err());
    let irt = MODES[3].runtime();
    let inv = sim::find("invictus").unwrap();
    let t =
        inv.start(&invictus_content().content, &irt, &Setup { name: "free-for-all".into(), seats: Some(3), seed: 1 });
    assert_eq!(t.unwrap().game(), "invictus");
    let bad = inv.start(&invictus_content().content, &irt, &Setup { name: "teams".into(), seats: Some(5), seed: 1 });
    assert!(bad.is_err());
}

fn aristeia_content() -> &'static load::Loaded {
    aristeia()
}

/// An answer that is no option, or one after the game's end, is refused and
/// leaves the table as it was.
#[test]
fn a_bad_answer_leaves_the_table_as_it_was() {
    for mode in [MODES[0], MODES[3]] {
        let rt = mode.runtime();
        let mut t = mode.start(&rt, 2);
        let before = seen(&*t);
        let n = t.options();
        assert_eq!(t.apply(n), Err(TableError::BadAnswer { index: 0, answer: n, options: n }));
        assert_eq!(seen(&*t), before, "{mode:?}");
        assert!(matches!(t.apply_all(&[0, 0, 0, 10_000]), Err(TableError::BadAnswer { index: 3, answer: 10_000, .. })));
        assert_eq!(seen(&*t), before, "{mode:?}");
        let (_, answers) = engine_game(mode, &rt, 2);
        let mut extra = answers.clone();
        extra.push(0);
        assert_eq!(t.apply_all(&extra), Err(TableError::Over), "{mode:?}: an answer after the end");
        assert_eq!(seen(&*t), before, "{mode:?}");
        t.apply_all(&answers).unwrap();
        assert!(t.is_over());
        assert_eq!(t.apply(0), Err(TableError::Over));
    }
}

/// What must hold at every position of any game, checked on the game's own state.
fn invariants(t: &dyn Table<'_>) -> Result<(), String> {
    match t.native() {
        Native::Aristeia { view, state, .. } => {
            let mut spaces = std::collections::BTreeMap::new();
            for u in &state.units {
                let hp = if u.projectile.is_some() { Some(1) } else { view.hit_points(&u.id) };
                let hp = hp.ok_or_else(|| format!("{} has no Hit Points", u.id))?;
                if u.damage > hp {
                    return Err(format!("{} has {} Damage over {hp} Hit Points", u.id, u.damage));
                }
                if let Location::Space(h) = u.location {
                    if !view.board.on_board(h) {
                        return Err(format!("{} is off the board at {h:?}", u.id));
                    }
                    if u.projectile.is_none() {
                        if let Some(other) = spaces.insert(h, u.id) {
                            return Err(format!("{} and {other} share the space {h:?}", u.id));
                        }
                    }
                }
                // Action Points are a u8 (never negative); outside its
                // Activation a unit holds none.
                if u.action_points > 0 && state.active.as_ref() != Some(&u.id) {
                    return Err(format!("{} holds {} Action Points outside its Activation", u.id, u.action_points));
                }
            }
        }
        Native::Invictus { state, .. } => {
            for p in &state.players {
                if p.health < 0 || p.health > p.max_health {
                    return Err(format!("{} has {} HP of {}", p.god, p.health, p.max_health));
                }
                if p.stamina < 0 {
                    return Err(format!("{} has {} Stamina", p.god, p.stamina));
                }
            }
        }
    }
    Ok(())
}

/// Walk a seeded game of `mode` along random legal answers, each step
/// answering a fork of the last position, checking the invariants at every
/// position; at steps 0, 60 and 180 a side branch is also played out to the
/// end on forks, checked the same way.
fn walk_forks(mode: Mode, seed: u64) {
    let rt = mode.runtime();
    let mut rng = RandomPlayer::new(seed);
    let mut t = mode.start(&rt, seed);
    let mut step = 0;
    while !t.is_over() {
        invariants(&*t).map_err(|e| format!("{mode:?} seed {seed} step {step}: {e}")).unwrap();
        let mut next = t.fork();
        next.apply(rng.choose(&next.seat_view().unwrap()).unwrap()).unwrap();
        if [0, 60, 180].contains(&step) {
            let mut side = t.fork();
            while !side.is_over() {
                let mut on = side.fork();
                on.apply(rng.choose(&on.seat_view().unwrap()).unwrap()).unwrap();
                invariants(&*on).map_err(|e| format!("{mode:?} seed {seed} side of {step}: {e}")).unwrap();
                side = on;
            }
        }
        t = next;
        step += 1;
    }
    invariants(&*t).unwrap();
}

/// Random legal answers on forks of Aristeia! games (Assault at 2 seats,
/// Crossover Assault at 3 and 4) keep every invariant: Damage never above
/// Hit Points, one Character per space, no Action Points outside an
/// Activation.
#[test]
fn random_answers_on_forks_of_aristeia_games_keep_the_invariants() {
    for mode in &MODES[..3] {
        walk_forks(*mode, 10);
    }
}

/// Random legal answers on forks of Invictus games (4 and 6 seats) keep
/// every invariant: HP within 0 and its maximum, Stamina never negative.
#[test]
fn random_answers_on_forks_of_invictus_games_keep_the_invariants() {
    for mode in &MODES[3..] {
        walk_forks(*mode, 10);
    }
}

/// The greedy player, written once, plays both games: at a table it tells
/// the same story, event for event, as the engine playing its own greedy
/// game (Aristeia!'s heuristic and Invictus's, through the seat's view).
#[test]
fn the_greedy_player_plays_both_games_at_a_table_as_the_engine_does() {
    for mode in [MODES[0], MODES[2], MODES[3]] {
        let rt = mode.runtime();
        let seed = 2;
        let mut t = mode.start(&rt, seed);
        let mut players: Vec<arena_engine::players::GreedyPlayer> =
            (0..mode.seats).map(|_| arena_engine::players::GreedyPlayer).collect();
        let mut seats: Vec<&mut dyn Player> = players.iter_mut().map(|p| p as &mut dyn Player).collect();
        assert_eq!(table::play_out(&mut *t, &mut seats).unwrap(), Played::Over, "{mode:?}");
        let content = &mode.loaded().content;
        let (events, answers): (Vec<serde_json::Value>, Vec<usize>) = if mode.game == "invictus" {
            let r = sim::invictus::play(content, &rt, &InvictusSetup::teams(mode.seats), seed, &[sim::Policy::Greedy])
                .unwrap();
            (r.events.iter().map(|e| serde_json::to_value(e).unwrap()).collect(), r.answers)
        } else {
            let setup = GameSetup::random(content, mode.name, mode.seats, seed).unwrap();
            let r = sim::play_with(content, &rt, &setup, &vec![sim::Policy::Greedy; mode.seats]).unwrap();
            (r.events.iter().map(|e| serde_json::to_value(e).unwrap()).collect(), r.answers)
        };
        assert_eq!(t.answers(), answers, "{mode:?}");
        assert_eq!(t.events_json(), events, "{mode:?}");
    }
}

/// `Table::play_on` is `play_out` in one run of the engine: from every
/// twentieth Decision of a random game (and from its start), the same
/// random players played on either way end in the same game, event for
/// event and answer for answer, for both games and every table size.
#[test]
fn playing_on_in_one_run_is_the_game_played_out_answer_by_answer() {
    for mode in MODES {
        let rt = mode.runtime();
        let seed = 3;
        let (forks, _) = forks_of(mode, &rt, seed);
        for (i, fork) in forks.iter().enumerate().step_by(20) {
            let fresh = |salt: u64| -> Vec<RandomPlayer> {
                (0..mode.seats).map(|s| RandomPlayer::for_seat(seed * 1000 + salt, s)).collect()
            };
            let (mut a, mut b) = (fork.fork(), fork.fork());
            let (mut pa, mut pb) = (fresh(i as u64), fresh(i as u64));
            let mut sa: Vec<&mut dyn Player> = pa.iter_mut().map(|p| p as &mut dyn Player).collect();
            let mut sb: Vec<&mut dyn Player> = pb.iter_mut().map(|p| p as &mut dyn Player).collect();
            assert_eq!(table::play_out(&mut *a, &mut sa).unwrap(), Played::Over);
            assert_eq!(b.play_on(&mut sb).unwrap(), Played::Over, "{mode:?} from Decision {i}");
            assert_eq!(seen(&*b), seen(&*a), "{mode:?} from Decision {i}");
        }
    }
}

/// A player that gives up stops `play_on` at its Decision, which the table
/// then shows (the same position `play_out` stops at), and another player
/// can take the game on from there; an answer out of range leaves the table
/// as it was.
#[test]
fn playing_on_stops_where_a_player_gives_up_and_a_bad_answer_changes_nothing() {
    for mode in [MODES[0], MODES[3]] {
        let rt = mode.runtime();
        let (events, answers) = engine_game(mode, &rt, 5);
        let half = answers.len() / 2;
        let mut short = ScriptedPlayer::new(answers[..half].to_vec());
        let mut t = mode.start(&rt, 5);
        let played = t.play_on(&mut [&mut short]).unwrap();
        assert_eq!(played, Played::GaveUp(t.to_move().expect("waiting at a Decision")), "{mode:?}");
        assert_eq!(t.answers(), answers[..half], "{mode:?}");
        let mut u = mode.start(&rt, 5);
        u.apply_all(&answers[..half]).unwrap();
        assert_eq!(seen(&*t), seen(&*u), "{mode:?}");
        let mut rest = ScriptedPlayer::new(answers[half..].to_vec());
        assert_eq!(t.play_on(&mut [&mut rest]).unwrap(), Played::Over);
        assert_eq!(t.events_json(), events, "{mode:?}");

        let before = seen(&*u);
        struct OutOfRange;
        impl Player for OutOfRange {
            fn choose(&mut self, _: &table::SeatView<'_>) -> Option<usize> {
                Some(10_000)
            }
        }
        let err = u.play_on(&mut [&mut OutOfRange]).unwrap_err();
        assert!(matches!(err, TableError::BadAnswer { answer: 10_000, .. }), "{mode:?}: {err:?}");
        assert_eq!(seen(&*u), before, "{mode:?}");
    }
}
