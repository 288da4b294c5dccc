//! The players a designer reads balance through (docs/players.md): the
//! search player (`players::mcts`) is deterministic and searches only
//! what its seat may know.

use arena_engine::invictus::InvictusSetup;
use arena_engine::load;
use arena_engine::players::{GreedyPlayer, MctsPlayer};
use arena_engine::rules::game::GameSetup;
use arena_engine::script::runtime::Runtime;
use arena_engine::sim::{self, Policy};
use arena_engine::table::{InfoSet, Player, Setup};
use std::sync::{Arc, OnceLock};

fn load_pack(pack: &str) -> load::Loaded {
    let path = arena_tests::tests_dir().join("..").join(pack);
    let loaded = load::load(&[path], &load::Options { run_script_tests: false, ..load::Options::default() });
    assert!(!loaded.has_errors(), "errors loading {pack}");
    loaded
}

fn aristeia() -> &'static load::Loaded {
    static L: OnceLock<load::Loaded> = OnceLock::new();
    L.get_or_init(|| load_pack("content"))
}

fn invictus() -> &'static load::Loaded {
    static L: OnceLock<load::Loaded> = OnceLock::new();
    L.get_or_init(|| load_pack("content/invictus"))
}

fn runtime(game: &str, l: &load::Loaded) -> Runtime {
    sim::find(game).unwrap().runtime(Arc::new(l.content.clone()), l.script_set.clone()).unwrap()
}

/// The same seed gives the same game with a search player in it, answer
/// for answer and event for event, in both games (its searches draw from
/// the game's seed, its seat and the Decisions answered before).
#[test]
fn the_search_player_plays_the_same_game_from_the_same_seed() {
    let l = aristeia();
    let rt = runtime("aristeia", l);
    let setup = GameSetup::random(&l.content, "assault", 2, 1).unwrap();
    let players = [Policy::Mcts(16), Policy::Greedy];
    let a = sim::play_with(&l.content, &rt, &setup, &players).unwrap();
    let b = sim::play_with(&l.content, &rt, &setup, &players).unwrap();
    assert_eq!(a.answers, b.answers);
    assert_eq!(sim::digest(&a), sim::digest(&b));
    let greedy = sim::play_with(&l.content, &rt, &setup, &[Policy::Greedy, Policy::Greedy]).unwrap();
    assert_ne!(a.answers, greedy.answers, "the search player answers otherwise than the greedy player somewhere");

    let l = invictus();
    let rt = runtime("invictus", l);
    let players = [Policy::Mcts(4), Policy::Greedy];
    let a = sim::invictus::play(&l.content, &rt, &InvictusSetup::teams(4), 2, &players).unwrap();
    let b = sim::invictus::play(&l.content, &rt, &InvictusSetup::teams(4), 2, &players).unwrap();
    assert_eq!(a.answers, b.answers);
    assert_eq!(a.winner, b.winner);
}

/// The search player sees only its information set: in a game dealt anew
/// from what its seat knows (`Table::determinize`: the other players'
/// hands, the decks' order and the dice to come drawn again), it gives the
/// answer it gives in the real one, at Decisions all through a game, in
/// both games.
#[test]
fn the_search_player_answers_alike_in_games_its_seat_cannot_tell_apart() {
    for (game, l, name, seats) in [("aristeia", aristeia(), "assault", 2), ("invictus", invictus(), "teams", 4)] {
        let rt = runtime(game, l);
        let setup = Setup { name: name.into(), seats: Some(seats), seed: 6 };
        let mut t = sim::find(game).unwrap().start(&l.content, &rt, &setup).unwrap();
        let mut checked = 0;
        let mut decisions = 0;
        while let Some(seat) = t.to_move() {
            decisions += 1;
            if t.options() > 1 && decisions % 15 == 0 {
                let other = t.determinize(seat, 99 + decisions).unwrap();
                let mut a = MctsPlayer::for_seat(6, seat.index(), 6);
                let mut b = a.clone();
                let here = a.choose_in(&InfoSet::of(&*t).unwrap());
                let there = b.choose_in(&InfoSet::of(&*other).unwrap());
                assert_eq!(here, there, "{game}: Decision {decisions} of {seat}");
                checked += 1;
            }
            let answer = GreedyPlayer.choose(&t.seat_view().unwrap()).unwrap();
            t.apply(answer).unwrap();
        }
        assert!(checked >= 5, "{game}: {checked} Decisions checked");
    }
}
