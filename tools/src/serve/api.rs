//! The viewer's routes: the page and its assets, the content, pictures of maps
//! and replays, a pack's files (inside the pack only), balance charts, and
//! the browser seat. Every answer is built from the live snapshot of the
//! moment; nothing here writes a file.

use super::*;
use arena_engine::render::{self, Options, Scene};
use arena_engine::watch::Snapshot;
use serde_json::json;
use std::path::Path;

const INDEX: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/style.css");

/// Most games one balance chart plays.
const MAX_GAMES: u64 = 2000;

pub(crate) struct Reply {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
}

impl Reply {
    fn ok(content_type: &'static str, body: impl Into<Vec<u8>>) -> Reply {
        Reply { status: 200, content_type, body: body.into() }
    }

    pub(super) fn json(v: serde_json::Value) -> Reply {
        Reply::ok("application/json", v.to_string())
    }

    fn svg(s: String) -> Reply {
        Reply::ok("image/svg+xml", s)
    }

    pub(super) fn error(status: u16, message: impl Into<String>) -> Reply {
        Reply { status, content_type: "text/plain; charset=utf-8", body: message.into().into_bytes() }
    }
}

/// Answer one request.
pub(super) fn handle(state: &State, request: tiny_http::Request) {
    let reply = route(state, &request);
    let mut response = tiny_http::Response::from_data(reply.body).with_status_code(reply.status);
    for (k, v) in
        [("Content-Type", reply.content_type), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")]
    {
        if let Ok(h) = tiny_http::Header::from_bytes(k, v) {
            response = response.with_header(h);
        }
    }
    let _ = request.respond(response);
}

/// Whether the request names this machine as its host: a page of another
/// site that got its name pointed at 127.0.0.1 (DNS rebinding) is refused.
fn local_host(request: &tiny_http::Request) -> bool {
    request.headers().iter().filter(|h| h.field.equiv("Host")).all(|h| {
        let v = h.value.as_str();
        let host = v.rsplit_once(':').map_or(v, |(h, _)| h);
        matches!(host, "127.0.0.1" | "localhost" | "[::1]")
    })
}

fn route(state: &State, request: &tiny_http::Request) -> Reply {
    if !local_host(request) {
        return Reply::error(403, "this viewer answers only requests for 127.0.0.1 or localhost");
    }
    let url = request.url();
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let q: BTreeMap<String, String> = form_urlencoded::parse(query.as_bytes()).into_owned().collect();
    let post = *request.method() == tiny_http::Method::Post;
    // A page of another site cannot send this header without a preflight,
    // which is never answered: it cannot start games here.
    if post && !request.headers().iter().any(|h| h.field.equiv("X-Arena")) {
        return Reply::error(403, "POST needs the X-Arena header");
    }
    match (post, path) {
        (false, "/") => Reply::ok("text/html; charset=utf-8", INDEX),
        (false, "/app.js") => Reply::ok("text/javascript; charset=utf-8", APP_JS),
        (false, "/style.css") => Reply::ok("text/css; charset=utf-8", STYLE),
        (false, "/api/status") => status(state),
        (false, "/api/content") => with_snapshot(state, |s| content(state, s)),
        (false, "/api/map.svg") => with_snapshot(state, |s| map_svg(s, &q)),
        (false, "/api/source") => with_snapshot(state, |s| match pack_file(s, get(&q, "pack"), get(&q, "path")) {
            Ok(text) => Reply::ok("text/plain; charset=utf-8", text),
            Err((code, message)) => Reply::error(code, message),
        }),
        (false, "/api/replay") => replay(state, &q),
        (false, "/api/replay.svg") => with_snapshot(state, |s| replay_svg(state, s, &q)),
        (true, "/api/replays") => with_snapshot(state, |s| new_replay(state, s, &q)),
        (false, "/api/balance.svg") => with_snapshot(state, |s| balance_svg(s, &q)),
        (true, "/api/play/start") => seat::start(state, &q),
        (false, "/api/play") => seat::poll(state),
        (true, "/api/play/answer") => seat::answer(state, &q),
        _ => Reply::error(404, format!("no such page: {path}")),
    }
}

fn get<'q>(q: &'q BTreeMap<String, String>, key: &str) -> &'q str {
    q.get(key).map_or("", String::as_str)
}

fn with_snapshot(state: &State, f: impl FnOnce(&Snapshot) -> Reply) -> Reply {
    match state.live.snapshot() {
        Some(s) => f(&s),
        None => Reply::error(503, "no content has loaded clean yet: see /api/status"),
    }
}

fn status(state: &State) -> Reply {
    let s = state.status.lock().map(|s| s.clone()).unwrap_or_default();
    Reply::json(json!(s))
}

