//! Aristeia! at a table: quiet points before the Setup, at each Round's
//! start and at each Activation's start ([`crate::rules::game::Checkpoint`]),
//! replays through the steps [`Game::play`] itself is made of:
//! [`Game::play_setup`], then for each Round [`Game::begin_round`],
//! [`Game::turn_order`] and [`Game::play_activation`] for each Turn, and
//! [`Game::end_round`]. Inside an Activation, the Actions Step choice a
//! replay stopped at is kept as an inner point ([`Phase::Actions`],
//! [`Game::resume_actions_step`]).

use super::replay::{Engine, Feed, Live, Passed, Replayed, Run, Stop};
use super::{Decision, Native, Outcome, SeatNative, SeatView};
use crate::content::Content;
use crate::model::Id;
use crate::rules::decision::{self, Controller};
use crate::rules::event::Event;
use crate::rules::game::{ActionsPoint, Checkpoint, Game, GameSetup, OptionalRule};
use crate::rules::seats::PlayerId;
use crate::rules::state::{GameState, View};
use crate::script::runtime::Runtime;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

/// How an Aristeia! game was set up, as a replay file records it: a
/// ready-made `setup` entry, or random teams for a Scenario, at a number of
/// seats, with the optional rules played (`001 § Additional Rules`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AristeiaSetup {
    /// The `setup` entry's id (its Scenario, teams, Tactics decks and
    /// Deployment Zones); with `random_teams`, the Scenario's id.
    pub name: String,
    /// Teams drawn from the seed (`GameSetup::random`: every loaded
    /// Character, or the Scenario's own) instead of a setup's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub random_teams: bool,
    /// How many seats; absent: the setup's, or the Scenario's default
    /// (`GameSetup::default_seats`; only in files upgraded from format 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<usize>,
    /// The optional rules played; absent when none.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub optional_rules: BTreeSet<OptionalRule>,
}

impl AristeiaSetup {
    /// The engine's setup of this game with `seed`.
    ///
    /// # Errors
    /// The setup or Scenario is not loaded, or is not for that many seats.
    pub fn game_setup(&self, content: &Content, seed: u64) -> Result<GameSetup, String> {
        let mut game = if self.random_teams {
            let sc = &content
                .scenarios
                .get(self.name.as_str())
                .ok_or_else(|| format!("no Scenario `{}` is loaded", self.name))?;
            let seats = self.seats.unwrap_or_else(|| GameSetup::default_seats(&sc.value));
            GameSetup::random(content, &self.name, seats, seed)?
        } else {
            if !content.setups.contains_key(self.name.as_str()) {
                return Err(format!("no setup `{}` is loaded", self.name));
            }
            let g = GameSetup::from_content(content, &self.name, seed)?;
            let n = g.teams.table().len();
            if self.seats.is_some_and(|s| s != n) {
                return Err(format!("setup `{}` is for {n} players", self.name));
            }
            g
        };
        game.optional_rules = self.optional_rules.clone();
        Ok(game)
    }
}

/// A running Aristeia! game at a table (2 to 4 seats).
pub type AristeiaTable<'a> = Replayed<'a, Aristeia<'a>>;

/// The Aristeia! engine behind a table: the content and runtime it plays on.
#[derive(Clone, Copy)]
pub struct Aristeia<'a> {
    content: &'a Content,
    runtime: &'a Runtime,
}

/// Where a quiet point is in the game.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Phase {
    /// Before the Draft and the Setup.
    Setup,
    /// At a Round's start.
    Round,
    /// In the Turns Phase of a Round of `turns` Turns, after the Turns
    /// before `turn` (from 1) and, of Turn `turn`, before the Activations of
    /// `left` (the first of them is the next to play).
    Turns {
        /// The Turn being played (0: none yet).
        turn: u8,
        /// How many Turns the Round has.
        turns: u8,
        /// Who still activates in this Turn, in order.
        left: Vec<Id>,
    },
    /// Inside an Activation, at a choice of its Actions Step
    /// ([`Game::resume_actions_step`]); then the Turns Phase goes on as
    /// [`Phase::Turns`] with the same fields.
    Actions {
        /// The Turn being played.
        turn: u8,
        /// How many Turns the Round has.
        turns: u8,
        /// Who activates after the active Character in this Turn, in order.
        left: Vec<Id>,
        /// The active Character.
        character: Id,
        /// Its player.
        owner: PlayerId,
        /// Which choice of its Actions Step it is (from 1).
        choices: usize,
        /// That choice's options, its question asked next.
        options: Rc<[decision::Choice]>,
    },
}

