//! Invictus (`003`): the rulebook's worked examples with their exact numbers,
//! as situations (hands, decks, Health, forced Boost flips) on the bundled
//! content; whole seeded games (determinism, replays, every mode); a god
//! written as a mod in a batch.

use arena_engine::invictus::situation::{Situation, SituationPlayer};
use arena_engine::invictus::{Event, Game, InvictusSetup, Seating};
use arena_engine::load;
use arena_engine::model::Skill;
use arena_engine::replay_file::{Mismatch, Recorded, ReplayFile};
use arena_engine::rules::seats::PlayerId;
use arena_engine::script::runtime::Runtime;
use arena_engine::sim::Policy;
use arena_engine::sim::invictus as isim;
use std::sync::Arc;

fn load_paths(paths: &[&str]) -> load::Loaded {
    let root = arena_tests::tests_dir().join("..");
    let paths: Vec<_> = paths.iter().map(|p| root.join(p)).collect();
    let loaded = load::load(&paths, &load::Options { run_script_tests: false, ..load::Options::default() });
    let errors: Vec<String> = loaded.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect();
    assert!(errors.is_empty(), "errors loading {paths:?}: {errors:?}");
    loaded
}

fn invictus() -> load::Loaded {
    load_paths(&["content/invictus"])
}

fn runtime(loaded: &load::Loaded) -> Runtime {
    isim::runtime(Arc::new(loaded.content.clone()), loaded.script_set.clone()).unwrap()
}

fn player(god: &str, team: usize) -> SituationPlayer {
    SituationPlayer { god: god.into(), team, ..SituationPlayer::default() }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Play the active player's turn of `s`; the events and the game after it.
fn play_turn<'a>(s: &Situation, loaded: &'a load::Loaded, rt: &'a Runtime) -> Game<'a, 'a> {
    let (mut game, errors) = s.game(&loaded.content, Some(rt)).unwrap();
    game.play_turn();
    let errors = errors.lock().unwrap().clone();
    assert!(errors.is_empty(), "unanswered or wrong answers: {errors:#?}\n{}", narrative(&game));
    game
}

fn narrative(game: &Game) -> String {
    game.events.iter().map(|e| format!("{e}\n")).collect()
}

fn stamina_left(game: &Game) -> Vec<i32> {
    game.events
        .iter()
        .filter_map(|e| match e {
            Event::StandardAttack { stamina_left, .. } | Event::Ability { stamina_left, .. } => Some(*stamina_left),
            _ => None,
        })
        .collect()
}

/// `003 § Stamina`: "Hephaestus has upgraded his Stamina to 18", and the
/// three combinations the example lists, each played in one turn.
#[test]
fn stamina_example_hephaestus_at_18() {
    let loaded = invictus();
    let rt = runtime(&loaded);
    let heph = |hand: &[&str], charged: &[&str]| SituationPlayer {
        stamina_tokens: Some(3),
        range_tokens: Some(1),
        hand: strings(hand),
        charged: strings(charged),
        ..player("hephaestus", 0)
    };
    let ares = player("ares", 1);
    // Three tokens: 14 + 2 + 2.
    let s = Situation { player: vec![heph(&[], &[]), ares.clone()], ..Situation::default() };
    let (game, _) = s.game(&loaded.content, Some(&rt)).unwrap();
    assert_eq!(game.full_stamina(PlayerId::seat(0)), 18);
    assert_eq!(game.state.player(PlayerId::seat(0)).stamina, 18);

    // Volcanic Smash (6) + Volcanic Smash (6) + Volcanic Smash (6) = 18.
    let s = Situation {
        player: vec![heph(&["xiphos", "xiphos", "xiphos"], &[]), ares.clone()],
        answers: strings(&[
            "volcanic-smash on ares",
            "volcanic-smash on ares",
            "volcanic-smash on ares",
            "end the turn",
        ]),
        ..Situation::default()
    };
    let game = play_turn(&s, &loaded, &rt);
    assert_eq!(stamina_left(&game), vec![12, 6, 0], "{}", narrative(&game));
    assert_eq!(game.state.player(PlayerId::seat(1)).health, 180 - 3 * 20);

    // Volcanic Smash (6) + Sentry Drone (6) + Xiphos (4) = 16: 2 left.
    let s = Situation {
        player: vec![heph(&["xiphos", "mystic-pearl", "xiphos"], &["sol-fire"]), ares.clone()],
        boost_deck: strings(&["godlike:omega"]),
        answers: strings(&[
            "volcanic-smash on ares",
            "sentry-drone on ares",
            "attack ares with xiphos",
            "end the turn",
        ]),
        ..Situation::default()
    };
    let game = play_turn(&s, &loaded, &rt);
    assert_eq!(stamina_left(&game), vec![12, 6, 2], "{}", narrative(&game));

    // Beam Rifle (6) + Sol Fire (6) + Xiphos (4) + Gladius (2) = 18, every flip Omega.
    let s = Situation {
        player: vec![heph(&["beam-rifle", "sol-fire", "xiphos", "gladius"], &[]), ares.clone()],
        boost_deck: strings(&["godlike:omega", "godlike:omega", "godlike:omega", "godlike:omega"]),
        answers: strings(&[
            "attack ares with beam-rifle",
            "attack ares with sol-fire",
            "attack ares with xiphos",
            "attack ares with gladius",
            "end the turn",
        ]),
        ..Situation::default()
    };
    let game = play_turn(&s, &loaded, &rt);
    assert_eq!(stamina_left(&game), vec![12, 6, 2, 0], "{}", narrative(&game));
    assert_eq!(game.state.player(PlayerId::seat(1)).health, 180 - (30 + 30 + 20 + 10));

    // "If a player's 1st tier Stamina token is inactivated ... they only reduce
    // their Stamina by 2 and not by 14" (ruling I2).
    let s = Situation { player: vec![heph(&[], &[]), ares], ..Situation::default() };
    let (mut game, _) = s.game(&loaded.content, Some(&rt)).unwrap();
    game.state.player_mut(PlayerId::seat(0)).tokens.get_mut(&Skill::Stamina).unwrap()[0].active = false;
    assert_eq!(game.full_stamina(PlayerId::seat(0)), 16);
}

