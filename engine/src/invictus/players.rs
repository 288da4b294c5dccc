//! Invictus's greedy heuristic (a score per option, one function per kind
//! of decision), reading only the seat's view; `crate::players::GreedyPlayer`
//! plays it. The random and scripted players are `crate::players`'s, the
//! same for every game.

use super::decision::{Choice, Decision, DecisionKind, Purchase, View};
use super::state::Card;
use crate::model::{ArtifactUse, Skill};
use crate::rules::seats::PlayerId;

/// Artifacts in a hand after drawing (`003 § Completing Your Turn`).
const HAND: usize = 5;

/// The greedy heuristic: attack the weakest enemy it can hurt most, heal
/// when hurt, buy Prisma and attacks, block every attack, revive allies.
struct Heuristic;

impl Heuristic {
    fn health(view: &View<'_>, god: &str) -> i32 {
        view.seat_of(god).map_or(0, |s| view.player(s).health)
    }

    fn score(d: &Decision, view: &View<'_>, c: &Choice) -> i32 {
        let content = view.content;
        let me = view.player(d.player);
        let kill = |target: &str, damage: i32| if Self::health(view, target) <= damage { 40 } else { 0 };
        match c {
            Choice::StandardAttack { artifact, target, reinforcement } => {
                let damage = content.artifacts.get(artifact).and_then(|a| a.value.damage).unwrap_or(0) as i32;
                let hit = view.accuracy(d.player).len() as i32;
                if reinforcement.is_some() {
                    return 3;
                }
                damage * hit / 4 + kill(target, damage) * hit / 4 + 10
            }
            Choice::Ability { ability, target } => {
                let god = content.gods.get(me.god).map(|g| &g.value);
                let ab = god.and_then(|g| g.abilities.iter().find(|a| a.id == *ability));
                match (ab.and_then(|a| a.damage), target) {
                    (Some(dmg), Some(t)) => dmg as i32 + kill(t, dmg as i32) + 12,
                    (None, Some(t)) if view.seat_of(t).map(|s| view.player(s).team) == Some(me.team) => {
                        let hurt = view.seat_of(t).map_or(0, |s| {
                            let p = view.player(s);
                            p.max_health - p.health
                        });
                        if hurt >= 20 { 20 } else { -1 }
                    }
                    _ => 8,
                }
            }
            Choice::Heal { artifact, target } => {
                let amount = content.artifacts.get(artifact).and_then(|a| a.value.healing).unwrap_or(0) as i32;
                let missing = view.seat_of(target).map_or(0, |s| {
                    let p = view.player(s);
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
            Choice::Colour { colour } => i32::from(view.accuracy(d.player).contains(colour)),
            Choice::Revive { give } => {
                if me.health - give >= 30 {
                    50 - (give - 30).abs()
                } else {
                    -1
                }
            }
            Choice::Discard { reinforcement } => {
                -(view.players().flat_map(|p| p.reinforcements).filter(|r| r.id == *reinforcement).count() as i32)
            }
            // A god board is not judged by one number (Health alone made
            // the greedy player never take Hermes): every god scores the
            // same, so the first dealt (the deal is shuffled) is taken.
            Choice::God { .. } => 0,
            Choice::Transaction | Choice::Text { .. } => 0,
        }
    }

    /// The Artifacts of `p` it can see (its hand when it is `p`, its discard
    /// pile and Charge Station) that have `use_`.
    fn owned(view: &View<'_>, p: PlayerId, use_: ArtifactUse) -> i32 {
        let me = view.player(p);
        let hand = me.hand.cards().unwrap_or_default();
        let uses = |c: &Card| view.content.artifacts.get(c.id()).map(|a| a.value.use_);
        hand.iter().chain(me.discard).chain(me.charged).filter(|c| uses(c) == Some(use_)).count() as i32
    }

    /// `p`'s hand is a full one (nothing played from it this turn) with no
    /// standard attack and at least two Blocks: a hand it cannot play on
    /// its own turn, so it would stay as it is.
    fn clogged(view: &View<'_>, p: PlayerId) -> bool {
        let me = view.player(p);
        let hand = me.hand.cards().unwrap_or_default();
        if hand.len() < HAND {
            return false;
        }
        let uses = |u: ArtifactUse| {
            hand.iter().filter(|c| view.content.artifacts.get(c.id()).map(|a| a.value.use_) == Some(u)).count()
        };
        uses(ArtifactUse::StandardAttack) == 0 && uses(ArtifactUse::Block) >= 2
    }

    fn purchase(view: &View<'_>, d: &Decision, p: &Purchase) -> i32 {
        let me = view.player(d.player);
        let turn = view.turn();
        match p {
            Purchase::Artifact { id } => {
                let Some(a) = view.content.artifacts.get(id).map(|a| &a.value) else { return 0 };
                match a.use_ {
                    ArtifactUse::Prisma if turn < 30 => 9 + a.prisma.unwrap_or(0) as i32,
                    ArtifactUse::StandardAttack => 6 + a.damage.unwrap_or(0) as i32 / 5,
                    ArtifactUse::Block => 7 - 2 * Self::owned(view, d.player, ArtifactUse::Block),
                    ArtifactUse::Healing => 5,
                    _ => 2,
                }
            }
            Purchase::Destroy { card } => match view.content.artifacts.get(card).map(|a| a.value.use_) {
                Some(ArtifactUse::None) | None => 14,
                // Unused cards stay in hand (`003 § Completing Your Turn`
                // draws only up to 5): a hand of Blocks with no attack
                // would be the next turn's hand too, for ever.
                Some(ArtifactUse::Block) if Self::clogged(view, d.player) => 8,
                _ => -5,
            },
            Purchase::Token { skill: Skill::Accuracy, .. } => 13,
            Purchase::Token { skill: Skill::Range, .. } => {
                if view.enemies(d.player).iter().any(|e| view.in_range(d.player, *e)) { 4 } else { 16 }
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

/// The greedy heuristic's answer to an Invictus Decision (an index into its
/// options): attack the weakest enemy it can hurt most, heal when hurt, buy
/// Prisma and attacks, block every attack, revive allies.
pub fn greedy(d: &Decision, view: &View<'_>) -> usize {
    if d.kind == DecisionKind::Choose {
        return 0;
    }
    let mut best = (i32::MIN, 0);
    for (i, c) in d.options.iter().enumerate() {
        let s = Heuristic::score(d, view, c);
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
