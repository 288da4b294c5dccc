//! The machinery of a table that every game shares: a checkpoint at the last
//! quiet point, the answers since, and the position they lead to, found by
//! replaying them through the game's own engine ([`Engine::run`]).

use super::log::Log;
use super::{Decision, Native, Outcome, Played, Player, SeatView, Table, TableError};
use crate::rules::seats::PlayerId;
use serde::Serialize;
use std::cell::{OnceCell, RefCell};
use std::marker::PhantomData;
use std::rc::Rc;

/// What a game's engine supplies to a table ([`Replayed`]): its quiet
/// points and a replay from one of them. Implemented by each game's module
/// (`table/aristeia.rs`, `table/invictus.rs`); a new game implements it.
pub trait Engine<'a>: Copy + 'a {
    /// A quiet point to resume from: a checkpoint of the game, or its setup.
    type Quiet: 'a;
    /// The game's own Decision.
    type Decision: 'a;
    /// The game's own state.
    type State: Serialize + 'a;
    /// The game's own event.
    type Event: Serialize + std::fmt::Display + 'a;

    /// The name in the registry.
    const NAME: &'static str;

    /// How many seats a game from `quiet` has.
    fn seats(&self, quiet: &Self::Quiet) -> usize;

    /// The answers given before `quiet`, from the game's start.
    fn answers_before<'q>(&self, quiet: &'q Self::Quiet) -> &'q [usize];

    /// Play on from `from` with the answers of `feed`, through the real
    /// engine, until they run out at a Decision, the game ends, or an
    /// answer is out of range; noting every quiet point passed on the way.
    /// With `live`, a Decision met once the answers ran out is put to the
    /// live players instead ([`Feed::ran_dry`], [`Feed::give`]); the run
    /// stops where one gives up.
    fn run(
        &self,
        from: &Self::Quiet,
        feed: &Rc<RefCell<Feed>>,
        live: Option<&dyn Live>,
    ) -> Run<Self::Quiet, Self::Decision, Self::State, Self::Event>;

    /// A copy of `quiet` in which what `seat` may not know at the position
    /// `now` (a Decision after `quiet`) is dealt anew with `rng`, consistent
    /// with what it knows there (cards that became public since `quiet`
    /// stay where they were); with `pin_all`, nothing is dealt anew. The
    /// game's randomness is reseeded with `reseed.1` when it asks its
    /// Decision number `reseed.0` (counted from the game's start).
    fn redeal(
        &self,
        quiet: &Self::Quiet,
        now: &Self::State,
        seat: PlayerId,
        rng: &mut rand_chacha::ChaCha8Rng,
        reseed: (usize, u64),
        pin_all: bool,
    ) -> Self::Quiet;

    /// The Decision number (counted from the game's start) at which `quiet`
    /// reseeds the game's randomness, if it does (a determinization's or a
    /// look-ahead's reseed, [`Engine::redeal`]).
    fn reseeds_at(quiet: &Self::Quiet) -> Option<usize>;

    /// What `seat` may know at a position, as JSON (its view's).
    fn seat_json(
        &self,
        quiet: &Self::Quiet,
        state: &Self::State,
        events: &[Self::Event],
        seat: PlayerId,
    ) -> serde_json::Value;

    /// How many options a Decision has.
    fn options(d: &Self::Decision) -> usize;

    /// Who decides.
    fn player(d: &Self::Decision) -> PlayerId;

    /// The Decision as every game shows it.
    fn neutral(d: &Self::Decision) -> Decision;

    /// An event as `seat` reads it, one narrative line (what it may not
    /// know left out).
    fn seen_line(event: &Self::Event, seat: PlayerId) -> String;

    /// Whether the event says an effect failed (a mod script's error, its
    /// budget or memory exhausted).
    fn failed(event: &Self::Event) -> bool;

    /// The game's own Decision and view at a position.
    fn native<'v>(
        &'v self,
        quiet: &'v Self::Quiet,
        decision: Option<&'v Self::Decision>,
        state: &'v Self::State,
        events: &'v [Self::Event],
    ) -> Native<'v>;
}

