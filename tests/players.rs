//! The players a designer reads balance through (docs/players.md): the
//! search player (`players::mcts`) is deterministic, searches only what its
//! seat may know, and finds the winning move in constructed positions
//! (situations started as tables) where the greedy heuristic misses it.

use arena_engine::invictus::InvictusSetup;
use arena_engine::load;
use arena_engine::players::{GreedyPlayer, MctsPlayer};
use arena_engine::rules::game::GameSetup;
use arena_engine::rules::seats::PlayerId;
use arena_engine::script::runtime::Runtime;
use arena_engine::sim::{self, Policy};
use arena_engine::table::{InfoSet, Player, Setup, Table};
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

/// An Invictus position (a situation, `table::start_invictus_at`) whose
/// winning move the greedy heuristic misses: Athena, Ares's last Enemy, has
/// 30 HP; Ares has 6 Stamina and one card, Sol Fire: a 30-damage standard
/// attack (6 Stamina), or 3 Fire Energy, enough for War Cry (20 damage, 4
/// Stamina). His one accuracy token is Phi and every Boost left is Phi, so
/// Sol Fire hits (`003 § Accuracy`) and defeats her (`003 § Revival and
/// Defeat`: the team with no Enemy left wins). The greedy heuristic reads
/// one accuracy colour as a hit one time in four and takes War Cry, which
/// leaves her at 10 HP and him with no card, at 10 HP, before her turn: her
/// hand is five Gladius (10 damage) and her accuracy token Phi too, so she
/// then defeats him. The search player plays
/// both out in worlds dealt from what Ares may know (the Boost deck is
/// hidden, but only Phi cards are left in it) and attacks with Sol Fire.
#[test]
fn the_search_player_finds_the_invictus_attack_that_defeats_the_last_enemy() {
    use arena_engine::invictus::situation::{Situation, SituationPlayer};
    let l = invictus();
    let rt = runtime("invictus", l);
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let athena = SituationPlayer {
        god: "athena".into(),
        team: 0,
        health: Some(30),
        accuracy: strings(&["phi"]),
        hand: strings(&["gladius", "gladius", "gladius", "gladius", "gladius"]),
        ..SituationPlayer::default()
    };
    let ares = SituationPlayer {
        god: "ares".into(),
        team: 1,
        health: Some(10),
        stamina: Some(6),
        accuracy: strings(&["phi"]),
        hand: strings(&["sol-fire"]),
        ..SituationPlayer::default()
    };
    let situation = Situation {
        player: vec![athena, ares],
        active: 1,
        boost_deck: strings(&["godlike:phi", "godlike:phi", "aegis-perfected:phi", "ambrosial-gift:phi"]),
        boost_deck_only: true,
        ..Situation::default()
    };
    let t = arena_engine::table::start_invictus_at(&l.content, &rt, &situation).unwrap();
    let d = t.decision().expect("Ares's turn asks him").clone();
    let text = |i: usize| d.options[i].clone();
    let greedy = GreedyPlayer.choose(&t.seat_view().unwrap()).unwrap();
    assert!(text(greedy).contains("war-cry"), "the greedy heuristic misses it: {} of {:?}", text(greedy), d.options);
    let mut mcts = MctsPlayer::for_seat(1, 1, 64);
    let answer = mcts.choose_in(&InfoSet::of(&t).unwrap()).unwrap();
    assert!(
        text(answer).contains("sol-fire"),
        "the search player attacks with Sol Fire: {} of {:?}",
        text(answer),
        d.options
    );
    // And it wins: the attack defeats Athena before her next turn.
    let mut t = t;
    t.apply(answer).unwrap();
    let mut answered = 0;
    while let Some(view) = t.seat_view() {
        assert_eq!(view.decision().player.index(), 1, "Athena's turn never comes: {:?}", t.narrative(0));
        let a = GreedyPlayer.choose(&view).unwrap();
        t.apply(a).unwrap();
        answered += 1;
        assert!(answered < 20, "{:?}", t.narrative(0));
    }
    let outcome = t.outcome().expect("the game is over");
    assert_eq!(outcome.winners, vec![PlayerId::seat(1)], "{:?}", t.narrative(0));
    // The greedy heuristic's War Cry loses it on Athena's turn.
    let mut greedy_game = arena_engine::table::start_invictus_at(&l.content, &rt, &situation).unwrap();
    while let Some(view) = greedy_game.seat_view() {
        let a = GreedyPlayer.choose(&view).unwrap();
        greedy_game.apply(a).unwrap();
    }
    let narrative = greedy_game.narrative(0).join("\n");
    assert_eq!(greedy_game.outcome().unwrap().winners, vec![PlayerId::seat(0)], "{narrative}");
}

