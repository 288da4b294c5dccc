//! The evaluation function: what a position is worth to each seat, read
//! only from what every seat may see (the public part of a seat's view), so
//! that the search player's cut-offs never read hidden cards. One piece,
//! shared by the search player's rollouts (`players::mcts`) and the greedy
//! player's scoring of options on forks (`players::lookahead`).
//!
//! The value of a seat is an estimate of its chance to win, in `[0, 1]`:
//! a game that is over is worth its returns (`Outcome::returns`: 1 to a
//! winner, 0 to a loser, 0.5 to every seat of a game without a winner);
//! a game that goes on is worth a soft-max of each seat's (or team's)
//! *strength*, sharper as the end nears (the temperature falls with the
//! Rounds or turns left), so the values of a position sum to 1.
//!
//! Aristeia! strength (`000 § Victory Points`, `000 § Scoring Zone`,
//! `000 § Infirmary`): Victory Points scored, plus [`PROJECTED`] times the
//! Victory Points the Scenario's Scoring Zone objectives would give it if
//! the Round ended now ([`projected`]), plus for each of the seat's
//! Characters in the HexaDome [`ZONE`] when it stands in a Scoring Zone and
//! [`HEALTH`] times the share of its Hit Points left, plus the worth of
//! each State token it holds (the State's `worth`, a red token whole, a
//! blue one, removed at the next States Step, by half; [`UNRATED_STATE`]
//! for a State without one: `000 § States`), and for the active Character
//! [`ACTION_POINT`] for each Action Point it has left to spend in its
//! Activation (`000 § Action Points`); a Character in the Infirmary counts
//! nothing.
//!
//! Invictus strength (`003 § Health`, `003 § Defeat`): a team's Health
//! left over its Maximum Health (a defeated god counts 0), averaged over
//! its seats.

use crate::rules::geometry::Hex;
use crate::rules::seats::PlayerId;
use crate::rules::state::Location;
use crate::table::{Native, Table};

/// Victory Points a Character standing in a Scoring Zone is worth (it
/// scores there at the Round's end).
pub const ZONE: f64 = 0.6;

/// The share of the Victory Points the Scenario's Scoring Zone objectives
/// would give if the Round ended now that a position is credited with (the
/// Characters may yet be moved, Displaced or sent to the Infirmary before
/// the Objectives Phase).
pub const PROJECTED: f64 = 0.5;

/// Victory Points a Character at full Hit Points is worth (at 0 it goes
/// to the Infirmary and yields a Frag).
pub const HEALTH: f64 = 0.8;

/// Victory Points an Action Point left to the active Character is worth:
/// less than any effect on the board, so that an Action which does nothing
/// is a loss and one that gives back more Action Points than it costs a
/// gain.
pub const ACTION_POINT: f64 = 0.02;

/// Victory Points a token of a State without a `worth` is taken to be
/// worth to its holder: a hindrance, as most States are.
pub const UNRATED_STATE: f64 = -0.2;

/// What `unit`'s State tokens are worth to it (the module's notes).
fn states_worth(view: &crate::rules::view::View<'_>, unit: &crate::rules::view::UnitSeen<'_>) -> f64 {
    use crate::rules::state::TokenSide;
    unit.tokens
        .iter()
        .map(|t| {
            let worth =
                view.content.states.get(&t.state).map_or(UNRATED_STATE, |s| s.value.worth.unwrap_or(UNRATED_STATE));
            match t.side {
                TokenSide::Red => worth,
                TokenSide::Blue => worth / 2.0,
            }
        })
        .sum()
}

/// The values of `table`'s position for every seat, by seat (see the
/// module's notes): each in `[0, 1]`.
pub fn evaluate(table: &dyn Table<'_>) -> Vec<f64> {
    if let Some(outcome) = table.outcome() {
        return outcome.returns.clone();
    }
    match table.native() {
        Native::Aristeia { view, .. } => aristeia(&view),
        Native::Invictus { view, .. } => invictus(&view),
    }
}

