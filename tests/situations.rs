//! The rulebooks' worked examples and single-rule cases as situation files
//! (`situations/*.toml`, named by their case id in `../shared/cases/` where one
//! exists): each plays on the bundled content with the exact dice and choices
//! of the example, must meet every `expect` line in order, and its narrative is
//! a snapshot.

use arena_tests::{arena, tests_dir};

#[test]
fn situations_play_as_the_rulebooks_say() {
    std::env::set_current_dir(tests_dir()).unwrap();
    insta::glob!("situations/*.toml", |path| insta::assert_snapshot!(plays_as_written(path)));
}

/// Scenario rules (issue 14, docs/scenarios.md): each window, declarative key
/// and Scenario function played by a situation on a test Scenario
/// (`fixtures/packs/scenario-rules`), ending Rounds, starting them, scoring,
/// moving the Scoring Zone and ending the game.
#[test]
fn scenario_rules_play_as_written() {
    std::env::set_current_dir(tests_dir()).unwrap();
    insta::glob!("situations/scenarios/*.toml", |path| insta::assert_snapshot!(plays_as_written(path)));
}

/// Run a situation file that must meet its `expect` lines; its narrative.
fn plays_as_written(path: &std::path::Path) -> String {
    let rel = path.strip_prefix(tests_dir()).unwrap_or(path).to_str().unwrap().to_string();
    let run = arena(&["run", &rel]);
    assert_eq!(run.code, 0, "{rel}:\n{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("expected events happened"), "{rel} has no `expect` lines: {}", run.stderr);
    run.stdout
}

/// For every Character of the bundled packs (and the duelist mod's), each of
/// its Actions, Switches and Tactics played in a small position with forced
/// dice (`situations/characters/<character>--<card>.toml`): each must meet
/// its `expect` lines, and its narrative is a snapshot.
#[test]
fn every_character_plays_its_cards() {
    std::env::set_current_dir(tests_dir()).unwrap();
    insta::glob!("situations/characters/*.toml", |path| insta::assert_snapshot!(plays_as_written(path)));
}

/// Issue 5 § 6: for every Character of the bundled packs (and the duelist
/// mod's), each Action, Switch, Automatic Skill and Tactic that has Lua is
/// played by a situation of `situations/characters/` whose name or text names
/// it (an effect without Lua cannot be played, and `arena check --strict`
/// lists it).
#[test]
fn every_card_of_every_character_has_a_situation() {
    use arena_engine::load;
    let root = tests_dir().join("..");
    let loaded = load::load(
        &[root.join("content"), root.join("mods/duelist")],
        &load::Options { run_script_tests: false, ..load::Options::default() },
    );
    assert!(!loaded.has_errors());
    let files: Vec<(String, String)> = std::fs::read_dir(tests_dir().join("situations/characters"))
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            (path.file_name().unwrap().to_str().unwrap().to_string(), std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    let scripted = |e: &arena_engine::model::Effect| e.lua.is_some() || e.script.is_some();
    let named = |character: &str, id: &str| {
        files.iter().any(|(name, text)| {
            (name.starts_with(&format!("{character}--")) && (name.contains(id) || text.contains(id)))
                || text.contains(&format!("activate {id}"))
                || text.contains(&format!("play {id}"))
                || text.contains(&format!("{id} on "))
        })
    };
    let mut missing = Vec::new();
    for c in loaded.content.characters.values().map(|e| &e.value) {
        let mut cards: Vec<&str> = Vec::new();
        for a in &c.actions {
            if a.attack || a.effects.iter().any(|e| e.lua.is_some() || e.script.is_some()) {
                cards.push(&a.id);
            }
            cards.extend(a.switches.iter().filter(|s| scripted(&s.effect)).map(|s| s.id.as_str()));
        }
        cards.extend(c.switches.iter().filter(|s| scripted(&s.effect)).map(|s| s.id.as_str()));
        cards.extend(c.automatic_skills.iter().filter(|s| scripted(&s.effect)).map(|s| s.id.as_str()));
        for t in loaded.content.tactics.values().map(|e| &e.value) {
            if t.character.as_deref() == Some(c.id.as_str()) && scripted(&t.effect) {
                cards.push(&t.id);
            }
        }
        missing.extend(cards.into_iter().filter(|id| !named(&c.id, id)).map(|id| format!("{}: {id}", c.id)));
    }
    assert!(missing.is_empty(), "no situation plays: {missing:#?}");
}

/// The Controller and Minion rules (`002 § Controller`, `§ Minion`) in the
/// example mod `mods/drone-handler`, whose situations name their packs.
#[test]
fn controllers_and_minions_play_as_the_sheet_says() {
    let dir = tests_dir().join("../mods/drone-handler/situations");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 5, "the drone-handler situations are missing");
    for file in files {
        let name = file.file_stem().unwrap().to_str().unwrap().to_string();
        insta::assert_snapshot!(format!("minions_{name}"), plays_as_written(&file));
    }
}

/// An Action's `condition` keeps invalid Targets out of the options (`000 §
/// Actions`, step 1): without ¡Es hora de armar el bonche!, ¡Tangana! is not
/// offered on a Gata who is Stunned but not Taunted.
#[test]
fn a_condition_keeps_an_invalid_target_out_of_the_options() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let text = std::fs::read_to_string(
        tests_dir().join("situations/characters/senor-massacre--es-hora-de-armar-el-bonche.toml"),
    )
    .unwrap();
    let without = text.replace("\"play es-hora-de-armar-el-bonche\", ", "");
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("no-tactic.toml");
    std::fs::write(&file, without).unwrap();
    let run = arena(&["run", file.to_str().unwrap(), "--pack", "../content"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("answer #1 \"tangana on gata (2 AP)\" is not an option"), "{}", run.stderr);
    assert!(run.stderr.contains("play es-hora-de-armar-el-bonche"), "{}", run.stderr);
}

/// A Tactic's `condition` keeps it out of the options when it has nothing
/// to do: Valkyrie's Cry with no Damaged Target within Range 1-5.
#[test]
fn a_tactic_with_nothing_to_do_is_not_offered() {
    let situation = r#"
scenario = "assault"
active = "valkyrie"
hands = [["valkyries-cry"], []]
answers = ["play valkyries-cry"]

[[character]]
id = "valkyrie"
player = 1
space = [0, 0]
action_points = 0

[[character]]
id = "gata"
player = 2
space = [2, 0]
"#;
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("cry.toml");
    std::fs::write(&file, situation).unwrap();
    let run = arena(&["run", file.to_str().unwrap(), "--pack", tests_dir().join("../content").to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("leftover") || run.stderr.contains("left over"), "{}", run.stderr);
    std::fs::write(&file, situation.replace("space = [2, 0]", "space = [2, 0]\ndamage = 1")).unwrap();
    let run = arena(&["run", file.to_str().unwrap(), "--pack", tests_dir().join("../content").to_str().unwrap()]);
    assert!(run.stdout.contains("player 1 plays valkyries-cry for valkyrie"), "{}{}", run.stdout, run.stderr);
}

/// A condition only looks: one that asks the players a question is an
/// effect failure, not a question (and not a crash).
#[test]
fn a_condition_that_asks_a_question_fails_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let pack = tmp.path().join("nosy");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(
        pack.join("pack.toml"),
        "id = \"nosy\"\nversion = \"0.1.0\"\ngame = \"aristeia\"\ntitle = \"x\"\n[dependencies]\naristeia-core = \"^1.0\"\n",
    )
    .unwrap();
    std::fs::write(
        pack.join("t.toml"),
        "[[tactic]]\nid = \"nosy\"\nname = \"Nosy\"\ntiming = \"actions-step\"\ntiming_text = \"x\"\n\
         effect.text = \"Gain 1 Action Point.\"\neffect.lua = 'local game, ctx = ...; game:gain_action_points(ctx.self, 1)'\n\
         condition.text = \"asks\"\ncondition.lua = 'local game, ctx = ...; return game:choose({\"a\", \"b\"}) == \"a\"'\n",
    )
    .unwrap();
    let situation = tmp.path().join("s.toml");
    std::fs::write(
        &situation,
        "scenario = \"assault\"\nactive = \"gata\"\nhands = [[\"nosy\"], []]\nanswers = [\"a\"]\n\
         [[character]]\nid = \"gata\"\nplayer = 1\nspace = [0, 0]\naction_points = 1\n",
    )
    .unwrap();
    let core = tests_dir().join("../content/aristeia-core");
    let run = arena(&[
        "run",
        situation.to_str().unwrap(),
        "--pack",
        core.to_str().unwrap(),
        "--pack",
        pack.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("a condition may not ask the players anything"), "{}", run.stderr);
    assert!(run.stderr.contains("left over"), "the question must not use up the answer: {}", run.stderr);
}

/// `absent` forbids any narrative line containing its text: a partial line
/// that happens fails the situation.
#[test]
fn an_absent_text_that_happens_fails() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let text = std::fs::read_to_string(tests_dir().join("situations/poisoned-stacks.toml")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("absent.toml");
    std::fs::write(&file, format!("absent = [\"valkyrie suffers\"]\n{text}")).unwrap();
    let run = arena(&["run", file.to_str().unwrap(), "--pack", "../content"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("\"valkyrie suffers\" happened, which `absent` forbids"), "{}", run.stderr);
}

/// A situation whose expectation is not met fails, naming the missing line.
#[test]
fn an_unmet_expectation_fails() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let text = std::fs::read_to_string(tests_dir().join("situations/poisoned-stacks.toml")).unwrap();
    let wrong = text.replace("\"valkyrie suffers 1 Damage (2)\"", "\"valkyrie suffers 1 Damage (3)\"");
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("wrong.toml");
    std::fs::write(&file, wrong).unwrap();
    let run = arena(&["run", file.to_str().unwrap()]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("expected \"valkyrie suffers 1 Damage (3)\""), "{}", run.stderr);
}

/// 000 Turn 4 without Marksmanship and Veteran Sniper (a patch removes them):
/// both Characters have Cover, so each adds a Black die (`000 § Cover`). The
/// same position as `situations/marksmanship-veteran-sniper.toml`, which shows
/// the skills at work; this shows the Cover they change is really there.
#[test]
fn without_the_skills_both_sides_add_a_black_die_for_cover() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let pack = patch_pack(
        tmp.path(),
        "op = \"remove\"\npath = \"automatic_skills[id=marksmanship]\"\n\
         [[patch.op]]\nop = \"remove\"\npath = \"automatic_skills[id=veteran-sniper]\"\n",
    );
    let situation = r#"
scenario = "assault"
active = "major-lunah"
dice = [
  ["success", "success", "special"], ["success", "success", "special"], ["block"],  # red, orange, Cover black
  ["block"], ["success", "block", "special"], ["block"],                            # green, blue, Cover black
]
answers = ["called-shot on miyamoto-mushashi (3 AP)", "major-lunah first", "activate nullify-block", "done"]
expect = [
  "major-lunah rolls red: success+success+special; orange: success+success+special; black: block; added: success",
  "miyamoto-mushashi rolls green: block; blue: success+block+special; black: block",
  "result: major-lunah 3 Successes, miyamoto-mushashi 0",
]
"#;
    let run = turn_4_patched(&pack, situation);
    assert!(!run.stdout.contains("for Cover instead"), "{}", run.stdout);
    assert!(run.stderr.contains("all 3 expected events happened"), "{}\n{}", run.stdout, run.stderr);
}

/// An Attack with No-Line-of-Sight Range ignores the Cover rules (`000 §
/// Range`): in the Turn 4 position, with Called Shot's Range patched to No
/// Line of Sight, neither side adds a Cover die and the `cover` skills do not run.
#[test]
fn a_no_line_of_sight_attack_ignores_cover() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let pack = patch_pack(
        tmp.path(),
        "op = \"replace\"\npath = \"actions[id=called-shot].range\"\n\
         value = { min = 3, max = 8, line_of_sight = false }\n",
    );
    let situation = r#"
scenario = "assault"
active = "major-lunah"
dice = [["success"], ["success"], ["block"], ["block"]]
answers = ["called-shot on miyamoto-mushashi (3 AP)", "done"]
expect = [
  "major-lunah rolls red: success; orange: success; added: success",
  "miyamoto-mushashi rolls green: block; blue: block",
]
"#;
    let run = turn_4_patched(&pack, situation);
    assert!(!run.stdout.contains("for Cover instead"), "{}", run.stdout);
    assert!(run.stderr.contains("all 2 expected events happened"), "{}\n{}", run.stdout, run.stderr);
}

