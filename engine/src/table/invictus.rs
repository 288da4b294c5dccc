//! Invictus at a table: quiet points at its setup and at each turn's start
//! ([`crate::invictus::game::Checkpoint`]), replays through
//! [`Game::new`] and [`Game::play_next_turn`].

use super::replay::{Engine, Feed, Live, Passed, Replayed, Run, Stop};
use super::{Decision, Native, Outcome, SeatNative, SeatView};
use crate::content::Content;
use crate::invictus::game::Checkpoint;
use crate::invictus::{self as inv, Controller, Event, Game, GameState, InvictusSetup, View};
use crate::rules::seats::PlayerId;
use crate::script::runtime::Runtime;
use std::cell::RefCell;
use std::rc::Rc;

/// A running Invictus game at a table (2, 4 or 6 seats in teams; 3 to 6 in a free-for-all).
pub type InvictusTable<'a> = Replayed<'a, Invictus<'a>>;

/// The Invictus engine behind a table: the content and runtime it plays on.
#[derive(Clone, Copy)]
pub struct Invictus<'a> {
    content: &'a Content,
    runtime: &'a Runtime,
}

/// An Invictus quiet point: the setup (before the gods are dealt), or a
/// turn's start.
pub enum Quiet<'a> {
    /// The game's setup and seed, before [`Game::new`].
    Start {
        /// The setup.
        setup: InvictusSetup,
        /// The seed.
        seed: u64,
        /// A determinization's reseed: at which Decision, with which seed.
        reseed: Option<(usize, u64)>,
    },
    /// Between two turns (and a determinization's reseed).
    Turn(Box<Checkpoint<'a>>, Option<(usize, u64)>),
}

/// A seat's controller in a replay: the shared answers; then it gives up
/// (`usize::MAX`), and the game, which keeps the position
/// (`Game::capture_halt`), takes the option that ends things soonest (pass,
/// end the turn, complete the transaction) until the turn ends and the
/// replay stops.
/// With live players ([`Live`]), they answer once the answers ran out.
struct Seat<'l>(Rc<RefCell<Feed>>, Option<&'l dyn Live>);

impl Controller for Seat<'_> {
    fn decide(&mut self, d: &inv::Decision, view: &View<'_>) -> usize {
        if let Some(live) = self.1
            && self.0.borrow().ran_dry()
        {
            let answer = live.choose(&SeatView::new(SeatNative::Invictus { decision: d, view: *view }));
            return self.0.borrow_mut().give(answer, d.options.len()).unwrap_or(usize::MAX);
        }
        self.0.borrow_mut().next(d.options.len(), |i| format!("{:?}", d.options[i])).unwrap_or(usize::MAX)
    }
}

/// A table of a new game set up as `setup` says, seeded `seed`, at its first Decision.
///
/// # Errors
/// The setup cannot be played (as [`Game::new`]).
pub fn start_invictus<'a>(
    content: &'a Content,
    runtime: &'a Runtime,
    setup: &InvictusSetup,
    seed: u64,
) -> Result<InvictusTable<'a>, String> {
    Replayed::new(Invictus { content, runtime }, Quiet::Start { setup: setup.clone(), seed, reseed: None }, Vec::new())
}

/// A table of the position a situation file sets up (docs/situations.md),
/// at its first Decision, seats answered by the table's players (the
/// situation's `answers` are not used): the active player's turn starts,
/// and the game plays on to its end. A search player searches from there.
///
/// # Errors
/// The situation names something not loaded (as `Situation::game`).
pub fn start_invictus_at<'a>(
    content: &'a Content,
    runtime: &'a Runtime,
    situation: &inv::situation::Situation,
) -> Result<InvictusTable<'a>, String> {
    let mut game = situation.game_with(content, Some(runtime), Vec::new()).map_err(|e| e.message)?;
    let (checkpoint, events) = game.checkpoint().ok_or("a situation's turn start is not a quiet point")?;
    Replayed::new(Invictus { content, runtime }, Quiet::Turn(Box::new(checkpoint), None), events)
}

impl<'a> Invictus<'a> {
    fn controllers<'l>(
        &self,
        feed: &Rc<RefCell<Feed>>,
        live: Option<&'l dyn Live>,
        n: usize,
    ) -> Vec<Box<dyn Controller + 'l>> {
        (0..n).map(|_| Box::new(Seat(feed.clone(), live)) as Box<dyn Controller + 'l>).collect()
    }

    /// The outcome of a game that is over.
    fn outcome(state: &GameState, outcome: &inv::Outcome) -> Outcome {
        let winners = match outcome {
            inv::Outcome::Team(t) => state.players.iter().filter(|p| p.team == *t).map(|p| p.seat).collect(),
            inv::Outcome::NoWinner => Vec::new(),
        };
        Outcome::of(state.players.len(), winners)
    }
}