/// Each seat's strength in Victory Points (the public part of the view
/// only), by seat.
pub fn aristeia_strength(view: &crate::rules::view::View<'_>) -> Vec<f64> {
    let seats = view.table().len();
    let mut strength = vec![0.0; seats];
    for round in view.scored() {
        for (s, vp) in round.iter().enumerate() {
            strength[s] += f64::from(*vp);
        }
    }
    let zones: Vec<_> = view
        .scoring_zones()
        .iter()
        .filter_map(|z| view.board.zones.get(z))
        .flat_map(|(_, spaces)| spaces.iter().copied())
        .collect();
    for (s, vp) in projected(view, &zones).into_iter().enumerate() {
        strength[s] += PROJECTED * f64::from(vp);
    }
    for u in view.units() {
        if !u.is_character() {
            continue;
        }
        let Location::Space(h) = u.location else { continue };
        let s = u.owner.index();
        if s >= seats {
            continue;
        }
        if zones.contains(&h) {
            strength[s] += ZONE;
        }
        let hp = f64::from(view.hit_points(u.id).unwrap_or(1).max(1));
        strength[s] += HEALTH * (hp - f64::from(u.damage)).max(0.0) / hp;
        strength[s] += states_worth(view, &u);
        if view.active() == Some(u.id) {
            strength[s] += ACTION_POINT * f64::from(u.action_points);
        }
    }
    strength
}

/// The Victory Points each seat would score from the Scenario's Scoring
/// Zone objectives (`ZoneObjective`: `000 § Phase 3: Objectives`) if the
/// Round ended now, by seat; `scoring` is the spaces of the current Scoring
/// Zones. Objectives written in Lua are not foreseen.
pub fn projected(view: &crate::rules::view::View<'_>, scoring: &[Hex]) -> Vec<u32> {
    let seats = view.table().len();
    let mut vp = vec![0; seats];
    let Some(scenario) = view.content.scenarios.get(view.scenario()) else { return vp };
    for rule in &scenario.value.rules {
        let Some(o) = &rule.objective else { continue };
        let spaces: &[Hex] = if o.zone == crate::model::SCORING_ZONE {
            scoring
        } else {
            view.board.zones.get(&o.zone).map_or(&[], |(_, s)| &s[..])
        };
        let mut counts = vec![0; seats];
        for u in view.units() {
            if let (true, Some(h)) = (u.is_character(), u.space()) {
                if u.owner.index() < seats && spaces.contains(&h) {
                    counts[u.owner.index()] += 1;
                }
            }
        }
        for (s, v) in o.scores.scorers(u32::from(rule.vp.unwrap_or(0)), &counts).into_iter().enumerate() {
            vp[s] += v;
        }
    }
    vp
}

fn aristeia(view: &crate::rules::view::View<'_>) -> Vec<f64> {
    let strength = aristeia_strength(view);
    let left = f64::from(view.rounds().saturating_sub(view.round()));
    // One Round's swing is a few Victory Points: spread the values while
    // several Rounds are left, sharpen them near the end.
    soft_max(&strength, 1.0 + 1.5 * left)
}

/// Each seat's strength: its team's share of Health left (the public part
/// of the view only), by seat.
pub fn invictus_strength(view: &crate::invictus::View<'_>) -> Vec<f64> {
    let players: Vec<_> = view.players().collect();
    let team_share = |team: usize| {
        let members: Vec<_> = players.iter().filter(|p| p.team == team).collect();
        let n = members.len().max(1) as f64;
        members
            .iter()
            .map(|p| if p.defeated { 0.0 } else { f64::from(p.health.max(0)) / f64::from(p.max_health.max(1)) })
            .sum::<f64>()
            / n
    };
    players.iter().map(|p| team_share(p.team)).collect()
}

