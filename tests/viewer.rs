//! `arena serve` (docs/viewer.md): the viewer listens on the loopback address only
//! and refuses paths outside its packs; and, in a real headless Chromium
//! (Debian's `chromium`, which `.ci/run` installs), the page steps a replay,
//! follows a saved pack, and charts a balance batch. Screenshots go to `target/viewer-screenshots/`
//! for a person to look at.

use arena::serve::{Config, Viewer, start};
use arena_tests::tests_dir;
use arena_tests::watching::copy_dir;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A copy of the core pack in a temporary folder, so the test can save into it.
fn core_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("aristeia-core");
    copy_dir(&tests_dir().join("../content/aristeia-core"), &root);
    (dir, root)
}

fn viewer(root: &Path) -> Viewer {
    start(Config {
        paths: vec![root.to_path_buf()],
        port: 0,
        replays: vec![],
        debounce_ms: Some(50),
        ..Config::default()
    })
    .unwrap()
}

/// The status code and body of one request, sent as raw bytes (this test
/// needs requests no client library would send, such as an unnormalised path).
fn request(v: &Viewer, method: &str, target: &str, headers: &[&str]) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(v.addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    // HTTP/1.0: the whole body at once, never chunked.
    let mut text = format!("{method} {target} HTTP/1.0\r\nConnection: close\r\n");
    if !headers.iter().any(|h| h.starts_with("Host:")) {
        text.push_str(&format!("Host: {}\r\n", v.addr()));
    }
    for h in headers {
        text.push_str(&format!("{h}\r\n"));
    }
    text.push_str("Content-Length: 0\r\n\r\n");
    s.write_all(text.as_bytes()).unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).unwrap();
    let code = reply.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = reply.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (code, body)
}

#[test]
fn serves_on_loopback_only_and_refuses_paths_outside_the_packs() {
    let (dir, root) = core_copy();
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "not for the browser").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&secret, root.join("maps/.link")).unwrap();
    let v = viewer(&root);
    assert!(v.addr().ip().is_loopback(), "{}", v.addr());
    let get = |target: &str| request(&v, "GET", target, &[]);
    // A file of the pack, by pack id and path.
    let (code, body) = get("/api/source?pack=aristeia-core&path=maps%2Fhexadome.toml");
    assert_eq!(code, 200, "{body}");
    assert!(body.contains("id = \"hexadome-a\""));
    // Out of the pack: up and out, absolute, through a link, encoded.
    for path in ["..%2Fsecret.txt", "maps%2F..%2F..%2Fsecret.txt", "%2Fetc%2Fpasswd", "maps%2F.link", "..", "C:%5Cx"] {
        let (code, body) = get(&format!("/api/source?pack=aristeia-core&path={path}"));
        assert_eq!(code, 403, "{path}: {body}");
        assert!(!body.contains("not for the browser"));
    }
    assert_eq!(get("/api/source?pack=no-such-pack&path=pack.toml").0, 404);
    assert_eq!(get("/api/source?pack=aristeia-core&path=maps%2Fnone.toml").0, 404);
    // Paths that are not routes are not files either.
    assert_eq!(get("/../secret.txt").0, 404);
    assert_eq!(get("/%2e%2e/secret.txt").0, 404);
    // Another site's name for this address is refused; POST needs the viewer's header.
    assert_eq!(request(&v, "GET", "/api/status", &["Host: attacker.example"]).0, 403);
    assert_eq!(request(&v, "POST", "/api/replays?setup=assault&seed=1", &[]).0, 403);
    // The packs are only read.
    let before = arena_tests::tree_fingerprint(dir.path());
    assert_eq!(get("/api/map.svg?id=hexadome-a&coords=1&from=0,0").0, 200);
    assert_eq!(request(&v, "POST", "/api/replays?setup=assault&seed=2", &["X-Arena: 1"]).0, 200);
    assert_eq!(arena_tests::tree_fingerprint(dir.path()), before);
    v.stop();
}

