//! Prime Time games of 3 and 4 players (`001`): every Scenario of
//! the bundled aristeia-prime-time pack plays to its end, a few seeds of each
//! (the 200-seed runs are `arena sim <scenario> --random-teams --seats N
//! --games 200`); the table and order of `001 § Preparations` and `§ Round`
//! as the events show them; replays verify.

use arena_engine::load;
use arena_engine::rules::decision::{Choice, Controller, Decision, DecisionKind};
use arena_engine::rules::event::Event;
use arena_engine::rules::game::GameSetup;
use arena_engine::rules::seats::{PlayerId, Table};
use arena_engine::rules::state::View;
use arena_engine::script::runtime::{Limits, Runtime};
use arena_engine::sim;
use std::sync::Arc;

const SCENARIOS: [&str; 7] = [
    "deathmatch-run-n-shoot",
    "deathmatch-ballroom-dancing",
    "crossover-assault",
    "wanted",
    "short-distance",
    "crow-accumulator",
    "common-goals",
];

fn bundled() -> load::Loaded {
    let root = arena_tests::tests_dir().join("..");
    let loaded =
        load::load(&[root.join("content")], &load::Options { run_script_tests: false, ..load::Options::default() });
    assert!(!loaded.has_errors(), "the bundled content has errors");
    loaded
}

#[test]
fn every_prime_time_scenario_plays_to_its_end_with_3_and_4_players() {
    let loaded = bundled();
    let content = Arc::new(loaded.content.clone());
    for scenario in SCENARIOS {
        let teams = sim::Teams::Random(scenario.into());
        for seats in [3, 4] {
            for policy in [sim::Policy::Greedy, sim::Policy::Random] {
                let players = vec![policy; seats];
                let games =
                    sim::batch(content.clone(), loaded.script_set.clone(), &teams, 1..4, &players, 2, &|| {}).unwrap();
                for g in &games {
                    let what = format!("{scenario}, {seats} players, {policy:?}, seed {}", g.seed);
                    assert!(g.error.is_none(), "{what}: {:?}", g.error);
                    assert!(g.effect_failures.is_empty(), "{what}: {:?}", g.effect_failures);
                    assert_eq!(g.victory_points.as_slice().len(), seats, "{what}");
                    assert!(g.rounds >= 1, "{what}: no Round was played");
                    let max = content.scenarios[scenario].value.rounds;
                    let target = content.scenarios[scenario].value.vp_to_win.map_or(u32::MAX, u32::from);
                    let ended = g.rounds == max || g.victory_points.iter().any(|v| *v >= target);
                    assert!(ended, "{what}: ended after {} Rounds with {:?}", g.rounds, g.victory_points);
                }
            }
        }
    }
}

/// Who was asked what, and the answer.
type Asked = (PlayerId, DecisionKind, Vec<Choice>, usize);

/// Records who was asked what, and answers like the random player.
struct Recording {
    inner: Box<dyn Controller>,
    asked: std::rc::Rc<std::cell::RefCell<Vec<Asked>>>,
}

impl Controller for Recording {
    fn decide(&mut self, d: &Decision, view: &View<'_>) -> usize {
        let a = self.inner.decide(d, view);
        self.asked.borrow_mut().push((d.player, d.kind.clone(), d.options.clone(), a));
        a
    }
}