impl<'a> Engine<'a> for Invictus<'a> {
    type Quiet = Quiet<'a>;
    type Decision = inv::Decision;
    type State = GameState;
    type Event = Event;

    const NAME: &'static str = "invictus";

    fn seats(&self, quiet: &Quiet<'a>) -> usize {
        match quiet {
            Quiet::Start { setup, .. } => setup.players,
            Quiet::Turn(cp, _) => cp.state().players.len(),
        }
    }

    fn answers_before<'q>(&self, quiet: &'q Quiet<'a>) -> &'q [usize] {
        match quiet {
            Quiet::Start { .. } => &[],
            Quiet::Turn(cp, _) => cp.answers(),
        }
    }

    fn run(
        &self,
        from: &Quiet<'a>,
        feed: &Rc<RefCell<Feed>>,
        live: Option<&dyn Live>,
    ) -> Run<Quiet<'a>, inv::Decision, GameState, Event> {
        let n = self.seats(from);
        let mut passed = Vec::new();
        let controllers = self.controllers(feed, live, n);
        let mut game = match from {
            Quiet::Start { setup, seed, reseed } => {
                self.runtime.begin_game();
                match Game::new_at_table(self.content, Some(self.runtime), setup, *seed, controllers, true, *reseed) {
                    Ok(g) => g,
                    Err(e) => return Run { passed, stop: Stop::Failed(e.0), used: 0, inner: None },
                }
            }
            Quiet::Turn(cp, reseed) => match cp.resume(controllers) {
                Ok(mut g) => {
                    if let Some((at, seed)) = *reseed {
                        g.reseed_at(at, seed);
                    }
                    g
                }
                Err(e) => return Run { passed, stop: Stop::Failed(e.0), used: 0, inner: None },
            },
        };
        game.capture_halt();
        let mut at_start = matches!(from, Quiet::Start { .. });
        loop {
            let ended = if at_start { None } else { game.play_next_turn() };
            let used = feed.borrow().used();
            if let Some(stop) = feed.borrow_mut().take_stop() {
                return Run { passed, stop: stop.into_stop(game.take_halted_at()), used, inner: None };
            }
            if let Some(o) = ended {
                let events = std::mem::take(&mut game.events);
                let outcome = Self::outcome(&game.state, &o);
                return Run {
                    passed,
                    stop: Stop::Over { state: game.state.clone(), events, outcome },
                    used,
                    inner: None,
                };
            }
            let Some((checkpoint, events)) = game.checkpoint() else {
                return Run {
                    passed,
                    stop: Stop::Failed("a turn's start is not a quiet point".into()),
                    used,
                    inner: None,
                };
            };
            passed.push(Passed { quiet: Quiet::Turn(Box::new(checkpoint), None), used, events });
            at_start = false;
        }
    }

    fn redeal(
        &self,
        quiet: &Quiet<'a>,
        now: &GameState,
        seat: PlayerId,
        rng: &mut rand_chacha::ChaCha8Rng,
        reseed: (usize, u64),
        pin_all: bool,
    ) -> Quiet<'a> {
        match quiet {
            // Before the gods are dealt nothing is hidden yet but the seed's future.
            Quiet::Start { setup, seed, .. } => {
                Quiet::Start { setup: setup.clone(), seed: *seed, reseed: Some(reseed) }
            }
            Quiet::Turn(cp, _) => {
                let mut state = cp.state().clone();
                if !pin_all {
                    crate::invictus::determinize::redeal(&mut state, now, seat, rng);
                }
                Quiet::Turn(Box::new(cp.with_state(state)), Some(reseed))
            }
        }
    }

    fn reseeds_at(quiet: &Quiet<'a>) -> Option<usize> {
        match quiet {
            Quiet::Start { reseed, .. } | Quiet::Turn(_, reseed) => reseed.map(|(at, _)| at),
        }
    }

    fn seat_json(&self, _quiet: &Quiet<'a>, state: &GameState, events: &[Event], seat: PlayerId) -> serde_json::Value {
        View::new(seat, state, events, self.content).to_json(None)
    }

    fn options(d: &inv::Decision) -> usize {
        d.options.len()
    }

    fn player(d: &inv::Decision) -> PlayerId {
        d.player
    }

    fn failed(event: &inv::Event) -> bool {
        matches!(event, inv::Event::EffectFailed { .. })
    }

    fn seen_line(event: &inv::Event, seat: PlayerId) -> String {
        event.seen_by(seat)
    }

    fn neutral(d: &inv::Decision) -> Decision {
        Decision {
            player: d.player,
            kind: super::aristeia::kind_name(&d.kind),
            prompt: d.prompt.clone(),
            options: d.options.iter().map(ToString::to_string).collect(),
        }
    }

    fn native<'v>(
        &'v self,
        _quiet: &'v Quiet<'a>,
        decision: Option<&'v inv::Decision>,
        state: &'v GameState,
        events: &'v [Event],
    ) -> Native<'v> {
        let seat = decision.map_or(PlayerId::seat(0), |d| d.player);
        Native::Invictus { decision, state, view: View::new(seat, state, events, self.content) }
    }
}
