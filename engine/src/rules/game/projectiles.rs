//! Running Projectiles: deployed, topped up and activated at the end of each Turns Phase, flipped on Contact (`001 § Running Projectiles`).

use super::*;
use crate::model::Id;

impl<'a> Game<'a> {
    /// Running Projectiles at setup: one per player, from the Underdog
    /// (`001 § Scenarios with Running Projectiles`).
    pub(super) fn setup_projectiles(&mut self) {
        if !self.content.scenarios[&self.state.scenario].value.running_projectiles {
            return;
        }
        let mut deck: Vec<Id> = Vec::new();
        for e in self.content.running_projectiles.values() {
            deck.extend(std::iter::repeat_n(e.value.id, e.value.count as usize));
        }
        shuffle(&mut deck, &mut self.state.rng);
        self.state.projectile_deck = deck;
        self.top_up_projectiles();
    }

    /// Each player, from the Underdog (Prime Time) and to the left, deploys
    /// one until there are as many Running Projectiles as players in the
    /// HexaDome (`001 § Scenarios with Running Projectiles`).
    pub(super) fn top_up_projectiles(&mut self) {
        let mut p = self.state.underdog;
        let players = self.table().len();
        for _ in 0..players {
            let on_board = self
                .state
                .units
                .iter()
                .filter(|u| u.projectile.is_some() && matches!(u.location, Location::Space(_)))
                .count();
            if on_board >= players || self.state.projectile_deck.is_empty() {
                return;
            }
            self.deploy_projectile(p);
            p = self.table().next_clockwise(p);
        }
    }

    /// The top marker, deployed by `p` on a Free space outside and not Adjacent
    /// to any Deployment Zone, not in Range 1-2 of any Character and not in
    /// Contact with another Running Projectile; with no such space it goes to
    /// the bottom of the deck "as if it had been activated".
    pub(super) fn deploy_projectile(&mut self, p: PlayerId) {
        let Some(marker) = self.state.projectile_deck.pop() else { return };
        let zones: BTreeSet<Hex> = self
            .board
            .zones
            .values()
            .filter(|(kind, _)| *kind == model::ZoneKind::Deployment)
            .flat_map(|(_, spaces)| spaces.iter().copied())
            .collect();
        let r = self.board.radius as i32;
        let options: Vec<Choice> = (-r..=r)
            .flat_map(|q| (-r..=r).map(move |rr| Hex::new(q, rr)))
            .filter(|h| self.is_free(*h) && !zones.contains(h) && !h.neighbours().iter().any(|n| zones.contains(n)))
            .filter(|h| {
                !self.state.units.iter().any(|u| match u.location {
                    Location::Space(x) if u.projectile.is_some() => x.is_adjacent(*h),
                    Location::Space(x) if u.minion.is_none() => x.distance(*h) <= 2,
                    _ => false,
                })
            })
            .map(|space| Choice::Space { space })
            .collect();
        self.state.projectiles_deployed += 1;
        let id = format!("running-projectile-{}", self.state.projectiles_deployed);
        if options.is_empty() {
            self.state.projectile_deck.insert(0, marker);
            self.emit(Event::ProjectileRemoved { projectile: Id::from(id), why: "discarded".into() });
            return;
        }
        let Choice::Space { space } =
            self.decide(p, DecisionKind::Projectile, None, "Deploy the Running Projectile where?", options)
        else {
            return;
        };
        let u = Unit { projectile: Some(marker), ..Unit::new(id.as_str().into(), p, Location::Space(space)) };
        self.state.units.push(u);
        self.emit(Event::ProjectileDeployed { player: p, projectile: Id::from(id), space });
    }

    /// A Running Projectile leaves the HexaDome; its marker goes to the bottom of the deck.
    pub(super) fn remove_projectile(&mut self, id: &str, why: &str) {
        let Some(u) = self.unit_mut(id) else { return };
        if u.projectile.is_none() || !matches!(u.location, Location::Space(_)) {
            return;
        }
        // The unit stays, to the side, so effects still naming it find it.
        u.location = Location::Aside;
        u.damage = 0;
        let marker = u.projectile.unwrap_or_default();
        self.state.projectile_deck.insert(0, marker);
        self.emit(Event::ProjectileRemoved { projectile: id.into(), why: why.to_string() });
    }

    /// Flip a Running Projectile against a Character: its Effect applies, then
    /// it leaves the HexaDome (`001 § Running Projectiles`). Inside an effect,
    /// once that effect has run.
    pub(super) fn trigger_projectile(&mut self, projectile: &str, target: &str) {
        let Some(marker) = self.unit(projectile).and_then(|u| u.projectile) else { return };
        self.emit(Event::ProjectileTriggered { projectile: projectile.into(), marker, target: target.into() });
        let text =
            self.content.running_projectiles.get(&marker).map(|e| e.value.effect.text.clone()).unwrap_or_default();
        self.run_effect(&format!("running_projectile:{marker}"), "effect", projectile, Some(target), None, &text);
        self.remove_projectile(projectile, "triggered");
    }