/// `003 § Attacking and Countering`: Spectral Force (40) with Godlike (+20),
/// Aegis Perfected, Server Down, Hoplon (20): Apollo takes 40.
#[test]
fn attacking_and_countering_chain_deals_40() {
    let loaded = invictus();
    let rt = runtime(&loaded);
    let s = Situation {
        player: vec![
            SituationPlayer {
                hand: strings(&["xiphos", "gladius", "radiant-core"]),
                boosts: strings(&["godlike", "server-down"]),
                ..player("athena", 0)
            },
            SituationPlayer {
                hand: strings(&["hoplon"]),
                boosts: strings(&["aegis-perfected"]),
                ..player("apollo", 1)
            },
        ],
        answers: strings(&[
            "spectral-force on apollo",
            "declare godlike",
            "counter with aegis-perfected",
            "pass",
            "counter with server-down",
            "block with hoplon",
            "end the turn",
        ]),
        ..Situation::default()
    };
    let game = play_turn(&s, &loaded, &rt);
    let resolved: Vec<&Event> = game.events.iter().filter(|e| matches!(e, Event::AttackResolved { .. })).collect();
    assert_eq!(
        resolved,
        vec![&Event::AttackResolved {
            attacker: "athena".into(),
            target: "apollo".into(),
            damage: 40,
            blocked: 20,
            failed: false
        }],
        "{}",
        narrative(&game)
    );
    assert_eq!(game.state.player(PlayerId::seat(1)).health, 140 - 40);
    // Without Server Down, Aegis Perfected makes the ability fail: 0 damage.
    let mut s2 = s.clone();
    s2.player[0].boosts = strings(&["godlike"]);
    s2.answers = strings(&[
        "spectral-force on apollo",
        "declare godlike",
        "counter with aegis-perfected",
        "pass",
        "end the turn",
    ]);
    let game = play_turn(&s2, &loaded, &rt);
    assert_eq!(game.state.player(PlayerId::seat(1)).health, 140, "{}", narrative(&game));
}

/// `003 § Range`: six players A-F, A, B and C one team; A's Range 1 reaches
/// B and F, 2 reaches E, 3 reaches D; once F is defeated, Range 1 reaches E.
#[test]
fn range_example_with_a_defeated_player() {
    let loaded = invictus();
    let rt = runtime(&loaded);
    let gods = ["athena", "apollo", "ares", "zeus", "hera", "hermes"];
    let players: Vec<SituationPlayer> = gods.iter().enumerate().map(|(i, g)| player(g, usize::from(i >= 3))).collect();
    let s = Situation { player: players, ..Situation::default() };
    let (mut game, _) = s.game(&loaded.content, Some(&rt)).unwrap();
    let [a, b, _c, d, e, f] = [0, 1, 2, 3, 4, 5].map(PlayerId::seat);
    let st = &game.state;
    assert!(st.in_range(a, b) && st.in_range(a, f));
    assert!(!st.in_range(a, e) && !st.in_range(a, d));
    game.state.player_mut(a).tokens.get_mut(&Skill::Range).unwrap().push(arena_engine::invictus::state::Token {
        active: true,
        colour: None,
        from_reinforcement: false,
    });
    assert!(game.state.in_range(a, e) && !game.state.in_range(a, d));
    game.state.player_mut(a).tokens.get_mut(&Skill::Range).unwrap().push(arena_engine::invictus::state::Token {
        active: true,
        colour: None,
        from_reinforcement: false,
    });
    assert!(game.state.in_range(a, d), "three active tokens bring D into range");
    // F defeated: Range 1 reaches E.
    game.state.player_mut(a).tokens.get_mut(&Skill::Range).unwrap().truncate(1);
    game.state.player_mut(f).defeated = true;
    assert!(game.state.in_range(a, e));
    // And the legal standard attacks say so: E, not D.
    game.state.player_mut(a).hand = vec![arena_engine::invictus::state::Card::Artifact("gladius".into())];
    let targets: Vec<String> =
        game.actions(a).iter().map(ToString::to_string).filter(|t| t.starts_with("attack")).collect();
    assert_eq!(targets, vec!["attack hera with gladius".to_string()]);
}

