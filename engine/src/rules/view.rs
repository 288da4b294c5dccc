//! What one seat may know of an Aristeia! game: the [`View`] every
//! controller is given (the players, the human seat at the terminal and in
//! the viewer).
//!
//! The game's state is a private field of the view: a controller reaches it
//! only through the methods below, and they hand out what its player may
//! know and nothing more.
//!
//! - The opponents' Tactics are a count: "The cards in your Hand are
//!   secret, so don't allow your opponent to see their content. However, the
//!   number of cards in your Hand at any given moment is not secret" (`000 §
//!   Hand`). Nobody sees a deck's order, its own included (a count).
//! - A Running Order is placed face down (`000 § Planning Phase`; `001 §
//!   Round`, 1. Planning Phase: "hidden to the other players") and each
//!   Turn's Initiative step reveals its position (`000 § Turns Phase`, Step
//!   1: "Both players reveal the leftmost Initiative card"): another player's
//!   placements show as face down until their Turn.
//! - Hidden Objective cards are their holder's only (`001 § Objective Cards
//!   (Additional Rule)`); the Objectives Deck and the Running Projectiles'
//!   markers are face down (counts).
//! - Events read as the seat knows them ([`Event::seen_by`]).
//!
//! Everything on the HexaDome (Characters, Damage, State tokens, Action
//! Points, Smoke, Special Space markers as placed), the Victory Points,
//! Frags, counters, the discard piles and the Scoring Zones is public.
//!
//! [`View::umpire`] is the one way to the whole state, and only the engine
//! has it (`pub(crate)`): the table that captures a position, and tests.

use super::event::{Event, PlayerId, SeenBy};
use super::seats::Table;
use super::state::{Board, GameState, Location, MinionOf, SpecialSpaceMarker, Token, Unit};
use crate::content::Content;
use crate::model::{self, Action, Id};
use crate::rules::geometry::Hex;
use std::collections::{BTreeMap, BTreeSet};

/// What the controller of one seat may look at: the content and the board
/// (public), and the game as that seat knows it (the methods).
#[derive(Clone, Copy)]
pub struct View<'a> {
    seat: PlayerId,
    state: &'a GameState,
    events: &'a [Event],
    /// The content.
    pub content: &'a Content,
    /// The map's static terrain.
    pub board: &'a Board,
}

/// A unit in play as every seat sees it: everything of [`Unit`] but a
/// Running Projectile's marker, which lies face down until it is flipped
/// (`001 § Running Projectiles`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct UnitSeen<'a> {
    /// The unit's id.
    pub id: &'a Id,
    /// Its player.
    pub owner: PlayerId,
    /// Where it is.
    pub location: Location,
    /// Damage tokens.
    pub damage: u8,
    /// State tokens.
    pub tokens: &'a [Token],
    /// Action Points left in its Activation.
    pub action_points: u8,
    /// Movement Points left.
    pub movement_points: u8,
    /// Movement Points spent in the current Activation.
    pub movement_spent: u8,
    /// Dice promised to its next Roll in this Activation.
    pub next_roll: &'a [Id],
    /// For a Minion: which card it is and who controls it.
    pub minion: Option<&'a MinionOf>,
    /// Whether it is a Running Projectile (which marker is not shown).
    pub projectile: bool,
    /// Named effects in force until the end of this Activation.
    pub until_end_of_activation: &'a [Id],
    /// Named effects in force until the end of this Round.
    pub until_end_of_round: &'a [Id],
}

