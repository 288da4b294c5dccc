//! The running Invictus game, one file per chapter of `003`: `setup` (§ Game
//! Setup, § Who Goes First?), `turn` (§ During Your Turn, § Charge Station,
//! § Completing Your Turn, § Anytime Boosts), `finance` (§ Financial
//! Transactions), `attack` (§ Attack the Enemy, § Attacking and Countering,
//! § Counters, § Defeating an Enemy's Reinforcement), `abilities` (§ Perform
//! Character Abilities, Energy), `revival` (§ Revival and Defeat, § The
//! Apocalypse), `host` (the Lua API's calls).
//!
//! Synchronous like Aristeia's: the game asks a [`Controller`] and waits.
//! All randomness is the game's seeded `ChaCha8` (shuffles, flips, `math.random`).

mod abilities;
mod attack;
mod checkpoint;
mod finance;
mod host;
mod revival;
mod setup;
mod turn;

pub use attack::{AttackFrame, AttackKind, FrameEntry};
pub use checkpoint::Checkpoint;
pub use setup::{GodDeal, InvictusSetup, Seating};

use super::decision::{Choice, Controller, Decision, DecisionKind, View};
use super::event::Event;
use super::state::{BoostCard, Card, GameState, Outcome};
use crate::content::Content;
use crate::model::{Artifact, Boost, God, Id, Marketplace};
use crate::rules::seats::PlayerId;
use crate::script::runtime::{Ctx, Runtime, ScriptId};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Why a game could not be set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// An Invictus game in progress: `'a` borrows the content and runtime it
/// plays on, `'c` its seats' controllers (a table's rollout seats players
/// borrowed for the run, `Table::play_on`).
pub struct Game<'a, 'c> {
    /// The content played with (read-only).
    pub content: &'a Content,
    runtime: Option<&'a Runtime>,
    market: &'a Marketplace,
    cards: std::sync::Arc<CardIndex<'a>>,
    /// The state.
    pub state: GameState,
    /// Everything that happened.
    pub events: Vec<Event>,
    /// Every answer given, in order.
    pub answers: Vec<usize>,
    /// Effects that failed and were undone.
    pub effect_failures: usize,
    /// Scripts run (indices into the runtime's set), for coverage.
    pub effects_run: Vec<usize>,
    /// The last failure's message, for reports.
    pub last_failure: Option<String>,
    rng: ChaCha8Rng,
    controllers: Vec<Box<dyn Controller + 'c>>,
    /// The attack being resolved, with its counters.
    attack: Option<AttackFrame>,
    /// Whose effect is running (the `ctx.self` of the call).
    effect_owner: Option<PlayerId>,
    /// The entry of the attack frame the running effect writes to.
    effect_entry: Option<usize>,
    snapshots: Vec<(GameState, usize, Option<AttackFrame>)>,
    pub(crate) max_turns: u32,
    /// Decisions after which the game is stopped ([`MAX_DECISIONS_PER_GAME`]).
    max_decisions: usize,
    /// Whether a backstop stopped the game ([`Game::stop`]).
    stopped: bool,
    /// Whether to keep the position where a controller first gives up.
    capture_halt: bool,
    /// That position: the Decision, the state and the events when it was asked.
    halted_at: Option<Box<(Decision, GameState, Vec<Event>)>>,
    /// Reseed the RNG when Decision number `.0` is asked ([`Game::reseed_at`]).
    reseed: Option<(usize, u64)>,
}

/// The Artifacts and Boosts by the address of their interned id: a card
/// named by an [`Id`] (all but a few lookups) is found without comparing
/// text; any other text falls back to the content's tables.
#[derive(Debug)]
pub(crate) struct CardIndex<'a> {
    artifacts: rustc_hash::FxHashMap<usize, &'a Artifact>,
    boosts: rustc_hash::FxHashMap<usize, &'a Boost>,
}

impl<'a> CardIndex<'a> {
    pub(crate) fn of(content: &'a Content) -> CardIndex<'a> {
        CardIndex {
            artifacts: content.artifacts.iter().map(|(id, e)| (id.as_ptr() as usize, &e.value)).collect(),
            boosts: content.boosts.iter().map(|(id, e)| (id.as_ptr() as usize, &e.value)).collect(),
        }
    }
}

/// Most Decisions in one Invictus game: a whole game of 2,000 turns (the
/// default `max_turns`) takes a few tens of thousands; past this the game is
/// stopped (a [`Event::Stopped`], no winner), so every game ends, even one
/// whose content lets a player act for ever within a turn.
pub const MAX_DECISIONS_PER_GAME: usize = 100_000;

impl std::fmt::Debug for Game<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game").field("state", &self.state).finish()
    }
}

