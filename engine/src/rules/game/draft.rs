//! Seating the teams: each player's Characters and Minions as units, the
//! Draft of `001 § Draft` and the Tactics deck it builds (`001 §
//! Preparations`, 6. Tactics Deck Building), and "No!" taken out of the deck
//! for the hand (`001 § No!`).

use super::*;
use crate::model::Id;

/// The units of every player's team, in seat order, then each Controller's
/// Minions to the side until deployed (`002 § Controller`): `<minion>-<n>`,
/// numbered across the game so that ids stay unique. Characters begin on the
/// Bench until Deployment.
pub(super) fn seat_units(
    content: &Content,
    teams: &Seated<Vec<Id>>,
    units: &mut Vec<Unit>,
    minion_cards: &mut Vec<std::rc::Rc<model::Character>>,
) {
    let blank = |id: &Id, p: PlayerId| Unit::new(*id, p, Location::Bench);
    units.extend(teams.enumerate().flat_map(|(p, team)| team.iter().map(move |id| blank(id, p))));
    for (p, team) in teams.enumerate() {
        for c in team {
            let card = &content.characters[c].value;
            for m in &card.minions {
                let slot = minion_cards.len();
                minion_cards.push(std::rc::Rc::new(minion_card(card, m)));
                for _ in 0..m.count {
                    let mut n = 1;
                    let id = loop {
                        let id = format!("{}-{n}", m.id);
                        if !units.iter().any(|u| u.id == id) && !content.characters.contains_key(id.as_str()) {
                            break id;
                        }
                        n += 1;
                    };
                    let mut u = blank(&Id::from(&id), p);
                    u.location = Location::Aside;
                    u.minion = Some(MinionOf { card: m.id, controller: *c, slot });
                    units.push(u);
                }
            }
        }
    }
}

/// The card number of "No!" among the Standard Tactics (`000 § 3. Building
/// the Tactics Deck`: 009-018, No! is 015).
const NO_CARD: u32 = 15;

/// No! in hand (`001 § No!`): "Before shuffling the Tactics deck, each
/// player retrieves their "No!" card": the first Standard Tactic numbered 015
/// is taken out of `deck` and returned (none if the deck has none).
pub(super) fn retrieve_no<const N: usize>(content: &Content, deck: &mut IdList<N>) -> Vec<Id> {
    let is_no = |t: &Id| content.tactics.get(t).is_some_and(|c| c.value.standard && c.value.card == Some(NO_CARD));
    match deck.iter().position(is_no) {
        Some(i) => vec![deck.remove(i)],
        None => vec![],
    }
}

impl<'a> Game<'a> {
    /// The Draft (`001 § Draft`; at 2 players `000 § Setup`, Optional Rule:
    /// Draft: "players take turns to pick a Character for their team from a
    /// pool of all Characters. One randomly-chosen player picks a Character,
    /// then the opponent picks a Character. Repeat until both players have a
    /// four-Character team", which the same turn to the left gives, with
    /// 000's decks of two Tactics per Character): "build a deck with the Initiative cards of
    /// every available Character" (the Scenario's `characters`, else every
    /// loaded Character); "Pick one of the
    /// players at random" (the game's RNG); that player "secretly picks one
    /// card ... then hand[s] over the deck to the player to their left", and
    /// so on "until everyone has selected two Initiative cards" (the setup's
    /// team size: one in DeathMatch - Run 'N Shoot!). The picks are secret:
    /// they join the teams only when all are made ("all the selected cards
    /// are flipped"). Each player's picks are their team (docs/rulings.md
    /// R75), with the deck of `001 § Preparations`, 6. Tactics Deck
    /// Building: the four Tactics of each Character and the ten Standard
    /// Tactics.
    pub(super) fn draft(&mut self) -> Result<()> {
        let table = self.table();
        // "Every available Character": the Scenario's `characters` when it
        // names them (Run 'N Shoot!'s four), else every loaded one.
        let named = &self.content.scenarios[&self.state.scenario].value.characters;
        let mut cards: Vec<Id> = if named.is_empty() {
            self.content.characters.keys().cloned().collect()
        } else {
            named.iter().filter(|c| self.content.characters.contains_key(*c)).cloned().collect()
        };
        let wanted: usize = self.draft_sizes.iter().sum();
        if cards.len() < wanted {
            return Err(format!(
                "the Draft needs {wanted} Initiative cards, and {} Characters are loaded",
                cards.len()
            ));
        }
        let first = PlayerId::seat(self.state.rng.random_range(0..table.len()));
        self.emit(Event::Log { text: format!("{first} is drawn at random to begin the Draft") });
        let mut picks: Seated<Vec<Id>> = Seated::splat(table, Vec::new());
        let mut p = first;
        while picks.iter().map(Vec::len).sum::<usize>() < wanted {
            if picks[p].len() < self.draft_sizes[p] {
                let options: Vec<Choice> = cards.iter().map(|c| Choice::Pick { id: *c }).collect();
                let Choice::Pick { id } =
                    self.decide(p, DecisionKind::Draft, None, "Draft: keep which Initiative card?", options)
                else {
                    unreachable!()
                };
                cards.retain(|c| *c != id);
                picks[p].push(id);
            }
            p = table.next_clockwise(p);
        }
        // The cards are flipped: the teams, their units and their decks.
        let mut units = std::mem::take(&mut self.state.units);
        let mut minion_cards = std::mem::take(&mut self.minion_cards);
        seat_units(self.content, &picks, &mut units, &mut minion_cards);
        self.state.units = units;
        self.minion_cards = minion_cards;
        for (q, team) in picks.enumerate() {
            let mut deck: IdList<16> =
                if table.prime_time() { self.prime_time_deck(team).into() } else { self.two_player_deck(team).into() };
            if self.rule(OptionalRule::NoInHand) {
                self.set_aside[q] = retrieve_no(self.content, &mut deck);
            }
            shuffle(&mut deck, &mut self.state.rng);
            self.state.players[q].deck = deck;
            self.state.players[q].team = team.as_slice().into();
            self.emit(Event::Drafted { player: q, characters: team.clone() });
        }
        Ok(())
    }