impl<'a> UnitSeen<'a> {
    fn of(u: &'a Unit) -> UnitSeen<'a> {
        UnitSeen {
            id: &u.id,
            owner: u.owner,
            location: u.location,
            damage: u.damage,
            tokens: &u.tokens,
            action_points: u.action_points,
            movement_points: u.movement_points,
            movement_spent: u.movement_spent,
            next_roll: &u.next_roll,
            minion: u.minion.as_ref(),
            projectile: u.projectile.is_some(),
            until_end_of_activation: &u.until_end_of_activation,
            until_end_of_round: &u.until_end_of_round,
        }
    }

    /// Whether it is a Character (not a Minion nor a Running Projectile).
    pub fn is_character(&self) -> bool {
        self.minion.is_none() && !self.projectile
    }

    /// The space it stands on, if it is in the HexaDome.
    pub fn space(&self) -> Option<Hex> {
        match self.location {
            Location::Space(h) => Some(h),
            _ => None,
        }
    }
}

/// A Tactics hand as one seat knows it (`000 § Hand`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Hand<'a> {
    /// The seat's own hand: the cards.
    Own(&'a [Id]),
    /// Another player's: how many cards.
    Hidden(usize),
}

impl Hand<'_> {
    /// How many cards (public either way).
    pub fn len(&self) -> usize {
        match self {
            Hand::Own(cards) => cards.len(),
            Hand::Hidden(n) => *n,
        }
    }

    /// Whether the hand is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cards, when the seat may see them.
    pub fn cards(&self) -> Option<&[Id]> {
        match self {
            Hand::Own(cards) => Some(cards),
            Hand::Hidden(_) => None,
        }
    }
}

/// One player as a seat knows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PlayerSeen<'a> {
    /// Character ids, in team order (public once deployed).
    pub team: &'a [Id],
    /// Tactics in hand: the cards for the seat's own player, a count for the others.
    pub hand: Hand<'a>,
    /// How many Tactics are in the deck (nobody sees their order).
    pub deck: usize,
    /// The discard pile, face up.
    pub discard: &'a [Id],
    /// Victory Points.
    pub victory_points: u32,
    /// Frags.
    pub frags: u32,
    /// This Round's Running Order as the seat knows it, in activation
    /// order: its own player's whole; another's, the positions revealed so
    /// far (a 2-player game: one per Turn played); the rest are face down.
    pub running_order: &'a [Id],
    /// How many of this player's Initiative cards lie face down (0 for the seat's own).
    pub face_down: usize,
    /// Deployment Zone id.
    pub zone: &'a Id,
}

/// A position of a Prime Time Running Order as a seat knows it (`001 § Round`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Placement<'a> {
    /// Nobody has placed an Initiative card here.
    Empty,
    /// Another player's card, face down: whose it is shows, not which.
    FaceDown(PlayerId),
    /// A card the seat knows: its own, or revealed by its Turn.
    Up(&'a Id),
}

/// The Objective cards as a seat knows them (`001 § Objectives Deck`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ObjectivesSeen<'a> {
    /// How many cards are face down in the deck.
    pub deck: usize,
    /// The available cards, face up in the order they were drawn.
    pub available: &'a [Id],
    /// The discard deck ("players may check at any moment").
    pub discard: &'a [Id],
    /// The seat's own hidden Objective cards.
    pub hidden: &'a [Id],
    /// How many hidden cards each player holds, by seat.
    pub hidden_counts: Vec<usize>,
}

