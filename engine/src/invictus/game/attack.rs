//! `003 § Attack the Enemy`, `§ Attacking and Countering`, `§ Counters`,
//! `§ Defeating an Enemy's Reinforcement`: declaring an attack with its
//! Boosts, the Accuracy flip, the reaction stack of counters, the damage.

use super::*;
use crate::model::{AbilityTiming, ArtifactUse, BoostColour, BoostTiming, CounterTrigger};

/// A standard attack or a character ability's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AttackKind {
    /// An Artifact's standard attack (Accuracy flip).
    Standard,
    /// A character ability's attack (no Accuracy).
    Ability,
}

/// One thing declared with an attack or played against it: its effect on the damage.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FrameEntry {
    /// Who played it.
    pub by: PlayerId,
    /// The card or ability (`boost:godlike`, `artifact:hoplon`, `god:hera`).
    pub source: String,
    /// Whether it is a Boost (what Server Down negates).
    pub boost: bool,
    /// Negated by a later counter: it counts for nothing.
    pub negated: bool,
    /// Damage added.
    pub bonus: i32,
    /// Damage blocked.
    pub block: i32,
    /// Makes the attack fail (0 damage, no further effects).
    pub fail: bool,
}

/// The attack being resolved (`003 § Attacking and Countering`): the damage
/// is the base plus every bonus, 0 if anything not negated made it fail,
/// less every block.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AttackFrame {
    /// The attacker.
    pub attacker: PlayerId,
    /// The attacked player (or the owner of the attacked Reinforcement).
    pub target: PlayerId,
    /// The attacked Reinforcement, if any.
    pub reinforcement: Option<Id>,
    /// Standard or ability.
    pub kind: AttackKind,
    /// The Artifact's or ability's damage.
    pub base: i32,
    /// Everything declared with or played against it, in order.
    pub entries: Vec<FrameEntry>,
}

/// What an attack came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttackResult {
    /// Damage dealt.
    pub damage: i32,
    /// Damage blocked.
    pub blocked: i32,
    /// Whether it failed (or missed).
    pub failed: bool,
}

impl AttackFrame {
    /// A new attack with nothing declared yet.
    pub fn new(attacker: PlayerId, target: PlayerId, reinforcement: Option<Id>, kind: AttackKind, base: i32) -> Self {
        AttackFrame { attacker, target, reinforcement, kind, base, entries: Vec::new() }
    }

    /// (damage, blocked, failed) as things stand.
    pub fn result(&self) -> AttackResult {
        let live = || self.entries.iter().filter(|e| !e.negated);
        let failed = live().any(|e| e.fail);
        let gross = if failed { 0 } else { (self.base + live().map(|e| e.bonus).sum::<i32>()).max(0) };
        let blocked = live().map(|e| e.block).sum::<i32>().min(gross);
        AttackResult { damage: gross - blocked, blocked, failed }
    }
}

impl<'a, 'c> Game<'a, 'c> {
    /// A standard attack with an Artifact from hand (`003 § Attack the Enemy`).
    pub(crate) fn standard_attack(&mut self, p: PlayerId, artifact: &str, t: PlayerId, reinforcement: Option<Id>) {
        let Some(a) = self.artifact(artifact) else { return };
        if a.use_ != ArtifactUse::StandardAttack {
            return;
        }
        self.play_from_hand(p, artifact);
        self.state.player_mut(p).stamina -= a.stamina_cost.unwrap_or(0) as i32;
        self.emit(Event::StandardAttack {
            god: self.name(p),
            artifact: artifact.into(),
            target: self.name(t),
            reinforcement,
            stamina_left: self.state.player(p).stamina,
        });
        let frame = AttackFrame::new(p, t, reinforcement, AttackKind::Standard, a.damage.unwrap_or(0) as i32);
        self.resolve_attack(frame);
    }

