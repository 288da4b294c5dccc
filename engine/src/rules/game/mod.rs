//! An Aristeia! game: state, setup, and the Round loop (`000 § Rounds`); with
//! three or four players, Prime Time's (`001`: the marker, snake order, two
//! Running Orders, the Bench instead of the Infirmary; rulings R46-R48).
//!
//! [`Game::play`] runs a whole game: every choice is a [`Decision`] answered by
//! the players' [`Controller`]s, every change of state an [`Event`], every die
//! drawn from the game's seeded RNG. Card effects are the content's Lua, run by
//! a [`Runtime`] with the game as their [`Host`]; an effect that fails is undone
//! (the state is restored) and recorded as [`Event::EffectFailed`].
//!
//! Minions (`002 § Minion`) are units too ([`MinionOf`]); timing windows open
//! at their steps for Tactics and Automatic Skills ([`model::Window`]).
//!
//! The rules are split by the rulebook's chapters, one child module each:
//! `setup`, `rounds` (Planning, Turns, Activations, Bench, Recovery),
//! `actions`, `movement` (and Disengage), `rolls` (pools, dice, Face to Face,
//! Switches, Cover), `tactics`, `windows` (restrictions, Automatic Skills),
//! `effects` (running Lua, probes, what effects set off), `damage`
//! (Infirmary, Frags), `states`, `minions`, `special_spaces`, `projectiles`,
//! `scoring`, and `host` (the Lua API's calls). `units` and `sight` answer
//! the questions every chapter asks (whose unit, where, Line of Sight,
//! Range). The state itself is plain data in [`crate::rules::state`].

mod actions;
mod checkpoint;
mod damage;
mod draft;
mod effects;
mod game_setup;
mod host;
mod host_args;
mod host_scenario;
mod minions;
mod movement;
mod objectives;
mod objectives_claim;
mod optional;
mod projectiles;
mod restrict;
mod rolls;
mod rounds;
mod scenario;
mod scoring;
mod setup;
mod sight;
mod special_spaces;
mod states;
mod tactics;
mod umpire;
mod units;
mod windows;

use crate::content::Content;
use crate::model::{self, Action, Id, Pool, Symbol};
use crate::rules::decision::{Choice, Controller, Decision, DecisionKind};
use crate::rules::event::{Event, PlayerId};
use crate::rules::geometry::{self, Hex, Sight};
use crate::rules::roll::{FaceToFace, Side, SideRoll};
use crate::rules::seats::{Seated, Table};
use crate::rules::state::*;
use crate::script::api::{ApiFn, ApiValue};
use crate::script::host::Host;
use crate::script::runtime::{Ctx, Runtime, ScriptId};
use rand::{RngExt, SeedableRng};
use smallvec::SmallVec;
use std::collections::{BTreeMap, BTreeSet};

pub use checkpoint::{ActionsPoint, Checkpoint};
pub use game_setup::GameSetup;
pub use restrict::{Forbid, Restriction};

/// The umpire's look at each Decision answered ([`Game::observe`]): the
/// Decision, the whole state when it was asked, the answer.
pub type Observer<'a> = &'a mut dyn FnMut(&Decision, &GameState, usize);
pub use optional::OptionalRule;

/// A Character's card, or the Character-shaped card the engine builds for a
/// Minion (its Hit Points, attribute pools, Switches and Actions; no Energy,
/// Speed or Initiative: a Minion has no Activation of its own).
#[derive(Debug, Clone)]
pub(in crate::rules) enum Card<'a> {
    Character(&'a model::Character),
    Minion(std::rc::Rc<model::Character>),
}

impl std::ops::Deref for Card<'_> {
    type Target = model::Character;
    fn deref(&self) -> &model::Character {
        match self {
            Card::Character(c) => c,
            Card::Minion(m) => m,
        }
    }
}

/// The Character-shaped card of a Minion.
fn minion_card(controller: &model::Character, m: &model::Minion) -> model::Character {
    model::Character {
        id: m.id,
        name: m.name.clone(),
        card: None,
        initiative: 0,
        speed: 0,
        energy: 0,
        hit_points: m.hit_points,
        defense: m.defense.clone().unwrap_or_default(),
        brawn: m.brawn.clone().unwrap_or_default(),
        agility: m.agility.clone().unwrap_or_default(),
        switches: m.switches.clone(),
        actions: m.actions.clone(),
        automatic_skills: vec![],
        smoke_tokens: 0,
        minions: vec![],
        meta: controller.meta.clone(),
    }
}

