//! The optional rules of Prime Time (`001 § Additional Rules`) as setup
//! toggles, and the Artifacts of a Prime Time table (`001`):
//! the 9 Special Spaces with their blind placements, the Running Projectiles
//! one per player, Artifact Deployment before Team Deployment. The rules
//! that play inside a Round are situations too
//! (`situations/prime-time/underdog-*.toml`, `remove-states-*.toml`,
//! `sterling-forge-*.toml`, `tcomm-*.toml`).

use arena_engine::load;
use arena_engine::rules::decision::{Choice, Controller, Decision, DecisionKind};
use arena_engine::rules::event::Event;
use arena_engine::rules::game::{GameSetup, OptionalRule};
use arena_engine::rules::seats::{PlayerId, Table};
use arena_engine::script::runtime::{Limits, Runtime};
use arena_engine::sim;
use arena_tests::{arena, tests_dir};
use std::collections::BTreeSet;
use std::sync::Arc;

fn load_packs(extra: &[&str]) -> load::Loaded {
    let mut roots = vec![tests_dir().join("../content")];
    roots.extend(extra.iter().map(|p| tests_dir().join(p)));
    let loaded = load::load(&roots, &load::Options { run_script_tests: false, ..load::Options::default() });
    assert!(!loaded.has_errors(), "the packs have errors");
    loaded
}

fn runtime(loaded: &load::Loaded) -> Runtime {
    Runtime::new(Arc::new(loaded.content.clone()), loaded.script_set.clone(), Limits::default()).unwrap()
}

fn rules(list: &[OptionalRule]) -> BTreeSet<OptionalRule> {
    list.iter().copied().collect()
}

/// What a controller was asked and what it saw.
#[derive(Clone)]
struct Asked {
    player: PlayerId,
    kind: DecisionKind,
    prompt: String,
    options: Vec<Choice>,
    answer: usize,
    /// Each player's hand and deck at the time.
    hands: Vec<Vec<arena_engine::model::Id>>,
    decks: Vec<Vec<arena_engine::model::Id>>,
    /// The Special Space markers in the state the View shows.
    markers: Vec<arena_engine::model::Id>,
    /// Each player's team as the View shows it.
    teams: Vec<Vec<arena_engine::model::Id>>,
    /// The Round, and who held the marker.
    round: u8,
    marker: PlayerId,
}

/// Play one game of `setup` with `policy` at every seat, recording every
/// Decision with the whole state (the umpire's look, `sim::play_observed`).
fn play_recorded(
    loaded: &load::Loaded,
    rt: &Runtime,
    setup: &GameSetup,
    policy: sim::Policy,
) -> (sim::Record, Vec<Asked>) {
    let mut asked = Vec::new();
    let seats = setup.teams.table().len();
    let mut controllers: Vec<Box<dyn Controller>> = (0..seats).map(|i| policy.controller(setup.seed, i)).collect();
    let mut observe = |d: &Decision, state: &arena_engine::rules::state::GameState, answer: usize| {
        asked.push(Asked {
            player: d.player,
            kind: d.kind.clone(),
            prompt: d.prompt.to_string(),
            options: d.options.clone(),
            answer,
            hands: state.players.iter().map(|p| p.hand.to_vec()).collect(),
            decks: state.players.iter().map(|p| p.deck.to_vec()).collect(),
            markers: state.special_spaces.iter().map(|m| m.marker).collect(),
            teams: state.players.iter().map(|p| p.team.to_vec()).collect(),
            round: state.round,
            marker: state.underdog,
        })
    };
    let record = sim::play_observed(
        &loaded.content,
        rt,
        setup,
        controllers.iter_mut().map(|c| c.as_mut() as &mut dyn Controller).collect(),
        Some(&mut observe),
    )
    .unwrap();
    (record, asked)
}

fn setup_of(loaded: &load::Loaded, scenario: &str, seats: usize, seed: u64, on: &[OptionalRule]) -> GameSetup {
    let mut s = GameSetup::random(&loaded.content, scenario, seats, seed).unwrap();
    s.optional_rules = rules(on);
    s
}