impl<'a> View<'a> {
    /// The view of `seat` (engine only: the Round loop builds one per Decision).
    pub(crate) fn new(
        seat: PlayerId,
        state: &'a GameState,
        events: &'a [Event],
        content: &'a Content,
        board: &'a Board,
    ) -> View<'a> {
        View { seat, state, events, content, board }
    }

    /// The whole state, hidden information included: for the engine only
    /// (the table capturing a position), never a controller.
    #[allow(dead_code)]
    pub(crate) fn umpire(&self) -> &'a GameState {
        self.state
    }

    /// Whose view this is.
    pub fn seat(&self) -> PlayerId {
        self.seat
    }

    /// The seating: how many players, who sits where.
    pub fn table(&self) -> Table {
        self.state.players.table()
    }

    /// The Scenario's id.
    pub fn scenario(&self) -> &'a Id {
        &self.state.scenario
    }

    /// How many Rounds the Scenario lasts (its `rounds`; 0 when the Scenario
    /// is not loaded).
    pub fn rounds(&self) -> u8 {
        self.content.scenarios.get(self.state.scenario.as_str()).map_or(0, |s| s.value.rounds)
    }

    /// Victory Points a player needs to end the game at once, when the
    /// Scenario sets them (`vp_to_win`).
    pub fn vp_to_win(&self) -> Option<u8> {
        self.content.scenarios.get(self.state.scenario.as_str()).and_then(|s| s.value.vp_to_win)
    }

    /// The current Round (from 1; 0 before the first).
    pub fn round(&self) -> u8 {
        self.state.round
    }

    /// The Turn of the Round being played (from 1; 0 in the Planning Phase).
    pub fn turn(&self) -> u8 {
        self.state.turn
    }

    /// Who holds the Underdog token, or the Prime Time marker at 3-4 players.
    pub fn underdog(&self) -> PlayerId {
        self.state.underdog
    }

    /// Every unit in play (Characters, Minions, Running Projectiles), in
    /// the state's order, as the seat sees them (a Running Projectile's
    /// marker face down).
    pub fn units(&self) -> impl Iterator<Item = UnitSeen<'a>> + Clone + 'a {
        self.state.units.iter().map(UnitSeen::of)
    }

    /// A unit by id.
    pub fn unit(&self, id: &str) -> Option<UnitSeen<'a>> {
        self.state.units.iter().find(|u| u.id == id).map(UnitSeen::of)
    }

    /// The space a unit stands on, if it is in the HexaDome.
    pub fn position(&self, id: &str) -> Option<Hex> {
        self.unit(id).and_then(|u| u.space())
    }

    /// The current Scoring Zones' ids.
    pub fn scoring_zones(&self) -> &'a [Id] {
        &self.state.scoring_zones
    }

    /// The Scenario's counters, by holder and name.
    pub fn counters(&self) -> &'a BTreeMap<Id, BTreeMap<Id, i64>> {
        &self.state.counters
    }

    /// Victory Points each player gained in each Round so far.
    pub fn scored(&self) -> &'a [super::seats::Seated<u32>] {
        &self.state.scored
    }

    /// The active Character, during an Activation.
    pub fn active(&self) -> Option<&'a Id> {
        self.state.active.as_ref()
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.state.over
    }

    /// Smoke tokens: (space, the Character that deployed it).
    pub fn smoke(&self) -> &'a [(Hex, Id)] {
        &self.state.smoke
    }

    /// Special Space markers in the HexaDome. A marker not yet flipped
    /// shows where it is; which marker it is shows only once revealed.
    pub fn special_spaces(&self) -> Vec<(Hex, Option<&'a Id>)> {
        self.state
            .special_spaces
            .iter()
            .map(|m: &SpecialSpaceMarker| (m.space, m.revealed.then_some(&m.marker)))
            .collect()
    }

    /// The optional rules of the game.
    pub fn optional_rules(&self) -> &'a BTreeSet<crate::rules::game::OptionalRule> {
        &self.state.optional_rules
    }

    /// How many Running Projectile markers are face down off the board.
    pub fn projectile_deck(&self) -> usize {
        self.state.projectile_deck.len()
    }

    /// Whether `p`'s Running Order card at `position` (from 0) is known to
    /// this seat: its own, or revealed by its Turn.
    fn revealed(&self, p: PlayerId, position: usize) -> bool {
        p == self.seat || position < usize::from(self.state.turn)
    }

    /// A player as this seat knows it.
    pub fn player(&self, p: PlayerId) -> PlayerSeen<'a> {
        let pl = &self.state.players[p];
        let hand = if p == self.seat { Hand::Own(&pl.hand) } else { Hand::Hidden(pl.hand.len()) };
        // In a Prime Time Round the player's order is known once both
        // Running Orders are full; a card is known with its position.
        let known = if p == self.seat {
            pl.running_order.len()
        } else if self.state.running_orders.is_empty() {
            pl.running_order.len().min(usize::from(self.state.turn))
        } else {
            self.prime_time_known(p)
        };
        PlayerSeen {
            team: &pl.team,
            hand,
            deck: pl.deck.len(),
            discard: &pl.discard,
            victory_points: pl.victory_points,
            frags: pl.frags,
            running_order: &pl.running_order[..known.min(pl.running_order.len())],
            face_down: pl.running_order.len() - known.min(pl.running_order.len()),
            zone: &pl.zone,
        }
    }

    /// How many of `p`'s Prime Time Initiative cards, in activation order,
    /// this seat has seen: those in the positions the Turns revealed.
    fn prime_time_known(&self, p: PlayerId) -> usize {
        let revealed = usize::from(self.state.turn).min(self.state.running_orders.first().map_or(0, Vec::len));
        let mut n = 0;
        for i in 0..revealed {
            for order in &self.state.running_orders {
                if let Some(c) = &order[i] {
                    if self.unit(c).is_some_and(|u| u.owner == p) {
                        n += 1;
                    }
                }
            }
        }
        n
    }

    /// Every player as this seat knows it, by seat.
    pub fn players(&self) -> Vec<(PlayerId, PlayerSeen<'a>)> {
        self.table().seats().map(|p| (p, self.player(p))).collect()
    }

    /// The two Running Orders of a Prime Time Round (`001 § Round`), as
    /// this seat knows them; empty in a 2-player game.
    pub fn running_orders(&self) -> Vec<Vec<Placement<'a>>> {
        self.state
            .running_orders
            .iter()
            .map(|order| {
                order
                    .iter()
                    .enumerate()
                    .map(|(i, slot)| match slot {
                        None => Placement::Empty,
                        Some(c) => {
                            let owner = self.unit(c).map_or(self.seat, |u| u.owner);
                            if self.revealed(owner, i) { Placement::Up(c) } else { Placement::FaceDown(owner) }
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// The Objective cards in play, when the game has them.
    pub fn objectives(&self) -> Option<ObjectivesSeen<'a>> {
        let o = self.state.objectives.as_ref()?;
        Some(ObjectivesSeen {
            deck: o.deck.len(),
            available: &o.available,
            discard: &o.discard,
            hidden: o.hidden.get(self.seat.index()).map_or(&[], |h| h.as_slice()),
            hidden_counts: o.hidden.iter().map(Vec::len).collect(),
        })
    }

    /// The seat's own hidden Objective cards (`001 § Objective Cards (Additional Rule)`).
    pub fn hidden_objectives(&self) -> &'a [Id] {
        self.state.objectives.as_ref().and_then(|o| o.hidden.get(self.seat.index())).map_or(&[], |h| h.as_slice())
    }

    /// How many events this view holds.
    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// The events, each as this seat knows it ([`Event::seen_by`]): its
    /// `Display` is the narrative line, its [`SeenBy::event`] the event when
    /// it is wholly public to the seat.
    pub fn events(&self) -> impl ExactSizeIterator<Item = SeenBy<'a>> + 'a {
        let seat = self.seat;
        self.events.iter().map(move |e| e.seen_by(seat))
    }

    fn minion_card(&self, id: &str) -> Option<&'a model::Minion> {
        let m = self.unit(id)?.minion?;
        self.content.characters.get(&m.controller)?.value.minions.iter().find(|c| c.id == m.card)
    }

    /// The Actions printed on a unit's card (a Minion's on its Controller's card).
    pub fn actions_of(&self, id: &str) -> &'a [Action] {
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

    /// Everything this seat knows, as JSON: the units, the public figures
    /// and each player as [`View::player`] gives it. Two games that differ
    /// only in what the seat may not know give the same JSON.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "seat": self.seat,
            "scenario": self.scenario(),
            "round": self.round(),
            "turn": self.turn(),
            "underdog": self.underdog(),
            "units": self.units().collect::<Vec<_>>(),
            "scoring_zones": self.scoring_zones(),
            "counters": self.counters(),
            "scored": self.scored(),
            "active": self.active(),
            "over": self.is_over(),
            "smoke": self.smoke(),
            "special_spaces": self.special_spaces(),
            "optional_rules": self.optional_rules(),
            "projectile_deck": self.projectile_deck(),
            "players": self.players().into_iter().map(|(_, p)| p).collect::<Vec<_>>(),
            "running_orders": self.running_orders(),
            "objectives": self.objectives(),
            "events": self.events().map(|e| e.to_string()).collect::<Vec<_>>(),
        })
    }
}