/// An Aristeia! quiet point: a checkpoint and what comes next.
pub struct Quiet {
    checkpoint: Rc<Checkpoint>,
    phase: Phase,
    /// A determinization's reseed: at which Decision, with which seed.
    reseed: Option<(usize, u64)>,
    /// Inside an Activation ([`Phase::Actions`]): the events since the
    /// Activation's start, which the resumed game is given back.
    events: Rc<[Event]>,
}

impl Quiet {
    fn new(checkpoint: Checkpoint, phase: Phase) -> Quiet {
        Quiet { checkpoint: Rc::new(checkpoint), phase, reseed: None, events: Rc::new([]) }
    }
}

/// A seat's controller in a replay: the shared answers, then the live
/// players' if there are any ([`Live`]), then it gives up (`usize::MAX`: the
/// game halts and keeps the position, `Game::capture_halt`).
struct Seat<'l>(Rc<RefCell<Feed>>, Option<&'l dyn Live>);

impl Controller for Seat<'_> {
    fn decide(&mut self, d: &decision::Decision, view: &View<'_>) -> usize {
        if let Some(live) = self.1
            && self.0.borrow().ran_dry()
        {
            let answer = live.choose(&SeatView::new(SeatNative::Aristeia { decision: d, view: *view }));
            return self.0.borrow_mut().give(answer, d.options.len()).unwrap_or(usize::MAX);
        }
        self.0.borrow_mut().next(d.options.len(), |i| format!("{:?}", d.options[i])).unwrap_or(usize::MAX)
    }
}

/// A table of a new game set up as `setup` says, at its first Decision.
///
/// # Errors
/// The setup cannot be played (as [`Game::new`]), or the game fails before
/// its first Decision.
pub fn start_aristeia<'a>(
    content: &'a Content,
    runtime: &'a Runtime,
    setup: &GameSetup,
) -> Result<AristeiaTable<'a>, String> {
    let feed = Feed::shared(&[]);
    let mut seats: Vec<Seat> = setup.teams.table().seats().map(|_| Seat(feed.clone(), None)).collect();
    let controllers = seats.iter_mut().map(|s| s as &mut dyn Controller).collect();
    let mut game = Game::new(content, runtime, setup, controllers)?;
    let (checkpoint, events) = game.checkpoint().ok_or("a new game is not at a quiet point")?;
    Replayed::new(Aristeia { content, runtime }, Quiet::new(checkpoint, Phase::Setup), events)
}

/// A table of the position a situation file sets up (docs/situations.md;
/// `phase = "activation"`, the default), at its first Decision: the active
/// Character's Activation from its start, as the Round's last, then the
/// Round's end and the game on to its end, every seat answered by the
/// table's players (the situation's `answers` are not used). A search
/// player searches from there.
///
/// # Errors
/// The situation names something not loaded, is at another phase, forces
/// dice (a table draws its own) or fails before its first Decision.
pub fn start_aristeia_at<'a>(
    content: &'a Content,
    runtime: &'a Runtime,
    situation: &crate::rules::situation::Situation,
) -> Result<AristeiaTable<'a>, String> {
    use crate::rules::situation::Phase as At;
    if situation.phase != At::Activation {
        return Err("a table starts a situation at an Activation (`phase = \"activation\"`)".into());
    }
    if !situation.dice.is_empty() {
        return Err("a table draws its own dice: leave out the situation's `dice`".into());
    }
    let feed = Feed::shared(&[]);
    let mut seats: Vec<Seat> = (0..situation.players.clamp(2, 4)).map(|_| Seat(feed.clone(), None)).collect();
    let controllers = seats.iter_mut().map(|s| s as &mut dyn Controller).collect();
    let mut game = Game::from_situation(content, runtime, situation, controllers).map_err(|e| e.to_string())?;
    let (checkpoint, events) = game.checkpoint().ok_or("a situation's Activation is not a quiet point")?;
    let phase = Phase::Turns { turn: 1, turns: 1, left: vec![situation.active] };
    Replayed::new(Aristeia { content, runtime }, Quiet::new(checkpoint, phase), events)
}