/// The replay of a game plays the same events again, with its rules.
fn replays(loaded: &load::Loaded, rt: &Runtime, record: &sim::Record, scenario: &str, seats: usize) {
    let named = arena_engine::table::AristeiaSetup {
        name: scenario.into(),
        random_teams: true,
        seats: Some(seats),
        optional_rules: record.optional_rules.clone(),
    };
    let file = arena_engine::replay_file::ReplayFile::record_aristeia(
        &loaded.content,
        rt,
        &named,
        record.seed,
        &record.answers,
        loaded,
    )
    .unwrap();
    let back = arena_tests::replays_the_same(&file, &record.events, &loaded.content, rt);
    let rules: Vec<String> = record.optional_rules.iter().map(|r| r.name().to_string()).collect();
    assert_eq!(back.setup["optional_rules"], serde_json::json!(rules), "{scenario}: the file names its rules");
}

/// `001 § Underdog`: the Underdog marker instead of Prime Time, to the
/// lowest combined Initiatives after Team Creation; handed over at the end
/// of every Round (not to the left). Without the rule: Prime Time.
#[test]
fn underdog_replaces_prime_time() {
    let loaded = load_packs(&[]);
    let rt = runtime(&loaded);
    let initiative = |c: &str| loaded.content.characters[c].value.initiative as u32;
    for (seats, seed) in [(3, 1), (4, 2), (3, 7), (4, 9)] {
        let setup = setup_of(&loaded, "crossover-assault", seats, seed, &[OptionalRule::Underdog]);
        let (record, _) = play_recorded(&loaded, &rt, &setup, sim::Policy::Greedy);
        assert!(!record.events.iter().any(|e| matches!(e, Event::PrimeTime { .. })), "no Prime Time marker");
        let first = record.events.iter().find_map(|e| match e {
            Event::Underdog { player, .. } => Some(*player),
            _ => None,
        });
        let totals: Vec<u32> = setup.teams.iter().map(|t| t.iter().map(|c| initiative(c)).sum()).collect();
        let lowest = *totals.iter().min().unwrap();
        let first = first.expect("an Underdog at setup");
        assert_eq!(totals[first.index()], lowest, "seats {seats} seed {seed}: {totals:?}");
        let rounds = record.events.iter().filter(|e| matches!(e, Event::RoundStarted { .. })).count();
        let handed = record.events.iter().filter(|e| matches!(e, Event::Underdog { .. })).count();
        // One at setup, one at the end of every Round but the last.
        assert_eq!(handed, rounds, "seats {seats} seed {seed}");
        replays(&loaded, &rt, &record, "crossover-assault", seats);
        let mut plain = setup.clone();
        plain.optional_rules.clear();
        let (record, _) = play_recorded(&loaded, &rt, &plain, sim::Policy::Greedy);
        assert!(record.events.iter().any(|e| matches!(e, Event::PrimeTime { .. })));
        assert!(!record.events.iter().any(|e| matches!(e, Event::Underdog { .. })));
    }
}

/// `001 § No!`: "Before shuffling the Tactics deck, each player retrieves
/// their "No!" card ... once the Mulligan step was resolved, they will add
/// this Tactic to their hand."
#[test]
fn no_in_hand_after_the_mulligan() {
    let loaded = load_packs(&[]);
    let rt = runtime(&loaded);
    for seats in [3, 4] {
        let setup = setup_of(&loaded, "deathmatch-ballroom-dancing", seats, 3, &[OptionalRule::NoInHand]);
        let (record, asked) = play_recorded(&loaded, &rt, &setup, sim::Policy::Random);
        let mulligans: Vec<&Asked> = asked.iter().filter(|a| a.kind == DecisionKind::Mulligan).collect();
        assert_eq!(mulligans.len(), seats);
        for m in &mulligans {
            for p in 0..seats {
                assert!(!m.hands[p].contains(&"no".into()), "No! is not drawn: {:?}", m.hands[p]);
                assert!(!m.decks[p].contains(&"no".into()), "No! is not in the deck: {:?}", m.decks[p]);
            }
        }
        let first_planning = asked.iter().find(|a| a.kind == DecisionKind::RunningOrder).expect("a Planning Phase");
        for p in 0..seats {
            let no = first_planning.hands[p].iter().filter(|t| *t == "no").count();
            assert!(no <= 1 && (no == 1 || record.events.iter().any(|e| matches!(e, Event::TacticPlayed { .. }))));
        }
        let added =
            record.events.iter().filter(|e| e.to_string().ends_with("adds no to their hand (No! in hand)")).count();
        assert_eq!(added, seats);
        replays(&loaded, &rt, &record, "deathmatch-ballroom-dancing", seats);
        // Without the rule, No! stays in the deck and nobody adds it.
        let mut plain = setup.clone();
        plain.optional_rules.clear();
        let (record, asked) = play_recorded(&loaded, &rt, &plain, sim::Policy::Random);
        let m = asked.iter().find(|a| a.kind == DecisionKind::Mulligan).unwrap();
        assert!((0..seats).all(|p| m.hands[p].contains(&"no".into()) || m.decks[p].contains(&"no".into())));
        assert!(!record.events.iter().any(|e| e.to_string().contains("No! in hand")));
    }
}