    /// `000 § Setup`, Step 4. Building the Tactics Deck, for a drafted
    /// 2-player team: "choose two of each of your Character's Tactics and
    /// shuffle them with the ten Standard Tactics" (the Standard Tactics
    /// with their copies; the two of each Character drawn with the game's
    /// RNG, as `GameSetup::random` draws them with its seed; all of them
    /// when it has two or fewer).
    fn two_player_deck(&mut self, team: &[Id]) -> Vec<Id> {
        let mut deck = Vec::new();
        for t in self.content.tactics.values().filter(|t| t.value.standard) {
            deck.extend(std::iter::repeat_n(t.value.id, t.value.copies.max(1) as usize));
        }
        for c in team {
            let mut own: Vec<Id> = self
                .content
                .tactics
                .values()
                .filter(|t| t.value.character.as_deref() == Some(c.as_str()))
                .map(|t| t.value.id)
                .collect();
            shuffle(&mut own, &mut self.state.rng);
            deck.extend(own.into_iter().take(2));
        }
        deck
    }

    /// `001 § Preparations`, 6. Tactics Deck Building: "taking the four
    /// Tactic cards of each of their Characters and shuffling them with
    /// their ten General Tactics (numbered #009 to #018)".
    fn prime_time_deck(&self, team: &[Id]) -> Vec<Id> {
        let mut deck = Vec::new();
        for t in self.content.tactics.values().filter(|t| t.value.standard) {
            deck.extend(std::iter::repeat_n(t.value.id, t.value.copies.max(1) as usize));
        }
        for c in team {
            for t in self.content.tactics.values() {
                if t.value.character.as_deref() == Some(c.as_str()) {
                    deck.extend(std::iter::repeat_n(t.value.id, t.value.copies.max(1) as usize));
                }
            }
        }
        deck
    }

    /// No! in hand for decks given whole (a situation's `decks`, `phase =
    /// "setup"`): "Before shuffling the Tactics deck, each player retrieves
    /// their "No!" card" (`001 § No!`), when the game plays that rule.
    pub(in crate::rules) fn retrieve_no_from_the_decks(&mut self) {
        if !self.rule(OptionalRule::NoInHand) {
            return;
        }
        for p in self.table().seats() {
            let mut deck = std::mem::take(&mut self.state.players[p].deck);
            self.set_aside[p] = retrieve_no(self.content, &mut deck);
            self.state.players[p].deck = deck;
        }
    }

    /// No! in hand (`001 § No!`): "When all players have their initial deck
    /// (once the Mulligan step was resolved), they will add this Tactic to
    /// their hand."
    pub(super) fn no_to_hand(&mut self) {
        for p in self.table().seats() {
            let cards = std::mem::take(&mut self.set_aside[p]);
            for t in cards {
                self.state.players[p].hand.push(t);
                self.emit(Event::Log { text: format!("{p} adds {t} to their hand (No! in hand)") });
            }
        }
    }
}