/// The space of a Barrier named `barrier@q,r` ([`model::Action::obstacle_targets`]).
fn barrier_space(id: &str) -> Option<Hex> {
    let (q, r) = id.strip_prefix("barrier@")?.split_once(',')?;
    Some(Hex::new(q.trim().parse().ok()?, r.trim().parse().ok()?))
}

/// The Contender Attack every Character has (`000 § Contender`). Its card text
/// is not printed in the rulebooks: this stands in for it (docs/rulings.md R6).
/// Built once per process (every Actions Step asks for it).
pub fn contender() -> &'static Action {
    static CONTENDER: std::sync::LazyLock<Action> = std::sync::LazyLock::new(contender_card);
    &CONTENDER
}

fn contender_card() -> Action {
    Action {
        id: "contender".into(),
        name: "Contender".into(),
        attack: true,
        cost: 2,
        movement_points: 0,
        movement_cost: 0,
        obstacle_targets: false,
        range: Some(model::Range { min: 1, max: 1, line_of_sight: true }),
        roll: Some(Pool { dice: vec!["orange".into()], symbols: vec![] }),
        switches: vec![],
        effects: vec![],
        condition: None,
    }
}

/// A running game.
pub struct Game<'a> {
    pub(in crate::rules) content: &'a Content,
    /// The map's terrain: the same for the whole game, shared by its checkpoints.
    pub(in crate::rules) board: std::rc::Rc<Board>,
    /// The state.
    pub state: GameState,
    /// Every event so far.
    pub events: Vec<Event>,
    /// Every answer given, in order (the replay).
    pub answers: Vec<usize>,
    runtime: &'a Runtime,
    controllers: Seated<&'a mut dyn Controller>,
    /// The undo point of each running effect, innermost last, to undo it if
    /// it fails (see `host::Undo`).
    snapshots: Vec<host::Undo>,
    effect_failures: usize,
    /// The Scenario's rules to perform at each [`model::ScenarioWindow`]
    /// (indices into its `rules`, by the window's index).
    scenario_hooks: std::rc::Rc<Vec<Vec<usize>>>,
    /// The dice a situation forces.
    pub(in crate::rules) forced: ForcedDice,
    /// How many events there were when a controller gave up, if one did.
    halted: Option<usize>,
    /// Whether to keep the position where a controller first gives up
    /// ([`Game::capture_halt`]).
    capture_halt: bool,
    /// That position: the Decision, the state and the events when it was asked.
    halted_at: Option<Box<(Decision, GameState, Vec<Event>)>>,
    /// Reseed the RNG when Decision number `.0` (from the game's start) is
    /// asked, with seed `.1` ([`Game::reseed_at`]).
    reseed: Option<(usize, u64)>,
    /// The umpire's look at every Decision answered ([`Game::observe`]).
    observer: Option<Observer<'a>>,
    /// The Character-shaped cards of the Controllers' Minions ([`MinionOf`]).
    minion_cards: Vec<std::rc::Rc<model::Character>>,
    /// The profile of every Running Projectile: "a Defense of one blue die and
    /// Hit Points 1" (`001 § Running Projectiles`).
    projectile_card: std::rc::Rc<model::Character>,
    /// The scripted effects that ran in this game (their `ScriptId`s), for
    /// `arena check --sims`'s effect coverage.
    effects_run: BTreeSet<usize>,
    /// The Roll being prepared or rolled.
    roll_frame: RollFrame,
    /// The effects running, and what they set off.
    effect_frame: EffectFrame,
    /// Line of Sight and Cover for the positions of the moment (`sight.rs`).
    sight_cache: std::cell::RefCell<sight::SightCache>,
    /// Prime Time: who is credited with the Frag if each Character's last
    /// Damage sends it to the Bench (`001 § Frags`), by Character id.
    last_hit: BTreeMap<Id, FragBy>,
    /// Prime Time: while a States Step's Poisoned or Burning tokens inflict
    /// Damage, who imposed them (`001 § Frags and States`).
    state_credit: Option<FragBy>,
    /// No! in hand: each player's "No!", taken out of the deck before it is
    /// shuffled, for the hand after the Mulligan (`001 § No!`).
    set_aside: Seated<Vec<Id>>,
    /// The Draft: each player's team size, the setup's (`001 § Draft`).
    pub(in crate::rules) draft_sizes: Seated<usize>,
    /// Why each Character's last Damage was inflicted, for the red Objective
    /// cards (`001 § Objective Cards`, Inflict Damage), by Character id.
    last_cause: BTreeMap<Id, model::BenchCause>,
    /// When to keep a checkpoint at an Actions Step's next choice
    /// ([`Game::keep_actions_points`]).
    actions_points: Option<std::rc::Rc<dyn Fn() -> bool>>,
    /// The last one kept ([`Game::take_actions_point`]).
    actions_point: Option<Box<ActionsPoint>>,
}

