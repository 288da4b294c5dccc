//! Inputs built to be slow (the loader and `arena check` on hostile packs): each must stay near-linear or
//! be refused with a clear error. The wall-time bounds are generous guards
//! against a quadratic (or worse) blow-up, not performance figures (those are
//! benchmarks: docs/performance.md): before the fixes, 2,000 dangling
//! references took 105 s and a 20,000-pack cycle did not finish.

use arena_engine::diag::Code;
use arena_engine::load;
use std::time::{Duration, Instant};

fn options() -> load::Options {
    load::Options { run_script_tests: false, compile_scripts: false, ..load::Options::default() }
}

#[test]
fn two_thousand_dangling_references_are_reported_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("refs");
    std::fs::create_dir(&pack).unwrap();
    std::fs::write(
        pack.join("pack.toml"),
        "id = \"refs\"\nversion = \"1.0.0\"\ngame = \"aristeia\"\ntitle = \"Refs\"\n",
    )
    .unwrap();
    let mut text = String::new();
    for i in 0..2000 {
        text.push_str(&format!(
            "[[setup]]\nid = \"setup-{i}\"\nname = \"S\"\nscenario = \"no-such-scenario-{i}\"\n\n[[setup.teams]]\nname = \"a\"\ncharacters = [\"nobody-{i}\"]\n\n"
        ));
    }
    std::fs::write(pack.join("setups.toml"), text).unwrap();
    let started = Instant::now();
    let loaded = load::load(&[pack], &options());
    let dangling = loaded.diagnostics.iter().filter(|d| d.code == Code::DanglingReference).count();
    assert_eq!(dangling, 4000, "every dangling reference is reported");
    assert!(started.elapsed() < Duration::from_secs(30), "took {:?}", started.elapsed());
}

#[test]
fn a_cycle_of_twenty_thousand_packs_is_reported_without_overflowing() {
    // A chain p0 -> p1 -> ... -> p19999 -> p0: resolution is near-linear and
    // the cycle search is iterative (a recursive one overflows the stack).
    use arena_engine::model::Manifest;
    use arena_engine::resolve::{Node, resolve};
    let n = 20_000;
    let manifests: Vec<Manifest> = (0..n)
        .map(|i| {
            let text = format!(
                "id = \"p{i}\"\nversion = \"1.0.0\"\ngame = \"aristeia\"\ntitle = \"P\"\n[dependencies]\np{} = \"^1\"\n",
                (i + 1) % n
            );
            toml::from_str(&text).unwrap()
        })
        .collect();
    let versions: Vec<semver::Version> = (0..n).map(|_| semver::Version::new(1, 0, 0)).collect();
    let nodes: Vec<Node<'_>> =
        manifests.iter().zip(&versions).map(|(m, v)| Node { manifest: m, version: Some(v) }).collect();
    let started = Instant::now();
    let (order, findings) = resolve(&nodes);
    assert_eq!(order.len(), n, "every pack is still loaded, in some order");
    let cycles: Vec<_> = findings.iter().filter(|f| f.diagnostic.code == Code::DependencyCycle).collect();
    assert_eq!(cycles.len(), 1, "one cycle, reported once");
    assert!(started.elapsed() < Duration::from_secs(30), "took {:?}", started.elapsed());
}

#[test]
fn too_many_jobs_and_endless_files_are_refused_with_a_clear_error() {
    let run = arena_tests::arena(&["sim", "assault", "--games", "2", "--jobs", "100000"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("at most 256 worker threads"), "{}", run.stderr);
    let duelist = arena_tests::tests_dir().join("../mods/duelist");
    let run = arena_tests::arena(&["check", "--locked", "--lockfile", "/dev/zero", duelist.to_str().unwrap()]);
    assert_eq!(run.code, 2, "an unreadable lockfile is an IO failure: {}", run.stderr);
    assert!(run.stderr.contains("larger than"), "the lockfile is read within a limit: {}", run.stderr);
    let run = arena_tests::arena(&["sim", "assault", "--pack", "/nonexistent"]);
    assert_eq!(run.code, 2, "a pack folder that cannot be read: {}", run.stderr);
    assert!(!run.stderr.contains("run `arena check` first"), "{}", run.stderr);
    for cmd in ["script", "replay", "run"] {
        let run = arena_tests::arena(&[cmd, "/dev/zero"]);
        assert_ne!(run.code, 0, "{cmd} /dev/zero");
        assert!(run.stderr.contains("larger than"), "{cmd}: {}", run.stderr);
    }
}
