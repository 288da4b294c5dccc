//! The state of an Invictus game: players (god, team, Health, Stamina, skill
//! tokens, hand, draw pile, discard pile, Charge Station, Boosts,
//! Reinforcements) and the marketplace (Artifact piles, Boost deck over the
//! Apocalypse card, Reinforcement deck) (`003 § Game Setup`).

use crate::model::{BoostColour, Id, Skill};
use crate::rules::seats::PlayerId;
use serde::Serialize;
use std::collections::BTreeMap;

/// A card in a player's hand, draw pile, discard pile or Charge Station.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(tag = "card", content = "id", rename_all = "kebab-case")]
pub enum Card {
    /// An Artifact, by id.
    Artifact(Id),
    /// A counterfeit Boost held as an Artifact (Heavy Clinker): it counts
    /// towards the 5 Artifacts of a hand and, destroyed, goes to the Boost
    /// discard pile (`003 § What do I do with destroyed Artifacts?`).
    Counterfeit(BoostCard),
}

impl Card {
    /// The id of the Artifact or Boost.
    pub fn id(&self) -> &str {
        match self {
            Card::Artifact(id) => id,
            Card::Counterfeit(b) => &b.id,
        }
    }
}

/// One Boost card: which Boost, and the colour printed on this copy.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct BoostCard {
    /// Boost id.
    pub id: Id,
    /// This copy's colour.
    pub colour: BoostColour,
}

/// A Boost in a player's hand, and from which turn it may be played
/// (Future Turn Boosts wait for a later turn, `003 § Boosts`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeldBoost {
    /// The card.
    pub card: BoostCard,
    /// The game turn it was obtained in.
    pub obtained_turn: u32,
}

/// A skill token on a character board: active or inactive, and an Accuracy
/// token's colour (`003 § Tokens: Active vs Inactive`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Token {
    /// Whether it counts.
    pub active: bool,
    /// An Accuracy token's colour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<BoostColour>,
    /// Given by a Reinforcement (the 4th tier): returned with it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub from_reinforcement: bool,
}

/// An owned Reinforcement and the successful attacks it has taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OwnedReinforcement {
    /// Reinforcement id.
    pub id: Id,
    /// Successful attacks on it so far (white tokens).
    pub hits: u8,
}

/// One player.
#[derive(Debug, Clone, Serialize)]
pub struct Player {
    /// The seat.
    pub seat: PlayerId,
    /// The team (0 or 1; in a free-for-all, the seat).
    pub team: usize,
    /// The god played.
    pub god: Id,
    /// The god board not chosen (kept face down).
    pub other_god: Option<Id>,
    /// Health now.
    pub health: i32,
    /// Maximum Health.
    pub max_health: i32,
    /// Stamina left until the end of the next own turn.
    pub stamina: i32,
    /// Skill tokens by skill, 1st tier first.
    pub tokens: BTreeMap<Skill, Vec<Token>>,
    /// Cards in hand (Artifacts and counterfeits).
    pub hand: Vec<Card>,
    /// Boosts in hand.
    pub boosts: Vec<HeldBoost>,
    /// Draw pile, top last.
    pub draw: Vec<Card>,
    /// Discard pile.
    pub discard: Vec<Card>,
    /// Charge Station.
    pub charged: Vec<Card>,
    /// Owned Reinforcements.
    pub reinforcements: Vec<OwnedReinforcement>,
    /// Allies who have revived this player (each at most once, `003 § Revival`).
    pub revived_by: Vec<PlayerId>,
    /// Defeated: out of the game.
    pub defeated: bool,
}

/// Who won.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Outcome {
    /// A team (or, in a free-for-all, a player's seat as team) defeated every enemy.
    Team(usize),
    /// Every player was defeated at once (an Apocalypse), or the turn limit passed.
    NoWinner,
}