/// `003 § Accuracy`: Xiphos with Omega and Delta tokens: on target on Omega
/// or Delta, a miss on Sigma or Phi; a Wild flip is the flipper's colour.
#[test]
fn accuracy_example() {
    let loaded = invictus();
    let rt = runtime(&loaded);
    for (flip, hit) in [("omega", true), ("delta", true), ("sigma", false), ("phi", false)] {
        let s = Situation {
            player: vec![
                SituationPlayer {
                    hand: strings(&["xiphos"]),
                    accuracy: strings(&["omega", "delta"]),
                    ..player("athena", 0)
                },
                player("apollo", 1),
            ],
            boost_deck: vec![format!("server-down:{flip}")],
            answers: strings(&["attack apollo with xiphos", "end the turn"]),
            ..Situation::default()
        };
        let game = play_turn(&s, &loaded, &rt);
        let health = game.state.player(PlayerId::seat(1)).health;
        assert_eq!(health, if hit { 140 - 20 } else { 140 }, "flip {flip}:\n{}", narrative(&game));
    }
    // Wild: the flipper decides the colour.
    let s = Situation {
        player: vec![
            SituationPlayer {
                hand: strings(&["xiphos"]),
                accuracy: strings(&["omega", "delta"]),
                ..player("athena", 0)
            },
            player("apollo", 1),
        ],
        boost_deck: strings(&["wild:wild"]),
        answers: strings(&["attack apollo with xiphos", "delta", "end the turn"]),
        ..Situation::default()
    };
    let game = play_turn(&s, &loaded, &rt);
    assert_eq!(game.state.player(PlayerId::seat(1)).health, 120, "{}", narrative(&game));
}

/// `003 § What Are the Steps to Completing a Financial Transaction?`: 2 Nova
/// Shards (6 Prisma): 4 for an Elementium, 2 to destroy a Gladius.
#[test]
fn financial_transaction_example() {
    let loaded = invictus();
    let rt = runtime(&loaded);
    let s = Situation {
        player: vec![
            SituationPlayer {
                hand: strings(&["nova-shard", "nova-shard", "gladius", "clinker"]),
                ..player("athena", 0)
            },
            player("apollo", 1),
        ],
        // Nothing else is affordable once 6 Prisma are announced: the
        // transaction is paid and completed without a further question.
        answers: strings(&["buy elementium", "destroy gladius", "end the turn"]),
        ..Situation::default()
    };
    let (mut game, errors) = s.game(&loaded.content, Some(&rt)).unwrap();
    let pile_before = game.state.piles["elementium"];
    game.play_turn();
    assert!(errors.lock().unwrap().is_empty(), "{:?}\n{}", errors.lock().unwrap(), narrative(&game));
    let t = game.events.iter().find(|e| matches!(e, Event::Transaction { .. })).unwrap();
    assert_eq!(
        t,
        &Event::Transaction {
            god: "athena".into(),
            paid: 6,
            spent: 6,
            items: strings(&["buy elementium", "destroy gladius"])
        }
    );
    let athena = game.state.player(PlayerId::seat(0));
    let everywhere: Vec<&str> =
        athena.hand.iter().chain(&athena.draw).chain(&athena.discard).chain(&athena.charged).map(|c| c.id()).collect();
    assert!(!everywhere.contains(&"gladius"), "the Gladius is removed from the game: {everywhere:?}");
    assert_eq!(everywhere.iter().filter(|c| **c == "elementium").count(), 1);
    assert_eq!(everywhere.iter().filter(|c| **c == "nova-shard").count(), 2, "paid to the discard pile");
    assert_eq!(game.state.piles["elementium"], pile_before - 1);
    // No change: 1 Prisma left over is lost. A Mystic Pearl (2) and a Nova
    // Shard (3) for a Nova Shard (5) and nothing else.
    let s = Situation {
        player: vec![
            SituationPlayer { hand: strings(&["nova-shard", "mystic-pearl", "radiant-core"]), ..player("athena", 0) },
            player("apollo", 1),
        ],
        answers: strings(&["buy nova-shard", "end the turn"]),
        ..Situation::default()
    };
    let game = play_turn(&s, &loaded, &rt);
    assert!(
        game.events.iter().any(|e| matches!(e, Event::Transaction { paid: 5, spent: 5, .. })),
        "exact payment preferred:\n{}",
        narrative(&game)
    );
}

fn apocalypse_situation(healths: [i32; 4]) -> Situation {
    let gods = ["hephaestus", "apollo", "zeus", "ares"];
    Situation {
        player: gods
            .iter()
            .enumerate()
            .map(|(i, g)| SituationPlayer {
                health: Some(healths[i]),
                hand: if i == 0 { strings(&["gladius"]) } else { Vec::new() },
                ..player(g, usize::from(i % 2 == 1))
            })
            .collect(),
        // The last Boost: flipping it exposes the Apocalypse.
        boost_deck: strings(&["godlike:sigma"]),
        boost_deck_only: true,
        answers: strings(&["attack apollo with gladius", "end the turn"]),
        ..Situation::default()
    }
}

/// `003 § The Apocalypse`, first branch: someone has more than 40 HP, so
/// every player takes 40 unpreventable damage; whoever reaches 0 is
/// defeated, with no revival; the Boost deck is reshuffled.
#[test]
fn apocalypse_with_a_player_above_40() {
    let loaded = invictus();
    let rt = runtime(&loaded);
    let game = play_turn(&apocalypse_situation([100, 30, 41, 60]), &loaded, &rt);
    assert!(game.events.contains(&Event::Apocalypse { damage: true }), "{}", narrative(&game));
    let h: Vec<i32> = game.state.players.iter().map(|p| p.health).collect();
    assert_eq!(h, vec![60, 0, 1, 20]);
    assert!(game.state.player(PlayerId::seat(1)).defeated, "no revival after the Apocalypse");
    assert!(!game.state.revivals_allowed);
    assert!(!game.events.iter().any(|e| matches!(e, Event::Revived { .. })));
    assert_eq!(game.state.boost_deck.len(), 1, "the discard pile, reshuffled into the deck");
}

