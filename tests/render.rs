//! Pictures: `arena render map|situation|replay` as SVG, held by
//! snapshots and parsed with an XML parser; the replay's positions (built
//! from its events) agree with the engine's own state at every Decision; the
//! Line of Sight overlay agrees with the geometry; text is escaped.

use arena_engine::render::{Scene, svg};
use arena_engine::rules::decision::{Controller, Decision};
use arena_engine::rules::geometry::{self, Hex, Sight};
use arena_engine::rules::state::View;
use arena_tests::{arena, tests_dir};
use quick_xml::events::Event as Xml;
use std::collections::BTreeMap;

/// One element of a parsed SVG: its name, attributes and the text directly in it.
#[derive(Debug)]
struct El {
    name: String,
    attrs: BTreeMap<String, String>,
    text: String,
}

/// Parse an SVG document with quick-xml: panics unless it is well-formed XML
/// (matching end tags, one root `svg` element); returns its elements in order.
fn parse(svg: &str) -> Vec<El> {
    let mut reader = quick_xml::Reader::from_str(svg);
    let mut out: Vec<El> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut roots = 0;
    loop {
        let event = reader.read_event().unwrap_or_else(|e| panic!("not XML at {}: {e}", reader.buffer_position()));
        let el = |e: &quick_xml::events::BytesStart| El {
            name: String::from_utf8_lossy(e.name().as_ref()).into_owned(),
            attrs: e
                .attributes()
                .map(|a| {
                    let a = a.expect("a well-formed attribute");
                    let v = a.unescape_value().expect("an escaped attribute value").into_owned();
                    (String::from_utf8_lossy(a.key.as_ref()).into_owned(), v)
                })
                .collect(),
            text: String::new(),
        };
        match event {
            Xml::Start(e) => {
                if open.is_empty() {
                    roots += 1;
                }
                out.push(el(&e));
                open.push(out.len() - 1);
            }
            Xml::Empty(e) => {
                assert!(!open.is_empty(), "an element outside the root");
                out.push(el(&e));
            }
            Xml::End(_) => {
                open.pop();
            }
            Xml::Text(t) => {
                let text = t.decode().expect("UTF-8 text").into_owned();
                let text = quick_xml::escape::unescape(&text).expect("escaped text").into_owned();
                if let Some(&i) = open.last() {
                    out[i].text.push_str(&text);
                }
            }
            // quick-xml reports `&lt;` and the like apart from the text around them.
            Xml::GeneralRef(r) => {
                let name = r.decode().expect("UTF-8 reference").into_owned();
                let ch = quick_xml::escape::resolve_predefined_entity(&name)
                    .map(String::from)
                    .or_else(|| r.resolve_char_ref().ok().flatten().map(String::from))
                    .unwrap_or_else(|| panic!("unknown entity &{name};"));
                if let Some(&i) = open.last() {
                    out[i].text.push_str(&ch);
                }
            }
            Xml::Eof => break,
            _ => {}
        }
    }
    assert!(open.is_empty(), "unclosed elements");
    assert_eq!(roots, 1, "one root element");
    assert_eq!(out[0].name, "svg");
    out
}

fn texts(els: &[El], name: &str) -> Vec<String> {
    els.iter().filter(|e| e.name == name).map(|e| e.text.clone()).collect()
}

