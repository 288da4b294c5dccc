//! What one seat may know of an Invictus game: the [`View`] every
//! controller is given.
//!
//! The state is a private field: a controller reaches it only through the
//! methods below. What they hide, by the conventions of a deck-builder
//! (`003 § Game Setup`, `003 § During Your Turn`):
//!
//! - another player's hand (Artifacts and the Boosts bought "to the hand",
//!   `003 § Financial Transactions`) and everybody's draw pile are counts;
//!   nobody sees the order of a draw pile, the Boost deck or the
//!   Reinforcement deck;
//! - the god board a player did not choose stays face down ("places both
//!   character boards facedown ... all players reveal their choice",
//!   `003 § Character Assignment`): the seat's own only.
//!
//! Health, Stamina, skill tokens, discard piles, the Charge Station,
//! Reinforcements, the marketplace piles and the discarded Boosts are on
//! the table for all to see.

use super::decision::Decision;
use super::event::Event;
use super::state::{BoostCard, Card, GameState, HeldBoost, Outcome, OwnedReinforcement, Token};
use crate::content::Content;
use crate::model::{BoostColour, Id, Skill};
use crate::rules::seats::PlayerId;
use serde::Serialize;
use std::collections::BTreeMap;

/// What the controller of one seat may look at.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    seat: PlayerId,
    state: &'a GameState,
    events: &'a [Event],
    /// The content.
    pub content: &'a Content,
}

/// Cards as one seat knows them: its own, or how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Hidden<'a, T> {
    /// The seat's own: the cards.
    Own(&'a [T]),
    /// Another player's: how many.
    Count(usize),
}

impl<T> Hidden<'_, T> {
    /// How many cards (public either way).
    pub fn len(&self) -> usize {
        match self {
            Hidden::Own(c) => c.len(),
            Hidden::Count(n) => *n,
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cards, when the seat may see them.
    pub fn cards(&self) -> Option<&[T]> {
        match self {
            Hidden::Own(c) => Some(c),
            Hidden::Count(_) => None,
        }
    }
}

/// One player as a seat knows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerSeen<'a> {
    /// The seat.
    pub seat: PlayerId,
    /// The team (0 or 1; in a free-for-all, the seat).
    pub team: usize,
    /// The god played.
    pub god: &'a Id,
    /// The god board not chosen: the seat's own only.
    pub other_god: Option<&'a Id>,
    /// Health now.
    pub health: i32,
    /// Maximum Health.
    pub max_health: i32,
    /// Stamina left.
    pub stamina: i32,
    /// Skill tokens by skill.
    pub tokens: &'a BTreeMap<Skill, Vec<Token>>,
    /// Cards in hand.
    pub hand: Hidden<'a, Card>,
    /// Boosts in hand.
    pub boosts: Hidden<'a, HeldBoost>,
    /// How many cards are in the draw pile.
    pub draw: usize,
    /// The discard pile.
    pub discard: &'a [Card],
    /// The Charge Station.
    pub charged: &'a [Card],
    /// Owned Reinforcements.
    pub reinforcements: &'a [OwnedReinforcement],
    /// Allies who have revived this player.
    pub revived_by: &'a [PlayerId],
    /// Defeated: out of the game.
    pub defeated: bool,
}

impl<'a> View<'a> {
    /// The view of `seat` (engine only).
    pub(crate) fn new(seat: PlayerId, state: &'a GameState, events: &'a [Event], content: &'a Content) -> View<'a> {
        View { seat, state, events, content }
    }

    /// Whose view this is.
    pub fn seat(&self) -> PlayerId {
        self.seat
    }

    /// How many seats.
    pub fn seats(&self) -> usize {
        self.state.players.len()
    }

    /// A player as this seat knows it.
    pub fn player(&self, p: PlayerId) -> PlayerSeen<'a> {
        let pl = self.state.player(p);
        let own = p == self.seat;
        PlayerSeen {
            seat: pl.seat,
            team: pl.team,
            god: &pl.god,
            other_god: if own { pl.other_god.as_ref() } else { None },
            health: pl.health,
            max_health: pl.max_health,
            stamina: pl.stamina,
            tokens: &pl.tokens,
            hand: if own { Hidden::Own(&pl.hand) } else { Hidden::Count(pl.hand.len()) },
            boosts: if own { Hidden::Own(&pl.boosts) } else { Hidden::Count(pl.boosts.len()) },
            draw: pl.draw.len(),
            discard: &pl.discard,
            charged: &pl.charged,
            reinforcements: &pl.reinforcements,
            revived_by: &pl.revived_by,
            defeated: pl.defeated,
        }
    }