/// Second branch: nobody above 40: every active player is reduced to 10 HP
/// (ruling I10: a player below 10 stays there).
#[test]
fn apocalypse_with_nobody_above_40() {
    let loaded = invictus();
    let rt = runtime(&loaded);
    let game = play_turn(&apocalypse_situation([40, 25, 8, 33]), &loaded, &rt);
    assert!(game.events.contains(&Event::Apocalypse { damage: false }), "{}", narrative(&game));
    let h: Vec<i32> = game.state.players.iter().map(|p| p.health).collect();
    assert_eq!(h, vec![10, 10, 8, 10]);
    assert!(!game.state.revivals_allowed);
}

/// Buying the last Boost, an Immediately one, takes effect before the
/// Apocalypse (`003 § The Apocalypse`).
#[test]
fn an_immediately_boost_bought_last_acts_before_the_apocalypse() {
    let loaded = invictus();
    let rt = runtime(&loaded);
    let mut s = apocalypse_situation([100, 100, 100, 100]);
    s.boost_deck = strings(&["heavy-clinker:phi"]);
    s.player[0].hand = strings(&["mystic-pearl"]);
    s.answers = strings(&["buy a Boost", "end the turn"]);
    let game = play_turn(&s, &loaded, &rt);
    let played =
        game.events.iter().position(|e| matches!(e, Event::BoostPlayed { boost, .. } if boost == "heavy-clinker"));
    let apocalypse = game.events.iter().position(|e| matches!(e, Event::Apocalypse { .. }));
    assert!(played.is_some() && played < apocalypse, "{}", narrative(&game));
    assert!(game.state.player(PlayerId::seat(0)).hand.iter().any(|c| c.id() == "heavy-clinker"));
}

/// `003 § Revival`: a player whose full Stamina is 18 is revived with 9;
/// the giver pays 10 and the HP given; Boosts and Reinforcements go.
#[test]
fn revival_at_18_stamina_leaves_9() {
    let loaded = invictus();
    let rt = runtime(&loaded);
    let s = Situation {
        player: vec![
            SituationPlayer { hand: strings(&["xiphos"]), ..player("hephaestus", 1) },
            SituationPlayer {
                health: Some(15),
                stamina_tokens: Some(3),
                boosts: strings(&["godlike"]),
                reinforcements: strings(&["mercenaries"]),
                hand: strings(&["radiant-core", "radiant-core"]),
                draw: strings(&["gladius", "clinker", "radiant-core", "radiant-core"]),
                ..player("hermes", 0)
            },
            player("zeus", 0),
        ],
        answers: strings(&["volcanic-smash on hermes", "revive, giving 30 HP", "end the turn"]),
        ..Situation::default()
    };
    let game = play_turn(&s, &loaded, &rt);
    let hermes = game.state.player(PlayerId::seat(1));
    assert_eq!(game.full_stamina(PlayerId::seat(1)), 18);
    assert_eq!(hermes.stamina, 9, "{}", narrative(&game));
    assert_eq!(hermes.health, 30);
    assert_eq!(game.state.player(PlayerId::seat(2)).health, 160 - 10 - 30);
    assert!(hermes.boosts.is_empty() && hermes.reinforcements.is_empty());
    assert_eq!(hermes.hand.len(), 5, "five cards drawn");
    assert_eq!(hermes.revived_by, vec![PlayerId::seat(2)]);
    assert!(!hermes.defeated);
}

/// Olympian Slash's Lua (`003 § Boosts`, Purpose #1): on a Delta flip Athena
/// declares an Energy type and the attacked player discards it.
#[test]
fn olympian_slash_delta_discards_an_energy_type() {
    let loaded = invictus();
    let rt = runtime(&loaded);
    let s = Situation {
        player: vec![
            SituationPlayer { hand: strings(&["gladius", "gladius"]), ..player("athena", 0) },
            SituationPlayer { hand: strings(&["hoplon", "aegis", "nectar"]), ..player("apollo", 1) },
        ],
        boost_deck: strings(&["godlike:delta"]),
        answers: strings(&["olympian-slash on apollo", "pass", "aqua", "end the turn"]),
        ..Situation::default()
    };
    let game = play_turn(&s, &loaded, &rt);
    assert_eq!(game.effect_failures, 0, "{}", narrative(&game));
    let apollo = game.state.player(PlayerId::seat(1));
    assert_eq!(apollo.hand.iter().map(|c| c.id()).collect::<Vec<_>>(), vec!["nectar"], "{}", narrative(&game));
    assert_eq!(apollo.health, 130);
}