/// The whole state of a game.
#[derive(Debug, Clone, Serialize)]
pub struct GameState {
    /// Players by seat, clockwise.
    pub players: Vec<Player>,
    /// Whether a team has more than one player (Team Symbol Boosts, `003 § Boosts`).
    pub team_game: bool,
    /// Artifact piles of the marketplace: copies left by id.
    pub piles: BTreeMap<Id, u32>,
    /// The Boost deck over the Apocalypse card, top last.
    pub boost_deck: Vec<BoostCard>,
    /// The Boost discard pile.
    pub boost_discard: Vec<BoostCard>,
    /// The Reinforcement deck, top last.
    pub reinforcement_deck: Vec<Id>,
    /// The Reinforcement discard pile.
    pub reinforcement_discard: Vec<Id>,
    /// Whether revivals are still allowed (none after an Apocalypse).
    pub revivals_allowed: bool,
    /// Apocalypses so far.
    pub apocalypses: u32,
    /// Turns begun so far (game-wide).
    pub turn: u32,
    /// Whose turn it is.
    pub active: PlayerId,
    /// Whether the active player has charged (one per turn).
    pub charged_this_turn: bool,
    /// Whether the active player has discharged (one per turn).
    pub discharged_this_turn: bool,
    /// Set when the active player's turn is over early (revived or defeated in it).
    pub turn_over: bool,
    /// The end of the game.
    pub outcome: Option<Outcome>,
}

impl GameState {
    /// The whole state for people, one line each (`arena run --state`, the
    /// umpire's print: every hand and pile as cards, a draw pile top last):
    /// the turn, each player (god, team, Health, Stamina, skill tokens,
    /// hand, Boosts, piles, Charge Station, Reinforcements), the marketplace.
    pub fn summary(&self) -> Vec<String> {
        let list = |v: Vec<String>| if v.is_empty() { "-".to_string() } else { v.join(", ") };
        let cards = |v: &[Card]| list(v.iter().map(|c| c.id().to_string()).collect());
        let mut out = vec![format!(
            "turn {}; active: {}; revivals {}; Apocalypses {}{}",
            self.turn,
            self.active,
            if self.revivals_allowed { "allowed" } else { "no longer allowed" },
            self.apocalypses,
            match &self.outcome {
                Some(Outcome::Team(t)) => format!("; team {} won", t + 1),
                Some(Outcome::NoWinner) => "; over, no winner".into(),
                None => String::new(),
            }
        )];
        for p in &self.players {
            let tokens: Vec<String> = p
                .tokens
                .iter()
                .map(|(skill, ts)| {
                    let active = ts.iter().filter(|t| t.active).count();
                    let colours: Vec<String> = ts
                        .iter()
                        .filter_map(|t| {
                            t.colour.map(|c| {
                                if t.active { c.as_str().to_string() } else { format!("{} inactive", c.as_str()) }
                            })
                        })
                        .collect();
                    let colours = if colours.is_empty() { String::new() } else { format!(" ({})", colours.join(", ")) };
                    format!("{skill:?} {active}/{}{colours}", ts.len())
                })
                .collect();
            out.push(format!(
                "{} {} (team {}){}{}: {}/{} HP, Stamina {}; tokens {}; hand {}; Boosts {}; draw (top last) {}; discard {}; Charge Station {}; Reinforcements {}",
                p.seat,
                p.god,
                p.team + 1,
                if p.defeated { " defeated" } else { "" },
                if p.revived_by.is_empty() {
                    String::new()
                } else {
                    format!(", revived by {}", list(p.revived_by.iter().map(ToString::to_string).collect()))
                },
                p.health,
                p.max_health,
                p.stamina,
                list(tokens),
                cards(&p.hand),
                list(p.boosts.iter().map(|b| format!("{}:{}", b.card.id, b.card.colour.as_str())).collect()),
                cards(&p.draw),
                cards(&p.discard),
                cards(&p.charged),
                list(p.reinforcements.iter().map(|r| format!("{} ({} hits)", r.id, r.hits)).collect()),
            ));
        }
        out.push(format!(
            "marketplace: {}; Boost deck {}; Boost discard {}; Reinforcement deck {}",
            list(self.piles.iter().map(|(id, n)| format!("{id} x{n}")).collect()),
            self.boost_deck.len(),
            list(self.boost_discard.iter().map(|b| format!("{}:{}", b.id, b.colour.as_str())).collect()),
            self.reinforcement_deck.len()
        ));
        out
    }

