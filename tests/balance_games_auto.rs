//! Sample sizes that fit the question (`arena sim ... --games auto`): the
//! batch plays chunks of seeds from the first on until the 95% interval of
//! the figure asked about (`--precision-of`: every seat's win rate, a
//! Character's or a god's) is within `--precision` points, or the ceiling
//! (`--max-games`) is reached, and says how many games it took. Its figures
//! are those of `--games N` for the N it reached (docs/balance-runs.md § How
//! many games).

use arena_tests::arena;
use serde_json::Value;

const CORE: &str = "../content/aristeia-core";

fn json(args: &[&str]) -> Value {
    let r = arena(args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap()
}

/// The half-width, in points, of the widest seat interval of a report.
fn widest_seat(report: &Value) -> f64 {
    report["win_rate"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["high"].as_f64().unwrap() - r["low"].as_f64().unwrap()) * 50.0)
        .fold(0.0, f64::max)
}

#[test]
fn games_auto_plays_until_the_seat_intervals_are_as_narrow_as_asked() {
    let base = ["sim", "assault", "--pack", CORE, "--players", "random", "--jobs", "2", "--format", "json"];
    let mut args = base.to_vec();
    args.extend(["--games", "auto", "--precision", "2", "--without-games"]);
    let auto = json(&args);
    let games = auto["auto"]["games"].as_u64().unwrap();
    assert_eq!(auto["auto"]["reached"], true, "{}", auto["auto"]);
    assert_eq!(auto["report"]["games"].as_u64(), Some(games));
    assert_eq!(games % 200, 0, "whole chunks of 200 games: {games}");
    let half = widest_seat(&auto["report"]);
    assert!(half <= 2.0, "±{half} points after {games} games");
    assert!(games > 200, "random players reach ±2 points in more than one chunk: {games}");
    assert_eq!(auto["auto"]["half_width"].as_f64(), Some(half));
    // One chunk fewer was not enough: the batch stopped at the first N that was.
    let fewer = (games - 200).to_string();
    let mut args = base.to_vec();
    args.extend(["--games", fewer.as_str(), "--without-games"]);
    assert!(widest_seat(&json(&args)["report"]) > 2.0, "{fewer} games were already within ±2 points");
    // The same games as `--games N` for that N.
    let n = games.to_string();
    let mut args = base.to_vec();
    args.extend(["--games", n.as_str(), "--without-games"]);
    assert_eq!(json(&args)["report"], auto["report"]);
}

#[test]
fn games_auto_stops_at_the_ceiling_and_says_the_precision_was_not_reached() {
    let v = json(&[
        "sim",
        "assault",
        "--pack",
        CORE,
        "--players",
        "random",
        "--games",
        "auto",
        "--precision",
        "0.5",
        "--max-games",
        "150",
        "--format",
        "json",
        "--without-games",
    ]);
    assert_eq!(v["auto"]["reached"], false);
    assert_eq!(v["auto"]["games"], 150);
    assert_eq!(v["report"]["games"], 150);
    let human = arena(&[
        "sim",
        "assault",
        "--pack",
        CORE,
        "--players",
        "random",
        "--games",
        "auto",
        "--precision-of",
        "character:wild-bill",
        "--precision",
        "0.5",
        "--max-games",
        "30",
        "-q",
    ]);
    assert_eq!(human.code, 0, "{}", human.stderr);
    assert!(human.stdout.contains("stopped at the ceiling of 30 games (--max-games 30)"), "{}", human.stdout);
}

#[test]
fn games_auto_refuses_what_it_cannot_decide() {
    for (args, says) in [
        (vec!["sim", "assault", "--pack", CORE, "--games", "auto", "--shard", "1/2"], "give --games N"),
        (vec!["sim", "assault", "--pack", CORE, "--games", "auto", "--digest"], "give --games N"),
        (vec!["sim", "assault", "--pack", CORE, "--games", "10", "--precision", "2"], "go with --games auto"),
        (
            vec!["sim", "assault", "--pack", CORE, "--games", "auto", "--precision-of", "character:nobody"],
            "no Character `nobody`",
        ),
        (
            vec!["sim", "assault", "--pack", CORE, "--games", "auto", "--precision-of", "pace"],
            "`seat`, `character:ID` or `god:ID`",
        ),
        (vec!["sim", "assault", "--pack", CORE, "--games", "some"], "not a number of games or `auto`"),
    ] {
        let r = arena(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
}