    /// Declared Boosts, the flip (standard attacks), the counters, the damage.
    pub(crate) fn resolve_attack(&mut self, frame: AttackFrame) -> AttackResult {
        let (p, t, kind) = (frame.attacker, frame.target, frame.kind);
        self.attack = Some(frame);
        self.declare_boosts(p);
        if kind == AttackKind::Standard {
            let colour = self.flip(p);
            let on_target = colour.is_some_and(|c| self.state.accuracy(p).contains(&c));
            if !on_target {
                self.emit(Event::Missed { god: self.name(p) });
                self.attack = None;
                return AttackResult { damage: 0, blocked: 0, failed: true };
            }
        }
        if !self.state.player(t).defeated && self.state.outcome.is_none() {
            self.counters(p, t);
        }
        let Some(frame) = self.attack.take() else {
            return AttackResult { damage: 0, blocked: 0, failed: true };
        };
        let result = frame.result();
        self.emit(Event::AttackResolved {
            attacker: self.name(p),
            target: self.name(t),
            damage: result.damage,
            blocked: result.blocked,
            failed: result.failed,
        });
        if result.damage > 0 && !self.state.player(t).defeated {
            match frame.reinforcement {
                Some(r) => self.hit_reinforcement(t, &r),
                None => self.damage(t, result.damage),
            }
        }
        self.check_down();
        result
    }

    /// The attacker declares attack-related Boosts ("declared and discarded at the same time").
    fn declare_boosts(&mut self, p: PlayerId) {
        loop {
            let mut options = Vec::new();
            for b in &self.state.player(p).boosts {
                let Some(boost) = self.boost(&b.card.id) else { continue };
                let ready = boost.timing != BoostTiming::FutureTurn || b.obtained_turn < self.state.turn;
                let c = Choice::Attach { boost: boost.id };
                if boost.attack && ready && (!boost.team || self.state.team_game) && !options.contains(&c) {
                    options.push(c);
                }
            }
            if options.is_empty() {
                return;
            }
            options.push(Choice::Pass);
            let Choice::Attach { boost } =
                self.ask(p, DecisionKind::AttachBoost, "declare a Boost with the attack?", options)
            else {
                return;
            };
            self.boost_into_frame(p, &boost);
        }
    }

    /// Discard a Boost from `p`'s hand into the attack frame and run its effect there.
    fn boost_into_frame(&mut self, p: PlayerId, id: &str) {
        let player = self.state.player_mut(p);
        let Some(i) = player.boosts.iter().position(|b| b.card.id == id) else { return };
        let card = player.boosts.remove(i).card;
        self.state.boost_discard.push(card);
        self.emit(Event::BoostPlayed { god: self.name(p), boost: id.into() });
        self.frame_effect(p, format!("boost:{id}"), true, "effect", 0, 0);
    }

    /// Add an entry to the attack frame and run `card`'s effect at `path` as it.
    fn frame_effect(&mut self, p: PlayerId, card: String, boost: bool, path: &str, block: i32, _bonus: i32) {
        let Some(frame) = self.attack.as_mut() else { return };
        let target = frame.attacker;
        frame.entries.push(FrameEntry {
            by: p,
            source: card.clone(),
            boost,
            negated: false,
            bonus: 0,
            block,
            fail: false,
        });
        let index = frame.entries.len() - 1;
        if path.is_empty() {
            return;
        }
        let previous = self.effect_entry.replace(index);
        let target = if target == p { self.attack.as_ref().map(|f| f.target) } else { Some(target) };
        self.run_effect(p, &card, path, target);
        self.effect_entry = previous;
    }

    /// Flip the top Boost for probability: its colour, the flipper choosing a
    /// Wild's (`003 § Boosts`). Exposing the Apocalypse sets it off at once.
    pub(crate) fn flip(&mut self, p: PlayerId) -> Option<BoostColour> {
        let card = self.take_boost()?;
        let colour = if card.colour == BoostColour::Wild {
            let options = BoostColour::COLOURS.iter().map(|c| Choice::Colour { colour: *c }).collect();
            match self.ask(p, DecisionKind::WildColour, "the colour of the Wild Boost?", options) {
                Choice::Colour { colour } => colour,
                _ => BoostColour::Omega,
            }
        } else {
            card.colour
        };
        self.emit(Event::Flipped { god: self.name(p), boost: card.id, colour: colour.as_str().into() });
        self.state.boost_discard.push(card);
        if self.state.boost_deck.is_empty() {
            self.apocalypse();
        }
        Some(colour)
    }

    /// The reaction stack: the defender's counters, then the attacker's to
    /// those, and so on; it closes when a side plays nothing (ruling I4).
    fn counters(&mut self, attacker: PlayerId, target: PlayerId) {
        let mut defending = true;
        let mut round = 0;
        loop {
            let q = if defending { target } else { attacker };
            let mut played = false;
            loop {
                if self.state.player(q).defeated || self.state.outcome.is_some() || self.attack.is_none() {
                    return;
                }
                let mut options = self.counter_options(q, defending, round > 0);
                if options.is_empty() {
                    break;
                }
                options.push(Choice::Pass);
                let c = self.ask(q, DecisionKind::Counter, "counter?", options);
                if c == Choice::Pass {
                    break;
                }
                self.play_counter(q, c);
                played = true;
            }
            if !played {
                return;
            }
            defending = !defending;
            round += 1;
        }
    }