/// The players a run puts its Decisions to once its answers ran out
/// ([`Table::play_on`]): one per seat, cycled as in [`super::play_out`].
pub trait Live {
    /// The answer of the player of the deciding seat, or `None` to give up.
    fn choose(&self, seat: &SeatView<'_>) -> Option<usize>;
}

impl Live for RefCell<&mut [&mut dyn Player]> {
    fn choose(&self, seat: &SeatView<'_>) -> Option<usize> {
        let mut players = self.borrow_mut();
        let n = players.len();
        players.get_mut(seat.seat().index() % n.max(1))?.choose(seat)
    }
}

/// What a replay found: the quiet points it passed, and where it stopped.
pub struct Run<Q, D, S, E> {
    /// Each quiet point passed, in order.
    pub passed: Vec<Passed<Q, E>>,
    /// Where the replay stopped.
    pub stop: Stop<D, S, E>,
    /// How many of its answers the replay used.
    pub used: usize,
    /// A point to resume from inside the step where the replay stopped,
    /// after the last quiet point passed (or the one it started from), and
    /// how many of its answers lead to it: not a quiet point of the log (the
    /// events since the last one stay the position's), only a shorter
    /// replay ([`Replayed`] replays from it). Aristeia!: the Actions Step
    /// choice whose Decision the replay stopped at.
    pub inner: Option<(Q, usize)>,
}

impl<Q, D, S, E> Run<Q, D, S, E> {
    /// The same run, its answers counted from `skip` answers earlier (a
    /// replay that started `skip` answers after the quiet point).
    fn shifted(mut self, skip: usize) -> Self {
        if skip == 0 {
            return self;
        }
        for p in &mut self.passed {
            p.used += skip;
        }
        self.used += skip;
        if let Some((_, at)) = &mut self.inner {
            *at += skip;
        }
        if let Stop::Bad { index, .. } = &mut self.stop {
            *index += skip;
        }
        self
    }
}

/// A quiet point a replay passed.
pub struct Passed<Q, E> {
    /// The checkpoint there.
    pub quiet: Q,
    /// How many of the replay's answers were used to reach it.
    pub used: usize,
    /// The events between the previous quiet point and this one.
    pub events: Vec<E>,
}

/// Where a replay stopped.
pub enum Stop<D, S, E> {
    /// At a Decision with no answer left: the Decision, the state and the
    /// events since the last quiet point passed, as its controller saw them.
    Decision {
        /// The Decision.
        decision: D,
        /// The state when it was asked.
        state: S,
        /// The events since the last quiet point.
        events: Vec<E>,
    },
    /// The game ended.
    Over {
        /// The final state.
        state: S,
        /// The events since the last quiet point.
        events: Vec<E>,
        /// How it ended.
        outcome: Outcome,
    },
    /// Answer `index` of the replay is not an option of its Decision.
    Bad {
        /// Which answer, from 0.
        index: usize,
        /// Its value.
        answer: usize,
        /// How many options the Decision had.
        options: usize,
    },
    /// The game could not be resumed or set up.
    Failed(String),
}

/// The answers a replay gives, shared by the seats' controllers: the next
/// one for each Decision met; when they run out, or one is out of range,
/// every later question is refused (the engine's halting) and the feed says
/// why ([`Feed::take_stop`]). The game itself keeps the position where its
/// controller first gave up (`Game::capture_halt`): the feed never sees the
/// state.
pub struct Feed {
    answers: Vec<usize>,
    used: usize,
    stop: Option<FeedStop>,
    /// Translating: the options chosen, by key, to find in each Decision's
    /// options instead of the answers ([`Feed::translating`]).
    keys: Option<Vec<String>>,
    /// Recording: the key of each option chosen ([`Feed::recording`]).
    chosen: Option<Vec<String>>,
    /// The indices given, in order.
    given: Vec<usize>,
    /// Whether the run keeps an inner point ([`Run::inner`]) where the
    /// answers ran dry ([`Feed::wants_inner`]).
    inner: bool,
}

/// Why a [`Feed`] stopped answering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedStop {
    /// The answers ran out at a Decision.
    RanOut,
    /// Answer `index` is `answer`, but its Decision had `options` options
    /// (translating: the option chosen is not among them, `answer` is `usize::MAX`).
    Bad {
        /// Which answer, from 0.
        index: usize,
        /// Its value.
        answer: usize,
        /// How many options the Decision had.
        options: usize,
    },
}