impl<'a, 'c> Game<'a, 'c> {
    /// The god board of a seat.
    pub fn god(&self, p: PlayerId) -> &'a God {
        let id = &self.state.player(p).god;
        &self.content.gods.get(id).expect("seated gods are loaded").value
    }

    /// Keep the position where a controller first gives up (answers
    /// `usize::MAX`; it is then given the option that ends things soonest),
    /// for [`Game::take_halted_at`]: how a table captures a position
    /// without handing the whole state to a controller.
    pub fn capture_halt(&mut self) {
        self.capture_halt = true;
    }

    /// Reseed the game's RNG with `seed` when it asks its Decision number
    /// `at` (counted from the game's start, as `answers`): a table's
    /// determinization.
    pub fn reseed_at(&mut self, at: usize, seed: u64) {
        self.reseed = Some((at, seed));
    }

    /// The position [`Game::capture_halt`] kept, once.
    pub fn take_halted_at(&mut self) -> Option<(Decision, GameState, Vec<Event>)> {
        self.halted_at.take().map(|b| *b)
    }

    /// What seat `seat` may know of the game now ([`View`]).
    pub fn view(&self, seat: PlayerId) -> View<'_> {
        View::new(seat, &self.state, &self.events, self.content)
    }

    /// A player's name: their god's id.
    pub fn name(&self, p: PlayerId) -> Id {
        self.state.player(p).god
    }

    /// An Artifact card.
    pub fn artifact(&self, id: &str) -> Option<&'a Artifact> {
        match self.cards.artifacts.get(&(id.as_ptr() as usize)) {
            Some(a) if std::ptr::eq(a.id.as_str(), id) => Some(*a),
            _ => self.content.artifacts.get(id).map(|e| &e.value),
        }
    }

    /// A Boost card.
    pub fn boost(&self, id: &str) -> Option<&'a Boost> {
        match self.cards.boosts.get(&(id.as_ptr() as usize)) {
            Some(b) if std::ptr::eq(b.id.as_str(), id) => Some(*b),
            _ => self.content.boosts.get(id).map(|e| &e.value),
        }
    }

    /// The marketplace and rule numbers played with.
    pub fn marketplace(&self) -> &'a Marketplace {
        self.market
    }

    /// The Energy a card gives towards an ability (0 for counterfeits and Clinkers).
    pub(crate) fn energy_value(&self, c: &Card) -> i32 {
        match c {
            Card::Artifact(id) => self.artifact(id).and_then(|a| a.energy).unwrap_or(0) as i32,
            Card::Counterfeit(_) => 0,
        }
    }

    /// Full Stamina: the first token's 14 and 2 for every further active
    /// token (`003 § Stamina`; ruling I2: an inactive token, even the
    /// first, takes away 2).
    pub fn full_stamina(&self, p: PlayerId) -> i32 {
        let active = self.state.active_tokens(p, crate::model::Skill::Stamina) as i32;
        (self.market.base_stamina as i32 + self.market.stamina_step as i32 * (active - 1)).max(0)
    }

    /// The most Stamina a god may have (24: `003 § Elixir`; the market's `max_stamina`).
    pub fn max_stamina(&self) -> i32 {
        self.market.max_stamina as i32
    }

    pub(crate) fn emit(&mut self, e: Event) {
        self.events.push(e);
    }

    /// Ask `player` a decision; a single option is taken without asking.
    /// Past its most Decisions ([`MAX_DECISIONS_PER_GAME`] unless the setup
    /// says otherwise) the game is stopped, and from then on
    /// every decision takes the option that ends what is asked (ending the
    /// turn, paying, passing) without asking.
    pub(crate) fn ask(&mut self, player: PlayerId, kind: DecisionKind, prompt: &str, options: Vec<Choice>) -> Choice {
        if options.len() == 1 {
            return options.into_iter().next().expect("one option");
        }
        if self.answers.len() >= self.max_decisions && !self.stopped {
            self.stop(format!("the game took more than {} Decisions: it is stopped", self.max_decisions));
        }
        if self.stopped {
            let ending = |c: &Choice| matches!(c, Choice::EndTurn | Choice::Complete | Choice::Pass);
            let i = options.iter().position(ending).unwrap_or(0);
            return options.into_iter().nth(i).expect("an option");
        }
        if let Some((at, seed)) = self.reseed {
            if self.answers.len() == at {
                self.rng = ChaCha8Rng::seed_from_u64(seed);
                self.reseed = None;
            }
        }
        let d = Decision { player, kind, prompt: prompt.to_string(), options };
        let view = View::new(player, &self.state, &self.events, self.content);
        let i = self.controllers[player.index()].decide(&d, &view);
        let i = if i == usize::MAX {
            // The controller gave up (a table's replay out of answers): keep
            // the position once, and take the option that ends things soonest.
            if self.capture_halt && self.halted_at.is_none() {
                self.halted_at = Some(Box::new((d.clone(), self.state.clone(), self.events.clone())));
            }
            let ending = |c: &Choice| matches!(c, Choice::EndTurn | Choice::Complete | Choice::Pass);
            d.options.iter().position(ending).unwrap_or(0)
        } else {
            i.min(d.options.len() - 1)
        };
        self.answers.push(i);
        d.options.into_iter().nth(i).expect("index checked")
    }

    /// A Fisher-Yates shuffle with the game's RNG.
    pub(crate) fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.rng.random_range(0..=i);
            v.swap(i, j);
        }
    }

    /// A game that would not end is stopped: a [`Event::Stopped`] with
    /// `message`, no winner, and a failure named after the engine (so
    /// `arena check --sims` and `arena sim invictus` report it).
    fn stop(&mut self, message: String) {
        self.stopped = true;
        self.effect_failures += 1;
        self.last_failure = Some(format!("(engine): {message}"));
        self.emit(Event::Stopped { message });
        if self.state.outcome.is_none() {
            self.state.outcome = Some(Outcome::NoWinner);
        }
    }

    /// Run an effect's Lua, if it has any: `card` is `god:athena`, `boost:godlike`...,
    /// `path` the effect's path in it. A failure is recorded and undone.
    pub(crate) fn run_effect(&mut self, owner: PlayerId, card: &str, path: &str, target: Option<PlayerId>) {
        let Some(rt) = self.runtime else { return };
        let Some(id): Option<ScriptId> = rt.scripts().find(card, path) else { return };
        let ctx = Ctx { self_id: Some(self.name(owner)), target: target.map(|t| self.name(t)), ..Ctx::default() };
        let previous = self.effect_owner.replace(owner);
        self.effects_run.push(id.0);
        if let Err(e) = rt.call(id, self, &ctx) {
            self.effect_failures += 1;
            let message = e.to_string();
            self.last_failure = Some(format!("{card} {path}: {message}"));
            self.emit(Event::EffectFailed { card: format!("{card} {path}"), message });
        }
        self.effect_owner = previous;
        self.check_down();
    }

    /// Take the top Boost of the deck, after an Apocalypse if it is empty.
    pub(crate) fn take_boost(&mut self) -> Option<BoostCard> {
        if self.state.boost_deck.is_empty() {
            self.reshuffle_boosts();
        }
        self.state.boost_deck.pop()
    }

    fn reshuffle_boosts(&mut self) {
        let mut d = std::mem::take(&mut self.state.boost_discard);
        self.shuffle(&mut d);
        self.state.boost_deck = d;
    }

    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.state.outcome.is_some()
    }

    /// Play the game to its end (or `max_turns` turns) and return the outcome.
    pub fn play(&mut self) -> Outcome {
        loop {
            if let Some(outcome) = self.play_next_turn() {
                return outcome;
            }
        }
    }

    /// One step of [`play`](Self::play): the active player's turn, then the
    /// next player becomes active (a quiet point: [`Game::checkpoint`]); or,
    /// once the game is over or `max_turns` turns were played, its end
    /// ([`Event::GameEnded`]) and the outcome. Not to be called again after
    /// it returned the outcome.
    pub fn play_next_turn(&mut self) -> Option<Outcome> {
        if self.state.outcome.is_none() {
            if self.state.turn >= self.max_turns {
                self.stop(format!("the game took more than {} turns: it is stopped", self.max_turns));
            } else {
                self.play_turn();
                if self.state.outcome.is_none() {
                    self.state.active = self.state.next_after(self.state.active);
                    return None;
                }
            }
        }
        let winner = match self.state.outcome {
            Some(Outcome::Team(t)) => Some(t),
            _ => None,
        };
        self.emit(Event::GameEnded { winner, turns: self.state.turn });
        Some(self.state.outcome.clone().unwrap_or(Outcome::NoWinner))
    }

    /// Ends the game when at most one team has players left (`003 § Revival and Defeat`:
    /// "A team wins when all enemies have been defeated").
    pub(crate) fn check_winner(&mut self) {
        if self.state.outcome.is_some() {
            return;
        }
        let teams = self.state.teams_left();
        match teams.as_slice() {
            [t] => self.state.outcome = Some(Outcome::Team(*t)),
            [] => self.state.outcome = Some(Outcome::NoWinner),
            _ => {}
        }
    }
}
