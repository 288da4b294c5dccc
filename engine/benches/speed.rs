//! The in-process figures of issue 17's target table (tools/bench.sh prints
//! them with the whole-process ones; docs/performance.md § Game speed):
//!
//! - `effect_call`: one effect call as a game makes it: host → Lua → one API
//!   call back into the game (`game:damage(ctx.self)`) → host, with the game's
//!   undo snapshot taken before and dropped after (`Host::begin_effect`,
//!   `end_effect`);
//! - `effect_call_changing`: the same with a change (`game:heal`) first, so
//!   the state is copied for the undo;
//! - `check_bundled`: `load::load` of the bundled packs as `arena check` runs
//!   it (scripts compiled, the packs' script tests run), and
//!   `check_bundled_without_script_tests`;
//! - `parse_and_compile_bundled`: the floor it is compared with: reading and
//!   parsing every TOML file that load read (`toml::Table`) and compiling each
//!   script once (`compile_all`);
//! - memory: the peak of bytes allocated while one Assault game is played,
//!   printed as `arena-bench game-memory ...` lines (a counting allocator);
//! - `whole_game_by_players`: 8 greedy games at 2, 3 and 4 players, with
//!   their Rounds printed as `arena-bench game-rounds ...` lines (issue 15).
//!
//! Run with `cargo bench -p arena-engine --bench speed`.

use arena_engine::load::{self, Loaded};
use arena_engine::players::GreedyPlayer;
use arena_engine::rules::decision::Controller;
use arena_engine::rules::game::{Game, GameSetup};
use arena_engine::script::runtime::{Ctx, Limits, Runtime, ScriptSource, compile_all};
use arena_engine::sim::{self, Policy};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

struct Counting;
static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn root() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn loaded() -> &'static Loaded {
    static L: OnceLock<Loaded> = OnceLock::new();
    L.get_or_init(|| {
        let l = load::load(&[root().join("content")], &load::Options::default());
        assert!(!l.has_errors(), "bundled content has errors");
        l
    })
}

fn main() {
    let l = loaded();
    let rt = Runtime::new(Arc::new(l.content.clone()), l.script_set.clone(), Limits::default()).unwrap();
    for (name, players) in [("random", [Policy::Random, Policy::Random]), ("greedy", [Policy::Greedy, Policy::Greedy])]
    {
        let mut peaks = Vec::new();
        for seed in 1..=20 {
            let setup = GameSetup::from_content(&l.content, "first-game", seed).unwrap();
            let base = CURRENT.load(Ordering::Relaxed);
            PEAK.store(base, Ordering::Relaxed);
            let rec = sim::play_with(&l.content, &rt, &setup, &players).unwrap();
            let peak = PEAK.load(Ordering::Relaxed) - base;
            drop(rec);
            peaks.push(peak);
        }
        peaks.sort();
        eprintln!(
            "arena-bench game-memory players={name} games=20 median_peak_bytes={} max_peak_bytes={} vm_bytes={}",
            peaks[peaks.len() / 2],
            peaks[peaks.len() - 1],
            rt.used_memory()
        );
    }
    eprintln!("arena-bench check-input files={} scripts={}", l.docs.len(), l.script_set.sources().len());
    // Before divan's table, whose rows it would split.
    for seats in [2, 3, 4] {
        let rounds: u32 = round_setups(seats)
            .iter()
            .map(|s| {
                let rec = sim::play_with(&l.content, &rt, s, &vec![Policy::Greedy; seats]).unwrap();
                let ended = rec.events.iter().rev().find_map(|e| match e {
                    arena_engine::rules::event::Event::GameEnded { rounds, .. } => Some(u32::from(*rounds)),
                    _ => None,
                });
                ended.expect("every game ends")
            })
            .sum();
        eprintln!("arena-bench game-rounds seats={seats} games={ROUND_GAMES} rounds={rounds}");
    }
    divan::main();
}