impl Feed {
    fn of(answers: Vec<usize>, keys: Option<Vec<String>>, chosen: Option<Vec<String>>) -> Rc<RefCell<Self>> {
        Rc::new(RefCell::new(Feed { answers, used: 0, stop: None, keys, chosen, given: Vec::new(), inner: false }))
    }

    /// A feed of `answers`, for the seats to share.
    pub fn shared(answers: &[usize]) -> Rc<RefCell<Self>> {
        Feed::of(answers.to_vec(), None, None)
    }

    /// A feed of `answers` that also notes the key of each option chosen
    /// ([`Feed::chosen`]).
    pub fn recording(answers: &[usize]) -> Rc<RefCell<Self>> {
        Feed::of(answers.to_vec(), None, Some(Vec::new()))
    }

    /// The same feed, keeping an inner point where its answers ran dry
    /// ([`Run::inner`]) when `keep` says so: a table that will be played on
    /// again wants one, a look-ahead's or a search's one-off run does not.
    pub fn keeping_inner(feed: Rc<RefCell<Self>>, keep: bool) -> Rc<RefCell<Self>> {
        feed.borrow_mut().inner = keep;
        feed
    }

    /// Whether an inner point is wanted here: the run keeps them
    /// ([`Feed::keeping_inner`]) and the answers ran dry, so the run stops
    /// at the next Decision a live player gives up or at this one.
    pub fn wants_inner(&self) -> bool {
        self.inner && self.ran_dry()
    }

    /// A feed that answers each Decision with the option of the next key
    /// (as [`Feed::recording`] noted them on another line of play), and
    /// stops as bad where no option has it.
    pub fn translating(keys: Vec<String>) -> Rc<RefCell<Self>> {
        Feed::of(Vec::new(), Some(keys), None)
    }

    /// The answer to a Decision of `options` options, or `None` once the
    /// answers ran out or one was out of range. `key(i)` names option `i`
    /// (asked only when recording or translating).
    pub fn next(&mut self, options: usize, key: impl Fn(usize) -> String) -> Option<usize> {
        if self.stop.is_some() {
            return None;
        }
        if let Some(keys) = &self.keys {
            let Some(want) = keys.get(self.used) else {
                self.stop = Some(FeedStop::RanOut);
                return None;
            };
            return match (0..options).find(|&i| key(i) == *want) {
                Some(i) => {
                    self.used += 1;
                    self.given.push(i);
                    Some(i)
                }
                None => {
                    self.stop = Some(FeedStop::Bad { index: self.used, answer: usize::MAX, options });
                    None
                }
            };
        }
        match self.answers.get(self.used) {
            Some(&a) if a < options => {
                self.used += 1;
                self.given.push(a);
                if let Some(chosen) = &mut self.chosen {
                    chosen.push(key(a));
                }
                Some(a)
            }
            Some(&answer) => {
                self.stop = Some(FeedStop::Bad { index: self.used, answer, options });
                None
            }
            None => {
                self.stop = Some(FeedStop::RanOut);
                None
            }
        }
    }

    /// Whether every answer was used and nothing stopped the feed: the
    /// next Decision is a live player's, if the run has any.
    pub fn ran_dry(&self) -> bool {
        self.stop.is_none() && self.keys.is_none() && self.used == self.answers.len()
    }

    /// A live player's `answer` to a Decision of `options` options, once
    /// the feed [ran dry](Feed::ran_dry): kept as the next answer and
    /// given; `None` (the player gave up) stops the feed as run out, an
    /// answer out of range as bad.
    pub fn give(&mut self, answer: Option<usize>, options: usize) -> Option<usize> {
        match answer {
            Some(a) if a < options => {
                self.answers.push(a);
                self.used += 1;
                self.given.push(a);
                Some(a)
            }
            Some(answer) => {
                self.stop = Some(FeedStop::Bad { index: self.used, answer, options });
                None
            }
            None => {
                self.stop = Some(FeedStop::RanOut);
                None
            }
        }
    }