fn content(state: &State, snap: &Snapshot) -> Reply {
    let c = &snap.loaded.content;
    let packs: Vec<_> = snap
        .loaded
        .packs
        .iter()
        .map(|p| {
            let files: Vec<String> = snap
                .loaded
                .sources
                .paths()
                .filter_map(|f| f.strip_prefix(&p.root).ok())
                .map(|f| f.to_string_lossy().replace('\\', "/"))
                .collect();
            json!({ "id": p.manifest.id, "version": p.manifest.version.to_string(), "files": files })
        })
        .collect();
    let names = |v: Vec<(String, String)>| {
        v.into_iter().map(|(id, name)| json!({ "id": id, "name": name })).collect::<Vec<_>>()
    };
    let replays: Vec<String> = state.replays.lock().map(|r| r.keys().cloned().collect()).unwrap_or_default();
    Reply::json(json!({
        "generation": snap.generation,
        "packs": packs,
        "maps": names(c.maps.values().map(|m| (m.value.id.clone(), m.value.name.clone())).collect()),
        "scenarios": names(c.scenarios.values().map(|s| (s.value.id.clone(), s.value.name.clone())).collect()),
        "setups": names(c.setups.values().map(|s| (s.value.id.clone(), s.value.name.clone())).collect()),
        "characters": names(c.characters.values().map(|s| (s.value.id.clone(), s.value.name.clone())).collect()),
        "tactics": names(c.tactics.values().map(|s| (s.value.id.clone(), s.value.name.clone())).collect()),
        "replays": replays,
    }))
}

/// `coords=1` and `from=Q,R` as drawing options.
fn options(q: &BTreeMap<String, String>) -> Options {
    Options {
        coordinates: get(q, "coords") == "1",
        sight_from: crate::render::parse_hex(get(q, "from")),
        marks: Vec::new(),
    }
}

fn map_svg(snap: &Snapshot, q: &BTreeMap<String, String>) -> Reply {
    match crate::render::map_scene(&snap.loaded.content, get(q, "id")) {
        Ok(scene) => Reply::svg(render::svg::to_svg(&scene, &options(q))),
        Err(e) => Reply::error(404, e),
    }
}

/// A file of a loaded pack, by the pack's id and a path relative to its
/// folder. Refused (403) when the path is absolute, climbs out (`..`), or
/// leads outside the pack's folder once links are followed; 404 when the
/// pack or file does not exist. Only files inside a pack are ever read.
pub(crate) fn pack_file(snap: &Snapshot, pack: &str, path: &str) -> Result<String, (u16, String)> {
    let Some(p) = snap.loaded.packs.iter().find(|p| p.manifest.id == pack) else {
        return Err((404, format!("no pack `{pack}` is loaded")));
    };
    let rel = Path::new(path);
    if path.is_empty() || !arena_engine::read::path_stays_inside(path) {
        return Err((403, format!("`{path}` is not a path inside pack `{pack}`")));
    }
    let root = p.root.canonicalize().map_err(|e| (404, format!("pack `{pack}`: {e}")))?;
    let file = root.join(rel).canonicalize().map_err(|_| (404, format!("pack `{pack}` has no file `{path}`")))?;
    if !file.starts_with(&root) {
        return Err((403, format!("`{path}` leads outside pack `{pack}`")));
    }
    if !file.is_file() {
        return Err((404, format!("pack `{pack}` has no file `{path}`")));
    }
    arena_engine::read::read_text_limited(&file, arena_engine::read::MAX_TOOL_FILE).map_err(|e| (500, e.to_string()))
}

/// Load a replay file and play it again on the live content.
pub(super) fn add_replay_file(state: &State, file: &Path) -> Result<(), String> {
    let snap = state.live.snapshot().ok_or("no content has loaded clean")?;
    let text =
        arena_engine::read::read_text_limited(file, arena_engine::read::MAX_TOOL_FILE).map_err(|e| e.to_string())?;
    let replay: arena_engine::sim::Replay =
        serde_json::from_str(&text).map_err(|e| format!("not a replay file: {e}"))?;
    let events = crate::render::replay_events(&snap.loaded, &replay)?;
    let name = file.file_stem().map_or("replay".into(), |s| s.to_string_lossy().into_owned());
    state.replays.lock().map_err(|_| "poisoned")?.insert(name, Arc::new(events));
    Ok(())
}

/// The game a `setup=NAME&seats=N` query names, as a replay names it, and its
/// number of seats. `NAME` is a setup or a Scenario. A setup keeps its teams
/// when `seats` is missing or is its own count; otherwise (a Scenario, or
/// another count) the game has random teams at `seats`, by default the
/// Scenario's own table (3 for Prime Time's, `001 § Preparation`).
///
/// # Errors
/// 404 when nothing is called `NAME`; 400 when `seats` is not 2, 3 or 4.
pub(super) fn game_for(
    content: &arena_engine::content::Content,
    q: &BTreeMap<String, String>,
) -> Result<(String, usize), Reply> {
    let name = get(q, "setup");
    let seats = match get(q, "seats") {
        "" => None,
        v => match v.parse::<usize>() {
            Ok(n) if (2..=4).contains(&n) => Some(n),
            _ => return Err(Reply::error(400, format!("`seats` must be 2, 3 or 4, not `{v}`"))),
        },
    };
    if let Some(setup) = content.setups.get(name) {
        let own = setup.value.teams.len();
        return Ok(match seats {
            Some(n) if n != own => (arena_engine::sim::random_teams_name(content, &setup.value.scenario, n), n),
            _ => (name.to_string(), own),
        });
    }
    if let Some(sc) = content.scenarios.get(name) {
        let n = seats.unwrap_or_else(|| arena_engine::rules::game::GameSetup::default_seats(&sc.value));
        return Ok((arena_engine::sim::random_teams_name(content, name, n), n));
    }
    Err(Reply::error(404, format!("no setup and no Scenario is called `{name}`")))
}

