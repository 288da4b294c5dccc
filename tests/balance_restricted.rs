//! Restricted play (`arena sim ... --restrict [SEAT:]RULE`; Jaffe et al.,
//! AIIDE 2012): every seed played with and without a player's restriction,
//! from the same teams, and the paired difference as `--compare` prints it
//! (docs/balance-runs.md § Restricted play).

use arena_tests::arena;
use serde_json::Value;

fn restricted(args: &[&str]) -> Value {
    let mut all = vec!["sim", "first-game", "--jobs", "2", "--format", "json"];
    all.extend(args);
    let r = arena(&all);
    assert_eq!(r.code, 0, "{}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap()
}

#[test]
fn forbidding_what_nothing_uses_changes_no_game() {
    // LaxMee (Soldiers of Fortune) is in no team of the first game: her
    // Purge '92 is never offered, so forbidding it changes nothing.
    let v = restricted(&["--games", "6", "--restrict", "no-action:purge-92"]);
    assert_eq!(v["kind"], "sim-compare");
    assert_eq!(v["restrict"], serde_json::json!(["no-action:purge-92"]));
    assert_eq!(v["content_hash"], v["base_content_hash"], "the same packs on both sides");
    for row in
        v["report"]["seats"].as_array().unwrap().iter().chain(v["report"]["characters"].as_object().unwrap().values())
    {
        assert_eq!(row["outcome_changed"], 0, "{row}");
        assert_eq!(row["difference"], 0.0, "{row}");
    }
    assert_eq!(v["tally"], v["base_tally"], "every game the same");
}

#[test]
fn a_seat_forbidden_attacks_and_an_action_uses_neither_and_its_games_change() {
    let v = restricted(&["--games", "8", "--restrict", "1:no-attacks", "--restrict", "1:no-action:suppressive-fire"]);
    assert_eq!(v["restrict"], serde_json::json!(["1:no-attacks", "1:no-action:suppressive-fire"]));
    // Player 1's team in the first game (`content/aristeia-core/setups`):
    // its Damage came from its Attacks and Major Lunah's Suppressive Fire.
    let team = ["hexx3r", "major-lunah", "maximus", "parvati"];
    let dealt = |t: &Value| team.iter().map(|c| t["characters"][c]["damage_dealt"].as_u64().unwrap()).sum::<u64>();
    assert!(dealt(&v["base_tally"]) > 20, "unrestricted, player 1 attacks: {}", dealt(&v["base_tally"]));
    assert_eq!(dealt(&v["tally"]), 0, "restricted: {}", v["tally"]["characters"]);
    // Player 2 is not restricted: its Characters still deal Damage.
    assert!(v["tally"]["characters"]["wild-bill"]["damage_dealt"].as_u64().unwrap() > 0);
    assert!(v["report"]["seats"][0]["outcome_changed"].as_u64().unwrap() > 0, "{}", v["report"]["seats"][0]);
}

#[test]
fn a_restriction_that_names_nothing_or_no_seat_is_refused() {
    for (args, says) in [
        (vec!["sim", "first-game", "--games", "2", "--restrict", "no-tactic:take-aimm"], "no Tactic `take-aimm`"),
        (vec!["sim", "first-game", "--games", "2", "--restrict", "no-action:fly"], "no Character has an Action `fly`"),
        (vec!["sim", "first-game", "--games", "2", "--restrict", "no-switch:warp"], "no Character has a Switch `warp`"),
        (vec!["sim", "first-game", "--games", "2", "--restrict", "3:no-tactics"], "the game has 2 players"),
        (vec!["sim", "first-game", "--games", "2", "--restrict", "no-luck"], "no-tactic:ID, no-tactics"),
        (vec!["sim", "invictus", "--games", "2", "--restrict", "no-tactics"], "restricted play is for Aristeia!"),
        (vec!["sim", "first-game", "--games", "auto", "--restrict", "no-tactics"], "give --games N"),
    ] {
        let r = arena(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn impact_forbids_each_ability_of_a_character_in_turn_as_restrict_would() {
    let v = restricted(&["--games", "4", "--impact", "character:hexx3r"]);
    assert_eq!(v["kind"], "sim-impact");
    assert_eq!(v["character"], "hexx3r");
    let rows = v["abilities"].as_array().unwrap();
    let named: Vec<(String, String)> =
        rows.iter().map(|r| (r["ability"].as_str().unwrap().into(), r["kind"].as_str().unwrap().into())).collect();
    // hexx3r's card: two Actions, its Switches, and the Tactics of its own.
    for want in [("gotcha", "Action"), ("vade-retro", "Action"), ("displace-yourself", "Switch")] {
        assert!(named.contains(&(want.0.into(), want.1.into())), "{want:?} in {named:?}");
    }
    assert!(named.iter().any(|(_, k)| k == "Tactic"), "{named:?}");
    for r in rows {
        assert_eq!(r["games"], 4, "{r}");
        assert!(r["restrict"].as_str().unwrap().ends_with("@hexx3r"), "{r}");
        let worth = r["win_rate_base"].as_f64().unwrap() - r["win_rate_restricted"].as_f64().unwrap();
        assert!((r["worth"].as_f64().unwrap() - worth).abs() < 1e-12, "{r}");
    }
    // A row is the paired comparison `--restrict RULE@hexx3r` prints for hexx3r, negated.
    let gotcha = rows.iter().find(|r| r["ability"] == "gotcha").unwrap();
    let one = restricted(&["--games", "4", "--restrict", "no-action:gotcha@hexx3r"]);
    let row = &one["report"]["characters"]["hexx3r"];
    assert_eq!(gotcha["outcome_changed"], row["outcome_changed"]);
    assert_eq!(gotcha["win_rate_restricted"], row["win_rate_changed"]);
    assert_eq!(gotcha["worth"].as_f64().unwrap(), -row["difference"].as_f64().unwrap());
}

#[test]
fn impact_of_a_character_who_never_plays_has_no_figures() {
    // LaxMee is in no team of the first game.
    let v = restricted(&["--games", "2", "--impact", "character:laxmee"]);
    let rows = v["abilities"].as_array().unwrap();
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r.get("games").is_none()), "{rows:?}");
    let r = arena(&["sim", "first-game", "--games", "2", "--impact", "character:laxme"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("did you mean `laxmee`"), "{}", r.stderr);
}