    /// The answers: those it was given, then the live players' ([`Feed::give`]).
    pub fn answers(&self) -> &[usize] {
        &self.answers
    }

    /// How many answers were used.
    pub fn used(&self) -> usize {
        self.used
    }

    /// The indices given, in order.
    pub fn given(&self) -> &[usize] {
        &self.given
    }

    /// The keys of the options chosen, when recording.
    pub fn chosen(&self) -> &[String] {
        self.chosen.as_deref().unwrap_or_default()
    }

    /// Why the feed stopped the game, if it did.
    pub fn take_stop(&mut self) -> Option<FeedStop> {
        self.stop.take()
    }
}

impl FeedStop {
    /// The replay's [`Stop`]: at the Decision the game kept (`captured`), or
    /// a bad answer.
    pub fn into_stop<D, S, E>(self, captured: Option<(D, S, Vec<E>)>) -> Stop<D, S, E> {
        match (self, captured) {
            (FeedStop::Bad { index, answer, options }, _) => Stop::Bad { index, answer, options },
            (FeedStop::RanOut, Some((decision, state, events))) => Stop::Decision { decision, state, events },
            (FeedStop::RanOut, None) => Stop::Failed("the game kept no position at the Decision it stopped at".into()),
        }
    }
}

/// The quiet point, answers since, position and inner point a replay with
/// `since` from `quiet` found (`inner`: the inner point it started from, kept
/// when the run passed no quiet point and found no later one).
#[allow(clippy::type_complexity)]
fn settle<Q, D, S, E>(
    mut quiet: Rc<Quiet<Q, E>>,
    run: Run<Q, D, S, E>,
    since: Vec<usize>,
    inner: Option<Rc<(Q, usize)>>,
) -> Result<Settled<Q, D, S, E>, TableError> {
    if run.used < since.len() && matches!(run.stop, Stop::Over { .. }) {
        // The game ended before the last answers: they would answer nothing.
        return Err(TableError::Over);
    }
    let at = match run.stop {
        Stop::Decision { decision, state, events } => {
            At::Decision { decision, state, events, neutral: OnceCell::new() }
        }
        Stop::Over { state, events, outcome } => At::Over { state, events, outcome },
        Stop::Bad { index, answer, options } => return Err(TableError::BadAnswer { index, answer, options }),
        Stop::Failed(why) => return Err(TableError::Engine(why)),
    };
    let mut used = 0;
    let passed = !run.passed.is_empty();
    for p in run.passed {
        let log = quiet.log.with(p.events);
        quiet = Rc::new(Quiet { point: p.quiet, log });
        used = p.used;
    }
    let inner = match run.inner {
        Some((point, at)) if at >= used => Some(Rc::new((point, at - used))),
        _ if passed => None,
        _ => inner,
    };
    Ok(Settled { quiet, since: since[used.min(since.len())..].to_vec(), at, inner })
}

/// What [`settle`] found.
struct Settled<Q, D, S, E> {
    quiet: Rc<Quiet<Q, E>>,
    since: Vec<usize>,
    at: At<D, S, E>,
    inner: Option<Rc<(Q, usize)>>,
}

/// A quiet point with the log before it.
struct Quiet<Q, E> {
    point: Q,
    log: Log<E>,
}

/// The position the answers since the quiet point lead to.
enum At<D, S, E> {
    Decision { decision: D, state: S, events: Vec<E>, neutral: OnceCell<Decision> },
    Over { state: S, events: Vec<E>, outcome: Outcome },
}

/// How many deals [`Replayed::determinize`] tries; the last deals nothing
/// anew (it only reseeds), which is always consistent.
const DETERMINIZE_TRIES: usize = 8;

