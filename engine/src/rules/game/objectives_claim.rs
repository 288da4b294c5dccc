//! Claiming Objective cards (`001 § Claiming Objective Cards`, `001 §
//! Objective Cards`): red when an Enemy goes to the Bench, orange when a State
//! is imposed, blue and green at the Objectives Check; the same requirements
//! for hidden objectives (`001 § Claiming Objective Cards (Additional
//! Rule)`). Each claim is a narrative event naming the card, the player and
//! the Victory Points.

use super::*;
use model::{BenchCause, BenchedEnemy, ObjectiveColour, ObjectiveRequirement, TeamAttribute, ZoneControl};

/// Where a claimed card was: face up and available to all, or one of the
/// claiming player's hidden cards.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Held {
    Available,
    Hidden,
}

impl<'a> Game<'a> {
    /// Why Damage is inflicted now, for red cards (`001 § Objective Cards`,
    /// Inflict Damage): a Combat Roll (`source`), a Poisoned or Burning token
    /// in a States Step, a Tactic's Effects, an Action or Automatic Skill's.
    pub(super) fn damage_cause(&self, source: Option<&str>) -> Option<BenchCause> {
        if source.is_some() {
            return Some(BenchCause::CombatRoll);
        }
        if self.state_credit.is_some() {
            return Some(BenchCause::State);
        }
        let script = self.effect_frame.running.last()?;
        let card = &self.runtime.scripts().sources()[script.0].card;
        Some(if card.starts_with("tactic:") { BenchCause::Tactic } else { BenchCause::ActionOrSkill })
    }

    /// The cards `p` could claim now: the available ones (in their order),
    /// then `p`'s hidden ones.
    fn claimable(&self, p: PlayerId) -> Vec<(Held, Id)> {
        let Some(deck) = self.state.objectives.as_ref() else { return Vec::new() };
        let mut out: Vec<(Held, Id)> = Vec::new();
        if self.uses_objectives_deck() {
            out.extend(deck.available.iter().map(|c| (Held::Available, *c)));
        }
        if let Some(h) = deck.hidden.get(p.index()) {
            out.extend(h.iter().map(|c| (Held::Hidden, *c)));
        }
        out
    }

    /// Claim a card: it leaves the available line (its replacement comes
    /// later) or the player's hidden cards (a new one is drawn at once), goes
    /// to the discard deck (rulings R62), and its Victory Points are added.
    fn claim(&mut self, p: PlayerId, held: Held, card: &str, vp: u8) {
        let Some(deck) = self.state.objectives.as_mut() else { return };
        let list = match held {
            Held::Available => &mut deck.available,
            Held::Hidden => match deck.hidden.get_mut(p.index()) {
                Some(h) => h,
                None => return,
            },
        };
        let Some(i) = list.iter().position(|c| c == card) else { return };
        list.remove(i);
        deck.discard.push(card.into());
        if held == Held::Available {
            deck.refill_pending = true;
        }
        self.emit(Event::ObjectiveClaimed { player: p, card: card.into(), vp });
        self.gain_victory_points(p, vp, card);
        if held == Held::Hidden {
            self.draw_hidden(p);
        }
    }

    /// Red: `id` (of `owner`'s team) went to the Bench (or the Infirmary);
    /// `credited` earned the Frag. Each card it meets is claimed, one by one
    /// in card order (rulings R61). Outside an Activation the replacement is
    /// drawn at once.
    pub(super) fn objectives_sent_to_bench(&mut self, id: &str, owner: PlayerId, credited: Option<PlayerId>) {
        let cause = self.last_cause.remove(id);
        let (Some(p), Some(cause)) = (credited, cause) else { return };
        if p == owner {
            return;
        }
        for (held, card) in self.claimable(p) {
            let Some(o) = self.objective_card(&card) else { continue };
            let Some(ObjectiveRequirement::SentToBench { enemy, attribute, causes }) = &o.requirement else { continue };
            if causes.contains(&cause) && self.extreme_of_team(id, owner, *enemy, *attribute) {
                self.claim(p, held, &card, o.vp);
            }
        }
        if self.state.active.is_none() {
            self.objectives_after_activation();
        }
    }