/// Who earns the Frag if a Character goes to the Bench (`001 § Frags`).
#[derive(Debug, Clone, PartialEq, Eq)]
enum FragBy {
    /// This player inflicted the Damage.
    Player(PlayerId),
    /// Prime Time decides among these players (`001 § Frags and States`:
    /// States the Character imposed on itself, or a tie).
    PrimeTimeAmong(Vec<PlayerId>),
    /// No player inflicted it (docs/rulings.md R47).
    Nobody,
}

/// What a Roll in progress carries between its steps (`000 § Rolls`): the
/// pools while its Tactics window is open, the dice it rolled for effects to
/// change, and what effects forbade or fixed. Cleared when the Roll ends.
#[derive(Default, Clone)]
struct RollFrame {
    /// The Roll an effect can change (`game:add_symbol`, `game:nullify_symbol`).
    roll: Option<RollCtx>,
    /// The pools of a Roll whose Tactics window is open: [active side, other side].
    pending_pools: Option<[Pool; 2]>,
    /// Which side of the Roll the Tactic being played belongs to.
    tactic_side: Option<Side>,
    /// The Cover of an Attack while its `cover` window is open.
    cover_check: Option<CoverCheck>,
    /// Sides of the coming or current Roll that cannot activate Switches
    /// ([active, opponent]; Access Denied); cleared when the Roll ends.
    switches_forbidden: [bool; 2],
    /// Sides of the coming Roll whose dice are fixed ([active, opponent]; Atom:
    /// "Your opponent cannot add any more dice to their Roll"); cleared when the Roll ends.
    pool_locked: [bool; 2],
    /// The Character making the Attack whose Roll is being prepared or
    /// rolled (`game:attacker()`; not always the active one: Programmed Strategy).
    attacker: Option<Id>,
}

/// What running effects carry: whose effect it is, whether it only probes,
/// the Tactics being answered, and what they set off that resolves after them.
#[derive(Default, Clone)]
struct EffectFrame {
    /// Whose Effect is running (its ctx.self), for restrictions on enemy Effects.
    effect_source: Option<Id>,
    /// While an Action's `condition` is asked: whatever its Lua does is undone.
    probing: bool,
    /// A condition asked a question (conditions may only look).
    probe_asked: bool,
    /// The Tactics being answered (a "No!" Nullifies the innermost), and
    /// whether each was Nullified (`game:nullify_tactic`).
    answering: Vec<(Id, bool)>,
    /// An Action granted by an effect (`game:grant_action`: Programmed
    /// Strategy), performed once the effect has run: (who, most Action Points
    /// it may cost, whose choice).
    pending_grant: Option<(Id, u8, PlayerId)>,
    /// Special Space markers whose Effect is resolving: the Character they
    /// move does not set them off again (rulings R18).
    markers_resolving: Vec<Hex>,
    /// Effects set off by effects, nested now (a runaway chain is stopped).
    chain_depth: u32,
    /// What an effect set off that runs other effects (the Tactics of Damage
    /// received and the Infirmary, a Special Space entered), resolved as soon
    /// as the effect has run: effects do not run inside effects.
    after_effect: std::collections::VecDeque<AfterEffect>,
    /// The scripts running now, innermost last.
    running: Vec<ScriptId>,
    /// The last effect that gave Action or Movement Points in this
    /// Activation: the one to name when an Activation runs away.
    granted_points: Option<ScriptId>,
    /// The Scenario rule whose effect runs (its index), for the objective
    /// `game:gain_victory_points` names.
    scenario_rule: Option<usize>,
    /// The player a Scenario rule's effect runs for (`ctx.player`): who
    /// decides its choices when no Character's effect runs.
    effect_player: Option<PlayerId>,
}