/// A table of a game whose engine is `E`: a checkpoint at the last quiet
/// point (shared by forks), the answers since, and the position they lead
/// to (shared by forks until one of them answers). [`Table::apply`] replays
/// the answers since the checkpoint with the new one; a fork is a few
/// reference counts and the answers since.
pub struct Replayed<'a, E: Engine<'a>> {
    engine: E,
    quiet: Rc<Quiet<E::Quiet, E::Event>>,
    since: Vec<usize>,
    at: Rc<At<E::Decision, E::State, E::Event>>,
    /// A point inside the answers since the quiet point to replay from
    /// instead ([`Run::inner`]), and how many of them lead to it.
    inner: Option<Rc<(E::Quiet, usize)>>,
    /// Whether replays keep inner points: not on a look-ahead's or a
    /// search's world ([`Replayed::reseeded`], [`Replayed::determinize`]),
    /// which is played on once and dropped.
    keep_inner: bool,
    _content: PhantomData<&'a ()>,
}

impl<'a, E: Engine<'a>> Clone for Replayed<'a, E> {
    fn clone(&self) -> Self {
        Replayed {
            engine: self.engine,
            quiet: self.quiet.clone(),
            since: self.since.clone(),
            at: self.at.clone(),
            inner: self.inner.clone(),
            keep_inner: self.keep_inner,
            _content: PhantomData,
        }
    }
}

