//! What bounds a game and its effects, the same on every run: the Lua VM's
//! memory (collected at points fixed by what it allocated, never by the
//! clock), the log caps that every event a script causes counts against, and
//! the backstops that end every game of every mode (docs/effects.md § Limits,
//! docs/invictus.md § Transactions and the end of a game).

use arena_engine::content::Content;
use arena_engine::invictus::situation::{Situation, SituationPlayer};
use arena_engine::invictus::{Event as IEvent, Game, InvictusSetup, Outcome};
use arena_engine::load;
use arena_engine::replay_file::ReplayFile;
use arena_engine::rules::event::Event;
use arena_engine::rules::game::GameSetup;
use arena_engine::script::api::ApiValue;
use arena_engine::script::host::RecordingHost;
use arena_engine::script::runtime::{Ctx, Limits, Runtime, ScriptSource, compile_all};
use arena_engine::sim::invictus as isim;
use arena_engine::sim::{self, Policy};
use arena_engine::table::AristeiaSetup;
use arena_tests::{bundled, first_effect, scripts_with, with_script};
use std::path::PathBuf;
use std::sync::Arc;

fn source(card: &str, file: &str, text: &str) -> ScriptSource {
    ScriptSource {
        pack: "test".into(),
        card: card.into(),
        effect: String::new(),
        file: PathBuf::from(file),
        first_line: 1,
        source: text.into(),
        module: None,
    }
}

fn runtime_with(limits: Limits) -> Runtime {
    let (set, _) = compile_all(Vec::new());
    Runtime::new(Arc::new(Content::default()), set, limits).unwrap()
}

/// An ordinary effect still runs on `rt`, and the VM holds little.
fn assert_healthy(rt: &Runtime, after: &str) {
    let mut host = RecordingHost::new(1);
    let benign = "local game, ctx = ...\ngame:inflict_damage(\"valkyrie\", 1)\nreturn 42\n";
    let r = rt.run_source(&source("benign", "benign.lua", benign), &mut host, &Ctx::default());
    assert_eq!(r, Ok(ApiValue::Int(42)), "the VM is unhealthy after {after}");
    assert_eq!(host.calls.len(), 1, "{after}: {:?}", host.calls);
    assert!(rt.used_memory() < 4 * 1024 * 1024, "{after} left {} bytes in use", rt.used_memory());
}

fn load_paths(paths: &[&str]) -> load::Loaded {
    let root = arena_tests::tests_dir().join("..");
    let paths: Vec<_> = paths.iter().map(|p| root.join(p)).collect();
    let loaded = load::load(&paths, &load::Options { run_script_tests: false, ..load::Options::default() });
    let errors: Vec<String> = loaded.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect();
    assert!(errors.is_empty(), "errors loading {paths:?}: {errors:?}");
    loaded
}