fn new_replay(state: &State, snap: &Snapshot, q: &BTreeMap<String, String>) -> Reply {
    let seed: u64 = get(q, "seed").parse().unwrap_or(1);
    let content = snap.content();
    let (game_name, seats) = match game_for(&content, q) {
        Ok(g) => g,
        Err(reply) => return reply,
    };
    let record = (|| {
        let runtime = snap.runtime()?;
        let game = arena_engine::sim::replay_setup(&content, &game_name, seed)?;
        let mut players: Vec<_> = (0..seats).map(|i| arena_engine::sim::Policy::Greedy.controller(seed, i)).collect();
        let seats: Vec<&mut dyn arena_engine::rules::decision::Controller> =
            players.iter_mut().map(|c| c.as_mut() as &mut dyn arena_engine::rules::decision::Controller).collect();
        arena_engine::sim::play(&content, &runtime, &game, seats)
    })();
    match record {
        Ok(r) => {
            let name = format!("{}-seed-{seed}", game_name.replace([':', '@'], "-"));
            if let Ok(mut m) = state.replays.lock() {
                m.insert(name.clone(), Arc::new(r.events));
            }
            Reply::json(json!({ "name": name, "seats": seats }))
        }
        Err(e) => Reply::error(500, e),
    }
}

fn events_of(state: &State, name: &str) -> Option<Arc<Vec<Event>>> {
    state.replays.lock().ok()?.get(name).cloned()
}

fn replay(state: &State, q: &BTreeMap<String, String>) -> Reply {
    match events_of(state, get(q, "name")) {
        Some(events) => {
            let lines: Vec<String> = events.iter().map(ToString::to_string).collect();
            Reply::json(json!({ "name": get(q, "name"), "events": lines }))
        }
        None => Reply::error(404, format!("no replay `{}`", get(q, "name"))),
    }
}

fn replay_svg(state: &State, snap: &Snapshot, q: &BTreeMap<String, String>) -> Reply {
    let Some(events) = events_of(state, get(q, "name")) else {
        return Reply::error(404, format!("no replay `{}`", get(q, "name")));
    };
    let n: usize = get(q, "event").parse().unwrap_or(0);
    if n >= events.len() {
        return Reply::error(404, format!("the replay has {} events", events.len()));
    }
    match Scene::of_events(&snap.loaded.content, &events[..=n]) {
        Ok(scene) => Reply::svg(render::svg::to_svg(&scene, &options(q))),
        Err(e) => Reply::error(500, e),
    }
}

fn balance_svg(snap: &Snapshot, q: &BTreeMap<String, String>) -> Reply {
    let scenario = get(q, "scenario");
    let number = |key: &str, default: u64| match get(q, key) {
        "" => Ok(default),
        v => v.parse::<u64>().map_err(|_| format!("`{key}` must be a whole number, not `{v}`")),
    };
    let (games, seed) = match (number("games", 20), number("seed", 1)) {
        (Ok(g), Ok(s)) if (1..=MAX_GAMES).contains(&g) => (g, s),
        (Ok(g), Ok(_)) => return Reply::error(400, format!("`games` must be 1 to {MAX_GAMES}, not {g}")),
        (Err(e), _) | (_, Err(e)) => return Reply::error(400, e),
    };
    // As many greedy seats as the Scenario's table (Prime Time's: 3 or
    // `seats`); setups are 2-player, so other tables play random teams.
    let content = &snap.loaded.content;
    let scenario_of = content.setups.get(scenario).map_or(scenario, |s| s.value.scenario.as_str());
    let default_seats = content
        .scenarios
        .get(scenario_of)
        .map_or(2, |s| arena_engine::rules::game::GameSetup::default_seats(&s.value) as u64);
    let seats = match number("seats", default_seats) {
        Ok(n) if (2..=4).contains(&n) => n as usize,
        Ok(n) => return Reply::error(400, format!("`seats` must be 2, 3 or 4, not {n}")),
        Err(e) => return Reply::error(400, e),
    };
    let random_teams = get(q, "random_teams") == "1" || seats != 2;
    let policies = vec![arena_engine::sim::Policy::Greedy; seats];
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    match snap.simulate(scenario, seed..seed.saturating_add(games), &policies, jobs, random_teams) {
        Ok(stats) => {
            let title = format!("{}: {games} greedy games, seeds {seed}-{}", stats.setup, seed + games - 1);
            Reply::svg(render::chart::balance_svg(&title, &stats.report))
        }
        Err(e) => Reply::error(404, e),
    }
}