    /// Every player, by seat.
    pub fn players(&self) -> impl Iterator<Item = PlayerSeen<'a>> + '_ {
        (0..self.seats()).map(move |s| self.player(PlayerId::seat(s)))
    }

    /// The seat of the player playing `god`.
    pub fn seat_of(&self, god: &str) -> Option<PlayerId> {
        self.state.seat_of(god)
    }

    /// Active enemies of `p`.
    pub fn enemies(&self, p: PlayerId) -> Vec<PlayerId> {
        self.state.enemies(p)
    }

    /// Active allies of `p`, not `p` itself.
    pub fn allies(&self, p: PlayerId) -> Vec<PlayerId> {
        self.state.allies(p)
    }

    /// The colours of `p`'s active Accuracy tokens.
    pub fn accuracy(&self, p: PlayerId) -> Vec<BoostColour> {
        self.state.accuracy(p)
    }

    /// Whether `b` is within `a`'s Range (`003 § Range`).
    pub fn in_range(&self, a: PlayerId, b: PlayerId) -> bool {
        self.state.in_range(a, b)
    }

    /// Turns begun so far (game-wide).
    pub fn turn(&self) -> u32 {
        self.state.turn
    }

    /// Whose turn it is.
    pub fn active(&self) -> PlayerId {
        self.state.active
    }

    /// Whether a team has more than one player.
    pub fn team_game(&self) -> bool {
        self.state.team_game
    }

    /// The marketplace: Artifact copies left, by id.
    pub fn piles(&self) -> &'a BTreeMap<Id, u32> {
        &self.state.piles
    }

    /// How many Boosts are left in the Boost deck (over the Apocalypse card).
    pub fn boost_deck(&self) -> usize {
        self.state.boost_deck.len()
    }

    /// The Boost discard pile.
    pub fn boost_discard(&self) -> &'a [BoostCard] {
        &self.state.boost_discard
    }

    /// How many Reinforcements are left in their deck.
    pub fn reinforcement_deck(&self) -> usize {
        self.state.reinforcement_deck.len()
    }

    /// The Reinforcement discard pile.
    pub fn reinforcement_discard(&self) -> &'a [Id] {
        &self.state.reinforcement_discard
    }

    /// Whether revivals are still allowed.
    pub fn revivals_allowed(&self) -> bool {
        self.state.revivals_allowed
    }

    /// Apocalypses so far.
    pub fn apocalypses(&self) -> u32 {
        self.state.apocalypses
    }

    /// How the game ended, once over.
    pub fn outcome(&self) -> Option<&'a Outcome> {
        self.state.outcome.as_ref()
    }

    /// How many events this view holds.
    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// The events as this seat reads them, one line each ([`Event::seen_by`]).
    pub fn narrative(&self) -> impl ExactSizeIterator<Item = String> + 'a {
        let seat = self.seat;
        self.events.iter().map(move |e| e.seen_by(seat))
    }

    /// Everything this seat knows, as JSON. Two games that differ only in
    /// what the seat may not know give the same JSON.
    pub fn to_json(&self, decision: Option<&Decision>) -> serde_json::Value {
        serde_json::json!({
            "seat": self.seat,
            "turn": self.turn(),
            "active": self.active(),
            "players": self.players().collect::<Vec<_>>(),
            "piles": self.piles(),
            "boost_deck": self.boost_deck(),
            "boost_discard": self.boost_discard(),
            "reinforcement_deck": self.reinforcement_deck(),
            "reinforcement_discard": self.reinforcement_discard(),
            "revivals_allowed": self.revivals_allowed(),
            "apocalypses": self.apocalypses(),
            "outcome": self.outcome(),
            "decision": decision,
            "events": self.narrative().collect::<Vec<_>>(),
        })
    }
}
