//! The greedy player's look-ahead: what an option does is found by doing
//! it. At a Decision whose options the fast heuristic (`players::greedy`)
//! cannot judge from the card's text (which Target an effect that is not an
//! Attack goes to, which Switch, Tactic or optional Effect pays, where a
//! Displacement, a Placing or a chosen space goes, what a `game:choose`
//! picks), each option is answered on a fork of the game whose coming dice
//! are drawn anew ([`InfoSet::probe`]: the same new dice for every option,
//! so options are compared on the same luck), the game is played on with
//! the fast heuristic until the effect has resolved (the game asks one of
//! its own questions again: the next Action, an Activation's first
//! Decision, the end of the Round: [`resolved`]) and the position is scored
//! with the evaluation function ([`super::eval`]). The option worth most to
//! the deciding seat is answered; options worth the same go to the fast
//! heuristic's answer.
//!
//! In an Actions Step, the Actions that are not Attacks (and Actions Step
//! Tactics while the hand keeps two for Rolls) are weighed against doing
//! nothing: the best is performed when it gains anything and the Character
//! has Action Points to spare for a Move (three) or stands in a Scoring
//! Zone; Attacks and the Scenario's own Actions come first, as in the fast
//! heuristic, and a step toward the Scoring Zone after.
//!
//! What the fork knows that the seat does not: the other seats' hidden
//! cards. The look-ahead never reads them: the evaluation reads the public
//! part of a view only, and the other seats' Decisions on the fork are
//! answered without their cards (no Tactic is played for them).
//! Deterministic: the new dice are seeded by the number of Decisions
//! answered before and the seat.
//!
//! Where a fork would replay more than [`MAX_REPLAYS`] answers from the
//! game's last quiet point, the fast heuristic answers; once an effect has
//! failed in a game, `table::play_out` no longer asks the player at the
//! table (every fork would run the failed mod script again).

use super::eval::evaluate;
use super::greedy::{Heuristic, ZoneField, aristeia as fast};
use crate::rules::decision::{Choice, Decision, DecisionKind};
use crate::rules::seats::PlayerId;
use crate::rules::view::View;
use crate::table::{InfoSet, Player, SeatNative, SeatView};

/// Decisions a look-ahead answers at most before it scores the position
/// (an effect that asks more is cut there).
pub const MAX_STEPS: u32 = 40;

/// Options a Decision may have for every one to be weighed (a space chosen
/// among more is left to the fast heuristic).
pub const MAX_OPTIONS: usize = 24;

/// Answers a fork may replay from the game's last quiet point for options
/// to be weighed: past it (an Activation of dozens of Actions) each fork
/// costs more than a Round of play, and the fast heuristic answers.
pub const MAX_REPLAYS: usize = 64;

/// How much an option must gain, in the evaluation's value, to count.
const EPSILON: f64 = 1e-9;

/// Whether the game asks one of its own questions again at a Decision of
/// this kind: an option's effect has resolved before it.
fn resolved(kind: &DecisionKind) -> bool {
    use DecisionKind::*;
    matches!(
        kind,
        Action | FirstActivation | RunningOrder | Deploy | BenchReturn | ScoringZone | Objective | Draft | Mulligan
    )
}

/// Whether the options of a Decision of this kind are weighed by look-ahead.
fn weighed(kind: &DecisionKind) -> bool {
    use DecisionKind::*;
    matches!(
        kind,
        Switch
            | OptionalEffect
            | Displace
            | Place
            | Target
            | Space
            | Choose
            | Tactic
            | RemoveState
            | SimultaneousEffects
    )
}