/// `001 § Frags and States` is what `001 § Frags` already requires for
/// Poisoned and Burning (R73): the toggle changes no game.
#[test]
fn frags_and_states_is_always_played() {
    let loaded = load_packs(&[]);
    let content = Arc::new(loaded.content.clone());
    let teams = sim::Teams::Random("crossover-assault".into());
    for seats in [3, 4] {
        let players = vec![sim::Policy::Random; seats];
        let plain = sim::digests(content.clone(), loaded.script_set.clone(), &teams, 1..6, &players).unwrap();
        let with = sim::digests_with_rules(
            content.clone(),
            loaded.script_set.clone(),
            &teams,
            &rules(&[OptionalRule::FragsAndStates]),
            1..6,
            &players,
        )
        .unwrap();
        assert_eq!(plain, with);
    }
}

/// `001 § Running Order (Additional Rule)`: at a table of three "No one,
/// excepting Prime Time, may place both their Initiative cards in the same
/// position in both Running Orders". Random players break it without the
/// rule, never with it.
#[test]
fn running_order_restriction_at_three_players() {
    let loaded = load_packs(&[]);
    let rt = runtime(&loaded);
    let mut broken_without = 0;
    for seed in 1..=12 {
        for on in [true, false] {
            let rule = if on { vec![OptionalRule::RunningOrderRestriction] } else { vec![] };
            let setup = setup_of(&loaded, "crossover-assault", 3, seed, &rule);
            let (record, _) = play_recorded(&loaded, &rt, &setup, sim::Policy::Random);
            let mut prime_time = PlayerId::seat(0);
            let mut placed: Vec<(PlayerId, u8, u8)> = Vec::new();
            for e in &record.events {
                match e {
                    Event::PrimeTime { player, .. } => prime_time = *player,
                    Event::InitiativePlaced { player, order, position, .. } => {
                        placed.push((*player, *order, *position));
                        if placed.len() < 6 {
                            continue;
                        }
                        for p in Table::of(3).seats().filter(|p| *p != prime_time) {
                            let mine: Vec<(u8, u8)> =
                                placed.iter().filter(|(q, ..)| *q == p).map(|(_, o, i)| (*o, *i)).collect();
                            let same = mine.len() == 2 && mine[0].1 == mine[1].1 && mine[0].0 != mine[1].0;
                            if same {
                                assert!(!on, "seed {seed}: {p} placed both in position {}", mine[0].1);
                                broken_without += 1;
                            }
                        }
                        placed.clear();
                    }
                    _ => {}
                }
            }
            if on {
                replays(&loaded, &rt, &record, "crossover-assault", 3);
            }
        }
    }
    assert!(broken_without > 0, "random players never placed both in one position without the rule");
}

