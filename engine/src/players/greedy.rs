//! The greedy player: one heuristic per game, each reading only what its
//! seat may know (README § Using it says what its figures mean).
//! Aristeia!'s ([`aristeia`]): toward the Scoring Zone and at the most
//! wounded Enemy in reach; Invictus's: `crate::invictus::players`.

use crate::model::Id;
use crate::rules::decision::{Choice, Decision, DecisionKind};
use crate::rules::geometry::{DistanceField, Hex, HexGrid, distance_field_into, distance_field_on};
use crate::rules::view::View;
use crate::table::{InfoSet, Player, SeatNative, SeatView};

/// The greedy player of every game: its seat's Decision goes to that game's
/// heuristic (Aristeia!: deploys and moves toward the Scoring Zone, attacks
/// the most wounded Enemy in reach, activates every Switch it can, applies
/// optional Effects, and ends its Activation when nothing helps; Invictus:
/// the best-scored option, `crate::invictus::players::greedy`).
#[derive(Debug, Default, Clone, Copy)]
pub struct GreedyPlayer;

impl Player for GreedyPlayer {
    /// The fast heuristic alone (in an engine's own loop, and in the search
    /// player's playouts).
    fn choose(&mut self, seat: &SeatView<'_>) -> Option<usize> {
        Some(match &seat.native {
            SeatNative::Aristeia { decision, view } => aristeia(decision, view),
            SeatNative::Invictus { decision, view } => crate::invictus::players::greedy(decision, view),
        })
    }

    /// At a table: the Decisions the fast heuristic cannot judge are
    /// weighed by look-ahead (`players::lookahead`).
    fn choose_in(&mut self, info: &InfoSet<'_, '_>) -> Option<usize> {
        Some(match &info.view().native {
            SeatNative::Aristeia { decision, view } => super::lookahead::aristeia(info, decision, view),
            SeatNative::Invictus { decision, view } => crate::invictus::players::greedy(decision, view),
        })
    }

    /// Its games are played at a table, for the look-ahead.
    fn searches(&self) -> bool {
        true
    }

    /// Where it looks ahead (`players::lookahead`).
    fn needs_table(&self, seat: &SeatView<'_>) -> bool {
        match &seat.native {
            SeatNative::Aristeia { decision, view } => super::lookahead::needed(decision, view),
            SeatNative::Invictus { .. } => false,
        }
    }
}

/// The greedy heuristic's answer to an Aristeia! Decision (an index into its options).
pub fn aristeia(d: &Decision, view: &View<'_>) -> usize {
    Heuristic::decide(d, view)
}

/// The Aristeia! heuristic's parts.
pub(super) struct Heuristic;

impl Heuristic {
    fn zone_centre(view: &View<'_>) -> Option<Hex> {
        let zone = match view.scoring_zones().first() {
            Some(z) => *z,
            // No Scoring Zone: the first Deployment Zone an available blue
            // Objective card asks to control (`001 § Objective Cards`).
            None => Self::objective_zone(view)?,
        };
        let spaces = &view.board.zones.get(&zone)?.1;
        // The space nearest the zone's middle: the one with least total distance.
        spaces.iter().copied().min_by_key(|h| spaces.iter().map(|o| h.distance(*o)).sum::<u32>())
    }

    fn position(view: &View<'_>, id: &str) -> Option<Hex> {
        view.position(id)
    }
}

/// The route length to the Scoring Zone's centre from any space, around
/// Blocked spaces, Barriers and Characters (hex distance would get stuck
/// behind a wall): one distance field per decision, computed only if a space
/// has to be weighed, over the board's passability grid (computed once per
/// game) with the Characters marked on it.
pub(super) struct ZoneField<'v> {
    view: &'v View<'v>,
    centre: Option<Hex>,
    field: std::cell::OnceCell<std::rc::Rc<DistanceField>>,
}

/// The last distance field a thread computed, with the centre and the
/// passability it was computed from, and a passability grid to build the
/// next question's in: the memory of all three is reused from decision to
/// decision.
#[derive(Default)]
struct FieldCache {
    /// The centre and passability `field` is of; `None` before the first.
    inputs: Option<(Hex, HexGrid<bool>)>,
    field: std::rc::Rc<DistanceField>,
    scratch: Option<HexGrid<bool>>,
}

thread_local! {
    /// Decisions in a row with nobody moved (the options of an Attack, a
    /// Switch, a Tactic) ask for the same field.
    static LAST_FIELD: std::cell::RefCell<FieldCache> = std::cell::RefCell::default();
}

impl<'v> ZoneField<'v> {
    pub(super) fn new(view: &'v View<'v>) -> Self {
        ZoneField { view, centre: Heuristic::zone_centre(view), field: Default::default() }
    }

