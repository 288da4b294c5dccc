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

    // -- queries ------------------------------------------------------------

    fn unit(&self, id: &str) -> Option<&Unit> {
        self.state.units.iter().find(|u| u.id == id)
    }

    fn unit_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.state.units.iter_mut().find(|u| u.id == id)
    }

    /// The card of a Character or Minion in the game.
    fn card(&self, id: &str) -> Card<'a> {
        let unit = self.unit(id);
        if unit.is_some_and(|u| u.projectile.is_some()) {
            return Card::Minion(self.projectile_card.clone());
        }
        match unit.and_then(|u| u.minion.as_ref()) {
            Some(m) => Card::Minion(self.minion_cards[m.slot].clone()),
            None => Card::Character(&self.content.characters[id].value),
        }
    }

    /// Whether a unit is a Running Projectile (an Obstacle, not a Character).
    fn is_projectile(&self, id: &str) -> bool {
        self.unit(id).is_some_and(|u| u.projectile.is_some())
    }

    /// Whose choice an effect's question is: the player of the Character whose
    /// effect runs (a Defender's Switch, an opponent's Tactic), else the active
    /// player's.
    fn effect_player(&self) -> PlayerId {
        self.effect_source.as_deref().or(self.state.active.as_deref()).and_then(|a| self.unit(a)).map_or(0, |u| u.owner)
    }

    /// Whether a named effect "until the end of this Activation" is on a unit.
    fn has_activation_effect(&self, id: &str, name: &str) -> bool {
        self.unit(id).is_some_and(|u| u.until_end_of_activation.iter().any(|n| n == name))
    }

    /// Whether a unit is a Minion (`002 § Minion`: "they are not Characters").
    fn is_minion(&self, id: &str) -> bool {
        self.unit(id).is_some_and(|u| u.minion.is_some())
    }

    /// Who pays and decides for a unit's Actions: the Character itself, or a
    /// Minion's Controller (`002 § Controller`).
    fn acting_character<'s>(&'s self, id: &'s str) -> &'s str {
        match self.unit(id).and_then(|u| u.minion.as_ref()) {
            Some(m) => &m.controller,
            None => id,
        }
    }

    /// The deployed Minions of a Controller.
    fn minions_of(&self, controller: &str) -> Vec<Id> {
        self.state
            .units
            .iter()
            .filter(|u| {
                u.minion.as_ref().is_some_and(|m| m.controller == controller)
                    && matches!(u.location, Location::Space(_))
            })
            .map(|u| u.id.clone())
            .collect()
    }

    /// Where an effect of a unit's card lives: a Character's on its card, a
    /// Minion's on its Controller's card under `minions[id=...]`.
    fn effect_home(&self, id: &str, path: &str) -> (String, String) {
        match self.unit(id).and_then(|u| u.minion.as_ref()) {
            Some(m) => (format!("character:{}", m.controller), format!("minions[id={}].{path}", m.card)),
            None => (format!("character:{id}"), path.to_string()),
        }
    }

    fn space_of(&self, id: &str) -> Option<Hex> {
        match self.unit(id) {
            Some(u) => match u.location {
                Location::Space(h) => Some(h),
                _ => None,
            },
            None => barrier_space(id).filter(|h| self.board.barriers.contains(h)),
        }
    }

    fn occupant(&self, h: Hex) -> Option<&Unit> {
        self.state.units.iter().find(|u| u.location == Location::Space(h))
    }

    /// Free: on the board, not Blocked, no Character, no Barrier (`000 § Free Spaces`).
    fn is_free(&self, h: Hex) -> bool {
        self.board.on_board(h)
            && !self.board.blocked.contains(&h)
            && !self.board.barriers.contains(&h)
            && self.occupant(h).is_none()
    }

    /// Why a space is not Free, for messages.
    fn why_not_free(&self, h: Hex) -> String {
        if !self.board.on_board(h) {
            format!("is off the board (radius {})", self.board.radius)
        } else if self.board.blocked.contains(&h) {
            "is a Blocked space".into()
        } else if self.board.barriers.contains(&h) {
            "holds a Barrier".into()
        } else if let Some(u) = self.occupant(h) {
            format!("is Occupied by {}", u.id)
        } else {
            "is not Free".into()
        }
    }

    fn has_state(&self, id: &str, state: &str) -> bool {
        self.unit(id).is_some_and(|u| u.tokens.iter().any(|t| t.state == state))
    }

    /// An attribute with the States' modifiers applied, never below 0 (`000 § Attributes`).
    fn attribute(&self, id: &str, base: u8, pick: fn(&model::Modifiers) -> i8) -> u8 {
        let mut v = base as i32;
        if let Some(u) = self.unit(id) {
            for t in &u.tokens {
                if let Some(m) = self.content.states.get(&t.state).and_then(|s| s.value.modifiers.as_ref()) {
                    v += pick(m) as i32;
                }
            }
        }
        v.max(0) as u8
    }

    fn initiative(&self, id: &str) -> u8 {
        self.attribute(id, self.card(id).initiative, |m| m.initiative)
    }

    fn enemies(&self, of: &str) -> Vec<&Unit> {
        let owner = self.unit(of).map(|u| u.owner);
        // Running Projectiles are nobody's Enemies: Obstacles both sides may Attack.
        self.state
            .units
            .iter()
            .filter(|u| Some(u.owner) != owner && u.projectile.is_none() && matches!(u.location, Location::Space(_)))
            .collect()
    }

    fn adjacent_enemies(&self, id: &str) -> Vec<Id> {
        let Some(h) = self.space_of(id) else { return vec![] };
        self.enemies(id)
            .into_iter()
            .filter(|e| matches!(e.location, Location::Space(s) if s.is_adjacent(h)))
            .map(|e| e.id.clone())
            .collect()
    }

    /// What obstructs Line of Sight: Blocked spaces and Character-occupied spaces
    /// (`000 § Line of Sight`; Obstacles, Minions included, do not).
    fn obstructs(&self, h: Hex) -> bool {
        // Minions are Obstacles (`002 § Minion`), which "don't block Line of Sight".
        self.board.blocked.contains(&h)
            || self.occupant(h).is_some_and(|u| u.minion.is_none() && u.projectile.is_none())
            || self.in_smoke(h)
    }

    fn in_smoke(&self, h: Hex) -> bool {
        self.state.smoke.iter().any(|(s, _)| *s == h)
    }

    /// Line of Sight between two Characters in the HexaDome, with Dazzled and
    /// Hidden (`000 § Dazzled`, `§ Hidden`).
    fn sight(&self, from: &str, to: &str) -> Sight {
        let (Some(a), Some(b)) = (self.space_of(from), self.space_of(to)) else { return Sight::Blocked };
        if a.is_adjacent(b) || a == b {
            return Sight::Clear;
        }
        // Dazzled, Hidden, and Smoke on either end: no sight beyond Range 0-1
        // (`000 § Dazzled`, `002 § Hidden`, `004 § Smoke`).
        if self.has_state(from, "dazzled") || self.has_state(to, "hidden") || self.in_smoke(a) || self.in_smoke(b) {
            return Sight::Blocked;
        }
        geometry::line_of_sight(a, b, |h| self.obstructs(h))
    }

    /// Whether `to` is within `range` of `from` (`000 § Range`).
    fn in_range(&self, from: &str, to: &str, range: &model::Range) -> bool {
        let (Some(a), Some(b)) = (self.space_of(from), self.space_of(to)) else { return false };
        // Cheap first: no route is shorter than the hex distance.
        if a.distance(b) > range.max as u32 {
            return false;
        }
        if range.line_of_sight {
            if a != b && !self.sight(from, to).has_line_of_sight() && !self.has_state(to, "marked") {
                return false;
            }
            let d = if a == b {
                0
            } else {
                match geometry::path_distance(a, b, |h| self.is_free(h), range.max as u32) {
                    Some(d) => d,
                    None => return false,
                }
            };
            d >= range.min as u32 && d <= range.max as u32
        } else {
            let d = a.distance(b);
            d >= range.min as u32 && d <= range.max as u32
        }
    }

    fn cover(&self, who: &str, enemy: &str) -> bool {
        let (Some(a), Some(b)) = (self.space_of(who), self.space_of(enemy)) else { return false };
        // "Minions cannot benefit from Cover" (`002 § Minion`).
        if a.is_adjacent(b)
            || self.has_state(who, "marked")
            || self.has_state(who, "hidden")
            || self.is_minion(who)
            || self.is_projectile(who)
        {
            return false;
        }
        let provides =
            |h: Hex| self.board.blocked.contains(&h) || self.board.barriers.contains(&h) || self.occupant(h).is_some();
        geometry::cover(a, b, provides, |h| self.obstructs(h))
    }

    // -- setup -------------------------------------------------------------

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

    fn setup_phase(&mut self) -> Result<()> {
        // Starting hands of four, one mulligan each (`000 § Setup`, Step 4).
        for p in 0..2 {
            self.draw(p, 4);
            let choice = self.decide(
                p,
                Kind::Mulligan,
                None,
                "Mulligan: shuffle your hand back and draw four new Tactics?",
                vec![Choice::No, Choice::Yes],
            );
            if choice == Choice::Yes {
                let hand = std::mem::take(&mut self.state.players[p].hand);
                self.state.players[p].deck.extend(hand);
                let mut deck = std::mem::take(&mut self.state.players[p].deck);
                shuffle(&mut deck, &mut self.state.rng);
                self.state.players[p].deck = deck;
                self.draw(p, 4);
            }
        }
        // Underdog: the lower Initiative total; a tie is settled by the RNG (`000 § Setup`, Step 6).
        let totals: Vec<u32> =
            (0..2).map(|p| self.state.players[p].team.iter().map(|c| self.card(c).initiative as u32).sum()).collect();
        let (underdog, reason) = if totals[0] < totals[1] {
            (0, format!("lower Initiative total, {} to {}", totals[0], totals[1]))
        } else if totals[1] < totals[0] {
            (1, format!("lower Initiative total, {} to {}", totals[1], totals[0]))
        } else {
            (
                self.state.rng.random_range(0..2usize),
                format!("Initiative totals tied at {}: drawn at random", totals[0]),
            )
        };
        self.state.underdog = underdog;
        self.emit(Event::Underdog { player: underdog, reason });
        self.place_special_spaces();
        // Deployment in or adjacent to each player's zone (REFERENCE-DATA § HexaDome).
        for p in 0..2 {
            let team = self.state.players[p].team.clone();
            let zone = self.state.players[p].zone.clone();
            for c in team {
                // Not onto a Special Space marker (rulings R18).
                let mut spaces = self.zone_and_adjacent_free(&zone);
                spaces.retain(|h| !self.state.special_spaces.iter().any(|m| m.space == *h));
                if spaces.is_empty() {
                    return Err(format!("no Free space left in or next to `{zone}` to deploy {c}"));
                }
                let options = spaces.into_iter().map(|s| Choice::Space { space: s }).collect();
                let Choice::Space { space } = self.decide(p, Kind::Deploy, Some(&c), "Deploy where?", options) else {
                    unreachable!()
                };
                self.unit_mut(&c).expect("unit").location = Location::Space(space);
                self.emit(Event::Deployed { character: c, space });
            }
        }
        self.setup_projectiles();
        Ok(())
    }

    /// Special Spaces (`001 § Scenarios with Special Spaces`): the markers
    /// (Wildcards left out) are shuffled face down; the players take turns,
    /// from the Underdog, drawing one and placing it on a Free space outside
    /// every Deployment Zone and not Adjacent to another marker.
    fn place_special_spaces(&mut self) {
        let count = self.content.scenarios[&self.state.scenario].value.special_spaces as usize;
        if count == 0 {
            return;
        }
        let mut stack: Vec<Id> = Vec::new();
        for e in self.content.special_spaces.values() {
            if !e.value.wildcard {
                stack.extend(std::iter::repeat_n(e.value.id.clone(), e.value.count as usize));
            }
        }
        shuffle(&mut stack, &mut self.state.rng);
        let deployment: BTreeSet<Hex> = self
            .board
            .zones
            .values()
            .filter(|(kind, _)| *kind == model::ZoneKind::Deployment)
            .flat_map(|(_, spaces)| spaces.iter().copied())
            .collect();
        let mut p = self.state.underdog;
        for _ in 0..count {
            let Some(marker) = stack.pop() else { break };
            let r = self.board.radius as i32;
            let options: Vec<Choice> = (-r..=r)
                .flat_map(|q| (-r..=r).map(move |rr| Hex::new(q, rr)))
                .filter(|h| self.is_free(*h) && !deployment.contains(h))
                .filter(|h| !self.state.special_spaces.iter().any(|m| m.space == *h || m.space.is_adjacent(*h)))
                .map(|space| Choice::Space { space })
                .collect();
            if options.is_empty() {
                break;
            }
            let prompt = format!("Place the Special Space marker you drew ({marker}) where?");
            if let Choice::Space { space } = self.decide(p, Kind::SpecialSpace, None, &prompt, options) {
                self.state.special_spaces.push(SpecialSpaceMarker { space, marker, revealed: false });
                self.emit(Event::SpecialSpacePlaced { player: p, space });
            }
            p = 1 - p;
        }
    }

    /// Running Projectiles at setup: one per player, from the Underdog
    /// (`001 § Scenarios with Running Projectiles`).
    fn setup_projectiles(&mut self) {
        if !self.content.scenarios[&self.state.scenario].value.running_projectiles {
            return;
        }
        let mut deck: Vec<Id> = Vec::new();
        for e in self.content.running_projectiles.values() {
            deck.extend(std::iter::repeat_n(e.value.id.clone(), e.value.count as usize));
        }
        shuffle(&mut deck, &mut self.state.rng);
        self.state.projectile_deck = deck;
        self.top_up_projectiles();
    }

    /// Each player, from the Underdog, deploys one until there are as many
    /// Running Projectiles as players in the HexaDome.
    fn top_up_projectiles(&mut self) {
        let mut p = self.state.underdog;
        for _ in 0..4 {
            let on_board = self
                .state
                .units
                .iter()
                .filter(|u| u.projectile.is_some() && matches!(u.location, Location::Space(_)))
                .count();
            if on_board >= 2 || self.state.projectile_deck.is_empty() {
                return;
            }
            self.deploy_projectile(p);
            p = 1 - p;
        }
    }

    /// The top marker, deployed by `p` on a Free space outside and not Adjacent
    /// to any Deployment Zone, not in Range 1-2 of any Character and not in
    /// Contact with another Running Projectile; with no such space it goes to
    /// the bottom of the deck "as if it had been activated".
    fn deploy_projectile(&mut self, p: PlayerId) {
        let Some(marker) = self.state.projectile_deck.pop() else { return };
        let zones: BTreeSet<Hex> = self
            .board
            .zones
            .values()
            .filter(|(kind, _)| *kind == model::ZoneKind::Deployment)
            .flat_map(|(_, spaces)| spaces.iter().copied())
            .collect();
        let r = self.board.radius as i32;
        let options: Vec<Choice> = (-r..=r)
            .flat_map(|q| (-r..=r).map(move |rr| Hex::new(q, rr)))
            .filter(|h| self.is_free(*h) && !zones.contains(h) && !h.neighbours().iter().any(|n| zones.contains(n)))
            .filter(|h| {
                !self.state.units.iter().any(|u| match u.location {
                    Location::Space(x) if u.projectile.is_some() => x.is_adjacent(*h),
                    Location::Space(x) if u.minion.is_none() => x.distance(*h) <= 2,
                    _ => false,
                })
            })
            .map(|space| Choice::Space { space })
            .collect();
        self.state.projectiles_deployed += 1;
        let id = format!("running-projectile-{}", self.state.projectiles_deployed);
        if options.is_empty() {
            self.state.projectile_deck.insert(0, marker);
            self.emit(Event::ProjectileRemoved { projectile: id, why: "discarded".into() });
            return;
        }
        let Choice::Space { space } =
            self.decide(p, Kind::Projectile, None, "Deploy the Running Projectile where?", options)
        else {
            return;
        };
        let u = Unit {
            id: id.clone(),
            owner: p,
            location: Location::Space(space),
            damage: 0,
            tokens: vec![],
            action_points: 0,
            movement_points: 0,
            movement_spent: 0,
            next_roll: Vec::new(),
            minion: None,
            projectile: Some(marker),
            until_end_of_activation: Vec::new(),
        };
        self.state.units.push(u);
        self.emit(Event::ProjectileDeployed { player: p, projectile: id, space });
    }

    /// A Running Projectile leaves the HexaDome; its marker goes to the bottom of the deck.
    fn remove_projectile(&mut self, id: &str, why: &str) {
        let Some(u) = self.unit_mut(id) else { return };
        if u.projectile.is_none() || !matches!(u.location, Location::Space(_)) {
            return;
        }
        // The unit stays, to the side, so effects still naming it find it.
        u.location = Location::Aside;
        u.damage = 0;
        let marker = u.projectile.clone().unwrap_or_default();
        self.state.projectile_deck.insert(0, marker);
        self.emit(Event::ProjectileRemoved { projectile: id.to_string(), why: why.to_string() });
    }

    /// Flip a Running Projectile against a Character: its Effect applies, then
    /// it leaves the HexaDome (`001 § Running Projectiles`). Inside an effect,
    /// once that effect has run.
    fn trigger_projectile(&mut self, projectile: &str, target: &str) {
        let Some(marker) = self.unit(projectile).and_then(|u| u.projectile.clone()) else { return };
        self.emit(Event::ProjectileTriggered {
            projectile: projectile.to_string(),
            marker: marker.clone(),
            target: target.to_string(),
        });
        let text =
            self.content.running_projectiles.get(&marker).map(|e| e.value.effect.text.clone()).unwrap_or_default();
        self.run_effect(&format!("running_projectile:{marker}"), "effect", projectile, Some(target), None, &text);
        self.remove_projectile(projectile, "triggered");
    }

    /// The end of the Turns Phase: the players take turns, from the Underdog,
    /// activating the Running Projectiles once each, then top them up to one
    /// per player (`001 § Scenarios with Running Projectiles`).
    fn projectiles_phase(&mut self) {
        let mut waiting: Vec<Id> = self
            .state
            .units
            .iter()
            .filter(|u| u.projectile.is_some() && matches!(u.location, Location::Space(_)))
            .map(|u| u.id.clone())
            .collect();
        let mut p = self.state.underdog;
        while !waiting.is_empty() && !self.state.over {
            let options = waiting.iter().map(|id| Choice::Pick { id: id.clone() }).collect();
            let Choice::Pick { id } =
                self.decide(p, Kind::Projectile, None, "Activate which Running Projectile?", options)
            else {
                break;
            };
            waiting.retain(|w| *w != id);
            self.activate_projectile(p, &id);
            p = 1 - p;
        }
        if !self.state.over {
            self.top_up_projectiles();
        }
    }

    /// A Running Projectile's Activation (`001 § Activation of the Running
    /// Projectiles`): up to 3 Displacements, never through a space twice; then
    /// a Target in Range 1-2 must be chosen, and the Projectile is flipped
    /// against it; with none, up to 2 more Displacements, not ending in
    /// Contact with any Character.
    fn activate_projectile(&mut self, p: PlayerId, id: &str) {
        let Some(start) = self.space_of(id) else { return };
        let mut visited: BTreeSet<Hex> = BTreeSet::from([start]);
        let characters = |g: &Self| -> Vec<(Id, Hex)> {
            g.state
                .units
                .iter()
                .filter(|u| u.minion.is_none() && u.projectile.is_none())
                .filter_map(|u| match u.location {
                    Location::Space(h) => Some((u.id.clone(), h)),
                    _ => None,
                })
                .collect()
        };
        let step = |g: &mut Self, visited: &mut BTreeSet<Hex>, away_from_characters: bool| -> bool {
            let Some(from) = g.space_of(id) else { return false };
            let near: Vec<Hex> = characters(g).into_iter().map(|(_, h)| h).collect();
            let options: Vec<Choice> = std::iter::once(Choice::Done)
                .chain(
                    from.neighbours()
                        .into_iter()
                        .filter(|h| g.is_free(*h) && !visited.contains(h))
                        .filter(|h| !away_from_characters || !near.iter().any(|c| c.is_adjacent(*h)))
                        .map(|space| Choice::MoveTo { space }),
                )
                .collect();
            match g.decide(p, Kind::Projectile, None, &format!("Displace {id}?"), options) {
                Choice::MoveTo { space } => {
                    visited.insert(space);
                    g.unit_mut(id).expect("projectile").location = Location::Space(space);
                    g.emit(Event::Displaced { character: id.to_string(), from, to: space });
                    true
                }
                _ => false,
            }
        };
        for _ in 0..3 {
            if !step(self, &mut visited, false) {
                break;
            }
        }
        let range = model::Range { min: 1, max: 2, line_of_sight: true };
        let targets: Vec<Choice> = characters(self)
            .into_iter()
            .filter(|(c, _)| self.in_range(id, c, &range))
            .map(|(c, _)| Choice::Pick { id: c })
            .collect();
        if targets.is_empty() {
            for _ in 0..2 {
                if !step(self, &mut visited, true) {
                    break;
                }
            }
            return;
        }
        if let Choice::Pick { id: target } =
            self.decide(p, Kind::Projectile, None, &format!("{id} hits which Target?"), targets)
        {
            self.trigger_projectile(id, &target);
        }
    }

    /// A Character "advances, is Placed, or Displaced into a Space with a
    /// Special Space marker": the marker is flipped if face down, and its
    /// Effects apply, at once if red, if its player wants if green (`001 §
    /// Special Spaces`). Minions are not Characters.
    fn entered(&mut self, id: &str, space: Hex) {
        if self.is_minion(id) || self.is_projectile(id) {
            return;
        }
        let contact = self
            .state
            .units
            .iter()
            .any(|u| u.projectile.is_some() && matches!(u.location, Location::Space(h) if h.is_adjacent(space)));
        if !contact && !self.state.special_spaces.iter().any(|m| m.space == space) {
            return;
        }
        if self.in_effect() {
            self.after_effect.push_back(AfterEffect::Entered(id.to_string(), space));
            return;
        }
        // A Running Projectile in Contact is flipped against the Character
        // (`001 § Running Projectiles`), the first found if several.
        let touching: Vec<Id> = self
            .state
            .units
            .iter()
            .filter(|u| u.projectile.is_some() && matches!(u.location, Location::Space(h) if h.is_adjacent(space)))
            .map(|u| u.id.clone())
            .collect();
        for p in touching {
            // Each Running Projectile in Contact is flipped (R20), while the
            // Character is still there.
            if self.space_of(id) != Some(space) {
                return;
            }
            self.trigger_projectile(&p, id);
        }
        if self.space_of(id) != Some(space) {
            return;
        }
        let Some(i) = self.state.special_spaces.iter().position(|m| m.space == space) else { return };
        let marker = self.state.special_spaces[i].marker.clone();
        if !self.state.special_spaces[i].revealed {
            self.state.special_spaces[i].revealed = true;
            self.emit(Event::SpecialSpaceRevealed { space, marker: marker.clone() });
        }
        let Some(card) = self.content.special_spaces.get(&marker).map(|e| e.value.clone()) else { return };
        if self.markers_resolving.contains(&space) {
            // Its own Effect brought the Character back onto it: no second go (R18).
            return;
        }
        if card.optional && !self.optional(id, &format!("Apply the Special Space: {}", card.effect.text.trim())) {
            self.emit(Event::Log { text: format!("{id} does not apply the Special Space") });
            return;
        }
        self.markers_resolving.push(space);
        self.run_effect(&format!("special_space:{marker}"), "effect", id, None, None, &card.effect.text);
        self.markers_resolving.retain(|m| *m != space);
    }

    fn zone_spaces(&self, zone: &str) -> Vec<Hex> {
        self.board.zones.get(zone).map(|z| z.1.clone()).unwrap_or_default()
    }

    fn zone_and_adjacent_free(&self, zone: &str) -> Vec<Hex> {
        let mut set: BTreeSet<Hex> = BTreeSet::new();
        for h in self.zone_spaces(zone) {
            set.insert(h);
            set.extend(h.neighbours());
        }
        set.into_iter().filter(|h| self.is_free(*h)).collect()
    }

    fn draw(&mut self, p: PlayerId, n: u8) {
        let mut drawn = 0;
        for _ in 0..n {
            if self.state.players[p].deck.is_empty() {
                // Reshuffle the discard pile (the rulebook is silent; docs/rulings.md R7).
                let mut d = std::mem::take(&mut self.state.players[p].discard);
                if !d.is_empty() {
                    self.emit(Event::Log {
                        text: format!(
                            "player {}'s deck is empty: the {} discarded Tactics are shuffled into a new one",
                            p + 1,
                            d.len()
                        ),
                    });
                }
                shuffle(&mut d, &mut self.state.rng);
                self.state.players[p].deck = d;
            }
            match self.state.players[p].deck.pop() {
                Some(t) => {
                    self.state.players[p].hand.push(t);
                    drawn += 1;
                }
                None => break,
            }
        }
        let hand = self.state.players[p].hand.len();
        self.emit(Event::TacticsDrawn { player: p, count: drawn, hand });
    }

    // -- Round phases --------------------------------------------------------

    fn planning_phase(&mut self) {
        self.open_window(model::Window::PlanningPhase, None);
        for p in 0..2 {
            let team = self.state.players[p].team.clone();
            let options: Vec<Choice> = permutations(&team).into_iter().map(|ids| Choice::Order { ids }).collect();
            let Choice::Order { ids } =
                self.decide(p, Kind::RunningOrder, None, "Running Order for this Round?", options)
            else {
                unreachable!()
            };
            self.state.players[p].running_order = ids.clone();
            self.emit(Event::RunningOrder { player: p, order: ids });
        }
    }

    fn turn(&mut self, turn: u8) -> Result<()> {
        if self.state.over {
            return Ok(());
        }
        let i = (turn - 1) as usize;
        let (a, b) = match (
            self.state.players[0].running_order.get(i).cloned(),
            self.state.players[1].running_order.get(i).cloned(),
        ) {
            (Some(a), Some(b)) => (a, b),
            // Teams of different sizes: the one Character of this slot activates alone.
            (Some(one), None) | (None, Some(one)) => return self.activation(&one),
            (None, None) => return Ok(()),
        };
        let (ia, ib) = (self.initiative(&a), self.initiative(&b));
        // Higher Initiative decides; the Underdog on a tie (`000 § Turns Phase`).
        let decider = if ia > ib {
            0
        } else if ib > ia {
            1
        } else {
            self.state.underdog
        };
        let options = vec![Choice::First { character: a.clone() }, Choice::First { character: b.clone() }];
        let first = match self.decide(decider, Kind::FirstActivation, None, "Which Character activates first?", options)
        {
            Choice::First { character } => character,
            _ => unreachable!(),
        };
        let second = if first == a { b } else { a };
        self.emit(Event::Initiative { turn, first: first.clone(), second: second.clone() });
        self.activation(&first)?;
        self.activation(&second)?;
        Ok(())
    }

    fn activation(&mut self, id: &str) -> Result<()> {
        if self.unit(id).is_none() {
            return Ok(());
        }
        // Smoke goes at the start of its deployer's next Activation, or when it
        // would have taken place (`004 § Smoke`).
        let mine: Vec<Hex> = self.state.smoke.iter().filter(|(_, c)| c == id).map(|(h, _)| *h).collect();
        if !mine.is_empty() {
            self.state.smoke.retain(|(_, c)| c != id);
            for space in mine {
                self.emit(Event::SmokeRemoved { character: id.to_string(), space });
            }
        }
        let Some(unit) = self.unit(id) else { return Ok(()) };
        if unit.location == Location::Infirmary {
            self.emit(Event::ActivationSkipped { character: id.to_string() });
            return Ok(());
        }
        let owner = unit.owner;
        // Preparation Step (`000 § Preparation Step`).
        self.state.active = Some(id.to_string());
        let energy = self.attribute(id, self.card(id).energy, |m| m.energy);
        {
            let u = self.unit_mut(id).expect("unit");
            u.action_points = energy;
            u.movement_points = 0;
            u.movement_spent = 0;
            u.next_roll.clear();
        }
        self.emit(Event::ActivationStarted { character: id.to_string(), action_points: energy });
        self.open_window(model::Window::ActivationStart, Some(id));
        if self.unit(id).map(|u| u.location) == Some(Location::Bench) {
            self.return_from_bench(id, owner);
            if self.unit(id).map(|u| u.location) == Some(Location::Bench) {
                // No Free space to return to: it stays on the Bench, where it
                // can do nothing ("Benched Characters are not in Range"; R21).
                self.emit(Event::Log { text: format!("{id} finds no Free space to return to and stays on the Bench") });
                self.states_step(id);
                self.state.active = None;
                return Ok(());
            }
        }
        self.actions_and_states(id, owner)
    }

    fn actions_and_states(&mut self, id: &str, owner: PlayerId) -> Result<()> {
        // "At the beginning of the Actions Step of an Ally" (Fairy Dust).
        self.skills_of_units(model::Window::AllyActionsStepStart, |u| u.owner == owner, Some(id));
        // Actions Step.
        while !self.state.over {
            if !self.actions_step_choice(id, owner)? {
                break;
            }
            if matches!(self.unit(id).map(|u| u.location), Some(Location::Infirmary) | None) {
                break;
            }
        }
        if matches!(self.unit(id).map(|u| u.location), Some(Location::Space(_))) && !self.state.over {
            self.open_window(model::Window::ActionsStepEnd, Some(id));
        }
        // States Step (`000 § States Step`).
        if matches!(self.unit(id).map(|u| u.location), Some(Location::Space(_))) && !self.state.over {
            self.open_window(model::Window::StatesStep, Some(id));
        }
        let mut unused = Vec::new();
        if let Some(u) = self.unit_mut(id) {
            u.action_points = 0;
            u.movement_points = 0;
            unused = std::mem::take(&mut u.next_roll); // "in this Activation"
        }
        for die in unused {
            self.emit(Event::Log {
                text: format!("{id} made no Roll: the {die} die promised to its next Roll is lost"),
            });
        }
        for u in self.state.units.iter_mut() {
            u.until_end_of_activation.clear();
        }
        self.states_step(id);
        // "During the Controller's States Step, all blue-side up State tokens on
        // their Minions cards are removed, and then all red-side up State tokens
        // are flipped" (`002 § Minion`).
        for m in self.minions_of(id) {
            self.states_step(&m);
        }
        self.state.active = None;
        Ok(())
    }

    fn return_from_bench(&mut self, id: &str, owner: PlayerId) {
        // A Free space in a Deployment Zone that is not the Scoring Zone (`000
        // § Bench`), or in the player's own, as the Scenario says.
        let own =
            self.content.scenarios[&self.state.scenario].value.bench_return_to == model::BenchReturn::OwnDeploymentZone;
        let own_zone = self.state.players[owner].zone.clone();
        let zones: Vec<Id> = self
            .board
            .zones
            .iter()
            .filter(|(zid, (kind, _))| {
                *kind == model::ZoneKind::Deployment && **zid != self.state.scoring_zone && (!own || **zid == own_zone)
            })
            .map(|(zid, _)| zid.clone())
            .collect();
        let mut spaces: Vec<Hex> =
            zones.iter().flat_map(|z| self.zone_spaces(z)).filter(|h| self.is_free(*h)).collect();
        spaces.sort();
        spaces.dedup();
        if spaces.is_empty() {
            return;
        }
        let options = spaces.into_iter().map(|s| Choice::Space { space: s }).collect();
        if let Choice::Space { space } =
            self.decide(owner, Kind::BenchReturn, Some(id), "Return from the Bench where?", options)
        {
            self.unit_mut(id).expect("unit").location = Location::Space(space);
            self.emit(Event::ReturnedFromBench { character: id.to_string(), space });
        }
    }

    /// Every Action the Character can perform now, with its Targets.
    fn legal_actions(&mut self, id: &str) -> Vec<Choice> {
        let mut out = Vec::new();
        let Some(u) = self.unit(id) else { return out };
        if !matches!(u.location, Location::Space(_)) {
            return out;
        }
        let (ap, movement_points, location) = (u.action_points, u.movement_points, u.location);
        // Move (`000 § Move`): 2 Action Points.
        if ap >= 2 {
            out.push(Choice::Perform { action: "move".into(), target: None, cost: 2 });
        }
        for (action, target, cost) in self.action_options(id, ap) {
            if self.condition_holds(id, &action, target.as_deref()) {
                out.push(Choice::Perform { action, target, cost });
            }
        }
        // The Controller's Minions: one of their card's Actions each time, paid
        // with the Controller's Action Points; removing one costs nothing
        // (`002 § Controller`; docs/rulings.md R11).
        for m in self.minions_of(id) {
            for (action, target, cost) in self.action_options(&m, ap) {
                if self.condition_holds(&m, &action, target.as_deref()) {
                    out.push(Choice::MinionAction { minion: m.clone(), action, target, cost });
                }
            }
        }
        for m in self.minions_of(id) {
            out.push(Choice::RemoveMinion { minion: m });
        }
        // Movement Points: one space at a time, unless Immobilized (`000 § Movement Points`, `§ Immobilized`).
        if movement_points > 0 && !self.has_state(id, "immobilized") {
            if let Location::Space(h) = location {
                for n in h.neighbours() {
                    if self.is_free(n) {
                        out.push(Choice::MoveTo { space: n });
                    }
                }
            }
        }
        out
    }

    /// The Actions `actor` can perform with `ap` Action Points, with their
    /// Targets: its card's (and the Contender Attack, for a Character).
    fn action_options(&self, actor: &str, ap: u8) -> Vec<(Id, Option<Id>, u8)> {
        let mut out = Vec::new();
        let Some(u) = self.unit(actor) else { return out };
        let card = self.card(actor);
        let contender = contender();
        let taunter: Option<Id> = u
            .tokens
            .iter()
            .find(|t| t.state == "taunted")
            .and_then(|t| t.source.clone())
            .filter(|s| self.space_of(s).is_some());
        // Minions are not Characters: no Contender Attack (`000 § Contender`).
        let implicit = if u.minion.is_none() { Some(&contender) } else { None };
        for action in card.actions.iter().chain(implicit) {
            if action.cost > ap || !self.runnable(action) || self.silenced(actor, &action.id) {
                continue;
            }
            if action.movement_cost > u.movement_points {
                continue;
            }
            match &action.range {
                None => out.push((action.id.clone(), None, action.cost)),
                Some(range) => {
                    for t in &self.state.units {
                        if !matches!(t.location, Location::Space(_)) {
                            continue;
                        }
                        let ally = t.owner == u.owner && t.projectile.is_none();
                        // Allies cannot be Attacked (`000 § Allies`); Taunted Attacks only its source (`000 § Taunted`).
                        if action.attack && (ally || taunter.as_ref().is_some_and(|s| *s != t.id)) {
                            continue;
                        }
                        if self.in_range(actor, &t.id, range) {
                            out.push((action.id.clone(), Some(t.id.clone()), action.cost));
                        }
                    }
                    if action.obstacle_targets && !action.attack {
                        for b in &self.board.barriers {
                            let id = format!("barrier@{},{}", b.q, b.r);
                            if self.in_range(actor, &id, range) {
                                out.push((action.id.clone(), Some(id), action.cost));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether an Action's `condition` allows it on `target` now (no
    /// condition: it does). The Lua's changes are undone; a condition that
    /// fails is recorded and allows nothing.
    fn condition_holds(&mut self, actor: &str, action: &str, target: Option<&str>) -> bool {
        self.condition_at(actor, &format!("actions[id={action}].condition"), target)
    }

    /// Whether a Tactic's `condition` holds for `character` (none: it does):
    /// a Tactic with nothing to do (Valkyrie's Cry with no Damaged Target in
    /// Range) is not offered.
    fn tactic_condition(&mut self, tactic: &str, character: &str) -> bool {
        let Some(script) = self.runtime.scripts().find(&format!("tactic:{tactic}"), "condition") else {
            return true;
        };
        self.probe(script, &format!("tactic:{tactic}"), "condition", character, None)
    }

    /// Whether the `condition` at `path` of `actor`'s card holds (none: it does).
    fn condition_at(&mut self, actor: &str, path: &str, target: Option<&str>) -> bool {
        let (home, path) = self.effect_home(actor, path);
        let Some(script) = self.runtime.scripts().find(&home, &path) else {
            return true; // none, or not scripted: listed by `arena check --strict`
        };
        self.probe(script, &home, &path, actor, target)
    }

    /// Run a condition's Lua with its changes undone; a failure or a
    /// non-boolean is recorded and counts as false.
    fn probe(&mut self, script: ScriptId, home: &str, path: &str, actor: &str, target: Option<&str>) -> bool {
        let ctx = Ctx { self_id: Some(actor.to_string()), target: target.map(str::to_string), successes: None };
        let rt = self.runtime;
        let outer = self.effect_source.replace(actor.to_string());
        self.probing = true;
        self.probe_asked = false;
        let result = rt.call(script, self, &ctx);
        self.probing = false;
        self.effect_source = outer;
        let asked = std::mem::take(&mut self.probe_asked);
        let failure = match result {
            Ok(_) if asked => {
                let source = &self.runtime.scripts().sources()[script.0];
                (
                    "a condition may not ask the players anything (choose, a Displacement's space ...): it only looks"
                        .to_string(),
                    source.file.display().to_string(),
                    Some(source.first_line),
                )
            }
            Ok(ApiValue::Bool(b)) => return b,
            Ok(other) => {
                let source = &self.runtime.scripts().sources()[script.0];
                (
                    format!("a condition must return true or false, not {other}"),
                    source.file.display().to_string(),
                    Some(source.first_line),
                )
            }
            Err(e) => (e.message.clone(), e.file.display().to_string(), e.line),
        };
        self.effect_failures += 1;
        self.emit(Event::EffectFailed {
            card: home.to_string(),
            effect: path.to_string(),
            message: failure.0,
            file: failure.1,
            line: failure.2,
        });
        false
    }

    /// Whether the engine can run an Action: every effect it would apply has Lua,
    /// or it is an Attack whose Damage the engine applies itself.
    fn runnable(&self, action: &Action) -> bool {
        action.attack || action.effects.iter().any(|e| e.lua.is_some() || e.script.is_some())
    }

    /// One choice of the Actions Step; false when the Activation ends.
    fn actions_step_choice(&mut self, id: &str, owner: PlayerId) -> Result<bool> {
        let mut options = self.legal_actions(id);
        for t in self.playable(owner, model::Window::ActionsStep, Some(id)) {
            if self.tactic_condition(&t, id) {
                options.push(Choice::Play { tactic: t });
            }
        }
        options.push(Choice::Done);
        match self.decide(owner, Kind::Action, Some(id), "What next?", options) {
            Choice::Done => Ok(false),
            Choice::Play { tactic } => {
                self.play_tactic(owner, &tactic, id, None);
                Ok(true)
            }
            Choice::MoveTo { space } => {
                self.move_one(id, space);
                Ok(true)
            }
            Choice::Perform { action, target, cost } => {
                self.perform(id, &action, target.as_deref(), cost)?;
                Ok(true)
            }
            Choice::MinionAction { minion, action, target, cost } => {
                self.perform(&minion, &action, target.as_deref(), cost)?;
                Ok(true)
            }
            Choice::RemoveMinion { minion } => {
                self.remove_minion(&minion, "removed");
                Ok(true)
            }
            other => Err(format!("unexpected choice {other}")),
        }
    }

    /// Tactics in `p`'s hand that can be played in `window` now: their timing
    /// matches, the engine can run them (they have Lua), and a Character's
    /// Actions Step Tactic is played in that Character's Activation
    /// (`000 § Tactics`: "as long as their conditions are met").
    fn playable(&self, p: PlayerId, window: model::Window, active: Option<&str>) -> Vec<Id> {
        let mut out: Vec<Id> = Vec::new();
        for t in &self.state.players[p].hand {
            if out.contains(t) {
                continue;
            }
            let Some(card) = self.content.tactics.get(t) else { continue };
            let c = &card.value;
            let scripted = c.effect.lua.is_some() || c.effect.script.is_some();
            if c.timing != window || !scripted {
                continue;
            }
            let activation_window = matches!(
                window,
                model::Window::ActionsStep
                    | model::Window::ActivationStart
                    | model::Window::ActionsStepEnd
                    | model::Window::StatesStep
            );
            if activation_window && !c.any_character && c.character.is_some() && c.character.as_deref() != active {
                continue;
            }
            out.push(t.clone());
        }
        out
    }

    /// Tactics of `p` playable in a window about one Character: a Character's
    /// own Tactic only for that Character (Epic Regeneration for Señor Massacre).
    fn playable_for(&self, p: PlayerId, window: model::Window, character: &str) -> Vec<Id> {
        self.playable(p, window, None)
            .into_iter()
            .filter(|t| {
                self.content.tactics.get(t).is_none_or(|c| c.value.character.as_deref().is_none_or(|o| o == character))
            })
            .collect()
    }

    /// Play a Tactic: discard it, let the opponent answer with a Tactic that
    /// Nullifies it ("No!", `tactic-played` timing), then run its effect.
    fn play_tactic(&mut self, p: PlayerId, tactic: &str, character: &str, target: Option<&str>) {
        let hand = &mut self.state.players[p].hand;
        let Some(i) = hand.iter().position(|t| t == tactic) else { return };
        let t = hand.remove(i);
        self.state.players[p].discard.push(t.clone());
        self.emit(Event::TacticPlayed { player: p, tactic: t.clone(), character: character.to_string() });
        let opponent = 1 - p;
        let answers = self.playable(opponent, model::Window::TacticPlayed, None);
        if !answers.is_empty() {
            let options =
                std::iter::once(Choice::Done).chain(answers.into_iter().map(|a| Choice::Play { tactic: a })).collect();
            if let Choice::Play { tactic: no } =
                self.decide(opponent, Kind::Tactic, None, &format!("Answer {t}?"), options)
            {
                // The answer is played like any Tactic (and may be answered in
                // turn); its Lua Nullifies `t` with `game:nullify_tactic`.
                self.answering.push((t.clone(), false));
                // Played for one of the answering player's own Characters.
                let mine = {
                    let team = &self.state.players[opponent].team;
                    team.iter().find(|c| self.space_of(c).is_some()).or(team.first()).cloned().unwrap_or_default()
                };
                self.play_tactic(opponent, &no, &mine, Some(character));
                let (_, nullified) = self.answering.pop().unwrap_or_default();
                if nullified {
                    self.emit(Event::Log { text: format!("{t} is Nullified by {no}") });
                    return;
                }
            }
        }
        let text = self.content.tactics.get(&t).map(|c| c.value.effect.text.clone()).unwrap_or_default();
        self.run_effect(&format!("tactic:{t}"), "effect", character, target, None, &text);
    }

    /// An Action's `before-roll` Effects, which change its own Roll's pools
    /// (`game:add_die`, `game:add_symbol`) before the dice are rolled.
    fn before_roll_effects(&mut self, id: &str, target: Option<&str>, action: &Action, pools: [Pool; 2]) -> [Pool; 2] {
        let indices: Vec<usize> = action
            .effects
            .iter()
            .enumerate()
            .filter(|(_, e)| e.timing == Some(model::Window::BeforeRoll))
            .map(|(i, _)| i)
            .collect();
        if indices.is_empty() {
            return pools;
        }
        self.pending_pools = Some(pools);
        self.tactic_side = Some(Side::Active);
        for i in indices {
            let path = format!("actions[id={}].effects[{i}]", action.id);
            let text = action.effects[i].text.clone();
            self.run_card_effect(id, &path, id, target, None, &text);
        }
        self.tactic_side = None;
        self.pending_pools.take().unwrap_or_default()
    }

    /// Automatic Skills with `timing = "before-roll"` of the attacker's team
    /// (the attacker included: "Characters are Allies of themselves",
    /// `000 § Allies`), run before an Attack Roll with ctx.self = the skill's
    /// owner and ctx.target = the Defender; they may add dice to the Attack
    /// (Pointman, `002 § Hannibal`).
    fn team_before_roll_skills(&mut self, attacker: &str, defender: &str, pools: [Pool; 2]) -> [Pool; 2] {
        let Some(owner) = self.unit(attacker).map(|u| u.owner) else { return pools };
        let holders: Vec<(Id, String, String)> = self
            .state
            .units
            .iter()
            .filter(|u| u.owner == owner && matches!(u.location, Location::Space(_)))
            .flat_map(|u| {
                self.card(&u.id)
                    .automatic_skills
                    .iter()
                    .filter(|s| {
                        s.timing == Some(model::Window::BeforeRoll)
                            && (s.effect.lua.is_some() || s.effect.script.is_some())
                    })
                    .filter(|s| !self.silenced(&u.id, &s.id))
                    .map(|s| (u.id.clone(), format!("automatic_skills[id={}].effect", s.id), s.effect.text.clone()))
                    .collect::<Vec<_>>()
            })
            .collect();
        if holders.is_empty() {
            return pools;
        }
        self.pending_pools = Some(pools);
        self.tactic_side = Some(Side::Active);
        for (who, path, text) in holders {
            let before = self.pending_pools.clone();
            self.run_card_effect(&who, &path, &who, Some(defender), None, &text);
            self.say_pool_change(&who, &path, before.as_ref(), 0);
        }
        self.tactic_side = None;
        self.pending_pools.take().unwrap_or_default()
    }

    /// A narrative line for an Automatic Skill that changed a Roll's pool
    /// before it is rolled (Pointman, Benediction of Freyja): which skill,
    /// and the dice and symbols it added.
    fn say_pool_change(&mut self, who: &str, path: &str, before: Option<&[Pool; 2]>, index: usize) {
        let (Some(before), Some(after)) = (before, self.pending_pools.as_ref()) else { return };
        let (b, a) = (&before[index], &after[index]);
        let mut added: Vec<String> = a.dice.clone();
        for d in &b.dice {
            if let Some(i) = added.iter().position(|x| x == d) {
                added.remove(i);
            }
        }
        let symbols = a.symbols.len().saturating_sub(b.symbols.len());
        if added.is_empty() && symbols == 0 {
            return;
        }
        let id = path.strip_prefix("automatic_skills[id=").and_then(|r| r.split(']').next()).unwrap_or(path);
        let name = self.card(who).automatic_skills.iter().find(|k| k.id == id).map(|k| k.name.clone());
        let article = |w: &str| if w.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
        let mut parts: Vec<String> = added.iter().map(|d| format!("{} {d} die", article(d))).collect();
        parts.extend(a.symbols[a.symbols.len() - symbols..].iter().map(|x| {
            let n = symbol_name(*x).replace('_', " ");
            format!("{} {n}", article(&n))
        }));
        self.emit(Event::Log {
            text: format!("{who}'s {}: {} added to the Roll", name.as_deref().unwrap_or(id), parts.join(", ")),
        });
    }

    /// The Tactics step of a Roll (`000 § Simple Rolls`, `§ Face to Face Roll`,
    /// step 1): "both players may play Tactics to modify the Roll". A player
    /// about to roll may play `before-roll` Tactics (and `before-attack-roll`
    /// ones when the Roll is an Attack's); a player whose opponent is about to
    /// roll may play `before-opponent-roll` Tactics. In a Face to Face Roll both
    /// players roll, so both windows are open to each. If both players want to
    /// play, the Underdog chooses who plays first (`000 § When Do Things Happen`).
    fn roll_tactics(&mut self, roller: &str, other: Option<&str>, roll: RollKind, pools: [Pool; 2]) -> [Pool; 2] {
        let Some(roller_owner) = self.unit(roller).map(|u| u.owner) else { return pools };
        let other_owner = 1 - roller_owner;
        let face_to_face = roll != RollKind::Simple;
        let windows = |p: PlayerId| -> Vec<model::Window> {
            let mut w = Vec::new();
            if p == roller_owner || face_to_face {
                w.push(model::Window::BeforeRoll);
            }
            if p == roller_owner && roll == RollKind::Attack {
                w.push(model::Window::BeforeAttackRoll);
            }
            if p == other_owner || face_to_face {
                w.push(model::Window::BeforeOpponentRoll);
            }
            w
        };
        let playable = |g: &Self, p: PlayerId| -> Vec<Id> {
            let mut out = Vec::new();
            for w in windows(p) {
                for t in g.playable(p, w, None) {
                    if !out.contains(&t) {
                        out.push(t);
                    }
                }
            }
            out
        };
        let mine = playable(self, roller_owner);
        let theirs = playable(self, other_owner);
        if mine.is_empty() && theirs.is_empty() {
            return pools;
        }
        // The other player's Character for their Tactics (ctx.self): the other
        // side of the Roll if it is theirs, else (a Simple Roll on an Ally) one
        // of their Characters in the HexaDome.
        let theirs_self: Id = other
            .filter(|o| self.unit(o).is_some_and(|u| u.owner == other_owner))
            .map(str::to_string)
            .or_else(|| {
                let team = &self.state.players[other_owner].team;
                team.iter().find(|c| self.space_of(c).is_some()).or(team.first()).cloned()
            })
            .unwrap_or_default();
        self.pending_pools = Some(pools);
        let mut order = [roller_owner, other_owner];
        if !mine.is_empty() && !theirs.is_empty() {
            let underdog = self.state.underdog;
            let options: Vec<Choice> =
                order.iter().map(|p| Choice::Text { text: format!("player {} first", p + 1) }).collect();
            if self.decide(underdog, Kind::Tactic, None, "Who plays Tactics first?", options.clone()) != options[0] {
                order = [other_owner, roller_owner];
            }
        }
        for p in order {
            let side = if p == roller_owner { Side::Active } else { Side::Opponent };
            let (me, them) = if p == roller_owner { (roller, other) } else { (theirs_self.as_str(), Some(roller)) };
            for _ in 0..8 {
                let mut playable = playable(self, p);
                playable.retain(|t| self.tactic_condition(t, me));
                if playable.is_empty() {
                    break;
                }
                let options = std::iter::once(Choice::Done)
                    .chain(playable.into_iter().map(|t| Choice::Play { tactic: t }))
                    .collect();
                let Choice::Play { tactic } =
                    self.decide(p, Kind::Tactic, Some(me), "Play a Tactic before the Roll?", options)
                else {
                    break;
                };
                self.tactic_side = Some(side);
                self.play_tactic(p, &tactic, me, them);
                self.tactic_side = None;
            }
        }
        self.pending_pools.take().unwrap_or_default()
    }

    fn move_one(&mut self, id: &str, to: Hex) {
        if self.space_of(id).is_none() {
            return;
        }
        // Disengage (`000 § Disengage`).
        let adjacent = self.adjacent_enemies(id);
        // A Minion forces a Disengage Roll only if it has Brawn; every adjacent
        // Enemy, Minions included, adds a Black die (`002 § Minion`; R11).
        let mut contenders: Vec<Id> =
            adjacent.iter().filter(|e| !self.is_minion(e) || !self.card(e).brawn.dice.is_empty()).cloned().collect();
        // "Until the end of this Activation, you do not make Disengage Rolls" (Barrel through).
        if !contenders.is_empty() && self.has_activation_effect(id, "no-disengage-rolls") {
            self.emit(Event::Log { text: format!("{id} makes no Disengage Roll (until the end of this Activation)") });
            contenders.clear();
        }
        if !contenders.is_empty() {
            let owner = self.unit(id).map(|u| u.owner).unwrap_or(0);
            let opponent = 1 - owner;
            let options = contenders.iter().map(|e| Choice::Pick { id: e.clone() }).collect();
            let Choice::Pick { id: contender } = self.decide(
                opponent,
                Kind::DisengageContender,
                Some(id),
                "Which Character contests the Disengage?",
                options,
            ) else {
                unreachable!()
            };
            let extra_black = (adjacent.len() - 1).min(3);
            let mut agility = self.card(id).agility.clone();
            self.next_roll_dice(id, &mut agility);
            let mut brawn = self.card(&contender).brawn.clone();
            brawn.dice.extend(std::iter::repeat_n("black".to_string(), extra_black));
            let pools = self.own_roll_skills(id, Side::Active, Some(&contender), [agility, brawn]);
            let pools = self.own_roll_skills(&contender, Side::Opponent, Some(id), pools);
            let [agility, brawn] = self.roll_tactics(id, Some(&contender), RollKind::Disengage, pools);
            let roll = self.face_to_face(id, &agility, &contender, &brawn, &[], false, &[]);
            if roll.active_successes == 0 {
                if let Some(u) = self.unit_mut(id) {
                    u.movement_points = 0;
                }
                self.emit(Event::DisengageFailed { character: id.to_string() });
                return;
            }
            self.emit(Event::Log { text: format!("{id} Disengages") });
        }
        // Immobilized during the Roll (a Special Space it was Displaced onto):
        // no Movement Point can be spent (`000 § Immobilized`).
        if self.has_state(id, "immobilized") {
            return;
        }
        // The Roll may have moved the Character (a Switch that Displaces it):
        // it moves from where it is now, and "the moving Character doesn't need
        // to declare the space where he wants to move to" (`000 § Disengage`),
        // so a destination no longer Adjacent and Free is chosen again.
        let Some(from) = self.space_of(id) else { return };
        let mut to = to;
        if !from.is_adjacent(to) || !self.is_free(to) {
            let options: Vec<Choice> = from
                .neighbours()
                .into_iter()
                .filter(|h| self.is_free(*h))
                .map(|h| Choice::MoveTo { space: h })
                .collect();
            if options.is_empty() {
                return;
            }
            let owner = self.unit(id).map(|u| u.owner).unwrap_or(0);
            let Choice::MoveTo { space } = self.decide(owner, Kind::Action, Some(id), "Move where?", options) else {
                return;
            };
            to = space;
        }
        let u = self.unit_mut(id).expect("unit");
        u.movement_points -= 1;
        u.movement_spent += 1;
        u.location = Location::Space(to);
        self.emit(Event::Moved { character: id.to_string(), from, to });
        self.entered(id, to);
    }

    fn perform(&mut self, id: &str, action_id: &str, target: Option<&str>, cost: u8) -> Result<()> {
        {
            let payer = self.acting_character(id).to_string();
            let u = self.unit_mut(&payer).ok_or("no active unit")?;
            u.action_points = u.action_points.saturating_sub(cost);
        }
        self.emit(Event::Action {
            character: id.to_string(),
            action: action_id.to_string(),
            target: target.map(str::to_string),
            cost,
        });
        if action_id == "move" {
            let speed = self.attribute(id, self.card(id).speed, |m| m.speed);
            let u = self.unit_mut(id).expect("unit");
            u.movement_points = u.movement_points.saturating_add(speed);
            let total = u.movement_points;
            self.emit(Event::MovementPoints { character: id.to_string(), gained: speed, total });
            return Ok(());
        }
        let card = self.card(id);
        let contender = contender();
        let action = card.actions.iter().find(|a| a.id == action_id).unwrap_or(&contender).clone();
        if action.movement_cost > 0 {
            let u = self.unit_mut(id).expect("unit");
            u.movement_points = u.movement_points.saturating_sub(action.movement_cost);
            u.movement_spent = u.movement_spent.saturating_add(action.movement_cost);
            let left = u.movement_points;
            self.emit(Event::Log {
                text: format!(
                    "{id} spends {} ({left} left)",
                    crate::rules::event::count(action.movement_cost as u32, "Movement Point")
                ),
            });
        }
        if action.movement_points > 0 {
            let u = self.unit_mut(id).expect("unit");
            u.movement_points = u.movement_points.saturating_add(action.movement_points);
        }
        let action_index = card.actions.iter().position(|a| a.id == action_id);
        // "When an Enemy declares an Attack" (Implacable).
        if action.attack {
            let owner = self.unit(id).map(|u| u.owner);
            self.skills_of_units(model::Window::AttackDeclared, |u| Some(u.owner) != owner, Some(id));
            // What that set off may have taken the Target, or the Attacker, out
            // of the HexaDome: "Characters in the Infirmary ... cannot be the
            // Target of any Effect" (`000 § Infirmary`), so the Attack ends (R14).
            let gone = |g: &Self, u: &str| !matches!(g.unit(u).map(|x| x.location), Some(Location::Space(_)));
            if gone(self, id) || target.is_some_and(|t| gone(self, t)) {
                self.emit(Event::Log { text: format!("{action_id} ends: it has no Target in the HexaDome any more") });
                return Ok(());
            }
        }
        // Line of Sight for the Defender's Damage is fixed at the Declaration (`000 § Attacks`).
        let defender_sees = target.is_some_and(|t| self.sight(t, id).has_line_of_sight());
        let mut successes = 0;
        let mut inflicted: Option<u8> = None;
        let mut attack_target: Option<String> = None;
        if let Some(pool) = &action.roll {
            let mut pool = pool.clone();
            self.next_roll_dice(id, &mut pool);
            // Focused: remove it to add a Yellow die, if the Roll has room for
            // one (`000 § Dice`: three of each colour but Red and Green).
            let yellow_limit = self.content.dice.get("yellow").map_or(3, |d| d.value.max_per_roll as usize);
            let room = pool.dice.iter().filter(|d| *d == "yellow").count() < yellow_limit;
            if room && self.has_state(id, "focused") && self.optional(id, "Remove Focused to add a Yellow die?") {
                self.remove_token(id, "focused");
                pool.dice.push("yellow".into());
            }
            if action.attack {
                let t = target.ok_or("an Attack needs a Target")?.to_string();
                let outer_attacker = self.attacker.replace(id.to_string());
                let mut defense = self.card(&t).defense.clone();
                let check = self.check_cover(id, &t, &action);
                if let Some(die) = check.attacker {
                    self.add_die_within_limit(id, &mut pool, &die);
                }
                if check.target {
                    self.add_die_within_limit(&t, &mut defense, "black");
                }
                let pools = self.own_roll_skills(id, Side::Active, Some(&t), [pool, defense]);
                let pools = self.own_roll_skills(&t, Side::Opponent, Some(id), pools);
                let [pool, defense] = self.before_roll_effects(id, Some(&t), &action, pools);
                let [pool, defense] = self.team_before_roll_skills(id, &t, [pool, defense]);
                let [pool, defense] = self.roll_tactics(id, Some(&t), RollKind::Attack, [pool, defense]);
                let before_switches: Vec<(String, String)> = action
                    .effects
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.timing == Some(model::Window::BeforeSwitches))
                    .map(|(i, e)| (format!("actions[id={}].effects[{i}]", action.id), e.text.clone()))
                    .collect();
                let r = self.face_to_face(id, &pool, &t, &defense, &action.switches, true, &before_switches);
                self.attacker = outer_attacker;
                successes = r.active_successes;
                let before = self.unit(&t).map_or(0, |u| u.damage);
                let hp = self.card(&t).hit_points;
                self.inflict(&t, r.active_successes.min(255) as u8, Some(id));
                inflicted = Some(match self.unit(&t).map(|u| u.location) {
                    Some(Location::Infirmary) => hp.saturating_sub(before),
                    _ => self.unit(&t).map_or(0, |u| u.damage).saturating_sub(before),
                });
                attack_target = Some(t.clone());
                let far = self.distance(id, &t) > 1;
                let dazzled_far =
                    far && (self.has_state(&t, "dazzled") || self.space_of(&t).is_some_and(|h| self.in_smoke(h)));
                // A Running Projectile only defends itself (an Obstacle with a Defense, R20).
                if defender_sees && !dazzled_far && !self.is_projectile(&t) {
                    self.inflict(id, r.opponent_successes.min(255) as u8, Some(&t));
                } else if r.opponent_successes > 0 {
                    // Say why the Defender's Successes do nothing (`000 § Attacks`, `§ Dazzled`).
                    let why = if self.is_projectile(&t) {
                        "is a Running Projectile, which only defends itself"
                    } else if !defender_sees {
                        "has no Line of Sight to the Attacker"
                    } else {
                        "is Dazzled or in Smoke, beyond Range 1"
                    };
                    self.emit(Event::Log { text: format!("{t} inflicts no Damage: it {why}") });
                }
            } else {
                let pools = self.own_roll_skills(id, Side::Active, target, [pool, Pool::default()]);
                let pools = self.before_roll_effects(id, target, &action, pools);
                let [pool, _] = self.roll_tactics(id, target, RollKind::Simple, pools);
                successes = self.simple_roll(id, &pool, target, &action.switches);
            }
        }
        // Effects: automatic always, optional with at least one Success (`000 § Actions`, step 4).
        let Some(index) = action_index else {
            self.after_attack(id, attack_target.as_deref(), inflicted);
            self.end_of_attack(id, action.attack);
            return Ok(());
        };
        for (i, effect) in action.effects.iter().enumerate() {
            if matches!(self.unit(id).map(|u| u.location), Some(Location::Infirmary)) {
                break;
            }
            if matches!(effect.timing, Some(model::Window::BeforeRoll | model::Window::BeforeSwitches))
                && action.roll.is_some()
            {
                continue; // ran during the Roll
            }
            if effect.optional && (action.roll.is_some() && successes == 0 || !self.optional(id, &effect.text)) {
                continue;
            }
            let path = format!("actions[id={}].effects[{i}]", action.id);
            let _ = index;
            self.run_card_effect(id, &path, id, target, Some(successes as i64), &effect.text);
        }
        self.after_attack(id, attack_target.as_deref(), inflicted);
        self.end_of_attack(id, action.attack);
        Ok(())
    }

    /// After an Attack: the attacker's `attack-resolved` Automatic Skills (with
    /// ctx.successes = the Damage it inflicted), then Hidden is removed
    /// "immediately after performing an Attack, after the end of the Action"
    /// (`002 § Hidden`).
    fn after_attack(&mut self, id: &str, target: Option<&str>, inflicted: Option<u8>) {
        if let Some(n) = inflicted {
            if matches!(self.unit(id).map(|u| u.location), Some(Location::Space(_))) {
                self.automatic_skills(id, model::Window::AttackResolved, target, Some(n as i64));
            }
        }
    }

    fn end_of_attack(&mut self, id: &str, attack: bool) {
        if attack && self.has_state(id, "hidden") {
            self.remove_token(id, "hidden");
        }
    }

    fn distance(&self, a: &str, b: &str) -> u32 {
        match (self.space_of(a), self.space_of(b)) {
            (Some(x), Some(y)) => x.distance(y),
            _ => u32::MAX,
        }
    }

    fn optional(&mut self, id: &str, prompt: &str) -> bool {
        let owner = self.unit(id).map(|u| u.owner).unwrap_or(0);
        self.decide(owner, Kind::OptionalEffect, Some(id), prompt, vec![Choice::Yes, Choice::No]) == Choice::Yes
    }

    fn roll_dice(&mut self, pool: &Pool) -> Vec<(Id, Vec<Symbol>)> {
        let mut out = Vec::new();
        for d in &pool.dice {
            let Some(die) = self.content.dice.get(d) else { continue };
            if let Some(face) = self.forced.pop_front() {
                let sorted = |f: &[Symbol]| {
                    let mut f = f.to_vec();
                    f.sort();
                    f
                };
                if !die.value.faces.iter().any(|f| sorted(f) == sorted(&face)) && self.fault.is_none() {
                    let show = |f: &[Symbol]| {
                        if f.is_empty() {
                            "blank".to_string()
                        } else {
                            f.iter().map(|x| symbol_name(*x)).collect::<Vec<_>>().join("+")
                        }
                    };
                    let faces: Vec<String> = die.value.faces.iter().map(|f| show(f)).collect();
                    self.fault = Some(format!(
                        "forced face #{} is {}, which the {d} die does not have (its faces: {})",
                        self.forced_used + 1,
                        show(&face),
                        faces.join(", ")
                    ));
                    // Nothing after an impossible face is a real game: stop here.
                    if self.halted.is_none() {
                        self.halted = Some(self.events.len());
                        self.state.over = true;
                    }
                }
                self.forced_used += 1;
                out.push((d.clone(), face));
                continue;
            }
            let face = self.state.rng.random_range(0..die.value.faces.len().max(1));
            out.push((d.clone(), die.value.faces.get(face).cloned().unwrap_or_default()));
        }
        out
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

    fn simple_roll(&mut self, id: &str, pool: &Pool, target: Option<&str>, switches: &[model::Switch]) -> u32 {
        let faces = self.roll_dice(pool);
        self.emit(Event::Rolled { character: id.to_string(), faces: faces.clone(), added: pool.symbols.clone() });
        let side = SideRoll::rolled(faces, &pool.symbols);
        // A Simple Roll as a Face to Face Roll with nobody opposite.
        let mut ftf = FaceToFace::new(side, SideRoll::rolled(vec![], &[]));
        self.after_roll_tactics(&mut ftf, id, target, false);
        if self.has_state(id, "stunned") {
            crate::rules::roll::apply_stunned(&mut ftf.active.tally);
        }
        self.switches_step(&mut ftf, Side::Active, id, target, switches);
        let r = ftf.results();
        self.switches_forbidden = [false; 2];
        self.pool_locked = [false; 2];
        self.emit(Event::RollResult {
            active: id.to_string(),
            active_successes: r.active_successes,
            opponent: None,
            opponent_successes: 0,
        });
        r.active_successes
    }

    /// The `after-roll` window: "After making a Roll", before the Critical
    /// Block step, a rolling player may play Tactics that change their own
    /// rolled Roll (Fortune favors the Badass). In a Face to Face Roll both
    /// players rolled; if both want to play, the Underdog chooses who plays
    /// first (`000 § When Do Things Happen`).
    fn after_roll_tactics(&mut self, ftf: &mut FaceToFace, active: &str, other: Option<&str>, both_rolled: bool) {
        let owner = |g: &Self, id: &str| g.unit(id).map(|u| u.owner);
        let Some(a) = owner(self, active) else { return };
        let mut sides = vec![(a, Side::Active, active.to_string(), other.map(str::to_string))];
        if let (true, Some(o)) = (both_rolled, other) {
            sides.push((1 - a, Side::Opponent, o.to_string(), Some(active.to_string())));
        }
        // The rollers' own `after-roll` Automatic Skills first, on their side.
        for (_, side, who, them) in sides.clone() {
            let has = self.card(&who).automatic_skills.iter().any(|k| k.timing == Some(model::Window::AfterRoll));
            if has {
                self.roll = Some(RollCtx {
                    roll: ftf.clone(),
                    side,
                    rollers: [who.clone(), them.clone().unwrap_or_default()],
                    displaced_target: false,
                });
                self.automatic_skills(&who, model::Window::AfterRoll, them.as_deref(), None);
                if let Some(rc) = self.roll.take() {
                    *ftf = rc.roll;
                }
            }
        }
        sides.retain(|(p, ..)| !self.playable(*p, model::Window::AfterRoll, None).is_empty());
        if sides.len() == 2 {
            let options: Vec<Choice> =
                sides.iter().map(|(p, ..)| Choice::Text { text: format!("player {} first", p + 1) }).collect();
            let first =
                self.decide(self.state.underdog, Kind::Tactic, None, "Who plays Tactics first?", options.clone());
            if first != options[0] {
                sides.swap(0, 1);
            }
        }
        for (p, side, who, them) in sides {
            for _ in 0..8 {
                let mut playable = self.playable(p, model::Window::AfterRoll, None);
                playable.retain(|t| self.tactic_condition(t, &who));
                if playable.is_empty() {
                    break;
                }
                let options = std::iter::once(Choice::Done)
                    .chain(playable.into_iter().map(|t| Choice::Play { tactic: t }))
                    .collect();
                let Choice::Play { tactic } =
                    self.decide(p, Kind::Tactic, Some(&who), "Play a Tactic after the Roll?", options)
                else {
                    break;
                };
                self.roll = Some(RollCtx {
                    roll: ftf.clone(),
                    side,
                    rollers: [who.clone(), them.clone().unwrap_or_default()],
                    displaced_target: false,
                });
                self.play_tactic(p, &tactic, &who, them.as_deref());
                if let Some(rc) = self.roll.take() {
                    *ftf = rc.roll;
                }
            }
        }
    }

    /// A Face to Face Roll between the active Character and an opponent.
    #[allow(clippy::too_many_arguments)] // the Roll's two sides and the Action's parts
    fn face_to_face(
        &mut self,
        active: &str,
        active_pool: &Pool,
        opponent: &str,
        opponent_pool: &Pool,
        action_switches: &[model::Switch],
        attack: bool,
        before_switches: &[(String, String)],
    ) -> crate::rules::roll::Results {
        let a_faces = self.roll_dice(active_pool);
        self.emit(Event::Rolled {
            character: active.to_string(),
            faces: a_faces.clone(),
            added: active_pool.symbols.clone(),
        });
        let o_faces = self.roll_dice(opponent_pool);
        self.emit(Event::Rolled {
            character: opponent.to_string(),
            faces: o_faces.clone(),
            added: opponent_pool.symbols.clone(),
        });
        let mut ftf = FaceToFace::new(
            SideRoll::rolled(a_faces, &active_pool.symbols),
            SideRoll::rolled(o_faces, &opponent_pool.symbols),
        );
        self.after_roll_tactics(&mut ftf, active, Some(opponent), true);
        // Critical Block step (`000 § Critical Block`).
        for (side, who) in [(Side::Active, active), (Side::Opponent, opponent)] {
            let targets = ftf.critical_block_targets(side);
            if targets.is_empty() {
                continue;
            }
            let owner = self.unit(who).map(|u| u.owner).unwrap_or(0);
            let mut options = vec![Choice::Done];
            for i in targets {
                let die = ftf.side(side.other()).dice[i].die.clone().unwrap_or_else(|| "added symbol".into());
                options.push(Choice::Nullify { index: i, die });
            }
            if let Choice::Nullify { index, die } =
                self.decide(owner, Kind::CriticalBlock, Some(who), "Use the Critical Block to Nullify a die?", options)
            {
                ftf.use_critical_block(side, index);
                self.emit(Event::CriticalBlock { character: who.to_string(), nullified: die });
            }
        }
        for (side, who) in [(Side::Active, active), (Side::Opponent, opponent)] {
            if self.has_state(who, "stunned") {
                crate::rules::roll::apply_stunned(&mut ftf.side_mut(side).tally);
            }
        }
        // The Action's `before-switches` Effects change the rolled Roll.
        for (path, text) in before_switches {
            self.roll = Some(RollCtx {
                roll: ftf.clone(),
                side: Side::Active,
                rollers: [active.to_string(), opponent.to_string()],
                displaced_target: false,
            });
            self.run_card_effect(active, path, active, Some(opponent), None, text);
            if let Some(rc) = self.roll.take() {
                ftf = rc.roll;
            }
        }
        // Switches: the active player chooses who goes first (`000 § Switches`).
        // The question only matters when both sides can pay for a Switch: no
        // Switch gives the other side symbols, so a side that cannot pay now never can.
        let active_owner = self.unit(active).map(|u| u.owner).unwrap_or(0);
        let can_pay =
            |g: &Self, side: Side, who: &str, extra: &[model::Switch]| {
                g.card(who).switches.iter().chain(extra).any(|s| {
                    (s.effect.lua.is_some() || s.effect.script.is_some()) && ftf.side(side).tally.can_pay(&s.cost)
                })
            };
        let both = can_pay(self, Side::Active, active, action_switches) && can_pay(self, Side::Opponent, opponent, &[]);
        let first_is_active = !both || {
            let order = vec![
                Choice::First { character: active.to_string() },
                Choice::First { character: opponent.to_string() },
            ];
            self.decide(active_owner, Kind::SwitchOrder, Some(active), "Who activates Switches first?", order)
                == Choice::First { character: active.to_string() }
        };
        let sides = if first_is_active { [Side::Active, Side::Opponent] } else { [Side::Opponent, Side::Active] };
        for side in sides {
            let (who, target, switches): (&str, &str, &[model::Switch]) = match side {
                Side::Active => (active, opponent, action_switches),
                Side::Opponent => (opponent, active, &[]),
            };
            // In a Disengage only the contesting Character may Switch, besides the
            // active one (`000 § Disengage`); here both sides may.
            self.switches_step(&mut ftf, side, who, Some(target), switches);
        }
        let _ = attack;
        let r = ftf.results();
        self.switches_forbidden = [false; 2];
        self.pool_locked = [false; 2];
        self.emit(Event::RollResult {
            active: active.to_string(),
            active_successes: r.active_successes,
            opponent: Some(opponent.to_string()),
            opponent_successes: r.opponent_successes,
        });
        r
    }

    /// One side's Switches: general Switches of the Character and those of the
    /// Action, repeatable while affordable (`000 § Switches`).
    fn switches_step(
        &mut self,
        ftf: &mut FaceToFace,
        side: Side,
        who: &str,
        target: Option<&str>,
        action_switches: &[model::Switch],
    ) {
        if self.switches_forbidden[side as usize] {
            self.emit(Event::Log { text: format!("{who} cannot activate Switches during this Roll") });
            return;
        }
        let card = self.card(who);
        let owner = self.unit(who).map(|u| u.owner).unwrap_or(0);
        let all: Vec<(String, model::Switch)> = card
            .switches
            .iter()
            .map(|s| (format!("switches[id={}].effect", s.id), s.clone()))
            .chain(action_switches.iter().map(|s| (String::new(), s.clone())))
            .filter(|(_, s)| s.effect.lua.is_some() || s.effect.script.is_some())
            .collect();
        // Automatic Skills used in the Switches step, offered like a Switch with
        // no cost while their condition holds (Dead Man's Hand).
        // A skill without a condition is offered once per Switches step.
        let mut skills: Vec<(String, String, bool)> = card
            .automatic_skills
            .iter()
            .filter(|k| k.timing == Some(model::Window::Switches) && !self.silenced(who, &k.id))
            .filter(|k| k.effect.lua.is_some() || k.effect.script.is_some())
            .map(|k| {
                let repeatable = k.condition.as_ref().is_some_and(|c| c.lua.is_some() || c.script.is_some());
                (k.id.clone(), k.effect.text.clone(), repeatable)
            })
            .collect();
        if all.is_empty() && skills.is_empty() {
            return;
        }
        for _ in 0..16 {
            let mut usable = Vec::new();
            for (k, _, _) in &skills {
                if self.condition_at(who, &format!("automatic_skills[id={k}].condition"), target) {
                    usable.push(Choice::Activate { switch: k.clone() });
                }
            }
            let options: Vec<Choice> = std::iter::once(Choice::Done)
                .chain(
                    all.iter()
                        .filter(|(_, s)| ftf.side(side).tally.can_pay(&s.cost))
                        .map(|(_, s)| Choice::Activate { switch: s.id.clone() }),
                )
                .chain(usable)
                .collect();
            let Choice::Activate { switch } =
                self.decide(owner, Kind::Switch, Some(who), "Activate a Switch?", options)
            else {
                return;
            };
            if let Some((k, text, repeatable)) = skills.iter().find(|(k, ..)| *k == switch).cloned() {
                if !repeatable {
                    skills.retain(|(x, ..)| *x != k);
                }
                self.emit(Event::Log { text: format!("{who} uses {k}") });
                self.roll = Some(RollCtx {
                    roll: ftf.clone(),
                    side,
                    rollers: [who.to_string(), target.unwrap_or_default().to_string()],
                    displaced_target: false,
                });
                self.run_card_effect(who, &format!("automatic_skills[id={k}].effect"), who, target, None, &text);
                if let Some(rc) = self.roll.take() {
                    *ftf = rc.roll;
                }
                continue;
            }
            let Some((path, s)) = all.iter().find(|(_, s)| s.id == switch).cloned() else { return };
            ftf.side_mut(side).tally.pay(&s.cost);
            self.emit(Event::Switch { character: who.to_string(), switch: s.id.clone(), cost: s.cost.clone() });
            let path = if path.is_empty() { self.action_switch_path(who, &s.id) } else { path };
            self.roll = Some(RollCtx {
                roll: ftf.clone(),
                side,
                rollers: [who.to_string(), target.unwrap_or_default().to_string()],
                displaced_target: false,
            });
            self.run_card_effect(who, &path, who, target, None, &s.effect.text);
            if let Some(rc) = self.roll.take() {
                *ftf = rc.roll;
            }
        }
    }

    fn action_switch_path(&self, who: &str, switch: &str) -> String {
        for a in &self.card(who).actions {
            if a.switches.iter().any(|s| s.id == switch) {
                return format!("actions[id={}].switches[id={switch}].effect", a.id);
            }
        }
        format!("switches[id={switch}].effect")
    }

    /// Add a die to a pool unless the Roll holds its colour's limit already
    /// (`000 § Dice`), saying so when it does not fit.
    fn add_die_within_limit(&mut self, who: &str, pool: &mut Pool, die: &str) {
        let limit = self.content.dice.get(die).map_or(0, |d| d.value.max_per_roll as usize);
        if pool.dice.iter().filter(|d| *d == die).count() < limit {
            pool.dice.push(die.to_string());
        } else {
            self.emit(Event::Log {
                text: format!("{who}'s {die} die is not added: a Roll holds at most {limit} (000 § Dice)"),
            });
        }
    }

    /// The dice promised to `id`'s next Roll (`game:add_die_to_next_roll`) join
    /// `pool`, within the per-Roll limits (`000 § Dice`), and are used up.
    fn next_roll_dice(&mut self, id: &str, pool: &mut Pool) {
        let Some(dice) = self.unit_mut(id).map(|u| std::mem::take(&mut u.next_roll)) else { return };
        for die in dice {
            let limit = self.content.dice.get(&die).map_or(0, |d| d.value.max_per_roll as usize);
            if pool.dice.iter().filter(|d| **d == die).count() < limit {
                self.emit(Event::Log { text: format!("{id} adds the {die} die promised to its next Roll") });
                pool.dice.push(die);
            }
        }
    }

    /// Cover for an Attack of `attacker` on `target` (`000 § Cover`): each
    /// side with Cover adds a Black die. An Attack with No-Line-of-Sight Range
    /// ignores the Cover rules (`000 § Range`); the Attacker's Automatic Skills
    /// at the `cover` window may ignore the Target's Cover or change its own
    /// Cover die (Marksmanship, Veteran Sniper: `000` Turn 4).
    fn check_cover(&mut self, attacker: &str, target: &str, action: &model::Action) -> CoverCheck {
        if action.range.as_ref().is_some_and(|r| !r.line_of_sight) {
            return CoverCheck { attacker: None, target: false };
        }
        let check = CoverCheck {
            attacker: self.cover(attacker, target).then(|| "black".to_string()),
            target: self.cover(target, attacker),
        };
        self.cover_check = Some(check);
        self.automatic_skills(attacker, model::Window::Cover, Some(target), None);
        let check = self.cover_check.take().expect("cover check");
        if let Some(die) = &check.attacker
            && die != "black"
        {
            self.emit(Event::Log {
                text: format!(
                    "{attacker} adds {} {die} die for Cover instead of a black die",
                    if die.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
                ),
            });
        }
        check
    }

    /// Whether a restriction of `character`'s Automatic Skills forbids what the
    /// running Effect is about to do to it; if so, says so in the narrative.
    /// Restrictions take precedence over every other rule and Effect (`000 §
    /// Solving Rules Contradictions`, 1). `MovedByEnemyEffects` applies when the
    /// running Effect belongs to an enemy of `character`.
    fn prevented(&mut self, character: &str, what: model::Prevention) -> bool {
        let Some(owner) = self.unit(character).map(|u| u.owner) else { return false };
        let enemy_effect = match what {
            model::Prevention::MovedByEnemyEffects => {
                self.effect_source.as_deref().and_then(|s| self.unit(s)).is_some_and(|source| source.owner != owner)
            }
        };
        if !enemy_effect {
            return false;
        }
        let skill = self
            .card(character)
            .automatic_skills
            .iter()
            .find(|s| s.effect.prevents.contains(&what) && !self.silenced(character, &s.id))
            .map(|s| s.name.clone());
        match skill {
            Some(name) => {
                self.emit(Event::Log { text: format!("{character} cannot be moved by an enemy Effect ({name})") });
                true
            }
            None => false,
        }
    }

    /// Run the Automatic Skills of `id` whose `timing` is `window` (a skill with
    /// Lua and no timing acts at the start of its Character's Activation).
    fn automatic_skills(&mut self, id: &str, window: model::Window, target: Option<&str>, successes: Option<i64>) {
        let skills: Vec<(String, String, String)> = self
            .card(id)
            .automatic_skills
            .iter()
            .filter(|s| s.timing.unwrap_or(model::Window::ActivationStart) == window)
            .filter(|s| (s.effect.lua.is_some() || s.effect.script.is_some()) && !self.silenced(id, &s.id))
            .map(|s| (format!("automatic_skills[id={}].effect", s.id), s.effect.text.clone(), s.name.clone()))
            .collect();
        // At moments where what happens would otherwise come out of nowhere
        // (an Enemy's Attack, an Ally's step, Damage), the narrative names the
        // skill when it did something.
        let named = matches!(
            window,
            model::Window::AttackDeclared
                | model::Window::AllyActionsStepStart
                | model::Window::DamageSuffered
                | model::Window::SentToInfirmary
                | model::Window::AfterRoll
                | model::Window::ActionsStepEnd
                | model::Window::StatesStep
                | model::Window::PlanningPhase
                | model::Window::ObjectivesPhase
                | model::Window::RecoveryPhase
        );
        for (path, text, name) in skills {
            let before = self.events.len();
            self.run_card_effect(id, &path, id, target, successes, &text);
            if named && self.events.len() > before {
                self.events.insert(before, Event::Log { text: format!("{id}'s {name}:") });
            }
        }
    }

    /// Run an effect of a Character's or Minion's card (`path` within the card).
    fn run_card_effect(
        &mut self,
        who: &str,
        path: &str,
        self_id: &str,
        target: Option<&str>,
        successes: Option<i64>,
        text: &str,
    ) {
        let (card, path) = self.effect_home(who, path);
        self.run_effect(&card, &path, self_id, target, successes, text);
    }

    /// The Automatic Skills of `window` of every unit `whose` accepts that is
    /// in the HexaDome, in unit order, with ctx.target = `target`.
    ///
    /// When several units have such skills, they happen in the same step and
    /// "the Underdog decides the order" (`000 § When Do Things Happen`): the
    /// Underdog picks which resolves next.
    fn skills_of_units(&mut self, window: model::Window, whose: impl Fn(&Unit) -> bool, target: Option<&str>) {
        let mut holders: Vec<Id> = self
            .state
            .units
            .iter()
            .filter(|u| whose(u) && matches!(u.location, Location::Space(_)))
            .filter(|u| {
                self.card(&u.id).automatic_skills.iter().any(|k| {
                    k.timing == Some(window)
                        && (k.effect.lua.is_some() || k.effect.script.is_some())
                        && !self.silenced(&u.id, &k.id)
                })
            })
            .map(|u| u.id.clone())
            .collect();
        while !holders.is_empty() {
            let next = if holders.len() == 1 {
                holders.remove(0)
            } else {
                let options = holders.iter().map(|h| Choice::Pick { id: h.clone() }).collect();
                let underdog = self.state.underdog;
                let Choice::Pick { id } = self.decide(
                    underdog,
                    Kind::SimultaneousEffects,
                    None,
                    "Simultaneous effects: which resolves first?",
                    options,
                ) else {
                    break;
                };
                holders.retain(|h| *h != id);
                self.emit(Event::Log {
                    text: format!("the Underdog, player {}, has {id}'s effect resolve first", underdog + 1),
                });
                id
            };
            if matches!(self.unit(&next).map(|u| u.location), Some(Location::Space(_))) {
                self.automatic_skills(&next, window, target, None);
            }
        }
    }

    /// A moment of the rules' sequence (`000 § When Do Things Happen`): the
    /// Automatic Skills of that timing run (of `character`, or of every unit in
    /// the HexaDome for a phase), then both players may play Tactics of that
    /// timing; if both want to, the Underdog chooses who plays first. A
    /// Tactic's ctx.self is `character`, or for a phase the player's first
    /// Character in the HexaDome.
    fn open_window(&mut self, window: model::Window, character: Option<&str>) {
        match character {
            Some(c) => self.automatic_skills(c, window, None, None),
            None => self.skills_of_units(window, |_| true, None),
        }
        if self.state.over {
            return;
        }
        let for_player = |g: &Self, p: PlayerId| -> Option<Id> {
            if let Some(c) = character {
                return Some(c.to_string());
            }
            let team = &g.state.players[p].team;
            team.iter().find(|c| g.space_of(c).is_some()).or(team.first()).cloned()
        };
        let mut order: Vec<(PlayerId, Id)> = (0..2)
            .filter_map(|p| for_player(self, p).map(|c| (p, c)))
            .filter(|(p, c)| !self.playable(*p, window, Some(c)).is_empty())
            .collect();
        if order.len() == 2 {
            let options: Vec<Choice> =
                order.iter().map(|(p, _)| Choice::Text { text: format!("player {} first", p + 1) }).collect();
            let first =
                self.decide(self.state.underdog, Kind::Tactic, None, "Who plays Tactics first?", options.clone());
            if first != options[0] {
                order.swap(0, 1);
            }
        }
        for (p, me) in order {
            for _ in 0..8 {
                let mut playable = self.playable(p, window, Some(&me));
                playable.retain(|t| self.tactic_condition(t, &me));
                if playable.is_empty() || self.state.over {
                    break;
                }
                let options = std::iter::once(Choice::Done)
                    .chain(playable.into_iter().map(|t| Choice::Play { tactic: t }))
                    .collect();
                let Choice::Play { tactic } = self.decide(p, Kind::Tactic, Some(&me), "Play a Tactic now?", options)
                else {
                    break;
                };
                self.play_tactic(p, &tactic, &me, None);
            }
        }
    }

    /// A unit's `own-roll` Automatic Skills change its own pool (`side`) of the
    /// coming Roll (Benediction of Freyja), with ctx.target = the other side.
    fn own_roll_skills(&mut self, who: &str, side: Side, other: Option<&str>, pools: [Pool; 2]) -> [Pool; 2] {
        let has = self.card(who).automatic_skills.iter().any(|s| s.timing == Some(model::Window::OwnRoll));
        if !has {
            return pools;
        }
        let outer = (self.pending_pools.replace(pools), self.tactic_side.replace(side));
        let skills: Vec<Id> = self
            .card(who)
            .automatic_skills
            .iter()
            .filter(|k| k.timing == Some(model::Window::OwnRoll))
            .filter(|k| k.effect.lua.is_some() || k.effect.script.is_some())
            .map(|k| k.id.clone())
            .collect();
        for k in skills {
            let before = self.pending_pools.clone();
            let path = format!("automatic_skills[id={k}].effect");
            let (text, silenced) = (
                self.card(who)
                    .automatic_skills
                    .iter()
                    .find(|x| x.id == k)
                    .map(|x| x.effect.text.clone())
                    .unwrap_or_default(),
                self.silenced(who, &k),
            );
            if silenced {
                continue;
            }
            self.run_card_effect(who, &path, who, other, None, &text);
            self.say_pool_change(who, &path, before.as_ref(), side as usize);
        }
        let pools = self.pending_pools.take().unwrap_or_default();
        (self.pending_pools, self.tactic_side) = outer;
        pools
    }

    /// What the effect that just ran set off, in order (`AfterEffect`).
    fn resolve_after_effect(&mut self) {
        while let Some(next) = self.after_effect.pop_front() {
            match next {
                AfterEffect::Damage(id) => self.damage_received(&id),
                AfterEffect::Entered(id, space) => {
                    if self.space_of(&id) == Some(space) {
                        self.entered(&id, space);
                    }
                }
            }
        }
    }

    /// Perform the Action an effect granted (`game:grant_action`), if any.
    fn granted_action(&mut self) {
        let Some((who, max_cost, player)) = self.pending_grant.take() else { return };
        let mut options = vec![Choice::Done];
        for (action, target, cost) in self.action_options(&who, max_cost) {
            if self.condition_holds(&who, &action, target.as_deref()) {
                options.push(Choice::Perform { action, target, cost });
            }
        }
        if let Choice::Perform { action, target, .. } =
            self.decide(player, Kind::Action, Some(&who), "Which Action, for no Action Points?", options)
        {
            if let Err(e) = self.perform(&who, &action, target.as_deref(), 0) {
                self.emit(Event::Log { text: format!("{who} cannot perform {action}: {e}") });
            }
        }
    }

    /// Run one effect's Lua, if it has any; a failure is undone and recorded.
    fn run_effect(
        &mut self,
        card: &str,
        path: &str,
        self_id: &str,
        target: Option<&str>,
        successes: Option<i64>,
        text: &str,
    ) {
        let Some(script) = self.runtime.scripts().find(card, path) else {
            self.emit(Event::Log { text: format!("(not scripted: {text})") });
            return;
        };
        let ctx = Ctx { self_id: Some(self_id.to_string()), target: target.map(str::to_string), successes };
        let rt = self.runtime;
        let outer = self.effect_source.replace(self_id.to_string());
        let result = rt.call(script, self, &ctx);
        self.effect_source = outer;
        if result.is_ok() {
            if !self.in_effect() {
                // A chain of effects setting off effects is stopped well before
                // it could exhaust the stack.
                if self.chain_depth >= 32 {
                    self.after_effect.clear();
                    self.effect_failures += 1;
                    self.emit(Event::EffectFailed {
                        card: card.to_string(),
                        effect: path.to_string(),
                        message: "effects set off more than 32 further effects in a row: the chain is stopped".into(),
                        file: String::new(),
                        line: None,
                    });
                } else {
                    self.chain_depth += 1;
                    self.resolve_after_effect();
                    self.chain_depth -= 1;
                }
            }
            self.granted_action();
        } else {
            self.pending_grant = None;
            if !self.in_effect() {
                self.after_effect.clear();
            }
        }
        if let Err(e) = result {
            self.effect_failures += 1;
            self.emit(Event::EffectFailed {
                card: card.to_string(),
                effect: path.to_string(),
                message: e.message.clone(),
                file: e.file.display().to_string(),
                line: e.line,
            });
        }
        let _: ScriptId = script;
    }

    // -- Damage, States ------------------------------------------------------

    /// Inflict Damage; at Hit Points the Character goes to the Infirmary at once
    /// and excess Damage is ignored (`000 § Damage`, `§ Infirmary`).
    fn inflict(&mut self, id: &str, amount: u8, _source: Option<&str>) {
        if amount == 0 {
            return;
        }
        let Some(u) = self.unit(id) else { return };
        if !matches!(u.location, Location::Space(_)) {
            return;
        }
        let hp = self.card(id).hit_points;
        let u = self.unit_mut(id).expect("unit");
        let before = u.damage;
        u.damage = (u.damage + amount).min(hp);
        let total = u.damage;
        let minion = u.minion.is_some();
        let projectile = u.projectile.is_some();
        self.emit(Event::Damage { character: id.to_string(), amount: total - before, total });
        if projectile {
            // No Frag for destroying one (`001 § Running Projectiles`).
            if total >= hp {
                self.remove_projectile(id, "destroyed");
            }
            return;
        }
        if minion {
            // "removed from the HexaDome when they have suffered as much Damage as
            // their Hit Points" (`002 § Minion`): no Infirmary, no Frag.
            if total >= hp {
                self.remove_minion(id, "damage");
            }
            return;
        }
        if self.in_effect() {
            self.after_effect.push_back(AfterEffect::Damage(id.to_string()));
            return;
        }
        self.damage_received(id);
    }

    /// Whether an effect's Lua is running now.
    fn in_effect(&self) -> bool {
        !self.snapshots.is_empty()
    }

    /// After Damage: the Tactics played when Damage is received (before the
    /// Infirmary), or when it is enough to go there, then the Infirmary at Hit
    /// Points (`000 § Damage`, `§ Infirmary`).
    fn damage_received(&mut self, id: &str) {
        let Some(u) = self.unit(id) else { return };
        if !matches!(u.location, Location::Space(_)) {
            return;
        }
        let (total, owner) = (u.damage, u.owner);
        let hp = self.card(id).hit_points;
        // Tactics played when Damage is received (before the Infirmary), or when
        // it is enough to go there (`000 § Tactics`: the card's timing); the
        // Character's own Automatic Skills of those moments first.
        let mut windows = vec![model::Window::DamageSuffered];
        if total >= hp {
            windows.push(model::Window::SentToInfirmary);
        }
        for window in windows {
            self.automatic_skills(id, window, None, None);
            if !matches!(self.unit(id).map(|u| u.location), Some(Location::Space(_))) {
                return;
            }
            let mut playable = self.playable_for(owner, window, id);
            playable.retain(|t| self.tactic_condition(t, id));
            if playable.is_empty() {
                continue;
            }
            let options =
                std::iter::once(Choice::Done).chain(playable.into_iter().map(|t| Choice::Play { tactic: t })).collect();
            if let Choice::Play { tactic } = self.decide(owner, Kind::Tactic, Some(id), "Play a Tactic now?", options) {
                self.play_tactic(owner, &tactic, id, None);
            }
        }
        let total = self.unit(id).map_or(0, |u| u.damage);
        if total >= hp {
            self.send_to_infirmary(id);
        }
    }

    fn send_to_infirmary(&mut self, id: &str) {
        let owner = {
            let u = self.unit_mut(id).expect("unit");
            u.location = Location::Infirmary;
            u.damage = 0;
            u.tokens.clear();
            u.owner
        };
        self.emit(Event::Infirmary { character: id.to_string() });
        // "If the Controller is placed in the Infirmary, all their Minions must be
        // removed from the HexaDome immediately" (`002 § Controller`).
        for m in self.minions_of(id) {
            self.remove_minion(&m, "controller");
        }
        // Taunted tokens it provoked go (`000 § Taunted`).
        let mut removed = Vec::new();
        for u in self.state.units.iter_mut() {
            let before = u.tokens.len();
            u.tokens.retain(|t| !(t.state == "taunted" && t.source.as_deref() == Some(id)));
            if u.tokens.len() != before {
                removed.push(u.id.clone());
            }
        }
        for r in removed {
            self.emit(Event::StateRemoved { character: r, state: "taunted".into(), left: 0 });
        }
        let opponent = 1 - owner;
        self.state.players[opponent].frags += 1;
        let total = self.state.players[opponent].frags;
        self.emit(Event::Frag { player: opponent, total });
        self.draw(opponent, 1);
    }

    /// A Minion leaves the HexaDome: its Damage and State tokens go, and it is
    /// placed to the side, ready to be deployed again (`002 § Minion`).
    fn remove_minion(&mut self, id: &str, why: &str) {
        let Some(u) = self.unit_mut(id) else { return };
        if u.minion.is_none() || !matches!(u.location, Location::Space(_)) {
            return;
        }
        u.location = Location::Aside;
        u.damage = 0;
        u.tokens.clear();
        self.emit(Event::MinionRemoved { minion: id.to_string(), why: why.to_string() });
    }

    /// A Controller deploys one of its Minions of card `card` on a Free space
    /// not Adjacent to any Allied Minion, if one is to the side (`002 § Controller`).
    fn deploy_minion(&mut self, controller: &str, card: &str, space: Hex) -> Result<Id> {
        let owner = self.unit(controller).map(|u| u.owner).ok_or_else(|| format!("no Character `{controller}`"))?;
        if self.is_minion(controller) {
            return Err(format!("`{controller}` is a Minion: only Controllers deploy Minions"));
        }
        let cards = &self.content.characters[controller].value.minions;
        let Some(m) = cards.iter().find(|m| m.id == card) else {
            let names: Vec<&str> = cards.iter().map(|m| m.id.as_str()).collect();
            return Err(if names.is_empty() {
                format!("`{controller}` has no Minion cards")
            } else {
                format!("`{controller}` has no Minion `{card}` (its Minions: {})", names.join(", "))
            });
        };
        let mine = |u: &Unit| u.minion.as_ref().is_some_and(|x| x.controller == controller && x.card == card);
        let Some(id) = self.state.units.iter().find(|u| mine(u) && u.location == Location::Aside).map(|u| u.id.clone())
        else {
            return Err(format!("all {} of `{controller}`'s `{card}` Minions are already deployed", m.count));
        };
        if !self.is_free(space) {
            return Err(format!("[{}, {}] is not a Free space", space.q, space.r));
        }
        let allied_next = self.state.units.iter().any(|u| {
            u.owner == owner && u.minion.is_some() && matches!(u.location, Location::Space(h) if h.is_adjacent(space))
        });
        if allied_next {
            return Err(format!("[{}, {}] is Adjacent to an Allied Minion", space.q, space.r));
        }
        self.unit_mut(&id).expect("minion").location = Location::Space(space);
        self.emit(Event::MinionDeployed { controller: controller.to_string(), minion: id.clone(), space });
        Ok(id)
    }

    fn impose(&mut self, id: &str, state: &str, source: Option<&str>) -> Result<()> {
        let st = &self.content.states.get(state).ok_or_else(|| format!("no State `{state}`"))?.value;
        let stacking = st.stacking;
        let red_damage = st.red_side.damage;
        let u = self.unit_mut(id).ok_or_else(|| format!("no Character `{id}` in the game"))?;
        if !matches!(u.location, Location::Space(_) | Location::Bench) {
            return Ok(());
        }
        if u.projectile.is_some() {
            // "Running Projectiles cannot receive nor be affected by States."
            self.emit(Event::Log { text: format!("{id} cannot receive States") });
            return Ok(());
        }
        if !stacking {
            // Re-imposed: the old token goes, a new one is placed red side up (`000 § States`).
            u.tokens.retain(|t| t.state != state);
        }
        u.tokens.push(Token {
            state: state.to_string(),
            side: TokenSide::Red,
            source: source.map(str::to_string),
            choice: None,
        });
        self.emit(Event::StateImposed { character: id.to_string(), state: state.to_string() });
        if state == "silenced" {
            self.choose_silenced(id, source);
        }
        if red_damage > 0 {
            self.inflict(id, red_damage, None);
        }
        Ok(())
    }

    /// Silenced: the imposing player chooses one Action (not Move, not an
    /// Attack) or Automatic Skill of the Target, which it cannot perform or apply
    /// while Silenced (`002 § Silenced`).
    fn choose_silenced(&mut self, id: &str, source: Option<&str>) {
        let card = self.card(id);
        let options: Vec<Choice> = card
            .actions
            .iter()
            .filter(|a| !a.attack)
            .map(|a| Choice::Pick { id: a.id.clone() })
            .chain(card.automatic_skills.iter().map(|s| Choice::Pick { id: s.id.clone() }))
            .collect();
        if options.is_empty() {
            return;
        }
        let imposer =
            source.and_then(|s| self.unit(s)).or_else(|| self.state.active.as_deref().and_then(|a| self.unit(a)));
        let player = imposer.map_or(0, |u| u.owner);
        if let Choice::Pick { id: chosen } =
            self.decide(player, Kind::Choose, Some(id), "Silence which Action or Automatic Skill?", options)
        {
            if let Some(t) = self.unit_mut(id).and_then(|u| u.tokens.iter_mut().rev().find(|t| t.state == "silenced")) {
                t.choice = Some(chosen.clone());
            }
            self.emit(Event::Log { text: format!("{id}'s {chosen} is Silenced") });
        }
    }

    /// Whether an Action or Automatic Skill of a Character is Silenced.
    fn silenced(&self, id: &str, what: &str) -> bool {
        self.unit(id)
            .is_some_and(|u| u.tokens.iter().any(|t| t.state == "silenced" && t.choice.as_deref() == Some(what)))
    }

    fn remove_token(&mut self, id: &str, state: &str) -> bool {
        let Some(u) = self.unit_mut(id) else { return false };
        let Some(i) = u.tokens.iter().position(|t| t.state == state) else { return false };
        u.tokens.remove(i);
        let left = u.tokens.iter().filter(|t| t.state == state).count().min(255) as u8;
        self.emit(Event::StateRemoved { character: id.to_string(), state: state.to_string(), left });
        true
    }

    /// States Step: remove blue tokens, flip red ones; a revealed blue side acts
    /// (`000 § States Step`; Poisoned `002 § Poisoned`; Burning `004 § Burning`).
    fn states_step(&mut self, id: &str) {
        let Some(u) = self.unit(id) else { return };
        let blue: Vec<Id> = u.tokens.iter().filter(|t| t.side == TokenSide::Blue).map(|t| t.state.clone()).collect();
        for s in blue {
            self.remove_token(id, &s);
        }
        let red: Vec<Id> =
            self.unit(id).map(|u| u.tokens.iter().map(|t| t.state.clone()).collect()).unwrap_or_default();
        for s in red {
            if let Some(u) = self.unit_mut(id) {
                if let Some(t) = u.tokens.iter_mut().find(|t| t.state == s && t.side == TokenSide::Red) {
                    t.side = TokenSide::Blue;
                }
            }
            self.emit(Event::StateFlipped { character: id.to_string(), state: s.clone() });
            let side = self.content.states.get(&s).map(|st| st.value.blue_side.clone()).unwrap_or_default();
            if side.damage > 0 {
                self.inflict(id, side.damage, None);
            }
            if side.remove {
                self.remove_token(id, &s);
            }
            // What the revealed blue side does, in Lua (Burning's die: `004 § Burning`).
            if side.effect.as_ref().is_some_and(|e| e.lua.is_some() || e.script.is_some())
                && matches!(self.unit(id).map(|u| u.location), Some(Location::Space(_)))
            {
                let text = side.effect.as_ref().map(|e| e.text.clone()).unwrap_or_default();
                self.run_effect(&format!("state:{s}"), "blue_side.effect", id, None, None, &text);
            }
            if self.unit(id).is_some_and(|u| u.location == Location::Infirmary) {
                return;
            }
        }
    }

    // -- Objectives and Recovery ----------------------------------------------

    /// How many of `p`'s Characters are in a zone (Minions are not Characters,
    /// `002 § Minion`).
    fn in_zone(&self, zone: &str, p: PlayerId) -> usize {
        let spaces = self.zone_spaces(zone);
        self.state
            .units
            .iter()
            .filter(|u| {
                u.owner == p
                    && u.minion.is_none()
                    && u.projectile.is_none()
                    && matches!(u.location, Location::Space(h) if spaces.contains(&h))
            })
            .count()
    }

    fn objectives_phase(&mut self, rounds: u8) {
        self.open_window(model::Window::ObjectivesPhase, None);
        let scenario = &self.content.scenarios[&self.state.scenario].value;
        let zone = self.state.scoring_zone.clone();
        let (a, b) = (self.in_zone(&zone, 0), self.in_zone(&zone, 1));
        let vp_of = |id: &str| scenario.rules.iter().find(|r| r.id == id).and_then(|r| r.vp).unwrap_or(0);
        let mut scored = [0u8; 2];
        // Assault's three objectives (`000 § Phase 3: Objectives`).
        if a > 0 && b == 0 {
            scored[0] = vp_of("only-player-in-scoring-zone");
        } else if b > 0 && a == 0 {
            scored[1] = vp_of("only-player-in-scoring-zone");
        } else if a > 0 && b > 0 {
            if a > b {
                scored[0] = vp_of("more-characters-in-scoring-zone");
            } else if b > a {
                scored[1] = vp_of("more-characters-in-scoring-zone");
            } else {
                scored = [vp_of("same-characters-in-scoring-zone"); 2];
            }
        }
        let objective = |p: usize| {
            if (a > 0) != (b > 0) {
                "only-player-in-scoring-zone"
            } else if a != b && scored[p] > 0 {
                "more-characters-in-scoring-zone"
            } else {
                "same-characters-in-scoring-zone"
            }
        };
        for p in 0..2 {
            if scored[p] > 0 {
                self.state.players[p].victory_points += scored[p] as u32;
                let total = self.state.players[p].victory_points;
                self.emit(Event::VictoryPoints { player: p, gained: scored[p], total, objective: objective(p).into() });
            }
        }
        self.scored_this_round = scored;
        // End of game: 8 VP or the last Round; VP, then Frags (`000 § Phase 3`).
        let vp = [self.state.players[0].victory_points, self.state.players[1].victory_points];
        let target = scenario.vp_to_win.map(u32::from).unwrap_or(u32::MAX);
        if vp[0] >= target || vp[1] >= target || self.state.round >= rounds {
            let frags = [self.state.players[0].frags, self.state.players[1].frags];
            let winner = match vp[0].cmp(&vp[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal if scenario.frags_break_ties => match frags[0].cmp(&frags[1]) {
                    std::cmp::Ordering::Greater => Some(0),
                    std::cmp::Ordering::Less => Some(1),
                    std::cmp::Ordering::Equal => None,
                },
                std::cmp::Ordering::Equal => None,
            };
            self.state.over = true;
            let rounds = self.state.round;
            self.emit(Event::GameEnded { winner, victory_points: vp, frags, rounds });
            return;
        }
        // Underdog: fewest VP; on a tie it changes hands (`000 § Objectives Phase`).
        let new = match vp[0].cmp(&vp[1]) {
            std::cmp::Ordering::Less => 0,
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Equal => 1 - self.state.underdog,
        };
        let reason =
            if vp[0] == vp[1] { "tied on Victory Points: the token changes hands" } else { "fewest Victory Points" };
        self.state.underdog = new;
        self.emit(Event::Underdog { player: new, reason: reason.into() });
        // Assault's `move-scoring-zone` rule: if anyone scored, the Underdog
        // picks an empty Deployment Zone as the new Scoring Zone
        // (REFERENCE-DATA.md § HexaDome; `000 § Phase 3`). Without it the
        // Scoring Zone stays.
        let moves = scenario.rules.iter().any(|r| r.id == "move-scoring-zone");
        if moves && scored.iter().any(|s| *s > 0) {
            let empty: Vec<Id> = self
                .board
                .zones
                .iter()
                .filter(|(_, (kind, _))| *kind == model::ZoneKind::Deployment)
                .map(|(id, _)| id.clone())
                .filter(|z| self.in_zone(z, 0) + self.in_zone(z, 1) == 0)
                .collect();
            if !empty.is_empty() {
                let options = empty.into_iter().map(|z| Choice::Pick { id: z }).collect();
                if let Choice::Pick { id } = self.decide(
                    new,
                    Kind::ScoringZone,
                    None,
                    "Which Deployment Zone becomes the Scoring Zone?",
                    options,
                ) {
                    self.state.scoring_zone = id.clone();
                    self.emit(Event::ScoringZone { zone: id });
                }
            }
        }
    }

    fn recovery_phase(&mut self) {
        self.open_window(model::Window::RecoveryPhase, None);
        // Nanotherapy: Infirmary to Bench with -2 Energy (`000 § Recovery Phase`).
        let infirmary: Vec<Id> =
            self.state.units.iter().filter(|u| u.location == Location::Infirmary).map(|u| u.id.clone()).collect();
        for id in infirmary {
            self.unit_mut(&id).expect("unit").location = Location::Bench;
            self.emit(Event::Benched { character: id.clone() });
            if self.content.states.contains_key("minus-2-energy") {
                let _ = self.impose(&id, "minus-2-energy", None);
            }
        }
        // Draw one, plus one for scoring this Round.
        for p in 0..2 {
            let n = 1 + u8::from(self.scored_this_round[p] > 0);
            self.draw(p, n);
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

impl Host for Game<'_> {
    fn call(&mut self, f: &'static ApiFn, args: &[ApiValue]) -> std::result::Result<ApiValue, String> {
        let s = |i: usize| match args.get(i) {
            Some(ApiValue::Str(s)) => Ok(s.as_str()),
            _ => Err(format!("{}: argument {} is missing", f.name, i + 1)),
        };
        let n = |i: usize, default: i64| match args.get(i) {
            Some(ApiValue::Int(n)) => *n,
            _ => default,
        };
        let character = |g: &Self, i: usize| -> std::result::Result<String, String> {
            let id = s(i)?;
            if g.unit(id).is_none() {
                // A Barrier Target (`barrier@q,r`) answers the questions about places.
                let query = matches!(f.name, "position" | "distance" | "free_spaces_within" | "has_line_of_sight");
                if barrier_space(id).is_some() && g.space_of(id).is_some() {
                    if query {
                        return Ok(id.to_string());
                    }
                    return Err(format!("{}: `{id}` is an Obstacle, not a Character", f.name));
                }
                return Err(format!("{}: `{id}` is not a Character in this game", f.name));
            }
            Ok(id.to_string())
        };
        Ok(match f.name {
            "random" => {
                let (lo, hi) = (n(0, 1), n(1, 1));
                if lo > hi {
                    return Err(format!("random: empty range [{lo}, {hi}]"));
                }
                ApiValue::Int(self.state.rng.random_range(lo..=hi))
            }
            "log" => {
                self.emit(Event::Log { text: s(0)?.to_string() });
                ApiValue::Nil
            }
            "active_character" => self.state.active.clone().map_or(ApiValue::Nil, ApiValue::Str),
            "attacker" => self.attacker.clone().map_or(ApiValue::Nil, ApiValue::Str),
            "damage" => ApiValue::Int(self.unit(&character(self, 0)?).map_or(0, |u| u.damage as i64)),
            "has_state" => ApiValue::Bool(self.has_state(&character(self, 0)?, s(1)?)),
            "position" => match self.space_of(&character(self, 0)?) {
                Some(h) => ApiValue::Space([h.q as i64, h.r as i64]),
                None => ApiValue::Nil,
            },
            "distance" => ApiValue::Int(self.distance(&character(self, 0)?, &character(self, 1)?).min(1000) as i64),
            "enemies_within" | "allies_within" => {
                let of = character(self, 0)?;
                let (lo, hi) = (n(1, 0).max(0) as u32, n(2, 0).max(0) as u32);
                let owner = self.unit(&of).map(|u| u.owner);
                let enemies = f.name == "enemies_within";
                let list = self
                    .state
                    .units
                    .iter()
                    .filter(|u| u.id != of && u.projectile.is_none() && (Some(u.owner) != owner) == enemies)
                    .filter(|u| {
                        let d = self.distance(&of, &u.id);
                        d >= lo && d <= hi
                    })
                    .map(|u| u.id.clone())
                    .collect();
                ApiValue::List(list)
            }
            "has_line_of_sight" => {
                ApiValue::Bool(self.sight(&character(self, 0)?, &character(self, 1)?).has_line_of_sight())
            }
            "movement_points_spent" => {
                ApiValue::Int(self.unit(&character(self, 0)?).map_or(0, |u| u.movement_spent as i64))
            }
            "inflict_damage" => {
                let t = character(self, 0)?;
                let amount = n(1, 0);
                if amount < 1 {
                    return Err(format!("inflict_damage: {amount} Damage; the amount is at least 1"));
                }
                self.inflict(&t, amount.min(255) as u8, None);
                ApiValue::Nil
            }
            "heal" => {
                let t = character(self, 0)?;
                let amount = n(1, 0).clamp(0, 255) as u8;
                if let Some(u) = self.unit_mut(&t) {
                    let healed = amount.min(u.damage);
                    u.damage -= healed;
                    let total = u.damage;
                    // Nothing to heal, nothing happens (and nothing to tell).
                    if healed > 0 {
                        self.emit(Event::Healed { character: t, amount: healed, total });
                    }
                }
                ApiValue::Nil
            }
            "impose_state" => {
                let t = character(self, 0)?;
                let source = match args.get(2) {
                    Some(ApiValue::Str(x)) => Some(x.clone()),
                    _ => self.state.active.clone(),
                };
                self.impose(&t, s(1)?, source.as_deref())?;
                ApiValue::Nil
            }
            "remove_state" => {
                let t = character(self, 0)?;
                ApiValue::Bool(self.remove_token(&t, s(1)?))
            }
            "displace" => {
                let t = character(self, 0)?;
                if self.prevented(&t, model::Prevention::MovedByEnemyEffects) {
                    return Ok(ApiValue::Nil);
                }
                for _ in 0..n(1, 1).clamp(0, 10) {
                    let Some(from) = self.space_of(&t) else { break };
                    let options: Vec<Choice> = from
                        .neighbours()
                        .into_iter()
                        .filter(|h| self.is_free(*h))
                        .map(|h| Choice::Space { space: h })
                        .collect();
                    if options.is_empty() {
                        break;
                    }
                    let decider = self.effect_player();
                    if let Choice::Space { space } =
                        self.decide(decider, Kind::Displace, Some(&t), "Displace to?", options)
                    {
                        self.unit_mut(&t).expect("unit").location = Location::Space(space);
                        self.emit(Event::Displaced { character: t.clone(), from, to: space });
                        self.entered(&t, space);
                    }
                }
                if let Some(rc) = &mut self.roll {
                    rc.displaced_target = true;
                }
                ApiValue::Nil
            }
            "place" => {
                let t = character(self, 0)?;
                if self.prevented(&t, model::Prevention::MovedByEnemyEffects) {
                    return Ok(ApiValue::Nil);
                }
                // Only what is in the HexaDome is Placed by an Effect (a Running
                // Projectile gone to its deck, a Character in the Infirmary: R20).
                if self.space_of(&t).is_none() {
                    return Ok(ApiValue::Nil);
                }
                let to = space_arg(args, 1, f.name)?;
                let (q, r) = (to.q, to.r);
                if !self.is_free(to) {
                    return Err(format!("place: [{q}, {r}] is not a Free space"));
                }
                let from = self.space_of(&t);
                self.unit_mut(&t).expect("unit").location = Location::Space(to);
                self.emit(Event::Placed { character: t.clone(), from, to });
                self.entered(&t, to);
                ApiValue::Nil
            }
            "swap" => {
                let (a, b) = (character(self, 0)?, character(self, 1)?);
                // Neither moves if either cannot (a Swap moves both: `000 § Swap`).
                let moved_by_enemy = model::Prevention::MovedByEnemyEffects;
                if self.prevented(&a, moved_by_enemy) | self.prevented(&b, moved_by_enemy) {
                    return Ok(ApiValue::Nil);
                }
                let (la, lb) = (self.unit(&a).expect("unit").location, self.unit(&b).expect("unit").location);
                if let (Location::Space(ha), Location::Space(hb)) = (la, lb) {
                    self.unit_mut(&a).expect("unit").location = Location::Space(hb);
                    self.unit_mut(&b).expect("unit").location = Location::Space(ha);
                    self.emit(Event::Placed { character: a.clone(), from: Some(ha), to: hb });
                    self.emit(Event::Placed { character: b.clone(), from: Some(hb), to: ha });
                    self.entered(&a, hb);
                    self.entered(&b, ha);
                }
                ApiValue::Nil
            }
            "deploy_smoke" => {
                let Some(ApiValue::Space([q, r])) = args.first() else {
                    return Err("deploy_smoke: a space {q, r} is needed".into());
                };
                let space = Hex::new(*q as i32, *r as i32);
                let who = self.state.active.clone().ok_or("deploy_smoke: no active Character")?;
                let max = self.card(&who).smoke_tokens as usize;
                let deployed = self.state.smoke.iter().filter(|(_, c)| *c == who).count();
                if deployed >= max {
                    return Err(format!(
                        "deploy_smoke: {who} has {deployed} of its {max} Smoke tokens in the HexaDome already"
                    ));
                }
                if !self.board.on_board(space) || self.in_smoke(space) {
                    return Err(format!("deploy_smoke: [{q}, {r}] is off the board or already has Smoke"));
                }
                self.state.smoke.push((space, who.clone()));
                self.emit(Event::SmokeDeployed { character: who, space });
                ApiValue::Nil
            }
            "gain_movement_points" => {
                let t = character(self, 0)?;
                let amount = n(1, 0).clamp(0, 50) as u8;
                if self.state.active.as_deref() == Some(t.as_str()) {
                    let u = self.unit_mut(&t).expect("unit");
                    u.movement_points = u.movement_points.saturating_add(amount);
                    let total = u.movement_points;
                    self.emit(Event::MovementPoints { character: t, gained: amount, total });
                }
                ApiValue::Nil
            }
            "add_die_to_next_roll" => {
                let t = character(self, 0)?;
                let die = s(1)?.to_string();
                if !self.content.dice.contains_key(&die) {
                    return Err(format!("add_die_to_next_roll: no die `{die}`"));
                }
                // Only the active Character has a next Roll "in this Activation".
                if self.state.active.as_deref() == Some(t.as_str()) {
                    self.unit_mut(&t).expect("unit").next_roll.push(die);
                }
                ApiValue::Nil
            }
            "gain_action_points" => {
                let t = character(self, 0)?;
                let amount = n(1, 0).clamp(0, 50) as u8;
                // Only the active Character has Action Points to gain (`000 § Action Points`).
                if self.state.active.as_deref() == Some(t.as_str()) {
                    let u = self.unit_mut(&t).expect("unit");
                    u.action_points = u.action_points.saturating_add(amount);
                    let total = u.action_points;
                    self.emit(Event::ActionPoints { character: t, gained: amount, total });
                }
                ApiValue::Nil
            }
            "add_symbol" if self.pending_pools.is_some() => {
                let sym = symbol(s(0)?)?;
                let side = self.tactic_side.unwrap_or(Side::Active);
                let pools = self.pending_pools.as_mut().expect("pools");
                let pool = &mut pools[if side == Side::Active { 0 } else { 1 }];
                pool.symbols.extend(std::iter::repeat_n(sym, n(1, 1).clamp(0, 6) as usize));
                ApiValue::Nil
            }
            "add_die" if self.pending_pools.is_some() => {
                let die = s(0)?.to_string();
                let limit =
                    self.content.dice.get(&die).ok_or_else(|| format!("add_die: no die `{die}`"))?.value.max_per_roll
                        as usize;
                let side = self.tactic_side.unwrap_or(Side::Active);
                if self.pool_locked[side as usize] {
                    self.emit(Event::Log { text: format!("no die can be added to this Roll (the {die} die is not)") });
                    return Ok(ApiValue::Nil);
                }
                let pools = self.pending_pools.as_mut().expect("pools");
                let pool = &mut pools[if side == Side::Active { 0 } else { 1 }];
                let mut refused = 0;
                for _ in 0..n(1, 1).clamp(0, 6) {
                    // The per-Roll limits hold (`000 § Dice`); dice over them are not added.
                    if pool.dice.iter().filter(|d| **d == die).count() < limit {
                        pool.dice.push(die.clone());
                    } else {
                        refused += 1;
                    }
                }
                if refused > 0 {
                    self.emit(Event::Log {
                        text: format!("{refused} {die} die not added: a Roll holds at most {limit} (000 § Dice)"),
                    });
                }
                ApiValue::Nil
            }
            "nullify_die" if self.pending_pools.is_some() => {
                // Before the Roll: the die leaves the pool (`000 § Nullifying Dice`).
                let own = self.tactic_side.unwrap_or(Side::Active);
                let side = if s(0)? == "own" { own } else { own.other() };
                let index = n(1, 0);
                let pools = self.pending_pools.as_mut().expect("pools");
                let pool = &mut pools[if side == Side::Active { 0 } else { 1 }];
                if index >= 1 && (index as usize) <= pool.dice.len() {
                    pool.dice.remove(index as usize - 1);
                    ApiValue::Bool(true)
                } else {
                    ApiValue::Bool(false)
                }
            }
            "add_die" | "add_symbol" | "nullify_symbol" | "nullify_die" => {
                let Some(rc) = &mut self.roll else {
                    return Err(format!("{}: there is no Roll to change now", f.name));
                };
                let own = rc.side;
                match f.name {
                    "add_symbol" => {
                        let sym = symbol(s(0)?)?;
                        rc.roll.side_mut(own).tally.add(sym, n(1, 1).clamp(0, 10) as u32);
                        ApiValue::Nil
                    }
                    "nullify_symbol" | "nullify_die" => {
                        let mine = s(0)? == "own";
                        let side = if mine { own } else { own.other() };
                        let whose = rc.rollers[usize::from(!mine)].clone();
                        let (done, what) = if f.name == "nullify_symbol" {
                            let sym = symbol(s(1)?)?;
                            (
                                rc.roll.side_mut(side).tally.nullify(sym),
                                format!("a {}", crate::rules::event::symbol_name(sym)),
                            )
                        } else {
                            let index = n(1, 0);
                            let done = index >= 1 && rc.roll.nullify_die(side, (index - 1) as usize);
                            (done, format!("die #{index}"))
                        };
                        if done {
                            self.emit(Event::Log { text: format!("{what} of {whose}'s Roll is Nullified") });
                        }
                        ApiValue::Bool(done)
                    }
                    _ => return Err(format!("{}: not available once the dice are rolled", f.name)),
                }
            }
            "ignore_cover" | "cover_die" => {
                let Some(check) = &mut self.cover_check else {
                    return Err(format!("{}: only while Cover is checked (the `cover` window)", f.name));
                };
                if f.name == "ignore_cover" {
                    check.target = false;
                } else {
                    let die = s(0)?.to_string();
                    if !self.content.dice.contains_key(&die) {
                        return Err(format!("cover_die: no die `{die}`"));
                    }
                    let check = self.cover_check.as_mut().expect("cover check");
                    if check.attacker.is_some() {
                        check.attacker = Some(die);
                    }
                }
                ApiValue::Nil
            }
            "draw_tactics" | "discard_tactics" => {
                let p = self.effect_player();
                let count = n(0, 1).clamp(0, 10) as u8;
                if f.name == "draw_tactics" {
                    self.draw(p, count);
                } else {
                    for _ in 0..count {
                        let mut options: Vec<Choice> = Vec::new();
                        for t in &self.state.players[p].hand {
                            let pick = Choice::Pick { id: t.clone() };
                            if !options.contains(&pick) {
                                options.push(pick);
                            }
                        }
                        if options.is_empty() {
                            break;
                        }
                        if let Choice::Pick { id } =
                            self.decide(p, Kind::Choose, None, "Discard which Tactic?", options)
                        {
                            let hand = &mut self.state.players[p].hand;
                            if let Some(i) = hand.iter().position(|t| *t == id) {
                                let t = hand.remove(i);
                                self.state.players[p].discard.push(t.clone());
                                self.emit(Event::Log { text: format!("player {} Discards {t}", p + 1) });
                            }
                        }
                    }
                }
                ApiValue::Nil
            }
            "activation_effect" => {
                let t = character(self, 0)?;
                let name = s(1)?.to_string();
                let u = self.unit_mut(&t).expect("unit");
                if !u.until_end_of_activation.contains(&name) {
                    u.until_end_of_activation.push(name);
                }
                ApiValue::Nil
            }
            "has_activation_effect" => ApiValue::Bool(self.has_activation_effect(&character(self, 0)?, s(1)?)),
            "states" => {
                let t = character(self, 0)?;
                let mut list: Vec<Id> =
                    self.unit(&t).map(|u| u.tokens.iter().map(|k| k.state.clone()).collect()).unwrap_or_default();
                list.dedup();
                ApiValue::List(list)
            }
            "displace_to" => {
                let t = character(self, 0)?;
                if self.prevented(&t, model::Prevention::MovedByEnemyEffects) {
                    return Ok(ApiValue::Nil);
                }
                let to = space_arg(args, 1, f.name)?;
                let (q, r) = (to.q, to.r);
                let Some(from) = self.space_of(&t) else { return Ok(ApiValue::Nil) };
                if !from.is_adjacent(to) || !self.is_free(to) {
                    return Err(format!("displace_to: [{q}, {r}] is not a Free space Adjacent to `{t}`"));
                }
                self.unit_mut(&t).expect("unit").location = Location::Space(to);
                self.emit(Event::Displaced { character: t.clone(), from, to });
                self.entered(&t, to);
                if let Some(rc) = &mut self.roll {
                    rc.displaced_target = true;
                }
                ApiValue::Nil
            }
            "nullify_tactic" => match self.answering.last_mut() {
                Some((_, nullified)) => {
                    *nullified = true;
                    ApiValue::Nil
                }
                None => {
                    return Err("nullify_tactic: no Tactic is being answered (the timing is `tactic-played`)".into());
                }
            },
            "roll_die" => {
                let die = s(0)?.to_string();
                if !self.content.dice.contains_key(&die) {
                    return Err(format!("roll_die: no die `{die}`"));
                }
                let who = self.effect_source.clone().unwrap_or_default();
                let faces = self.roll_dice(&Pool { dice: vec![die], symbols: vec![] });
                let face: Vec<String> =
                    faces.first().map_or(vec![], |(_, f)| f.iter().map(|x| symbol_name(*x).to_string()).collect());
                self.emit(Event::Rolled { character: who, faces, added: vec![] });
                ApiValue::List(face)
            }
            "pool_dice" => {
                let own = self.tactic_side.unwrap_or(Side::Active);
                let side = if s(0)? == "own" { own } else { own.other() };
                let Some(pools) = &self.pending_pools else {
                    return Err("pool_dice: no Roll is about to be made".into());
                };
                ApiValue::List(pools[side as usize].dice.clone())
            }
            "reduce_roll_to" => {
                let own = self.tactic_side.unwrap_or(Side::Active);
                let side = if s(0)? == "own" { own } else { own.other() };
                let index = n(1, 0);
                let Some(pools) = self.pending_pools.as_mut() else {
                    return Err("reduce_roll_to: no Roll is about to be made".into());
                };
                let pool = &mut pools[side as usize];
                if index < 1 || index as usize > pool.dice.len() {
                    return Err(format!("reduce_roll_to: the Roll has no die #{index}"));
                }
                let die = pool.dice[index as usize - 1].clone();
                pool.dice = vec![die.clone()];
                pool.symbols.clear();
                self.pool_locked[side as usize] = true;
                self.emit(Event::Log { text: format!("the Roll is reduced to one {die} die") });
                ApiValue::Nil
            }
            "grant_action" => {
                let t = character(self, 0)?;
                let max = n(1, 0).clamp(0, 20) as u8;
                let player = self.effect_player();
                self.pending_grant = Some((t, max, player));
                ApiValue::Nil
            }
            "tactics_in_hand" => {
                let t = character(self, 0)?;
                let p = self.unit(&t).map_or(0, |u| u.owner);
                ApiValue::Int(self.state.players[p].hand.len() as i64)
            }
            "forbid_switches" => {
                let own = if self.pending_pools.is_some() {
                    self.tactic_side.unwrap_or(Side::Active)
                } else if let Some(rc) = &self.roll {
                    rc.side
                } else {
                    return Err("forbid_switches: there is no Roll to change now".into());
                };
                let side = if s(0)? == "own" { own } else { own.other() };
                self.switches_forbidden[side as usize] = true;
                ApiValue::Nil
            }
            "free_spaces_in_zone" => {
                let zone = s(0)?;
                if !self.board.zones.contains_key(zone) {
                    let known: Vec<&str> = self.board.zones.keys().map(String::as_str).collect();
                    return Err(format!(
                        "free_spaces_in_zone: the map has no zone `{zone}` (its zones: {})",
                        known.join(", ")
                    ));
                }
                let spaces = self
                    .zone_spaces(zone)
                    .into_iter()
                    .filter(|h| self.is_free(*h))
                    .map(|h| [h.q as i64, h.r as i64])
                    .collect();
                ApiValue::Spaces(spaces)
            }
            "free_spaces_within" | "deployable_spaces" => {
                let of = character(self, 0)?;
                let (lo, hi) = (n(1, 0).clamp(0, 64) as u32, n(2, 0).clamp(0, 64) as u32);
                let Some(h) = self.space_of(&of) else { return Ok(ApiValue::Spaces(vec![])) };
                let owner = self.unit(&of).map(|u| u.owner);
                let allied_minions: Vec<Hex> = self
                    .state
                    .units
                    .iter()
                    .filter(|u| Some(u.owner) == owner && u.minion.is_some())
                    .filter_map(|u| match u.location {
                        Location::Space(x) => Some(x),
                        _ => None,
                    })
                    .collect();
                let deploying = f.name == "deployable_spaces";
                let r = self.board.radius as i32;
                let mut spaces: Vec<(u32, Hex)> = (-r..=r)
                    .flat_map(|q| (-r..=r).map(move |rr| Hex::new(q, rr)))
                    .filter(|x| self.is_free(*x))
                    .filter(|x| !deploying || !allied_minions.iter().any(|m| m.is_adjacent(*x)))
                    .map(|x| (h.distance(x), x))
                    .filter(|(d, _)| *d >= lo && *d <= hi)
                    .collect();
                spaces.sort();
                ApiValue::Spaces(spaces.into_iter().map(|(_, x)| [x.q as i64, x.r as i64]).collect())
            }
            "choose_space" => {
                let Some(ApiValue::Spaces(options)) = args.first() else { return Ok(ApiValue::Nil) };
                if options.is_empty() {
                    return Ok(ApiValue::Nil);
                }
                let prompt = match args.get(1) {
                    Some(ApiValue::Str(p)) => p.clone(),
                    _ => "Which space?".into(),
                };
                let decider = self.effect_player();
                let opts =
                    options.iter().map(|[q, r]| Choice::Space { space: Hex::new(*q as i32, *r as i32) }).collect();
                match self.decide(decider, Kind::Space, self.state.active.clone().as_deref(), &prompt, opts) {
                    Choice::Space { space } => ApiValue::Space([space.q as i64, space.r as i64]),
                    _ => ApiValue::Nil,
                }
            }
            "spend_movement_points" => {
                let t = character(self, 0)?;
                let amount = n(1, 0).clamp(0, 255) as u8;
                let active = self.state.active.as_deref() == Some(t.as_str());
                let u = self.unit_mut(&t).expect("unit");
                if !active || u.movement_points < amount {
                    return Ok(ApiValue::Bool(false));
                }
                u.movement_points -= amount;
                u.movement_spent = u.movement_spent.saturating_add(amount);
                let left = u.movement_points;
                self.emit(Event::Log {
                    text: format!(
                        "{t} spends {} ({left} left)",
                        crate::rules::event::count(amount as u32, "Movement Point")
                    ),
                });
                ApiValue::Bool(true)
            }
            "deploy_minion" => {
                let card = s(0)?.to_string();
                let Some(ApiValue::Space([q, r])) = args.get(1) else {
                    return Err("deploy_minion: a space {q, r} is needed".into());
                };
                let controller = self.effect_source.clone().ok_or("deploy_minion: no Character's effect is running")?;
                let aside = self.state.units.iter().any(|u| {
                    u.location == Location::Aside
                        && u.minion.as_ref().is_some_and(|m| m.controller == controller && m.card == card)
                });
                let known = self
                    .content
                    .characters
                    .get(&controller)
                    .is_some_and(|c| c.value.minions.iter().any(|m| m.id == card));
                if known && !aside {
                    // "The Controller cannot have more Minions deployed than are listed on their Card."
                    self.emit(Event::Log { text: format!("{controller} has no {card} left to deploy") });
                    return Ok(ApiValue::Nil);
                }
                let id = self
                    .deploy_minion(&controller, &card, Hex::new(*q as i32, *r as i32))
                    .map_err(|e| format!("deploy_minion: {e}"))?;
                ApiValue::Str(id)
            }
            "minions" => ApiValue::List(self.minions_of(&character(self, 0)?)),
            "is_minion" => ApiValue::Bool(self.is_minion(&character(self, 0)?)),
            "choose_target" | "choose" => {
                let Some(ApiValue::List(options)) = args.first() else { return Ok(ApiValue::Nil) };
                if options.is_empty() {
                    return Ok(ApiValue::Nil);
                }
                let prompt = match args.get(1) {
                    Some(ApiValue::Str(p)) => p.clone(),
                    _ => "Choose".into(),
                };
                let decider = self.effect_player();
                let (kind, opts) = if f.name == "choose_target" {
                    (Kind::Target, options.iter().map(|o| Choice::Pick { id: o.clone() }).collect())
                } else {
                    (Kind::Choose, options.iter().map(|o| Choice::Text { text: o.clone() }).collect())
                };
                match self.decide(decider, kind, self.state.active.clone().as_deref(), &prompt, opts) {
                    Choice::Pick { id } => ApiValue::Str(id),
                    Choice::Text { text } => ApiValue::Str(text),
                    _ => ApiValue::Nil,
                }
            }
            other => return Err(format!("{other} is not available in a game yet")),
        })
    }

    fn begin_effect(&mut self) {
        self.snapshots.push((self.state.clone(), self.events.len(), self.roll.clone()));
    }

    fn end_effect(&mut self, ok: bool) {
        if let Some((state, events, roll)) = self.snapshots.pop() {
            if !ok || self.probing {
                // Undo: the effect is never half-applied.
                self.state = state;
                self.events.truncate(events);
                self.roll = roll;
            }
        }
    }
}

/// The space argument `i` of an API call.
fn space_arg(args: &[ApiValue], i: usize, name: &str) -> std::result::Result<Hex, String> {
    match args.get(i) {
        Some(ApiValue::Space([q, r])) => Ok(Hex::new(*q as i32, *r as i32)),
        _ => Err(format!("{name}: a space {{q, r}} is needed")),
    }
}

/// A symbol as the Lua API spells it.
fn symbol_name(s: Symbol) -> &'static str {
    match s {
        Symbol::Success => "success",
        Symbol::Block => "block",
        Symbol::Special => "special",
        Symbol::CriticalSuccess => "critical_success",
        Symbol::CriticalBlock => "critical_block",
    }
}

fn symbol(s: &str) -> std::result::Result<Symbol, String> {
    Ok(match s {
        "success" => Symbol::Success,
        "block" => Symbol::Block,
        "special" => Symbol::Special,
        "critical_success" => Symbol::CriticalSuccess,
        "critical_block" => Symbol::CriticalBlock,
        other => return Err(format!("`{other}` is not a symbol")),
    })
}