/// `001 § Round`: the Initiative cards are placed in snake order from Prime
/// Time, into two Running Orders of as many positions as players; each Turn
/// activates the two Characters of one position, and the player of the
/// higher Initiative decides which goes first (Prime Time on a tie, the
/// owner when both are theirs). The marker goes left after Rounds 1-3.
#[test]
fn planning_turns_and_the_marker_follow_001() {
    let loaded = bundled();
    let rt = Runtime::new(Arc::new(loaded.content.clone()), loaded.script_set.clone(), Limits::default()).unwrap();
    for (seats, seed) in [(3usize, 5u64), (4, 6), (4, 11)] {
        let setup = GameSetup::random(&loaded.content, "crossover-assault", seats, seed).unwrap();
        let asked = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let mut controllers: Vec<Recording> = (0..seats)
            .map(|i| Recording { inner: sim::Policy::Random.controller(seed, i), asked: asked.clone() })
            .collect();
        let record =
            sim::play(&loaded.content, &rt, &setup, controllers.iter_mut().map(|c| c as &mut dyn Controller).collect())
                .unwrap();
        let table = Table::of(seats);
        let mut prime_time = None;
        let mut placed: Vec<(PlayerId, u8, u8)> = Vec::new();
        let mut rounds_seen = 0;
        let check_round = |placed: &mut Vec<(PlayerId, u8, u8)>, pt: PlayerId| {
            if placed.is_empty() {
                return;
            }
            let who: Vec<PlayerId> = placed.iter().map(|(p, ..)| *p).collect();
            assert_eq!(who, table.snake_from(pt), "seats {seats} seed {seed}: placing order");
            let mut slots: Vec<(u8, u8)> = placed.iter().map(|(_, o, i)| (*o, *i)).collect();
            slots.sort();
            slots.dedup();
            assert_eq!(slots.len(), 2 * seats, "every position of both Running Orders is filled once");
            placed.clear();
        };
        for e in &record.events {
            match e {
                Event::PrimeTime { player, reason } => {
                    if let Some(old) = prime_time {
                        if rounds_seen <= 3 {
                            assert_eq!(*player, table.next_clockwise(old), "{reason}");
                        }
                    }
                    prime_time = Some(*player);
                }
                Event::RoundStarted { .. } => rounds_seen += 1,
                Event::InitiativePlaced { player, order, position, .. } => {
                    assert!((1..=2).contains(order) && (1..=seats as u8).contains(position));
                    placed.push((*player, *order, *position));
                    if placed.len() == 2 * seats {
                        check_round(&mut placed, prime_time.unwrap());
                    }
                }
                Event::Infirmary { .. } => panic!("the Infirmary is not used in Prime Time"),
                _ => {}
            }
        }
        assert!(rounds_seen >= 1);
        // Whoever decided each Turn's order: the owner of the higher Initiative.
        let owner = |c: &str| setup.teams.enumerate().find(|(_, t)| t.iter().any(|x| x == c)).map(|(p, _)| p).unwrap();
        let initiative = |c: &str| loaded.content.characters[c].value.initiative;
        for (player, kind, options, _) in asked.borrow().iter() {
            if *kind != DecisionKind::FirstActivation {
                continue;
            }
            let [Choice::First { character: a }, Choice::First { character: b }] = options.as_slice() else {
                panic!("{options:?}")
            };
            let (oa, ob) = (owner(a), owner(b));
            if oa == ob {
                assert_eq!(*player, oa);
            } else if initiative(a).abs_diff(initiative(b)) > 2 {
                // Printed Initiatives more than 2 apart (the +2 Initiative
                // State cannot turn them round): the higher one's player.
                let higher = if initiative(a) > initiative(b) { oa } else { ob };
                assert_eq!(*player, higher, "{a} vs {b}");
            }
        }
        // The replay of the game plays the same events again.
        let named = arena_engine::table::AristeiaSetup {
            name: "crossover-assault".into(),
            random_teams: true,
            seats: Some(seats),
            optional_rules: Default::default(),
        };
        let file = arena_engine::replay_file::ReplayFile::record_aristeia(
            &loaded.content,
            &rt,
            &named,
            record.seed,
            &record.answers,
            &loaded,
        )
        .unwrap();
        arena_tests::replays_the_same(&file, &record.events, &loaded.content, &rt);
    }
}