    /// The distance field from `centre` over [`Self::passable`], the last
    /// one again when its inputs are the same (a pure function of them, so
    /// games stay the same).
    fn field_of(&self, centre: Hex) -> std::rc::Rc<DistanceField> {
        LAST_FIELD.with(|last| {
            let cache = &mut *last.borrow_mut();
            let mut grid = cache.scratch.take().unwrap_or_else(|| HexGrid::new(centre, 0, false));
            self.passable(centre, &mut grid);
            if let Some((c, g)) = &mut cache.inputs {
                if *c == centre && *g == grid {
                    cache.scratch = Some(grid);
                    return cache.field.clone();
                }
                *c = centre;
                std::mem::swap(g, &mut grid);
                cache.scratch = Some(grid);
            } else {
                cache.inputs = Some((centre, grid));
            }
            let Some((_, passable)) = &cache.inputs else { unreachable!("set above") };
            // The previous decision's field is no longer held: written over.
            match std::rc::Rc::get_mut(&mut cache.field) {
                Some(f) => distance_field_into(passable, centre, 40, f),
                None => cache.field = std::rc::Rc::new(distance_field_on(passable, centre, 40)),
            }
            cache.field.clone()
        })
    }

    /// The board's passability with every unit's space marked impassable, in
    /// an area that holds the board and `centre`, written into `grid`.
    fn passable(&self, centre: Hex, grid: &mut HexGrid<bool>) {
        let board = self.view.board;
        let origin = Hex::new(0, 0);
        if centre.distance(origin) <= board.radius {
            grid.clone_from(board.open_grid());
        } else {
            // A centre off the board (a map that puts a zone there): spaces
            // off the board stay impassable.
            grid.reset(origin, centre.distance(origin), false);
            for (h, open) in board.open_grid().iter() {
                grid.set(h, *open);
            }
        }
        for h in self.view.units().filter_map(|u| u.space()) {
            grid.set(h, false);
        }
    }

    /// Steps from `h` to the zone's centre (0 without a Scoring Zone).
    fn near(&self, h: &Hex) -> u32 {
        self.centre.map_or(0, |c| {
            let f = self.field.get_or_init(|| self.field_of(c));
            // An occupied space (the Character's own) is one step from its best neighbour.
            f.get(*h)
                .or_else(|| h.neighbours().iter().filter_map(|n| f.get(*n)).min().map(|d| d + 1))
                .unwrap_or(100 + h.distance(c))
        })
    }

    /// The option whose space is nearest the zone's centre (the first of equals).
    fn best_space(&self, d: &Decision) -> Option<usize> {
        self.spaces(d).min().map(|(_, i)| i)
    }

    /// The option whose space is farthest from the zone's centre (the first of equals).
    fn worst_space(&self, d: &Decision) -> Option<usize> {
        self.spaces(d).max_by_key(|(near, i)| (*near, std::cmp::Reverse(*i))).map(|(_, i)| i)
    }

    /// Each space option's steps to the zone's centre, with its index.
    fn spaces<'d>(&'d self, d: &'d Decision) -> impl Iterator<Item = (u32, usize)> + 'd {
        d.options.iter().enumerate().filter_map(|(i, o)| match o {
            Choice::Space { space } | Choice::MoveTo { space } => Some((self.near(space), i)),
            _ => None,
        })
    }

    /// Where a Displacement (`000 § Displace`) takes its Character: one's
    /// own toward the Scoring Zone, another's away from it.
    fn displace(&self, d: &Decision) -> Option<usize> {
        let own = d.character.as_deref().and_then(|c| self.view.unit(c)).is_some_and(|u| u.owner == d.player);
        if own { self.best_space(d) } else { self.worst_space(d) }
    }
}

impl Heuristic {
    fn decide(d: &Decision, view: &View<'_>) -> usize {
        let field = ZoneField::new(view);
        match d.kind {
            DecisionKind::Mulligan => d.options.iter().position(|o| *o == Choice::No).unwrap_or(0),
            // Special Space markers on the way to the Scoring Zone, where
            // Characters will step on them.
            DecisionKind::Deploy | DecisionKind::BenchReturn | DecisionKind::Space | DecisionKind::SpecialSpace => {
                field.best_space(d).unwrap_or(0)
            }
            DecisionKind::Displace => field.displace(d).unwrap_or(0),
            DecisionKind::FirstActivation | DecisionKind::SwitchOrder => d
                .options
                .iter()
                .position(|o| match o {
                    Choice::First { character } => view.unit(character).is_some_and(|u| u.owner == d.player),
                    _ => false,
                })
                .unwrap_or(0),
            DecisionKind::Action => Self::action(d, view, &field),
            DecisionKind::CriticalBlock => d
                .options
                .iter()
                .position(|o| matches!(o, Choice::Nullify { die, .. } if die == "red"))
                .or_else(|| d.options.iter().position(|o| matches!(o, Choice::Nullify { .. })))
                .unwrap_or(0),
            DecisionKind::Switch => d.options.iter().position(|o| matches!(o, Choice::Activate { .. })).unwrap_or(0),
            DecisionKind::Projectile => Self::projectile(d, view),
            // Tactics are played where they change a Roll or answer the
            // opponent's ("Play a Tactic before the Roll?", "Answer ...?");
            // Actions Step Tactics are left for the Action decisions.
            DecisionKind::Tactic => d.options.iter().position(|o| matches!(o, Choice::Play { .. })).unwrap_or(0),
            DecisionKind::OptionalEffect => d.options.iter().position(|o| *o == Choice::Yes).unwrap_or(0),
            DecisionKind::ScoringZone => Self::scoring_zone(d, view),
            DecisionKind::Objective => Self::objective(d, view),
            _ => 0,
        }
    }
}

