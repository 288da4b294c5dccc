//! The viewer's routes: the page and its assets, the content, pictures of maps
//! and replays, a pack's files (inside the pack only), balance charts, and
//! the browser seat. Every answer is built from the live snapshot of the
//! moment; nothing here writes a file. [`route`] checks the method and the
//! query and says where the work runs ([`Work`]); the HTTP limits are
//! [`super::http`]'s.

use super::query::Query;
use super::*;
use arena_engine::render::{self, Options, Scene};
use arena_engine::watch::Snapshot;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;

const INDEX: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/style.css");

/// Most games one balance chart plays.
pub const MAX_GAMES: u64 = 2000;
/// Most replays played from the page (`POST /api/replays`) kept at once: a
/// new one past this replaces the oldest of them (`--replay` files stay).
pub const MAX_POSTED_REPLAYS: usize = 16;
/// Most events of one replay the viewer keeps (a whole game of Assault has
/// under a thousand).
pub const MAX_REPLAY_EVENTS: usize = 100_000;

/// An answer: status, type and body.
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) content_type: &'static str,
    pub(crate) body: Vec<u8>,
    /// The `Allow` header of a 405.
    pub(crate) allow: Option<&'static str>,
    /// Close the connection after it (a body was refused unread).
    pub(crate) close: bool,
}

impl Reply {
    fn ok(content_type: &'static str, body: impl Into<Vec<u8>>) -> Reply {
        Reply { status: 200, content_type, body: body.into(), allow: None, close: false }
    }

    pub(super) fn json(v: serde_json::Value) -> Reply {
        Reply::ok("application/json", v.to_string())
    }

    pub(super) fn svg(s: String) -> Reply {
        Reply::ok("image/svg+xml", s)
    }

    pub(super) fn error(status: u16, message: impl Into<String>) -> Reply {
        Reply { status, ..Reply::ok("text/plain; charset=utf-8", message.into()) }
    }

    pub(super) fn close(self) -> Reply {
        Reply { close: true, ..self }
    }
}

/// A request as the routes see it: its head only (no route reads a body).
pub(crate) struct Ask {
    pub(crate) method: hyper::Method,
    pub(crate) path: String,
    pub(crate) query: String,
    /// Whether it carries the `X-Arena` header.
    pub(crate) x_arena: bool,
}