/// The batch readout by position from the first Prime Time (`001 §
/// Preparation`, 4. Team Creation: "Prime Time is the first and last to pick"):
/// every game counts once at each position, the positions' wins add up to the
/// games won, and four merged shards give the one batch's figures.
#[test]
fn the_report_reads_out_each_position_from_prime_time_and_shards_merge() {
    let dir = tempfile::tempdir().unwrap();
    let args = |extra: &[&str]| {
        let mut v: Vec<String> = [
            "sim",
            "wanted",
            "--pack",
            "../content/aristeia-core",
            "--pack",
            "../content/aristeia-prime-time",
            "--seats",
            "3",
            "--players",
            "greedy,random,greedy",
            "--games",
            "12",
            "--jobs",
            "2",
            "--format",
            "json",
        ]
        .map(String::from)
        .to_vec();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        arena_tests::arena(&a)
    };
    let whole = run(args(&[]));
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    let v: serde_json::Value = serde_json::from_str(&whole.stdout).unwrap();
    let positions = v["report"]["by_position"].as_array().expect("a Prime Time batch reads out positions");
    assert_eq!(positions.len(), 3);
    let counted = v["tally"]["positions"].as_array().unwrap();
    assert!(counted.iter().all(|p| p["games"] == 12), "each game once at each position: {counted:?}");
    let position_wins: u64 = counted.iter().map(|p| p["wins"].as_u64().unwrap()).sum();
    let seat_wins: u64 = v["tally"]["wins"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).sum();
    assert_eq!(position_wins, seat_wins);
    let vp = |key: &str| -> u64 { v["tally"][key].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).sum() };
    assert_eq!(counted.iter().map(|p| p["victory_points"].as_u64().unwrap()).sum::<u64>(), vp("victory_points"));

    let mut files = Vec::new();
    for i in 1..=4 {
        let shard = format!("{i}/4");
        let r = run(args(&["--shard", &shard]));
        assert_eq!(r.code, 0, "{}", r.stderr);
        let path = dir.path().join(format!("shard-{i}.json"));
        std::fs::write(&path, &r.stdout).unwrap();
        files.push(path.to_string_lossy().into_owned());
    }
    let mut m: Vec<String> =
        ["sim", "merge", "--pack", "../content/aristeia-core", "--pack", "../content/aristeia-prime-time"]
            .map(String::from)
            .to_vec();
    m.extend(files);
    m.extend(["--format", "json"].map(String::from));
    let merged = run(m);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    let mv: serde_json::Value = serde_json::from_str(&merged.stdout).unwrap();
    assert_eq!(mv["report"], v["report"], "merged shards give the batch's readout");
    assert_eq!(mv["tally"]["positions"], v["tally"]["positions"]);
    // A shard played under other optional rules is not a part of this batch.
    let other = run(args(&["--shard", "2/4", "--optional-rule", "underdog"]));
    assert_eq!(other.code, 0, "{}", other.stderr);
    let other_path = dir.path().join("shard-2-underdog.json");
    std::fs::write(&other_path, &other.stdout).unwrap();
    let mixed = run(["sim", "merge", "--pack", "../content/aristeia-core", "--pack", "../content/aristeia-prime-time"]
        .into_iter()
        .map(String::from)
        .chain([1, 3, 4].map(|i| dir.path().join(format!("shard-{i}.json")).to_string_lossy().into_owned()))
        .chain([other_path.to_string_lossy().into_owned()])
        .collect());
    assert_ne!(mixed.code, 0, "shards of different optional rules merged");
    assert!(mixed.stderr.contains("optional_rules"), "{}", mixed.stderr);
    // Under the Underdog optional rule the positions count from the Underdog.
    let underdog: serde_json::Value =
        serde_json::from_str(&run(args(&["--optional-rule", "underdog"])).stdout).unwrap();
    assert_eq!(underdog["report"]["by_position"].as_array().map(Vec::len), Some(3), "{}", underdog["report"]);
}

