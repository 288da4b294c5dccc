//! A 2-player Aristeia! game: state, setup, and the Round loop (`000 § Rounds`).
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
//! What is not here yet: Scenarios other than those scored by a Scoring Zone
//! (Assault and its kind), and the Prime Time table (3-4 players, Special
//! Spaces, Running Projectiles, Objective cards).

mod actions;
mod damage;
mod effects;
mod host;
mod minions;
mod movement;
mod projectiles;
mod rolls;
mod rounds;
mod scoring;
mod setup;
mod sight;
mod special_spaces;
mod states;
mod tactics;
mod units;
mod windows;

use crate::content::Content;
use crate::model::{self, Action, Id, Pool, Symbol};
use crate::rules::decision::{Choice, Controller, Decision, Kind};
use crate::rules::event::{Event, PlayerId};
use crate::rules::geometry::{self, Hex, Sight};
use crate::rules::roll::{FaceToFace, Side, SideRoll};
use crate::script::api::{ApiFn, ApiValue};
use crate::script::host::Host;
use crate::script::runtime::{Ctx, Runtime, ScriptId};
use rand::{RngExt, SeedableRng};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Where a Character is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Location {
    /// In the HexaDome.
    Space(Hex),
    /// In the Infirmary (`000 § Infirmary`).
    Infirmary,
    /// On the Bench (`000 § Bench`).
    Bench,
    /// A Minion "placed to the side, ready to be deployed again" (`002 § Minion`).
    Aside,
}

/// A Special Space marker on the HexaDome (`001 § Special Spaces`): it does
/// not occupy its space nor block Line of Sight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpecialSpaceMarker {
    /// Its space.
    pub space: Hex,
    /// The marker (a `special_space` id).
    pub marker: Id,
    /// Whether it has been flipped face up.
    pub revealed: bool,
}

/// Which side of a State token is up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TokenSide {
    /// Just imposed.
    Red,
    /// Flipped in a States Step.
    Blue,
}

/// A State token on a Character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Token {
    /// The State's id.
    pub state: Id,
    /// Its side.
    pub side: TokenSide,
    /// Who imposed it (Taunted needs it).
    pub source: Option<Id>,
    /// What the imposer chose (Silenced: the Action or Automatic Skill it silences).
    pub choice: Option<Id>,
}

/// A Character in a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unit {
    /// The Character's id.
    pub id: Id,
    /// Its player.
    pub owner: PlayerId,
    /// Where it is.
    pub location: Location,
    /// Damage tokens.
    pub damage: u8,
    /// State tokens.
    pub tokens: Vec<Token>,
    /// Action Points left in its Activation.
    pub action_points: u8,
    /// Movement Points left.
    pub movement_points: u8,
    /// Movement Points spent in the current Activation.
    pub movement_spent: u8,
    /// Dice promised to its next Roll in this Activation (Take Aim: "Add an
    /// Orange die to the next Roll of the active Character in this Activation").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub next_roll: Vec<Id>,
    /// For a Minion: which card it is and who controls it (`002 § Minion`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minion: Option<MinionOf>,
    /// For a Running Projectile: its face-down marker (`001 § Running
    /// Projectiles`); `owner` is the player who deployed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub projectile: Option<Id>,
    /// Named effects in force "until the end of this Activation"
    /// (`game:activation_effect`; `no-disengage-rolls`: Barrel through).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub until_end_of_activation: Vec<Id>,
}

/// What makes a [`Unit`] a Minion: "a special type of Obstacle controlled by
/// the Character who deployed them, called a Controller" (`002 § Minion`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MinionOf {
    /// The Minion card's id on its Controller's Character card (`minions[id=...]`).
    pub card: Id,
    /// The Controller's Character id.
    pub controller: Id,
    /// Index of its Character-shaped card in the game's Minion cards.
    #[serde(skip)]
    slot: usize,
}

/// A Character's card, or the Character-shaped card the engine builds for a
/// Minion (its Hit Points, attribute pools, Switches and Actions; no Energy,
/// Speed or Initiative: a Minion has no Activation of its own).
#[derive(Debug, Clone)]
enum Card<'a> {
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
        id: m.id.clone(),
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

