//! Benchmarks of the rules engine (issue: rules engine and `arena sim`).
//!
//! - `random_game`: whole random-legal games of Assault's first-game setup on
//!   the bundled content, one core;
//! - `greedy_game`: the same with the greedy controller on both sides;
//! - `line_of_sight`: one Line of Sight query between two spaces of the
//!   HexaDome A side with its Blocked spaces and eight Characters;
//! - memory: the peak of bytes allocated while one game is played (state,
//!   events, Lua garbage), printed as `arena-bench memory ...` lines, measured
//!   by a counting global allocator.
//!
//! Run with `cargo bench -p arena-engine --bench game`; figures in docs/performance.md.

use arena_engine::load::{self, Loaded};
use arena_engine::rules::game::GameSetup;
use arena_engine::rules::geometry::{self, Hex};
use arena_engine::script::runtime::{Limits, Runtime};
use arena_engine::sim::{self, Policy};
use std::alloc::{GlobalAlloc, Layout, System};
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

fn loaded() -> &'static Loaded {
    static L: OnceLock<Loaded> = OnceLock::new();
    L.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let l = load::load(&[root.join("content")], &load::Options { run_script_tests: false, ..Default::default() });
        assert!(!l.has_errors(), "bundled content has errors");
        l
    })
}

fn main() {
    let l = loaded();
    let rt = Runtime::new(Arc::new(l.content.clone()), l.script_set.clone(), Limits::default()).unwrap();
    for players in [[Policy::Random, Policy::Random], [Policy::Greedy, Policy::Greedy]] {
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
            "arena-bench memory players={players:?} games=20 median_peak_bytes={} max_peak_bytes={} (plus the Lua VM: {} bytes)",
            peaks[peaks.len() / 2],
            peaks[peaks.len() - 1],
            rt.used_memory()
        );
    }
    divan::main();
}

fn game(b: divan::Bencher, players: [Policy; 2]) {
    let l = loaded();
    let rt = Runtime::new(Arc::new(l.content.clone()), l.script_set.clone(), Limits::default()).unwrap();
    let mut seed = 0;
    b.bench_local(|| {
        seed += 1;
        let setup = GameSetup::from_content(&l.content, "first-game", seed).unwrap();
        sim::play_with(&l.content, &rt, &setup, &players).unwrap()
    });
}

#[divan::bench(sample_count = 30)]
fn random_game(b: divan::Bencher) {
    game(b, [Policy::Random, Policy::Random]);
}

#[divan::bench(sample_count = 30)]
fn greedy_game(b: divan::Bencher) {
    game(b, [Policy::Greedy, Policy::Greedy]);
}

#[divan::bench]
fn line_of_sight(b: divan::Bencher) {
    let l = loaded();
    let map = &l.content.maps["hexadome-a"].value;
    let blocked: std::collections::BTreeSet<Hex> =
        map.blocked.iter().map(|h| Hex::new(h[0] as i32, h[1] as i32)).collect();
    let units: Vec<Hex> = [(0, -5), (-1, -5), (0, -6), (1, -6), (0, 5), (-1, 6), (0, 6), (1, 5)]
        .into_iter()
        .map(|(q, r)| Hex::new(q, r))
        .collect();
    let spaces: Vec<Hex> = (-9..=9)
        .flat_map(|q| (-9..=9).map(move |r| Hex::new(q, r)))
        .filter(|h| h.within(9) && !blocked.contains(h))
        .collect();
    let mut i = 0usize;
    b.bench_local(|| {
        i = i.wrapping_add(7919);
        let a = spaces[i % spaces.len()];
        let t = spaces[(i / 3 + 101) % spaces.len()];
        geometry::line_of_sight(a, t, |h| blocked.contains(&h) || units.contains(&h))
    });
}