/// Most Actions Step choices in one Activation: far beyond any printed card
/// (a Character has at most 7 Action Points), so only an effect that keeps
/// giving points reaches it; the Activation is then ended with a failed
/// effect naming that effect (`arena check --sims` reports it).
pub const MAX_ACTIONS_PER_ACTIVATION: usize = 200;

/// Most Decisions in one game: a whole game of Assault takes a few hundred;
/// past this the game is stopped with a failed effect, so every game ends.
pub const MAX_DECISIONS_PER_GAME: usize = 100_000;

/// The faces a situation forces the next dice to show (`arena run`).
#[derive(Default, Clone)]
pub(in crate::rules) struct ForcedDice {
    /// Faces the next dice must show, in order.
    pub(in crate::rules) faces: std::collections::VecDeque<Vec<Symbol>>,
    /// A forced face that its die does not have.
    fault: Option<String>,
    /// How many forced faces were rolled.
    used: usize,
}

/// Something an effect set off, resolved once it has run.
#[derive(Debug, Clone)]
enum AfterEffect {
    /// Damage was inflicted: its Tactics windows, then the Infirmary if due.
    Damage(Id),
    /// A Character entered a space (Special Spaces, the Scenario's rules):
    /// (who, from where, which space).
    Entered(Id, Option<Hex>, Hex),
    /// A Scenario rule's window was reached.
    Scenario(model::ScenarioWindow, scenario::RuleCtx),
}

/// What a Roll is, for the Tactics that may be played before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RollKind {
    /// A Simple Roll: only the active Character rolls.
    Simple,
    /// An Attack's Face to Face Roll.
    Attack,
    /// A Disengage Face to Face Roll.
    Disengage,
}

/// Cover in an Attack as the Attacker's `cover` skills leave it (`000 § Cover`).
#[derive(Debug, Clone)]
struct CoverCheck {
    /// The die the Attacker adds for its own Cover, if it has Cover (Black, or
    /// what `game:cover_die` names).
    attacker: Option<Id>,
    /// Whether the Target adds a Black die for its Cover.
    target: bool,
}

/// The Roll an effect can change (`game:add_symbol`, `game:nullify_symbol`).
#[derive(Debug, Clone)]
struct RollCtx {
    roll: FaceToFace,
    /// Which side the running effect belongs to.
    side: Side,
    /// Who rolled each side: [the running effect's side, the other side] (for
    /// the narrative; empty for a Simple Roll's missing side).
    rollers: [Id; 2],
}

type Result<T> = std::result::Result<T, String>;