/// A player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Player {
    /// Character ids, in team order.
    pub team: Vec<Id>,
    /// Tactics in hand.
    pub hand: Vec<Id>,
    /// The deck, top last.
    pub deck: Vec<Id>,
    /// The discard pile.
    pub discard: Vec<Id>,
    /// Victory Points.
    pub victory_points: u32,
    /// Frags.
    pub frags: u32,
    /// This Round's Running Order.
    pub running_order: Vec<Id>,
    /// Deployment Zone id.
    pub zone: Id,
}

/// The whole state of a game but its event log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameState {
    /// Scenario id.
    pub scenario: Id,
    /// The two players.
    pub players: [Player; 2],
    /// Every Character in play.
    pub units: Vec<Unit>,
    /// Current Round (from 1).
    pub round: u8,
    /// Who holds the Underdog token.
    pub underdog: PlayerId,
    /// The current Scoring Zone's id.
    pub scoring_zone: Id,
    /// The active Character, during an Activation.
    pub active: Option<Id>,
    /// Whether the game is over.
    pub over: bool,
    /// Smoke tokens in the HexaDome: (space, the Character that deployed it).
    pub smoke: Vec<(Hex, Id)>,
    /// Special Space markers in the HexaDome (`001 § Special Spaces`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub special_spaces: Vec<SpecialSpaceMarker>,
    /// The Running Projectile markers not in the HexaDome, face down, top last.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub projectile_deck: Vec<Id>,
    /// Running Projectiles deployed so far (for their names).
    #[serde(skip)]
    projectiles_deployed: usize,
    #[serde(skip)]
    rng: rand_chacha::ChaCha8Rng,
}

/// What controllers may look at.
pub struct View<'a> {
    /// The state.
    pub state: &'a GameState,
    /// Every event so far (a person at the terminal reads the new ones).
    pub events: &'a [Event],
    /// The content.
    pub content: &'a Content,
    /// The map's static terrain.
    pub board: &'a Board,
}

impl View<'_> {
    fn minion_card(&self, id: &str) -> Option<&model::Minion> {
        let m = self.state.units.iter().find(|u| u.id == id)?.minion.as_ref()?;
        self.content.characters.get(&m.controller)?.value.minions.iter().find(|c| c.id == m.card)
    }

    /// The Actions printed on a unit's card (a Minion's on its Controller's card).
    pub fn actions_of(&self, id: &str) -> &[Action] {
        match self.minion_card(id) {
            Some(m) => &m.actions,
            None => self.content.characters.get(id).map_or(&[], |c| &c.value.actions),
        }
    }

    /// A unit's Hit Points.
    pub fn hit_points(&self, id: &str) -> Option<u8> {
        match self.minion_card(id) {
            Some(m) => Some(m.hit_points),
            None => self.content.characters.get(id).map(|c| c.value.hit_points),
        }
    }
}

/// A map's static terrain, precomputed.
#[derive(Debug, Clone)]
pub struct Board {
    /// Radius of the hexagonal board.
    pub radius: u32,
    /// Blocked spaces.
    pub blocked: BTreeSet<Hex>,
    /// Barriers (Obstacles).
    pub barriers: BTreeSet<Hex>,
    /// Zones by id: (kind, spaces).
    pub zones: BTreeMap<Id, (model::ZoneKind, Vec<Hex>)>,
}

impl Board {
    /// The board of a map.
    pub fn of(map: &model::Map) -> Board {
        let h = |v: &[i16; 2]| Hex::new(v[0] as i32, v[1] as i32);
        Board {
            radius: map.radius as u32,
            blocked: map.blocked.iter().map(h).collect(),
            barriers: map.barriers.iter().map(h).collect(),
            zones: map.zones.iter().map(|z| (z.id.clone(), (z.kind, z.spaces.iter().map(h).collect()))).collect(),
        }
    }

    /// Whether a space is on the board.
    pub fn on_board(&self, h: Hex) -> bool {
        h.within(self.radius)
    }
}

/// How a game is set up.
#[derive(Debug, Clone)]
pub struct Setup {
    /// Scenario id.
    pub scenario: Id,
    /// Each player's Characters.
    pub teams: [Vec<Id>; 2],
    /// Each player's Tactics deck (ids, repeated for copies).
    pub decks: [Vec<Id>; 2],
    /// Each player's Deployment Zone id.
    pub zones: [Id; 2],
    /// The RNG seed.
    pub seed: u64,
}

