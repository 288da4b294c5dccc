//! Benchmarks of tables (`arena_engine::table`, issue "One table for every
//! game"): a fork of a running game at a Decision, continued to its next
//! Decision, at 2 seats (Assault) and 4 seats (Crossover Assault), and
//! Invictus at 4 seats; and the fork alone.
//!
//! Each bench first plays one seeded game with random players at a table,
//! keeping a fork and the answer at every Decision; each iteration takes the
//! next of those positions (round robin), forks it and applies its answer.
//! So the figure is a mean over every position of a game: early in a Round
//! the replay since the Round's start is short, late in it long.
//!
//! Run with `cargo bench -p arena-engine --bench table`; figures in
//! docs/performance.md § Tables.

use arena_engine::load::{self, Loaded};
use arena_engine::players::RandomPlayer;
use arena_engine::script::runtime::Runtime;
use arena_engine::sim;
use arena_engine::table::{Player, Setup, Table};
use std::sync::{Arc, OnceLock};

fn loaded(path: &'static str) -> &'static Loaded {
    static ARISTEIA: OnceLock<Loaded> = OnceLock::new();
    static INVICTUS: OnceLock<Loaded> = OnceLock::new();
    let cell = if path == "content" { &ARISTEIA } else { &INVICTUS };
    cell.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let l = load::load(&[root.join(path)], &load::Options { run_script_tests: false, ..Default::default() });
        assert!(!l.has_errors(), "{path} has errors");
        l
    })
}

/// The positions of one seeded random game: a fork at each Decision and its answer.
fn positions<'a>(
    game: &str,
    content: &'a Loaded,
    rt: &'a Runtime,
    name: &str,
    seats: usize,
    seed: u64,
) -> Vec<(Box<dyn Table<'a> + 'a>, usize)> {
    let setup = Setup { name: name.into(), seats: Some(seats), seed };
    let mut t = sim::find(game).unwrap().start(&content.content, rt, &setup).unwrap();
    let mut players: Vec<RandomPlayer> = (0..seats).map(|s| RandomPlayer::for_seat(seed, s)).collect();
    let mut out = Vec::new();
    while let Some(p) = t.to_move() {
        let a = players[p.index()].choose(&t.seat_view().unwrap()).unwrap();
        out.push((t.fork(), a));
        t.apply(a).unwrap();
    }
    eprintln!("arena-bench table game={game} setup={name} seats={seats} seed={seed} decisions={}", out.len());
    out
}

fn runtime(game: &str, l: &Loaded) -> Runtime {
    sim::find(game).unwrap().runtime(Arc::new(l.content.clone()), l.script_set.clone()).unwrap()
}

fn fork_and_step(b: divan::Bencher, game: &str, path: &'static str, name: &str, seats: usize) {
    let l = loaded(path);
    let rt = runtime(game, l);
    let at = positions(game, l, &rt, name, seats, 1);
    let mut i = 0;
    b.bench_local(|| {
        let (t, a) = &at[i % at.len()];
        i += 1;
        let mut f = t.fork();
        f.apply(*a).unwrap();
        f
    });
}

fn fork_only(b: divan::Bencher, game: &str, path: &'static str, name: &str, seats: usize) {
    let l = loaded(path);
    let rt = runtime(game, l);
    let at = positions(game, l, &rt, name, seats, 1);
    let mut i = 0;
    b.bench_local(|| {
        let (t, _) = &at[i % at.len()];
        i += 1;
        t.fork()
    });
}

fn main() {
    divan::main();
}

/// Fork at a Decision of Assault (2 seats) and continue to the next Decision.
#[divan::bench(sample_count = 1000, sample_size = 1)]
fn fork_and_step_assault_2(b: divan::Bencher) {
    fork_and_step(b, "aristeia", "content", "assault", 2);
}

/// The same in Crossover Assault at 4 seats.
#[divan::bench(sample_count = 1000, sample_size = 1)]
fn fork_and_step_crossover_assault_4(b: divan::Bencher) {
    fork_and_step(b, "aristeia", "content", "crossover-assault", 4);
}

/// The same in Invictus at 4 seats.
#[divan::bench(sample_count = 1000, sample_size = 1)]
fn fork_and_step_invictus_4(b: divan::Bencher) {
    fork_and_step(b, "invictus", "content/invictus", "teams", 4);
}

/// The fork alone at a Decision of Assault (2 seats): no replay.
#[divan::bench(sample_count = 1000, sample_size = 1)]
fn fork_only_assault_2(b: divan::Bencher) {
    fork_only(b, "aristeia", "content", "assault", 2);
}

/// The fork alone in Crossover Assault at 4 seats.
#[divan::bench(sample_count = 1000, sample_size = 1)]
fn fork_only_crossover_assault_4(b: divan::Bencher) {
    fork_only(b, "aristeia", "content", "crossover-assault", 4);
}
