//! What a seat may see, and games consistent with it (`rules::view`,
//! `invictus::view`, `Table::determinize`): the view of a seat is the same
//! whatever the cards it has not seen, a determinized game shows the seat
//! exactly what it saw, deals the hidden cards anew and rerolls the future,
//! and plays on to its end.
//!
//! Rules: `000 § Hand` ("The cards in your Hand are secret ... the number of
//! cards in your Hand at any given moment is not secret"), `000 § Planning
//! Phase`, `001 § Round` (Running Orders "hidden to the other players"),
//! `001 § Objective Cards (Additional Rule)`.

use arena_engine::load;
use arena_engine::players::RandomPlayer;
use arena_engine::rules::seats::PlayerId;
use arena_engine::script::runtime::Runtime;
use arena_engine::sim;
use arena_engine::table::{self, Native, Player, Setup, Table};
use std::sync::{Arc, OnceLock};

fn load_paths(paths: &[&str]) -> load::Loaded {
    let root = arena_tests::tests_dir().join("..");
    let paths: Vec<_> = paths.iter().map(|p| root.join(p)).collect();
    let loaded = load::load(&paths, &load::Options { run_script_tests: false, ..load::Options::default() });
    assert!(!loaded.has_errors(), "errors loading {paths:?}");
    loaded
}

fn content(game: &str) -> &'static load::Loaded {
    static A: OnceLock<load::Loaded> = OnceLock::new();
    static I: OnceLock<load::Loaded> = OnceLock::new();
    if game == "invictus" {
        I.get_or_init(|| load_paths(&["content/invictus"]))
    } else {
        A.get_or_init(|| load_paths(&["content"]))
    }
}

fn runtime(game: &str) -> Runtime {
    let l = content(game);
    sim::find(game).unwrap().runtime(Arc::new(l.content.clone()), l.script_set.clone()).unwrap()
}

fn start<'a>(game: &str, name: &str, seats: usize, rt: &'a Runtime, seed: u64) -> Box<dyn Table<'a> + 'a> {
    let setup = Setup { name: name.into(), seats: Some(seats), seed };
    sim::find(game).unwrap().start(&content(game).content, rt, &setup).unwrap()
}

/// What `seat` sees at the table's position, as JSON.
fn seen_by(t: &dyn Table<'_>) -> serde_json::Value {
    t.seat_view().expect("a Decision").to_json()
}