impl Setup {
    /// The setup of a content `setup` entry.
    pub fn from_content(content: &Content, id: &str, seed: u64) -> Result<Setup> {
        let s = &content.setups.get(id).ok_or_else(|| format!("no setup `{id}`"))?.value;
        if s.teams.len() != 2 {
            return Err(format!("setup `{id}` has {} teams; 2 are needed", s.teams.len()));
        }
        let zone = |i: usize| s.teams[i].deployment_zone.clone().unwrap_or_else(|| ["zone-1", "zone-4"][i].to_string());
        Ok(Setup {
            scenario: s.scenario.clone(),
            teams: [s.teams[0].characters.clone(), s.teams[1].characters.clone()],
            decks: [s.teams[0].tactics.clone(), s.teams[1].tactics.clone()],
            zones: [zone(0), zone(1)],
            seed,
        })
    }
}

impl Setup {
    /// Random teams of the scenario's size from every loaded Character of the
    /// scenario's game, drawn with `seed` (distinct Characters, `000 § Setup`,
    /// Step 2), each deck the Standard Tactics plus two of each chosen
    /// Character's Tactics (`000 § Tactics`). Zones: the scenario's, else the
    /// map's first Deployment Zone and its opposite.
    pub fn random(content: &Content, scenario: &str, seed: u64) -> Result<Setup> {
        let sc = &content.scenarios.get(scenario).ok_or_else(|| format!("no scenario `{scenario}`"))?.value;
        let map = &content.maps.get(&sc.map).ok_or_else(|| format!("no map `{}`", sc.map))?.value;
        let per_team = sc.characters_per_team.max(1) as usize;
        let mut pool: Vec<Id> = content.characters.keys().cloned().collect();
        if pool.len() < 2 * per_team {
            return Err(format!("{} Characters are loaded; `{scenario}` needs {}", pool.len(), 2 * per_team));
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_7ea5);
        shuffle(&mut pool, &mut rng);
        let teams = [pool[..per_team].to_vec(), pool[per_team..2 * per_team].to_vec()];
        // `000 § Setup`, Step 4: "choose two of each of your Character's Tactics
        // and shuffle them with the ten Standard Tactics": the Standard
        // Tactics with their copies, and two of each Character's Tactics
        // drawn with the seed (all of them when it has two or fewer).
        let mut standard: Vec<Id> = Vec::new();
        for t in content.tactics.values().filter(|t| t.value.standard) {
            standard.extend(std::iter::repeat_n(t.value.id.clone(), t.value.copies.max(1) as usize));
        }
        let mut deck = |team: &[Id]| {
            let mut d = standard.clone();
            for c in team {
                let mut own: Vec<Id> = content
                    .tactics
                    .values()
                    .filter(|t| t.value.character.as_deref() == Some(c.as_str()))
                    .map(|t| t.value.id.clone())
                    .collect();
                shuffle(&mut own, &mut rng);
                d.extend(own.into_iter().take(2));
            }
            d
        };
        let zones = Setup::default_zones(sc, map)?;
        let decks = [deck(&teams[0]), deck(&teams[1])];
        Ok(Setup { scenario: scenario.to_string(), decks, teams, zones, seed })
    }

    /// Each player's Deployment Zone: the Scenario's, else the map's first
    /// Deployment Zone and its opposite (or its last).
    fn default_zones(sc: &model::Scenario, map: &model::Map) -> Result<[Id; 2]> {
        if sc.deployment_zones.len() >= 2 {
            return Ok([sc.deployment_zones[0].clone(), sc.deployment_zones[1].clone()]);
        }
        let first = map
            .zones
            .iter()
            .find(|z| z.kind == model::ZoneKind::Deployment)
            .ok_or_else(|| format!("map `{}` has no Deployment Zone", map.id))?;
        let second = first.opposite.clone().unwrap_or_else(|| {
            map.zones.iter().rfind(|z| z.kind == model::ZoneKind::Deployment).map(|z| z.id.clone()).unwrap_or_default()
        });
        Ok([first.id.clone(), second])
    }
}

/// The space of a Barrier named `barrier@q,r` ([`model::Action::obstacle_targets`]).
fn barrier_space(id: &str) -> Option<Hex> {
    let (q, r) = id.strip_prefix("barrier@")?.split_once(',')?;
    Some(Hex::new(q.trim().parse().ok()?, r.trim().parse().ok()?))
}