/// Plays `head` (a situation's keys: `scenario`, `active`, `dice`, `answers`,
/// `expect`) in the 000 Turn 4 position of
/// `situations/marksmanship-veteran-sniper.toml` (both Characters in Cover), on
/// the core pack and the patch pack `pack`.
fn turn_4_patched(pack: &std::path::Path, head: &str) -> arena_tests::Run {
    let text = std::fs::read_to_string(tests_dir().join("situations/marksmanship-veteran-sniper.toml")).unwrap();
    let characters = &text[text.find("[[character]]").unwrap()..];
    let file = pack.parent().unwrap().join("turn-4.toml");
    std::fs::write(&file, format!("{head}\n{characters}")).unwrap();
    arena(&["run", file.to_str().unwrap(), "--pack", "../content/aristeia-core", "--pack", pack.to_str().unwrap()])
}

/// A pack that patches Major Lunah with the given `[[patch.op]]` body.
fn patch_pack(dir: &std::path::Path, ops: &str) -> std::path::PathBuf {
    let pack = dir.join("patched");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(
        pack.join("pack.toml"),
        "id = \"patched\"\nversion = \"0.1.0\"\ngame = \"aristeia\"\ntitle = \"t\"\nauthors = [\"t\"]\n\
         [dependencies]\naristeia-core = \"^1.0\"\n",
    )
    .unwrap();
    std::fs::write(
        pack.join("patch.toml"),
        format!("[[patch]]\ntarget = \"character:major-lunah\"\nreason = \"test\"\n[[patch.op]]\n{ops}"),
    )
    .unwrap();
    pack
}