/// A table starts a situation only where it can play it as written: an
/// Aristeia! situation at an Activation, with no forced dice.
#[test]
fn a_table_refuses_a_situation_it_cannot_start() {
    let l = aristeia();
    let rt = runtime("aristeia", l);
    let text = "scenario = \"assault\"\nactive = \"gata\"\n[[character]]\nid = \"gata\"\nplayer = 1\nspace = [0, 6]\n";
    for (extra, says) in
        [("phase = \"end-of-round\"\n", "at an Activation"), ("dice = [[\"success\"]]\n", "its own dice")]
    {
        let sit: arena_engine::rules::situation::Situation = toml::from_str(&format!("{extra}{text}")).unwrap();
        let err = arena_engine::table::start_aristeia_at(&l.content, &rt, &sit).err().expect("refused");
        assert!(err.contains(says), "{err}");
    }
}

/// `t` played on, the search player (`iterations` a Decision) at `seat`
/// and the greedy player at the others, to the game's end.
fn play_to_the_end<'a>(
    mut t: Box<dyn Table<'a> + 'a>,
    seat: usize,
    seed: u64,
    iterations: u32,
) -> Box<dyn Table<'a> + 'a> {
    while let Some(s) = t.to_move() {
        let a = if s.index() == seat {
            MctsPlayer::for_seat(seed, seat, iterations).choose_in(&InfoSet::of(&*t).unwrap())
        } else {
            GreedyPlayer.choose(&t.seat_view().unwrap())
        };
        t.apply(a.unwrap()).unwrap();
    }
    t
}

/// The situation of
/// `the_search_player_moves_into_the_scoring_zone_on_the_last_round`.
const LAST_ROUND_ZONE_IN_REACH: &str = r#"
scenario = "assault"
active = "wild-bill"
round = 5
scoring_zone = "central"
victory_points = [6, 6]
frags = [1, 0]

[[character]]
id = "wild-bill"
player = 1
space = [0, 6]

[[character]]
id = "hexx3r"
player = 2
space = [2, 5]

[[character]]
id = "maximus"
player = 2
space = [0, -1]
"#;

/// The situation of
/// `the_search_player_takes_out_the_enemy_who_would_score_on_the_last_round`.
const LAST_ROUND_LETHAL_ATTACK: &str = r#"
scenario = "assault"
active = "wild-bill"
round = 5
scoring_zone = "central"
victory_points = [6, 6]
frags = [1, 0]

[[character]]
id = "wild-bill"
player = 1
space = [0, 5]

[[character]]
id = "hexx3r"
player = 2
space = [0, 1]
damage = 2
"#;

/// An Aristeia! position on the last Round (a situation,
/// `table::start_aristeia_at`: the Activation is the Round's last) whose
/// winning move the greedy heuristic misses. Assault, Round 5, 6 Victory
/// Points each, player 1 one Frag ahead; player 2's Maximus is alone in the
/// Scoring Zone, so player 2 scores 3 and wins (`000 § Phase 3:
/// Objectives`) unless Wild Bill (5 Action Points, Speed 4, 5 spaces from
/// the zone) Moves twice into it: then each scores 1, 7 to 7, and the
/// Frags break the tie for player 1. The greedy heuristic Attacks first
/// (Twin Pistols on hEXx3r, 3 Action Points) and is left one Move short;
/// the search player plays the Round out and Moves.
#[test]
fn the_search_player_moves_into_the_scoring_zone_on_the_last_round() {
    let l = aristeia();
    let rt = runtime("aristeia", l);
    let sit: arena_engine::rules::situation::Situation = toml::from_str(LAST_ROUND_ZONE_IN_REACH).unwrap();
    let start = || Box::new(arena_engine::table::start_aristeia_at(&l.content, &rt, &sit).unwrap());
    let t = start();
    let d = t.decision().expect("Wild Bill's Activation asks").clone();
    let greedy = GreedyPlayer.choose(&t.seat_view().unwrap()).unwrap();
    assert!(d.options[greedy].starts_with("twin-pistols"), "the greedy heuristic Attacks: {:?}", d.options);
    let answer = MctsPlayer::for_seat(1, 0, 64).choose_in(&InfoSet::of(&*t).unwrap()).unwrap();
    assert!(d.options[answer].starts_with("move"), "the search player Moves: {:?}", d.options);
    let won = play_to_the_end(start(), 0, 1, 64);
    assert_eq!(won.outcome().unwrap().winners, vec![PlayerId::seat(0)], "and wins on the Frags");
    let mut greedy_game = start();
    while let Some(view) = greedy_game.seat_view() {
        let a = GreedyPlayer.choose(&view).unwrap();
        greedy_game.apply(a).unwrap();
    }
    assert_eq!(greedy_game.outcome().unwrap().winners, vec![PlayerId::seat(1)], "greedy loses it");
}