/// `001 § Draft`: from a player drawn at random, each in turn to the left
/// secretly keeps one Initiative card of every available Character until
/// everyone has their team; the cards are flipped; decks of `001 §
/// Preparations`, 6. (the four Tactics of each Character and the ten
/// Standard Tactics). Replays verify.
#[test]
fn the_draft_picks_the_teams_at_the_table() {
    let loaded = load_packs(&[]);
    let rt = runtime(&loaded);
    let all = loaded.content.characters.len();
    for (seats, seed) in [(3, 4), (4, 5)] {
        let setup = setup_of(&loaded, "crossover-assault", seats, seed, &[OptionalRule::Draft]);
        let (record, asked) = play_recorded(&loaded, &rt, &setup, sim::Policy::Random);
        let drafts: Vec<&Asked> = asked.iter().filter(|a| a.kind == DecisionKind::Draft).collect();
        assert_eq!(drafts.len(), 2 * seats);
        let table = Table::of(seats);
        for (k, d) in drafts.iter().enumerate() {
            assert_eq!(d.options.len(), all - k, "one card fewer at each pick");
            if k > 0 {
                assert_eq!(d.player, table.next_clockwise(drafts[k - 1].player), "the deck goes to the left");
            }
            // Secret: nobody's team shows before the cards are flipped.
            assert!(d.teams.iter().all(Vec::is_empty));
        }
        let mut kept: Vec<Vec<arena_engine::model::Id>> = vec![vec![]; seats];
        for d in &drafts {
            let Choice::Pick { id } = &d.options[d.answer] else { panic!() };
            kept[d.player.index()].push(*id);
        }
        let drafted: Vec<(PlayerId, Vec<arena_engine::model::Id>)> = record
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Drafted { player, characters } => Some((*player, characters.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(drafted.len(), seats);
        for (p, team) in &drafted {
            assert_eq!(*team, kept[p.index()]);
        }
        // The Deployment deploys the drafted Characters.
        let deployed: BTreeSet<arena_engine::model::Id> = record
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Deployed { character, .. } => Some(*character),
                _ => None,
            })
            .collect();
        assert_eq!(deployed, kept.iter().flatten().cloned().collect());
        // Decks: the ten Standard Tactics and each Character's four.
        let cards = |c: &str| -> usize {
            loaded
                .content
                .tactics
                .values()
                .filter(|t| t.value.character.as_deref() == Some(c))
                .map(|t| t.value.copies.max(1) as usize)
                .sum()
        };
        let last = asked.iter().rfind(|a| a.kind == DecisionKind::Mulligan).unwrap();
        for (p, team) in kept.iter().enumerate() {
            let own: usize = team.iter().map(|c| cards(c)).sum();
            assert_eq!(last.hands[p].len() + last.decks[p].len(), 10 + own, "{p}");
            assert_eq!(last.teams[p], *team, "the flipped cards are the team");
        }
        replays(&loaded, &rt, &record, "crossover-assault", seats);
    }
}

/// `001 § Scenarios with Special Spaces`: "a total of 9 Special Spaces",
/// placed in turn clockwise from Prime Time; with three players each
/// player's third marker blind, with four Prime Time's ninth. A blind
/// placement's Decision names no marker, and the View does not hold it.
#[test]
fn nine_special_spaces_with_the_blind_placements() {
    let loaded = load_packs(&["fixtures/packs/prime-time-artifacts"]);
    let rt = runtime(&loaded);
    let markers: Vec<arena_engine::model::Id> = loaded.content.special_spaces.keys().cloned().collect();
    for (seats, seed) in [(3, 1), (4, 2), (3, 3), (4, 4)] {
        let setup = setup_of(&loaded, "crossover-assault", seats, seed, &[]);
        let (record, asked) = play_recorded(&loaded, &rt, &setup, sim::Policy::Greedy);
        let prime_time = record
            .events
            .iter()
            .find_map(|e| match e {
                Event::PrimeTime { player, .. } => Some(*player),
                _ => None,
            })
            .unwrap();
        let placing: Vec<&Asked> = asked.iter().filter(|a| a.kind == DecisionKind::SpecialSpace).collect();
        assert_eq!(placing.len(), 9, "seats {seats}");
        let order = Table::of(seats).order_from(prime_time);
        for (k, a) in placing.iter().enumerate() {
            assert_eq!(a.player, order[k % seats], "placement {k}: clockwise from Prime Time");
            let blind = if seats == 3 { k >= 6 } else { k == 8 };
            let named = markers.iter().filter(|m| a.prompt.contains(&format!("({m})"))).count();
            if blind {
                assert!(a.prompt.contains("blind"), "{}", a.prompt);
                assert_eq!(named, 0, "a blind placement names no marker: {}", a.prompt);
                // The View holds only the markers already placed.
                assert_eq!(a.markers.len(), k);
            } else {
                assert_eq!(named, 1, "a seen placement names its marker: {}", a.prompt);
            }
        }
        if seats == 4 {
            assert_eq!(placing[8].player, prime_time, "Prime Time places the ninth");
        }
        let placed = record.events.iter().filter(|e| matches!(e, Event::SpecialSpacePlaced { .. })).count();
        assert_eq!(placed, 9);
    }
}

