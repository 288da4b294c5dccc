//! Benchmarks of the Invictus engine (issue 16): whole seeded games on the
//! bundled `content/invictus`, one core, one Lua VM reused as in a batch.
//!
//! - `greedy_game_4` / `greedy_game_6`: 4- and 6-player team games, every seat greedy;
//! - `random_game_4`: 4 players, every seat random;
//! - `mixed_game_6`: 6 players, greedy and random seats alternating (what
//!   `arena check --sims` plays).
//!
//! Each iteration plays the game of the next seed (1, 2, ...), so the figure
//! is a mean over many games. Run with `cargo bench -p arena-engine --bench
//! invictus`; figures in docs/performance.md.

use arena_engine::invictus::InvictusSetup;
use arena_engine::load::{self, Loaded};
use arena_engine::script::runtime::Runtime;
use arena_engine::sim::Policy;
use arena_engine::sim::invictus as isim;
use std::cell::Cell;
use std::sync::{Arc, OnceLock};

fn loaded() -> &'static Loaded {
    static L: OnceLock<Loaded> = OnceLock::new();
    L.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let l = load::load(
            &[root.join("content/invictus")],
            &load::Options { run_script_tests: false, ..Default::default() },
        );
        assert!(!l.has_errors(), "content/invictus has errors");
        l
    })
}

thread_local! {
    static SEED: Cell<u64> = const { Cell::new(0) };
}

fn game(bencher: divan::Bencher, players: usize, policies: &[Policy]) {
    let l = loaded();
    let rt: Runtime = isim::runtime(Arc::new(l.content.clone()), l.script_set.clone()).unwrap();
    let setup = InvictusSetup::teams(players);
    bencher.bench_local(|| {
        let seed = SEED.with(|s| {
            s.set(s.get() + 1);
            s.get()
        });
        let r = isim::play(&l.content, &rt, &setup, seed, policies).unwrap();
        // Random seats dawdle: about 1 game in 100 reaches the turn limit
        // without a winner (`arena sim invictus --players random`); it is
        // timed all the same.
        divan::black_box((r.winner, r.turns))
    });
}

#[divan::bench(sample_count = 20, sample_size = 5)]
fn greedy_game_4(bencher: divan::Bencher) {
    game(bencher, 4, &[Policy::Greedy]);
}

#[divan::bench(sample_count = 20, sample_size = 5)]
fn greedy_game_6(bencher: divan::Bencher) {
    game(bencher, 6, &[Policy::Greedy]);
}

#[divan::bench(sample_count = 20, sample_size = 5)]
fn random_game_4(bencher: divan::Bencher) {
    game(bencher, 4, &[Policy::Random]);
}

#[divan::bench(sample_count = 20, sample_size = 5)]
fn mixed_game_6(bencher: divan::Bencher) {
    game(bencher, 6, &[Policy::Greedy, Policy::Random]);
}

fn main() {
    divan::main();
}