/// `game:nullify_die` once the dice are rolled (`000 § Nullifying Dice`: the
/// die leaves the Roll, its symbols are ignored): in the Turn 4 position, Lunah's
/// Switch patched to Nullify Mushashi's second die (blue: Success, Block,
/// Special) leaves him nothing, so she suffers no Damage.
#[test]
fn an_effect_nullifies_a_rolled_die() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let pack = patch_pack(
        tmp.path(),
        "op = \"replace\"\npath = \"switches[id=nullify-block].effect.lua\"\n\
         value = '''\nlocal game, ctx = ...\nassert(game:nullify_die(\"opponent\", 2))\nassert(not game:nullify_die(\"opponent\", 2))\n'''\n",
    );
    let text = std::fs::read_to_string(tests_dir().join("situations/marksmanship-veteran-sniper.toml")).unwrap();
    let (head, _) = text.split_once("expect = [").unwrap();
    let situation = format!(
        "{head}expect = [\n  \"major-lunah activates nullify-block (special+special)\",\n  \
         \"result: major-lunah 5 Successes, miyamoto-mushashi 0\",\n]\n"
    );
    let run = turn_4_patched(&pack, &situation);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("major-lunah suffers"), "{}", run.stdout);
}

/// The bundled core pack and the `rule-gaps` test pack, and a runtime for them.
fn rule_gaps_content() -> (arena_engine::load::Loaded, arena_engine::script::runtime::Runtime) {
    use arena_engine::load;
    use arena_engine::script::runtime::{Limits, Runtime};
    let dir = tests_dir();
    let loaded = load::load(
        &[dir.join("../content/aristeia-core"), dir.join("fixtures/packs/rule-gaps")],
        &load::Options { run_script_tests: false, ..load::Options::default() },
    );
    assert!(!loaded.has_errors());
    let rt = Runtime::new(std::sync::Arc::new(loaded.content.clone()), loaded.script_set.clone(), Limits::default())
        .unwrap();
    (loaded, rt)
}