/// Seeded games are deterministic, replay event for event, and 4- and
/// 6-player team games (every seating) and free-for-alls end with a winner.
#[test]
fn seeded_games_are_deterministic_and_end() {
    let loaded = invictus();
    let rt = runtime(&loaded);
    let setup = InvictusSetup::teams(4);
    let a = isim::play(&loaded.content, &rt, &setup, 3, &[Policy::Greedy, Policy::Random]).unwrap();
    let b = isim::play(&loaded.content, &rt, &setup, 3, &[Policy::Greedy, Policy::Random]).unwrap();
    assert_eq!(serde_json::to_string(&a.events).unwrap(), serde_json::to_string(&b.events).unwrap());
    let c = isim::play(&loaded.content, &rt, &setup, 4, &[Policy::Greedy, Policy::Random]).unwrap();
    assert_ne!(a.narrative(), c.narrative());
    let file = ReplayFile::record_invictus(&loaded.content, &rt, &setup, 3, &a.answers, &loaded).unwrap();
    let mut tampered = arena_tests::replays_the_same(&file, &a.events, &loaded.content, &rt);
    let Recorded::Events(events) = &mut tampered.recorded else { panic!("format 2 records events") };
    events[5]["event"] = serde_json::json!("tampered");
    assert!(matches!(tampered.verify(&loaded.content, &rt), Err(Mismatch::Differs { index: 5, .. })));
    for (players, seating) in [
        (2, Seating::Standard),
        (4, Seating::EveryOther),
        (6, Seating::Standard),
        (6, Seating::Random),
        (5, Seating::FreeForAll),
    ] {
        let setup = InvictusSetup { players, seating, ..InvictusSetup::teams(players) };
        for seed in 1..=5 {
            for policies in [&[Policy::Greedy][..], &[Policy::Random], &[Policy::Greedy, Policy::Random]] {
                let r = isim::play(&loaded.content, &rt, &setup, seed, policies).unwrap();
                assert!(
                    r.winner.is_some(),
                    "{players} {seating:?} seed {seed} {policies:?}: no winner in {} turns",
                    r.turns
                );
                assert_eq!(r.effect_failures, 0, "{:?}", r.last_failure);
            }
        }
    }
}

/// A god written as a mod (docs/invictus.md's Nike) loads, plays in a batch
/// and shows in the per-god readout.
#[test]
fn a_god_written_as_a_mod_plays_in_a_batch() {
    let loaded = load_paths(&["content/invictus", "mods/invictus-nike"]);
    assert!(loaded.content.gods.contains_key("nike"));
    let setup = InvictusSetup::teams(6);
    let games = isim::batch(
        Arc::new(loaded.content.clone()),
        loaded.script_set.clone(),
        &setup,
        1..61,
        &[Policy::Greedy, Policy::Random],
        2,
        &|| {},
    )
    .unwrap();
    let report = isim::Report::of(&games);
    assert_eq!(report.errors, 0);
    assert_eq!(report.effect_failures, 0);
    let nike = &report.gods["nike"];
    assert!(nike.games > 0, "Nike was dealt and chosen in some games");
    assert!(report.to_string().contains("nike"));
    assert_eq!(report.decided, 60, "every game ends with a winning team");
}

/// Write a pack depending on the bundled Invictus into a temporary folder.
fn temp_pack(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("pack.toml"),
        "id = \"test-pack\"\nversion = \"0.1.0\"\ngame = \"invictus\"\ntitle = \"t\"\n\n[dependencies]\ninvictus = \"^1.1\"\n",
    )
    .unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

/// `003 § Revival`: "If the revived player was defeated during their own
/// turn, the turn is over and play resumes with the next player": no
/// drawing, no Stamina replenished. A counter ability's Lua deals the damage.
#[test]
fn a_revival_during_ones_own_turn_ends_it() {
    let pack = temp_pack(&[(
        "gods.toml",
        r#"
[[god]]
id = "hydra"
name = "Hydra"
health = 150

[[god.abilities]]
id = "venom"
name = "Venom"
energy = [{ type = "aqua", amount = 1 }]
timing = "counter"
trigger = "attacked"
effect = { text = "Counter: the attacker takes 30 damage.", lua = '''
local game, ctx = ...
game:deal_damage(game:attacker(), 30)
''' }

[[god.abilities]]
id = "bite"
name = "Bite"
energy = [{ type = "fire", amount = 1 }]
stamina_cost = 2
range = true
damage = 10
target = "enemy"
effect = { text = "Deal 10 damage to an enemy in range." }
"#,
    )]);
    let root = arena_tests::tests_dir().join("..");
    let loaded = load::load(
        &[root.join("content/invictus"), pack.path().to_path_buf()],
        &load::Options { run_script_tests: false, ..load::Options::default() },
    );
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let rt = runtime(&loaded);
    let s = Situation {
        player: vec![
            SituationPlayer {
                health: Some(20),
                stamina_tokens: Some(3),
                hand: strings(&["gladius", "radiant-core"]),
                draw: strings(&["xiphos", "xiphos", "xiphos", "xiphos", "xiphos", "xiphos"]),
                ..player("hermes", 0)
            },
            SituationPlayer { hand: strings(&["aegis"]), ..player("hydra", 1) },
            player("zeus", 0),
            player("ares", 1),
        ],
        answers: strings(&["swift-strike on hydra", "counter with venom", "revive, giving 20 HP"]),
        ..Situation::default()
    };
    let game = play_turn(&s, &loaded, &rt);
    let hermes = game.state.player(PlayerId::seat(0));
    assert!(
        game.events.contains(&Event::Revived { god: "hermes".into(), by: "zeus".into(), gave: 20 }),
        "{}",
        narrative(&game)
    );
    assert!(game.state.turn_over);
    assert!(!game.events.iter().any(|e| matches!(e, Event::TurnEnded { .. })), "the turn is not completed");
    assert_eq!(hermes.stamina, 9);
    assert_eq!(hermes.hand.len(), 5);
    assert_eq!(hermes.health, 20);
}