    /// The player in a seat.
    pub fn player(&self, p: PlayerId) -> &Player {
        &self.players[p.index()]
    }

    /// The player in a seat, to change.
    pub fn player_mut(&mut self, p: PlayerId) -> &mut Player {
        &mut self.players[p.index()]
    }

    /// The seat of the player playing `god`.
    pub fn seat_of(&self, god: &str) -> Option<PlayerId> {
        self.players.iter().find(|p| p.god == god).map(|p| p.seat)
    }

    /// Players not defeated, clockwise from seat 0.
    pub fn active_seats(&self) -> Vec<PlayerId> {
        self.players.iter().filter(|p| !p.defeated).map(|p| p.seat).collect()
    }

    /// Active enemies of `p`.
    pub fn enemies(&self, p: PlayerId) -> Vec<PlayerId> {
        let team = self.player(p).team;
        self.players.iter().filter(|q| !q.defeated && q.team != team).map(|q| q.seat).collect()
    }

    /// Active allies of `p`, not `p` itself.
    pub fn allies(&self, p: PlayerId) -> Vec<PlayerId> {
        let team = self.player(p).team;
        self.players.iter().filter(|q| !q.defeated && q.team == team && q.seat != p).map(|q| q.seat).collect()
    }

    /// Active tokens of a skill.
    pub fn active_tokens(&self, p: PlayerId, skill: Skill) -> usize {
        self.player(p).tokens.get(&skill).map_or(0, |t| t.iter().filter(|t| t.active).count())
    }

    /// The colours of `p`'s active Accuracy tokens.
    pub fn accuracy(&self, p: PlayerId) -> Vec<BoostColour> {
        self.player(p)
            .tokens
            .get(&Skill::Accuracy)
            .map(|t| t.iter().filter(|t| t.active).filter_map(|t| t.colour).collect())
            .unwrap_or_default()
    }

    /// `p`'s Range: one seat per active Range token (`003 § Range`).
    pub fn range(&self, p: PlayerId) -> usize {
        self.active_tokens(p, Skill::Range)
    }

    /// Seats between two active players around the ring of players not
    /// defeated, the shorter way (`003 § Range`: "When a player is defeated,
    /// proximity between players is reduced"). `None` if either is defeated.
    pub fn distance(&self, a: PlayerId, b: PlayerId) -> Option<usize> {
        let ring = self.active_seats();
        let i = ring.iter().position(|s| *s == a)?;
        let j = ring.iter().position(|s| *s == b)?;
        let n = ring.len();
        let d = (j + n - i) % n;
        Some(d.min(n - d))
    }

    /// Whether `b` is within `a`'s Range.
    pub fn in_range(&self, a: PlayerId, b: PlayerId) -> bool {
        self.distance(a, b).is_some_and(|d| d >= 1 && d <= self.range(a))
    }

    /// The next active player clockwise after `p`.
    pub fn next_after(&self, p: PlayerId) -> PlayerId {
        let n = self.players.len();
        (1..=n).map(|k| PlayerId::seat((p.index() + k) % n)).find(|s| !self.player(*s).defeated).unwrap_or(p)
    }

    /// Teams with an active player.
    pub fn teams_left(&self) -> Vec<usize> {
        let mut t: Vec<usize> = self.players.iter().filter(|p| !p.defeated).map(|p| p.team).collect();
        t.sort();
        t.dedup();
        t
    }
}