    /// The end of the Turns Phase: the players take turns, from the Underdog,
    /// activating the Running Projectiles once each, then top them up to one
    /// per player (`001 § Scenarios with Running Projectiles`).
    pub(super) fn projectiles_phase(&mut self) {
        let mut waiting: Vec<Id> = self
            .state
            .units
            .iter()
            .filter(|u| u.projectile.is_some() && matches!(u.location, Location::Space(_)))
            .map(|u| u.id)
            .collect();
        let mut p = self.state.underdog;
        while !waiting.is_empty() && !self.state.over {
            let options = waiting.iter().map(|id| Choice::Pick { id: *id }).collect();
            let Choice::Pick { id } =
                self.decide(p, DecisionKind::Projectile, None, "Activate which Running Projectile?", options)
            else {
                break;
            };
            waiting.retain(|w| *w != id);
            self.activate_projectile(p, &id);
            p = self.table().next_clockwise(p);
        }
        if !self.state.over {
            self.top_up_projectiles();
        }
    }

    /// A Running Projectile's Activation (`001 § Activation of the Running
    /// Projectiles`): up to 3 Displacements, never through a space twice; then
    /// a Target in Range 1-2 must be chosen, and the Projectile is flipped
    /// against it; with none, up to 2 more Displacements, not ending in
    /// Contact with any Character.
    pub(super) fn activate_projectile(&mut self, p: PlayerId, id: &str) {
        let Some(start) = self.space_of(id) else { return };
        let mut visited: BTreeSet<Hex> = BTreeSet::from([start]);
        let characters = |g: &Self| -> Vec<(Id, Hex)> {
            g.state
                .units
                .iter()
                .filter(|u| u.minion.is_none() && u.projectile.is_none())
                .filter_map(|u| match u.location {
                    Location::Space(h) => Some((u.id, h)),
                    _ => None,
                })
                .collect()
        };
        let step = |g: &mut Self, visited: &mut BTreeSet<Hex>, away_from_characters: bool| -> bool {
            let Some(from) = g.space_of(id) else { return false };
            let near: Vec<Hex> = characters(g).into_iter().map(|(_, h)| h).collect();
            let options: Vec<Choice> = std::iter::once(Choice::Done)
                .chain(
                    from.neighbours()
                        .into_iter()
                        .filter(|h| g.is_free(*h) && !visited.contains(h))
                        .filter(|h| !away_from_characters || !near.iter().any(|c| c.is_adjacent(*h)))
                        .map(|space| Choice::MoveTo { space }),
                )
                .collect();
            match g.decide(p, DecisionKind::Projectile, None, format!("Displace {id}?"), options) {
                Choice::MoveTo { space } => {
                    visited.insert(space);
                    g.unit_mut(id).expect("projectile").location = Location::Space(space);
                    g.emit(Event::Displaced { character: id.into(), from, to: space });
                    true
                }
                _ => false,
            }
        };
        for _ in 0..3 {
            if !step(self, &mut visited, false) {
                break;
            }
        }
        let range = model::Range { min: 1, max: 2, line_of_sight: true };
        let targets: Vec<Choice> = characters(self)
            .into_iter()
            .filter(|(c, _)| self.in_range(id, c, &range))
            .map(|(c, _)| Choice::Pick { id: c })
            .collect();
        if targets.is_empty() {
            for _ in 0..2 {
                if !step(self, &mut visited, true) {
                    break;
                }
            }
            return;
        }
        if let Choice::Pick { id: target } =
            self.decide(p, DecisionKind::Projectile, None, format!("{id} hits which Target?"), targets)
        {
            self.trigger_projectile(id, &target);
        }
    }
}

/// The profile card of every Running Projectile: "a Defense of one blue die
/// and Hit Points 1" (`001 § Running Projectiles`).
pub(super) fn projectile_card() -> model::Character {
    model::Character {
        id: "running-projectile".into(),
        name: "Running Projectile".into(),
        card: None,
        initiative: 0,
        speed: 0,
        energy: 0,
        hit_points: 1,
        defense: Pool { dice: vec!["blue".into()], symbols: vec![] },
        brawn: Pool::default(),
        agility: Pool::default(),
        switches: vec![],
        actions: vec![],
        automatic_skills: vec![],
        smoke_tokens: 0,
        minions: vec![],
        meta: model::Meta::default(),
    }
}