/// The Contender Attack every Character has (`000 § Contender`). Its card text
/// is not printed in the rulebooks: this stands in for it (docs/rulings.md R6).
pub fn contender() -> Action {
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
    content: &'a Content,
    board: Board,
    /// The state.
    pub state: GameState,
    /// Every event so far.
    pub events: Vec<Event>,
    /// Every answer given, in order (the replay).
    pub answers: Vec<usize>,
    runtime: &'a Runtime,
    controllers: [&'a mut dyn Controller; 2],
    snapshots: Vec<(GameState, usize, Option<RollCtx>)>,
    roll: Option<RollCtx>,
    effect_failures: usize,
    scored_this_round: [u8; 2],
    /// Faces the next dice must show (situations), in order.
    forced: std::collections::VecDeque<Vec<Symbol>>,
    /// A situation's forced face that its die does not have.
    fault: Option<String>,
    /// How many forced faces were rolled.
    forced_used: usize,
    /// How many events there were when a controller gave up, if one did.
    halted: Option<usize>,
    /// The pools of a Roll whose Tactics window is open: [active side, other side].
    pending_pools: Option<[Pool; 2]>,
    /// Which side of the Roll the Tactic being played belongs to.
    tactic_side: Option<Side>,
    /// The Cover of an Attack while its `cover` window is open.
    cover_check: Option<CoverCheck>,
    /// Whose Effect is running (its ctx.self), for restrictions on enemy Effects.
    effect_source: Option<Id>,
    /// The Character-shaped cards of the Controllers' Minions ([`MinionOf`]).
    minion_cards: Vec<std::rc::Rc<model::Character>>,
    /// The profile of every Running Projectile: "a Defense of one blue die and
    /// Hit Points 1" (`001 § Running Projectiles`).
    projectile_card: std::rc::Rc<model::Character>,
    /// Sides of the coming or current Roll that cannot activate Switches
    /// ([active, opponent]; Access Denied); cleared when the Roll ends.
    switches_forbidden: [bool; 2],
    /// While an Action's `condition` is asked: whatever its Lua does is undone.
    probing: bool,
    /// Sides of the coming Roll whose dice are fixed ([active, opponent]; Atom:
    /// "Your opponent cannot add any more dice to their Roll"); cleared when the Roll ends.
    pool_locked: [bool; 2],
    /// The Tactics being answered (a "No!" Nullifies the innermost), and
    /// whether each was Nullified (`game:nullify_tactic`).
    answering: Vec<(Id, bool)>,
    /// An Action granted by an effect (`game:grant_action`: Programmed
    /// Strategy), performed once the effect has run: (who, most Action Points
    /// it may cost, whose choice).
    pending_grant: Option<(Id, u8, PlayerId)>,
    /// The Character making the Attack whose Roll is being prepared or
    /// rolled (`game:attacker()`; not always the active one: Programmed Strategy).
    attacker: Option<Id>,
    /// Special Space markers whose Effect is resolving: the Character they
    /// move does not set them off again (rulings R18).
    markers_resolving: Vec<Hex>,
    /// A condition asked a question (conditions may only look).
    probe_asked: bool,
    /// Effects set off by effects, nested now (a runaway chain is stopped).
    chain_depth: u32,
    /// What an effect set off that runs other effects (the Tactics of Damage
    /// received and the Infirmary, a Special Space entered), resolved as soon
    /// as the effect has run: effects do not run inside effects.
    after_effect: std::collections::VecDeque<AfterEffect>,
}

/// Something an effect set off, resolved once it has run.
#[derive(Debug, Clone)]
enum AfterEffect {
    /// Damage was inflicted: its Tactics windows, then the Infirmary if due.
    Damage(Id),
    /// A Character entered a space (Special Spaces).
    Entered(Id, Hex),
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
    /// Extra dice added by effects before rolling (not used yet).
    displaced_target: bool,
}

type Result<T> = std::result::Result<T, String>;

impl<'a> Game<'a> {
    /// A game set up as `setup` says, ready to [`play`](Self::play).
    pub fn new(
        content: &'a Content,
        runtime: &'a Runtime,
        setup: &Setup,
        controllers: [&'a mut dyn Controller; 2],
    ) -> Result<Game<'a>> {
        let scenario =
            &content.scenarios.get(&setup.scenario).ok_or_else(|| format!("no scenario `{}`", setup.scenario))?.value;
        let map = &content.maps.get(&scenario.map).ok_or_else(|| format!("no map `{}`", scenario.map))?.value;
        if !(scenario.players.min..=scenario.players.max).contains(&2) {
            return Err(format!(
                "scenario `{}` is for {}-{} players; the engine plays 2-player games",
                setup.scenario, scenario.players.min, scenario.players.max
            ));
        }
        let board = Board::of(map);
        for (p, team) in setup.teams.iter().enumerate() {
            for c in team {
                if !content.characters.contains_key(c) {
                    return Err(format!("player {}: no Character `{c}`", p + 1));
                }
            }
            if !board.zones.contains_key(&setup.zones[p]) {
                return Err(format!("player {}: map `{}` has no zone `{}`", p + 1, scenario.map, setup.zones[p]));
            }
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(setup.seed);
        let mut players = [0, 1].map(|p| Player {
            team: setup.teams[p].clone(),
            hand: vec![],
            deck: setup.decks[p].clone(),
            discard: vec![],
            victory_points: 0,
            frags: 0,
            running_order: vec![],
            zone: setup.zones[p].clone(),
        });
        for p in players.iter_mut() {
            shuffle(&mut p.deck, &mut rng);
        }
        let blank = |id: &Id, p: PlayerId| Unit {
            id: id.clone(),
            owner: p,
            location: Location::Bench,
            damage: 0,
            tokens: vec![],
            action_points: 0,
            movement_points: 0,
            movement_spent: 0,
            next_roll: Vec::new(),
            minion: None,
            projectile: None,
            until_end_of_activation: Vec::new(),
        };
        let mut units: Vec<Unit> = (0..2).flat_map(|p| setup.teams[p].iter().map(move |id| blank(id, p))).collect();
        // Each Controller's Minions, to the side until deployed (`002 § Controller`):
        // `<minion>-<n>`, numbered across the game so that ids stay unique.
        let mut minion_cards = Vec::new();
        for p in 0..2 {
            for c in &setup.teams[p] {
                let card = &content.characters[c].value;
                for m in &card.minions {
                    let slot = minion_cards.len();
                    minion_cards.push(std::rc::Rc::new(minion_card(card, m)));
                    for _ in 0..m.count {
                        let mut n = 1;
                        let id = loop {
                            let id = format!("{}-{n}", m.id);
                            if !units.iter().any(|u| u.id == id) && !content.characters.contains_key(&id) {
                                break id;
                            }
                            n += 1;
                        };
                        let mut u = blank(&id, p);
                        u.location = Location::Aside;
                        u.minion = Some(MinionOf { card: m.id.clone(), controller: c.clone(), slot });
                        units.push(u);
                    }
                }
            }
        }
        let scoring_zone = scenario.scoring_zones.first().cloned().unwrap_or_else(|| "central".into());
        let state = GameState {
            scenario: setup.scenario.clone(),
            players,
            units,
            round: 0,
            underdog: 0,
            scoring_zone,
            active: None,
            over: false,
            smoke: vec![],
            special_spaces: vec![],
            projectile_deck: vec![],
            projectiles_deployed: 0,
            rng,
        };
        let mut game = Game {
            content,
            board,
            state,
            events: vec![],
            answers: vec![],
            runtime,
            controllers,
            snapshots: vec![],
            roll: None,
            effect_failures: 0,
            scored_this_round: [0; 2],
            forced: Default::default(),
            fault: None,
            forced_used: 0,
            pending_pools: None,
            tactic_side: None,
            cover_check: None,
            effect_source: None,
            halted: None,
            minion_cards,
            projectile_card: std::rc::Rc::new(model::Character {
                id: "running-projectile".into(),
                name: "Running Projectile".into(),
                card: None,
                initiative: 0,
                speed: 0,
                energy: 0,
                hit_points: 1,
                defense: Pool { dice: vec!["blue".into()], symbols: vec![] },
                brawn: Pool::default(),
                agility: Pool::default(),
                switches: vec![],
                actions: vec![],
                automatic_skills: vec![],
                smoke_tokens: 0,
                minions: vec![],
                meta: model::Meta::default(),
            }),
            switches_forbidden: [false; 2],
            probing: false,
            pool_locked: [false; 2],
            answering: Vec::new(),
            pending_grant: None,
            attacker: None,
            markers_resolving: Vec::new(),
            probe_asked: false,
            chain_depth: 0,
            after_effect: Default::default(),
        };
        game.emit(Event::GameStarted {
            scenario: setup.scenario.clone(),
            seed: setup.seed,
            teams: setup.teams.clone(),
        });
        Ok(game)
    }

    fn emit(&mut self, e: Event) {
        self.events.push(e);
    }

    /// How many effects failed (and were undone) so far.
    pub fn effect_failures(&self) -> usize {
        self.effect_failures
    }

    /// Ask a player.
    fn decide(
        &mut self,
        player: PlayerId,
        kind: Kind,
        character: Option<&str>,
        prompt: &str,
        options: Vec<Choice>,
    ) -> Choice {
        debug_assert!(!options.is_empty());
        if self.probing {
            // A condition only looks: it may not ask the players anything.
            self.probe_asked = true;
            return options.into_iter().next().expect("an option");
        }
        if options.len() == 1 {
            return options.into_iter().next().expect("one option");
        }
        let decision =
            Decision { player, kind, character: character.map(str::to_string), prompt: prompt.to_string(), options };
        let view = View { state: &self.state, events: &self.events, content: self.content, board: &self.board };
        let answer = self.controllers[player].decide(&decision, &view);
        if answer == usize::MAX && self.halted.is_none() {
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
        decision.options.into_iter().nth(answer).expect("answer in range")
    }

    /// Play the whole game.
    pub fn play(&mut self) -> Result<()> {
        if let Some(p) = self.state.players.iter().position(|p| p.team.is_empty()) {
            return Err(format!("player {} has no Character", p + 1));
        }
        self.setup_phase()?;
        let rounds = self.content.scenarios[&self.state.scenario].value.rounds;
        while !self.state.over {
            self.state.round += 1;
            let round = self.state.round;
            self.emit(Event::RoundStarted { round });
            self.planning_phase();
            // One Turn per Running Order slot: four in a 4-Character game (`000 § Rounds`).
            let turns = self.state.players.iter().map(|p| p.running_order.len()).max().unwrap_or(0).min(255) as u8;
            for turn in 1..=turns {
                self.turn(turn)?;
            }
            if !self.state.over {
                self.projectiles_phase();
            }
            self.objectives_phase(rounds);
            if !self.state.over {
                self.recovery_phase();
            }
        }
        Ok(())
    }

    /// A game at a situation's position, ready to [`run_activation`](Self::run_activation).
    pub fn from_situation(
        content: &'a Content,
        runtime: &'a Runtime,
        sit: &crate::rules::situation::Situation,
        controllers: [&'a mut dyn Controller; 2],
    ) -> Result<Game<'a>> {
        let scenario =
            &content.scenarios.get(&sit.scenario).ok_or_else(|| format!("no scenario `{}`", sit.scenario))?.value;
        let map = &content.maps.get(&scenario.map).ok_or_else(|| format!("no map `{}`", scenario.map))?.value;
        if !(1..=2).contains(&sit.underdog) {
            return Err(format!("underdog must be 1 or 2, not {}", sit.underdog));
        }
        for (p, deck) in sit.decks.iter().enumerate() {
            if let Some(t) = deck.iter().find(|t| !content.tactics.contains_key(*t)) {
                return Err(format!("player {}'s deck: no Tactic `{t}`", p + 1));
            }
        }
        let mut teams: [Vec<Id>; 2] = [vec![], vec![]];
        for c in &sit.character {
            if teams.iter().flatten().any(|x| *x == c.id) {
                return Err(format!("`{}` is in the situation twice", c.id));
            }
            if !content.characters.contains_key(&c.id) {
                return Err(format!("no Character `{}`", c.id));
            }
            if !(1..=2).contains(&c.player) {
                return Err(format!("{}: player must be 1 or 2", c.id));
            }
            teams[c.player as usize - 1].push(c.id.clone());
        }
        let setup = Setup {
            scenario: sit.scenario.clone(),
            teams: teams.clone(),
            decks: [vec![], vec![]],
            zones: Setup::default_zones(scenario, map)?,
            seed: sit.seed,
        };
        let board_zone = |z: &str| content.maps[&scenario.map].value.zones.iter().any(|x| x.id == z);
        let mut g = Game::new(content, runtime, &setup, controllers)?;
        g.events.clear();
        g.state.underdog = (sit.underdog.clamp(1, 2) - 1) as usize;
        if let Some(z) = &sit.scoring_zone {
            if !board_zone(z) {
                return Err(format!("map `{}` has no zone `{z}`", scenario.map));
            }
            g.state.scoring_zone = z.clone();
        }
        for c in &sit.character {
            let loc = match c.space {
                Some([q, r]) => {
                    let h = Hex::new(q, r);
                    if !g.is_free(h) {
                        return Err(format!("{}: [{q}, {r}] {}", c.id, g.why_not_free(h)));
                    }
                    Location::Space(h)
                }
                None if c.infirmary => Location::Infirmary,
                None => Location::Bench,
            };
            let hp = content.characters[&c.id].value.hit_points;
            if c.damage >= hp {
                return Err(format!("{}: {} Damage would put it in the Infirmary", c.id, c.damage));
            }
            let u = g.unit_mut(&c.id).expect("unit");
            u.location = loc;
            u.damage = c.damage;
            u.action_points = c.action_points.unwrap_or(0);
            u.movement_points = c.movement_points;
            for (st, side) in
                c.states.iter().map(|s| (s, TokenSide::Red)).chain(c.blue_states.iter().map(|s| (s, TokenSide::Blue)))
            {
                if !content.states.contains_key(st) {
                    return Err(format!("{}: no State `{st}`", c.id));
                }
                let source = if st == "taunted" { c.taunted_by.clone() } else { None };
                u.tokens.push(Token { state: st.clone(), side, source, choice: None });
            }
            if let Some(by) = &c.taunted_by {
                if !c.states.iter().chain(&c.blue_states).any(|s| s == "taunted") {
                    return Err(format!("{}: `taunted_by` needs the Taunted State in `states`", c.id));
                }
                if !sit.character.iter().any(|o| o.id == *by) {
                    return Err(format!("{}: `taunted_by`: `{by}` is not in the situation", c.id));
                }
            }
        }
        for m in &sit.minion {
            let [q, r] = m.space;
            let h = Hex::new(q, r);
            if !g.is_free(h) {
                return Err(format!("minion {}: [{q}, {r}] is not a Free space", m.card));
            }
            if !sit.character.iter().any(|c| c.id == m.controller) {
                return Err(format!("minion {}: its Controller `{}` is not in the situation", m.card, m.controller));
            }
            let id = g.deploy_minion(&m.controller, &m.card, h).map_err(|e| format!("minion {}: {e}", m.card))?;
            let hp = g.card(&id).hit_points;
            if m.damage >= hp {
                return Err(format!("{id}: {} Damage would remove it from the HexaDome", m.damage));
            }
            let u = g.unit_mut(&id).expect("minion");
            u.damage = m.damage;
            for (st, side) in
                m.states.iter().map(|s| (s, TokenSide::Red)).chain(m.blue_states.iter().map(|s| (s, TokenSide::Blue)))
            {
                if !content.states.contains_key(st) {
                    return Err(format!("{id}: no State `{st}`"));
                }
                u.tokens.push(Token { state: st.clone(), side, source: None, choice: None });
            }
        }
        g.events.clear();
        for p in 0..2 {
            if let Some(t) = sit.hands[p].iter().find(|t| !content.tactics.contains_key(*t)) {
                return Err(format!("player {}'s hand: no Tactic `{t}`", p + 1));
            }
            g.state.players[p].hand = sit.hands[p].clone();
            g.state.players[p].deck = sit.decks[p].clone();
            g.state.players[p].victory_points = sit.victory_points[p];
        }
        g.state.round = sit.round;
        g.state.smoke = sit.smoke.iter().map(|t| (Hex::new(t.space[0], t.space[1]), t.character.clone())).collect();
        for m in &sit.special_spaces {
            if !content.special_spaces.contains_key(&m.marker) {
                return Err(format!("no Special Space marker `{}`", m.marker));
            }
            let space = Hex::new(m.space[0], m.space[1]);
            if g.state.special_spaces.iter().any(|x| x.space == space) {
                return Err(format!(
                    "two Special Space markers on [{}, {}]: a Space cannot have two (001 § Special Spaces)",
                    m.space[0], m.space[1]
                ));
            }
            if !g.board.on_board(space) || g.board.blocked.contains(&space) || g.board.barriers.contains(&space) {
                return Err(format!(
                    "Special Space marker {}: [{}, {}] is not a space of the HexaDome",
                    m.marker, m.space[0], m.space[1]
                ));
            }
            g.state.special_spaces.push(SpecialSpaceMarker { space, marker: m.marker.clone(), revealed: m.revealed });
        }
        for r in &sit.running_projectiles {
            if !content.running_projectiles.contains_key(&r.marker) {
                return Err(format!("no Running Projectile `{}`", r.marker));
            }
            if !(1..=2).contains(&r.player) {
                return Err(format!("Running Projectile {}: player must be 1 or 2", r.marker));
            }
            let space = Hex::new(r.space[0], r.space[1]);
            if !g.is_free(space) {
                return Err(format!(
                    "Running Projectile {}: [{}, {}] {}",
                    r.marker,
                    r.space[0],
                    r.space[1],
                    g.why_not_free(space)
                ));
            }
            g.state.projectiles_deployed += 1;
            g.state.units.push(Unit {
                id: format!("running-projectile-{}", g.state.projectiles_deployed),
                owner: (r.player.clamp(1, 2) - 1) as usize,
                location: Location::Space(space),
                damage: 0,
                tokens: vec![],
                action_points: 0,
                movement_points: 0,
                movement_spent: 0,
                next_roll: vec![],
                minion: None,
                projectile: Some(r.marker.clone()),
                until_end_of_activation: vec![],
            });
        }
        if g.unit(&sit.active).is_none() {
            return Err(format!("the active Character `{}` is not in the situation", sit.active));
        }
        if g.is_minion(&sit.active) {
            return Err(format!(
                "`{}` is a Minion: Minions have no Activation (their Controller activates them)",
                sit.active
            ));
        }
        if sit.round == 0 || sit.round > scenario.rounds {
            return Err(format!("round {} is not a Round of `{}` (1 to {})", sit.round, sit.scenario, scenario.rounds));
        }
        g.state.active = Some(sit.active.clone());
        g.forced = sit.dice.iter().cloned().collect();
        Ok(g)
    }

    /// Play the active Character's Activation; when it was given Action Points,
    /// from its Actions Step (the Preparation Step is skipped).
    pub fn run_activation(&mut self, skip_preparation: bool) -> Result<()> {
        let id = self.state.active.clone().ok_or("no active Character")?;
        if skip_preparation {
            let owner = self.unit(&id).map(|u| u.owner).unwrap_or(0);
            let ap = self.unit(&id).map(|u| u.action_points).unwrap_or(0);
            self.emit(Event::ActivationStarted { character: id.clone(), action_points: ap });
            self.actions_and_states(&id, owner)
        } else {
            self.activation(&id)
        }
    }

    /// Play the end of the Round: Objectives Phase, then Recovery Phase unless the game ended.
    pub fn run_end_of_round(&mut self) {
        let rounds = self.content.scenarios[&self.state.scenario].value.rounds;
        // The end of the Turns Phase: the Running Projectiles in play act first.
        self.projectiles_phase();
        self.objectives_phase(rounds);
        if !self.state.over {
            self.recovery_phase();
        }
    }

    /// The events before a controller gave up, if one did (situations).
    pub fn halted(&self) -> Option<usize> {
        self.halted
    }

    /// Forced dice faces not rolled (situations).
    pub fn unused_dice(&self) -> usize {
        self.forced.len()
    }

    /// A forced face its die did not have, if any (situations).
    pub fn fault(&self) -> Option<&str> {
        self.fault.as_deref()
    }
}

fn shuffle<T>(v: &mut [T], rng: &mut rand_chacha::ChaCha8Rng) {
    // Fisher-Yates with the game's RNG, so decks are part of the seed.
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
}

/// Every ordering of a list, in lexicographic order of positions.
fn permutations(ids: &[Id]) -> Vec<Vec<Id>> {
    if ids.len() <= 1 {
        return vec![ids.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..ids.len() {
        let mut rest = ids.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first.clone());
            out.push(p);
        }
    }
    out
}