/// How a game that is over ended: the winner of its `GameEnded`, if any.
fn outcome(seats: usize, events: &[Event]) -> Outcome {
    let winner = events.iter().rev().find_map(|e| match e {
        Event::GameEnded { winner, .. } => Some(*winner),
        _ => None,
    });
    Outcome::of(seats, winner.flatten().into_iter().collect())
}

impl<'a> Engine<'a> for Aristeia<'a> {
    type Quiet = Quiet;
    type Decision = decision::Decision;
    type State = GameState;
    type Event = Event;

    const NAME: &'static str = "aristeia";

    fn seats(&self, quiet: &Quiet) -> usize {
        quiet.checkpoint.state().players.table().len()
    }

    fn answers_before<'q>(&self, quiet: &'q Quiet) -> &'q [usize] {
        quiet.checkpoint.answers()
    }

    fn run(
        &self,
        from: &Quiet,
        feed: &Rc<RefCell<Feed>>,
        live: Option<&dyn Live>,
    ) -> Run<Quiet, decision::Decision, GameState, Event> {
        let n = self.seats(from);
        let mut seats: Vec<Seat> = (0..n).map(|_| Seat(feed.clone(), live)).collect();
        let controllers = seats.iter_mut().map(|s| s as &mut dyn Controller).collect();
        let mut passed = Vec::new();
        let mut game = match from.checkpoint.resume_with(self.content, self.runtime, controllers, from.events.to_vec())
        {
            Ok(g) => g,
            Err(e) => return Run { passed, stop: Stop::Failed(e), used: 0, inner: None },
        };
        game.capture_halt();
        if let Some((at, seed)) = from.reseed {
            game.reseed_at(at, seed);
        }
        // An Actions Step choice met once the answers ran out is where the
        // run stops: kept, the next replay starts there.
        let dry = feed.clone();
        game.keep_actions_points(Rc::new(move || dry.borrow().wants_inner()));
        let answers_from = from.checkpoint.answers().len();
        let mut phase = from.phase.clone();
        loop {
            // Where the Turns Phase goes on after this step's Activation.
            let turns_after = match &phase {
                Phase::Turns { turn, turns, left } if !left.is_empty() => Some((*turn, *turns, left[1..].to_vec())),
                Phase::Actions { turn, turns, left, .. } => Some((*turn, *turns, left.clone())),
                _ => None,
            };
            // One step of the game (as `Game::play` takes it), and where it leads.
            let (played, next) = match phase {
                Phase::Setup => (game.play_setup(), Phase::Round),
                Phase::Round => match game.begin_round() {
                    Some(turns) => (Ok(()), Phase::Turns { turn: 0, turns, left: Vec::new() }),
                    None => (Ok(()), Phase::Round),
                },
                Phase::Turns { turn, turns, left } if left.is_empty() && turn >= turns => {
                    game.end_round();
                    (Ok(()), Phase::Round)
                }
                Phase::Turns { turn, turns, left } if left.is_empty() => {
                    let left = game.turn_order(turn + 1);
                    (Ok(()), Phase::Turns { turn: turn + 1, turns, left })
                }
                Phase::Turns { turn, turns, mut left } => {
                    let id = left.remove(0);
                    (game.play_activation(&id), Phase::Turns { turn, turns, left })
                }
                Phase::Actions { turn, turns, left, character, owner, choices, options } => {
                    let played = game.resume_actions_step(character, owner, choices, options.to_vec());
                    (played, Phase::Turns { turn, turns, left })
                }
            };
            let used = feed.borrow().used();
            if let Some(stop) = feed.borrow_mut().take_stop() {
                let stop = stop.into_stop(game.take_halted_at());
                let inner = match (&stop, game.take_actions_point(), turns_after) {
                    (Stop::Decision { events, .. }, Some(point), Some((turn, turns, left))) => {
                        let at = point.checkpoint.answers().len() - answers_from;
                        let ActionsPoint { checkpoint, events: kept, reseed, character, owner, choices, options } =
                            *point;
                        let phase =
                            Phase::Actions { turn, turns, left, character, owner, choices, options: options.into() };
                        let quiet = Quiet {
                            checkpoint: Rc::new(checkpoint),
                            phase,
                            reseed,
                            events: events[..kept.min(events.len())].into(),
                        };
                        Some((quiet, at))
                    }
                    _ => None,
                };
                return Run { passed, stop, used, inner };
            }
            if let Err(e) = played {
                let events = std::mem::take(&mut game.events);
                let outcome = Outcome::failed(n, e);
                return Run {
                    passed,
                    stop: Stop::Over { state: game.state.clone(), events, outcome },
                    used,
                    inner: None,
                };
            }
            // The game ends at a Round's end (or start): `Game::play` stops there.
            if next == Phase::Round && game.state.over {
                let events = std::mem::take(&mut game.events);
                let outcome = outcome(n, &events);
                return Run {
                    passed,
                    stop: Stop::Over { state: game.state.clone(), events, outcome },
                    used,
                    inner: None,
                };
            }
            // A Round's start, and an Activation's, are quiet points.
            if matches!(&next, Phase::Round) || matches!(&next, Phase::Turns { left, .. } if !left.is_empty()) {
                let Some((checkpoint, events)) = game.checkpoint() else {
                    let stop = Stop::Failed("a quiet point has an effect running".into());
                    return Run { passed, stop, used, inner: None };
                };
                game.forget_actions_point();
                passed.push(Passed { quiet: Quiet::new(checkpoint, next.clone()), used, events });
            }
            phase = next;
        }
    }

    fn redeal(
        &self,
        quiet: &Quiet,
        now: &GameState,
        seat: PlayerId,
        rng: &mut rand_chacha::ChaCha8Rng,
        reseed: (usize, u64),
        pin_all: bool,
    ) -> Quiet {
        let checkpoint = if pin_all {
            quiet.checkpoint.clone()
        } else {
            let mut state = quiet.checkpoint.state().clone();
            crate::rules::determinize::redeal(&mut state, now, seat, rng);
            Rc::new(quiet.checkpoint.with_state(state))
        };
        Quiet { checkpoint, phase: quiet.phase.clone(), reseed: Some(reseed), events: quiet.events.clone() }
    }

    fn reseeds_at(quiet: &Quiet) -> Option<usize> {
        quiet.reseed.map(|(at, _)| at)
    }

    fn seat_json(&self, quiet: &Quiet, state: &GameState, events: &[Event], seat: PlayerId) -> serde_json::Value {
        View::new(seat, state, events, self.content, quiet.checkpoint.board()).to_json()
    }

    fn options(d: &decision::Decision) -> usize {
        d.options.len()
    }

    fn player(d: &decision::Decision) -> PlayerId {
        d.player
    }

    fn failed(event: &Event) -> bool {
        matches!(event, Event::EffectFailed { .. })
    }

    fn seen_line(event: &Event, seat: PlayerId) -> String {
        event.seen_by(seat).to_string()
    }

    fn neutral(d: &decision::Decision) -> Decision {
        Decision {
            player: d.player,
            kind: kind_name(&d.kind),
            prompt: d.prompt.to_string(),
            options: d.options.iter().map(ToString::to_string).collect(),
        }
    }

    fn native<'v>(
        &'v self,
        quiet: &'v Quiet,
        decision: Option<&'v decision::Decision>,
        state: &'v GameState,
        events: &'v [Event],
    ) -> Native<'v> {
        let seat = decision.map_or(PlayerId::seat(0), |d| d.player);
        let view = View::new(seat, state, events, self.content, quiet.checkpoint.board());
        Native::Aristeia { decision, state, view }
    }
}

/// A decision kind's kebab-case name, as it serializes.
pub(super) fn kind_name(kind: &impl serde::Serialize) -> String {
    match serde_json::to_value(kind) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}
