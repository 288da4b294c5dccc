//! A person plays a seat from the browser: the game runs on a thread of its
//! own with a [`BrowserSeat`] as that seat's player (given only the seat's
//! view, `arena_engine::table::SeatView`; the engine's
//! synchronous Decisions, as the terminal's human seat answers them) and the
//! greedy player in the other; each Decision is published with a picture of
//! the position, and the page's answer is handed back through a channel.

use super::api::Reply;
use super::query::Query;
use super::*;
use arena_engine::render::{self, Options, Scene};
use arena_engine::rules::decision::{Choice, Controller};
use arena_engine::table::{Player, SeatNative, SeatView};
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// The browser's game.
pub(crate) struct Session {
    answers: mpsc::Sender<usize>,
    shown: Arc<Mutex<Shown>>,
    cancel: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// What the page shows of the game.
#[derive(Debug, Clone, Default, serde::Serialize)]
struct Shown {
    /// The person's seat, from 1.
    seat: usize,
    /// The Decision waiting for the person, if any.
    decision: Option<serde_json::Value>,
    /// Counts the Decisions asked, so the page can tell a new one from the last.
    asked: u64,
    /// The narrative so far.
    narrative: Vec<String>,
    /// The position, as SVG.
    board: String,
    /// The seat's own Tactics hand as cards (`000 § Hand`: each player sees
    /// only their own), each `{id, name, timing, text}`.
    hand: Vec<serde_json::Value>,
    /// Whether the game has ended.
    over: bool,
    /// Why it stopped, when it failed.
    error: Option<String>,
}

fn lock(shown: &Mutex<Shown>) -> std::sync::MutexGuard<'_, Shown> {
    shown.lock().unwrap_or_else(|p| p.into_inner())
}

/// The person's seat.
struct BrowserSeat {
    answers: mpsc::Receiver<usize>,
    shown: Arc<Mutex<Shown>>,
    cancel: Arc<AtomicBool>,
}

impl Player for BrowserSeat {
    fn choose(&mut self, seat: &SeatView<'_>) -> Option<usize> {
        let mut hand = Vec::new();
        let (board, character) = match &seat.native {
            SeatNative::Aristeia { decision, view } => {
                for id in view.player(view.seat()).hand.cards().unwrap_or_default() {
                    let card = view.content.tactics.get(id.as_str()).map(|t| &t.value);
                    hand.push(json!({
                        "id": id,
                        "name": card.map_or(id.as_str(), |t| t.name.as_str()),
                        "timing": card.map(|t| t.timing_text.as_str()).unwrap_or_default(),
                        "text": card.map(|t| t.effect.text.as_str()).unwrap_or_default(),
                    }));
                }
                let board = match Scene::of_view(view) {
                    Ok(scene) => {
                        let marks = option_marks(&decision.options, &scene);
                        render::svg::to_svg(&scene, &Options { marks, ..Options::default() })
                    }
                    Err(e) => format!("<p>{e}</p>"),
                };
                (board, decision.character)
            }
            SeatNative::Invictus { .. } => (String::new(), None),
        };
        let d = seat.decision();
        {
            let mut s = lock(&self.shown);
            s.board = board;
            s.hand = hand;
            s.narrative = seat.narrative(0);
            s.asked += 1;
            s.decision = Some(json!({
                "player": d.player.to_string(),
                "character": character,
                "prompt": d.prompt,
                "options": d.options,
            }));
        }
        loop {
            if self.cancel.load(Ordering::Relaxed) {
                // The engine stops asking once a controller gives up.
                return None;
            }
            match self.answers.recv_timeout(Duration::from_millis(200)) {
                Ok(i) if i < d.options.len() => {
                    lock(&self.shown).decision = None;
                    return Some(i);
                }
                Ok(_) | Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            }
        }
    }
}

/// Stop the browser's game, if one runs.
pub(super) fn cancel(state: &State) {
    let old = state.play.lock().ok().and_then(|mut p| p.take());
    if let Some(mut s) = old {
        s.cancel.store(true, Ordering::Relaxed);
        if let Some(t) = s.thread.take() {
            let _ = t.join();
        }
    }
}