/// docs/rulings.md R25: an effect "until the end of the Round" outlasts the
/// Activation in which it was applied (unlike one "until the end of this
/// Activation") and ends in the Recovery Phase's Terminate Effects step
/// (`000 § Recovery Phase`).
#[test]
fn a_round_effect_outlasts_the_activation_and_ends_in_recovery() {
    use arena_engine::rules::game::Game;
    use arena_engine::rules::situation::{Situation, SituationController, SituationSeat};
    let (loaded, rt) = rule_gaps_content();
    let text = std::fs::read_to_string(tests_dir().join("situations/round-effect-hold-the-line.toml")).unwrap();
    let sit: Situation = toml::from_str(&text).unwrap();
    let shared = std::rc::Rc::new(std::cell::RefCell::new(SituationController::new(sit.answers.clone())));
    let (mut a, mut b) = (SituationSeat(shared.clone()), SituationSeat(shared.clone()));
    let mut g = Game::from_situation(&loaded.content, &rt, &sit, vec![&mut a, &mut b]).unwrap();
    g.run_activation(true).unwrap();
    let parvati = |g: &Game| g.state.units.iter().find(|u| u.id == "parvati").unwrap().clone();
    assert_eq!(
        parvati(&g).until_end_of_round.iter().map(ToString::to_string).collect::<Vec<_>>(),
        vec!["no-disengage-rolls".to_string()],
        "{:#?}",
        g.events
    );
    assert!(parvati(&g).until_end_of_activation.is_empty());
    g.run_end_of_round();
    assert!(parvati(&g).until_end_of_round.is_empty());
    let narrative: Vec<String> = g.events.iter().map(ToString::to_string).collect();
    let ended =
        narrative.iter().position(|l| l.trim() == "parvati's no-disengage-rolls ends (until the end of the Round)");
    assert!(ended.is_some(), "{narrative:#?}");
    assert!(shared.borrow().unanswered.is_none(), "{:?}", shared.borrow().unanswered);
}

/// Records the options of each Decision of one kind, answering the first
/// option (or "done").
struct OptionsOf(arena_engine::rules::decision::DecisionKind, std::rc::Rc<std::cell::RefCell<Vec<String>>>);

impl arena_engine::rules::decision::Controller for OptionsOf {
    fn decide(
        &mut self,
        d: &arena_engine::rules::decision::Decision,
        _view: &arena_engine::rules::state::View<'_>,
    ) -> usize {
        if d.kind == self.0 {
            self.1.borrow_mut().extend(d.options.iter().map(ToString::to_string));
        }
        d.options.iter().position(|o| *o == arena_engine::rules::decision::Choice::Done).unwrap_or(0)
    }
}

/// docs/rulings.md R26: the Central Zone is one of the Deployment Zones a
/// benched Character returns to (`000 § Bench`), unless it is the Scoring
/// Zone (Assault's first Round); the Scoring Zone never is.
#[test]
fn the_central_zone_is_offered_from_the_bench_unless_it_is_the_scoring_zone() {
    use arena_engine::rules::decision::DecisionKind;
    use arena_engine::rules::game::Game;
    use arena_engine::rules::situation::Situation;
    let (loaded, rt) = rule_gaps_content();
    let offered = |scoring_zone: &str| {
        let text = format!(
            "scenario = \"assault\"\nactive = \"hexx3r\"\n{scoring_zone}\n[[character]]\nid = \"hexx3r\"\nplayer = 1\n\n[[character]]\nid = \"wild-bill\"\nplayer = 2\nspace = [4, 0]\n"
        );
        let sit: Situation = toml::from_str(&text).unwrap();
        let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let (mut a, mut b) =
            (OptionsOf(DecisionKind::BenchReturn, seen.clone()), OptionsOf(DecisionKind::BenchReturn, seen.clone()));
        let mut g = Game::from_situation(&loaded.content, &rt, &sit, vec![&mut a, &mut b]).unwrap();
        g.run_activation(false).unwrap();

        seen.borrow().clone()
    };
    let central = ["[0, 0]", "[1, 0]", "[1, -1]", "[0, -1]", "[-1, 0]", "[-1, 1]", "[0, 1]"];
    let zone_2 = ["[7, -7]", "[8, -7]", "[8, -8]", "[7, -8]", "[6, -7]", "[6, -6]", "[7, -6]"];
    let has = |options: &[String], space: &str| options.contains(&format!("space {space}"));
    // Round 1 of Assault: the Central Zone is the Scoring Zone.
    let first = offered("");
    assert!(has(&first, "[0, -7]") && has(&first, "[7, -7]"), "the numbered zones are offered: {first:?}");
    assert!(central.iter().all(|s| !has(&first, s)), "the Scoring Zone is not offered: {first:?}");
    // The Scoring Zone has moved to zone 2: the Central Zone is offered, zone 2 is not.
    let later = offered("scoring_zone = \"zone-2\"");
    assert!(central.iter().all(|s| has(&later, s)), "the Central Zone is offered: {later:?}");
    assert!(zone_2.iter().all(|s| !has(&later, s)), "the Scoring Zone is not offered: {later:?}");
    assert_eq!(later.len(), first.len(), "one zone of seven spaces out, one in: {first:?} / {later:?}");
}

/// docs/rulings.md R24: a Discard at random is drawn by the game's seeded RNG
/// and asks nobody: the same seed Discards the same Tactics, and over a few
/// seeds every Tactic of the Hand is Discarded at some point.
#[test]
fn a_discard_at_random_follows_the_seed() {
    use arena_engine::rules::situation::Situation;
    let (loaded, rt) = rule_gaps_content();
    let text = std::fs::read_to_string(tests_dir().join("situations/discard-at-random.toml")).unwrap();
    let mut sit: Situation = toml::from_str(&text).unwrap();
    sit.expect.clear();
    let mut discarded = |seed: u64| {
        sit.seed = seed;
        let played = sit.play(&loaded.content, &rt).unwrap();
        assert!(played.problems.is_empty(), "seed {seed}: {:?}", played.problems);
        let lines = played.events.iter().map(|e| e.to_string().trim().to_string());
        lines.filter(|l| l.contains("at random")).collect::<Vec<_>>()
    };
    assert_eq!(discarded(14), discarded(14));
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..24 {
        let lines = discarded(seed);
        assert_eq!(lines.len(), 2, "seed {seed}: {lines:?}");
        assert_ne!(lines[0], lines[1], "seed {seed}: the same Tactic twice: {lines:?}");
        seen.extend(lines);
    }
    let every: Vec<String> =
        ["dodge", "take-aim", "focus"].iter().map(|t| format!("player 2 Discards {t} at random")).collect();
    assert!(every.iter().all(|l| seen.contains(l)), "{seen:?}");
}