impl Heuristic {
    /// The zone of the first available blue Objective card: one it names, or
    /// the Central Zone.
    fn objective_zone(view: &View<'_>) -> Option<Id> {
        use crate::model::ObjectiveRequirement;
        let deck = view.objectives()?;
        deck.available.iter().find_map(|c| match view.content.objectives.get(c)?.value.requirement.as_ref()? {
            ObjectiveRequirement::Control { zones, .. } if !zones.is_empty() => zones.first().cloned(),
            ObjectiveRequirement::Control { .. } => {
                view.board.zones.iter().find(|(_, (k, _))| *k == crate::model::ZoneKind::Central).map(|(z, _)| *z)
            }
            _ => None,
        })
    }

    /// Who controls a zone now (`001 § Controlling a Deployment Zone`).
    fn controller_of(view: &View<'_>, zone: &str) -> Option<crate::rules::seats::PlayerId> {
        let spaces = &view.board.zones.get(zone)?.1;
        let mut counts: std::collections::BTreeMap<crate::rules::seats::PlayerId, usize> = Default::default();
        for u in view.units().filter(|u| u.is_character()) {
            if u.space().is_some_and(|h| spaces.contains(&h)) {
                *counts.entry(u.owner).or_default() += 1;
            }
        }
        let most = counts.values().copied().max()?;
        let top: Vec<_> = counts.iter().filter(|(_, n)| **n == most).map(|(p, _)| *p).collect();
        (top.len() == 1).then(|| top[0])
    }

    /// Whether an Objective card works against the deciding player: a green
    /// card while it has the most Victory Points (it would lose them), a blue
    /// card whose zones another player controls and it does not.
    fn objective_against_me(d: &Decision, view: &View<'_>, card: &str) -> bool {
        use crate::model::ObjectiveRequirement;
        let Some(o) = view.content.objectives.get(card) else { return false };
        let vp = |p: crate::rules::seats::PlayerId| view.player(p).victory_points;
        match &o.value.requirement {
            Some(ObjectiveRequirement::LeastVictoryPoints) => {
                let most = view.table().seats().map(vp).max().unwrap_or(0);
                vp(d.player) == most && most > 0
            }
            Some(ObjectiveRequirement::Control { zones, .. }) if !zones.is_empty() => {
                let holders: Vec<_> = zones.iter().map(|z| Self::controller_of(view, z)).collect();
                !holders.contains(&Some(d.player)) && holders.iter().any(|h| h.is_some())
            }
            _ => false,
        }
    }

    /// An Objective card decision: discard (Prime Time's discard, a hidden
    /// card at the end of the Round) a card that works against it, else
    /// nothing; keep the card with the most Victory Points.
    fn objective(d: &Decision, view: &View<'_>) -> usize {
        let picks = d.options.iter().enumerate().filter_map(|(i, o)| match o {
            Choice::Pick { id } => Some((i, id.as_str())),
            _ => None,
        });
        if d.options.first() == Some(&Choice::Done) {
            return picks.into_iter().find(|(_, c)| Self::objective_against_me(d, view, c)).map_or(0, |(i, _)| i);
        }
        let value = |c: &str| view.content.objectives.get(c).map_or(0, |o| o.value.vp);
        if d.prompt.contains("hand which") {
            // What is handed on: the card worth least.
            return picks.min_by_key(|(i, c)| (value(c), *i)).map_or(0, |(i, _)| i);
        }
        picks.max_by_key(|(i, c)| (value(c), std::cmp::Reverse(*i))).map_or(0, |(i, _)| i)
    }

    /// An Action: attack the Enemy with the least Hit Points left; else an
    /// Actions Step Tactic, a useful non-Attack Action, a step toward the
    /// Scoring Zone; else end the Activation.
    fn action(d: &Decision, view: &View<'_>, field: &ZoneField<'_>) -> usize {
        Self::attack_or_scenario(d, view)
            .or_else(|| Self::tactic_or_useful(d, view))
            .unwrap_or_else(|| Self::advance(d, view, field))
    }