    /// Whether `id` is the Character of its team a red card asks for: any,
    /// or one with the highest (lowest) printed Hit Points or Initiative of
    /// the team (ties: any of them).
    fn extreme_of_team(
        &self,
        id: &str,
        owner: PlayerId,
        enemy: BenchedEnemy,
        attribute: Option<TeamAttribute>,
    ) -> bool {
        let Some(attribute) = attribute else { return enemy == BenchedEnemy::Any };
        let value = |c: &str| {
            self.content.characters.get(c).map(|e| match attribute {
                TeamAttribute::HitPoints => e.value.hit_points,
                TeamAttribute::Initiative => e.value.initiative,
            })
        };
        let team: Vec<u8> = self.state.players[owner].team.iter().filter_map(|c| value(c)).collect();
        let Some(mine) = value(id) else { return false };
        match enemy {
            BenchedEnemy::Any => true,
            BenchedEnemy::Highest => team.iter().all(|v| *v <= mine),
            BenchedEnemy::Lowest => team.iter().all(|v| *v >= mine),
        }
    }

    /// Orange: `state` was imposed on a Character that had the different States
    /// `before`; the player of the imposing Character (`source`, else the
    /// Character whose effect runs) claims each card it meets.
    pub(super) fn objectives_state_imposed(&mut self, state: &str, source: Option<&str>, before: &[Id]) {
        if self.state.objectives.is_none() {
            return;
        }
        let imposer = source.map(str::to_string).or_else(|| self.effect_frame.effect_source.map(String::from));
        let Some(p) = imposer.as_deref().and_then(|c| self.unit(c)).map(|u| u.owner) else { return };
        for (held, card) in self.claimable(p) {
            let Some(o) = self.objective_card(&card) else { continue };
            let Some(ObjectiveRequirement::StateImposed { already, bonus_state, bonus_vp }) = &o.requirement else {
                continue;
            };
            if before.len() < *already as usize {
                continue;
            }
            let bonus = bonus_state.as_deref().is_some_and(|b| b == state || before.iter().any(|s| s == b));
            let vp = o.vp.saturating_add(if bonus { *bonus_vp } else { 0 });
            self.claim(p, held, &card, vp);
        }
        if self.state.active.is_none() {
            self.objectives_after_activation();
        }
    }

