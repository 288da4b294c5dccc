//! The state of an Aristeia! game: players, units (Characters, Minions, Running
//! Projectiles) and where they are, tokens, the board's static terrain, and the
//! read-only [`View`] that controllers see (`super::view`).
//!
//! Plain data: no rules run here (they are in [`super::game`]). Entry type:
//! [`GameState`].

use crate::model::{self, Id};
use crate::rules::event::PlayerId;
use crate::rules::geometry::Hex;
use crate::rules::seats::Seated;
use serde::Serialize;
use smallvec::SmallVec;
use std::collections::{BTreeMap, BTreeSet};

/// A list of ids kept in place up to `N` of them, the rest on the heap: the
/// rules bound most of the state's lists (teams of 4 Characters, `000 §
/// Setup`; a hand of Tactics), so copying the state for an undo allocates
/// nothing for them. Serialized as a list, like a `Vec`.
pub type IdList<const N: usize> = SmallVec<[Id; N]>;

/// A count per player for each Round so far (index 0: Round 1), kept in
/// place for eight Rounds (Scenarios last five or six, `000 § Scenarios`).
pub type PerRound = SmallVec<[Seated<u32>; 8]>;

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
    pub tokens: SmallVec<[Token; 2]>,
    /// Action Points left in its Activation.
    pub action_points: u8,
    /// Movement Points left.
    pub movement_points: u8,
    /// Movement Points spent in the current Activation.
    pub movement_spent: u8,
    /// Dice promised to its next Roll in this Activation (Take Aim: "Add an
    /// Orange die to the next Roll of the active Character in this Activation").
    #[serde(skip_serializing_if = "SmallVec::is_empty")]
    pub next_roll: IdList<2>,
    /// For a Minion: which card it is and who controls it (`002 § Minion`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minion: Option<MinionOf>,
    /// For a Running Projectile: its face-down marker (`001 § Running
    /// Projectiles`); `owner` is the player who deployed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub projectile: Option<Id>,
    /// Named effects in force "until the end of this Activation"
    /// (`game:activation_effect`; `no-disengage-rolls`: Barrel through).
    #[serde(skip_serializing_if = "SmallVec::is_empty")]
    pub until_end_of_activation: IdList<2>,
    /// Named effects in force "until the end of the Round", the Markers on
    /// its Character card (`000 § Effects`); they end in the Recovery Phase's
    /// Terminate Effects step (`000 § Recovery Phase`; `game:round_effect`).
    #[serde(skip_serializing_if = "SmallVec::is_empty")]
    pub until_end_of_round: IdList<2>,
}

impl Unit {
    /// A unit as it enters the game: no Damage, no State tokens, no points,
    /// no effects; `id` of player `owner`, at `location`. Set `minion` or
    /// `projectile` for those.
    pub fn new(id: Id, owner: PlayerId, location: Location) -> Unit {
        Unit {
            id,
            owner,
            location,
            damage: 0,
            tokens: SmallVec::new(),
            action_points: 0,
            movement_points: 0,
            movement_spent: 0,
            next_roll: SmallVec::new(),
            minion: None,
            projectile: None,
            until_end_of_activation: SmallVec::new(),
            until_end_of_round: SmallVec::new(),
        }
    }
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
    pub(crate) slot: usize,
}

/// The most Victory Points, and the most Frags, a situation may give a
/// player (docs/situations.md): far more than any game scores, so a typo is
/// caught at its line, and the arithmetic of a game (which saturates at
/// `u32::MAX` anyway) never nears the edge of its type.
pub const MAX_POINTS: u32 = 100_000;

/// The largest value of a Scenario counter (`game:add_counter` clamps to it,
/// a situation may not exceed it).
pub const MAX_COUNTER: i64 = 1_000_000;

