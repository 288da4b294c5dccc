//! Team Deployment at a Prime Time table as each Scenario prints it (`001 §
//! Preparations`, 8. Team Deployment: "The scenario will indicate where to
//! deploy the Characters"; the Scenario's `team_deployment`), read from the
//! options a situation of `phase = "deployment"` is offered.

use arena_engine::model::ZoneKind;
use arena_tests::{arena, tests_dir};
use std::collections::BTreeSet;

fn content() -> &'static arena_engine::content::Content {
    static C: std::sync::OnceLock<arena_engine::content::Content> = std::sync::OnceLock::new();
    C.get_or_init(|| {
        let loaded = arena_engine::load::load(
            &[tests_dir().join("../content/aristeia-core"), tests_dir().join("../content/aristeia-prime-time")],
            &arena_engine::load::Options { run_script_tests: false, ..Default::default() },
        );
        assert!(!loaded.has_errors());
        loaded.content
    })
}

/// The spaces of the zones of `scenario`'s map of kind `kind`, by zone.
fn zones(scenario: &str, kind: ZoneKind) -> Vec<Vec<String>> {
    let c = content();
    let map = &c.maps[&c.scenarios[scenario].value.map].value;
    map.zones
        .iter()
        .filter(|z| z.kind == kind)
        .map(|z| z.spaces.iter().map(|h| format!("space [{}, {}]", h[0], h[1])).collect())
        .collect()
}

/// Play `text` (a deployment situation) with `answers` and return the
/// options of the first Decision it has no answer for, and its prompt line.
fn next_options(name: &str, text: &str, answers: &str) -> (String, Vec<String>) {
    let dir = std::env::temp_dir().join(format!("arena-deploy-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("s.toml");
    std::fs::write(&file, format!("answers = [{answers}]\n{text}")).unwrap();
    let packs = [tests_dir().join("../content/aristeia-core"), tests_dir().join("../content/aristeia-prime-time")];
    let run = arena(&[
        "run",
        file.to_str().unwrap(),
        "--pack",
        packs[0].to_str().unwrap(),
        "--pack",
        packs[1].to_str().unwrap(),
    ]);
    std::fs::remove_dir_all(&dir).ok();
    let prompt = run.stderr.lines().find(|l| l.contains("no answer left for")).unwrap_or_default().to_string();
    let options = run
        .stderr
        .lines()
        .filter_map(|l| {
            l.trim().split_once(". ").filter(|(n, _)| n.parse::<usize>().is_ok()).map(|(_, o)| o.to_string())
        })
        .collect();
    (prompt, options)
}

fn table(scenario: &str, teams: &[&[&str]]) -> String {
    let mut s = format!("scenario = \"{scenario}\"\nplayers = {}\nunderdog = 1\nphase = \"deployment\"\n", teams.len());
    for (p, team) in teams.iter().enumerate() {
        for c in *team {
            s.push_str(&format!("[[character]]\nid = \"{c}\"\nplayer = {}\n", p + 1));
        }
    }
    s
}

/// `001 § DeathMatch - Run 'N Shoot!`: "each player deploys their Character
/// in the central space of one of the Deployment Zones except for the
/// Central Deployment Zone": one option per Deployment Zone, its central space.
#[test]
fn run_n_shoot_deploys_in_the_central_space_of_a_deployment_zone() {
    let text = table("deathmatch-run-n-shoot", &[&["gata"], &["maximus"], &["parvati"]]);
    let (prompt, options) = next_options("rns", &text, "");
    assert!(prompt.contains("Deploy where?") && prompt.contains("player 1"), "{prompt}");
    let deployment = zones("deathmatch-run-n-shoot", ZoneKind::Deployment);
    assert_eq!(options.len(), deployment.len(), "one space per Deployment Zone: {options:?}");
    for zone in &deployment {
        assert_eq!(options.iter().filter(|o| zone.contains(o)).count(), 1, "one space of {zone:?}: {options:?}");
    }
    let central: BTreeSet<String> = zones("deathmatch-run-n-shoot", ZoneKind::Central).concat().into_iter().collect();
    assert!(options.iter().all(|o| !central.contains(o)), "{options:?}");
}

/// `001 § DeathMatch - Ballroom Dancing`: "Prime Time decides which player
/// deploys one of their Characters first. All other players do the same
/// clockwise ..." and "Players must deploy both their Characters in the same
/// Deployment Zone".
#[test]
fn ballroom_dancing_prime_time_chooses_who_deploys_first_and_a_team_shares_its_zone() {
    let text = table(
        "deathmatch-ballroom-dancing",
        &[&["gata", "maximus"], &["parvati", "wild-bill"], &["major-lunah", "miyamoto-mushashi"]],
    );
    let (prompt, options) = next_options("ball-1", &text, "");
    assert!(
        prompt.contains("Which player deploys first?") && prompt.contains("(player 1)"),
        "Prime Time asked: {prompt}"
    );
    assert_eq!(options, ["player 1", "player 2", "player 3"]);
    // Player 3 first: then 1 and 2, then 2 (its second), 1, 3 (snake order).
    let (prompt, _) = next_options("ball-2", &text, "\"player 3\"");
    assert!(prompt.contains("Deploy where?") && prompt.contains("(player 3)"), "{prompt}");
    // Each deploys its first Character in the first space offered; player 2's
    // second Character is then offered only the spaces of its first one's zone.
    let (prompt, options) = next_options("ball-3", &text, "\"player 3\", 1, 1, 1");
    assert!(prompt.contains("(player 2)"), "player 2 deploys its second Character: {prompt}");
    let deployment = zones("deathmatch-ballroom-dancing", ZoneKind::Deployment);
    let zone = deployment.iter().find(|z| z.contains(&options[0])).expect("a Deployment Zone");
    assert!(options.iter().all(|o| zone.contains(o)), "only the zone of its first Character: {options:?}");
}

/// `001 § Crossover Assault`: "any space within a Deployment Zone that is
/// not a Scoring Zone", and the Central Zone, a Deployment Zone of 001 ("the
/// Central Deployment Zone"), "never begins being a Scoring Zone".
#[test]
fn crossover_assault_deploys_in_the_central_zone_too() {
    let text = table(
        "crossover-assault",
        &[&["gata", "maximus"], &["parvati", "wild-bill"], &["major-lunah", "miyamoto-mushashi"]],
    );
    // Prime Time's two Scoring Zones are chosen first (two Decisions).
    let (_, first) = next_options("xa-0", &text, "");
    let (prompt, options) = next_options("xa-1", &text, "1, 1");
    assert!(prompt.contains("Deploy where?"), "{prompt} ({first:?})");
    let central = zones("crossover-assault", ZoneKind::Central).concat();
    assert!(options.iter().any(|o| central.contains(o)), "a Central Zone space is offered: {options:?}");
}
