//! The balance readout of `sim --games` per Character: in
//! human output, each Character's games, side's win rate with its interval,
//! Damage dealt and taken and times sent to the Infirmary, the Characters of
//! the packs under test first.

use arena_tests::arena;
use serde_json::Value;
use std::collections::BTreeMap;

const BATCH: &[&str] = &[
    "sim",
    "assault",
    "--pack",
    "../content/aristeia-core",
    "--pack",
    "../mods/duelist",
    "--random-teams",
    "--games",
    "6",
    "--jobs",
    "2",
];

#[test]
fn the_new_characters_row_comes_first_with_its_figures() {
    let human = arena(BATCH);
    assert_eq!(human.code, 0, "{}", human.stderr);
    let mut json_args = BATCH.to_vec();
    json_args.extend(["--format", "json"]);
    let json = arena(&json_args);
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    let games = v["games"].as_array().unwrap();

    let lines: Vec<&str> = human.stdout.lines().collect();
    // Every rate beside the table's even share; the seat rows said complementary.
    assert!(
        human
            .stdout
            .contains("(even share 50.0% a seat at 2 seats; the seat rows are of the same games: complementary"),
        "{}",
        human.stdout
    );
    let header = lines.iter().position(|l| l.trim_start().starts_with("Character")).expect("a Character table");
    assert!(lines[header].contains("side wins [95%]") && lines[header].contains("Infirmary"), "{}", human.stdout);
    // The duelist pack's Character first, marked; then the core box's.
    let first: Vec<&str> = lines[header + 1].split_whitespace().collect();
    assert_eq!(&first[..2], ["*", "la-duelista"], "{}", human.stdout);
    assert!(lines[header + 2].starts_with("  "), "only la-duelista is under test:\n{}", human.stdout);
    assert!(human.stdout.contains("* from the packs under test: duelist"), "{}", human.stdout);

    // Her figures are those of the games she played.
    let played: Vec<&Value> = games
        .iter()
        .filter(|g| {
            g["teams"].as_array().unwrap().iter().any(|t| t.as_array().unwrap().iter().any(|c| c == "la-duelista"))
        })
        .collect();
    assert!(!played.is_empty());
    assert_eq!(first[2], played.len().to_string(), "{}", lines[header + 1]);
    let line = |g: &Value| g["characters"]["la-duelista"].clone();
    let won = played.iter().filter(|g| g["winner"] == line(g)["player"]).count();
    assert_eq!(first[3], format!("{:.1}%", 100.0 * won as f64 / played.len() as f64), "{}", lines[header + 1]);
    let mean = |key: &str| played.iter().map(|g| line(g)[key].as_f64().unwrap()).sum::<f64>() / played.len() as f64;
    let (dealt, taken, infirmary) = (mean("damage_dealt"), mean("damage_taken"), mean("infirmary"));
    let n = first.len();
    assert_eq!(first[n - 3..], [format!("{dealt:.2}"), format!("{taken:.2}"), format!("{infirmary:.2}")]);
    let r = &v["report"]["per_character"]["la-duelista"];
    assert_eq!(r["games"], played.len());
    assert!((r["mean_damage_taken"].as_f64().unwrap() - taken).abs() < 1e-9);
}

/// A game's per-Character lines agree with its events: Damage taken is the
/// Damage events on it, Infirmary its Infirmary events, and Damage dealt the
/// Damage Enemies suffered during its Activations.
#[test]
fn character_lines_agree_with_the_games_events() {
    for seed in ["2", "5"] {
        let one = arena(&[
            "sim",
            "assault",
            "--pack",
            "../content/aristeia-core",
            "--random-teams",
            "--seed",
            seed,
            "--format",
            "json",
        ]);
        let batch = arena(&[
            "sim",
            "assault",
            "--pack",
            "../content/aristeia-core",
            "--random-teams",
            "--seed",
            seed,
            "--games",
            "1",
            "--format",
            "json",
        ]);
        let events: Value = serde_json::from_str(&one.stdout).unwrap();
        let summary: Value = serde_json::from_str(&batch.stdout).unwrap();
        let lines = summary["games"][0]["characters"].as_object().unwrap();
        let mut taken: BTreeMap<String, u64> = BTreeMap::new();
        let mut dealt: BTreeMap<String, u64> = BTreeMap::new();
        let mut infirmary: BTreeMap<String, u64> = BTreeMap::new();
        let mut active = String::new();
        let side = |c: &str| lines.get(c).map(|l| l["player"].as_u64().unwrap());
        for e in events["events"].as_array().unwrap() {
            let c = e["character"].as_str().unwrap_or_default().to_string();
            match e["event"].as_str().unwrap() {
                "activation-started" => active = c,
                "damage" => {
                    let amount = e["amount"].as_u64().unwrap();
                    *taken.entry(c.clone()).or_default() += amount;
                    if side(&c).is_some() && side(&active).is_some() && side(&c) != side(&active) {
                        *dealt.entry(active.clone()).or_default() += amount;
                    }
                }
                "infirmary" => *infirmary.entry(c).or_default() += 1,
                _ => {}
            }
        }
        assert!(taken.values().sum::<u64>() > 0, "seed {seed}: no Damage at all");
        for (c, l) in lines {
            assert_eq!(l["damage_taken"].as_u64().unwrap(), taken.get(c).copied().unwrap_or(0), "seed {seed} {c}");
            assert_eq!(l["damage_dealt"].as_u64().unwrap(), dealt.get(c).copied().unwrap_or(0), "seed {seed} {c}");
            assert_eq!(l["infirmary"].as_u64().unwrap(), infirmary.get(c).copied().unwrap_or(0), "seed {seed} {c}");
        }
    }
}
