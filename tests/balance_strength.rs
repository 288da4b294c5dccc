//! Strength adjusted for teammates and opponents (`arena sim --games N`'s
//! "adjusted strength" column; engine/src/sim/strength.rs): a conditional
//! logit over the team compositions of a batch separates a Character from
//! the team it plays in, where its raw row (its side's win rate) cannot, and
//! the shards of a batch, merged, fit exactly like the batch.
//!
//! The fixture pack `strong-beside-weak` plays Assault at two Characters a
//! team from a pool of five: Wild Bill at 12 Hit Points (strong), Maximus at
//! 1 (weak), Major Lunah, Miyamoto Mushashi and Parvati at 4; and two
//! ready-made games where Wild Bill and Maximus are one team.

use std::sync::Arc;

use arena_engine::sim::{self, Policy, Strengths, Tally, Teams};
use arena_tests::arena;
use serde_json::Value;

const CORE: &str = "../content/aristeia-core";
const PACK: &str = "fixtures/packs/strong-beside-weak";
const STRONG: &str = "wild-bill";
const WEAK: &str = "maximus";

fn loaded() -> arena_engine::load::Loaded {
    let options = arena_engine::load::Options { run_script_tests: false, ..Default::default() };
    let loaded = arena_engine::load::load(&[CORE.into(), PACK.into()], &options);
    assert!(!loaded.has_errors(), "the fixture pack loads");
    loaded
}

/// The games of `teams` with seeds `seeds`, greedy against greedy.
fn games(loaded: &arena_engine::load::Loaded, teams: Teams, seeds: std::ops::Range<u64>) -> Vec<sim::GameSummary> {
    let content = Arc::new(loaded.content.clone());
    let players = [Policy::Greedy, Policy::Greedy];
    let games = sim::batch(content, loaded.script_set.clone(), &teams, seeds, &players, 2, &|| {}).unwrap();
    assert!(games.iter().all(|g| g.error.is_none()), "no engine error");
    games
}

/// A batch where the strong and the weak Character mostly play side by side:
/// 60 games of random teams from the pool (where they also meet as
/// opponents, or one sits out), then 540 of the ready-made games where they
/// are one team, 270 in each seat.
fn mostly_side_by_side() -> Vec<sim::GameSummary> {
    let loaded = loaded();
    let mut all = games(&loaded, Teams::Random("assault".into()), 1..61);
    all.extend(games(&loaded, Teams::Setup("side-by-side".into()), 61..331));
    all.extend(games(&loaded, Teams::Setup("side-by-side-second".into()), 331..601));
    all
}

#[test]
fn the_adjusted_strength_separates_a_strong_character_from_the_weak_one_beside_it() {
    let batch = mostly_side_by_side();
    let report = Tally::of(&batch).report();
    let raw = |c: &str| report.characters[c];
    let (strong, weak) = (raw(STRONG), raw(WEAK));
    if let Some(fit) = &report.strength {
        for (c, e) in &fit.characters {
            eprintln!("{c}: {:?} raw {:?}", e.log_odds, report.characters[c]);
        }
    }
    // The raw rows mix in the team: games side by side add the same outcome
    // to both, and their 95% intervals overlap.
    assert!(
        strong.low <= weak.high && weak.low <= strong.high,
        "raw rows overlap: {STRONG} {strong:?}, {WEAK} {weak:?}"
    );
    let fit = report.strength.as_ref().expect("a fit");
    assert!(fit.converged, "{fit:?}");
    assert_eq!(fit.games + fit.left_out, 600);
    let s = |c: &str| fit.characters[c].log_odds;
    // The strong one is above the average Character (0) and the weak one
    // below it, each with its whole interval, and the strong one's interval
    // is wholly above the weak one's. (The three others at 4 Hit Points are
    // not alike: Parvati heals, Miyamoto Mushashi plays only in some of the
    // 60 random-team games, so their order among themselves and against the
    // two is not asserted.)
    assert!(s(STRONG).low > 0.0, "{STRONG} above the average: {fit:?}");
    assert!(s(WEAK).high < 0.0, "{WEAK} below the average: {fit:?}");
    assert!(s(STRONG).low > s(WEAK).high, "{STRONG} {:?} excludes {WEAK} {:?}", s(STRONG), s(WEAK));
    // The average Character is 0 (the ridge's solution, teams of one size).
    let total: f64 = fit.characters.values().map(|c| c.log_odds.estimate).sum();
    assert!(total.abs() < 1e-6, "strengths sum to {total}");
}

