//! Movement: moving one space, Disengage on leaving Enemies (`000 § Movement`, `000 § Disengage`).

use super::*;
use crate::model::Id;

impl<'a> Game<'a> {
    pub(super) fn move_one(&mut self, id: &str, to: Hex) {
        if self.space_of(id).is_none() {
            return;
        }
        // Disengage (`000 § Disengage`).
        let adjacent = self.adjacent_enemies(id);
        // A Minion forces a Disengage Roll only if it has Brawn; every adjacent
        // Enemy, Minions included, adds a Black die (`002 § Minion`; R11).
        let mut contenders: IdList<6> =
            adjacent.iter().filter(|e| !self.is_minion(e) || !self.card(e).brawn.dice.is_empty()).cloned().collect();
        // "Until the end of this Activation, you do not make Disengage Rolls" (Barrel through).
        if !contenders.is_empty() && self.has_activation_effect(id, "no-disengage-rolls") {
            self.emit(Event::Log { text: format!("{id} makes no Disengage Roll (until the end of this Activation)") });
            contenders.clear();
        } else if !contenders.is_empty() && self.has_round_effect(id, "no-disengage-rolls") {
            self.emit(Event::Log { text: format!("{id} makes no Disengage Roll (until the end of the Round)") });
            contenders.clear();
        }
        if !contenders.is_empty() {
            let owner = self.unit(id).map(|u| u.owner).unwrap_or(PlayerId::seat(0));
            let opponent = self.table().opponent(owner);
            // Enemies of different teams: "Prime Time will choose which Enemy
            // will face the Character with their Brawn" (`001 § Disengage`).
            let owner_of = |g: &Self, c: &str| g.unit(c).map_or(opponent, |u| u.owner);
            let teams: BTreeSet<PlayerId> = contenders.iter().map(|c| owner_of(self, c)).collect();
            let opponent = match teams.len() {
                1 => teams.first().copied().unwrap_or(opponent),
                _ if self.table().prime_time() => self.state.underdog,
                _ => opponent,
            };
            let options = contenders.iter().map(|e| Choice::Pick { id: *e }).collect();
            let Choice::Pick { id: contender } = self.decide(
                opponent,
                DecisionKind::DisengageContender,
                Some(id),
                "Which Character contests the Disengage?",
                options,
            ) else {
                unreachable!()
            };
            let mut agility = self.card(id).agility.clone();
            self.next_roll_dice(id, &mut agility);
            self.offer_focused(id, &mut agility);
            // One Black die for each additional Adjacent Enemy, within the
            // three Black dice a Roll may hold, the Brawn's own included
            // (`000 § Dice`; docs/rulings.md R23).
            let mut brawn = self.card(&contender).brawn.clone();
            let mut extra = adjacent.len() - 1;
            if self.table().prime_time() {
                // The contender's Allies add a Black die each (`000 § Disengage`);
                // "Enemies in Contact that do not face their Brawn may willingly
                // add one black die (the decision is in each of the involved
                // players' hands)" (`001 § Disengage`; docs/rulings.md R48).
                let theirs = owner_of(self, &contender);
                extra = adjacent.iter().filter(|e| **e != contender && owner_of(self, e) == theirs).count();
                let others: Vec<Id> =
                    adjacent.iter().filter(|e| owner_of(self, e) != theirs && !self.is_minion(e)).cloned().collect();
                for e in others {
                    let p = owner_of(self, &e);
                    let q = format!("Does {e} add a Black die to {contender}'s Brawn against {id}'s Disengage?");
                    if self.decide(p, DecisionKind::OptionalEffect, Some(&e), q, vec![Choice::No, Choice::Yes])
                        == Choice::Yes
                    {
                        self.emit(Event::Log { text: format!("{e} adds a Black die to {contender}'s Brawn") });
                        extra += 1;
                    }
                }
            }
            let limit = self.content.dice.get("black").map_or(0, |d| d.value.max_per_roll as usize);
            let room = limit.saturating_sub(brawn.dice.iter().filter(|d| *d == "black").count());
            brawn.dice.extend(std::iter::repeat_n(Id::from("black"), extra.min(room)));
            if extra > room {
                self.emit(Event::Log {
                    text: format!(
                        "{contender} adds {} of {extra} black dice for the other Adjacent Enemies: a Roll holds at most {limit} (000 § Dice)",
                        extra.min(room)
                    ),
                });
            }
            self.offer_focused(&contender, &mut brawn);
            let pools = self.own_roll_skills(id, Side::Active, Some(&contender), [agility, brawn]);
            let pools = self.own_roll_skills(&contender, Side::Opponent, Some(id), pools);
            let [agility, brawn] = self.roll_tactics(id, Some(&contender), RollKind::Disengage, pools);
            let roll = self.face_to_face(id, &agility, &contender, &brawn, &[], false, &[]);
            if roll.active_successes == 0 {
                if let Some(u) = self.unit_mut(id) {
                    u.movement_points = 0;
                }
                self.emit(Event::DisengageFailed { character: id.into() });
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
            let owner = self.unit(id).map(|u| u.owner).unwrap_or(PlayerId::seat(0));
            let Choice::MoveTo { space } = self.decide(owner, DecisionKind::Action, Some(id), "Move where?", options)
            else {
                return;
            };
            to = space;
        }
        let u = self.unit_mut(id).expect("unit");
        u.movement_points -= 1;
        u.movement_spent = u.movement_spent.saturating_add(1);
        u.location = Location::Space(to);
        self.emit(Event::Moved { character: id.into(), from, to });
        self.entered(id, Some(from), to);
    }
}