/// A situation that cannot be set up says where: `FILE:LINE:COLUMN` at the
/// key concerned, for the mistakes a designer makes most (a misspelt
/// Character, a space off the board, a counter on something that cannot hold
/// one, a zone the map lacks), with "did you mean" where a name is close.
#[test]
fn setup_errors_name_the_line_and_column() {
    let dir = tests_dir().join("fixtures/situations");
    let cases = [
        ("setup-unknown-character.toml", "12:1", "no Character `maximos` (did you mean `maximus`?)"),
        ("setup-bad-space.toml", "14:1", "maximus: [12, 0] "),
        (
            "setup-bad-counter-holder.toml",
            "5:15",
            "counter `raids` on `maximus`: that is not a Character of the situation, a zone of the map, nor a player (`player 1` to `player 2`)",
        ),
        ("setup-bad-zone.toml", "5:28", "map `hexadome-a` has no zone `zone-9` (its zones: zone-1, zone-2"),
    ];
    check_setup_errors(&dir, &cases);
}

/// Values a situation gives that no game reaches are refused at their line
/// and column, before any arithmetic on them: Victory Points near `u32::MAX`
/// (the leader's +2 wrapped round and made him lose), a counter above what
/// `game:add_counter` holds, a space whose distance from the centre wrapped
/// to 0 (so it passed for the centre), and a Smoke token off the board.
#[test]
fn situation_values_out_of_range_are_refused_at_their_line() {
    let dir = tests_dir().join("fixtures/situations");
    let cases = [
        (
            "setup-victory-points-out-of-range.toml",
            "7:19",
            "`victory_points`: 4294967295 for player 1 is more than 100000",
        ),
        (
            "setup-counter-out-of-range.toml",
            "5:50",
            "counter `raids` on `maximus`: 9223372036854775807 is more than 1000000",
        ),
        ("setup-space-far-off-the-board.toml", "15:1", "maximus: [-2147483648, -2147483648] "),
        ("setup-smoke-off-the-board.toml", "17:1", "Smoke token: [40, 0] is not a space of the HexaDome"),
    ];
    check_setup_errors(&dir, &cases);
}

/// `arena run` of each file fails with exit 1 and `FILE:AT: ` and the message.
fn check_setup_errors(dir: &std::path::Path, cases: &[(&str, &str, &str)]) {
    for &(file, at, message) in cases {
        let path = dir.join(file);
        let path = path.to_str().unwrap();
        let run = arena(&["run", path]);
        assert_eq!(run.code, 1, "{file}: {}{}", run.stdout, run.stderr);
        let want = format!("error: {path}:{at}: ");
        assert!(run.stderr.contains(&want), "{file}: no `{want}` in:\n{}", run.stderr);
        assert!(run.stderr.contains(message), "{file}: no `{message}` in:\n{}", run.stderr);
    }
}

/// 001 § Short Distance: "Characters may return from the Bench using any
/// Deployment Zone except the Central Zone" (`bench_return_to =
/// "any-deployment-zone-except-central"`; rulings R44). The Central Zone is not
/// a Scoring Zone here, yet none of its spaces is offered; a numbered zone's are.
#[test]
fn short_distance_returns_from_the_bench_outside_the_central_zone() {
    use arena_engine::rules::decision::DecisionKind;
    use arena_engine::rules::game::Game;
    use arena_engine::rules::situation::Situation;
    let root = tests_dir().join("..");
    let loaded = arena_engine::load::load(
        &[
            root.join("content/aristeia-core"),
            root.join("content/aristeia-prime-time"),
            tests_dir().join("fixtures/packs/prime-time-two-player"),
        ],
        &arena_engine::load::Options { run_script_tests: false, ..arena_engine::load::Options::default() },
    );
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let rt = arena_engine::script::runtime::Runtime::new(
        std::sync::Arc::new(loaded.content.clone()),
        loaded.script_set.clone(),
        arena_engine::script::runtime::Limits::default(),
    )
    .unwrap();
    let offered = |scenario: &str| {
        let text = format!(
            "scenario = \"{scenario}\"\nactive = \"hexx3r\"\nscoring_zones = [\"ziggurat-1\"]\n[[character]]\nid = \"hexx3r\"\nplayer = 1\n\n[[character]]\nid = \"wild-bill\"\nplayer = 2\nspace = [4, 0]\n"
        );
        let sit: Situation = toml::from_str(&text).unwrap();
        let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let (mut a, mut b) =
            (OptionsOf(DecisionKind::BenchReturn, seen.clone()), OptionsOf(DecisionKind::BenchReturn, seen.clone()));
        let mut g = Game::from_situation(&loaded.content, &rt, &sit, vec![&mut a, &mut b]).unwrap();
        g.run_activation(false).unwrap();

        seen.borrow().clone()
    };
    let central = ["[0, 0]", "[1, 0]", "[1, -1]", "[0, -1]", "[-1, 0]", "[-1, 1]", "[0, 1]"];
    let has = |options: &[String], space: &str| options.contains(&format!("space {space}"));
    let options = offered("short-distance");
    assert!(!options.is_empty(), "hEXx3r was offered no space");
    assert!(central.iter().all(|s| !has(&options, s)), "a Central Zone space is offered: {options:?}");
    assert!(has(&options, "[0, -7]"), "zone 1 is offered: {options:?}");
}

