//! `003 § Revival and Defeat` and `003 § The Apocalypse`.

use super::*;
use crate::model::Id;

impl<'a, 'c> Game<'a, 'c> {
    /// Every player at 0 HP is revived by an ally or defeated, at once
    /// ("before any other actions are taken"), in seat order from the active player.
    pub(crate) fn check_down(&mut self) {
        let n = self.state.players.len();
        for k in 0..n {
            let d = PlayerId::seat((self.state.active.index() + k) % n);
            let player = self.state.player(d);
            if player.defeated || player.health > 0 {
                continue;
            }
            self.emit(Event::Down { god: self.name(d) });
            if !self.try_revival(d) {
                self.defeat(d);
            }
        }
        self.check_winner();
    }

    /// Allies are asked clockwise from the downed player; the first to
    /// accept gives HP (ruling I9: the giver keeps at least 1 HP).
    fn try_revival(&mut self, d: PlayerId) -> bool {
        if !self.state.revivals_allowed {
            return false;
        }
        let penalty = self.market.revival_penalty as i32;
        let n = self.state.players.len();
        for k in 1..n {
            let a = PlayerId::seat((d.index() + k) % n);
            let ally = self.state.player(a);
            if ally.defeated || ally.team != self.state.player(d).team || ally.health <= 0 {
                continue;
            }
            if self.state.player(d).revived_by.contains(&a) {
                continue;
            }
            let most = ally.health - penalty - 1;
            if most < 1 {
                continue;
            }
            let mut options: Vec<Choice> = (1..=most / 10).map(|k| Choice::Revive { give: k * 10 }).collect();
            if most % 10 != 0 {
                options.push(Choice::Revive { give: most });
            }
            options.push(Choice::Pass);
            let prompt = format!("revive {}?", self.name(d));
            if let Choice::Revive { give } = self.ask(a, DecisionKind::Revive, &prompt, options) {
                self.revive(d, a, give);
                return true;
            }
        }
        false
    }

    /// `003 § Revival`: the giver pays 10 and gives HP; the revived player
    /// discards Boosts and Reinforcements, shuffles every Artifact into a
    /// new draw pile, draws 5 and has half their full Stamina. Revived
    /// during their own turn, their turn is over.
    pub fn revive(&mut self, d: PlayerId, giver: PlayerId, give: i32) {
        let penalty = self.market.revival_penalty as i32;
        self.state.player_mut(giver).health -= penalty + give;
        let boosts: Vec<_> = std::mem::take(&mut self.state.player_mut(d).boosts);
        self.state.boost_discard.extend(boosts.into_iter().map(|b| b.card));
        let owned: Vec<Id> = self.state.player(d).reinforcements.iter().map(|r| r.id).collect();
        for r in owned {
            self.lose_reinforcement(d, &r);
        }
        let player = self.state.player_mut(d);
        player.health = give;
        player.revived_by.push(giver);
        let mut all: Vec<Card> = Vec::new();
        all.append(&mut player.hand);
        all.append(&mut player.charged);
        all.append(&mut player.draw);
        all.append(&mut player.discard);
        let (mut cards, counterfeits): (Vec<Card>, Vec<Card>) =
            all.into_iter().partition(|c| matches!(c, Card::Artifact(_)));
        for c in counterfeits {
            if let Card::Counterfeit(b) = c {
                self.state.boost_discard.push(b);
            }
        }
        self.shuffle(&mut cards);
        self.state.player_mut(d).draw = cards;
        self.draw_to(d, self.market.hand_size as usize);
        let half = self.full_stamina(d) / 2;
        self.state.player_mut(d).stamina = half;
        self.emit(Event::Revived { god: self.name(d), by: self.name(giver), gave: give });
        if d == self.state.active {
            self.state.turn_over = true;
        }
    }

    /// `003 § Defeat`: out of the game; Boosts and Reinforcements to their
    /// discard piles; the range between the others shrinks (the ring skips them).
    pub(crate) fn defeat(&mut self, d: PlayerId) {
        let boosts: Vec<_> = std::mem::take(&mut self.state.player_mut(d).boosts);
        self.state.boost_discard.extend(boosts.into_iter().map(|b| b.card));
        let owned: Vec<Id> = self.state.player(d).reinforcements.iter().map(|r| r.id).collect();
        for r in owned {
            self.lose_reinforcement(d, &r);
        }
        let player = self.state.player_mut(d);
        player.defeated = true;
        player.health = 0;
        let mut cards = std::mem::take(&mut player.discard);
        cards.append(&mut player.charged);
        player.draw.append(&mut cards);
        self.emit(Event::Defeated { god: self.name(d) });
        if d == self.state.active {
            self.state.turn_over = true;
        }
    }

    /// `003 § The Apocalypse`: if anyone has more than 40 HP, 40 unpreventable
    /// damage to every player, else every active player reduced to 10 HP; no more
    /// revivals; the Boost discard pile shuffled into a new deck.
    pub fn apocalypse(&mut self) {
        let threshold = self.market.apocalypse_threshold as i32;
        let above = self.state.players.iter().any(|p| !p.defeated && p.health > threshold);
        self.state.apocalypses += 1;
        self.state.revivals_allowed = false;
        self.emit(Event::Apocalypse { damage: above });
        for s in self.state.active_seats() {
            if above {
                self.damage(s, self.market.apocalypse_damage as i32);
            } else {
                // "reduce their HP to 10": nobody below 10 is raised (ruling I10).
                let floor = self.market.apocalypse_floor as i32;
                let player = self.state.player_mut(s);
                player.health = player.health.min(floor);
            }
        }
        self.reshuffle_boosts_after_apocalypse();
        self.check_down();
    }

    fn reshuffle_boosts_after_apocalypse(&mut self) {
        let mut d = std::mem::take(&mut self.state.boost_discard);
        self.shuffle(&mut d);
        self.state.boost_deck = d;
    }
}