/// One effect of `source` called in a first-game Assault with the greedy
/// player's first Character as `ctx.self`: what [`effect_call`] and
/// [`effect_call_changing`] time.
fn effect_bench(b: divan::Bencher, source: &str, first_answer: &str) {
    let l = loaded();
    let (set, errors) = compile_all(vec![ScriptSource {
        pack: "bench".into(),
        card: "bench".into(),
        effect: String::new(),
        file: PathBuf::from("bench.lua"),
        first_line: 1,
        source: source.into(),
        module: None,
    }]);
    assert!(errors.is_empty(), "{errors:?}");
    let script = set.find("bench", "").unwrap();
    let content = Arc::new(l.content.clone());
    let rt = Runtime::new(content, set, Limits::default()).unwrap();
    let setup = GameSetup::from_content(&l.content, "first-game", 1).unwrap();
    let me = setup.teams.iter().next().and_then(|t| t.first()).cloned().unwrap();
    let (mut a, mut c) = (GreedyPlayer, GreedyPlayer);
    let controllers: Vec<&mut dyn Controller> = vec![&mut a, &mut c];
    let mut game = Game::new(&l.content, &rt, &setup, controllers).unwrap();
    let ctx = Ctx { self_id: Some(me), target: None, successes: None, ..Ctx::default() };
    assert_eq!(rt.call(script, &mut game, &ctx).unwrap().to_string(), first_answer);
    b.bench_local(|| rt.call(script, &mut game, &ctx).unwrap());
}

/// The effect call of issue 17's table: one question back into the game
/// (`game:damage`). A question changes nothing, so no undo copy is taken.
#[divan::bench(sample_count = 50, sample_size = 200)]
fn effect_call(b: divan::Bencher) {
    // The answer is right: the Character has no Damage yet.
    effect_bench(b, "local game, ctx = ...\nreturn game:damage(ctx.self)", "0");
}

/// An effect call that changes the game (`game:heal`, which may change it):
/// the state is copied for its undo before the change.
#[divan::bench(sample_count = 50, sample_size = 200)]
fn effect_call_changing(b: divan::Bencher) {
    effect_bench(b, "local game, ctx = ...\ngame:heal(ctx.self, 1)\nreturn game:damage(ctx.self)", "0");
}

#[divan::bench(sample_count = 20)]
fn check_bundled(b: divan::Bencher) {
    let paths = [root().join("content")];
    b.bench_local(|| load::load(&paths, &load::Options::default()));
}

/// `check_bundled` less the packs' own `*.test.lua` script tests: loading
/// (schemas, validation, references, compiling) alone.
#[divan::bench(sample_count = 20)]
fn check_bundled_without_script_tests(b: divan::Bencher) {
    let paths = [root().join("content")];
    let options = load::Options { run_script_tests: false, ..load::Options::default() };
    b.bench_local(|| load::load(&paths, &options));
}

#[divan::bench(sample_count = 20)]
fn parse_and_compile_bundled(b: divan::Bencher) {
    let l = loaded();
    let files: Vec<PathBuf> = l.docs.keys().cloned().collect();
    let sources: Vec<ScriptSource> = l.script_set.sources().to_vec();
    b.bench_local(|| {
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            divan::black_box(toml::from_str::<toml::Table>(&text).unwrap());
        }
        compile_all(sources.clone())
    });
}

/// Whole greedy games by number of players (issue 15: a 4-player game should
/// cost no more than 2.5x a 2-player game of as many Rounds): Assault with 2,
/// Crossover Assault with 3 and 4 (both 5 Rounds at most, on the HexaDome A
/// side), random teams of seeds 1-8 per iteration. The Rounds those 8 games
/// play are printed first, as `arena-bench game-rounds seats=N games=8
/// rounds=R` (`main`), so tools/bench.sh divides the time by them.
#[divan::bench(args = [2, 3, 4], sample_count = 10)]
fn whole_game_by_players(b: divan::Bencher, seats: usize) {
    let l = loaded();
    let rt = Runtime::new(Arc::new(l.content.clone()), l.script_set.clone(), Limits::default()).unwrap();
    let setups = round_setups(seats);
    let players = vec![Policy::Greedy; seats];
    b.bench_local(|| {
        for s in &setups {
            divan::black_box(sim::play_with(&l.content, &rt, s, &players).unwrap());
        }
    });
}

/// The games of [`whole_game_by_players`] at `seats` players: Assault at 2,
/// Crossover Assault at 3 and 4, random teams of seeds 1 to [`ROUND_GAMES`].
fn round_setups(seats: usize) -> Vec<GameSetup> {
    let l = loaded();
    let scenario = if seats == 2 { "assault" } else { "crossover-assault" };
    (1..=ROUND_GAMES).map(|seed| GameSetup::random(&l.content, scenario, seats, seed).unwrap()).collect()
}

/// Games per iteration of [`whole_game_by_players`].
const ROUND_GAMES: u64 = 8;