#[test]
fn four_merged_shards_fit_exactly_like_the_whole_batch() {
    let batch = mostly_side_by_side();
    let whole = Tally::of(&batch);
    let mut merged = Tally::of(&batch[..100]);
    for part in [&batch[100..150], &batch[150..333], &batch[333..]] {
        merged.merge(&Tally::of(part)).unwrap();
    }
    assert_eq!(merged.compositions, whole.compositions);
    let fit = |t: &Tally| Strengths::fit(&t.compositions, 2).expect("a fit");
    // Bit for bit: the same JSON.
    assert_eq!(serde_json::to_string(&fit(&merged)).unwrap(), serde_json::to_string(&fit(&whole)).unwrap());
    // A Tally read back from a file is checked: its compositions count the games.
    merged.check(1..601, 2).unwrap();
    let mut short = merged.clone();
    short.compositions[0].games += 1;
    let e = short.check(1..601, 2).unwrap_err();
    assert!(e.contains("compositions"), "{e}");
}

fn json(args: &[&str]) -> Value {
    let r = arena(args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap()
}

#[test]
fn merged_shards_of_sim_print_the_adjusted_strengths_of_the_whole_batch() {
    let dir = tempfile::tempdir().unwrap();
    let base = ["sim", "assault", "--random-teams", "--pack", CORE, "--pack", PACK, "--games", "40", "--jobs", "2"];
    let mut files = Vec::new();
    for i in 1..=4 {
        let shard = format!("{i}/4");
        let mut args = base.to_vec();
        args.extend(["--shard", &shard, "--format", "json", "--without-games"]);
        let path = dir.path().join(format!("{i}.json"));
        let r = arena(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        std::fs::write(&path, r.stdout).unwrap();
        files.push(path.to_string_lossy().into_owned());
    }
    let mut args = vec!["sim", "merge", "--pack", CORE, "--pack", PACK, "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let merged = json(&args);
    // A shard whose compositions do not count its games is refused, named.
    let mut tampered: Value = serde_json::from_str(&std::fs::read_to_string(&files[2]).unwrap()).unwrap();
    tampered["tally"]["compositions"][0]["games"] = 1000.into();
    let bad = dir.path().join("tampered.json");
    std::fs::write(&bad, serde_json::to_string(&tampered).unwrap()).unwrap();
    let mut refused = vec!["sim", "merge", "--pack", CORE, "--pack", PACK];
    let bad = bad.to_string_lossy().into_owned();
    refused.extend([files[0].as_str(), files[1].as_str(), bad.as_str(), files[3].as_str()]);
    let r = arena(&refused);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("tampered.json") && r.stderr.contains("`compositions` count"), "{}", r.stderr);
    let mut args = base.to_vec();
    args.extend(["--format", "json"]);
    let whole = json(&args);
    let strength = &whole["report"]["strength"];
    assert!(strength["characters"][STRONG]["log_odds"]["estimate"].as_f64().unwrap() > 0.0, "{strength}");
    assert_eq!(merged["report"]["strength"], *strength);
    assert_eq!(merged["tally"]["compositions"], whole["tally"]["compositions"]);
    // The table says what the column is and who played.
    let r = arena(&base);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("adjusted strength [95%]"), "{}", r.stdout);
    assert!(r.stdout.contains("played by player 1 greedy, player 2 greedy"), "{}", r.stdout);
}