/// A lethal Attack on the last Round: Assault, Round 5, 6 Victory Points
/// each, player 1 one Frag ahead; player 2's hEXx3r, alone in the Scoring
/// Zone, has 1 Hit Point left. Unless she is taken out player 2 scores 3
/// and wins; Wild Bill, too far to reach the zone, has her in Twin
/// Pistols' Range. The search player spends his Action Points on the
/// Attack (and, Moving or not, takes her out with the table's dice of
/// seed 1, so player 1 wins on the Frags).
#[test]
fn the_search_player_takes_out_the_enemy_who_would_score_on_the_last_round() {
    let l = aristeia();
    let rt = runtime("aristeia", l);
    let sit: arena_engine::rules::situation::Situation = toml::from_str(LAST_ROUND_LETHAL_ATTACK).unwrap();
    let t = play_to_the_end(Box::new(arena_engine::table::start_aristeia_at(&l.content, &rt, &sit).unwrap()), 0, 1, 64);
    let narrative = t.narrative(0).join("\n");
    assert!(narrative.contains("wild-bill performs twin-pistols on hexx3r"), "{narrative}");
    assert_eq!(t.outcome().unwrap().winners, vec![PlayerId::seat(0)], "{narrative}");
}

/// The greedy player's look-ahead weighs an Attack in reach against walking
/// into the Scoring Zone over the rest of the Activation (docs/players.md
/// § The greedy player): in the position of
/// `the_search_player_moves_into_the_scoring_zone_on_the_last_round`, where
/// the fast heuristic Attacks and loses, it Moves, and its game is won on
/// the Frags; in the position of the lethal Attack, where walking cannot
/// reach the zone, it Attacks.
#[test]
fn the_greedy_look_ahead_walks_into_the_scoring_zone_when_that_beats_the_attack() {
    let l = aristeia();
    let rt = runtime("aristeia", l);
    let play = |situation: &str| {
        let sit: arena_engine::rules::situation::Situation = toml::from_str(situation).unwrap();
        let mut t: Box<dyn Table<'_> + '_> =
            Box::new(arena_engine::table::start_aristeia_at(&l.content, &rt, &sit).unwrap());
        let d = t.decision().expect("Wild Bill's Activation asks").clone();
        let first = GreedyPlayer.choose_in(&InfoSet::of(&*t).unwrap()).unwrap();
        while let Some(s) = t.to_move() {
            let a = if s.index() == 0 {
                GreedyPlayer.choose_in(&InfoSet::of(&*t).unwrap())
            } else {
                GreedyPlayer.choose(&t.seat_view().unwrap())
            };
            t.apply(a.unwrap()).unwrap();
        }
        (d.options[first].clone(), t.outcome().unwrap().winners.clone(), t.narrative(0).join("\n"))
    };
    let (first, winners, narrative) = play(LAST_ROUND_ZONE_IN_REACH);
    assert!(first.starts_with("move"), "the look-ahead Moves first: {first:?}");
    assert_eq!(winners, vec![PlayerId::seat(0)], "and wins on the Frags: {narrative}");
    let (first, winners, narrative) = play(LAST_ROUND_LETHAL_ATTACK);
    assert!(first.starts_with("twin-pistols"), "the look-ahead Attacks: {first:?}");
    assert_eq!(winners, vec![PlayerId::seat(0)], "{narrative}");
}