    /// The Attack on the Enemy with the least Hit Points left, else one of
    /// the Scenario's own Actions while it pays.
    pub(super) fn attack_or_scenario(d: &Decision, view: &View<'_>) -> Option<usize> {
        let me = d.character.as_deref().unwrap_or_default();
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
                    let is_attack = action == "contender" || actions.iter().any(|a| a.id == *action && a.attack);
                    let unit = view.unit(t)?;
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
            return Some(i);
        }
        // The Scenario's own Actions (Crow Accumulator's capsules, Targeting
        // the Accumulator, an Obstacle): what they do is how the Scenario
        // scores, so perform them while the Character holds fewer than two
        // of the Scenario's counters (the capsules stop at 2).
        let scenario_actions = view.content.scenarios.get(view.scenario()).map_or(&[][..], |s| &s.value.actions[..]);
        if !scenario_actions.is_empty() {
            let held: i64 = view.counters().get(me).map_or(0, |c| c.values().sum());
            let scoring = d.options.iter().position(
                |o| matches!(o, Choice::Perform { action, .. } if scenario_actions.iter().any(|a| a.id == *action)),
            );
            if let (Some(i), true) = (scoring, held < 2) {
                return Some(i);
            }
        }
        None
    }

    /// The fast player's guess at a helping Action: an Actions Step Tactic
    /// while the hand keeps two for Rolls, else a non-Attack Action on an
    /// Enemy, a wounded Ally or no Target with Action Points to spare (the
    /// look-ahead, `players::lookahead`, weighs these instead).
    pub(super) fn tactic_or_useful(d: &Decision, view: &View<'_>) -> Option<usize> {
        let me = d.character.as_deref().unwrap_or_default();
        // Actions Step Tactics, while the hand keeps two for Rolls.
        let hand = view.player(d.player).hand.len();
        if hand > 2 {
            if let Some(i) = d.options.iter().position(|o| matches!(o, Choice::Play { .. })) {
                return Some(i);
            }
        }
        // An Action that is not an Attack (a heal, a State, a Minion
        // deployed) on an Enemy, a wounded Ally, or no Target.
        let useful = d.options.iter().position(|o| {
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
                Some(t) => view
                    .unit(t)
                    .is_some_and(|u| u.owner != d.player || (u.damage > 0 && u.minion.is_none() && u.id != me)),
            }
        });
        // Only with Action Points to spare for a Move afterwards.
        let ap = view.unit(me).map_or(0, |u| u.action_points);
        useful.filter(|_| ap >= 3)
    }

    /// Whether the active Character stands in a Scoring Zone.
    pub(super) fn in_zone(d: &Decision, view: &View<'_>) -> bool {
        let me = d.character.as_deref().unwrap_or_default();
        Self::position(view, me).is_some_and(|h| {
            view.scoring_zones().iter().any(|z| view.board.zones.get(z).is_some_and(|z| z.1.contains(&h)))
        })
    }

    /// A step toward the Scoring Zone (a Move Action first), else end the Activation.
    pub(super) fn advance(d: &Decision, view: &View<'_>, field: &ZoneField<'_>) -> usize {
        let me = d.character.as_deref().unwrap_or_default();
        let here = Self::position(view, me);
        if !Self::in_zone(d, view) {
            if let (Some(i), Some(h)) = (field.best_space(d), here) {
                if let Choice::MoveTo { space } = &d.options[i] {
                    if field.near(space) < field.near(&h) {
                        return i;
                    }
                }
            }
            let has_mp = d.options.iter().any(|o| matches!(o, Choice::MoveTo { .. }));
            if !has_mp {
                if let Some(i) =
                    d.options.iter().position(|o| matches!(o, Choice::Perform { action, .. } if action == "move"))
                {
                    return i;
                }
            }
        }
        d.options.iter().position(|o| *o == Choice::Done).unwrap_or(0)
    }

    /// A Running Projectile: toward the nearest Enemy Character, then at the
    /// most wounded one in Range.
    fn projectile(d: &Decision, view: &View<'_>) -> usize {
        let enemies: Vec<(Hex, u8, &Id)> = view
            .units()
            .filter(|u| u.owner != d.player && u.is_character())
            .filter_map(|u| Some((u.space()?, view.hit_points(u.id).unwrap_or(0).saturating_sub(u.damage), u.id)))
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

    /// The Scoring Zone to move to: the empty zone nearest our own Characters.
    fn scoring_zone(d: &Decision, view: &View<'_>) -> usize {
        // The empty zone nearest our own Characters.
        let mine: Vec<Hex> = view.units().filter(|u| u.owner == d.player).filter_map(|u| u.space()).collect();
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
}