/// Answer the first option of every Decision the browser seat gets until the
/// game ends; checks each is `player`'s and returns the game's last line and
/// how many Decisions were answered.
fn play_seat_to_the_end(v: &Viewer, player: &str) -> (String, usize) {
    let deadline = Instant::now() + Duration::from_secs(300);
    let (mut answered, mut last_asked) = (0, 0);
    loop {
        assert!(Instant::now() < deadline, "the game did not end");
        let (_, body) = request(v, "GET", "/api/play", &[]);
        let g: serde_json::Value = serde_json::from_str(&body).unwrap();
        if g["over"] == true {
            assert!(g["error"].is_null(), "{}", g["error"]);
            let last = g["narrative"].as_array().unwrap().last().unwrap().as_str().unwrap().to_string();
            assert!(last.starts_with("== Game over"), "{last}");
            return (last, answered);
        }
        let asked = g["asked"].as_u64().unwrap();
        if g["decision"].is_object() && asked != last_asked {
            assert_eq!(g["decision"]["player"], player, "the person plays {player} only");
            assert!(g["board"].as_str().unwrap().starts_with("<svg"));
            last_asked = asked;
            answered += 1;
            assert_eq!(request(v, "POST", "/api/play/answer?index=0", &["X-Arena: 1"]).0, 200);
        } else {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn the_seat_plays_a_game_from_the_browser_api() {
    let (_dir, root) = core_copy();
    let v = viewer(&root);
    let post = |t: &str| request(&v, "POST", t, &["X-Arena: 1"]);
    let (code, body) = post("/api/play/start?setup=assault&seed=4&seat=2");
    assert_eq!(code, 200, "{body}");
    let (_, answered) = play_seat_to_the_end(&v, "player 2");
    assert!(answered > 10, "only {answered} Decisions reached the browser seat");
    v.stop();
}

/// Prime Time in the viewer: a greedy game and a browser seat at a 3-4
/// player table (`001 § Preparation`), from a Scenario's name.
#[test]
fn the_viewer_plays_prime_time_tables() {
    let (_dir, root) = core_copy();
    let prime_time = tests_dir().join("../content/aristeia-prime-time");
    let v = start(Config {
        paths: vec![root, prime_time],
        port: 0,
        replays: vec![],
        debounce_ms: Some(50),
        ..Config::default()
    })
    .unwrap();
    let post = |t: &str| request(&v, "POST", t, &["X-Arena: 1"]);
    // A greedy game of four: every seat is in the narrative.
    let (code, body) = post("/api/replays?setup=wanted&seed=3&seats=4");
    assert_eq!(code, 200, "{body}");
    let r: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(r["seats"], 4);
    let name = r["name"].as_str().unwrap().to_string();
    let (code, body) = request(&v, "GET", &format!("/api/replay?name={name}"), &[]);
    assert_eq!(code, 200, "{body}");
    let events: serde_json::Value = serde_json::from_str(&body).unwrap();
    let lines: Vec<&str> = events["events"].as_array().unwrap().iter().filter_map(|e| e.as_str()).collect();
    assert!(lines.last().unwrap().contains("player 4 "), "{:?}", lines.last());
    // Bad tables and seats are refused.
    assert_eq!(post("/api/replays?setup=wanted&seats=5").0, 400);
    assert_eq!(post("/api/play/start?setup=wanted&seats=3&seat=4").0, 400);
    // The Scenario's own table (3) with the person in seat 3.
    let (code, body) = post("/api/play/start?setup=wanted&seed=2&seat=3");
    assert_eq!(code, 200, "{body}");
    let started: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!((started["seats"].as_u64(), started["seat"].as_u64()), (Some(3), Some(3)));
    let (last, answered) = play_seat_to_the_end(&v, "player 3");
    assert!(last.contains("player 3 "), "every seat is named: {last}");
    assert!(answered > 5, "only {answered} Decisions reached the browser seat");
    v.stop();
}

fn chromium() -> PathBuf {
    for name in ["chromium", "chromium-browser"] {
        for dir in std::env::var("PATH").unwrap_or_default().split(':') {
            let p = Path::new(dir).join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!("the viewer's browser test needs Chromium: `apt-get install chromium` (.ci/run installs it)");
}

fn screenshots() -> PathBuf {
    let dir = tests_dir().join("../target/viewer-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Evaluate `js` in the page until it returns `true`, or panic after `secs`.
fn wait_for(tab: &headless_chrome::Tab, js: &str, secs: u64, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let ok = tab.evaluate(js, false).ok().and_then(|r| r.value).and_then(|v| v.as_bool()).unwrap_or(false);
        if ok {
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn eval_string(tab: &headless_chrome::Tab, js: &str) -> String {
    tab.evaluate(js, false).unwrap().value.and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
}

fn shot(tab: &headless_chrome::Tab, name: &str) {
    use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
    let png = tab.capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    std::fs::write(screenshots().join(name), png).unwrap();
}

#[test]
fn in_a_browser_the_viewer_steps_a_replay_and_follows_a_saved_pack() {
    let (_dir, root) = core_copy();
    let v = viewer(&root);
    let profile = tempfile::tempdir().unwrap();
    let args: Vec<&std::ffi::OsStr> = [
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    .iter()
    .map(std::ffi::OsStr::new)
    .collect();
    let options = headless_chrome::LaunchOptions {
        headless: true,
        sandbox: false,
        path: Some(chromium()),
        user_data_dir: Some(profile.path().to_path_buf()),
        window_size: Some((1500, 1000)),
        args,
        idle_browser_timeout: Duration::from_secs(300),
        ..Default::default()
    };
    let browser = headless_chrome::Browser::new(options).expect("start headless Chromium");
    let tab = browser.new_tab().unwrap();
    tab.set_default_timeout(Duration::from_secs(120));
    tab.navigate_to(&format!("{}#replay", v.url())).unwrap().wait_until_navigated().unwrap();
    wait_for(&tab, "document.querySelectorAll('#replay-setup option').length > 0", 60, "the content lists");

    // A replay: play a greedy game, then step it forwards and backwards.
    tab.find_element("#replay-new").unwrap().click().unwrap();
    wait_for(&tab, "document.querySelectorAll('#narrative li').length > 10", 240, "the replay's narrative");
    wait_for(&tab, "!!document.querySelector('#replay-board svg')", 60, "the board at event 0");
    let board = |tab: &headless_chrome::Tab| eval_string(tab, "document.querySelector('#replay-board').innerHTML");
    let at_start = board(&tab);
    // Forward to the first Move: the board must differ from the start.
    let first_move = eval_string(
        &tab,
        "String([...document.querySelectorAll('#narrative li')].findIndex(li => / moves \\[/.test(li.textContent)))",
    );
    let first_move: usize = first_move.parse().expect("an event index");
    for _ in 0..first_move {
        tab.find_element("#next").unwrap().click().unwrap();
    }
    wait_for(
        &tab,
        &format!("document.querySelector('#event-no').textContent.startsWith('event {first_move} ')"),
        30,
        "the step",
    );
    wait_for(
        &tab,
        &format!("document.querySelector('#replay-board .title').textContent.includes('event {first_move}:')"),
        60,
        "the board after the steps",
    );
    let moved = board(&tab);
    assert_ne!(at_start, moved, "stepping the replay changes the board");
    assert_eq!(eval_string(&tab, "document.querySelector('#narrative li.now').textContent"), {
        eval_string(&tab, &format!("document.querySelectorAll('#narrative li')[{first_move}].textContent"))
    });
    shot(&tab, "replay-stepped.png");
    tab.find_element("#prev").unwrap().click().unwrap();
    wait_for(
        &tab,
        &format!("document.querySelector('#replay-board .title').textContent.includes('event {}:')", first_move - 1),
        60,
        "a step back",
    );
    assert_ne!(board(&tab), moved, "a step back changes the board again");

    // The map, with a Line of Sight overlay; then a save to the pack redraws it.
    tab.find_element("nav button[data-tab=map]").unwrap().click().unwrap();
    wait_for(&tab, "!!document.querySelector('#map-board svg')", 60, "the map");
    tab.evaluate(
        "document.querySelector('#map-from').value = '0,-4'; document.querySelector('#map-from').onchange()",
        false,
    )
    .unwrap();
    wait_for(
        &tab,
        "document.querySelectorAll('#map-board [data-sight]').length > 200",
        60,
        "the Line of Sight overlay",
    );
    shot(&tab, "map-line-of-sight.png");
    let map_file = root.join("maps/hexadome.toml");
    let text = std::fs::read_to_string(&map_file).unwrap();
    let saved = text.replace("name = \"HexaDome (side A)\"", "name = \"HexaDome (side A, as saved)\"");
    assert_ne!(saved, text);
    std::fs::write(&map_file, saved).unwrap();
    wait_for(
        &tab,
        "document.querySelector('#map-board .title').textContent.includes('as saved')",
        60,
        "the page to follow the save",
    );
    shot(&tab, "map-after-save.png");
    // A broken save: its diagnostics show, and the last good map stays.
    std::fs::write(&map_file, text.replace("radius = 9", "radius = \"nine\"")).unwrap();
    wait_for(&tab, "!document.querySelector('#rejected').hidden", 60, "the rejected save's diagnostics");
    assert!(eval_string(&tab, "document.querySelector('#rejected').textContent").contains("hexadome.toml"));
    assert!(eval_string(&tab, "document.querySelector('#map-board .title').textContent").contains("as saved"));
    shot(&tab, "map-rejected-save.png");

    // The Balance tab: the page POSTs the batch (with X-Arena; Chromium adds
    // its own Origin and Sec-Fetch-Site) and draws the charts it answers.
    tab.find_element("nav button[data-tab=balance]").unwrap().click().unwrap();
    tab.evaluate(
        "document.querySelector('#balance-scenario').value = 'assault'; document.querySelector('#balance-games').value = '2'",
        false,
    )
    .unwrap();
    tab.find_element("#balance-run").unwrap().click().unwrap();
    wait_for(&tab, "!!document.querySelector('#balance-chart svg')", 120, "the balance charts");
    assert!(eval_string(&tab, "document.querySelector('#balance-chart').textContent").contains("2 greedy games"));
    assert_eq!(eval_string(&tab, "document.querySelector('#balance-note').textContent"), "");
    shot(&tab, "balance.png");

    // The Play tab: a Decision's options on spaces are yellow numbered
    // discs on the board (they were black on black: a CSS rule painted the
    // disc like its number), and clicking one answers it.
    tab.find_element("nav button[data-tab=play]").unwrap().click().unwrap();
    tab.find_element("#play-start").unwrap().click().unwrap();
    let mut marked = false;
    for _ in 0..20 {
        wait_for(&tab, "document.querySelectorAll('#play-decision button').length > 0", 120, "a Decision for the seat");
        if eval_string(&tab, "String(document.querySelectorAll('#play-board [data-option]').length)") != "0" {
            marked = true;
            break;
        }
        let asked = eval_string(
            &tab,
            "document.querySelector('#play-decision .prompt').textContent + document.querySelectorAll('#play-narrative li').length",
        );
        tab.find_element("#play-decision button").unwrap().click().unwrap();
        wait_for(
            &tab,
            &format!(
                "(document.querySelector('#play-decision .prompt')?.textContent ?? '') + document.querySelectorAll('#play-narrative li').length !== {asked:?}"
            ),
            120,
            "the next Decision",
        );
    }
    assert!(marked, "no Decision with options on the board");
    // The seat's own hand is drawn as cards beside the question (4 Tactics
    // drawn at the setup, 000 § Preparation; a Mulligan asks with it shown).
    let cards = eval_string(&tab, "String(document.querySelectorAll('#play-hand .card').length)");
    assert!(cards.parse::<usize>().is_ok_and(|n| n >= 1), "no hand drawn: {cards}");
    assert!(
        !eval_string(&tab, "document.querySelector('#play-hand .card p').textContent").is_empty(),
        "a card has its text"
    );
    let disc = eval_string(&tab, "getComputedStyle(document.querySelector('#play-board [data-option] circle')).fill");
    assert_eq!(disc, "rgb(253, 224, 71)", "the option disc is painted yellow, not as its number");
    let number = eval_string(&tab, "getComputedStyle(document.querySelector('#play-board [data-option] text')).fill");
    assert_eq!(number, "rgb(17, 17, 17)", "its number is dark on it");
    shot(&tab, "play-options-on-the-board.png");
    let before = eval_string(
        &tab,
        "String(document.querySelectorAll('#play-narrative li').length) + document.querySelector('#play-decision .prompt').textContent",
    );
    tab.evaluate(
        "[...document.querySelectorAll('#play-board [data-option]')].find(m => !m.dataset.option.includes(',')).dispatchEvent(new MouseEvent('click', {bubbles: true}))",
        false,
    )
    .unwrap();
    wait_for(
        &tab,
        &format!(
            "String(document.querySelectorAll('#play-narrative li').length) + (document.querySelector('#play-decision .prompt')?.textContent ?? '') !== {before:?}"
        ),
        120,
        "the clicked option to be answered",
    );
    v.stop();
}
