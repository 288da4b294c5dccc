//! Decisions: every choice a player makes is one [`Decision`] with its legal
//! options, answered by a [`Controller`] with the index of an option. A game is
//! therefore its seed, its content and the sequence of answers (a replay).
//!
//! Controllers here: [`RandomController`] (uniform over legal options, seeded),
//! [`ScriptedController`] (a list of answers, then a fallback). The greedy
//! heuristic and the human prompt live with the simulator.

use crate::model::Id;
use crate::rules::event::PlayerId;
use crate::rules::geometry::Hex;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

/// What a decision is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Once per game, right after the starting hand: keep it or draw anew (`000 § Setup`).
    Mulligan,
    /// Where a Character deploys at setup.
    Deploy,
    /// The Running Order for a Round (`000 § Planning Phase`).
    RunningOrder,
    /// Which of the two Characters of a Turn activates first (`000 § Turns Phase`).
    FirstActivation,
    /// What the active Character does next in its Actions Step.
    Action,
    /// Where a benched Character returns (`000 § Bench`).
    BenchReturn,
    /// Which adjacent Enemy contests a Disengage (`000 § Disengage`).
    DisengageContender,
    /// Which die a Critical Block Nullifies, or keep it (`000 § Critical Block`).
    CriticalBlock,
    /// Which side activates Switches first (`000 § Switches`).
    SwitchOrder,
    /// Which Switch to activate next, or stop (`000 § Switches`).
    Switch,
    /// Whether to apply an optional Effect (`000 § Effects`).
    OptionalEffect,
    /// Which space a Displacement goes to (`000 § Displacements`).
    Displace,
    /// Which space a Character is Placed in (`000 § Placing`).
    Place,
    /// A Target chosen by an effect (`game:choose_target`).
    Target,
    /// A space chosen by an effect (`game:choose_space`).
    Space,
    /// Where to place a Special Space marker (`001 § Scenarios with Special Spaces`).
    SpecialSpace,
    /// A Running Projectile: where to deploy it, which to activate, where it
    /// Displaces, which Target it hits (`001 § Running Projectiles`).
    Projectile,
    /// Which of several simultaneous effects resolves first: the Underdog
    /// decides (`000 § When Do Things Happen`).
    SimultaneousEffects,
    /// An option chosen by an effect (`game:choose`).
    Choose,
    /// A Tactic to play in a timing window, or none (`000 § Tactics`).
    Tactic,
    /// Which Deployment Zone becomes the Scoring Zone (Assault).
    ScoringZone,
}

/// One legal option.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "option", rename_all = "kebab-case")]
pub enum Choice {
    /// Yes / no.
    Yes,
    /// No.
    No,
    /// Stop: end the Activation, activate no more Switches, play no Tactic, keep the Critical Block.
    Done,
    /// A space.
    Space { space: Hex },
    /// A Character (or other entry) by id.
    Pick { id: Id },
    /// An ordering of Characters.
    Order { ids: Vec<Id> },
    /// Perform an Action, on a Target if it has one.
    Perform { action: Id, target: Option<Id>, cost: u8 },
    /// A Controller activates one of its Minions to perform an Action (`002 § Controller`).
    MinionAction { minion: Id, action: Id, target: Option<Id>, cost: u8 },
    /// A Controller removes one of its Minions from the HexaDome (`002 § Controller`).
    RemoveMinion { minion: Id },
    /// Spend a Movement Point to move to an adjacent space.
    MoveTo { space: Hex },
    /// Nullify this die (index in the opponent's Roll) with a Critical Block.
    Nullify { index: usize, die: String },
    /// This side activates Switches first.
    First { character: Id },
    /// Activate a Switch.
    Activate { switch: Id },
    /// Play a Tactic.
    Play { tactic: Id },
    /// A free-form option of an effect.
    Text { text: String },
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Choice::Yes => f.write_str("yes"),
            Choice::No => f.write_str("no"),
            Choice::Done => f.write_str("done"),
            Choice::Space { space } => write!(f, "space [{}, {}]", space.q, space.r),
            Choice::Pick { id } => f.write_str(id),
            Choice::Order { ids } => f.write_str(&ids.join(", ")),
            Choice::Perform { action, target: Some(t), cost } => write!(f, "{action} on {t} ({cost} AP)"),
            Choice::Perform { action, target: None, cost } => write!(f, "{action} ({cost} AP)"),
            Choice::MinionAction { minion, action, target: Some(t), cost } => {
                write!(f, "{minion}: {action} on {t} ({cost} AP)")
            }
            Choice::MinionAction { minion, action, target: None, cost } => write!(f, "{minion}: {action} ({cost} AP)"),
            Choice::RemoveMinion { minion } => write!(f, "remove {minion}"),
            Choice::MoveTo { space } => write!(f, "move to [{}, {}]", space.q, space.r),
            Choice::Nullify { index, die } => write!(f, "nullify die #{} ({die})", index + 1),
            Choice::First { character } => write!(f, "{character} first"),
            Choice::Activate { switch } => write!(f, "activate {switch}"),
            Choice::Play { tactic } => write!(f, "play {tactic}"),
            Choice::Text { text } => f.write_str(text),
        }
    }
}