/// A player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Player {
    /// Character ids, in team order.
    pub team: IdList<4>,
    /// Tactics in hand.
    pub hand: IdList<8>,
    /// The deck, top last.
    pub deck: IdList<16>,
    /// The discard pile.
    pub discard: IdList<16>,
    /// Victory Points.
    pub victory_points: u32,
    /// Frags.
    pub frags: u32,
    /// This Round's Running Order.
    pub running_order: IdList<4>,
    /// Deployment Zone id.
    pub zone: Id,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// The whole state of a game but its event log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameState {
    /// Scenario id.
    pub scenario: Id,
    /// The two players.
    pub players: Seated<Player>,
    /// Every Character in play.
    pub units: Vec<Unit>,
    /// Current Round (from 1).
    pub round: u8,
    /// The Turn of the Round being played (from 1), 0 in the Planning
    /// Phase: the Running Order positions before it, and its own, are face
    /// up (`000 § Turns Phase`, Step 1: Initiative).
    #[serde(skip_serializing_if = "is_zero")]
    pub turn: u8,
    /// Who holds the Underdog token (`000 § Underdog`); in a game of three or
    /// four players, the Prime Time marker (`001 § Prime Time`): the one
    /// player who decides ties, orders simultaneous effects and chooses first.
    pub underdog: PlayerId,
    /// The two Running Orders of a Prime Time Round (`001 § Running Order`):
    /// as many positions as players, each empty or holding a Character's
    /// Initiative card. Empty in a 2-player game, whose Running Orders are the
    /// players' own (`Player::running_order`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub running_orders: Vec<Vec<Option<Id>>>,
    /// The current Scoring Zones' ids (Assault has one; none until a rule sets one).
    pub scoring_zones: IdList<2>,
    /// Counters a Scenario keeps (`game:add_counter`): on a Character, a zone
    /// or a player (`player 1`), by name (CROW Substance points).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub counters: BTreeMap<Id, BTreeMap<Id, i64>>,
    /// Victory Points each player gained in each Round so far (index 0: Round 1).
    #[serde(skip_serializing_if = "SmallVec::is_empty")]
    pub scored: PerRound,
    /// Frag tokens each player earned in each Round so far (index 0: Round
    /// 1); empty until the first Frag (`game:frags_earned`).
    #[serde(skip_serializing_if = "SmallVec::is_empty")]
    pub fragged: PerRound,
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
    pub(crate) projectiles_deployed: usize,
    /// The Objectives Deck, when the Scenario uses it or hidden objectives
    /// are played (`001 § Objectives Deck`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objectives: Option<ObjectivesDeck>,
    /// The optional rules of this game (`001 § Additional Rules`).
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
    pub optional_rules: BTreeSet<crate::rules::game::OptionalRule>,
    /// What players may not do in this game (restricted play:
    /// `rules::game::restrict`); none in a game by the rules.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub restrictions: Vec<crate::rules::game::Restriction>,
    #[serde(skip)]
    pub(crate) rng: rand_chacha::ChaCha8Rng,
}

/// A list of ids for people: `a, b` or `-`.
fn ids<S: std::borrow::Borrow<str>>(v: &[S]) -> String {
    if v.is_empty() { "-".into() } else { v.join(", ") }
}

impl GameState {
    /// The whole state for people, one line each (`arena run --state`, the
    /// umpire's print: every hand and deck as cards, the deck top last):
    /// the Round, each player (Victory Points, Frags, hand, deck, discard
    /// pile, Running Order), each unit (where, Damage, Action and Movement
    /// Points, State tokens), Smoke, markers and the Objective cards.
    pub fn summary(&self) -> Vec<String> {
        let mut out = vec![format!(
            "Round {}, Turn {}; {} {}; Scoring Zones: {}",
            self.round,
            self.turn,
            if self.players.table().prime_time() { "Prime Time:" } else { "Underdog:" },
            self.underdog,
            ids(&self.scoring_zones)
        )];
        for (p, pl) in self.players.enumerate() {
            out.push(format!(
                "{p}: {} VP, {} Frags; hand: {}; deck (top last): {}; discard: {}; Running Order: {}",
                pl.victory_points,
                pl.frags,
                ids(&pl.hand),
                ids(&pl.deck),
                ids(&pl.discard),
                ids(&pl.running_order)
            ));
        }
        for u in &self.units {
            let at = match u.location {
                Location::Space(h) => format!("[{}, {}]", h.q, h.r),
                Location::Infirmary => "Infirmary".into(),
                Location::Bench => "Bench".into(),
                Location::Aside => "aside".into(),
            };
            let tokens: Vec<String> = u
                .tokens
                .iter()
                .map(|t| {
                    let side = if t.side == TokenSide::Red { "red" } else { "blue" };
                    match &t.source {
                        Some(by) => format!("{} ({side}, by {by})", t.state),
                        None => format!("{} ({side})", t.state),
                    }
                })
                .collect();
            let what = match (&u.minion, &u.projectile) {
                (Some(m), _) => format!(" (Minion of {})", m.controller),
                (_, Some(marker)) => format!(" (Running Projectile: {marker})"),
                _ => String::new(),
            };
            out.push(format!(
                "  {}{what} of {}: {at}, {} Damage, {} AP, {} MP; States: {}",
                u.id,
                u.owner,
                u.damage,
                u.action_points,
                u.movement_points,
                ids(&tokens)
            ));
        }
        if !self.smoke.is_empty() {
            let smoke: Vec<String> = self.smoke.iter().map(|(h, c)| format!("[{}, {}] by {c}", h.q, h.r)).collect();
            out.push(format!("Smoke: {}", smoke.join(", ")));
        }
        if !self.special_spaces.is_empty() {
            let m: Vec<String> = self
                .special_spaces
                .iter()
                .map(|m| {
                    format!(
                        "[{}, {}] {}{}",
                        m.space.q,
                        m.space.r,
                        m.marker,
                        if m.revealed { "" } else { " (face down)" }
                    )
                })
                .collect();
            out.push(format!("Special Spaces: {}", m.join(", ")));
        }
        if let Some(o) = &self.objectives {
            let hidden: Vec<String> =
                o.hidden.iter().enumerate().map(|(i, h)| format!("{}: {}", PlayerId::seat(i), ids(h))).collect();
            out.push(format!(
                "Objectives: deck (top last) {}; available {}; discard {}; hidden {}",
                ids(&o.deck),
                ids(&o.available),
                ids(&o.discard),
                if hidden.is_empty() { "-".into() } else { hidden.join("; ") }
            ));
        }
        out
    }

