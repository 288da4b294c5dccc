//! Checkpoints: a game at a quiet point (before its Setup, at a Round's
//! start), copied without its controllers, to be resumed later with others.
//! What makes a game a value ([`crate::table`]): a checkpoint plus the answers
//! since it is the game, replayed exactly (ARCHITECTURE.md § Decisions).

use super::*;

/// A game at a quiet point, without its controllers and without the events
/// before it (the caller keeps those: [`Game::checkpoint`] takes them out).
/// [`Checkpoint::resume`] makes a game that plays on exactly as the original
/// would have: the same state, RNG, answers so far, Lua log allowance and
/// every bookkeeping field.
///
/// Quiet means no effect is running (no undo point), which holds between
/// [`Game::play_setup`] and [`Game::play_round`] calls and after
/// [`Game::new`].
///
/// It holds no borrow: [`Checkpoint::resume`] is given the content and the
/// runtime again (the content must be the one it was taken with).
#[derive(Clone)]
pub struct Checkpoint {
    /// The address of the content played with, to refuse another.
    content: usize,
    board: std::rc::Rc<Board>,
    state: GameState,
    answers: Vec<usize>,
    effect_failures: usize,
    scenario_hooks: std::rc::Rc<Vec<Vec<usize>>>,
    forced: ForcedDice,
    minion_cards: Vec<std::rc::Rc<model::Character>>,
    projectile_card: std::rc::Rc<model::Character>,
    effects_run: BTreeSet<usize>,
    roll_frame: RollFrame,
    effect_frame: EffectFrame,
    last_hit: BTreeMap<Id, FragBy>,
    state_credit: Option<FragBy>,
    set_aside: Seated<Vec<Id>>,
    draft_sizes: Seated<usize>,
    last_cause: BTreeMap<Id, model::BenchCause>,
    /// The Lua log allowance the game had used ([`Runtime::game_log`]).
    logged: usize,
}

impl<'a> Game<'a> {
    /// The game as it is now, without its controllers, taking its events out
    /// (returned beside it: the caller keeps the log). `None` while an effect
    /// runs (not a quiet point), or once a controller gave up (`halted`).
    pub fn checkpoint(&mut self) -> Option<(Checkpoint, Vec<Event>)> {
        let cp = self.keep()?;
        Some((cp, std::mem::take(&mut self.events)))
    }

    /// The game as it is now, without its controllers or its events; `None`
    /// while an effect runs or once a controller gave up.
    fn keep(&self) -> Option<Checkpoint> {
        if !self.snapshots.is_empty() || self.halted.is_some() {
            return None;
        }
        Some(Checkpoint {
            content: self.content as *const Content as usize,
            board: self.board.clone(),
            state: self.state.clone(),
            answers: self.answers.clone(),
            effect_failures: self.effect_failures,
            scenario_hooks: self.scenario_hooks.clone(),
            forced: self.forced.clone(),
            minion_cards: self.minion_cards.clone(),
            projectile_card: self.projectile_card.clone(),
            effects_run: self.effects_run.clone(),
            roll_frame: self.roll_frame.clone(),
            effect_frame: self.effect_frame.clone(),
            last_hit: self.last_hit.clone(),
            state_credit: self.state_credit.clone(),
            set_aside: self.set_aside.clone(),
            draft_sizes: self.draft_sizes.clone(),
            last_cause: self.last_cause.clone(),
            logged: self.runtime.game_log(),
        })
    }

    /// Keep a checkpoint at each choice of an Actions Step for which `when`
    /// says yes (a table's replay asks at the choice whose Decision it will
    /// stop at): the last one is [`Game::take_actions_point`]'s. A choice
    /// of the Actions Step is a quiet point inside an Activation: nothing
    /// runs but the Activation's own loop ([`Game::resume_actions_step`]
    /// goes on from it).
    pub fn keep_actions_points(&mut self, when: std::rc::Rc<dyn Fn() -> bool>) {
        self.actions_points = Some(when);
    }

    /// The last Actions Step choice kept ([`Game::keep_actions_points`]), once.
    pub fn take_actions_point(&mut self) -> Option<Box<ActionsPoint>> {
        self.actions_point.take()
    }

    /// Forget the Actions Step choice kept, if any (a later quiet point was passed).
    pub fn forget_actions_point(&mut self) {
        self.actions_point = None;
    }

    /// At a choice of an Actions Step, its options known and its question
    /// not yet asked: keep a checkpoint there if asked.
    pub(super) fn at_actions_step_choice(&mut self, id: &str, owner: PlayerId, choices: usize, options: &[Choice]) {
        if !self.actions_points.as_ref().is_some_and(|when| when()) {
            return;
        }
        if let Some(checkpoint) = self.keep() {
            self.actions_point = Some(Box::new(ActionsPoint {
                checkpoint,
                events: self.events.len(),
                character: Id::from(id),
                owner,
                choices,
                options: options.to_vec(),
                reseed: self.reseed,
            }));
        }
    }