/// `POST /api/play/start?setup=S&seed=N&seat=K[&seats=N]`: a new game (see
/// [`api::game_for`] for `setup` and `seats`), the person in seat `K` (from 1)
/// and greedy players in the others.
pub(super) fn start(state: &State, q: &Query) -> Reply {
    let Some(snap) = state.live.snapshot() else {
        return Reply::error(503, "no content has loaded clean yet: see /api/status");
    };
    let seed: u64 = match q.number("seed", 1) {
        Ok(s) => s,
        Err(reply) => return reply,
    };
    let (setup_id, seats) = match super::api::game_for(&snap.loaded.content, q) {
        Ok(g) => g,
        Err(reply) => return reply,
    };
    let seat = match q.text("seat") {
        "" => 0,
        v => match v.parse::<usize>() {
            Ok(k) if (1..=seats).contains(&k) => k - 1,
            _ => return Reply::error(400, format!("`seat` must be 1 to {seats}, not `{v}`")),
        },
    };
    cancel(state);
    let (tx, rx) = mpsc::channel();
    let shown = Arc::new(Mutex::new(Shown { seat: seat + 1, ..Shown::default() }));
    let cancel_flag = Arc::new(AtomicBool::new(false));
    let content = snap.content();
    let setup = match arena_engine::sim::replay_setup(&content, &setup_id, seed) {
        Ok(s) => s,
        Err(e) => return Reply::error(500, e),
    };
    let mut person = BrowserSeat { answers: rx, shown: shown.clone(), cancel: cancel_flag.clone() };
    let out = shown.clone();
    let thread = std::thread::spawn(move || {
        let runtime = match snap.runtime() {
            Ok(r) => r,
            Err(e) => {
                lock(&out).error = Some(e);
                return;
            }
        };
        // Greedy players in every seat but the person's (`others[seat]` sits out).
        let mut others: Vec<_> = (0..seats).map(|i| arena_engine::sim::Policy::Greedy.controller(seed, i)).collect();
        let (before, after) = others.split_at_mut(seat);
        let mut seats: Vec<&mut dyn Controller> =
            before.iter_mut().map(|c| c.as_mut() as &mut dyn Controller).collect();
        seats.push(&mut person);
        seats.extend(after.iter_mut().skip(1).map(|c| c.as_mut() as &mut dyn Controller));
        let result = arena_engine::sim::play(&content, &runtime, &setup, seats);
        let mut s = lock(&out);
        s.over = true;
        s.decision = None;
        match result {
            Ok(record) => {
                s.narrative = record.events.iter().map(ToString::to_string).collect();
                if let Ok(scene) = Scene::of_events(&content, &record.events) {
                    s.board = render::svg::to_svg(&scene, &Options::default());
                }
            }
            Err(e) => s.error = Some(e),
        }
    });
    if let Ok(mut p) = state.play.lock() {
        *p = Some(Session { answers: tx, shown, cancel: cancel_flag, thread: Some(thread) });
    }
    Reply::json(json!({ "setup": setup_id, "seed": seed, "seat": seat + 1, "seats": seats }))
}

/// `GET /api/play`: the game as the page shows it.
pub(super) fn poll(state: &State) -> Reply {
    let shown = state.play.lock().ok().and_then(|p| p.as_ref().map(|s| lock(&s.shown).clone()));
    match shown {
        Some(s) => Reply::json(json!(s)),
        None => Reply::json(json!({ "decision": null, "over": false, "narrative": [], "board": "", "asked": 0 })),
    }
}

/// `POST /api/play/answer?index=I`: the person's answer (from 0).
pub(super) fn answer(state: &State, q: &Query) -> Reply {
    if q.text("index").is_empty() {
        return Reply::error(400, "answer takes index=N");
    }
    let i: usize = match q.number("index", 0) {
        Ok(i) => i,
        Err(reply) => return reply,
    };
    let sent = state.play.lock().ok().and_then(|p| p.as_ref().map(|s| s.answers.send(i).is_ok()));
    match sent {
        Some(true) => Reply::json(json!({ "ok": true })),
        _ => Reply::error(409, "no game is waiting for an answer"),
    }
}

/// The board's option markers of a Decision: each option on a space (a
/// space to deploy on or move to) or on a Character standing on one (an
/// Action's or a Minion's Target, a Character picked or to go first) is its
/// number (from 1) on that space; several options on one space share a
/// marker, `2,5`. The viewer answers an option when its marker is clicked.
fn option_marks(options: &[Choice], scene: &Scene) -> Vec<(arena_engine::rules::geometry::Hex, String)> {
    use arena_engine::rules::state::Location;
    let on = |id: &arena_engine::model::Id| {
        scene.figures.iter().find(|f| f.id == *id).and_then(|f| match f.location {
            Location::Space(h) => Some(h),
            _ => None,
        })
    };
    let mut by_space: Vec<(arena_engine::rules::geometry::Hex, Vec<String>)> = Vec::new();
    for (i, o) in options.iter().enumerate() {
        let space = match o {
            Choice::Space { space } | Choice::MoveTo { space } => Some(*space),
            Choice::Perform { target: Some(t), .. } | Choice::MinionAction { target: Some(t), .. } => on(t),
            Choice::Pick { id } => on(id),
            Choice::First { character } => on(character),
            _ => None,
        };
        if let Some(h) = space {
            match by_space.iter_mut().find(|(s, _)| *s == h) {
                Some((_, numbers)) => numbers.push((i + 1).to_string()),
                None => by_space.push((h, vec![(i + 1).to_string()])),
            }
        }
    }
    by_space.into_iter().map(|(h, numbers)| (h, numbers.join(","))).collect()
}