/// A choice to make: who makes it, about what, and the legal options (never empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// The deciding player.
    pub player: PlayerId,
    /// What it is about.
    pub kind: Kind,
    /// The Character concerned, if any.
    pub character: Option<Id>,
    /// A short question for people.
    pub prompt: String,
    /// The legal options; the answer is an index into this list.
    pub options: Vec<Choice>,
}

/// Something that answers decisions.
pub trait Controller {
    /// The index of the chosen option; out-of-range answers are an engine error.
    fn decide(&mut self, decision: &Decision, view: &crate::rules::state::View<'_>) -> usize;
}

/// Uniformly random legal options, from its own seeded RNG.
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
    fn decide(&mut self, decision: &Decision, _view: &crate::rules::state::View<'_>) -> usize {
        // Ending an Activation or stopping is as likely as anything else, so
        // games move on; a Running Order is any permutation.
        self.rng.random_range(0..decision.options.len())
    }
}

/// Answers from a list (a replay, a situation file, a test), then from a fallback.
pub struct ScriptedController {
    answers: std::collections::VecDeque<usize>,
    fallback: Box<dyn Controller>,
}

impl ScriptedController {
    /// Answer with `answers` in order, then ask `fallback`.
    pub fn new(answers: Vec<usize>, fallback: Box<dyn Controller>) -> Self {
        ScriptedController { answers: answers.into(), fallback }
    }
}

impl Controller for ScriptedController {
    fn decide(&mut self, decision: &Decision, view: &crate::rules::state::View<'_>) -> usize {
        match self.answers.pop_front() {
            Some(a) if a < decision.options.len() => a,
            _ => self.fallback.decide(decision, view),
        }
    }
}

/// A greedy heuristic that plays sensibly: deploys and moves toward the Scoring
/// Zone, attacks the most wounded Enemy in reach, activates every Switch it can,
/// applies optional Effects, and ends its Activation when nothing helps.
#[derive(Debug, Default)]
pub struct GreedyController;

impl GreedyController {
    fn zone_centre(view: &crate::rules::state::View<'_>) -> Option<Hex> {
        let spaces = &view.board.zones.get(&view.state.scoring_zone)?.1;
        // The space nearest the zone's middle: the one with least total distance.
        spaces.iter().copied().min_by_key(|h| spaces.iter().map(|o| h.distance(*o)).sum::<u32>())
    }

    fn position(view: &crate::rules::state::View<'_>, id: &str) -> Option<Hex> {
        view.state.units.iter().find(|u| u.id == id).and_then(|u| match u.location {
            crate::rules::state::Location::Space(h) => Some(h),
            _ => None,
        })
    }
}