    /// Objectives Check (`001 § Claiming Objective Cards`): the available
    /// blue and green cards in order, each player adding a card's Victory
    /// Points before the next is checked; then the hidden blue and green
    /// cards; then the available cards are refilled to 4.
    pub(super) fn objectives_check(&mut self) {
        if self.state.objectives.is_none() {
            return;
        }
        if self.uses_objectives_deck() {
            let available = self.state.objectives.as_ref().map(|d| d.available.clone()).unwrap_or_default();
            for card in available {
                match self.objective_colour(&card) {
                    Some(ObjectiveColour::Blue) => {
                        let claimants = self.blue_claimants(&card);
                        for (p, vp) in &claimants {
                            // Several players may claim the same card: it
                            // leaves the line after the last of them.
                            self.emit(Event::ObjectiveClaimed { player: *p, card, vp: *vp });
                            self.gain_victory_points(*p, *vp, &card);
                        }
                        if !claimants.is_empty() {
                            let deck = self.state.objectives.as_mut().expect("deck");
                            if let Some(i) = deck.available.iter().position(|c| *c == card) {
                                deck.available.remove(i);
                                deck.discard.push(card);
                            }
                        }
                    }
                    Some(ObjectiveColour::Green) => {
                        if let Some(p) = self.last_one() {
                            self.claim_green(p, Held::Available, &card);
                        }
                    }
                    _ => {}
                }
            }
            self.refill_objectives();
        }
        if self.hidden_objectives() {
            for p in self.table().order_from(self.state.underdog) {
                let hand = self.state.objectives.as_ref().and_then(|d| d.hidden.get(p.index()).cloned());
                for card in hand.unwrap_or_default() {
                    match self.objective_colour(&card) {
                        Some(ObjectiveColour::Blue) => {
                            let vp = self.blue_vp(p, &card);
                            if vp > 0 {
                                self.claim(p, Held::Hidden, &card, vp);
                            }
                        }
                        Some(ObjectiveColour::Green) if self.last_one() == Some(p) => {
                            self.claim_green(p, Held::Hidden, &card)
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    /// Every player who meets a blue card, from Prime Time, with the Victory
    /// Points it grants them.
    fn blue_claimants(&self, card: &str) -> Vec<(PlayerId, u8)> {
        self.table()
            .order_from(self.state.underdog)
            .into_iter()
            .map(|p| (p, self.blue_vp(p, card)))
            .filter(|(_, vp)| *vp > 0)
            .collect()
    }

    /// The Victory Points a blue card grants `p` now (0: not met).
    fn blue_vp(&self, p: PlayerId, card: &str) -> u8 {
        let Some(o) = self.objective_card(card) else { return 0 };
        let Some(ObjectiveRequirement::Control { control, zones }) = &o.requirement else { return 0 };
        let controls = |z: &str| self.zone_controller(z) == Some(p);
        match control {
            ZoneControl::Zone => {
                if !zones.is_empty() && zones.iter().all(|z| controls(z)) {
                    o.vp
                } else {
                    0
                }
            }
            ZoneControl::Each => o.vp.saturating_mul(zones.iter().filter(|z| controls(z)).count() as u8),
            ZoneControl::CentralAndOther => {
                let central = self.central_zones();
                let others = self.control_zones().into_iter().filter(|z| !central.contains(z) && controls(z)).count();
                if central.iter().any(|z| controls(z)) && others > 0 { o.vp } else { 0 }
            }
            ZoneControl::Most => {
                let count =
                    |q: PlayerId| self.control_zones().iter().filter(|z| self.zone_controller(z) == Some(q)).count();
                let mine = count(p);
                if mine > 0 && self.table().opponents(p).all(|q| count(q) < mine) { o.vp } else { 0 }
            }
        }
    }

    /// The zones a player can control: the Deployment Zones and the Central
    /// Zone (a Deployment Zone too, rulings R26).
    fn control_zones(&self) -> Vec<Id> {
        self.board
            .zones
            .iter()
            .filter(|(_, (k, _))| matches!(k, model::ZoneKind::Deployment | model::ZoneKind::Central))
            .map(|(z, _)| *z)
            .collect()
    }

    /// Who controls a zone: "a player controls a Zone when they have more
    /// Characters within it than any of their opponents have" (`001 §
    /// Controlling a Deployment Zone`); nobody on a tie or an empty zone.
    pub(super) fn zone_controller(&self, zone: &str) -> Option<PlayerId> {
        let spaces = self.zone_spaces(zone);
        let counts: Vec<(PlayerId, usize)> =
            self.table().seats().map(|p| (p, self.characters_in(spaces, Some(p)).len())).collect();
        let most = counts.iter().map(|(_, n)| *n).max().unwrap_or(0);
        let top: Vec<PlayerId> = counts.iter().filter(|(_, n)| *n == most).map(|(p, _)| *p).collect();
        (most > 0 && top.len() == 1).then(|| top[0])
    }

    /// The single player with the least Victory Points, if only one has the
    /// least (`001 § Claiming Objective Cards`, Green).
    fn last_one(&self) -> Option<PlayerId> {
        let vp = |p: PlayerId| self.state.players[p].victory_points;
        let least = self.table().seats().map(vp).min()?;
        let tied: Vec<PlayerId> = self.table().seats().filter(|p| vp(*p) == least).collect();
        (tied.len() == 1).then(|| tied[0])
    }

    /// Green: `p` takes the card's Victory Points from the player with the
    /// most (`p` chooses among tied leaders).
    fn claim_green(&mut self, p: PlayerId, held: Held, card: &str) {
        let vp = self.objective_card(card).map_or(1, |o| o.vp);
        let most = self.table().seats().map(|q| self.state.players[q].victory_points).max().unwrap_or(0);
        let leaders: Vec<PlayerId> =
            self.table().seats().filter(|q| *q != p && self.state.players[*q].victory_points == most).collect();
        let from = if leaders.len() > 1 {
            let options: Vec<Choice> = leaders.iter().map(|q| Choice::Text { text: q.to_string() }).collect();
            let pick =
                self.decide(p, DecisionKind::Choose, None, "Take Victory Points from which player?", options.clone());
            options.iter().position(|o| *o == pick).map_or(leaders[0], |i| leaders[i])
        } else if let Some(q) = leaders.first() {
            *q
        } else {
            return;
        };
        let amount = vp.min(self.state.players[from].victory_points.min(u8::MAX as u32) as u8);
        // Remove the card first: `claim` adds the Victory Points taken.
        self.state.players[from].victory_points -= amount as u32;
        let left = self.state.players[from].victory_points;
        let Some(deck) = self.state.objectives.as_mut() else { return };
        let list = match held {
            Held::Available => &mut deck.available,
            Held::Hidden => &mut deck.hidden[p.index()],
        };
        if let Some(i) = list.iter().position(|c| c == card) {
            list.remove(i);
            deck.discard.push(card.into());
        }
        self.emit(Event::ObjectiveClaimed { player: p, card: card.into(), vp: amount });
        self.emit(Event::VictoryPointsTaken { player: p, from, amount, left });
        self.gain_victory_points(p, amount, card);
        if held == Held::Hidden {
            self.draw_hidden(p);
        }
    }
}