/// Errata patch Invictus cards like Aristeia's: a guarded `replace` on a god's ability.
#[test]
fn patches_apply_to_invictus_kinds() {
    let pack = temp_pack(&[(
        "errata.toml",
        r#"
[[patch]]
target = "god:hephaestus"
reason = "the printed board"

[[patch.op]]
op = "replace"
path = "abilities[id=volcanic-smash].damage"
expect = 20
value = 25
"#,
    )]);
    let root = arena_tests::tests_dir().join("..");
    let loaded = load::load(
        &[root.join("content/invictus"), pack.path().to_path_buf()],
        &load::Options { run_script_tests: false, ..load::Options::default() },
    );
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let heph = &loaded.content.gods["hephaestus"].value;
    assert_eq!(heph.abilities.iter().find(|a| a.id == "volcanic-smash").unwrap().damage, Some(25));
}

/// `arena sim invictus --seats 4`: one game's narrative, a batch's per-god
/// readout, and a replay that plays again.
#[test]
fn cli_sim_invictus() {
    let one = arena_tests::arena(&["sim", "invictus", "--seats", "4", "--seed", "2", "--pack", "../content/invictus"]);
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert!(one.stdout.contains("wins after"), "{}", one.stdout);
    let batch = arena_tests::arena(&[
        "sim",
        "invictus",
        "--seats",
        "6",
        "--games",
        "12",
        "--jobs",
        "1",
        "--players",
        "greedy,random",
        "--pack",
        "../content/invictus",
    ]);
    assert_eq!(batch.code, 0, "{}", batch.stderr);
    assert!(batch.stdout.contains("win rate by god") && batch.stdout.contains("seat 6"), "{}", batch.stdout);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let file = file.to_str().unwrap();
    let rec = arena_tests::arena(&[
        "sim",
        "invictus",
        "--seats",
        "4",
        "--seed",
        "5",
        "--replay",
        file,
        "--pack",
        "../content/invictus",
    ]);
    assert_eq!(rec.code, 0, "{}", rec.stderr);
    let again = arena_tests::arena(&["replay", file, "--pack", "../content/invictus"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(again.stdout.contains("replay ok: "), "{}", again.stdout);
    let bad = arena_tests::arena(&["sim", "invictus", "--seats", "5", "--pack", "../content/invictus"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("2, 4 or 6"), "{}", bad.stderr);
    // --seating is Invictus's; an Aristeia! Scenario does not ignore it silently.
    let aristeia = arena_tests::arena(&["sim", "assault", "--seating", "free-for-all"]);
    assert_eq!(aristeia.code, 2, "{}", aristeia.stderr);
    assert!(aristeia.stderr.contains("--seating is for Invictus"), "{}", aristeia.stderr);
}

/// `arena check` finds what the engine cannot play: a counter with no
/// trigger, an Artifact used as a block with no `block`, a starter deck
/// naming an Artifact no pack defines.
#[test]
fn check_reports_unplayable_invictus_content() {
    let pack = temp_pack(&[(
        "cards.toml",
        r#"
[[boost]]
id = "leaky"
name = "Leaky"
copies = { omega = 1 }
timing = "counter"
effect = { text = "?" }

[[artifact]]
id = "sieve"
name = "Sieve"
energy_type = "aqua"
use = "block"
count = 1

[[marketplace]]
id = "odd"
name = "Odd"
starter_deck = [{ artifact = "radiant-cor", count = 4 }]
hand_size = 5
base_stamina = 14
stamina_step = 2
max_stamina = 24
boost_price = 2
reinforcement_price = 5
reinforcement_replace_price = 7
max_reinforcements = 2
reinforcement_hits = 2
revival_penalty = 10
apocalypse_threshold = 40
apocalypse_damage = 40
apocalypse_floor = 10
"#,
    )]);
    let root = arena_tests::tests_dir().join("..");
    let loaded = load::load(
        &[root.join("content/invictus"), pack.path().to_path_buf()],
        &load::Options { run_script_tests: false, ..load::Options::default() },
    );
    let errors: Vec<(String, String)> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code.as_str().to_string(), d.message.clone()))
        .collect();
    assert!(errors.iter().any(|(c, m)| c == "invalid-value" && m.contains("`leaky` has no `trigger`")), "{errors:#?}");
    assert!(
        errors.iter().any(|(c, m)| c == "invalid-value" && m.contains("`sieve`") && m.contains("`block`")),
        "{errors:#?}"
    );
    assert!(errors.iter().any(|(c, m)| c == "dangling-reference" && m.contains("artifact:radiant-cor")), "{errors:#?}");
    assert_eq!(errors.len(), 3, "{errors:#?}");
}

/// `arena run` plays an Invictus situation file (`game = "invictus"`).
#[test]
fn arena_run_plays_an_invictus_situation() {
    let run = arena_tests::arena(&[
        "run",
        "situations-invictus/attacking-and-countering.toml",
        "--pack",
        "../content/invictus",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("athena's attack on apollo: 40 damage (20 blocked)"), "{}", run.stdout);
    assert!(run.stdout.contains("apollo takes 40 damage (100 HP)"), "{}", run.stdout);
}

/// A transaction is priced one way when it is offered and when it is
/// completed (`003 § Financial Transactions`): the second Stamina token of a
/// transaction costs the next tier's price (3, then 5), so with 8 Prisma two
/// tokens use them all and nothing more is offered. (Offers priced every
/// announced token as the first tier: a Boost was offered too, and the
/// transaction then failed without a word.)
#[test]
fn a_transaction_is_priced_the_same_when_offered_and_when_completed() {
    let loaded = invictus();
    let rt = runtime(&loaded);
    let s = Situation {
        player: vec![
            SituationPlayer { hand: strings(&["radiant-core"; 8]), ..player("athena", 0) },
            player("apollo", 1),
        ],
        answers: strings(&["buy a stamina token", "buy a stamina token", "end the turn"]),
        ..Situation::default()
    };
    let game = play_turn(&s, &loaded, &rt);
    assert!(
        game.events.contains(&Event::Transaction {
            god: "athena".into(),
            paid: 8,
            spent: 8,
            items: strings(&["buy a stamina token", "buy a stamina token"])
        }),
        "{}",
        narrative(&game)
    );
    assert_eq!(game.state.player(PlayerId::seat(0)).tokens[&Skill::Stamina].len(), 3);
}

/// `check --strict` lists no Invictus card or rule the engine performs from
/// its data (Artifacts by their use, abilities that deal damage,
/// Reinforcements' tokens, counterfeit Boosts, the rules' components) as an
/// effect without Lua; an ability whose data says nothing it does is listed.
#[test]
fn check_strict_lists_only_the_invictus_effects_the_engine_does_not_perform() {
    let strict = |pack: &std::path::Path| {
        let run = arena_tests::arena(&["check", pack.to_str().unwrap(), "--strict", "--format", "json", "-q"]);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "unsupported-effect")
            .map(|d| d["message"].as_str().unwrap_or_default().to_string())
            .collect::<Vec<_>>()
    };
    let bundled = arena_tests::tests_dir().join("../content/invictus");
    assert_eq!(strict(&bundled), Vec::<String>::new());
    let dir = std::env::temp_dir().join(format!("arena-inv-native-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pack = dir.join("invictus");
    assert!(std::process::Command::new("cp").args(["-r"]).arg(&bundled).arg(&pack).status().unwrap().success());
    let gods = pack.join("gods.toml");
    let text = std::fs::read_to_string(&gods).unwrap();
    std::fs::write(&gods, text.replacen("damage = 40\n", "", 1)).unwrap();
    let listed = strict(&pack);
    assert_eq!(listed.len(), 1, "{listed:?}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `--gods` seats the gods named, in seat order, in every game (instead of
/// dealing two to each seat, `003 § Setup`); a god not loaded, a count that
/// is not one per seat, or an Aristeia! table are usage errors (exit 2).
#[test]
fn gods_named_on_the_command_line_sit_in_seat_order() {
    let pack = ["--pack", "../content/invictus"];
    let gods = "athena,zeus,hades,hermes";
    let mut args = vec!["sim", "invictus", "--seats", "4", "--seed", "3", "--gods", gods, "--format", "json"];
    args.extend(pack);
    let one = arena_tests::arena(&args);
    assert_eq!(one.code, 0, "{}", one.stderr);
    let v: serde_json::Value = serde_json::from_str(&one.stdout).unwrap();
    assert_eq!(v["record"]["gods"], serde_json::json!(["athena", "zeus", "hades", "hermes"]), "{}", one.stdout);
    assert_eq!(v["setup"]["gods"], serde_json::json!(["athena", "zeus", "hades", "hermes"]), "{}", one.stdout);

    let mut batch = vec!["sim", "invictus", "--seats", "4", "--games", "3", "--gods", gods, "--format", "json"];
    batch.extend(pack);
    let b = arena_tests::arena(&batch);
    assert_eq!(b.code, 0, "{}", b.stderr);
    let v: serde_json::Value = serde_json::from_str(&b.stdout).unwrap();
    for g in v["games"].as_array().unwrap() {
        assert_eq!(g["gods"], serde_json::json!(["athena", "zeus", "hades", "hermes"]));
    }

    for (gods, says) in [("athena,zues,hades,hermes", "did you mean `zeus`?"), ("athena,zeus", "2 gods for 4 seats")] {
        let mut a = vec!["sim", "invictus", "--seats", "4", "--gods", gods];
        a.extend(pack);
        let r = arena_tests::arena(&a);
        assert_eq!(r.code, 2, "{gods}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{gods}: {}", r.stderr);
    }
    let aristeia = arena_tests::arena(&["sim", "assault", "--gods", "athena"]);
    assert_eq!(aristeia.code, 2);
    assert!(aristeia.stderr.contains("--gods is for Invictus"), "{}", aristeia.stderr);
}

/// A balance batch deals one god to each seat (`invictus::GodDeal::Even`):
/// over a run of as many seeds as there are gods (from a multiple of
/// their number), every god sits once at every seat, no god twice in a
/// game, and the players choose nothing, so no god is left out by how they
/// choose (the rulebook's deal of two, `003 § Character Assignment`, is
/// `--deal rulebook`).
#[test]
fn a_batch_deals_every_god_equally_often_at_every_seat() {
    use arena_engine::invictus::GodDeal;
    let loaded = invictus();
    let gods: Vec<_> = loaded.content.gods.keys().cloned().collect();
    let g = gods.len() as u64;
    assert!(g >= 6, "the bundled gods: {gods:?}");
    for seats in [2, 4, 6] {
        let mut at_seat = vec![std::collections::BTreeMap::new(); seats];
        for seed in 3 * g..4 * g {
            let dealt = GodDeal::even(&gods, seed, seats);
            let distinct: std::collections::BTreeSet<_> = dealt.iter().collect();
            assert_eq!(distinct.len(), seats, "seed {seed}: {dealt:?}");
            for (s, god) in dealt.iter().enumerate() {
                *at_seat[s].entry(*god).or_insert(0) += 1;
            }
        }
        for (s, counts) in at_seat.iter().enumerate() {
            assert_eq!(counts.len(), gods.len(), "{seats} seats, seat {s}: every god: {counts:?}");
            assert!(counts.values().all(|n| *n == 1), "{seats} seats, seat {s}: once each: {counts:?}");
        }
    }
    // Another run of seeds seats them in another order.
    assert_ne!(GodDeal::even(&gods, 0, 4), GodDeal::even(&gods, g, 4));

    let pack = ["--pack", "../content/invictus"];
    let mut batch = vec!["sim", "invictus", "--seats", "4", "--games", "12", "--seed", "0", "--format", "json"];
    batch.extend(pack);
    let b = arena_tests::arena(&batch);
    assert_eq!(b.code, 0, "{}", b.stderr);
    let v: serde_json::Value = serde_json::from_str(&b.stdout).unwrap();
    assert_eq!(v["setup"]["deal"], "even", "{}", b.stdout);
    for game in v["games"].as_array().unwrap() {
        let seed = game["seed"].as_u64().unwrap();
        let want: Vec<String> = GodDeal::even(&gods, seed, 4).iter().map(ToString::to_string).collect();
        assert_eq!(game["gods"], serde_json::json!(want), "seed {seed}");
    }
    let mut rulebook = vec!["sim", "invictus", "--seats", "4", "--seed", "3", "--deal", "rulebook", "--format", "json"];
    rulebook.extend(pack);
    let r = arena_tests::arena(&rulebook);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let seated: Vec<_> = v["record"]["events"].as_array().unwrap().iter().filter(|e| e["event"] == "seated").collect();
    assert_eq!(seated.len(), 4);
    assert!(
        seated.iter().all(|e| e["dealt"].as_array().is_some_and(|d| d.len() == 2)),
        "the rulebook's deal gives each seat two to choose from: {seated:?}"
    );
    // Under the rulebook's deal the greedy player prefers no god (it took
    // the one with more Health, so the god with least was never played).
    let mut rulebook_batch =
        vec!["sim", "invictus", "--seats", "4", "--games", "120", "--deal", "rulebook", "--format", "json"];
    rulebook_batch.extend(pack);
    let r = arena_tests::arena(&rulebook_batch);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let least_health = loaded.content.gods.iter().min_by_key(|(_, g)| g.value.health).map(|(id, _)| id.to_string());
    let played = |god: &str| v["report"]["gods"][god]["games"].as_u64().unwrap_or(0);
    for god in &gods {
        assert!(played(god.as_str()) > 0, "{god} is never chosen: {}", v["report"]["gods"]);
    }
    assert!(played(&least_health.unwrap()) >= 20, "the god with least Health is chosen as often as others");
    let mut both = vec!["sim", "invictus", "--deal", "rulebook", "--gods", "athena,zeus,hades,hermes"];
    both.extend(pack);
    let r = arena_tests::arena(&both);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("one or the other"), "{}", r.stderr);
    let aristeia = arena_tests::arena(&["sim", "assault", "--deal", "rulebook"]);
    assert_eq!(aristeia.code, 2);
    assert!(aristeia.stderr.contains("--deal is for Invictus"), "{}", aristeia.stderr);
}

/// `003 § Completing Your Turn` draws only up to 5 Artifacts, so a card
/// not played stays in hand. A greedy Ares holding Blocks and a Radiant
/// Core, no attack, spends the Core to destroy a Block (`003 § Financial
/// Transactions`), draws from his reshuffled discard pile and attacks on a
/// later turn, once his hand moves again. Kept, that hand would be his hand on every turn after
/// (a 4-seat game stopped at 2,000 turns this way).
#[test]
fn a_greedy_player_with_a_hand_of_blocks_destroys_one_and_draws_again() {
    let loaded = invictus();
    let rt = runtime(&loaded);
    let mut ares = player("ares", 1);
    ares.hand = strings(&["hoplon", "aegis", "aegis", "hoplon", "radiant-core"]);
    ares.discard = strings(&["gladius", "xiphos", "sol-fire", "xiphos", "gladius", "radiant-core"]);
    let mut athena = player("athena", 0);
    athena.hand = strings(&["clinker", "clinker", "clinker", "clinker", "clinker"]);
    let s = Situation { player: vec![athena, ares], active: 1, ..Situation::default() };
    let greedy = || -> Vec<Box<dyn arena_engine::invictus::Controller>> {
        vec![Box::new(arena_engine::players::GreedyPlayer), Box::new(arena_engine::players::GreedyPlayer)]
    };
    let mut game = s.game_with(&loaded.content, Some(&rt), greedy()).unwrap();
    game.play_turn();
    let first = narrative(&game);
    assert!(
        first.contains("ares pays 1 Prisma for 1: destroy hoplon") || first.contains("destroy aegis"),
        "Ares destroys a Block with his Radiant Core:\n{first}"
    );
    let hand = &game.state.player(PlayerId::seat(1)).hand;
    assert_eq!(hand.len(), 5, "and draws back to 5: {hand:?}");
    assert!(hand.iter().any(|c| ["gladius", "xiphos", "sol-fire"].contains(&c.id())), "an attack among them: {hand:?}");
    for _ in 0..4 {
        game.play_turn();
    }
    let all = narrative(&game);
    assert!(all.contains("ares's attack on athena"), "{all}");
    let destroyed = all.matches(": destroy ").count();
    assert!(destroyed <= 2, "he keeps two of his four Blocks once his hand moves again:\n{all}");
}