    /// The counters `q` may play now.
    fn counter_options(&self, q: PlayerId, defending: bool, countered: bool) -> Vec<Choice> {
        let Some(frame) = self.attack.as_ref() else { return Vec::new() };
        let fires = |t: CounterTrigger| match t {
            CounterTrigger::Attacked => defending,
            CounterTrigger::AbilityAttack => defending && frame.kind == AttackKind::Ability,
            CounterTrigger::StandardAttack => defending && frame.kind == AttackKind::Standard,
            CounterTrigger::Countered => countered,
        };
        let me = self.state.player(q);
        let mut out: Vec<Choice> = Vec::new();
        if defending {
            for c in &me.hand {
                if let Card::Artifact(id) = c {
                    let block = Choice::Block { artifact: *id };
                    if self.artifact(id).is_some_and(|a| a.use_ == ArtifactUse::Block) && !out.contains(&block) {
                        out.push(block);
                    }
                }
            }
        }
        for b in &me.boosts {
            let Some(boost) = self.boost(&b.card.id) else { continue };
            let c = Choice::CounterBoost { boost: boost.id };
            if boost.timing == BoostTiming::Counter
                && boost.trigger.is_some_and(fires)
                && (!boost.team || self.state.team_game)
                && !out.contains(&c)
            {
                out.push(c);
            }
        }
        for ab in &self.god(q).abilities {
            if ab.timing == AbilityTiming::Counter
                && ab.trigger.is_some_and(fires)
                && me.stamina >= ab.stamina_cost as i32
                && self.energy_payment(q, &ab.energy, false).is_some()
            {
                out.push(Choice::CounterAbility { ability: ab.id });
            }
        }
        out
    }

    fn play_counter(&mut self, q: PlayerId, c: Choice) {
        match c {
            Choice::Block { artifact } => {
                self.play_from_hand(q, &artifact);
                self.emit(Event::Counter { god: self.name(q), with: artifact });
                let block = self.artifact(&artifact).and_then(|a| a.block).unwrap_or(0) as i32;
                self.frame_effect(q, format!("artifact:{artifact}"), false, "effect", block, 0);
            }
            Choice::CounterBoost { boost } => {
                let player = self.state.player_mut(q);
                let Some(i) = player.boosts.iter().position(|b| b.card.id == boost) else { return };
                let card = player.boosts.remove(i).card;
                self.state.boost_discard.push(card);
                self.emit(Event::Counter { god: self.name(q), with: boost });
                self.frame_effect(q, format!("boost:{boost}"), true, "effect", 0, 0);
            }
            Choice::CounterAbility { ability } => {
                let god = self.god(q);
                let Some(ab) = god.abilities.iter().find(|a| a.id == ability) else { return };
                let Some(payment) = self.energy_payment(q, &ab.energy, false) else { return };
                self.pay_energy(q, payment);
                self.state.player_mut(q).stamina -= ab.stamina_cost as i32;
                self.emit(Event::Counter { god: self.name(q), with: ability });
                self.frame_effect(
                    q,
                    format!("god:{}", god.id),
                    false,
                    &format!("abilities[id={ability}].effect"),
                    0,
                    0,
                );
            }
            _ => {}
        }
    }

    /// Damage to a player's HP, never below 0.
    pub(crate) fn damage(&mut self, t: PlayerId, amount: i32) {
        let player = self.state.player_mut(t);
        if player.defeated || amount <= 0 {
            return;
        }
        player.health = (player.health - amount).max(0);
        let health = player.health;
        self.emit(Event::Damage { god: self.name(t), amount, health });
    }

    /// A successful attack on a Reinforcement: a white token; the second defeats it.
    fn hit_reinforcement(&mut self, owner: PlayerId, id: &str) {
        let hits_needed = self.market.reinforcement_hits;
        let player = self.state.player_mut(owner);
        let Some(r) = player.reinforcements.iter_mut().find(|r| r.id == id) else { return };
        r.hits += 1;
        let hits = r.hits;
        self.emit(Event::ReinforcementHit { owner: self.name(owner), reinforcement: id.into(), hits });
        if hits >= hits_needed {
            self.lose_reinforcement(owner, id);
        }
    }
}