/// The Prime Time rules at a table of three or four (`001`, issue 15):
/// `situations/prime-time/*.toml`.
#[test]
fn prime_time_rules_play_as_written() {
    insta::glob!("situations/prime-time/*.toml", |path| insta::assert_snapshot!(plays_as_written(path)));
}

/// Invictus situations (`003`): several turns (`turns`), `expect` and
/// `absent` checked as Aristeia's are, `situations-invictus/*.toml`.
#[test]
fn invictus_situations_play_as_written() {
    std::env::set_current_dir(tests_dir()).unwrap();
    insta::glob!("situations-invictus/*.toml", |path| insta::assert_snapshot!(plays_as_written(path)));
}

/// An `expect` line an Invictus situation does not meet fails it (exit 1,
/// naming the line), as an `absent` line it meets does.
#[test]
fn an_invictus_situation_fails_on_an_unmet_expect_or_a_met_absent() {
    let dir = std::env::temp_dir().join(format!("arena-inv-sit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(tests_dir().join("situations-invictus/turns-pass-clockwise.toml")).unwrap();
    let content = tests_dir().join("../content/invictus");
    let content = content.to_str().unwrap();
    let unmet = dir.join("unmet.toml");
    std::fs::write(&unmet, text.replace("turn 2: apollo", "turn 2: hades")).unwrap();
    let run = arena(&["run", unmet.to_str().unwrap(), "--pack", content]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("expected \"turn 2: hades\""), "{}", run.stderr);
    let met = dir.join("met.toml");
    std::fs::write(&met, text.replace("absent = [\"turn 3\"]", "absent = [\"apollo takes\"]")).unwrap();
    let run = arena(&["run", met.to_str().unwrap(), "--pack", content]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("\"apollo takes\" happened, which `absent` forbids"), "{}", run.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

/// `arena run --state` prints the whole state after, for both games: every
/// unit with its space and Damage, every hand and pile as cards; as
/// `"state"` beside `"events"` with `--format json`.
#[test]
fn arena_run_state_prints_the_state_after_in_both_games() {
    let run = arena(&["run", "situations/burning-rolls-a-die-per-token.toml", "--pack", "../content", "--state"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let state = run.stdout.split("\nstate:\n").nth(1).expect("a state section");
    assert!(state.contains("gata of player 2: [0, 0], 2 Damage"), "{state}");
    assert!(state.contains("States: burning (red"), "{state}");
    assert!(state.contains("player 1: 0 VP, 0 Frags; hand: -"), "{state}");
    let run = arena(&["run", "situations-invictus/turns-pass-clockwise.toml", "--state"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let state = run.stdout.split("\nstate:\n").nth(1).expect("a state section");
    assert!(state.contains("player 2 apollo (team 2): 120/140 HP"), "{state}");
    assert!(state.contains("player 1 athena (team 1): 150/150 HP"), "{state}");
    let json = arena(&["run", "situations-invictus/turns-pass-clockwise.toml", "--state", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["state"]["players"][1]["health"], 120);
    assert!(v["events"].as_array().is_some_and(|e| !e.is_empty()));
}

/// The Invictus keys of a position that no turn can show in its narrative,
/// read back by `arena run --state`: the Boost discard pile (`boost_discard`)
/// is the new Boost deck after the Apocalypse (`003 § The Apocalypse`: "The
/// Boost deck is then reshuffled and placed back on top"), inactive tokens
/// (`inactive`, `003 § Tokens: Active vs Inactive`) and who revived a player
/// already (`revived_by`, `003 § Revival`).
#[test]
fn invictus_positions_set_the_boost_discard_inactive_tokens_and_revivals() {
    let state_of = |file: &str| {
        let run = arena(&["run", file, "--state"]);
        assert_eq!(run.code, 0, "{file}: {}", run.stderr);
        run.stdout.split("\nstate:\n").nth(1).expect("a state section").to_string()
    };
    let state = state_of("situations-invictus/the-boost-discard-pile-is-the-new-deck-after-the-apocalypse.toml");
    assert!(state.contains("Apocalypses 1"), "{state}");
    assert!(state.contains("Boost deck 3; Boost discard -;"), "{state}");
    let state = state_of("situations-invictus/an-inactive-accuracy-token-does-not-hit.toml");
    assert!(state.contains("Accuracy 1/2 (omega, delta inactive)"), "{state}");
    let state = state_of("situations-invictus/an-ally-revives-the-same-player-only-once.toml");
    assert!(state.contains("player 2 apollo (team 2), revived by player 4, player 6: 30/140 HP"), "{state}");
    // A token count above those owned, and a reviver who is no ally, are setup errors.
    let dir = std::env::temp_dir().join(format!("arena-inv-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base =
        std::fs::read_to_string(tests_dir().join("situations-invictus/an-inactive-accuracy-token-does-not-hit.toml"))
            .unwrap()
            .replace("../../content/invictus", tests_dir().join("../content/invictus").to_str().unwrap());
    for (what, text, says) in [
        (
            "too-many",
            base.replace("inactive = { accuracy = 1 }", "inactive = { accuracy = 3 }"),
            "3 accuracy token(s), and it owns 2",
        ),
        ("no-skill", base.replace("inactive = { accuracy = 1 }", "inactive = { luck = 1 }"), "`luck` is not a skill"),
        ("enemy", base.replace("inactive = { accuracy = 1 }", "revived_by = [\"apollo\"]"), "`apollo` is not an ally"),
        ("past-the-end", base.replace("game = ", "turns_played = 4294967295\ngame = "), "past the 2000 turns"),
    ] {
        let file = dir.join(format!("{what}.toml"));
        std::fs::write(&file, text).unwrap();
        let run = arena(&["run", file.to_str().unwrap()]);
        assert_eq!(run.code, 1, "{what}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(says), "{what}: {}", run.stderr);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `imposed_by` must add up and name the situation's Characters: tokens
/// listed for a State it does not have, more or fewer tokens than it holds,
/// or an imposer not in the situation are errors at the key.
#[test]
fn imposed_by_is_checked_against_the_tokens_and_the_characters() {
    let text =
        std::fs::read_to_string(tests_dir().join("situations/prime-time/burning-frag-to-who-imposed-more-tokens.toml"))
            .unwrap();
    let dir = std::env::temp_dir().join(format!("arena-imposed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let content = tests_dir().join("../content");
    for (name, from, to, says) in [
        ("count", "tokens = 2 }]", "tokens = 3 }]", "lists 4 token(s) for 3 token(s)"),
        (
            "who",
            "by = \"wild-bill\"",
            "by = \"wild-bil\"",
            "`wild-bil` is not in the situation (did you mean `wild-bill`?)",
        ),
        (
            "state",
            "imposed_by = { burning",
            "imposed_by = { poisoned",
            "names `poisoned`, which is not among its `states`",
        ),
    ] {
        let file = dir.join(format!("{name}.toml"));
        std::fs::write(&file, text.replace(from, to)).unwrap();
        let run = arena(&["run", file.to_str().unwrap(), "--pack", content.to_str().unwrap()]);
        assert_eq!(run.code, 1, "{name}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{name}: {}", run.stderr);
        assert!(run.stderr.contains(":29:"), "{name}: the error is at the line of `imposed_by`: {}", run.stderr);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Case `state-reimposed` (`000 § States`): a State imposed on a Character
/// that has its token already replaces it: one token, red side up.
#[test]
fn state_reimposed_leaves_one_token_red_side_up() {
    let run = arena(&["run", "situations/state-reimposed.toml", "--pack", "../content", "--state"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let state = run.stdout.split("\nstate:\n").nth(1).expect("a state section");
    let parvati = state.lines().find(|l| l.trim_start().starts_with("parvati ")).expect("parvati's line");
    assert!(parvati.ends_with("States: dazzled (red, by gata)"), "one red Dazzled token: {parvati}");
}

/// A situation's missing or wrong answer names the player asked, in both
/// games (`arena run`'s error).
#[test]
fn an_unanswered_decision_names_the_player_asked_in_both_games() {
    let dir = std::env::temp_dir().join(format!("arena-asked-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(tests_dir().join("situations-invictus/turns-pass-clockwise.toml")).unwrap();
    let file = dir.join("inv.toml");
    // Athena holds a second Xiphos: after her first attack she is asked again.
    std::fs::write(&file, text.replace("hand = [\"xiphos\"]", "hand = [\"xiphos\", \"xiphos\"]")).unwrap();
    let content = tests_dir().join("../content/invictus");
    let run = arena(&["run", file.to_str().unwrap(), "--pack", content.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("no answer left for \"what do you do?\" (player 1)"), "{}", run.stderr);
    let run = arena(&["run", "situations/deployment-in-own-deployment-zone.toml", "--pack", "../content"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(tests_dir().join("situations/deployment-in-own-deployment-zone.toml")).unwrap();
    let file = dir.join("ari.toml");
    std::fs::write(&file, text.replace("answers = [\"space [0, -7]\"]", "answers = []")).unwrap();
    let run = arena(&["run", file.to_str().unwrap(), "--pack", "../content"]);
    assert!(run.stderr.contains("no answer left for \"Deploy where?\" (player 1)"), "{}", run.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

/// An Invictus player's numbers are within what the game allows, or refused
/// at their key: HP from 0 to the god's maximum (0 with `defeated = true`
/// only, `003 § Revival and Defeat`), Stamina from 0 to 24 (`003 §
/// Elixir`), a team one of the seats'. (A health of -10 was played as a
/// defeat and the situation passed; 1,000 HP of 150 printed `1000/150 HP`.)
#[test]
fn invictus_player_numbers_out_of_range_are_refused_at_their_key() {
    let dir = tempfile::tempdir().unwrap();
    let packs = tests_dir().join("../content/invictus");
    let position = |athena: &str| {
        format!(
            "game = \"invictus\"\npacks = [{packs:?}]\nturns = 1\n\n[[player]]\ngod = \"athena\"\n{athena}\n\n[[player]]\ngod = \"apollo\"\nteam = 1\n"
        )
    };
    let cases = [
        ("negative-health.toml", "team = 0\nhealth = -10", "8:1", "athena: -10 HP: a god has from 0 to its 150 HP"),
        (
            "health-over-the-maximum.toml",
            "team = 0\nhealth = 1000",
            "8:1",
            "athena: 1000 HP: a god has from 0 to its 150 HP",
        ),
        (
            "zero-health-not-defeated.toml",
            "team = 0\nhealth = 0",
            "8:1",
            "a god at 0 HP is defeated: add `defeated = true`",
        ),
        ("defeated-at-full-health.toml", "team = 0\ndefeated = true", "8:1", "defeated at full HP: give `health = 0`"),
        (
            "negative-stamina.toml",
            "team = 0\nstamina = -3",
            "8:1",
            "athena: -3 Stamina: a god has from 0 to 24 Stamina",
        ),
        (
            "stamina-past-the-elixir.toml",
            "team = 0\nstamina = 9999999",
            "8:1",
            "9999999 Stamina: a god has from 0 to 24",
        ),
        ("team-past-the-seats.toml", "team = 7", "7:1", "athena: team 7 of 2 players: teams are numbered from 0"),
        // 10^12 tokens asked for terabytes and aborted the process.
        (
            "stamina-tokens-past-the-track.toml",
            "team = 0\nstamina_tokens = 999999999999",
            "8:1",
            "athena: 999999999999 stamina_tokens: a skill track holds at most 4 tokens",
        ),
        (
            "range-tokens-past-the-track.toml",
            "team = 0\nrange_tokens = 5",
            "8:1",
            "5 range_tokens: a skill track holds at most 4",
        ),
    ];
    for (file, athena, ..) in &cases {
        std::fs::write(dir.path().join(file), position(athena)).unwrap();
    }
    let cases: Vec<(&str, &str, &str)> = cases.iter().map(|(f, _, at, m)| (*f, *at, *m)).collect();
    check_setup_errors(dir.path(), &cases);
    // A defeated god at 0 HP is a position a situation may give.
    std::fs::write(dir.path().join("defeated.toml"), position("team = 0\nhealth = 0\ndefeated = true")).unwrap();
    let run = arena(&["run", dir.path().join("defeated.toml").to_str().unwrap(), "--state"]);
    assert!(!run.stderr.contains("HP:"), "{}", run.stderr);
}

/// A situation file that does not read as its game's TOML is said at
/// FILE:LINE:COLUMN in a situation's words, in both games: the nearest key
/// or value to a misspelt one, numbers by their range (not Rust's `u8`),
/// `imposed_by`'s two forms, a number past 64 bits at its place (it was read
/// as an Aristeia! file and said "unknown field `boost_deck`").
#[test]
fn a_situation_that_does_not_read_is_said_at_its_line_in_its_own_words() {
    let dir = tempfile::tempdir().unwrap();
    let invictus =
        "game = \"invictus\"\nturns = 1\nboost_deck = [\"godlike:omega\"]\n\n[[player]]\ngod = \"athena\"\nteam = 0\n";
    let aristeia =
        "scenario = \"assault\"\nactive = \"parvati\"\n\n[[character]]\nid = \"parvati\"\nplayer = 1\nspace = [0, 0]\n";
    let cases = [
        (
            "misspelt-key.toml",
            format!("{invictus}helth = 120\n"),
            "8:1",
            "unknown key `helth` (did you mean `health`?)",
        ),
        (
            "number-past-64-bits.toml",
            format!("{invictus}health = 18446744073709551616\n"),
            "8:10",
            "`18446744073709551616` is too large",
        ),
        (
            "float-health.toml",
            format!("{invictus}health = 120.0\n"),
            "8:10",
            "expected a whole number from -2147483648 to 2147483647",
        ),
        ("negative-team.toml", invictus.replace("team = 0", "team = -1"), "7:8", "expected a whole number from 0"),
        (
            "aristeia-phase.toml",
            format!("phase = \"planning\"\n{invictus}"),
            "1:9",
            "unknown value `planning`; the values allowed here: turn, turn-start, setup",
        ),
        (
            "phase-spelt-with-underscore.toml",
            format!("phase = \"team_creation\"\n{aristeia}"),
            "1:9",
            "unknown value `team_creation` (did you mean `team-creation`?)",
        ),
        ("float-damage.toml", format!("{aristeia}damage = 2.0\n"), "8:10", "expected a whole number from 0 to 255"),
        (
            "imposed-by-a-number.toml",
            format!("{aristeia}states = [\"burning\"]\nimposed_by = {{ burning = 3 }}\n"),
            "9:26",
            "each State of `imposed_by` takes one Character (`imposed_by = { burning = \"gata\" }`) or a list",
        ),
        ("missing-scenario.toml", String::new(), "1:1", "missing key `scenario`"),
        (
            "unknown-game.toml",
            "game = \"invictas\"\n".into(),
            "1:1",
            "`game = \"invictas\"` is no game arena plays: aristeia, invictus (did you mean `invictus`?)",
        ),
    ];
    for (file, text, ..) in &cases {
        std::fs::write(dir.path().join(file), text).unwrap();
    }
    let cases: Vec<(&str, &str, &str)> = cases.iter().map(|(f, _, at, m)| (*f, *at, *m)).collect();
    check_setup_errors(dir.path(), &cases);
}

/// After a Decision the situation does not answer (no answer left, or one
/// that is not an option), the game goes on from a stand-in answer; the
/// narrative stops where that came, and `expect` is matched only up to it
/// (an Invictus turn printed "athena completes the turn" after a wrong answer).
#[test]
fn an_unanswered_decision_ends_the_narrative_where_it_was_asked() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(tests_dir().join("situations-invictus/turns-pass-clockwise.toml"))
        .unwrap()
        .replace("attack apollo with xiphos\"]", "attack apolo with xiphos\"]")
        .replace("../../content/invictus", tests_dir().join("../content/invictus").to_str().unwrap())
        .replace("absent = [\"turn 3\"]", "absent = [\"completes the turn\"]");
    let file = dir.path().join("wrong-answer.toml");
    std::fs::write(&file, text).unwrap();
    let run = arena(&["run", file.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stdout.trim_end(), "turn 1: athena", "{}", run.stdout);
    assert!(run.stderr.contains("`attack apolo with xiphos` is not an option"), "{}", run.stderr);
    assert!(!run.stderr.contains("`absent` forbids"), "{}", run.stderr);
}