/// `001 § Preparations`: 7. Artifact Deployment (Special Spaces, then
/// Running Projectiles) before 8. Team Deployment; `001 § Scenarios with
/// Running Projectiles`: one per player, from Prime Time to the left; at
/// the end of each Turns Phase activated from Prime Time left to right, then
/// topped up to one per player from Prime Time.
#[test]
fn running_projectiles_one_per_player_before_team_deployment() {
    let loaded = load_packs(&["fixtures/packs/prime-time-artifacts"]);
    let rt = runtime(&loaded);
    for (seats, seed) in [(3, 1), (4, 2), (3, 5), (4, 6)] {
        let setup = setup_of(&loaded, "crossover-assault", seats, seed, &[]);
        let (record, asked) = play_recorded(&loaded, &rt, &setup, sim::Policy::Greedy);
        let table = Table::of(seats);
        let at = |f: &dyn Fn(&Event) -> bool| record.events.iter().position(f);
        let first_deployed = at(&|e| matches!(e, Event::Deployed { .. })).unwrap();
        let last_marker = record.events.iter().rposition(|e| matches!(e, Event::SpecialSpacePlaced { .. })).unwrap();
        let first_projectile = at(&|e| matches!(e, Event::ProjectileDeployed { .. })).unwrap();
        assert!(last_marker < first_projectile && first_projectile < first_deployed, "Artifacts before the Teams");
        let mut prime_time = PlayerId::seat(0);
        let mut round_started = false;
        let mut deployers: Vec<PlayerId> = Vec::new();
        // Prime Time when the deployments began (the marker moves after them).
        let mut deploying_pt = PlayerId::seat(0);
        let mut on_board: i32 = 0;
        let mut checked_top_up = 0;
        for e in &record.events {
            match e {
                Event::PrimeTime { player, .. } => prime_time = *player,
                Event::ProjectileDeployed { player, .. } => {
                    if deployers.is_empty() {
                        deploying_pt = prime_time;
                    }
                    deployers.push(*player);
                    on_board += 1;
                }
                Event::ProjectileRemoved { why, .. } if why != "discarded" => on_board -= 1,
                Event::RoundStarted { .. } => {
                    if !round_started {
                        // The setup: one each, from Prime Time to the left.
                        assert_eq!(deployers, table.order_from(deploying_pt), "seats {seats} seed {seed}");
                        round_started = true;
                    } else if !deployers.is_empty() {
                        // A top-up: from Prime Time to the left, up to one per player.
                        let order = table.order_from(deploying_pt);
                        assert_eq!(deployers, order[..deployers.len()].to_vec(), "seats {seats} seed {seed}");
                        checked_top_up += 1;
                    }
                    assert_eq!(on_board, seats as i32, "one per player in the HexaDome");
                    deployers.clear();
                }
                _ => {}
            }
        }
        assert!(checked_top_up > 0, "seats {seats} seed {seed}: no Round topped the Running Projectiles up");
        // Activations: each player in turn from Prime Time activates one (the
        // last of a Round's is not asked: one option left).
        let activating: Vec<&Asked> = asked
            .iter()
            .filter(|a| a.kind == DecisionKind::Projectile && a.prompt.starts_with("Activate which"))
            .collect();
        assert!(!activating.is_empty());
        for round in 1..=activating.iter().map(|a| a.round).max().unwrap() {
            let those: Vec<&&Asked> = activating.iter().filter(|a| a.round == round).collect();
            if let Some(first) = those.first() {
                let order = table.order_from(first.marker);
                let who: Vec<PlayerId> = those.iter().map(|a| a.player).collect();
                assert_eq!(who, order[..who.len()].to_vec(), "seats {seats} seed {seed} Round {round}");
            }
        }
    }
}