impl Controller for GreedyController {
    fn decide(&mut self, d: &Decision, view: &crate::rules::state::View<'_>) -> usize {
        let centre = Self::zone_centre(view);
        // Route length to the zone's centre around Blocked spaces, Barriers and
        // Characters (hex distance would get stuck behind a wall).
        let occupied: std::collections::BTreeSet<Hex> = view
            .state
            .units
            .iter()
            .filter_map(|u| match u.location {
                crate::rules::state::Location::Space(h) => Some(h),
                _ => None,
            })
            .collect();
        let passable = |h: Hex| {
            view.board.on_board(h)
                && !view.board.blocked.contains(&h)
                && !view.board.barriers.contains(&h)
                && !occupied.contains(&h)
        };
        // One distance field from the zone's centre per decision, computed only
        // if a space has to be weighed.
        let field = std::cell::OnceCell::new();
        let near = |h: &Hex| {
            centre.map_or(0, |c| {
                let f = field.get_or_init(|| crate::rules::geometry::distance_field(c, passable, 40));
                // An occupied space (the Character's own) is one step from its best neighbour.
                f.get(h)
                    .copied()
                    .or_else(|| h.neighbours().iter().filter_map(|n| f.get(n)).min().map(|d| d + 1))
                    .unwrap_or(100 + h.distance(c))
            })
        };
        let best_space = |d: &Decision| {
            d.options
                .iter()
                .enumerate()
                .filter_map(|(i, o)| match o {
                    Choice::Space { space } | Choice::MoveTo { space } => Some((near(space), i)),
                    _ => None,
                })
                .min()
                .map(|(_, i)| i)
        };
        match d.kind {
            Kind::Mulligan => d.options.iter().position(|o| *o == Choice::No).unwrap_or(0),
            // Special Space markers on the way to the Scoring Zone, where
            // Characters will step on them.
            Kind::Deploy | Kind::BenchReturn | Kind::Space | Kind::SpecialSpace => best_space(d).unwrap_or(0),
            Kind::FirstActivation | Kind::SwitchOrder => d
                .options
                .iter()
                .position(|o| match o {
                    Choice::First { character } => {
                        view.state.units.iter().any(|u| u.id == *character && u.owner == d.player)
                    }
                    _ => false,
                })
                .unwrap_or(0),
            Kind::Action => {
                let me = d.character.as_deref().unwrap_or_default();
                let here = Self::position(view, me);
                // Attack the Enemy with the least Hit Points left.
                let attack = d
                    .options
                    .iter()
                    .enumerate()
                    .filter_map(|(i, o)| match o {
                        Choice::Perform { action, target: Some(t), .. }
                        | Choice::MinionAction { action, target: Some(t), .. } => {
                            let actor = match o {
                                Choice::MinionAction { minion, .. } => minion.as_str(),
                                _ => me,
                            };
                            let actions = view.actions_of(actor);
                            let is_attack =
                                action == "contender" || actions.iter().any(|a| a.id == *action && a.attack);
                            let unit = view.state.units.iter().find(|u| u.id == *t)?;
                            if !is_attack || unit.owner == d.player {
                                return None;
                            }
                            // Characters before Minions: a Frag is worth more than an Obstacle.
                            let minion = unit.minion.is_some() as u8;
                            let hp = view.hit_points(t)?.saturating_sub(unit.damage);
                            let dice = actions
                                .iter()
                                .find(|a| a.id == *action)
                                .and_then(|a| a.roll.as_ref())
                                .map_or(1, |r| r.dice.len());
                            Some(((minion, hp, usize::MAX - dice), i))
                        }
                        _ => None,
                    })
                    .min()
                    .map(|(_, i)| i);
                if let Some(i) = attack {
                    return i;
                }
                // Actions Step Tactics, while the hand keeps two for Rolls.
                let hand = view.state.players[d.player].hand.len();
                if hand > 2 {
                    if let Some(i) = d.options.iter().position(|o| matches!(o, Choice::Play { .. })) {
                        return i;
                    }
                }
                // An Action that is not an Attack (a heal, a State, a Minion
                // deployed) on an Enemy, a wounded Ally, or no Target.
                let useful =
                    d.options.iter().position(|o| {
                        let (actor, action, target) = match o {
                            Choice::Perform { action, target, .. } if action != "move" => (me, action, target),
                            Choice::MinionAction { minion, action, target, .. } => (minion.as_str(), action, target),
                            _ => return false,
                        };
                        let Some(a) = view.actions_of(actor).iter().find(|a| a.id == *action) else { return false };
                        if a.attack || a.movement_cost > 0 {
                            return false;
                        }
                        match target {
                            None => true,
                            Some(t) => view.state.units.iter().find(|u| u.id == *t).is_some_and(|u| {
                                u.owner != d.player || (u.damage > 0 && u.minion.is_none() && u.id != me)
                            }),
                        }
                    });
                // Only with Action Points to spare for a Move afterwards.
                let ap = view.state.units.iter().find(|u| u.id == me).map_or(0, |u| u.action_points);
                if let (Some(i), true) = (useful, ap >= 3) {
                    return i;
                }
                let in_zone = here
                    .is_some_and(|h| view.board.zones.get(&view.state.scoring_zone).is_some_and(|z| z.1.contains(&h)));
                if !in_zone {
                    if let (Some(i), Some(h)) = (best_space(d), here) {
                        if let Choice::MoveTo { space } = &d.options[i] {
                            if near(space) < near(&h) {
                                return i;
                            }
                        }
                    }
                    let has_mp = d.options.iter().any(|o| matches!(o, Choice::MoveTo { .. }));
                    if !has_mp {
                        if let Some(i) = d
                            .options
                            .iter()
                            .position(|o| matches!(o, Choice::Perform { action, .. } if action == "move"))
                        {
                            return i;
                        }
                    }
                }
                d.options.iter().position(|o| *o == Choice::Done).unwrap_or(0)
            }
            Kind::CriticalBlock => d
                .options
                .iter()
                .position(|o| matches!(o, Choice::Nullify { die, .. } if die == "red"))
                .or_else(|| d.options.iter().position(|o| matches!(o, Choice::Nullify { .. })))
                .unwrap_or(0),
            Kind::Switch => d.options.iter().position(|o| matches!(o, Choice::Activate { .. })).unwrap_or(0),
            // A Running Projectile: toward the nearest Enemy Character, then at
            // the most wounded one in Range.
            Kind::Projectile => {
                let enemies: Vec<(Hex, u8, &crate::model::Id)> = view
                    .state
                    .units
                    .iter()
                    .filter(|u| u.owner != d.player && u.minion.is_none() && u.projectile.is_none())
                    .filter_map(|u| match u.location {
                        crate::rules::state::Location::Space(h) => {
                            Some((h, view.hit_points(&u.id).unwrap_or(0).saturating_sub(u.damage), &u.id))
                        }
                        _ => None,
                    })
                    .collect();
                let nearest = |h: &Hex| enemies.iter().map(|(e, ..)| e.distance(*h)).min().unwrap_or(u32::MAX);
                let moves = d.options.iter().enumerate().filter_map(|(i, o)| match o {
                    Choice::MoveTo { space } | Choice::Space { space } => Some((nearest(space), i)),
                    _ => None,
                });
                if let Some((_, i)) = moves.min() {
                    return i;
                }
                d.options
                    .iter()
                    .enumerate()
                    .filter_map(|(i, o)| match o {
                        Choice::Pick { id } => {
                            enemies.iter().find(|(_, _, e)| *e == id).map(|(_, hp, _)| (*hp, i)).or(Some((u8::MAX, i)))
                        }
                        _ => None,
                    })
                    .min()
                    .map_or(0, |(_, i)| i)
            }
            // Tactics are played where they change a Roll or answer the
            // opponent's ("Play a Tactic before the Roll?", "Answer ...?");
            // Actions Step Tactics are left for the Action decisions.
            Kind::Tactic => d.options.iter().position(|o| matches!(o, Choice::Play { .. })).unwrap_or(0),
            Kind::OptionalEffect => d.options.iter().position(|o| *o == Choice::Yes).unwrap_or(0),
            Kind::ScoringZone => {
                // The empty zone nearest our own Characters.
                let mine: Vec<Hex> = view
                    .state
                    .units
                    .iter()
                    .filter(|u| u.owner == d.player)
                    .filter_map(|u| match u.location {
                        crate::rules::state::Location::Space(h) => Some(h),
                        _ => None,
                    })
                    .collect();
                d.options
                    .iter()
                    .enumerate()
                    .filter_map(|(i, o)| match o {
                        Choice::Pick { id } => {
                            let first = *view.board.zones.get(id)?.1.first()?;
                            Some((mine.iter().map(|m| m.distance(first)).sum::<u32>(), i))
                        }
                        _ => None,
                    })
                    .min()
                    .map_or(0, |(_, i)| i)
            }
            _ => 0,
        }
    }
}