#[test]
fn map_picture() {
    let run = arena(&["render", "map", "hexadome-a"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let els = parse(&run.stdout);
    let spaces: Vec<&El> = els.iter().filter(|e| e.name == "polygon" && e.attrs.contains_key("data-q")).collect();
    assert_eq!(spaces.len(), 271, "a board of radius 9 has 271 spaces");
    assert_eq!(spaces.iter().filter(|e| e.attrs["fill"] == "#4b4b4b").count(), 28, "28 Blocked spaces");
    assert_eq!(els.iter().filter(|e| e.attrs.get("class").is_some_and(|c| c == "barrier")).count(), 5, "5 Barriers");
    let labels = texts(&els, "text");
    for z in ["Zone 1", "Zone 2", "Zone 3", "Zone 4", "Zone 5", "Zone 6", "Central"] {
        assert!(labels.iter().any(|t| t == z), "no label {z}: {labels:?}");
    }
    // A space's tooltip names its zone.
    assert!(texts(&els, "title").iter().any(|t| t == "[0, -7] zone-1"));
    insta::assert_snapshot!("map_hexadome_a", run.stdout);
}

#[test]
fn map_picture_with_coordinates_and_the_text_board() {
    let run = arena(&["render", "map", "assault", "--coordinates"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let els = parse(&run.stdout);
    let labels = texts(&els, "text");
    assert!(labels.iter().any(|t| t == "-9,0") && labels.iter().any(|t| t == "0,0"), "coordinates are written");
    assert!(labels.iter().any(|t| t.ends_with("(Scoring)")), "a Scenario's map shows its Scoring Zone");
    let text = arena(&["render", "map", "assault", "--format", "text"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    insta::assert_snapshot!("map_assault_text", text.stdout);
}

/// At a Prime Time table each seat has its own letters (`A-M`, `a-m`, `N-Z`,
/// `n-z`): player 2's and player 3's Characters never share one.
#[test]
fn text_board_letters_are_distinct_at_three_players() {
    let file = tests_dir().join("situations/prime-time/disengage-enemies-of-two-teams.toml");
    let run = arena(&["render", "situation", file.to_str().unwrap(), "--format", "text"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let legend: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with("  ") && l.contains(" [")).collect();
    assert_eq!(
        legend.iter().map(|l| &l[2..3]).collect::<Vec<_>>(),
        ["A", "a", "N"],
        "player 1, 2 and 3 each from their own range:\n{legend:#?}"
    );
    let key = arena_engine::render::text::key(3);
    assert!(key.contains("A-M player 1  a-m player 2  N-Z player 3"), "{key}");
    assert!(arena_engine::render::text::key(2).contains("A-Z player 1  a-z player 2  1-9"));
}

#[test]
fn situation_picture() {
    let file = tests_dir().join("render/position.toml");
    let run = arena(&["render", "situation", file.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let els = parse(&run.stdout);
    let figures: Vec<&str> = els.iter().filter_map(|e| e.attrs.get("data-id").map(String::as_str)).collect();
    assert_eq!(figures, ["tinker", "gata", "major-lunah", "8-ball", "spider-drone-1", "running-projectile-1"]);
    let legend = texts(&els, "text").join("\n");
    assert!(legend.contains("ML major-lunah [2, -1] Damage 2/"), "{legend}");
    assert!(legend.contains("stunned (red), poisoned (blue)"), "{legend}");
    assert!(legend.contains("active, 3 AP"), "{legend}");
    assert!(legend.contains("player 1 1 VP, player 2 3 VP"), "{legend}");
    let tips = texts(&els, "title");
    assert!(tips.iter().any(|t| t == "Special Space [2, 1]: damage"), "{tips:?}");
    assert!(tips.iter().any(|t| t == "Special Space [-1, -2], face down"), "{tips:?}");
    insta::assert_snapshot!("situation_position", run.stdout);
}

#[test]
fn replay_step_picture() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("game.json");
    let sim = arena(&["sim", "assault", "--seed", "3", "--replay", replay.to_str().unwrap()]);
    assert!(sim.code <= 1, "{}", sim.stderr);
    let narrative: Vec<&str> = sim.stdout.lines().collect();
    // The first Move of the game: the picture after it has the mover on its new space.
    let n = narrative.iter().position(|l| l.contains(" moves [")).expect("someone moves");
    let run = arena(&["render", "replay", replay.to_str().unwrap(), "--event", &n.to_string()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let els = parse(&run.stdout);
    let (who, to) = {
        let line = narrative[n];
        let who = line.split(' ').next().unwrap();
        let to = line.rsplit("-> ").next().unwrap();
        (who.to_string(), to.to_string())
    };
    let legend = texts(&els, "text").join("\n");
    assert!(legend.contains(&format!("{who} {to}")), "{who} is not shown at {to}:\n{legend}");
    assert!(texts(&els, "text")[0].contains(&format!("event {n}: {}", narrative[n])), "the title names the event");
    insta::assert_snapshot!("replay_step", run.stdout);
    // Past the end: a usage error that says how many events there are.
    let past = arena(&["render", "replay", replay.to_str().unwrap(), "--event", "100000"]);
    assert_eq!(past.code, 2);
    assert!(past.stderr.contains(&format!("the replay has {} events", narrative.len())), "{}", past.stderr);
    assert!(!run.stderr.contains("warning"), "the recorded game draws without a warning: {}", run.stderr);
    // An edited file plays another game: the picture says so.
    let mut file: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    file["answers"][3] = serde_json::json!(999);
    let edited = dir.path().join("edited.json");
    std::fs::write(&edited, file.to_string()).unwrap();
    let drawn = arena(&["render", "replay", edited.to_str().unwrap(), "--event", "10"]);
    assert_eq!(drawn.code, 0, "{}", drawn.stderr);
    assert!(drawn.stderr.contains("differs from the one it recorded at event"), "{}", drawn.stderr);
}

#[test]
fn sight_overlay_agrees_with_the_geometry() {
    let run = arena(&["render", "map", "hexadome-a", "--sight-from=0,-4"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let els = parse(&run.stdout);
    let loaded = arena_engine::load::load(&[tests_dir().join("../content")], &Default::default());
    let map = &loaded.content.maps["hexadome-a"].value;
    let blocked: Vec<Hex> = map.blocked.iter().map(|b| Hex::new(b[0].into(), b[1].into())).collect();
    let from = Hex::new(0, -4);
    let mut seen = BTreeMap::new();
    for e in els.iter().filter(|e| e.attrs.contains_key("data-sight")) {
        let h = Hex::new(e.attrs["data-q"].parse().unwrap(), e.attrs["data-r"].parse().unwrap());
        let want = geometry::line_of_sight(from, h, |x| blocked.contains(&x));
        let name = match want {
            Sight::Clear => "Clear",
            Sight::Limited => "Limited",
            Sight::Blocked => "Blocked",
        };
        assert_eq!(e.attrs["data-sight"], name, "Line of Sight from {from:?} to {h:?}");
        *seen.entry(name).or_insert(0) += 1;
    }
    assert_eq!(seen.values().sum::<usize>(), 271 - 28 - 1, "every space but the Blocked ones and the viewer's");
    assert!(seen.len() == 3, "all three conditions occur on this map: {seen:?}");
    // The Range numbers are routes around Blocked spaces and Barriers: [-1, -4]
    // is Adjacent (1); [3, -4] is 3 away, with [1, -4] and [2, -4] Blocked between.
    let tip =
        |q: i32, r: i32| texts(&els, "title").into_iter().find(|t| t.starts_with(&format!("[{q}, {r}] "))).unwrap();
    assert_eq!(tip(-1, -4), "[-1, -4] Clear Line of Sight, Range 1");
    let barriers: Vec<Hex> = map.barriers.iter().map(|b| Hex::new(b[0].into(), b[1].into())).collect();
    let free = |h: Hex| h.within(9) && !blocked.contains(&h) && !barriers.contains(&h);
    let route = geometry::path_distance(from, Hex::new(3, -4), free, 40).unwrap();
    assert!(route > 3, "the route goes round the wall");
    assert!(tip(3, -4).ends_with(&format!("Range {route}")), "{}", tip(3, -4));
    // A bad space is a usage error.
    assert_eq!(arena(&["render", "map", "hexadome-a", "--sight-from", "x"]).code, 2);
    assert_eq!(arena(&["render", "map", "hexadome-a", "--sight-from=20,0"]).code, 2);
    // Its distance from the centre (2^32) wrapped to 0: it passed for the
    // centre, and the overlay asked for 9.2e18 bytes.
    let far = arena(&["render", "map", "hexadome-a", "--sight-from=-2147483648,-2147483648"]);
    assert_eq!(far.code, 2, "{}", far.stderr);
    assert!(far.stderr.contains("[-2147483648, -2147483648] is off the board (radius 9)"), "{}", far.stderr);
    let unknown = arena(&["render", "map", "no-such-map"]);
    assert_eq!(unknown.code, 2);
    assert!(unknown.stderr.contains("maps: hexadome-a"), "{}", unknown.stderr);
}

#[test]
fn text_and_attributes_are_escaped() {
    let loaded = arena_engine::load::load(&[tests_dir().join("../content")], &Default::default());
    let mut scene = Scene::of_map(&loaded.content.maps["hexadome-b"].value);
    scene.title = "<script>alert(1)</script> & \"quotes\" 'too'".into();
    scene.status = vec!["Round 1 < 2 > 0 & more".into()];
    let out = svg::to_svg(&scene, &Default::default());
    assert!(!out.contains("<script>"), "markup in text is escaped");
    let els = parse(&out);
    let t = texts(&els, "text");
    assert_eq!(t[0], scene.title, "the title reads back as written");
    assert!(t.contains(&scene.status[0]));
}

/// A greedy player that, at every Decision, compares the position built from
/// the events so far as its seat knows them ([`Scene::of_events`] of the
/// events it sees whole) with the position its view shows ([`Scene::of_view`]).
struct Compare {
    inner: arena_engine::players::GreedyPlayer,
    mismatches: Vec<String>,
    checked: usize,
}

fn positions(s: &Scene) -> Vec<String> {
    let mut v: Vec<String> = s
        .figures
        .iter()
        // Minions set aside at setup never appear in the events.
        .filter(|f| f.space().is_some() || f.kind == arena_engine::render::FigureKind::Character)
        .map(|f| {
            let mut tokens: Vec<String> = f.tokens.iter().map(|(s, side)| format!("{s}:{side:?}")).collect();
            tokens.sort();
            format!("{} {:?} damage {} {:?} player {}", f.id, f.location, f.damage, tokens, f.player)
        })
        .collect();
    v.sort();
    v.push(format!("scoring zones {:?}", s.scoring_zones));
    v.push(format!("markers {:?} smoke {:?}", s.special_spaces, s.smoke));
    v
}

impl Controller for Compare {
    fn decide(&mut self, d: &Decision, view: &View<'_>) -> usize {
        let state = Scene::of_view(view).map(|s| positions(&s));
        let seen: Vec<arena_engine::rules::event::Event> = view.events().filter_map(|e| e.event().cloned()).collect();
        let events = Scene::of_events(view.content, &seen).map(|s| positions(&s));
        self.checked += 1;
        if state != events && self.mismatches.len() < 3 {
            self.mismatches.push(format!(
                "after event {}: {:?}\nstate:  {state:?}\nevents: {events:?}",
                view.event_count(),
                view.events().last().map(|e| e.to_string())
            ));
        }
        self.inner.decide(d, view)
    }
}

#[test]
fn replay_positions_agree_with_the_engine_state_at_every_decision() {
    let loaded = arena_engine::load::load(&[tests_dir().join("../content")], &Default::default());
    let content = std::sync::Arc::new(loaded.content.clone());
    let runtime = arena_engine::script::runtime::Runtime::new(
        content.clone(),
        loaded.script_set.clone(),
        arena_engine::script::runtime::Limits::default(),
    )
    .unwrap();
    let mut checked = 0;
    for (setup, seed) in [("assault", 1), ("random-teams:assault", 2), ("random-teams:assault", 5)] {
        let setup = match setup.strip_prefix("random-teams:") {
            Some(_) => arena_engine::sim::replay_setup(&content, setup, seed).unwrap(),
            None => arena_engine::sim::replay_setup(
                &content,
                &arena_engine::watch::setup_for(&content, setup).unwrap(),
                seed,
            )
            .unwrap(),
        };
        let mut a = Compare { inner: Default::default(), mismatches: vec![], checked: 0 };
        let mut b = Compare { inner: Default::default(), mismatches: vec![], checked: 0 };
        arena_engine::sim::play(&content, &runtime, &setup, vec![&mut a, &mut b]).unwrap();
        let mismatches: Vec<String> = a.mismatches.into_iter().chain(b.mismatches).collect();
        assert!(mismatches.is_empty(), "seed {seed}:\n{}", mismatches.join("\n\n"));
        checked += a.checked + b.checked;
    }
    assert!(checked > 100, "only {checked} Decisions were compared");
}

/// The Line of Sight overlay is bounded: on a schema-valid board of radius
/// 255 (it ran past 120 s; its cost grows as the fourth power of the radius)
/// it is refused with the reason, at once, and so is one from a space off the
/// board (which the viewer's Map tab passes straight in); on a board of the
/// largest radius drawn, it is drawn.
#[test]
fn sight_overlay_on_a_huge_board_is_refused_at_once() {
    let map = |radius: u32| -> arena_engine::model::Map {
        serde_json::from_value(serde_json::json!({ "id": "big", "name": "Big", "radius": radius })).unwrap()
    };
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let huge = Scene::of_map(&map(255));
        let cells = huge.sight_from(Hex::new(0, 0)).len();
        let far = Scene::of_map(&map(9)).sight_from(Hex::new(i32::MIN, i32::MIN)).len();
        let _ = done.send((huge.sight_refused(Hex::new(0, 0)), cells, far));
    });
    let (why, cells, far) =
        finished.recv_timeout(std::time::Duration::from_secs(20)).expect("still drawing after 20 s");
    assert_eq!(
        why.as_deref(),
        Some("the board's radius is 255: Line of Sight is drawn on boards of radius 32 or less")
    );
    assert_eq!((cells, far), (0, 0));
    let svg = svg::to_svg(
        &Scene::of_map(&map(255)),
        &arena_engine::render::Options { sight_from: Some(Hex::new(0, 0)), ..Default::default() },
    );
    assert!(
        svg.contains("No Line of Sight drawn: the board&apos;s radius is 255")
            || svg.contains("No Line of Sight drawn: the board's radius is 255")
    );
    let largest = Scene::of_map(&map(arena_engine::render::MAX_SIGHT_RADIUS));
    assert_eq!(largest.sight_refused(Hex::new(0, 0)), None);
}

/// `arena render chart FILE` on a fixture report (real output of arena sim
/// or arena tune, under `fixtures/charts/`): exit 0 and the SVG.
fn chart_of(file: &str) -> String {
    let r = arena(&["render", "chart", &format!("fixtures/charts/{file}")]);
    assert_eq!(r.code, 0, "{file}: {}", r.stderr);
    assert!(r.stdout.starts_with("<svg"), "{}", &r.stdout[..r.stdout.len().min(200)]);
    r.stdout
}

#[test]
fn a_paired_comparison_is_a_forest_plot_with_a_row_per_seat_and_character() {
    let svg = chart_of("compare-maximus-rebalance.json");
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(tests_dir().join("fixtures/charts/compare-maximus-rebalance.json")).unwrap(),
    )
    .unwrap();
    let rows = report["report"]["seats"].as_array().unwrap().len()
        + report["report"]["characters"]
            .as_object()
            .unwrap()
            .values()
            .filter(|r| r["games"].as_u64() > Some(0))
            .count();
    assert_eq!(svg.matches("<circle").count(), rows, "one dot per row");
    assert!(svg.contains("Paired comparison: changed − base win rate, first-game"), "{svg}");
    // The Character the change alters (maximus-rebalance: Maximus's Speed) is marked, first of the Characters.
    assert_eq!(report["changed_characters"], serde_json::json!(["maximus"]));
    let (maximus, others) = (svg.find("maximus (changed)").unwrap(), svg.find(">8-ball").unwrap());
    assert!(maximus < others, "listed first");
    // Each row's figure is the report's difference and interval, in points.
    let d = &report["report"]["seats"][0];
    let figure = format!(
        "{:+.1} [{:+.1}, {:+.1}]",
        d["difference"].as_f64().unwrap() * 100.0,
        d["low"].as_f64().unwrap() * 100.0,
        d["high"].as_f64().unwrap() * 100.0
    );
    assert!(svg.contains(&figure), "{figure} in the chart");
}

#[test]
fn impact_is_a_forest_plot_of_what_each_ability_is_worth() {
    let svg = chart_of("impact-hexx3r.json");
    assert!(svg.contains("What each ability of hexx3r is worth"));
    assert!(svg.contains("gotcha (Action)") && svg.contains("(Switch)"), "{svg}");
}

#[test]
fn a_tune_is_a_curve_with_the_band_and_the_answer_ringed() {
    let svg = chart_of("tune-duel.json");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tests_dir().join("fixtures/charts/tune-duel.json")).unwrap())
            .unwrap();
    let reads = report["reads"].as_array().unwrap().len();
    // A dot per value read (none read twice here), and the answer ringed once.
    assert_eq!(svg.matches("r=\"4\"").count(), reads);
    assert_eq!(svg.matches("r=\"9\"").count(), 1);
    assert!(svg.contains("fill=\"#dcfce7\""), "the band shaded");
    assert!(svg.contains("character:wild-bill.hit_points (was 1): reached"), "{svg}");
}

#[test]
fn a_chart_of_what_is_not_a_report_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\n  \"kind\": \"tune\",\n  oops\n}\n").unwrap();
    let r = arena(&["render", "chart", broken.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("broken.json:3:3: not JSON"), "{}", r.stderr);
    let other = dir.path().join("other.json");
    std::fs::write(&other, "{\"kind\": \"show\"}").unwrap();
    let r = arena(&["render", "chart", other.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("a `show` report has no chart"), "{}", r.stderr);
    std::fs::write(&other, "{\"version\": 99, \"kind\": \"sim-compare\"}").unwrap();
    let r = arena(&["render", "chart", other.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("JSON version 99, newer than this arena's"), "{}", r.stderr);
    std::fs::write(&other, "{\"kind\": \"tune\", \"fields\": []}").unwrap();
    let r = arena(&["render", "chart", other.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no `reads`"), "{}", r.stderr);
    let r = arena(&["render", "chart", "fixtures/charts/none.json"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}