impl<'a> Game<'a> {
    /// A game set up as `setup` says, ready to [`play`](Self::play).
    pub fn new(
        content: &'a Content,
        runtime: &'a Runtime,
        setup: &GameSetup,
        controllers: Vec<&'a mut dyn Controller>,
    ) -> Result<Game<'a>> {
        // Each game starts with its own log allowance, whatever the VM played before.
        runtime.begin_game();
        let scenario =
            &content.scenarios.get(&setup.scenario).ok_or_else(|| format!("no scenario `{}`", setup.scenario))?.value;
        let map = &content.maps.get(&scenario.map).ok_or_else(|| format!("no map `{}`", scenario.map))?.value;
        let seats = setup.teams.table().len();
        if !(scenario.players.min as usize..=scenario.players.max as usize).contains(&seats)
            || !(2..=4).contains(&seats)
        {
            return Err(format!(
                "scenario `{}` is for {}-{} players, not {seats}",
                setup.scenario, scenario.players.min, scenario.players.max
            ));
        }
        if controllers.len() != seats {
            return Err(format!("{seats} players need {seats} controllers, not {}", controllers.len()));
        }
        if let Some(why) = OptionalRule::refuse_any(&setup.optional_rules, seats) {
            return Err(why);
        }
        // The Draft picks the teams at the table (`001 § Draft`): the game
        // starts without them, and `draft` seats them.
        let drafting = setup.optional_rules.contains(&OptionalRule::Draft);
        let table = setup.teams.table();
        let teams: Seated<Vec<Id>> = if drafting { Seated::splat(table, vec![]) } else { setup.teams.clone() };
        let decks: Seated<Vec<Id>> = if drafting { Seated::splat(table, vec![]) } else { setup.decks.clone() };
        let mut board = Board::of(map);
        // The Scenario's Obstacles join the map's (`000 § Obstacles`).
        board.add_obstacles(scenario.obstacles.iter().map(|[q, r]| Hex::new(*q as i32, *r as i32)));
        for (p, team) in setup.teams.enumerate() {
            for c in team {
                if !content.characters.contains_key(c) {
                    return Err(format!("{p}: no Character `{c}`"));
                }
            }
            if !board.zones.contains_key(&setup.zones[p]) {
                return Err(format!("{p}: map `{}` has no zone `{}`", scenario.map, setup.zones[p]));
            }
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(setup.seed);
        let mut players = Seated::from_fn(table, |p| Player {
            team: teams[p].as_slice().into(),
            hand: IdList::new(),
            deck: decks[p].as_slice().into(),
            discard: IdList::new(),
            victory_points: 0,
            frags: 0,
            running_order: IdList::new(),
            zone: setup.zones[p],
        });
        let mut set_aside = Seated::splat(table, Vec::new());
        for (i, p) in players.iter_mut().enumerate() {
            if setup.optional_rules.contains(&OptionalRule::NoInHand) {
                set_aside[PlayerId::seat(i)] = draft::retrieve_no(content, &mut p.deck);
            }
            shuffle(&mut p.deck, &mut rng);
        }
        let mut units: Vec<Unit> = Vec::new();
        let mut minion_cards = Vec::new();
        draft::seat_units(content, &teams, &mut units, &mut minion_cards);
        let state = GameState {
            scenario: setup.scenario,
            players,
            units,
            round: 0,
            turn: 0,
            underdog: PlayerId::seat(0),
            running_orders: Vec::new(),
            scoring_zones: scenario.scoring_zones.as_slice().into(),
            counters: BTreeMap::new(),
            scored: PerRound::new(),
            fragged: PerRound::new(),
            active: None,
            over: false,
            smoke: vec![],
            special_spaces: vec![],
            projectile_deck: vec![],
            projectiles_deployed: 0,
            objectives: None,
            optional_rules: setup.optional_rules.clone(),
            restrictions: setup.restrictions.clone(),
            rng,
        };
        let mut game = Game {
            content,
            board: std::rc::Rc::new(board),
            state,
            events: vec![],
            answers: vec![],
            runtime,
            controllers: controllers.into(),
            snapshots: vec![],
            effect_failures: 0,
            scenario_hooks: std::rc::Rc::new(scenario::hooks(scenario)),
            forced: ForcedDice::default(),
            halted: None,
            capture_halt: false,
            halted_at: None,
            reseed: None,
            observer: None,
            minion_cards,
            projectile_card: std::rc::Rc::new(projectiles::projectile_card()),
            effects_run: BTreeSet::new(),
            roll_frame: RollFrame::default(),
            effect_frame: EffectFrame::default(),
            sight_cache: Default::default(),
            last_hit: BTreeMap::new(),
            state_credit: None,
            set_aside,
            draft_sizes: Seated::from_fn(table, |p| setup.teams[p].len()),
            last_cause: BTreeMap::new(),
            actions_points: None,
            actions_point: None,
        };
        game.emit(Event::GameStarted { scenario: setup.scenario, seed: setup.seed, teams: teams.clone() });
        Ok(game)
    }

    fn emit(&mut self, e: Event) {
        self.events.push(e);
    }

    /// The scripted effects that ran so far (indices of the runtime's
    /// `ScriptSet`), whether they succeeded or failed.
    pub fn effects_run(&self) -> &BTreeSet<usize> {
        &self.effects_run
    }