/// The greedy player's answer at a table: the fast heuristic's, or for the
/// Decisions it cannot judge the best-scored option ([module notes](self)).
pub(super) fn aristeia(info: &InfoSet<'_, '_>, d: &Decision, view: &View<'_>) -> usize {
    if info.fork_replays() > MAX_REPLAYS {
        return fast(d, view);
    }
    match plan(d, view) {
        Plan::Fast => fast(d, view),
        Plan::Weigh => {
            let all: Vec<usize> = (0..d.options.len()).collect();
            let base = fast(d, view);
            best(info, &all, base).map_or(base, |(i, _)| i)
        }
        Plan::WeighPlans { attack, advance } => {
            let seed = seed(info);
            let me = d.character.unwrap_or_default();
            let value = |first: usize, policy: Policy| {
                let mut fork = info.probe(seed).ok()?;
                let mut stepper = Stepper {
                    prober: info.seat(),
                    first: Some(first),
                    steps: 0,
                    horizon: Horizon::Activation(me),
                    policy,
                };
                let mut players: [&mut dyn Player; 1] = [&mut stepper];
                fork.play_on(&mut players).ok()?;
                evaluate(&*fork).get(info.seat().index()).copied()
            };
            match (value(attack, Policy::Fast), value(advance, Policy::ZoneFirst)) {
                (Some(a), Some(b)) if b > a + EPSILON => advance,
                _ => attack,
            }
        }
        Plan::WeighActions(candidates) => {
            if let (Some(now), Some((i, v))) = (value_now(info), best(info, &candidates, usize::MAX)) {
                if v > now + EPSILON {
                    return i;
                }
            }
            Heuristic::advance(d, view, &ZoneField::new(view))
        }
    }
}

/// Whether the greedy player looks ahead at this Decision (it needs the
/// table there: `Player::needs_table`); elsewhere its answer is the fast
/// heuristic's.
pub(super) fn needed(d: &Decision, view: &View<'_>) -> bool {
    !matches!(plan(d, view), Plan::Fast)
}

/// How a Decision is answered.
enum Plan {
    /// By the fast heuristic.
    Fast,
    /// The best of every option.
    Weigh,
    /// The best of these Actions if it gains anything, else a step toward the Scoring Zone.
    WeighActions(Vec<usize>),
    /// The fast heuristic's Attack (or Scenario Action) and a step toward
    /// the Scoring Zone, each played on to the end of the Activation (the
    /// step by the zone-first policy): the better plan's first answer.
    WeighPlans { attack: usize, advance: usize },
}

fn plan(d: &Decision, view: &View<'_>) -> Plan {
    if d.options.len() < 2 || d.options.len() > MAX_OPTIONS {
        return Plan::Fast;
    }
    if weighed(&d.kind) {
        return Plan::Weigh;
    }
    if d.kind != DecisionKind::Action {
        return Plan::Fast;
    }
    if let Some(attack) = Heuristic::attack_or_scenario(d, view) {
        // An Attack in reach outside the Scoring Zone: is the Activation
        // better spent walking into it (`000 § Phase 3: Objectives`)?
        if Heuristic::in_zone(d, view) {
            return Plan::Fast;
        }
        let advance = Heuristic::advance(d, view, &ZoneField::new(view));
        return if d.options[advance] == Choice::Done { Plan::Fast } else { Plan::WeighPlans { attack, advance } };
    }
    let mut candidates = candidates(d, view);
    // What the fast heuristic would do unweighed (an Actions Step Tactic,
    // a guess at a helping Action) is weighed too.
    if let Some(guess) = Heuristic::tactic_or_useful(d, view) {
        if !candidates.contains(&guess) {
            candidates.push(guess);
        }
        return Plan::WeighActions(candidates);
    }
    if candidates.is_empty() {
        return Plan::Fast;
    }
    let me = d.character.as_deref().unwrap_or_default();
    let ap = view.unit(me).map_or(0, |u| u.action_points);
    if ap >= 3 || Heuristic::in_zone(d, view) || moves_only(d) { Plan::WeighActions(candidates) } else { Plan::Fast }
}

/// Whether the Actions weighed are only those that spend Movement Points
/// (the Character is walking: Freerun may take it further than a step).
fn moves_only(d: &Decision) -> bool {
    d.options.iter().any(|o| matches!(o, Choice::MoveTo { .. }))
}

/// The options of an Action Decision weighed against doing nothing: each
/// Action that is not an Attack nor the Move Action (while walking, only
/// those that spend Movement Points), and Actions Step Tactics while the
/// hand holds more than two.
fn candidates(d: &Decision, view: &View<'_>) -> Vec<usize> {
    let me = d.character.as_deref().unwrap_or_default();
    let walking = moves_only(d);
    let hand = view.player(d.player).hand.len();
    d.options
        .iter()
        .enumerate()
        .filter(|(_, o)| {
            let (actor, action) = match o {
                Choice::Perform { action, .. } if action != "move" && action != "contender" => (me, action),
                Choice::MinionAction { minion, action, .. } => (minion.as_str(), action),
                Choice::Play { .. } => return hand > 2 && !walking,
                _ => return false,
            };
            view.actions_of(actor)
                .iter()
                .find(|a| a.id == *action)
                .is_some_and(|a| !a.attack && (!walking || a.movement_cost > 0))
        })
        .map(|(i, _)| i)
        .collect()
}