fn invictus(view: &crate::invictus::View<'_>) -> Vec<f64> {
    let strength = invictus_strength(view);
    let players: Vec<_> = view.players().collect();
    // Soft-max over teams (a team's seats share its value), then split
    // among nobody: every seat of a team gets the team's value.
    let mut teams: Vec<usize> = players.iter().map(|p| p.team).collect();
    teams.sort_unstable();
    teams.dedup();
    let team_strength: Vec<f64> = teams
        .iter()
        .map(|t| players.iter().zip(&strength).find(|(p, _)| p.team == *t).map_or(0.0, |(_, s)| *s))
        .collect();
    let values = soft_max(&team_strength, 0.15);
    players.iter().map(|p| teams.iter().position(|t| *t == p.team).map_or(0.0, |i| values[i])).collect()
}

/// `exp(x / t)` normalised to sum 1.
fn soft_max(x: &[f64], t: f64) -> Vec<f64> {
    let top = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = x.iter().map(|v| ((v - top) / t).exp()).collect();
    let sum: f64 = e.iter().sum();
    e.iter().map(|v| v / sum).collect()
}

/// The value of `table`'s position to `seat` ([`evaluate`]'s entry).
pub fn value_of(table: &dyn Table<'_>, seat: PlayerId) -> f64 {
    evaluate(table).get(seat.index()).copied().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::{aristeia, evaluate, invictus, soft_max};
    use crate::rules::seats::{PlayerId, Seated};
    use crate::rules::state::Location;
    use crate::table::{Native, Player, Setup, Table};
    use std::sync::Arc;

    fn loaded(pack: &str) -> crate::load::Loaded {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(pack);
        let options = crate::load::Options { run_script_tests: false, ..crate::load::Options::default() };
        let l = crate::load::load(&[root], &options);
        assert!(!l.has_errors(), "the bundled {pack} loads");
        l
    }

    fn table<'a>(
        game: &str,
        l: &'a crate::load::Loaded,
        rt: &'a crate::script::runtime::Runtime,
        name: &str,
        seats: usize,
    ) -> Box<dyn Table<'a> + 'a> {
        let setup = Setup { name: name.into(), seats: Some(seats), seed: 1 };
        crate::sim::find(game).unwrap().start(&l.content, rt, &setup).unwrap()
    }

    /// `t` played on by greedy players until its Aristeia! state is `at`.
    fn greedy_until<'a>(
        mut t: Box<dyn Table<'a> + 'a>,
        at: impl Fn(&crate::rules::state::GameState) -> bool,
    ) -> Box<dyn Table<'a> + 'a> {
        while !matches!(t.native(), Native::Aristeia { state, .. } if at(state)) {
            let a = crate::players::GreedyPlayer.choose(&t.seat_view().expect("not over yet")).unwrap();
            t.apply(a).unwrap();
        }
        t
    }

    #[test]
    fn soft_max_sums_to_one_and_keeps_the_order() {
        let v = soft_max(&[3.0, 1.0, 2.0], 1.0);
        assert!((v.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(v[0] > v[2] && v[2] > v[1]);
        let even = soft_max(&[2.0, 2.0], 5.0);
        assert_eq!(even, vec![0.5, 0.5]);
    }

    /// `000 § Victory Points`, `000 § Scoring Zone`, `000 § Damage`: more
    /// Victory Points, an Enemy more wounded, or a Character of one's own
    /// in the Scoring Zone is a better position for that seat.
    #[test]
    fn an_aristeia_position_with_more_victory_points_zone_or_enemy_damage_is_worth_more() {
        let l = loaded("content");
        let rt =
            crate::sim::find("aristeia").unwrap().runtime(Arc::new(l.content.clone()), l.script_set.clone()).unwrap();
        // Both teams stand in the HexaDome.
        let t = greedy_until(table("aristeia", &l, &rt, "assault", 2), |state| {
            (0..2).all(|s| state.units.iter().any(|u| u.owner.index() == s && matches!(u.location, Location::Space(_))))
        });
        let Native::Aristeia { state, view, .. } = t.native() else { unreachable!() };
        let (content, board) = (&l.content, view.board);
        let me = PlayerId::seat(0);
        let value = |s: &crate::rules::state::GameState| {
            aristeia(&crate::rules::view::View::new(me, s, &[], content, board))[0]
        };
        let base = value(state);

        let mut more_vp = state.clone();
        more_vp.scored.push(Seated::from_fn(state.players.table(), |p| if p == me { 3 } else { 0 }));
        assert!(value(&more_vp) > base, "3 Victory Points more: {} against {base}", value(&more_vp));

        let mut wounded = state.clone();
        let enemy =
            wounded.units.iter_mut().find(|u| u.owner != me && matches!(u.location, Location::Space(_))).unwrap();
        let hp = content.characters.get(enemy.id.as_str()).map_or(5, |c| c.value.hit_points);
        enemy.damage = hp.saturating_sub(1);
        assert!(value(&wounded) > base, "an Enemy at 1 Hit Point: {} against {base}", value(&wounded));

        let zone =
            view.scoring_zones().first().and_then(|z| board.zones.get(z)).map(|z| z.1.clone()).unwrap_or_default();
        let mut in_zone = state.clone();
        if let Some(mine) = in_zone
            .units
            .iter_mut()
            .find(|u| u.owner == me && matches!(u.location, Location::Space(h) if !zone.contains(&h)))
        {
            mine.location = Location::Space(zone[0]);
            assert!(value(&in_zone) > base, "a Character in the Scoring Zone: {} against {base}", value(&in_zone));
        }
    }

    /// `000 § Phase 3: Objectives`: the Victory Points Assault's Scoring Zone
    /// objectives would give if the Round ended now are foreseen (only
    /// player 3, more Characters 2, the same number 1 each), and credited at
    /// [`super::PROJECTED`] of their worth.
    #[test]
    fn the_scoring_zone_objectives_are_foreseen_from_who_stands_in_the_zone() {
        let l = loaded("content");
        let rt =
            crate::sim::find("aristeia").unwrap().runtime(Arc::new(l.content.clone()), l.script_set.clone()).unwrap();
        let t = greedy_until(table("aristeia", &l, &rt, "assault", 2), |state| {
            (0..2).all(|s| {
                state.units.iter().filter(|u| u.owner.index() == s && matches!(u.location, Location::Space(_))).count()
                    >= 2
            })
        });
        let Native::Aristeia { state, view, .. } = t.native() else { unreachable!() };
        let (content, board) = (&l.content, view.board);
        let me = PlayerId::seat(0);
        let zone: Vec<_> =
            view.scoring_zones().iter().filter_map(|z| board.zones.get(z)).flat_map(|z| z.1.clone()).collect();
        assert!(zone.len() >= 3, "Assault's Central Zone has room for three");
        // Nobody in the zone; then Characters stepped into it one by one.
        let mut empty = state.clone();
        for u in empty.units.iter_mut().filter(|u| matches!(u.location, Location::Space(h) if zone.contains(&h))) {
            u.location = Location::Bench;
        }
        let place = |s: &mut crate::rules::state::GameState, owner: usize, at: usize| {
            let u = s
                .units
                .iter_mut()
                .find(|u| {
                    u.owner.index() == owner
                        && u.minion.is_none()
                        && matches!(u.location, Location::Space(h) if !zone.contains(&h))
                })
                .unwrap();
            u.location = Location::Space(zone[at]);
        };
        let foreseen = |s: &crate::rules::state::GameState| {
            let v = crate::rules::view::View::new(me, s, &[], content, board);
            (super::projected(&v, &zone), super::aristeia_strength(&v))
        };
        let (vp, base) = foreseen(&empty);
        assert_eq!(vp, vec![0, 0], "nobody in the zone scores nothing");
        let mut alone = empty.clone();
        place(&mut alone, 0, 0);
        let (vp, strength) = foreseen(&alone);
        assert_eq!(vp, vec![3, 0], "the only player in the zone");
        let gain = strength[0] - base[0];
        let expected = super::PROJECTED * 3.0 + super::ZONE;
        assert!((gain - expected).abs() < 1e-9, "credited {gain}, expected {expected}");
        let mut same = alone.clone();
        place(&mut same, 1, 1);
        assert_eq!(foreseen(&same).0, vec![1, 1], "the same number each");
        let mut more = same.clone();
        place(&mut more, 0, 2);
        assert_eq!(foreseen(&more).0, vec![2, 0], "more Characters");
    }

    /// `000 § States`: a State token counts by its State's `worth`, a red
    /// token whole and a blue one (removed at the next States Step) by half;
    /// the active Character's Action Points count a little.
    #[test]
    fn a_state_token_counts_by_its_worth_and_side() {
        use crate::rules::state::{Token, TokenSide};
        let l = loaded("content");
        let rt =
            crate::sim::find("aristeia").unwrap().runtime(Arc::new(l.content.clone()), l.script_set.clone()).unwrap();
        let t = greedy_until(table("aristeia", &l, &rt, "assault", 2), |state| state.active.is_some());
        let Native::Aristeia { state, view, .. } = t.native() else { unreachable!() };
        let (content, board) = (&l.content, view.board);
        let active = state.active.expect("an Activation");
        let me = state.units.iter().find(|u| u.id == active).map(|u| u.owner).unwrap();
        let strength = |s: &crate::rules::state::GameState| {
            super::aristeia_strength(&crate::rules::view::View::new(me, s, &[], content, board))[me.index()]
        };
        let base = strength(state);
        let with = |state_id: &str, side: TokenSide| {
            let mut s = state.clone();
            let u = s.units.iter_mut().find(|u| u.id == active).unwrap();
            u.tokens.push(Token { state: state_id.into(), side, source: None, choice: None });
            strength(&s) - base
        };
        let stunned = content.states["stunned"].value.worth.expect("Stunned has a worth");
        assert!(stunned < 0.0);
        assert!((with("stunned", TokenSide::Red) - stunned).abs() < 1e-12);
        assert!((with("stunned", TokenSide::Blue) - stunned / 2.0).abs() < 1e-12);
        assert!(with("focused", TokenSide::Red) > 0.0, "Focused helps its holder");
        assert!((with("no-such-state", TokenSide::Red) - super::UNRATED_STATE).abs() < 1e-12);
        let mut spent = state.clone();
        let u = spent.units.iter_mut().find(|u| u.id == active).unwrap();
        u.action_points = u.action_points.saturating_sub(2);
        assert!(strength(&spent) < base, "Action Points spent for nothing are a loss");
    }

    /// `003 § Health`: a team whose Enemies lost Health is better off.
    #[test]
    fn an_invictus_position_with_wounded_enemies_is_worth_more() {
        let l = loaded("content/invictus");
        let rt =
            crate::sim::find("invictus").unwrap().runtime(Arc::new(l.content.clone()), l.script_set.clone()).unwrap();
        let t = table("invictus", &l, &rt, "teams", 4);
        let Native::Invictus { state, .. } = t.native() else { unreachable!() };
        let value = |s: &crate::invictus::GameState| {
            invictus(&crate::invictus::View::new(PlayerId::seat(0), s, &[], &l.content))[0]
        };
        let base = value(state);
        let mut wounded = state.clone();
        let team = wounded.players[0].team;
        for p in wounded.players.iter_mut().filter(|p| p.team != team) {
            p.health /= 2;
        }
        assert!(value(&wounded) > base, "Enemies at half Health: {} against {base}", value(&wounded));
        let mut hurt = state.clone();
        hurt.players[0].health /= 2;
        assert!(value(&hurt) < base, "at half Health oneself: {} against {base}", value(&hurt));
    }

    /// A game that is over is worth its returns, in both games.
    #[test]
    fn a_finished_game_is_worth_its_returns() {
        for (game, pack, name, seats) in
            [("aristeia", "content", "assault", 2), ("invictus", "content/invictus", "teams", 4)]
        {
            let l = loaded(pack);
            let rt =
                crate::sim::find(game).unwrap().runtime(Arc::new(l.content.clone()), l.script_set.clone()).unwrap();
            let mut t = table(game, &l, &rt, name, seats);
            let mut g = crate::players::GreedyPlayer;
            assert_eq!(t.play_on(&mut [&mut g]).unwrap(), crate::table::Played::Over);
            assert_eq!(evaluate(&*t), t.outcome().unwrap().returns, "{game}");
        }
    }
}