impl<'a, E: Engine<'a>> Replayed<'a, E> {
    /// A table at `start` (the game's first quiet point, after `events`),
    /// played on to its first Decision.
    ///
    /// # Errors
    /// The game cannot be set up or played from there.
    pub fn new(engine: E, start: E::Quiet, events: Vec<E::Event>) -> Result<Self, String> {
        let quiet = Rc::new(Quiet { point: start, log: Log::default().with(events) });
        let run = engine.run(&quiet.point, &Feed::keeping_inner(Feed::shared(&[]), true), None);
        let Settled { quiet, since, at, inner } = settle(quiet, run, Vec::new(), None).map_err(|e| match e {
            TableError::Engine(why) => why,
            e => e.to_string(),
        })?;
        Ok(Replayed { engine, quiet, since, at: Rc::new(at), inner, keep_inner: true, _content: PhantomData })
    }

    /// Where a replay of the answers since the quiet point starts: the
    /// inner point if there is one, and how many of those answers it skips.
    fn start(&self) -> (&E::Quiet, usize) {
        match &self.inner {
            Some(inner) if inner.1 <= self.since.len() => (&inner.0, inner.1),
            _ => (&self.quiet.point, 0),
        }
    }

    /// Take what a replay found as this table's position.
    fn settle(
        &mut self,
        run: Run<E::Quiet, E::Decision, E::State, E::Event>,
        since: Vec<usize>,
    ) -> Result<(), TableError> {
        let before = self.since.len();
        let found = settle(self.quiet.clone(), run, since, self.inner.clone()).map_err(|e| match e {
            TableError::BadAnswer { index, answer, options } => {
                TableError::BadAnswer { index: index.saturating_sub(before), answer, options }
            }
            e => e,
        })?;
        self.quiet = found.quiet;
        self.since = found.since;
        self.at = Rc::new(found.at);
        self.inner = found.inner;
        Ok(())
    }

    /// Replay the answers since the quiet point and `more`; unchanged on an error.
    fn advance(&mut self, more: &[usize]) -> Result<(), TableError> {
        if matches!(*self.at, At::Over { .. }) {
            return Err(TableError::Over);
        }
        let mut since = self.since.clone();
        since.extend_from_slice(more);
        let (from, skip) = self.start();
        let feed = Feed::keeping_inner(Feed::shared(&since[skip..]), self.keep_inner);
        let run = self.engine.run(from, &feed, None).shifted(skip);
        self.settle(run, since)
    }

    fn tail(&self) -> &[E::Event] {
        match &*self.at {
            At::Decision { events, .. } | At::Over { events, .. } => events,
        }
    }

    fn state(&self) -> &E::State {
        match &*self.at {
            At::Decision { state, .. } | At::Over { state, .. } => state,
        }
    }

    /// Every event so far, oldest first.
    pub fn events(&self) -> impl Iterator<Item = &E::Event> {
        self.quiet.log.iter().chain(self.tail())
    }

    /// A game consistent with what `seat` knows at this Decision
    /// ([`Table::determinize`]).
    ///
    /// # Errors
    /// The game is over, or the engine could not replay the position.
    pub fn determinize(&self, seat: PlayerId, seed: u64) -> Result<Self, TableError> {
        use rand::{Rng as _, SeedableRng as _};
        let At::Decision { decision: asked, state: now, events: now_events, .. } = &*self.at else {
            return Err(TableError::Over);
        };
        let asked = E::neutral(asked);
        // The options chosen since the quiet point, by key, to find again.
        let record = Feed::recording(&self.since);
        let _ = self.engine.run(&self.quiet.point, &record, None);
        let keys = record.borrow().chosen().to_vec();
        let want = self.engine.seat_json(&self.quiet.point, now, now_events, seat);
        let at = self.engine.answers_before(&self.quiet.point).len() + self.since.len();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for attempt in 0..DETERMINIZE_TRIES {
            let reseed = (at, rng.next_u64());
            let pin_all = attempt + 1 == DETERMINIZE_TRIES;
            let point = self.engine.redeal(&self.quiet.point, now, seat, &mut rng, reseed, pin_all);
            let feed = Feed::translating(keys.clone());
            let run = self.engine.run(&point, &feed, None);
            let given = feed.borrow().given().to_vec();
            if given.len() != keys.len() || !run.passed.is_empty() {
                continue;
            }
            let Stop::Decision { decision, state, events } = run.stop else { continue };
            if E::neutral(&decision) != asked || self.engine.seat_json(&point, &state, &events, seat) != want {
                continue;
            }
            return Ok(Replayed {
                engine: self.engine,
                quiet: Rc::new(Quiet { point, log: self.quiet.log.clone() }),
                since: given,
                at: Rc::new(At::Decision { decision, state, events, neutral: OnceCell::new() }),
                inner: None,
                keep_inner: false,
                _content: PhantomData,
            });
        }
        Err(TableError::Engine("no game consistent with the seat's view could be replayed".into()))
    }

    /// A fork whose dice and draws from this Decision on come from `seed`
    /// ([`Table::reseeded`]): the quiet point's state is copied and told to
    /// reseed when the game asks this Decision, which the answers since the
    /// quiet point lead to as before; nothing is replayed.
    ///
    /// # Errors
    /// The game is over, or it is already reseeded at an earlier Decision
    /// since its quiet point (a reseeded game's fork: one reseed per quiet
    /// point is kept).
    pub fn reseeded(&self, seed: u64) -> Result<Self, TableError> {
        use rand::SeedableRng as _;
        let At::Decision { decision, state: now, .. } = &*self.at else {
            return Err(TableError::Over);
        };
        let at = self.engine.answers_before(&self.quiet.point).len() + self.since.len();
        if E::reseeds_at(&self.quiet.point).is_some_and(|k| k < at) {
            return Err(TableError::Engine(
                "a game reseeded since its last quiet point cannot be reseeded again".into(),
            ));
        }
        // Nothing is dealt anew (`pin_all`): the generator is not drawn from.
        let mut unused = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let point = self.engine.redeal(&self.quiet.point, now, E::player(decision), &mut unused, (at, seed), true);
        let inner = self.inner.as_ref().map(|inner| {
            let point = self.engine.redeal(&inner.0, now, E::player(decision), &mut unused, (at, seed), true);
            Rc::new((point, inner.1))
        });
        Ok(Replayed {
            engine: self.engine,
            quiet: Rc::new(Quiet { point, log: self.quiet.log.clone() }),
            since: self.since.clone(),
            at: self.at.clone(),
            inner,
            keep_inner: false,
            _content: PhantomData,
        })
    }

    /// Play on with `players` ([`Table::play_on`]): one run of the engine
    /// from the quiet point, the answers since replayed, then the players
    /// asked at each Decision until the game ends or one gives up.
    ///
    /// # Errors
    /// A player answered out of range (the table is unchanged), or the
    /// engine could not resume the game.
    pub fn play_on(&mut self, players: &mut [&mut dyn Player]) -> Result<Played, TableError> {
        if let At::Over { .. } = &*self.at {
            return Ok(Played::Over);
        }
        if players.is_empty() {
            return Ok(self.to_move().map_or(Played::Over, Played::GaveUp));
        }
        let (from, skip) = self.start();
        let feed = Feed::keeping_inner(Feed::shared(&self.since[skip..]), self.keep_inner);
        let live = RefCell::new(players);
        let run = self.engine.run(from, &feed, Some(&live)).shifted(skip);
        let mut answers = self.since[..skip].to_vec();
        answers.extend_from_slice(feed.borrow().answers());
        self.settle(run, answers)?;
        Ok(self.to_move().map_or(Played::Over, Played::GaveUp))
    }

    /// The answers given since the last quiet point: what [`Table::apply`] replays.
    pub fn answers_since_quiet_point(&self) -> &[usize] {
        &self.since
    }
}

