//! `003 § Perform Character Abilities`: Energy from hand and Charge Station
//! (hand only for counters), Stamina, then the ability's effect.

use super::*;
use crate::model::{EnergyCost, EnergyType};

/// Where a paying card is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum From {
    Hand,
    Charged,
}

impl<'a, 'c> Game<'a, 'c> {
    /// The cards that pay `cost`, or `None` if `p` cannot. Charged cards
    /// first (they serve nothing else), then the hand; a card of the type
    /// itself before a Wild one; the smallest card that covers what is left
    /// before a bigger one. Overpaying loses the rest. `charged` is false for
    /// counters ("Charged cards can only be used on your turn", `003 § Counters`).
    pub(crate) fn energy_payment(&self, p: PlayerId, cost: &[EnergyCost], charged: bool) -> Option<Vec<(From, usize)>> {
        let me = self.state.player(p);
        let mut pool: Vec<(From, usize, EnergyType, i32)> = Vec::new();
        if charged {
            for (i, c) in me.charged.iter().enumerate() {
                pool.push((From::Charged, i, self.card_type(c), self.energy_value(c)));
            }
        }
        for (i, c) in me.hand.iter().enumerate() {
            pool.push((From::Hand, i, self.card_type(c), self.energy_value(c)));
        }
        pool.retain(|x| x.3 > 0);
        let mut used: Vec<bool> = vec![false; pool.len()];
        let mut out = Vec::new();
        for line in cost {
            let mut left = line.amount as i32;
            for wild in [false, true] {
                while left > 0 {
                    let fits = |x: &(From, usize, EnergyType, i32)| {
                        if wild { x.2 == EnergyType::Wild } else { x.2 == line.energy_type }
                    };
                    let candidates: Vec<usize> = (0..pool.len()).filter(|k| !used[*k] && fits(&pool[*k])).collect();
                    if candidates.is_empty() {
                        break;
                    }
                    let from_charge = |k: &usize| pool[*k].0 == From::Charged;
                    // Charged first; then the smallest that covers, else the biggest.
                    let best = candidates
                        .iter()
                        .copied()
                        .filter(|k| pool[*k].3 >= left)
                        .min_by_key(|k| (!from_charge(k), pool[*k].3, *k))
                        .or_else(|| {
                            candidates.iter().copied().max_by_key(|k| (from_charge(k), pool[*k].3, usize::MAX - *k))
                        });
                    let Some(k) = best else { break };
                    used[k] = true;
                    left -= pool[k].3;
                    out.push((pool[k].0, pool[k].1));
                }
            }
            if left > 0 {
                return None;
            }
        }
        Some(out)
    }

    fn card_type(&self, c: &Card) -> EnergyType {
        match c {
            Card::Artifact(id) => self.artifact(id).map_or(EnergyType::None, |a| a.energy_type),
            Card::Counterfeit(_) => EnergyType::None,
        }
    }

    /// Move the paying cards to the discard pile.
    pub(crate) fn pay_energy(&mut self, p: PlayerId, payment: Vec<(From, usize)>) {
        let player = self.state.player_mut(p);
        let mut hand: Vec<usize> = payment.iter().filter(|x| x.0 == From::Hand).map(|x| x.1).collect();
        let mut charged: Vec<usize> = payment.iter().filter(|x| x.0 == From::Charged).map(|x| x.1).collect();
        hand.sort_unstable_by(|a, b| b.cmp(a));
        charged.sort_unstable_by(|a, b| b.cmp(a));
        for i in hand {
            let c = player.hand.remove(i);
            player.discard.push(c);
        }
        for i in charged {
            let c = player.charged.remove(i);
            player.discard.push(c);
        }
    }

    /// Perform an own-turn ability: pay Energy and Stamina, then an attack
    /// (its damage, counters, then its effect) or the effect alone.
    pub(crate) fn perform_ability(&mut self, p: PlayerId, ability: &str, target: Option<PlayerId>) {
        let god = self.god(p);
        let Some(ab) = god.abilities.iter().find(|a| a.id == ability) else { return };
        let Some(payment) = self.energy_payment(p, &ab.energy, true) else { return };
        self.pay_energy(p, payment);
        self.state.player_mut(p).stamina -= ab.stamina_cost as i32;
        let stamina_left = self.state.player(p).stamina;
        self.emit(Event::Ability {
            god: self.name(p),
            ability: ab.id,
            target: target.map(|t| self.name(t)),
            stamina_left,
        });
        let card = format!("god:{}", god.id);
        let path = format!("abilities[id={}].effect", ab.id);
        match (ab.damage, target) {
            (Some(damage), Some(t)) if self.state.player(t).team != self.state.player(p).team => {
                let frame = AttackFrame::new(p, t, None, AttackKind::Ability, damage as i32);
                let result = self.resolve_attack(frame);
                if !result.failed && !self.state.player(p).defeated && self.state.outcome.is_none() {
                    self.run_effect(p, &card, &path, Some(t));
                }
            }
            _ => self.run_effect(p, &card, &path, target),
        }
    }
}