/// Answers a situation's Decisions from its list of answers, matched against
/// how each option prints (`ken-no-sen on major-lunah (3 AP)`, `done`); a
/// missing or unmatched answer stops the situation with the options listed.
#[derive(Debug, Default)]
pub struct SituationController {
    answers: std::collections::VecDeque<String>,
    /// The first Decision that could not be answered, with its options.
    pub unanswered: Option<String>,
    /// The Decisions asked and the answers given, as text.
    pub transcript: Vec<String>,
}

impl SituationController {
    /// A controller answering with `answers` in order.
    pub fn new(answers: Vec<String>) -> Self {
        SituationController { answers: answers.into(), unanswered: None, transcript: vec![] }
    }

    /// Answers never asked for.
    pub fn leftover(&self) -> usize {
        self.answers.len()
    }

    /// The answers never asked for, in order.
    pub fn leftovers(&self) -> Vec<String> {
        self.answers.iter().cloned().collect()
    }
}

/// The shared answer stream of both players of a situation.
pub type SharedSituation = std::rc::Rc<std::cell::RefCell<SituationController>>;

/// One seat's handle on a [`SharedSituation`].
pub struct SituationSeat(pub SharedSituation);

impl Controller for SituationSeat {
    fn decide(&mut self, d: &Decision, _view: &crate::rules::state::View<'_>) -> usize {
        let mut s = self.0.borrow_mut();
        let listed =
            || d.options.iter().enumerate().map(|(i, o)| format!("  {}. {o}", i + 1)).collect::<Vec<_>>().join("\n");
        // Once stopped, the game halts (usize::MAX: the engine stops asking).
        let wind_down = usize::MAX;
        if s.unanswered.is_some() {
            return wind_down;
        }
        match s.answers.pop_front() {
            // `#N`: the Nth option, as listed.
            Some(a) => match a
                .strip_prefix('#')
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|n| (1..=d.options.len()).contains(n))
                .map(|n| n - 1)
                .or_else(|| d.options.iter().position(|o| o.to_string() == a))
            {
                Some(i) => {
                    s.transcript.push(format!("{} -> {a}", d.prompt));
                    i
                }
                None => {
                    s.unanswered = Some(format!(
                        "answer #{} \"{a}\" is not an option of \"{}\"; the options are:\n{}",
                        s.transcript.len() + 1,
                        d.prompt,
                        listed()
                    ));
                    wind_down
                }
            },
            None => {
                s.unanswered =
                    Some(format!("no answer left for \"{}\" ({}); the options are:\n{}", d.prompt, d.player, listed()));
                wind_down
            }
        }
    }
}