impl<'a, E: Engine<'a>> Table<'a> for Replayed<'a, E> {
    fn game(&self) -> &'static str {
        E::NAME
    }

    fn seats(&self) -> usize {
        self.engine.seats(&self.quiet.point)
    }

    fn to_move(&self) -> Option<PlayerId> {
        match &*self.at {
            At::Decision { decision, .. } => Some(E::player(decision)),
            At::Over { .. } => None,
        }
    }

    fn options(&self) -> usize {
        match &*self.at {
            At::Decision { decision, .. } => E::options(decision),
            At::Over { .. } => 0,
        }
    }

    fn decision(&self) -> Option<&Decision> {
        match &*self.at {
            At::Decision { decision, neutral, .. } => Some(neutral.get_or_init(|| E::neutral(decision))),
            At::Over { .. } => None,
        }
    }

    fn apply(&mut self, answer: usize) -> Result<(), TableError> {
        let options = self.options();
        if options == 0 {
            return Err(TableError::Over);
        }
        if answer >= options {
            return Err(TableError::BadAnswer { index: 0, answer, options });
        }
        self.advance(&[answer])
    }

    fn apply_all(&mut self, answers: &[usize]) -> Result<(), TableError> {
        if answers.is_empty() {
            return Ok(());
        }
        self.advance(answers)
    }

    fn outcome(&self) -> Option<&Outcome> {
        match &*self.at {
            At::Over { outcome, .. } => Some(outcome),
            At::Decision { .. } => None,
        }
    }

    fn answers(&self) -> Vec<usize> {
        let mut all = self.engine.answers_before(&self.quiet.point).to_vec();
        all.extend_from_slice(&self.since);
        all
    }

    fn event_count(&self) -> usize {
        self.quiet.log.len() + self.tail().len()
    }

    fn events_json(&self) -> Vec<serde_json::Value> {
        self.events().map(|e| serde_json::to_value(e).unwrap_or_default()).collect()
    }

    fn narrative(&self, from: usize) -> Vec<String> {
        self.events().skip(from).map(ToString::to_string).collect()
    }

    fn replays(&self) -> usize {
        self.since.len()
    }

    fn replay_length(&self) -> usize {
        self.since.len() - self.start().1
    }

    fn replays_a_failed_effect(&self) -> bool {
        self.tail().iter().any(E::failed)
    }

    fn seat_narrative(&self, seat: PlayerId, from: usize) -> Vec<String> {
        self.events().skip(from).map(|e| E::seen_line(e, seat)).collect()
    }

    fn state_json(&self) -> serde_json::Value {
        serde_json::to_value(self.state()).unwrap_or_default()
    }

    fn fork(&self) -> Box<dyn Table<'a> + 'a> {
        Box::new(self.clone())
    }

    fn determinize(&self, seat: PlayerId, seed: u64) -> Result<Box<dyn Table<'a> + 'a>, TableError> {
        Ok(Box::new(Replayed::determinize(self, seat, seed)?))
    }

    fn reseeded(&self, seed: u64) -> Result<Box<dyn Table<'a> + 'a>, TableError> {
        Ok(Box::new(Replayed::reseeded(self, seed)?))
    }

    fn play_on(&mut self, players: &mut [&mut dyn Player]) -> Result<Played, TableError> {
        Replayed::play_on(self, players)
    }

    fn native(&self) -> Native<'_> {
        let decision = match &*self.at {
            At::Decision { decision, .. } => Some(decision),
            At::Over { .. } => None,
        };
        self.engine.native(&self.quiet.point, decision, self.state(), self.tail())
    }
}