/// The seed of a Decision's look-aheads: every option of it is played on
/// the same new dice.
fn seed(info: &InfoSet<'_, '_>) -> u64 {
    super::seat_seed(info.answered() as u64 ^ 0x6c6f_6f6b_6168_6561, info.seat().index())
}

/// The value of the position now to the deciding seat.
fn value_now(info: &InfoSet<'_, '_>) -> Option<f64> {
    let fork = info.probe(seed(info)).ok()?;
    evaluate(&*fork).get(info.seat().index()).copied()
}

/// The option of `options` worth most to the deciding seat, with its value
/// (equal values: `prefer`, else the first); `None` when a look-ahead failed.
fn best(info: &InfoSet<'_, '_>, options: &[usize], prefer: usize) -> Option<(usize, f64)> {
    let seat = info.seat();
    let seed = seed(info);
    let mut top: Option<(usize, f64)> = None;
    for &o in options {
        let mut fork = info.probe(seed).ok()?;
        let mut stepper =
            Stepper { prober: seat, first: Some(o), steps: 0, horizon: Horizon::Effect, policy: Policy::Fast };
        let mut players: [&mut dyn Player; 1] = [&mut stepper];
        fork.play_on(&mut players).ok()?;
        let v = evaluate(&*fork).get(seat.index()).copied()?;
        let better = match top {
            None => true,
            Some((t, tv)) => v > tv + EPSILON || ((v - tv).abs() <= EPSILON && o == prefer && t != prefer),
        };
        if better {
            top = Some((o, v));
        }
    }
    top
}

/// Decisions a look-ahead to the end of an Activation answers at most (an
/// Activation of a few Move Actions asks a question for every step).
pub const MAX_ACTIVATION_STEPS: u32 = 100;

/// How far a look-ahead plays before it scores the position.
enum Horizon {
    /// Until the effect has resolved ([`resolved`]).
    Effect,
    /// Until this Character's Activation has ended (a Decision outside its
    /// Actions Step that the game asks of its own accord, or another
    /// Character's Action).
    Activation(crate::model::Id),
}

/// How the prober's seat answers on a fork after the option weighed.
#[derive(Clone, Copy)]
enum Policy {
    /// The fast heuristic.
    Fast,
    /// A step toward the Scoring Zone while the Character stands outside it
    /// and can come nearer, then the fast heuristic.
    ZoneFirst,
}

/// Every seat's player on a look-ahead's fork: the option weighed first,
/// then the policy (another seat plays no Tactic and answers by the fast
/// heuristic: its cards are not known), until the horizon.
struct Stepper {
    prober: PlayerId,
    first: Option<usize>,
    steps: u32,
    horizon: Horizon,
    policy: Policy,
}

impl Stepper {
    /// Whether the fork has reached its horizon at this Decision.
    fn reached(&self, d: &Decision) -> bool {
        match &self.horizon {
            Horizon::Effect => resolved(&d.kind) || self.steps >= MAX_STEPS,
            Horizon::Activation(me) => {
                (resolved(&d.kind) && d.kind != DecisionKind::Action)
                    || (d.kind == DecisionKind::Action && d.character.as_ref() != Some(me))
                    || self.steps >= MAX_ACTIVATION_STEPS
            }
        }
    }
}

impl Player for Stepper {
    fn choose(&mut self, seat: &SeatView<'_>) -> Option<usize> {
        if let Some(o) = self.first.take() {
            return Some(o);
        }
        let SeatNative::Aristeia { decision, view } = &seat.native else { return None };
        if self.reached(decision) {
            return None;
        }
        self.steps += 1;
        if decision.player != self.prober {
            if decision.kind == DecisionKind::Tactic {
                return Some(decision.options.iter().position(|o| !matches!(o, Choice::Play { .. })).unwrap_or(0));
            }
            return Some(fast(decision, view));
        }
        if let (Policy::ZoneFirst, DecisionKind::Action) = (self.policy, &decision.kind) {
            if !Heuristic::in_zone(decision, view) {
                let step = Heuristic::advance(decision, view, &ZoneField::new(view));
                if decision.options[step] != Choice::Done {
                    return Some(step);
                }
            }
        }
        Some(fast(decision, view))
    }
}
