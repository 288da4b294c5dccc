//! Setting up a situation's position: its Characters, Minions, Scenario
//! counters, Special Space markers and Running Projectiles, each refused with
//! the key concerned ([`SetupError`]) when it cannot be set up.

use super::game::Game;
use super::geometry::Hex;
use super::seats::PlayerId;
use super::situation::{SetupError, Situation, mean};
use super::state::{Location, SpecialSpaceMarker, Token, TokenSide, Unit};
use crate::model::Id;
use std::collections::BTreeMap;

impl Game<'_> {
    /// The situation's Characters: spaces, Damage, Action and Movement Points, States.
    pub(super) fn place_situation_characters(&mut self, sit: &Situation) -> Result<(), SetupError> {
        let content = self.content;
        for (i, c) in sit.character.iter().enumerate() {
            let at = |key: &str| format!("/character/{i}/{key}");
            let loc = match c.space {
                Some([q, r]) => {
                    let h = Hex::new(q, r);
                    if !self.is_free(h) {
                        return Err(SetupError::at(
                            at("space"),
                            format!("{}: [{q}, {r}] {}", c.id, self.why_not_free(h)),
                        ));
                    }
                    Location::Space(h)
                }
                None if c.infirmary => Location::Infirmary,
                None => Location::Bench,
            };
            let hp = content.characters[&c.id].value.hit_points;
            if c.damage >= hp {
                return Err(SetupError::at(
                    at("damage"),
                    format!("{}: {} Damage would put it in the Infirmary", c.id, c.damage),
                ));
            }
            let u = self.unit_mut(&c.id).expect("unit");
            u.location = loc;
            u.damage = c.damage;
            u.action_points = c.action_points.unwrap_or(0);
            u.movement_points = c.movement_points;
            u.until_end_of_round = c.round_effects.clone();
            // Who imposed each token: `imposed_by`, checked against the tokens.
            let mut sources: BTreeMap<&Id, std::collections::VecDeque<Id>> = BTreeMap::new();
            for (st, by) in &c.imposed_by {
                let key = format!("imposed_by/{st}");
                let n = c.states.iter().chain(&c.blue_states).filter(|s| *s == st).count();
                if n == 0 {
                    return Err(SetupError::at(
                        at(&key),
                        format!("{}: `imposed_by` names `{st}`, which is not among its `states`", c.id),
                    ));
                }
                for who in by.imposers() {
                    if !sit.character.iter().any(|o| o.id == *who) {
                        let ids: Vec<String> = sit.character.iter().map(|o| o.id.clone()).collect();
                        return Err(SetupError::at(
                            at(&key),
                            format!("{}: `imposed_by`: `{who}` is not in the situation{}", c.id, mean(who, &ids)),
                        ));
                    }
                }
                let list =
                    by.sources(n).map_err(|e| SetupError::at(at(&key), format!("{}: `imposed_by` {st}: {e}", c.id)))?;
                sources.insert(st, list.into());
            }
            let states = c.states.iter().enumerate().map(|(k, s)| (s, TokenSide::Red, format!("states/{k}")));
            let blue = c.blue_states.iter().enumerate().map(|(k, s)| (s, TokenSide::Blue, format!("blue_states/{k}")));
            for (st, side, key) in states.chain(blue) {
                if !content.states.contains_key(st) {
                    return Err(SetupError::at(at(&key), format!("{}: no State `{st}`", c.id)));
                }
                let source = if st == "taunted" {
                    c.taunted_by.clone()
                } else {
                    sources.get_mut(st).and_then(std::collections::VecDeque::pop_front)
                };
                u.tokens.push(Token { state: st.clone(), side, source, choice: None });
            }
            if let Some(by) = &c.taunted_by {
                if !c.states.iter().chain(&c.blue_states).any(|s| s == "taunted") {
                    return Err(SetupError::at(
                        at("taunted_by"),
                        format!("{}: `taunted_by` needs the Taunted State in `states`", c.id),
                    ));
                }
                if !sit.character.iter().any(|o| o.id == *by) {
                    return Err(SetupError::at(
                        at("taunted_by"),
                        format!("{}: `taunted_by`: `{by}` is not in the situation", c.id),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The situation's Minions, deployed by their Controllers.
    pub(super) fn place_situation_minions(&mut self, sit: &Situation) -> Result<(), SetupError> {
        let content = self.content;
        for (i, m) in sit.minion.iter().enumerate() {
            let [q, r] = m.space;
            let h = Hex::new(q, r);
            if !self.is_free(h) {
                return Err(SetupError::at(
                    format!("/minion/{i}/space"),
                    format!("minion {}: [{q}, {r}] {}", m.card, self.why_not_free(h)),
                ));
            }
            if !sit.character.iter().any(|c| c.id == m.controller) {
                return Err(SetupError::at(
                    format!("/minion/{i}/controller"),
                    format!("minion {}: its Controller `{}` is not in the situation", m.card, m.controller),
                ));
            }
            let id = self
                .deploy_minion(&m.controller, &m.card, h)
                .map_err(|e| SetupError::at(format!("/minion/{i}/card"), format!("minion {}: {e}", m.card)))?;
            let hp = self.card(&id).hit_points;
            if m.damage >= hp {
                return Err(SetupError::at(
                    format!("/minion/{i}/damage"),
                    format!("{id}: {} Damage would remove it from the HexaDome", m.damage),
                ));
            }
            let u = self.unit_mut(&id).expect("minion");
            u.damage = m.damage;
            let states = m.states.iter().enumerate().map(|(k, s)| (s, TokenSide::Red, format!("states/{k}")));
            let blue = m.blue_states.iter().enumerate().map(|(k, s)| (s, TokenSide::Blue, format!("blue_states/{k}")));
            for (st, side, key) in states.chain(blue) {
                if !content.states.contains_key(st) {
                    return Err(SetupError::at(format!("/minion/{i}/{key}"), format!("{id}: no State `{st}`")));
                }
                u.tokens.push(Token { state: st.clone(), side, source: None, choice: None });
            }
        }
        Ok(())
    }

    /// The situation's Scenario counters, on what can hold one: a Character
    /// (or Minion) of the situation, a zone of the map, or `player N` of a
    /// player of the situation (what `game:add_counter` accepts).
    pub(super) fn situation_counters(&mut self, sit: &Situation, zones: &[String]) -> Result<(), SetupError> {
        let players = self.state.players.table().len();
        for (i, c) in sit.counters.iter().enumerate() {
            let player = c.on.strip_prefix("player ").and_then(|n| n.parse::<usize>().ok());
            let holds = self.unit(&c.on).is_some()
                || zones.contains(&c.on)
                || player.is_some_and(|n| (1..=players).contains(&n));
            if !holds {
                let mut known: Vec<String> = sit.character.iter().map(|c| c.id.clone()).collect();
                known.extend(zones.iter().cloned());
                known.extend((1..=players).map(|n| format!("player {n}")));
                let help = mean(&c.on, &known);
                return Err(SetupError::at(
                    format!("/counters/{i}/on"),
                    format!(
                        "counter `{}` on `{}`: that is not a Character of the situation, a zone of the map, nor a player (`player 1` to `player {players}`){help}",
                        c.counter, c.on
                    ),
                ));
            }
            if c.value < 0 {
                return Err(SetupError::at(
                    format!("/counters/{i}/value"),
                    format!("counter `{}` on `{}`: {} is below 0", c.counter, c.on, c.value),
                ));
            }
            if c.value > 0 {
                self.state.counters.entry(c.on.clone()).or_default().insert(c.counter.clone(), c.value);
            }
        }
        Ok(())
    }

    /// The situation's Special Space markers and Running Projectiles.
    pub(super) fn place_situation_markers(&mut self, sit: &Situation) -> Result<(), SetupError> {
        let content = self.content;
        for (i, m) in sit.special_spaces.iter().enumerate() {
            let at = |key: &str| format!("/special_spaces/{i}/{key}");
            if !content.special_spaces.contains_key(&m.marker) {
                return Err(SetupError::at(at("marker"), format!("no Special Space marker `{}`", m.marker)));
            }
            let space = Hex::new(m.space[0], m.space[1]);
            if self.state.special_spaces.iter().any(|x| x.space == space) {
                return Err(SetupError::at(
                    at("space"),
                    format!(
                        "two Special Space markers on [{}, {}]: a Space cannot have two (001 § Special Spaces)",
                        m.space[0], m.space[1]
                    ),
                ));
            }
            if !self.board.on_board(space)
                || self.board.blocked.contains(&space)
                || self.board.barriers.contains(&space)
            {
                return Err(SetupError::at(
                    at("space"),
                    format!(
                        "Special Space marker {}: [{}, {}] is not a space of the HexaDome",
                        m.marker, m.space[0], m.space[1]
                    ),
                ));
            }
            self.state.special_spaces.push(SpecialSpaceMarker {
                space,
                marker: m.marker.clone(),
                revealed: m.revealed,
            });
        }
        for (i, r) in sit.running_projectiles.iter().enumerate() {
            let at = |key: &str| format!("/running_projectiles/{i}/{key}");
            if !content.running_projectiles.contains_key(&r.marker) {
                return Err(SetupError::at(at("marker"), format!("no Running Projectile `{}`", r.marker)));
            }
            if !(1..=self.table().len() as u8).contains(&r.player) {
                return Err(SetupError::at(
                    at("player"),
                    format!("Running Projectile {}: player must be a seat of the table", r.marker),
                ));
            }
            let space = Hex::new(r.space[0], r.space[1]);
            if !self.is_free(space) {
                return Err(SetupError::at(
                    at("space"),
                    format!(
                        "Running Projectile {}: [{}, {}] {}",
                        r.marker,
                        r.space[0],
                        r.space[1],
                        self.why_not_free(space)
                    ),
                ));
            }
            self.state.projectiles_deployed += 1;
            let id = format!("running-projectile-{}", self.state.projectiles_deployed);
            let owner = PlayerId::seat((r.player.clamp(1, self.table().len() as u8) - 1) as usize);
            self.state
                .units
                .push(Unit { projectile: Some(r.marker.clone()), ..Unit::new(id, owner, Location::Space(space)) });
        }
        Ok(())
    }
}

/// A situation's Objective cards (`001 § Objectives Deck`): card ids, copies
/// repeated.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SituationObjectives {
    /// The Objectives Deck, in the order the cards will be drawn (the first
    /// drawn first).
    #[serde(default)]
    pub deck: Vec<crate::model::Id>,
    /// The available cards, face up, in line.
    #[serde(default)]
    pub available: Vec<crate::model::Id>,
    /// The discard deck.
    #[serde(default)]
    pub discard: Vec<crate::model::Id>,
    /// Each player's hidden cards, in seat order (hidden objectives).
    #[serde(default)]
    pub hidden: Vec<Vec<crate::model::Id>>,
}

impl Game<'_> {
    /// The situation's Objective cards, each checked against the loaded
    /// cards; with none given, a Scenario that uses the deck gets it built
    /// and shuffled with the seed, and nothing available.
    pub(super) fn situation_objectives(&mut self, sit: &Situation) -> Result<(), SetupError> {
        let Some(o) = &sit.objectives else {
            if self.content.scenarios[&sit.scenario].value.objectives_deck || !sit.optional_rules.is_empty() {
                self.build_objectives_deck();
            }
            return Ok(());
        };
        let known: Vec<String> = self.content.objectives.keys().cloned().collect();
        let check = |key: &str, cards: &[crate::model::Id]| -> Result<(), SetupError> {
            match cards.iter().position(|c| !self.content.objectives.contains_key(c)) {
                Some(k) => Err(SetupError::at(
                    format!("/objectives/{key}/{k}"),
                    format!("no Objective card `{}`{}", cards[k], mean(&cards[k], &known)),
                )),
                None => Ok(()),
            }
        };
        check("deck", &o.deck)?;
        check("available", &o.available)?;
        check("discard", &o.discard)?;
        for (i, h) in o.hidden.iter().enumerate() {
            check(&format!("hidden/{i}"), h)?;
        }
        if o.hidden.len() > self.table().len() {
            return Err(SetupError::at("/objectives/hidden", "more hands of hidden objectives than players"));
        }
        let mut hidden = o.hidden.clone();
        hidden.resize(self.table().len(), Vec::new());
        self.state.objectives = Some(crate::rules::state::ObjectivesDeck {
            deck: o.deck.iter().rev().cloned().collect(),
            available: o.available.clone(),
            discard: o.discard.clone(),
            hidden,
            refill_pending: false,
        });
        Ok(())
    }
}