/// The optional rules through the CLI: `--optional-rule NAME` on `arena
/// sim`, named with their 001 sections in `--help`; a rule of Prime Time
/// tables at a 2-player table is a usage error (exit 2); a game's replay
/// carries them and verifies.
#[test]
fn the_optional_rule_flag() {
    let help = arena(&["sim", "--help"]);
    let help = help.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    for r in OptionalRule::ALL {
        assert!(help.contains(&format!("{} ({}", r.name(), r.section())), "--help names {}: {help}", r.name());
    }
    let two = arena(&["sim", "assault", "--optional-rule", "underdog"]);
    assert_eq!(two.code, 2, "{}", two.stderr);
    assert!(two.stderr.contains("`underdog` (001 § Underdog) is for 3-4 player (Prime Time) tables"), "{}", two.stderr);
    let four = arena(&["sim", "crossover-assault", "--seats", "4", "--optional-rule", "running-order-restriction"]);
    assert_eq!(four.code, 2, "{}", four.stderr);
    let both = arena(&["sim", "wanted", "--optional-rule", "sterling-forge", "--optional-rule", "tcomm"]);
    assert_eq!(both.code, 2, "{}", both.stderr);
    let bad = arena(&["sim", "wanted", "--optional-rule", "underdogs"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("remove-states"), "{}", bad.stderr);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let file = file.to_str().unwrap();
    let sim = arena(&[
        "sim",
        "deathmatch-run-n-shoot",
        "--seats",
        "3",
        "--seed",
        "4",
        "--optional-rule",
        "underdog",
        "--optional-rule",
        "no-in-hand",
        "--optional-rule",
        "draft",
        "--replay",
        file,
    ]);
    assert_eq!(sim.code, 0, "{}", sim.stderr);
    assert!(sim.stdout.contains("is the Underdog"), "{}", sim.stdout);
    assert!(sim.stdout.contains("drafted"), "{}", sim.stdout);
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(r#""optional_rules":["underdog","no-in-hand","draft"]"#), "{text}");
    let replay = arena(&["replay", file]);
    assert_eq!(replay.code, 0, "{}{}", replay.stdout, replay.stderr);
    let batch = arena(&[
        "sim",
        "crossover-assault",
        "--seats",
        "4",
        "--games",
        "3",
        "--jobs",
        "1",
        "--optional-rule",
        "remove-states",
        "--optional-rule",
        "tcomm",
        "--format",
        "json",
        "-q",
    ]);
    assert_eq!(batch.code, 0, "{}", batch.stderr);
    let v: serde_json::Value = serde_json::from_str(&batch.stdout).unwrap();
    assert_eq!(v["optional_rules"], serde_json::json!(["remove-states", "tcomm"]));
}

/// A situation's `optional_rules`: an unknown name or a rule its table
/// cannot play is an error at the key, with its line and column.
#[test]
fn a_situations_optional_rules_are_checked_at_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let content = tests_dir().join("../content");
    let write = |name: &str, rules: &str, players: u8| {
        let path = dir.path().join(name);
        std::fs::write(
            &path,
            format!(
                "scenario = \"deathmatch-ballroom-dancing\"\nplayers = {players}\n{rules}\nactive = \"parvati\"\nanswers = [\"done\"]\nexpect = [\"parvati activates with 5 Action Points\"]\n\n[[character]]\nid = \"parvati\"\nplayer = 1\nspace = [1, 3]\n"
            ),
        )
        .unwrap();
        path.to_str().unwrap().to_string()
    };
    let pack_core = content.join("aristeia-core");
    let pack_pt = content.join("aristeia-prime-time");
    let run =
        |file: &str| arena(&["run", file, "--pack", pack_core.to_str().unwrap(), "--pack", pack_pt.to_str().unwrap()]);
    let ok = run(&write("ok.toml", "optional_rules = [\"underdog\", \"no-in-hand\"]", 3));
    assert_eq!(ok.code, 0, "{}{}", ok.stdout, ok.stderr);
    let two = run(&write("two.toml", "optional_rules = [\"remove-states\"]", 2));
    assert_ne!(two.code, 0);
    assert!(two.stderr.contains("two.toml:3:1"), "{}", two.stderr);
    assert!(two.stderr.contains("is for 3-4 player (Prime Time) tables, not for 2 players"), "{}", two.stderr);
    let draft = run(&write("draft.toml", "optional_rules = [\"draft\"]", 3));
    assert!(draft.stderr.contains("only phase = \"team-creation\" or \"setup\""), "{}", draft.stderr);
    let unknown = run(&write("unknown.toml", "optional_rules = [\"underdogs\"]", 3));
    assert_ne!(unknown.code, 0);
    assert!(unknown.stderr.contains("underdogs"), "{}", unknown.stderr);
}