    /// Player `p`'s hidden Objective cards (`001 § Objective Cards
    /// (Additional Rule)`): for the umpire that holds the whole state (the
    /// simulator, tests); a player sees only its own, through its `View`.
    pub fn hidden_objectives(&self, p: PlayerId) -> &[Id] {
        self.objectives.as_ref().and_then(|o| o.hidden.get(p.index())).map_or(&[], |h| h.as_slice())
    }
}

/// The Objective cards in play (`001 § Objectives Deck`, `001 § Objective
/// Cards (Additional Rule)`): card ids, one entry per copy.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ObjectivesDeck {
    /// Face down, the top card last.
    pub deck: Vec<Id>,
    /// The available cards, face up in the order they were drawn.
    pub available: Vec<Id>,
    /// The discard deck, which anyone may check ("Discarded Objective cards
    /// build a discard deck that players may check at any moment").
    pub discard: Vec<Id>,
    /// Hidden objectives: each player's face-down cards, by seat. Not
    /// serialized: a player's hidden cards are no other player's to see
    /// (see [`View::hidden_objectives`]).
    #[serde(skip)]
    pub(crate) hidden: Vec<Vec<Id>>,
    /// A red or orange card was claimed: its replacement is drawn after the
    /// active Character's Activation (`001 § Claiming Objective Cards`).
    #[serde(skip)]
    pub refill_pending: bool,
}

pub use super::view::View;

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
    /// Every space of the board: `true` where the terrain lets a Character
    /// through (not Blocked, no Barrier), computed once; see [`Board::is_open`].
    open: crate::rules::geometry::HexGrid<bool>,
    /// The map's Line of Sight table over `blocked`, shared with every game
    /// on the map (`000 § Line of Sight`).
    pub sight: std::sync::Arc<crate::rules::geometry::SightTable>,
    /// `open` as a bit set, for route searches (`geometry::path_distance_on`).
    pub(crate) open_spaces: crate::rules::geometry::OpenSpaces,
}

impl Board {
    /// The board of a map.
    pub fn of(map: &model::Map) -> Board {
        let h = |v: &[i16; 2]| Hex::new(v[0] as i32, v[1] as i32);
        let radius = map.radius as u32;
        let blocked: BTreeSet<Hex> = map.blocked.iter().map(h).collect();
        let barriers: BTreeSet<Hex> = map.barriers.iter().map(h).collect();
        let mut open = crate::rules::geometry::HexGrid::new(Hex::new(0, 0), radius, true);
        for s in blocked.iter().chain(&barriers) {
            open.set(*s, false);
        }
        Board {
            radius,
            barriers,
            zones: map.zones.iter().map(|z| (z.id, (z.kind, z.spaces.iter().map(h).collect()))).collect(),
            open_spaces: crate::rules::geometry::OpenSpaces::of(&open),
            open,
            sight: map
                .sight
                .get_or_init(|| {
                    std::sync::Arc::new(crate::rules::geometry::SightTable::new(radius, blocked.iter().copied()))
                })
                .clone(),
            blocked,
        }
    }

    /// Whether the terrain of `h` lets a Character through: on the board, not
    /// Blocked, no Barrier (`000 § Free Spaces` without the Characters). One
    /// array lookup.
    #[inline]
    pub fn is_open(&self, h: Hex) -> bool {
        self.open.get(h).copied().unwrap_or(false)
    }

    /// The terrain passability of every space of the board ([`Board::is_open`]),
    /// to mark Characters on for a distance field.
    pub fn open_grid(&self) -> &crate::rules::geometry::HexGrid<bool> {
        &self.open
    }

    /// Add Obstacles (a Scenario's: `model::Scenario::obstacles`), which the
    /// engine treats as Barriers (`000 § Obstacles`).
    pub fn add_obstacles(&mut self, spaces: impl IntoIterator<Item = Hex>) {
        self.barriers.extend(spaces);
    }

    /// Whether a space is on the board.
    pub fn on_board(&self, h: Hex) -> bool {
        h.within(self.radius)
    }
}