fn invictus_runtime(loaded: &load::Loaded) -> Runtime {
    isim::runtime(Arc::new(loaded.content.clone()), loaded.script_set.clone()).unwrap()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ## Memory

/// A script that catches "not enough memory" with `pcall` and goes on: it
/// keeps 20 KB more each round, with small garbage tables between, until an
/// allocation is refused, then reports how far it got.
fn catches_out_of_memory() -> String {
    std::fs::read_to_string(arena_tests::tests_dir().join("hostile/memory-caught-and-reported.lua")).unwrap()
}

/// What one run of `text` gives: its result, the calls it made and those rolled back.
fn outcome(rt: &Runtime, text: &str) -> String {
    let mut host = RecordingHost::new(1);
    let r = rt.run_source(&source("memory:catch", "catch.lua", text), &mut host, &Ctx::default());
    format!("{r:?} {:?} {:?}", host.calls, host.rolled_back)
}

/// Limits with 8 MiB of memory, so that filling it is quick.
fn small_memory() -> Limits {
    Limits { memory_bytes: 8 * 1024 * 1024, ..Limits::default() }
}

fn small_runtime() -> Runtime {
    runtime_with(small_memory())
}

/// Luau's memory left is the same on every run: collection is driven by
/// allocation, never by the clock, so a script that catches running out of
/// memory sees the same thing in 20 fresh VMs and 20 times on one VM (8 MiB
/// VMs, so that filling one is quick).
#[test]
fn a_script_that_catches_running_out_of_memory_sees_the_same_every_run() {
    let catches = catches_out_of_memory();
    let first = outcome(&small_runtime(), &catches);
    for run in 1..20 {
        assert_eq!(outcome(&small_runtime(), &catches), first, "fresh VM, run {run}");
    }
    let reused = small_runtime();
    for run in 0..20 {
        assert_eq!(outcome(&reused, &catches), first, "reused VM, run {run}");
        assert_healthy(&reused, "catching running out of memory");
    }
    // Caught or not, running out of memory fails the call (as the budget does).
    assert!(first.starts_with("Err(ScriptError { kind: Memory"), "{first}");
}

/// Garbage is collected before an allocation is refused: 56 MiB built and
/// dropped, then 16 MiB built, fits in the 64 MiB limit.
#[test]
fn garbage_is_collected_before_an_allocation_is_refused() {
    let text = r#"local game = ...
local big = {}
for i = 1, 56 do big[i] = string.rep("d", 1024 * 1024 - 32) .. string.format("%31d", i) end
big = nil
local s = string.rep("n", 16 * 1024 * 1024)
return #s
"#;
    let rt = runtime_with(Limits::default());
    let mut host = RecordingHost::new(1);
    let r = rt.run_source(&source("memory:drop", "drop.lua", text), &mut host, &Ctx::default());
    assert_eq!(r, Ok(ApiValue::Int(16 * 1024 * 1024)));
    assert_healthy(&rt, "dropping 56 MiB and building 16 MiB");
}

/// The same in a game: an effect that catches running out of memory plays
/// the same way in every replay of its game, on fresh VMs and on one VM
/// that plays it again and again (`arena replay` of such a recording failed
/// in 6 of 7 runs). 8 MiB VMs, so that filling one is quick.
#[test]
fn a_game_whose_effect_catches_running_out_of_memory_replays_the_same_every_time() {
    let loaded = bundled();
    let (card, effect) = first_effect(&loaded);
    let (set, errors) = with_script(&loaded, &card, &effect, "hostile/catch.lua", &catches_out_of_memory());
    assert!(errors.is_empty(), "{errors:?}");
    let content = Arc::new(loaded.content.clone());
    let setup = GameSetup::from_content(&loaded.content, "first-game", 7).unwrap();
    let vm = || Runtime::new(content.clone(), set.clone(), small_memory()).unwrap();
    let record = sim::play_with(&loaded.content, &vm(), &setup, &[Policy::Random, Policy::Greedy]).unwrap();
    let named = AristeiaSetup {
        name: "first-game".into(),
        random_teams: false,
        seats: None,
        optional_rules: Default::default(),
    };
    let file = ReplayFile::record_aristeia(&loaded.content, &vm(), &named, 7, &record.answers, &loaded).unwrap();
    let replay = arena_tests::replays_the_same(&file, &record.events, &loaded.content, &vm());
    let same = Ok(record.events.len());
    let reused = vm();
    for run in 0..10 {
        assert_eq!(replay.verify(&loaded.content, &vm()).map(|t| t.event_count()), same, "fresh VM, replay {run}");
        assert_eq!(replay.verify(&loaded.content, &reused).map(|t| t.event_count()), same, "reused VM, replay {run}");
    }
    let failed = record
        .events
        .iter()
        .filter(|e| matches!(e, Event::EffectFailed { file, message, .. } if file == "hostile/catch.lua" && message.contains("not enough memory")))
        .count();
    assert!(failed > 0, "the effect did not run out of memory in the game");
}

// ## Log caps

/// The bundled game of seed 7 with the first effect that runs (or, with
/// `every`, every effect) replaced by `text`.
fn game_with(loaded: &load::Loaded, text: &str, every: bool) -> sim::Record {
    let (card, effect) = first_effect(loaded);
    let (set, errors) =
        scripts_with(loaded, "flood.lua", |s| (every || (s.card == card && s.effect == effect)).then_some(text));
    assert!(errors.is_empty(), "{errors:?}");
    let rt = Runtime::new(Arc::new(loaded.content.clone()), set, Limits::default()).unwrap();
    let setup = GameSetup::from_content(&loaded.content, "first-game", 7).unwrap();
    sim::play_with(&loaded.content, &rt, &setup, &[Policy::Random, Policy::Greedy]).unwrap()
}

/// Every event an effect's `game:` calls record counts against the log caps,
/// not only `print` and `game:log`: an effect that adds a Counter, imposes
/// and removes a State or moves the Scoring Zone thousands of times fails at
/// its 16 KiB per call, and leaves nothing (one game of a pack that checked
/// clean ran 72 s, 3.09 GB resident, 16.3 million narrative lines).
#[test]
fn every_event_a_call_records_counts_against_the_log_cap_of_its_call() {
    let loaded = bundled();
    for (what, flood) in [
        ("add_counter", "for i = 1, 5000 do game:add_counter(\"player 1\", \"flood\", 1) end"),
        (
            "impose_state",
            "local who = game:characters_of(1)[1]\nfor i = 1, 2500 do game:impose_state(who, \"focused\"); game:remove_state(who, \"focused\") end",
        ),
        (
            "set_scoring_zones",
            "local z = game:zones()\nfor i = 1, 5000 do game:set_scoring_zones({ z[1 + i % #z] }) end",
        ),
    ] {
        let text = format!("local game, ctx = ...\n{flood}\nreturn true\n");
        let record = game_with(&loaded, &text, false);
        let failures: Vec<&Event> = record
            .events
            .iter()
            .filter(|e| matches!(e, Event::EffectFailed { file, .. } if file == "flood.lua"))
            .collect();
        assert!(!failures.is_empty(), "{what}: the flood was not stopped");
        for f in &failures {
            let Event::EffectFailed { message, line, .. } = f else { unreachable!() };
            assert!(message.contains("log limit reached") && message.contains("16 KiB per call"), "{what}: {message}");
            assert!(line.is_some_and(|l| l >= 2), "{what}: names the line: {line:?}");
        }
        assert!(record.events.len() < 5_000, "{what}: the game kept {} events", record.events.len());
    }
}

/// What all effects of a game keep counts against the game's 256 KiB: every
/// effect adding 150 Counters (under its own cap) soon spends it, and the
/// effects after fail saying so.
#[test]
fn every_event_effects_record_counts_against_the_log_cap_of_the_game() {
    let loaded = bundled();
    let text =
        "local game, ctx = ...\nfor i = 1, 150 do game:add_counter(\"player 1\", \"flood\", 1) end\nreturn true\n";
    let record = game_with(&loaded, text, true);
    let kept: usize =
        record.events.iter().filter(|e| matches!(e, Event::Counter { .. })).map(|e| e.to_string().len() + 64).sum();
    assert!(kept > 0, "no effect kept its Counters");
    assert!(kept <= Limits::default().log_per_game, "the game kept {kept} bytes of the effects' narrative");
    assert!(
        record
            .events
            .iter()
            .any(|e| matches!(e, Event::EffectFailed { message, .. } if message.contains("256 KiB per game"))),
        "no effect was refused for the game's cap"
    );
}

// ## Invictus: the log caps and the end of every game

/// `fixtures/packs/invictus-big-hand`: a data-only patch (a starter deck of
/// 45, 10 cards in hand) that passes `check`. The greedy player, with many
/// Prisma, used to announce skill tokens that could not be paid, the
/// transaction failed, and it offered it again for ever: `arena sim invictus
/// --seats 2 --seed 1` never finished. Now every game of it ends.
#[test]
fn an_invictus_game_with_a_big_starter_deck_ends() {
    let loaded = load_paths(&["content/invictus", "tests/fixtures/packs/invictus-big-hand"]);
    assert_eq!(loaded.content.marketplaces["standard"].value.hand_size, 10);
    let rt = invictus_runtime(&loaded);
    for (players, seeds) in [(2, 1..=10), (4, 1..=3)] {
        let setup = InvictusSetup::teams(players);
        for seed in seeds {
            let r = isim::play(&loaded.content, &rt, &setup, seed, &[Policy::Greedy, Policy::Random]).unwrap();
            assert!(r.winner.is_some(), "{players} players, seed {seed}: no winner in {} turns", r.turns);
            assert_eq!(r.effect_failures, 0, "{players} players, seed {seed}: {:?}", r.last_failure);
            assert!(!r.narrative().contains("cannot be completed"), "{}", r.narrative());
        }
    }
}

/// Every Invictus game ends: past its Decisions backstop (here 2,000) or its
/// `max_turns` the game is stopped with a `stopped` event and no winner, and
/// reported as a failure, also when the game was resumed from a checkpoint.
/// `fixtures/packs/invictus-endless-turn` is data only and passes `check`;
/// its god's ability costs nothing, so the greedy player's turn never ends.
#[test]
fn an_invictus_game_that_would_not_end_is_stopped() {
    let loaded = load_paths(&["content/invictus", "tests/fixtures/packs/invictus-endless-turn"]);
    let rt = invictus_runtime(&loaded);
    let setup = InvictusSetup { gods: strings(&["idler", "ares"]), max_decisions: 2_000, ..InvictusSetup::teams(2) };
    let r = isim::play(&loaded.content, &rt, &setup, 1, &[Policy::Greedy]).unwrap();
    let stopped: Vec<&IEvent> = r.events.iter().filter(|e| matches!(e, IEvent::Stopped { .. })).collect();
    assert_eq!(
        stopped,
        [&IEvent::Stopped { message: "the game took more than 2000 Decisions: it is stopped".into() }],
        "{}",
        r.narrative().lines().rev().take(5).collect::<Vec<_>>().join("\n")
    );
    assert_eq!(r.winner, None);
    assert_eq!(r.answers.len(), 2_000);
    assert_eq!(r.effect_failures, 1);
    assert!(r.last_failure.as_deref().is_some_and(|f| f.contains("2000 Decisions")), "{:?}", r.last_failure);
    assert!(matches!(r.events.last(), Some(IEvent::GameEnded { winner: None, .. })));
    // A game resumed from a checkpoint (Ares's turn played: he goes first,
    // with less Health) keeps its backstop.
    let greedy = || (0..2).map(|s| isim::controller(Policy::Greedy, 1, s)).collect::<Vec<_>>();
    let mut game = Game::new(&loaded.content, Some(&rt), &setup, 1, greedy()).unwrap();
    assert_eq!(game.play_next_turn(), None, "Ares's turn ends");
    let (checkpoint, mut events) = game.checkpoint().expect("a quiet point between turns");
    let mut resumed = checkpoint.resume(greedy()).unwrap();
    assert_eq!(resumed.play(), Outcome::NoWinner);
    events.extend(resumed.events);
    assert_eq!(resumed.answers.len(), 2_000);
    assert_eq!(events, r.events, "the resumed game plays as the whole one");
    // The default backstop is the Decisions one, and a replay plays it again.
    assert_eq!(InvictusSetup::teams(2).max_decisions, arena_engine::invictus::MAX_DECISIONS_PER_GAME);
    let file = ReplayFile::record_invictus(&loaded.content, &rt, &setup, 1, &r.answers, &loaded).unwrap();
    arena_tests::replays_the_same(&file, &r.events, &loaded.content, &rt);
    // The turns backstop says so too.
    let invictus = load_paths(&["content/invictus"]);
    let rt = invictus_runtime(&invictus);
    let short = InvictusSetup { max_turns: 3, ..InvictusSetup::teams(2) };
    let r = isim::play(&invictus.content, &rt, &short, 1, &[Policy::Greedy]).unwrap();
    assert!(
        r.events.contains(&IEvent::Stopped { message: "the game took more than 3 turns: it is stopped".into() }),
        "{}",
        r.narrative()
    );
    assert_eq!((r.winner, r.turns, r.effect_failures), (None, 3, 1));
}

/// The events an Invictus effect's calls record count against the log caps
/// too: an ability that draws no card 5,000 times (`game:draw(god, 0)`, one
/// `draws 0` line each: `fixtures/packs/invictus-narrative-flood`) fails at
/// its 16 KiB per call and leaves nothing.
#[test]
fn every_event_an_invictus_effect_records_counts_against_the_log_cap() {
    let loaded = load_paths(&["content/invictus", "tests/fixtures/packs/invictus-narrative-flood"]);
    let rt = invictus_runtime(&loaded);
    let seat = |god: &str, team| SituationPlayer { god: god.into(), team, ..SituationPlayer::default() };
    let s = Situation {
        player: vec![seat("scribe", 0), seat("ares", 1)],
        answers: strings(&["scribble", "end the turn"]),
        ..Situation::default()
    };
    let (mut game, errors) = s.game(&loaded.content, Some(&rt)).unwrap();
    game.play_turn();
    let narrative: String = game.events.iter().map(|e| format!("{e}\n")).collect();
    assert!(errors.lock().unwrap().is_empty(), "{:?}\n{narrative}", errors.lock().unwrap());
    let failed: Vec<&IEvent> = game.events.iter().filter(|e| matches!(e, IEvent::EffectFailed { .. })).collect();
    assert_eq!(failed.len(), 1, "{narrative}");
    let IEvent::EffectFailed { message, .. } = failed[0] else { unreachable!() };
    assert!(message.contains("log limit reached") && message.contains("16 KiB per call"), "{message}");
    assert!(!game.events.iter().any(|e| matches!(e, IEvent::Drew { .. })), "the failed effect's draws were kept");
}