    /// What the marker that decides is called at this table: "the Underdog"
    /// under `001 § Underdog` ("Whenever the rules make reference to 'Prime
    /// Time', replace it for 'Underdog'"), else "Prime Time".
    pub(in crate::rules) fn marker_name(&self) -> &'static str {
        if self.rule(OptionalRule::Underdog) { "the Underdog" } else { "Prime Time" }
    }

    /// Whether an optional rule of `001 § Additional Rules` is played.
    pub(in crate::rules) fn rule(&self, rule: OptionalRule) -> bool {
        self.state.optional_rules.contains(&rule)
    }

    /// The seats at this game's table.
    pub(in crate::rules) fn table(&self) -> Table {
        self.state.players.table()
    }

    /// How many effects failed (and were undone) so far.
    pub fn effect_failures(&self) -> usize {
        self.effect_failures
    }

    /// A game or Activation that would not end is stopped: a failed effect
    /// naming the last effect that gave Action or Movement Points (or the
    /// engine, when none did), so `arena check --sims` reports it with the
    /// effect's file.
    fn runaway(&mut self, message: String) {
        let source = self.effect_frame.granted_points.map(|id| self.runtime.scripts().sources()[id.0].clone());
        self.effect_failures += 1;
        let (card, effect, file) = match source {
            Some(s) => (s.card, s.effect, s.file.display().to_string()),
            None => ("(engine)".to_string(), String::new(), String::new()),
        };
        self.emit(Event::Stopped { card: Id::from(card), effect, message, file });
    }

    /// Ask a player.
    fn decide(
        &mut self,
        player: PlayerId,
        kind: DecisionKind,
        character: Option<&str>,
        prompt: impl Into<std::borrow::Cow<'static, str>>,
        options: Vec<Choice>,
    ) -> Choice {
        debug_assert!(!options.is_empty());
        if self.effect_frame.probing {
            // A condition only looks: it may not ask the players anything.
            self.effect_frame.probe_asked = true;
            return options.into_iter().next().expect("an option");
        }
        let options =
            if self.state.restrictions.is_empty() { options } else { self.restricted(player, character, options) };
        if options.len() == 1 {
            return options.into_iter().next().expect("one option");
        }
        if self.answers.len() >= MAX_DECISIONS_PER_GAME && !self.state.over {
            self.runaway(format!("the game took more than {MAX_DECISIONS_PER_GAME} Decisions: it is stopped"));
            self.state.over = true;
        }
        if let Some((at, seed)) = self.reseed {
            if self.answers.len() == at {
                self.state.rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                self.reseed = None;
            }
        }
        let decision = Decision { player, kind, character: character.map(Id::from), prompt: prompt.into(), options };
        let view = View::new(player, &self.state, &self.events, self.content, &self.board);
        let answer = self.controllers[player].decide(&decision, &view);
        if answer == usize::MAX && self.halted.is_none() {
            if self.capture_halt {
                self.halted_at = Some(Box::new((decision.clone(), self.state.clone(), self.events.clone())));
            }
            // The controller gave up (a situation without the answer): stop here.
            self.halted = Some(self.events.len());
            self.state.over = true;
        }
        let answer = if answer == usize::MAX {
            decision.options.iter().position(|o| *o == Choice::Done).unwrap_or(0)
        } else {
            answer.min(decision.options.len() - 1)
        };
        self.answers.push(answer);
        if let Some(observe) = self.observer.as_mut() {
            observe(&decision, &self.state, answer);
        }
        decision.options.into_iter().nth(answer).expect("answer in range")
    }

    /// Play the whole game: [`play_setup`](Self::play_setup), then
    /// [`play_round`](Self::play_round) until it is over.
    pub fn play(&mut self) -> Result<()> {
        self.play_setup()?;
        while !self.state.over {
            self.play_round()?;
        }
        Ok(())
    }

    /// The game up to its first Round: the Draft when it is played (`001 §
    /// Draft`), then the Setup (`000 § Setup`: Tactics, Mulligan, deployment).
    /// Afterwards the game is at a quiet point ([`Game::checkpoint`]).
    ///
    /// # Errors
    /// A player has no Character, or the setup cannot be played.
    pub fn play_setup(&mut self) -> Result<()> {
        if self.rule(OptionalRule::Draft) {
            self.draft()?;
        }
        if let Some(p) = self.state.players.iter().position(|p| p.team.is_empty()) {
            return Err(format!("player {} has no Character", p + 1));
        }
        self.setup_phase()
    }

    /// One Round (`000 § Rounds`): [`begin_round`](Self::begin_round), each
    /// Turn's Activations ([`turn_order`](Self::turn_order),
    /// [`play_activation`](Self::play_activation)), [`end_round`](Self::end_round).
    /// Afterwards the game is over or at the start of the next Round, a quiet
    /// point ([`Game::checkpoint`]); so is the start of every Activation.
    ///
    /// # Errors
    /// An engine error that stops the game.
    pub fn play_round(&mut self) -> Result<()> {
        let Some(turns) = self.begin_round() else { return Ok(()) };
        // One Turn per Running Order slot: four in a 4-Character game (`000 § Rounds`).
        for turn in 1..=turns {
            self.turn(turn)?;
        }
        self.end_round();
        Ok(())
    }

    /// The start of the next Round: its number, the Scenario's `round-start`
    /// rules, then the Planning Phase. The number of its Turns, or `None`
    /// when the Round's start ended the game.
    pub fn begin_round(&mut self) -> Option<u8> {
        self.state.round += 1;
        let round = self.state.round;
        self.emit(Event::RoundStarted { round });
        self.state.scored.push(Seated::splat(self.table(), 0));
        self.scenario_window(model::ScenarioWindow::RoundStart, scenario::RuleCtx::default());
        if self.state.over {
            return None;
        }
        self.planning_phase();
        Some(self.turns())
    }

    /// A Character's Activation in its Turn (`000 § Activations`).
    ///
    /// # Errors
    /// An engine error that stops the game.
    pub fn play_activation(&mut self, id: &str) -> Result<()> {
        self.activation(id)
    }

    /// The end of a Round's Turns Phase: the Running Projectiles' Phase,
    /// the Objectives Phase and the Recovery Phase, as the game goes on.
    pub fn end_round(&mut self) {
        let rounds = self.content.scenarios[&self.state.scenario].value.rounds;
        if !self.state.over {
            self.projectiles_phase();
        }
        self.objectives_phase(rounds);
        if !self.state.over {
            self.recovery_phase();
        }
    }
}

