//! Invictus players: [`RandomController`] (uniform over the legal options,
//! its own seeded RNG) and [`GreedyController`] (a score per option, one
//! function per kind of decision). Both see only the decision and the view.

use super::decision::{Choice, Controller, Decision, DecisionKind, Purchase, View};
use crate::model::{ArtifactUse, Skill};
use rand::{RngExt, SeedableRng};

/// Uniformly random legal options.
#[derive(Debug)]
pub struct RandomController {
    rng: rand_chacha::ChaCha8Rng,
}

impl RandomController {
    /// A controller seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RandomController { rng: rand_chacha::ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Controller for RandomController {
    fn decide(&mut self, d: &Decision, _view: &View<'_>) -> usize {
        self.rng.random_range(0..d.options.len())
    }
}

/// The greedy heuristic: attack the weakest enemy it can hurt most, heal
/// when hurt, buy Prisma and attacks, block every attack, revive allies.
#[derive(Debug, Default, Clone, Copy)]
pub struct GreedyController;

impl GreedyController {
    fn health(view: &View<'_>, god: &str) -> i32 {
        view.state.seat_of(god).map_or(0, |s| view.state.player(s).health)
    }

    fn score(d: &Decision, view: &View<'_>, c: &Choice) -> i32 {
        let content = view.content;
        let me = view.state.player(d.player);
        let kill = |target: &str, damage: i32| if Self::health(view, target) <= damage { 40 } else { 0 };
        match c {
            Choice::StandardAttack { artifact, target, reinforcement } => {
                let damage = content.artifacts.get(artifact).and_then(|a| a.value.damage).unwrap_or(0) as i32;
                let hit = view.state.accuracy(d.player).len() as i32;
                if reinforcement.is_some() {
                    return 3;
                }
                damage * hit / 4 + kill(target, damage) * hit / 4 + 10
            }
            Choice::Ability { ability, target } => {
                let god = content.gods.get(&me.god).map(|g| &g.value);
                let ab = god.and_then(|g| g.abilities.iter().find(|a| a.id == *ability));
                match (ab.and_then(|a| a.damage), target) {
                    (Some(dmg), Some(t)) => dmg as i32 + kill(t, dmg as i32) + 12,
                    (None, Some(t)) if view.state.seat_of(t).map(|s| view.state.player(s).team) == Some(me.team) => {
                        let hurt = view.state.seat_of(t).map_or(0, |s| {
                            let p = view.state.player(s);
                            p.max_health - p.health
                        });
                        if hurt >= 20 { 20 } else { -1 }
                    }
                    _ => 8,
                }
            }
            Choice::Heal { artifact, target } => {
                let amount = content.artifacts.get(artifact).and_then(|a| a.value.healing).unwrap_or(0) as i32;
                let missing = view.state.seat_of(target).map_or(0, |s| {
                    let p = view.state.player(s);
                    p.max_health - p.health
                });
                if missing >= amount { amount } else { -1 }
            }
            Choice::Stamina { .. } => {
                if me.stamina < 6 {
                    4
                } else {
                    -1
                }
            }
            Choice::Add { purchase } => Self::purchase(view, d, purchase),
            Choice::Charge { .. } => 1,
            Choice::Discharge { .. } => -2,
            Choice::PlayBoost { .. } => 6,
            Choice::EndTurn | Choice::Complete | Choice::Pass => 0,
            Choice::Block { .. } | Choice::CounterBoost { .. } | Choice::CounterAbility { .. } => 10,
            Choice::Attach { .. } => 10,
            Choice::Colour { colour } => i32::from(view.state.accuracy(d.player).contains(colour)),
            Choice::Revive { give } => {
                if me.health - give >= 30 {
                    50 - (give - 30).abs()
                } else {
                    -1
                }
            }
            Choice::Discard { reinforcement } => {
                -(view.state.players.iter().flat_map(|p| &p.reinforcements).filter(|r| r.id == *reinforcement).count()
                    as i32)
            }
            Choice::God { god } => content.gods.get(god).map_or(0, |g| g.value.health as i32),
            Choice::Transaction | Choice::Text { .. } => 0,
        }
    }

    fn purchase(view: &View<'_>, d: &Decision, p: &Purchase) -> i32 {
        let me = view.state.player(d.player);
        let turn = view.state.turn;
        match p {
            Purchase::Artifact { id } => {
                let Some(a) = view.content.artifacts.get(id).map(|a| &a.value) else { return 0 };
                match a.use_ {
                    ArtifactUse::Prisma if turn < 30 => 9 + a.prisma.unwrap_or(0) as i32,
                    ArtifactUse::StandardAttack => 6 + a.damage.unwrap_or(0) as i32 / 5,
                    ArtifactUse::Block => 7,
                    ArtifactUse::Healing => 5,
                    _ => 2,
                }
            }
            Purchase::Destroy { card } => match view.content.artifacts.get(card).map(|a| a.value.use_) {
                Some(ArtifactUse::None) | None => 14,
                _ => -5,
            },
            Purchase::Token { skill: Skill::Accuracy, .. } => 13,
            Purchase::Token { skill: Skill::Range, .. } => {
                if view.state.enemies(d.player).iter().any(|e| view.state.in_range(d.player, *e)) { 4 } else { 16 }
            }
            Purchase::Token { skill: Skill::Stamina, .. } => 7,
            Purchase::Boost => 5,
            Purchase::Reinforcement => 8,
            Purchase::ReplaceReinforcement => {
                if me.reinforcements.iter().any(|r| r.hits > 0) {
                    6
                } else {
                    -1
                }
            }
        }
    }
}

impl Controller for GreedyController {
    fn decide(&mut self, d: &Decision, view: &View<'_>) -> usize {
        if d.kind == DecisionKind::Choose {
            return 0;
        }
        let mut best = (i32::MIN, 0);
        for (i, c) in d.options.iter().enumerate() {
            let s = Self::score(d, view, c);
            if s > best.0 {
                best = (s, i);
            }
        }
        // A transaction item worth little is not added: pay instead.
        if d.kind == DecisionKind::Transaction && best.0 < 5 {
            return d.options.iter().position(|c| *c == Choice::Complete).unwrap_or(best.1);
        }
        best.1
    }
}