/// The hidden cards of the umpire's state that the deciding seat may not
/// see: the other players' hands and every deck.
fn hidden_of(t: &dyn Table<'_>) -> Vec<Vec<String>> {
    match t.native() {
        Native::Aristeia { decision: Some(d), state, .. } => state
            .players
            .enumerate()
            .filter(|(p, _)| *p != d.player)
            .flat_map(|(_, pl)| {
                [pl.hand.iter().map(|c| c.to_string()).collect(), pl.deck.iter().map(|c| c.to_string()).collect()]
            })
            .collect(),
        Native::Invictus { decision: Some(d), state, .. } => state
            .players
            .iter()
            .filter(|p| p.seat != d.player)
            .flat_map(|p| {
                let ids = |cs: &[arena_engine::invictus::state::Card]| cs.iter().map(|c| c.id().to_string()).collect();
                [ids(&p.hand), ids(&p.draw)]
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Play a seeded random game of a mode; at every `every`-th Decision,
/// determinize it for the deciding seat with 3 seeds and check what must
/// hold. Returns (determinizations checked, those whose hidden cards
/// differ from the original's, those whose next events differ).
fn check_determinizations(game: &str, name: &str, seats: usize, seed: u64, every: usize) -> (usize, usize, usize) {
    let rt = runtime(game);
    let mut t = start(game, name, seats, &rt, seed);
    let mut players: Vec<RandomPlayer> = (0..seats).map(|s| RandomPlayer::for_seat(seed, s)).collect();
    let (mut checked, mut redealt, mut rerolled) = (0, 0, 0);
    let mut step = 0;
    while let Some(p) = t.to_move() {
        if step % every == 0 {
            let want = seen_by(&*t);
            for k in 0..3 {
                let d = t.determinize(p, seed * 1000 + step as u64 * 3 + k).expect("a determinization");
                assert_eq!(d.to_move(), Some(p), "{game} step {step}: the same seat decides");
                assert_eq!(d.decision(), t.decision(), "{game} step {step}: the same Decision");
                assert_eq!(seen_by(&*d), want, "{game} step {step}: the seat sees what it saw");
                checked += 1;
                redealt += usize::from(hidden_of(&*d) != hidden_of(&*t));
                // The same answers from here: the dice and draws are new.
                let (mut a, mut b) = (t.fork(), d.fork());
                let (from_a, from_b) = (a.event_count(), b.event_count());
                let mut rng = RandomPlayer::new(step as u64);
                for _ in 0..12 {
                    let (Some(va), Some(_)) = (a.seat_view(), b.seat_view()) else { break };
                    let answer = rng.choose(&va).unwrap();
                    drop(va);
                    if answer >= b.options() || a.apply(answer).is_err() || b.apply(answer).is_err() {
                        break;
                    }
                }
                rerolled += usize::from(a.narrative(from_a) != b.narrative(from_b));
            }
        }
        let answer = players[p.index()].choose(&t.seat_view().unwrap()).unwrap();
        t.apply(answer).unwrap();
        step += 1;
    }
    (checked, redealt, rerolled)
}

#[test]
fn a_determinized_assault_game_shows_the_seat_what_it_saw_with_other_cards_and_dice() {
    let (checked, redealt, rerolled) = check_determinizations("aristeia", "assault", 2, 3, 25);
    assert!(checked >= 15, "{checked}");
    assert!(redealt * 2 > checked, "the other player's Tactics were dealt anew in {redealt} of {checked}");
    assert!(rerolled * 4 > checked, "the future differed in {rerolled} of {checked}");
}

#[test]
fn a_determinized_four_seat_prime_time_game_shows_the_seat_what_it_saw() {
    let (checked, redealt, _) = check_determinizations("aristeia", "crossover-assault", 4, 5, 40);
    assert!(checked >= 15, "{checked}");
    assert!(redealt * 2 > checked, "dealt anew in {redealt} of {checked}");
}

#[test]
fn a_determinized_invictus_game_shows_the_seat_what_it_saw_with_other_cards() {
    let (checked, redealt, rerolled) = check_determinizations("invictus", "teams", 4, 2, 30);
    assert!(checked >= 15, "{checked}");
    assert!(redealt * 2 > checked, "the others' hands and draw piles were dealt anew in {redealt} of {checked}");
    assert!(rerolled > 0, "the future never differed");
}

/// A determinized game is a game: random players play it to its end.
#[test]
fn a_determinized_game_plays_on_to_its_end() {
    for (game, name, seats) in
        [("aristeia", "assault", 2), ("aristeia", "crossover-assault", 3), ("invictus", "teams", 6)]
    {
        let rt = runtime(game);
        let mut t = start(game, name, seats, &rt, 9);
        let mut rng = RandomPlayer::new(9);
        for _ in 0..40 {
            let a = rng.choose(&t.seat_view().unwrap()).unwrap();
            t.apply(a).unwrap();
        }
        let seat = t.to_move().unwrap();
        let mut d = t.determinize(seat, 1).unwrap();
        table::play_out(&mut *d, &mut [&mut rng]).unwrap();
        assert!(d.is_over(), "{game}");
        assert!(d.outcome().is_some_and(|o| o.error.is_none()), "{game}: {:?}", d.outcome());
    }
}

/// The view of a seat is all a player can read (the state is private to
/// it): two games that differ only in the cards the seat has not seen give
/// it the same view, and the other players' hands read as counts.
#[test]
fn a_seats_view_is_the_same_whatever_the_cards_it_has_not_seen() {
    let rt = runtime("aristeia");
    let mut t = start("aristeia", "assault", 2, &rt, 4);
    let mut rng = RandomPlayer::new(4);
    while t.seat_view().is_some_and(|v| v.decision().kind != "action") {
        let a = rng.choose(&t.seat_view().unwrap()).unwrap();
        t.apply(a).unwrap();
    }
    let seat = t.to_move().unwrap();
    let other = PlayerId::seat(1 - seat.index());
    let mut differ = 0;
    for k in 0..6 {
        let d = t.determinize(seat, k).unwrap();
        differ += usize::from(hidden_of(&*d) != hidden_of(&*t));
        assert_eq!(seen_by(&*d), seen_by(&*t));
        let v = d.seat_view().unwrap();
        let json = v.to_json();
        let hand = &json["players"][other.index()]["hand"];
        assert!(hand.get("hidden").is_some_and(|n| n.is_u64()), "the other hand is a count: {hand}");
        assert!(json["players"][seat.index()]["hand"].get("own").is_some(), "its own hand is its cards");
        assert!(json["players"][0]["deck"].is_u64(), "a deck is a count");
    }
    assert!(differ >= 3, "the hidden cards differed in {differ} of 6 games");
}
