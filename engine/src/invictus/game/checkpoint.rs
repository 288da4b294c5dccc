//! Checkpoints: an Invictus game at a quiet point (a turn's start), copied
//! without its controllers, to be resumed later with others (the same
//! mechanism as Aristeia's `rules::game::Checkpoint`; `crate::table` uses both).

use super::*;

/// A game between two turns, without its controllers and without the events
/// before it (the caller keeps those: [`Game::checkpoint`] takes them out).
/// [`Checkpoint::resume`] makes a game that plays on exactly as the original
/// would have: the same state, RNG, answers so far and Lua log allowance.
#[derive(Clone)]
pub struct Checkpoint<'a> {
    content: &'a Content,
    runtime: Option<&'a Runtime>,
    market: &'a Marketplace,
    cards: std::sync::Arc<CardIndex<'a>>,
    state: GameState,
    answers: Vec<usize>,
    effect_failures: usize,
    effects_run: Vec<usize>,
    last_failure: Option<String>,
    rng: ChaCha8Rng,
    attack: Option<AttackFrame>,
    effect_owner: Option<PlayerId>,
    effect_entry: Option<usize>,
    max_turns: u32,
    max_decisions: usize,
    stopped: bool,
    /// The Lua log allowance the game had used.
    logged: usize,
}

impl<'a, 'c> Game<'a, 'c> {
    /// The game as it is now, without its controllers, taking its events out
    /// (returned beside it: the caller keeps the log). `None` while an effect
    /// runs or an attack is resolved (not a quiet point).
    pub fn checkpoint(&mut self) -> Option<(Checkpoint<'a>, Vec<Event>)> {
        if !self.snapshots.is_empty() || self.attack.is_some() {
            return None;
        }
        let cp = Checkpoint {
            content: self.content,
            runtime: self.runtime,
            market: self.market,
            cards: self.cards.clone(),
            state: self.state.clone(),
            answers: self.answers.clone(),
            effect_failures: self.effect_failures,
            effects_run: self.effects_run.clone(),
            last_failure: self.last_failure.clone(),
            rng: self.rng.clone(),
            attack: None,
            effect_owner: self.effect_owner,
            effect_entry: self.effect_entry,
            max_turns: self.max_turns,
            max_decisions: self.max_decisions,
            stopped: self.stopped,
            logged: self.runtime.map_or(0, |rt| rt.game_log()),
        };
        Some((cp, std::mem::take(&mut self.events)))
    }
}

impl<'a> Checkpoint<'a> {
    /// A game that plays on from this point with `controllers` (one per
    /// seat), its event log empty (the events before the checkpoint are the
    /// caller's). The runtime's log allowance is set back to the checkpoint's.
    ///
    /// # Errors
    /// Not one controller per seat.
    pub fn resume<'c>(&self, controllers: Vec<Box<dyn Controller + 'c>>) -> Result<Game<'a, 'c>, SetupError> {
        if controllers.len() != self.state.players.len() {
            return Err(SetupError(format!(
                "{} controllers for {} players",
                controllers.len(),
                self.state.players.len()
            )));
        }
        if let Some(rt) = self.runtime {
            rt.resume_game(self.logged);
        }
        Ok(Game {
            content: self.content,
            runtime: self.runtime,
            market: self.market,
            cards: self.cards.clone(),
            state: self.state.clone(),
            events: Vec::new(),
            answers: self.answers.clone(),
            effect_failures: self.effect_failures,
            effects_run: self.effects_run.clone(),
            last_failure: self.last_failure.clone(),
            rng: self.rng.clone(),
            controllers,
            attack: self.attack.clone(),
            effect_owner: self.effect_owner,
            effect_entry: self.effect_entry,
            snapshots: Vec::new(),
            max_turns: self.max_turns,
            max_decisions: self.max_decisions,
            stopped: self.stopped,
            capture_halt: false,
            halted_at: None,
            reseed: None,
        })
    }

    /// The state at the checkpoint.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The same checkpoint with another state (a determinization's deal).
    pub(crate) fn with_state(&self, state: GameState) -> Checkpoint<'a> {
        Checkpoint { state, ..self.clone() }
    }

    /// The content played with.
    pub fn content(&self) -> &'a Content {
        self.content
    }

    /// Every answer given before the checkpoint.
    pub fn answers(&self) -> &[usize] {
        &self.answers
    }

    /// Effects that failed (and were undone) before the checkpoint.
    pub fn effect_failures(&self) -> usize {
        self.effect_failures
    }
}