    /// Go on from an Actions Step choice ([`ActionsPoint`]): its question
    /// asked with `options`, the rest of `character`'s Actions Step, then
    /// the rest of its Activation, as [`Game::play_activation`] would have.
    ///
    /// # Errors
    /// As [`Game::play_activation`].
    pub fn resume_actions_step(
        &mut self,
        character: Id,
        owner: PlayerId,
        choices: usize,
        options: Vec<Choice>,
    ) -> Result<()> {
        self.actions_step_from(&character, owner, choices, Some(options))
    }
}

/// A checkpoint at a choice of an Actions Step (`000 § Actions Step`),
/// inside an Activation, once the choice's options are known (the Lua
/// `condition`s of its Actions and Tactics have run) and before its
/// question is asked: what [`Game::resume_actions_step`] needs beside
/// the checkpoint, and how many events the game had there (those since the
/// last checkpoint taken with [`Game::checkpoint`] or resumed with, which
/// a resumed game must be given back: [`Checkpoint::resume_with`]).
pub struct ActionsPoint {
    /// The game there.
    pub checkpoint: Checkpoint,
    /// How many events the game had there.
    pub events: usize,
    /// The active Character.
    pub character: Id,
    /// Its player.
    pub owner: PlayerId,
    /// Which choice of its Actions Step it is (from 1).
    pub choices: usize,
    /// Its options, in order (the question is asked next).
    pub options: Vec<Choice>,
    /// The reseed still to come there ([`Game::reseed_at`]), if any.
    pub reseed: Option<(usize, u64)>,
}

impl Checkpoint {
    /// A game that plays on from this point on `content` and `runtime` (those
    /// of the game it was taken from) with `controllers` (one per seat), its
    /// event log empty (the events before the checkpoint are the caller's).
    /// The runtime's log allowance is set back to the checkpoint's.
    ///
    /// # Errors
    /// Other content than the checkpoint's, or not one controller per seat.
    pub fn resume<'b>(
        &self,
        content: &'b Content,
        runtime: &'b Runtime,
        controllers: Vec<&'b mut dyn Controller>,
    ) -> Result<Game<'b>> {
        if content as *const Content as usize != self.content {
            return Err("a checkpoint resumes only on the content it was taken with".into());
        }
        let seats = self.state.players.table().len();
        if controllers.len() != seats {
            return Err(format!("{seats} players need {seats} controllers, not {}", controllers.len()));
        }
        runtime.resume_game(self.logged);
        Ok(Game {
            content,
            board: self.board.clone(),
            state: self.state.clone(),
            events: Vec::new(),
            answers: self.answers.clone(),
            runtime,
            controllers: controllers.into(),
            snapshots: Vec::new(),
            effect_failures: self.effect_failures,
            scenario_hooks: self.scenario_hooks.clone(),
            forced: self.forced.clone(),
            halted: None,
            capture_halt: false,
            halted_at: None,
            reseed: None,
            observer: None,
            minion_cards: self.minion_cards.clone(),
            projectile_card: self.projectile_card.clone(),
            effects_run: self.effects_run.clone(),
            roll_frame: self.roll_frame.clone(),
            effect_frame: self.effect_frame.clone(),
            // A cache of Line of Sight for the positions of the moment: a
            // fresh one answers the same (it is keyed by those positions).
            sight_cache: Default::default(),
            last_hit: self.last_hit.clone(),
            state_credit: self.state_credit.clone(),
            set_aside: self.set_aside.clone(),
            draft_sizes: self.draft_sizes.clone(),
            last_cause: self.last_cause.clone(),
            actions_points: None,
            actions_point: None,
        })
    }

    /// [`Checkpoint::resume`], with the events since the last quiet point
    /// before it given back (an [`ActionsPoint`]'s): the game goes on as if it
    /// had never stopped there.
    ///
    /// # Errors
    /// As [`Checkpoint::resume`].
    pub fn resume_with<'b>(
        &self,
        content: &'b Content,
        runtime: &'b Runtime,
        controllers: Vec<&'b mut dyn Controller>,
        events: Vec<Event>,
    ) -> Result<Game<'b>> {
        let mut game = self.resume(content, runtime, controllers)?;
        game.events = events;
        Ok(game)
    }

    /// The state at the checkpoint.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The same checkpoint with another state (a determinization's deal).
    pub(crate) fn with_state(&self, state: GameState) -> Checkpoint {
        Checkpoint { state, ..self.clone() }
    }

    /// The map's terrain.
    pub fn board(&self) -> &Board {
        &self.board
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