/// `001 § Draft`: a batch reports the drafted teams, not the setup's, and
/// each drafted Character's readout.
#[test]
fn a_drafted_batch_reports_the_drafted_teams() {
    let draft = |extra: &[&str]| {
        let mut args = vec!["sim", "crossover-assault", "--seats", "3", "--optional-rule", "draft"];
        args.extend(["--pack", "../content/aristeia-core", "--pack", "../content/aristeia-prime-time"]);
        args.extend(extra);
        arena_tests::arena(&args)
    };
    let run = draft(&["--games", "4", "--jobs", "1", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let one = draft(&["--seed", "1"]);
    let drafted: Vec<String> =
        one.stdout.lines().filter_map(|l| l.split_once(" drafted ").map(|(_, cs)| cs.to_string())).collect();
    assert_eq!(drafted.len(), 3, "{}", one.stdout);
    let teams: Vec<String> = v["games"][0]["teams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect::<Vec<_>>().join(", "))
        .collect();
    assert_eq!(teams, drafted, "seed 1's teams are the drafted ones");
    let per = v["report"]["per_character"].as_object().unwrap();
    assert!(!per.is_empty(), "no per-Character readout");
    for team in &drafted {
        for c in team.split(", ") {
            assert!(per.contains_key(c), "{c} drafted but not in the readout");
        }
    }
}

/// `001 § DeathMatch - Run 'N Shoot!`: "Pick the following Characters from the
/// Basic Box: Wild Bill, Miyamoto Mushashi, Major Lunah, and Parvati": random
/// Teams come from the Scenario's `characters`, one each, all four at four
/// players; Ballroom Dancing's from the Basic Box's eight.
#[test]
fn the_tutorials_pick_their_teams_from_their_own_characters() {
    let loaded = bundled();
    let c = &loaded.content;
    let run_n_shoot = ["wild-bill", "miyamoto-mushashi", "major-lunah", "parvati"];
    for seed in 1..=20 {
        let four = GameSetup::random(c, "deathmatch-run-n-shoot", 4, seed).unwrap();
        let mut picked: Vec<&str> = four.teams.iter().flatten().map(arena_engine::model::Id::as_str).collect();
        assert!(four.teams.iter().all(|t| t.len() == 1), "one Character each");
        picked.sort();
        let mut all = run_n_shoot.to_vec();
        all.sort();
        assert_eq!(picked, all, "seed {seed}: the four of the tutorial");
        let three = GameSetup::random(c, "deathmatch-run-n-shoot", 3, seed).unwrap();
        assert!(three.teams.iter().flatten().all(|id| run_n_shoot.contains(&id.as_str())), "seed {seed}");
        let ballroom = GameSetup::random(c, "deathmatch-ballroom-dancing", 4, seed).unwrap();
        let basic_box = &c.scenarios["deathmatch-ballroom-dancing"].value.characters;
        assert_eq!(basic_box.len(), 8);
        assert!(ballroom.teams.iter().flatten().all(|id| basic_box.contains(id)), "seed {seed}");
    }
}

/// Every zone a blue card available now shows (`001 § Controlling a
/// Deployment Zone`; rulings R63), read from the controller's View.
fn shown_zones(view: &View<'_>) -> Vec<arena_engine::model::Id> {
    use arena_engine::model::{ObjectiveRequirement, ZoneControl, ZoneKind};
    let mut out = Vec::new();
    for c in view.objectives().map(|o| o.available.to_vec()).unwrap_or_default() {
        match view.content.objectives[&c].value.requirement.as_ref() {
            Some(ObjectiveRequirement::Control { control: ZoneControl::CentralAndOther, .. }) => {
                out.extend(view.board.zones.iter().filter(|(_, (k, _))| *k == ZoneKind::Central).map(|(z, _)| *z))
            }
            Some(ObjectiveRequirement::Control { zones, .. }) => out.extend(zones.iter().cloned()),
            _ => {}
        }
    }
    out
}

/// Answers like the greedy player, and checks every deployment and return
/// from the Bench against the zones the available blue cards show.
struct ZoneBanCheck {
    inner: Box<dyn Controller>,
    /// Decisions checked while some zone was barred, and violations.
    seen: std::rc::Rc<std::cell::RefCell<(usize, Vec<String>)>>,
}

impl Controller for ZoneBanCheck {
    fn decide(&mut self, d: &Decision, view: &View<'_>) -> usize {
        if matches!(d.kind, DecisionKind::Deploy | DecisionKind::BenchReturn) {
            let barred = shown_zones(view);
            let mut seen = self.seen.borrow_mut();
            if !barred.is_empty() {
                seen.0 += 1;
            }
            for o in &d.options {
                if let Choice::Space { space } = o {
                    for z in &barred {
                        if view.board.zones[z.as_str()].1.contains(space) {
                            seen.1.push(format!("{:?} offers {space:?} in {z}", d.kind));
                        }
                    }
                }
            }
        }
        self.inner.decide(d, view)
    }
}

/// `001 § Controlling a Deployment Zone`, Common Goals' "Deployment from
/// Bench": no deployment and no return from the Bench is offered in a
/// Deployment Zone shown on an available blue Objective card (rulings R63).
#[test]
fn common_goals_bars_the_zones_of_available_blue_cards() {
    let loaded = bundled();
    let rt = Runtime::new(Arc::new(loaded.content.clone()), loaded.script_set.clone(), Limits::default()).unwrap();
    let seen = std::rc::Rc::new(std::cell::RefCell::new((0, Vec::new())));
    for seed in 1..9 {
        let setup = GameSetup::random(&loaded.content, "common-goals", 4, seed).unwrap();
        let mut seats: Vec<ZoneBanCheck> = (0..4)
            .map(|i| ZoneBanCheck { inner: sim::Policy::Greedy.controller(seed, i), seen: seen.clone() })
            .collect();
        let controllers = seats.iter_mut().map(|c| c as &mut dyn Controller).collect();
        sim::play(&loaded.content, &rt, &setup, controllers).unwrap();
    }
    let (checked, violations) = seen.borrow().clone();
    assert!(violations.is_empty(), "{violations:?}");
    assert!(checked >= 8, "only {checked} deployments or returns happened while a zone was barred");
}

/// Common Goals plays to its end with its Victory Points from the Objective
/// cards (`001 § Objective Cards`): red, orange and blue cards are claimed over a
/// few seeds, and every Victory Point names the card that gave it.
#[test]
fn common_goals_scores_by_claiming_objective_cards() {
    let loaded = bundled();
    let rt = Runtime::new(Arc::new(loaded.content.clone()), loaded.script_set.clone(), Limits::default()).unwrap();
    let mut colours = std::collections::BTreeSet::new();
    let mut vp = 0;
    for seats in [3, 4] {
        for seed in 1..7 {
            let setup = GameSetup::random(&loaded.content, "common-goals", seats, seed).unwrap();
            let rec = sim::play_with(&loaded.content, &rt, &setup, &vec![sim::Policy::Greedy; seats]).unwrap();
            for e in &rec.events {
                match e {
                    Event::ObjectiveClaimed { card, .. } => {
                        colours.insert(loaded.content.objectives[card].value.family);
                    }
                    Event::VictoryPoints { objective, gained, .. } => {
                        assert!(loaded.content.objectives.contains_key(objective), "{objective} is no Objective card");
                        vp += *gained as u32;
                    }
                    _ => {}
                }
            }
            assert!(rec.events.iter().any(|e| matches!(e, Event::GameEnded { .. })), "{seats} seats, seed {seed}");
        }
    }
    assert!(vp > 0, "no Victory Point was scored");
    assert!(colours.len() >= 3, "only {colours:?} were claimed");
}

/// `001 § Objective Cards (Additional Rule)`: after the deal of
/// `situations/prime-time/objectives-hidden-pass.toml` each player holds the
/// card they kept and the one they chose of the two handed to them, one by
/// the player on their left and one by the player on their right.
#[test]
fn hidden_objectives_are_passed_left_and_right() {
    use arena_engine::rules::situation::{Situation, SituationController, SituationSeat};
    let loaded = bundled();
    let rt = Runtime::new(Arc::new(loaded.content.clone()), loaded.script_set.clone(), Limits::default()).unwrap();
    let path = arena_tests::tests_dir().join("situations/prime-time/objectives-hidden-pass.toml");
    let sit: Situation = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let shared = std::rc::Rc::new(std::cell::RefCell::new(SituationController::new(sit.answers.clone())));
    let mut seats: Vec<SituationSeat> = (0..3).map(|_| SituationSeat(shared.clone())).collect();
    let controllers = seats.iter_mut().map(|s| s as &mut dyn Controller).collect();
    let mut game = arena_engine::rules::game::Game::from_situation(&loaded.content, &rt, &sit, controllers).unwrap();
    game.deal_hidden_objectives();
    assert!(shared.borrow().unanswered.is_none(), "{:?}", shared.borrow().unanswered);
    let held = |p: usize| game.hidden_objectives_of(PlayerId::seat(p)).to_vec();
    // Dealt 1: zone 1, inflict-damage, zone 4; 2: zone 2, impose-states, zone 5;
    // 3: zone 3, the green card, zone 6. Player 1 hands inflict-damage left
    // (to 2) and zone 4 right (to 3); player 2 impose-states left (to 3) and
    // zone 5 right (to 1); player 3 the green card left (to 1) and zone 6
    // right (to 2).
    assert_eq!(held(0), ["control-zone-1", "last-one-in-victory-points"]);
    assert_eq!(held(1), ["control-zone-2", "inflict-damage"]);
    assert_eq!(held(2), ["control-zone-3", "impose-states"]);
    // The cards not kept (zones 4, 5, 6 and the one never dealt) are the deck.
    let mut deck = game.state.objectives.as_ref().unwrap().deck.clone();
    deck.sort();
    assert_eq!(deck, ["control-zone-4", "control-zone-5", "control-zone-6", "inflict-damage-lowest-initiative"]);
}

/// Hidden objectives stay hidden (`001 § Objective Cards (Additional
/// Rule)`; rulings R66): a player's Decisions list only their own cards and
/// its view names no card another player holds hidden (checked by the
/// umpire at every Decision of a table), no narrative line names a card
/// before it is claimed, the serialized state has no hidden cards; and the
/// games play to their end.
#[test]
fn hidden_objectives_reveal_no_other_players_cards() {
    use arena_engine::players::GreedyPlayer;
    use arena_engine::table::{Native, Player as _, Table as _};
    let loaded = bundled();
    let rt = Runtime::new(Arc::new(loaded.content.clone()), loaded.script_set.clone(), Limits::default()).unwrap();
    let setup_of = |seed| {
        let mut setup = GameSetup::random(&loaded.content, "deathmatch-ballroom-dancing", 3, seed).unwrap();
        setup.optional_rules.insert(arena_engine::rules::game::OptionalRule::HiddenObjectives);
        setup
    };
    let mut leaks = Vec::new();
    let mut checked = 0;
    for seed in 1..3 {
        let mut t = arena_engine::table::start_aristeia(&loaded.content, &rt, &setup_of(seed)).unwrap();
        while !t.is_over() {
            if let Native::Aristeia { decision: Some(d), state, view } = t.native() {
                let mine = state.hidden_objectives(d.player);
                // What the view shows but the public piles and the narrative
                // (a copy of a card may lie face up there).
                let mut json = view.to_json();
                for public in ["events", "objectives"] {
                    json.as_object_mut().unwrap().remove(public);
                }
                let seen = json.to_string();
                let hidden = view.objectives().map_or(&[][..], |o| o.hidden);
                if hidden != mine {
                    leaks.push(format!("seed {seed}: {}'s view holds {hidden:?}, not its own", d.player));
                }
                for q in state.players.table().seats().filter(|q| *q != d.player) {
                    for id in state.hidden_objectives(q).iter().filter(|id| !mine.contains(id)) {
                        checked += 1;
                        let offered = d.options.iter().any(|o| matches!(o, Choice::Pick { id: c } if c == id));
                        if offered && d.prompt.contains("discard") {
                            leaks.push(format!("seed {seed}: {} is offered {id} of {q}", d.player));
                        }
                        if seen.contains(&format!("\"{id}\"")) {
                            leaks.push(format!("seed {seed}: {}'s view names {id} of {q}", d.player));
                        }
                    }
                }
                if serde_json::to_string(state).unwrap().contains("\"hidden\"") {
                    leaks.push("the serialized state holds hidden cards".into());
                }
            }
            let answer = GreedyPlayer.choose(&t.seat_view().unwrap()).unwrap();
            t.apply(answer).unwrap();
        }
    }
    assert!(checked > 0, "no Decision met another player's hidden card");
    let mut claimed = 0;
    for seed in 1..6 {
        let rec = sim::play_with(&loaded.content, &rt, &setup_of(seed), &[sim::Policy::Greedy; 3]).unwrap();
        let ids: Vec<&arena_engine::model::Id> = loaded.content.objectives.keys().collect();
        for e in &rec.events {
            let named = matches!(e, Event::ObjectiveClaimed { .. } | Event::VictoryPoints { .. });
            claimed += usize::from(matches!(e, Event::ObjectiveClaimed { .. }));
            let line = e.to_string();
            if !named && ids.iter().any(|id| line.contains(id.as_str())) {
                leaks.push(format!("seed {seed}: {line}"));
            }
        }
        assert!(rec.events.iter().any(|e| matches!(e, Event::GameEnded { .. })), "seed {seed}");
    }
    assert!(leaks.is_empty(), "{leaks:?}");
    assert!(claimed > 0, "no hidden objective was claimed in 5 games");
}

/// `--optional-rule hidden-objectives` is a Prime Time rule: at a 2-seat
/// table it is a usage error; at 3 seats a game plays, its replay records
/// the rule and re-plays the same.
#[test]
fn hidden_objectives_is_a_prime_time_optional_rule_and_replays() {
    let two = arena_tests::arena(&["sim", "assault", "--optional-rule", "hidden-objectives"]);
    assert_eq!(two.code, 2, "{}", two.stderr);
    assert!(two.stderr.contains("is for 3-4 player (Prime Time) tables"), "{}", two.stderr);
    let unknown = arena_tests::arena(&["sim", "common-goals", "--optional-rule", "hidden-objective"]);
    assert_eq!(unknown.code, 2, "{}", unknown.stderr);
    assert!(unknown.stderr.contains("hidden-objectives"), "{}", unknown.stderr);
    let dir = std::env::temp_dir().join(format!("arena-objectives-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hidden.json");
    let f = file.to_str().unwrap();
    let run = arena_tests::arena(&[
        "sim",
        "deathmatch-run-n-shoot",
        "--seats",
        "3",
        "--optional-rule",
        "hidden-objectives",
        "--seed",
        "3",
        "--replay",
        f,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\"optional_rules\":[\"hidden-objectives\"]"), "the replay does not record the rule");
    let again = arena_tests::arena(&["replay", f]);
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `001 § Preparations`, 6. Tactics Deck Building: at a Prime Time table a
/// random team's deck holds every Tactic of its Characters with the
/// Standard Tactics; at two players, 000's two per Character.
#[test]
fn prime_time_random_decks_hold_all_four_tactics_of_each_character() {
    let loaded = bundled();
    let c = &loaded.content;
    let own = |deck: &[arena_engine::model::Id], character: &str| {
        deck.iter().filter(|t| c.tactics[t.as_str()].value.character.as_deref() == Some(character)).count()
    };
    let printed =
        |character: &str| c.tactics.values().filter(|t| t.value.character.as_deref() == Some(character)).count();
    for seed in 1..=10 {
        let three = GameSetup::random(c, "wanted", 3, seed).unwrap();
        for (team, deck) in three.teams.iter().zip(three.decks.iter()) {
            for ch in team {
                assert_eq!(own(deck, ch), printed(ch), "seed {seed}: {ch}'s Tactics at a Prime Time table");
            }
        }
        let two = GameSetup::random(c, "assault", 2, seed).unwrap();
        for (team, deck) in two.teams.iter().zip(two.decks.iter()) {
            for ch in team {
                assert_eq!(own(deck, ch), printed(ch).min(2), "seed {seed}: {ch} at two players");
            }
        }
    }
}

/// A Scenario's `deployment_zones` hold at every table size (docs/rulings.md
/// R46): at 3 and 4 players each player deploys in their own zone, player 1
/// in the first listed, player 2 in the second... (they used to be ignored
/// at a Prime Time table, and every player deployed where the greedy player
/// liked best). A list shorter than the table is refused, naming the rule.
#[test]
fn a_scenarios_deployment_zones_hold_at_four_players() {
    let root = arena_tests::tests_dir();
    let loaded = load::load(
        &[root.join("../content/aristeia-core"), root.join("fixtures/packs/four-zones")],
        &load::Options { run_script_tests: false, ..load::Options::default() },
    );
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let rt = Runtime::new(Arc::new(loaded.content.clone()), loaded.script_set.clone(), Limits::default()).unwrap();
    let map = &loaded.content.maps["hexadome-a"].value;
    let zone = |id: &str| map.zones.iter().find(|z| z.id == id).unwrap().spaces.clone();
    let listed = ["zone-1", "zone-3", "zone-4", "zone-6"];
    for seats in [3, 4] {
        for seed in 1..4 {
            let setup = GameSetup::random(&loaded.content, "four-corners", seats, seed).unwrap();
            let rec = sim::play_with(&loaded.content, &rt, &setup, &vec![sim::Policy::Greedy; seats]).unwrap();
            let mut deployed = 0;
            for e in &rec.events {
                if let Event::Deployed { character, space } = e {
                    let p = setup.teams.iter().position(|t| t.contains(character)).unwrap();
                    let own = zone(listed[p]);
                    assert!(
                        own.iter().any(|h| h[0] as i32 == space.q && h[1] as i32 == space.r),
                        "{seats} players, seed {seed}: {character} of player {} deployed at {space:?}, outside {}",
                        p + 1,
                        listed[p]
                    );
                    deployed += 1;
                }
            }
            assert_eq!(deployed, seats * 2, "{seats} players, seed {seed}");
        }
    }
    // Two zones for a 3-player table: refused, naming the rule.
    let mut content = loaded.content.clone();
    let sc = content.scenarios.get_mut("four-corners").unwrap();
    sc.value.deployment_zones.truncate(2);
    let setup = GameSetup::random(&content, "four-corners", 3, 1).unwrap();
    let err = sim::play_with(&content, &rt, &setup, &[sim::Policy::Greedy; 3]).unwrap_err();
    assert!(err.contains("lists 2 deployment_zones for 3 players") && err.contains("R46"), "{err}");
}