/// Where a request's work runs.
pub(crate) enum Work {
    /// Answered already: cheap routes, and refusals.
    Now(Reply),
    /// Drawing, reading or playing one game: on a bounded pool of threads.
    Heavy(Box<dyn FnOnce() -> Reply + Send>),
    /// A balance batch: one at a time, on a thread of its own.
    Batch(super::batch::Job),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Verb {
    Get,
    Post,
}

/// Every route: its method and the query keys it takes.
const ROUTES: &[(&str, Verb, &[&str])] = &[
    ("/", Verb::Get, &[]),
    ("/app.js", Verb::Get, &[]),
    ("/style.css", Verb::Get, &[]),
    ("/api/status", Verb::Get, &[]),
    ("/api/content", Verb::Get, &[]),
    ("/api/map.svg", Verb::Get, &["id", "coords", "from"]),
    ("/api/source", Verb::Get, &["pack", "path"]),
    ("/api/replay", Verb::Get, &["name"]),
    ("/api/replay.svg", Verb::Get, &["name", "event", "coords", "from"]),
    ("/api/replays", Verb::Post, &["setup", "seed", "seats"]),
    ("/api/balance.svg", Verb::Post, &["scenario", "games", "seed", "random_teams", "seats"]),
    ("/api/chart.svg", Verb::Get, &["name"]),
    ("/api/play/start", Verb::Post, &["setup", "seed", "seat", "seats"]),
    ("/api/play", Verb::Get, &[]),
    ("/api/play/answer", Verb::Post, &["index"]),
];

/// Route one request: 404 for no route, 405 for the wrong method (`GET` and
/// `HEAD` read, `POST` acts), 403 for a `POST` without `X-Arena`, 400 for a
/// query the route does not take; else the route's work.
pub(super) fn route(state: &Arc<State>, ask: &Ask) -> Work {
    let path = ask.path.as_str();
    let Some(&(_, verb, keys)) = ROUTES.iter().find(|(p, ..)| *p == path) else {
        return Work::Now(Reply::error(404, format!("no such page: {path}")));
    };
    let reads = ask.method == hyper::Method::GET || ask.method == hyper::Method::HEAD;
    match verb {
        Verb::Get if !reads => {
            return Work::Now(Reply {
                allow: Some("GET, HEAD"),
                ..Reply::error(405, format!("`{path}` is read with GET"))
            });
        }
        Verb::Post if ask.method != hyper::Method::POST => {
            let why = if path == "/api/balance.svg" { "plays games: POST it" } else { "acts: POST it" };
            return Work::Now(Reply {
                allow: Some("POST"),
                ..Reply::error(405, format!("`{path}` {why} with the X-Arena header"))
            });
        }
        _ => {}
    }
    // A page of another site cannot send this header without a preflight,
    // which is never answered: it cannot start games here.
    if verb == Verb::Post && !ask.x_arena {
        return Work::Now(Reply::error(403, "POST needs the X-Arena header"));
    }
    let q = match Query::parse(path, &ask.query, keys) {
        Ok(q) => q,
        Err(reply) => return Work::Now(reply),
    };
    let heavy = |q: Query, f: fn(&State, &Query) -> Reply| {
        let state = state.clone();
        Work::Heavy(Box::new(move || f(&state, &q)))
    };
    match path {
        "/" => Work::Now(Reply::ok("text/html; charset=utf-8", INDEX)),
        "/app.js" => Work::Now(Reply::ok("text/javascript; charset=utf-8", APP_JS)),
        "/style.css" => Work::Now(Reply::ok("text/css; charset=utf-8", STYLE)),
        "/api/status" => Work::Now(status(state)),
        "/api/content" => Work::Now(with_snapshot(state, |s| content(state, s))),
        "/api/map.svg" => heavy(q, |state, q| with_snapshot(state, |s| map_svg(s, q))),
        "/api/source" => heavy(q, |state, q| {
            with_snapshot(state, |s| match pack_file(s, q.text("pack"), q.text("path")) {
                Ok(text) => Reply::ok("text/plain; charset=utf-8", text),
                Err((code, message)) => Reply::error(code, message),
            })
        }),
        "/api/replay" => heavy(q, replay),
        "/api/replay.svg" => heavy(q, |state, q| with_snapshot(state, |s| replay_svg(state, s, q))),
        "/api/replays" => heavy(q, |state, q| with_snapshot(state, |s| new_replay(state, s, q))),
        "/api/balance.svg" => match state.live.snapshot() {
            Some(snap) => match super::batch::Job::of(snap, &q) {
                Ok(job) => Work::Batch(job),
                Err(reply) => Work::Now(reply),
            },
            None => Work::Now(no_content()),
        },
        "/api/chart.svg" => Work::Now(match state.charts.get(q.text("name")) {
            Some(svg) => Reply::svg(svg.clone()),
            None => Reply::error(404, format!("no chart `{}` (arena serve --chart FILE)", q.text("name"))),
        }),
        "/api/play/start" => heavy(q, seat::start),
        "/api/play" => Work::Now(seat::poll(state)),
        "/api/play/answer" => Work::Now(seat::answer(state, &q)),
        _ => Work::Now(Reply::error(404, format!("no such page: {path}"))),
    }
}

fn no_content() -> Reply {
    Reply::error(503, "no content has loaded clean yet: see /api/status")
}

fn with_snapshot(state: &State, f: impl FnOnce(&Snapshot) -> Reply) -> Reply {
    match state.live.snapshot() {
        Some(s) => f(&s),
        None => no_content(),
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
    let replays: Vec<String> = state.replays.lock().map(|r| r.names()).unwrap_or_default();
    Reply::json(json!({
        "generation": snap.generation,
        "packs": packs,
        "maps": names(c.maps.values().map(|m| (m.value.id.to_string(), m.value.name.clone())).collect()),
        "scenarios": names(c.scenarios.values().map(|s| (s.value.id.to_string(), s.value.name.clone())).collect()),
        "setups": names(c.setups.values().map(|s| (s.value.id.to_string(), s.value.name.clone())).collect()),
        "characters": names(c.characters.values().map(|s| (s.value.id.to_string(), s.value.name.clone())).collect()),
        "tactics": names(c.tactics.values().map(|s| (s.value.id.to_string(), s.value.name.clone())).collect()),
        "replays": replays,
        "charts": state.charts.keys().collect::<Vec<_>>(),
    }))
}

/// `coords=1` and `from=Q,R` as drawing options for `scene`.
///
/// # Errors
/// 400 when `coords` is not 1 or 0, or `from` is not a space of the board.
fn options(q: &Query, scene: &Scene) -> Result<Options, Reply> {
    Ok(Options { coordinates: q.flag("coords")?, sight_from: q.space("from", scene.radius)?, marks: Vec::new() })
}

fn map_svg(snap: &Snapshot, q: &Query) -> Reply {
    match crate::render::map_scene(&snap.loaded.content, q.text("id")) {
        Ok(scene) => match options(q, &scene) {
            Ok(options) => Reply::svg(render::svg::to_svg(&scene, &options)),
            Err(reply) => reply,
        },
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

/// The replays the viewer offers, by name: the `--replay` files, kept for the
/// viewer's life, and at most [`MAX_POSTED_REPLAYS`] played from the page.
#[derive(Default)]
pub(crate) struct Replays {
    by_name: BTreeMap<String, Stored>,
    /// Counts the replays posted, so the oldest can be told.
    posted: u64,
}

struct Stored {
    events: Arc<Vec<Event>>,
    /// When it was posted (none for a `--replay` file).
    posted: Option<u64>,
}

impl Replays {
    fn names(&self) -> Vec<String> {
        self.by_name.keys().cloned().collect()
    }

    fn get(&self, name: &str) -> Option<Arc<Vec<Event>>> {
        self.by_name.get(name).map(|s| s.events.clone())
    }

    fn add_file(&mut self, name: String, events: Vec<Event>) {
        self.by_name.insert(name, Stored { events: Arc::new(events), posted: None });
    }

    /// Keep a replay played from the page, dropping the oldest of those when
    /// [`MAX_POSTED_REPLAYS`] are kept already (one of the same name is
    /// replaced).
    fn add_posted(&mut self, name: String, events: Vec<Event>) {
        self.posted += 1;
        let replaces = self.by_name.get(&name).is_some_and(|s| s.posted.is_some());
        if !replaces {
            while self.by_name.values().filter(|s| s.posted.is_some()).count() >= MAX_POSTED_REPLAYS {
                let oldest = self.by_name.iter().filter_map(|(n, s)| Some((s.posted?, n.clone()))).min();
                match oldest {
                    Some((_, n)) => self.by_name.remove(&n),
                    None => break,
                };
            }
        }
        self.by_name.insert(name, Stored { events: Arc::new(events), posted: Some(self.posted) });
    }
}

/// Load a replay file and play it again on the live content.
pub(super) fn add_replay_file(state: &State, file: &Path) -> Result<(), String> {
    let snap = state.live.snapshot().ok_or("no content has loaded clean")?;
    let text =
        arena_engine::read::read_text_limited(file, arena_engine::read::MAX_TOOL_FILE).map_err(|e| e.to_string())?;
    let recording = arena_engine::replay_file::read(&text).map_err(|e| e.to_string())?;
    let events = crate::render::replay_events(&snap.loaded, &recording)?;
    // Played again on other content, the answers may give another game: a
    // file whose recorded events differ from the game they give now is
    // refused (the viewer would show a game that was never played).
    if let arena_engine::replay_file::Recorded::Events(recorded) = &recording.recorded {
        let now: Vec<serde_json::Value> = events.iter().map(|e| serde_json::to_value(e).unwrap_or_default()).collect();
        if let Some(i) = (0..now.len().max(recorded.len())).find(|i| now.get(*i) != recorded.get(*i)) {
            let hash = snap.loaded.content_hash();
            let then = recording.content_hash.clone().unwrap_or_default();
            return Err(format!(
                "the game it gives on these packs differs from the one it recorded at event {i} (content hash {} then, {} now): serve the packs it was played on ({}); `arena replay FILE` says why",
                crate::replay::short(&then),
                crate::replay::short(&hash),
                recording.packs.join(", ")
            ));
        }
    }
    let name = file.file_stem().map_or("replay".into(), |s| s.to_string_lossy().into_owned());
    state.replays.lock().map_err(|_| "poisoned")?.add_file(name, events);
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
pub(super) fn game_for(content: &arena_engine::content::Content, q: &Query) -> Result<(String, usize), Reply> {
    let name = q.text("setup");
    let seats = match q.text("seats") {
        "" => None,
        v => match v.parse::<usize>() {
            Ok(n) if (2..=4).contains(&n) => Some(n),
            _ => return Err(Reply::error(400, format!("`seats` must be 2, 3 or 4, not `{v}`"))),
        },
    };
    let named = arena_engine::sim::Named::of(content, name);
    if let Some(setup) = content.setups.get(name) {
        let own = setup.value.teams.len();
        return Ok(match seats {
            Some(n) if n != own => (arena_engine::sim::random_teams_name(content, &setup.value.scenario, n), n),
            _ => (name.to_string(), own),
        });
    }
    if named.scenario.is_some() {
        let n = seats.unwrap_or_else(|| named.default_seats(content));
        return Ok((arena_engine::sim::random_teams_name(content, name, n), n));
    }
    Err(Reply::error(404, format!("no setup and no Scenario is called `{name}`")))
}

fn new_replay(state: &State, snap: &Snapshot, q: &Query) -> Reply {
    let seed: u64 = match q.number("seed", 1) {
        Ok(s) => s,
        Err(reply) => return reply,
    };
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
        Ok(r) if r.events.len() > MAX_REPLAY_EVENTS => Reply::error(
            507,
            format!(
                "the game has {} events: the viewer keeps replays of at most {MAX_REPLAY_EVENTS} (record it with `arena sim --replay FILE`)",
                r.events.len()
            ),
        ),
        Ok(r) => {
            let name = format!("{}-seed-{seed}", game_name.replace([':', '@'], "-"));
            if let Ok(mut m) = state.replays.lock() {
                m.add_posted(name.clone(), r.events);
            }
            Reply::json(json!({ "name": name, "seats": seats }))
        }
        Err(e) => Reply::error(500, e),
    }
}

fn events_of(state: &State, name: &str) -> Option<Arc<Vec<Event>>> {
    state.replays.lock().ok()?.get(name)
}

fn replay(state: &State, q: &Query) -> Reply {
    match events_of(state, q.text("name")) {
        Some(events) => {
            let lines: Vec<String> = events.iter().map(ToString::to_string).collect();
            Reply::json(json!({ "name": q.text("name"), "events": lines }))
        }
        None => Reply::error(404, format!("no replay `{}`", q.text("name"))),
    }
}

fn replay_svg(state: &State, snap: &Snapshot, q: &Query) -> Reply {
    let Some(events) = events_of(state, q.text("name")) else {
        return Reply::error(404, format!("no replay `{}`", q.text("name")));
    };
    let n: usize = match q.number("event", 0) {
        Ok(n) => n,
        Err(reply) => return reply,
    };
    if n >= events.len() {
        return Reply::error(
            400,
            format!("`event` must be 0 to {}: the replay has {} events", events.len() - 1, events.len()),
        );
    }
    match Scene::of_events(&snap.loaded.content, &events[..=n]) {
        Ok(scene) => match options(q, &scene) {
            Ok(options) => Reply::svg(render::svg::to_svg(&scene, &options)),
            Err(reply) => reply,
        },
        Err(e) => Reply::error(500, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posted_replays_past_the_cap_replace_the_oldest_and_files_stay() {
        let mut r = Replays::default();
        r.add_file("from-a-file".into(), Vec::new());
        for i in 0..MAX_POSTED_REPLAYS + 5 {
            r.add_posted(format!("game-{i}"), Vec::new());
        }
        // Posting one of the same name again replaces it, and drops nothing.
        r.add_posted(format!("game-{}", MAX_POSTED_REPLAYS + 4), Vec::new());
        let names = r.names();
        assert_eq!(names.len(), MAX_POSTED_REPLAYS + 1, "{names:?}");
        assert!(names.contains(&"from-a-file".to_string()));
        assert!(!names.contains(&"game-4".to_string()), "the oldest went: {names:?}");
        assert!(names.contains(&"game-5".to_string()));
    }
}
