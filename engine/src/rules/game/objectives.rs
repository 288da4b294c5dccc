//! The Objectives Deck (`001 § Objectives Deck`, `§ Preparation and
//! Objectives Deck Use`): building and shuffling it, the four available cards
//! (no more than 2 of a colour), the discard deck and its reshuffle, Prime
//! Time's discard after the End of Match Check, the Deployment Zones barred by
//! available blue cards; and the hidden objectives of the additional rule
//! (`001 § Objective Cards (Additional Rule)`). Claiming: `objectives_claim.rs`.

use super::optional::OptionalRule;
use super::*;
use model::{ObjectiveColour, ObjectiveRequirement, ZoneControl};

/// Available Objective cards (`001 § Preparation and Objectives Deck Use`:
/// "draw the first 4 cards and place them face up in line").
const AVAILABLE: usize = 4;

/// Most cards of one colour available at once.
const PER_COLOUR: usize = 2;

/// The hidden Objective cards a player holds (`001 § Objective Cards
/// (Additional Rule)`: "each player will have 2 Objective cards").
const HIDDEN: usize = 2;

impl<'a> Game<'a> {
    /// An Objective card by id.
    pub(super) fn objective_card(&self, id: &str) -> Option<&'a model::Objective> {
        let content: &'a Content = self.content;
        content.objectives.get(id).map(|e| &e.value)
    }

    /// The colour of a card.
    pub(super) fn objective_colour(&self, id: &str) -> Option<ObjectiveColour> {
        self.objective_card(id).map(|o| o.family)
    }

    /// Whether the game plays hidden objectives.
    pub(super) fn hidden_objectives(&self) -> bool {
        self.state.optional_rules.contains(&OptionalRule::HiddenObjectives)
    }

    /// Whether the Scenario uses the Objectives Deck (`objectives_deck`).
    pub(super) fn uses_objectives_deck(&self) -> bool {
        self.scenario().objectives_deck
    }

    /// "Shuffle all Objective cards to build the Objectives Deck" (`001 §
    /// Preparation and Objectives Deck Use`): every loaded card with a
    /// requirement, `count` copies each, shuffled with the game's RNG.
    pub(in crate::rules) fn build_objectives_deck(&mut self) {
        let mut deck: Vec<Id> = Vec::new();
        for e in self.content.objectives.values().filter(|e| e.value.requirement.is_some()) {
            deck.extend(std::iter::repeat_n(e.value.id, e.value.count as usize));
        }
        shuffle(&mut deck, &mut self.state.rng);
        self.state.objectives = Some(ObjectivesDeck { deck, ..ObjectivesDeck::default() });
    }

    /// Before deploying, with the Scenario's `objectives_deck`: build the deck
    /// and draw the 4 available cards.
    pub(super) fn prepare_objectives_deck(&mut self) {
        if !self.uses_objectives_deck() {
            return;
        }
        if self.state.objectives.is_none() {
            self.build_objectives_deck();
        }
        self.refill_objectives();
    }

    /// Draw the top card; an empty deck is rebuilt from the discard deck,
    /// shuffled. `None` when both are empty.
    fn draw_objective(&mut self) -> Option<Id> {
        let deck = self.state.objectives.as_mut()?;
        if deck.deck.is_empty() {
            if deck.discard.is_empty() {
                return None;
            }
            let mut cards = std::mem::take(&mut deck.discard);
            shuffle(&mut cards, &mut self.state.rng);
            let n = cards.len();
            self.state.objectives.as_mut().expect("deck").deck = cards;
            self.emit(Event::ObjectivesReshuffled { cards: n });
        }
        self.state.objectives.as_mut()?.deck.pop()
    }

    /// Discard an Objective card, with the reason the narrative gives.
    pub(super) fn discard_objective(&mut self, card: Id, reason: &str) {
        if let Some(deck) = self.state.objectives.as_mut() {
            deck.discard.push(card);
        }
        self.emit(Event::ObjectiveDiscarded { card, reason: reason.to_string() });
    }

    /// Draw until 4 cards are available: a card of a colour that already has
    /// 2 available is discarded and another drawn (`001 § Preparation and
    /// Objectives Deck Use`). Stops when no card is left to draw, or when
    /// every card left is of a full colour (rulings R64).
    pub(super) fn refill_objectives(&mut self) {
        let Some(deck) = self.state.objectives.as_mut() else { return };
        deck.refill_pending = false;
        let mut misses = 0;
        while self.state.objectives.as_ref().is_some_and(|d| d.available.len() < AVAILABLE) {
            let total = self.state.objectives.as_ref().map_or(0, |d| d.deck.len() + d.discard.len());
            if misses > total {
                break;
            }
            let Some(card) = self.draw_objective() else { break };
            let colour = self.objective_colour(&card);
            let same = {
                let available = &self.state.objectives.as_ref().expect("deck").available;
                available.iter().filter(|c| self.objective_colour(c) == colour).count()
            };
            if same >= PER_COLOUR {
                misses += 1;
                let name = colour.map_or("?", |c| c.name());
                self.discard_objective(card, &format!("2 {name} cards are available already"));
                continue;
            }
            misses = 0;
            self.state.objectives.as_mut().expect("deck").available.push(card);
            self.emit(Event::ObjectiveDrawn { card, colour: colour.map_or("?", |c| c.name()).to_string() });
        }
    }

    /// After an Activation: the replacement of a claimed red or orange card
    /// ("A new Objective card must be drawn immediately after finishing the
    /// active Character's Activation", `001 § Claiming Objective Cards`).
    pub(super) fn objectives_after_activation(&mut self) {
        if self.state.objectives.as_ref().is_some_and(|d| d.refill_pending) && self.uses_objectives_deck() {
            self.refill_objectives();
        }
    }

    /// The Deployment Zones shown on the available blue cards: "Characters
    /// cannot return to the Bench, nor can they be deployed in a Deployment
    /// Zone shown in an available Objective card" (`001 § Controlling a
    /// Deployment Zone`; the Central Zone for `central-and-other`, rulings R63).
    pub(super) fn barred_zones(&self) -> Vec<Id> {
        let Some(deck) = self.state.objectives.as_ref() else { return Vec::new() };
        let mut out = Vec::new();
        for card in &deck.available {
            match self.objective_card(card).and_then(|o| o.requirement.as_ref()) {
                Some(ObjectiveRequirement::Control { control: ZoneControl::CentralAndOther, .. }) => {
                    out.extend(self.central_zones());
                }
                Some(ObjectiveRequirement::Control { zones, .. }) => out.extend(zones.iter().cloned()),
                _ => {}
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The map's Central Zones.
    pub(super) fn central_zones(&self) -> Vec<Id> {
        self.board.zones.iter().filter(|(_, (k, _))| *k == model::ZoneKind::Central).map(|(z, _)| *z).collect()
    }

    /// "At the end of the End of Match Check step, during the Objectives
    /// Phase, Prime Time may discard any amount of Objective cards. Prime
    /// Time draws as many Objective cards as they require to have 4 available
    /// cards once again" (`001 § Preparation and Objectives Deck Use`).
    pub(super) fn prime_time_objective_discard(&mut self) {
        if !self.uses_objectives_deck() || self.state.objectives.is_none() {
            return;
        }
        let pt = self.state.underdog;
        let mut discarded = false;
        loop {
            let available = self.state.objectives.as_ref().map(|d| d.available.clone()).unwrap_or_default();
            if available.is_empty() {
                break;
            }
            let options: Vec<Choice> =
                std::iter::once(Choice::Done).chain(available.iter().map(|c| Choice::Pick { id: *c })).collect();
            let pick = self.decide(
                pt,
                DecisionKind::Objective,
                None,
                format!("{}: discard an available Objective card?", self.marker_name()),
                options,
            );
            let Choice::Pick { id } = pick else { break };
            let deck = self.state.objectives.as_mut().expect("deck");
            if let Some(i) = deck.available.iter().position(|c| *c == id) {
                deck.available.remove(i);
            }
            self.discard_objective(id, &format!("{} ({pt}) discards it", self.marker_name()));
            discarded = true;
        }
        if discarded {
            self.refill_objectives();
        }
    }

    /// Hidden objectives, before Team Presentation (`001 § Objective Cards
    /// (Additional Rule)`): deal 3 to each player, each keeps 1, hands one of
    /// the others to the player to the left and one to the player to the
    /// right, then keeps 1 of the 2 received; the rest is the Objective deck.
    /// The narrative names no hidden card.
    pub fn deal_hidden_objectives(&mut self) {
        if self.state.objectives.is_none() {
            self.build_objectives_deck();
        }
        let table = self.table();
        let n = table.len();
        let order = table.order_from(self.state.underdog);
        let mut dealt: Vec<Vec<Id>> = vec![Vec::new(); n];
        for _ in 0..3 {
            for p in &order {
                if let Some(c) = self.state.objectives.as_mut().and_then(|d| d.deck.pop()) {
                    dealt[p.index()].push(c);
                }
            }
        }
        let mut kept: Vec<Vec<Id>> = vec![Vec::new(); n];
        let mut passed: Vec<Vec<Id>> = vec![Vec::new(); n];
        for p in &order {
            self.emit(Event::Log { text: format!("{p} is dealt {} hidden Objective cards", dealt[p.index()].len()) });
        }
        for p in &order {
            let mut hand = std::mem::take(&mut dealt[p.index()]);
            if let Some(k) = self.pick_hidden(*p, &hand, "Hidden objectives: keep which Objective card?") {
                kept[p.index()].push(hand.remove(k));
            }
            let left = table.next_clockwise(*p);
            let right = PlayerId::seat((p.index() + n - 1) % n);
            if hand.len() == 2 {
                let prompt = format!("Hidden objectives: hand which Objective card to {left}, on your left?");
                let k = self.pick_hidden(*p, &hand, prompt).unwrap_or(0);
                let to_left = hand.remove(k);
                passed[left.index()].push(to_left);
                passed[right.index()].push(hand.remove(0));
            } else {
                passed[left.index()].extend(hand);
            }
            self.emit(Event::Log {
                text: format!("{p} keeps one hidden Objective card and hands one to {left} and one to {right}"),
            });
        }
        let mut unselected = Vec::new();
        for p in &order {
            let mut hand = std::mem::take(&mut passed[p.index()]);
            if let Some(k) =
                self.pick_hidden(*p, &hand, "Hidden objectives: keep which of the 2 Objective cards received?")
            {
                kept[p.index()].push(hand.remove(k));
            }
            unselected.extend(hand);
            self.emit(Event::Log { text: format!("{p} keeps a second hidden Objective card") });
        }
        // "gather all the cards that were not selected and shuffle them face
        // down, thus creating an Objective Deck": with the cards never dealt
        // (rulings R66).
        let deck = self.state.objectives.as_mut().expect("deck");
        deck.deck.extend(unselected);
        deck.hidden = kept;
        let mut cards = std::mem::take(&mut self.state.objectives.as_mut().expect("deck").deck);
        shuffle(&mut cards, &mut self.state.rng);
        self.state.objectives.as_mut().expect("deck").deck = cards;
    }

    /// A player's choice among hidden cards (only that player's cards are in
    /// the Decision): the index chosen.
    fn pick_hidden(
        &mut self,
        p: PlayerId,
        hand: &[Id],
        prompt: impl Into<std::borrow::Cow<'static, str>>,
    ) -> Option<usize> {
        if hand.is_empty() {
            return None;
        }
        let options: Vec<Choice> = hand.iter().map(|c| Choice::Pick { id: *c }).collect();
        let pick = self.decide(p, DecisionKind::Objective, None, prompt, options.clone());
        options.iter().position(|o| *o == pick)
    }

    /// A hidden card claimed: the player draws one from the Objective deck
    /// (`001 § Claiming Objective Cards (Additional Rule)`).
    pub(super) fn draw_hidden(&mut self, p: PlayerId) {
        let held = self.state.objectives.as_ref().and_then(|d| d.hidden.get(p.index())).map_or(0, Vec::len);
        if held >= HIDDEN {
            return;
        }
        let Some(card) = self.draw_objective() else { return };
        if let Some(h) = self.state.objectives.as_mut().and_then(|d| d.hidden.get_mut(p.index())) {
            h.push(card);
        }
        self.emit(Event::Log { text: format!("{p} draws a hidden Objective card") });
    }

    /// "Players may discard an Objective card at the end of the Round to draw
    /// a new one" (`001 § Claiming Objective Cards (Additional Rule)`): each
    /// player from Prime Time, after the Objectives Phase.
    pub(super) fn hidden_objectives_round_end(&mut self) {
        if !self.hidden_objectives() || self.state.objectives.is_none() {
            return;
        }
        for p in self.table().order_from(self.state.underdog) {
            let hand =
                self.state.objectives.as_ref().and_then(|d| d.hidden.get(p.index()).cloned()).unwrap_or_default();
            if hand.is_empty() {
                continue;
            }
            let options: Vec<Choice> =
                std::iter::once(Choice::Done).chain(hand.iter().map(|c| Choice::Pick { id: *c })).collect();
            let pick = self.decide(
                p,
                DecisionKind::Objective,
                None,
                "Hidden objectives: discard an Objective card to draw a new one?",
                options,
            );
            let Choice::Pick { id } = pick else { continue };
            if let Some(h) = self.state.objectives.as_mut().and_then(|d| d.hidden.get_mut(p.index())) {
                if let Some(i) = h.iter().position(|c| *c == id) {
                    h.remove(i);
                }
            }
            if let Some(d) = self.state.objectives.as_mut() {
                d.discard.push(id);
            }
            self.emit(Event::Log { text: format!("{p} discards a hidden Objective card") });
            self.draw_hidden(p);
        }
    }
}