fn shuffle<T>(v: &mut [T], rng: &mut rand_chacha::ChaCha8Rng) {
    // Fisher-Yates with the game's RNG, so decks are part of the seed.
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
}

/// Every ordering of a list, in lexicographic order of positions (the first
/// position's index varies slowest), built one at a time: a team of four
/// (`000 § Planning Phase`) makes 24 orders and no list but each order's own,
/// kept in place.
fn permutations(ids: &[Id]) -> impl Iterator<Item = IdList<4>> + '_ {
    let mut at: SmallVec<[usize; 4]> = (0..ids.len()).collect();
    let mut first = true;
    std::iter::from_fn(move || {
        if !first && !next_permutation(&mut at) {
            return None;
        }
        first = false;
        Some(at.iter().map(|&i| ids[i]).collect())
    })
}

/// The next ordering of `v` in lexicographic order, in place; false (and `v`
/// unchanged) at the last one.
fn next_permutation(v: &mut [usize]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else { return false };
    let j = (i..v.len()).rev().find(|&j| v[j] > v[i - 1]).expect("a larger element after the pivot");
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain recursive computation `permutations` replaced.
    fn permutations_plain(ids: &[Id]) -> Vec<Vec<Id>> {
        if ids.len() <= 1 {
            return vec![ids.to_vec()];
        }
        let mut out = Vec::new();
        for i in 0..ids.len() {
            let mut rest = ids.to_vec();
            let first = rest.remove(i);
            for mut p in permutations_plain(&rest) {
                p.insert(0, first);
                out.push(p);
            }
        }
        out
    }

    #[test]
    fn running_orders_come_in_the_order_of_the_plain_recursion() {
        let ids: Vec<Id> = ["b", "a", "d", "c", "a"].iter().map(|s| Id::new(s)).collect();
        for n in 0..=ids.len() {
            let fast: Vec<Vec<Id>> = permutations(&ids[..n]).map(|p| p.to_vec()).collect();
            assert_eq!(fast, permutations_plain(&ids[..n]), "{n} ids");
        }
        assert_eq!(permutations(&ids[..4]).count(), 24);
    }
}
