//! A position from a game's events: each event's change applied in order, as
//! its docstring in [`crate::rules::event::Event`] says it changes the state.

use super::*;

/// The scene after `events`, starting from the bare board `scene`.
pub(super) fn apply(content: &Content, mut scene: Scene, events: &[Event]) -> Scene {
    let mut vp: Vec<u32> = Vec::new();
    let mut frags: Vec<u32> = Vec::new();
    let mut round = 0u8;
    let mut scenario = String::new();
    let mut last = String::new();
    for e in events {
        step(content, &mut scene, e, &mut vp, &mut frags, &mut round);
        if let Event::GameStarted { scenario: s, .. } = e {
            scenario = s.to_string();
        }
        last = e.to_string();
    }
    scene.title = format!("{scenario}, event {}: {}", events.len().saturating_sub(1), last.trim());
    let vps: Vec<String> = vp.iter().enumerate().map(|(i, v)| format!("player {} {v} VP", i + 1)).collect();
    let frags: Vec<String> = frags.iter().map(ToString::to_string).collect();
    scene.status = vec![
        format!("Round {round}  {}", super::scoring_label(&scene.scoring_zones)),
        format!("{}  Frags {}", vps.join(", "), frags.join("-")),
    ];
    scene
}

fn figure<'s>(scene: &'s mut Scene, id: &str) -> Option<&'s mut Figure> {
    scene.figures.iter_mut().find(|f| f.id == id)
}

fn new_figure(id: &str, player: PlayerId, kind: FigureKind, hit_points: Option<u8>, location: Location) -> Figure {
    Figure {
        id: id.into(),
        label: String::new(),
        player,
        kind,
        location,
        damage: 0,
        hit_points,
        tokens: Vec::new(),
        action_points: 0,
        active: false,
    }
}

/// A Minion's card id from its game id (`<card>-<n>`, `002 § Minion`).
fn minion_card(minion: &str) -> &str {
    minion.rsplit_once('-').filter(|(_, n)| n.chars().all(|c| c.is_ascii_digit())).map_or(minion, |(card, _)| card)
}

fn set_total(slot: &mut Vec<u32>, player: PlayerId, total: u32) {
    if slot.len() <= player.index() {
        slot.resize(player.index() + 1, 0);
    }
    slot[player.index()] = total;
}

fn step(content: &Content, scene: &mut Scene, e: &Event, vp: &mut Vec<u32>, frags: &mut Vec<u32>, round: &mut u8) {
    use Event::*;
    let place = |scene: &mut Scene, id: &str, to: Location| {
        if let Some(f) = figure(scene, id) {
            f.location = to;
        }
    };
    match e {
        GameStarted { teams, .. } => {
            for (p, team) in teams.enumerate() {
                for id in team {
                    let hp = content.characters.get(id).map(|c| c.value.hit_points);
                    scene.figures.push(new_figure(id, p, FigureKind::Character, hp, Location::Bench));
                }
                set_total(vp, p, 0);
                set_total(frags, p, 0);
            }
        }
        Deployed { character, space } | ReturnedFromBench { character, space } => {
            place(scene, character, Location::Space(*space))
        }
        Moved { character, to, .. } | Displaced { character, to, .. } | Placed { character, to, .. } => {
            place(scene, character, Location::Space(*to))
        }
        RoundStarted { round: r } => *round = *r,
        ActivationStarted { character, action_points } => {
            for f in &mut scene.figures {
                f.active = f.id == *character;
                if f.active {
                    f.action_points = *action_points;
                }
            }
        }
        Action { character, cost, .. } => {
            if let Some(f) = figure(scene, character) {
                f.action_points = f.action_points.saturating_sub(*cost);
            }
        }
        ActionPoints { character, total, .. } => {
            if let Some(f) = figure(scene, character) {
                f.action_points = *total;
            }
        }
        Damage { character, total, .. } | Healed { character, total, .. } => {
            if let Some(f) = figure(scene, character) {
                f.damage = *total;
            }
        }
        StateImposed { character, state } => {
            let stacking = content.states.get(state).is_some_and(|s| s.value.stacking);
            if let Some(f) = figure(scene, character) {
                if !stacking {
                    // Re-imposed: the old token goes, a new one is placed red side up (`000 § States`).
                    f.tokens.retain(|(s, _)| s != state);
                }
                f.tokens.push((*state, TokenSide::Red));
            }
        }
        StateFlipped { character, state } => {
            if let Some(f) = figure(scene, character) {
                if let Some(t) = f.tokens.iter_mut().find(|(s, side)| s == state && *side == TokenSide::Red) {
                    t.1 = TokenSide::Blue;
                }
            }
        }
        StateRemoved { character, state, .. } => {
            if let Some(f) = figure(scene, character) {
                // The oldest token of that State goes (blue before red).
                let at = f
                    .tokens
                    .iter()
                    .position(|(s, side)| s == state && *side == TokenSide::Blue)
                    .or_else(|| f.tokens.iter().position(|(s, _)| s == state));
                if let Some(i) = at {
                    f.tokens.remove(i);
                }
            }
        }
        MinionDeployed { controller, minion, space } => {
            let player = figure(scene, controller).map_or(PlayerId::seat(0), |f| f.player);
            let hp = minion_hit_points(content, controller, minion_card(minion));
            match figure(scene, minion) {
                Some(f) => {
                    f.location = Location::Space(*space);
                    f.damage = 0;
                    f.tokens.clear();
                }
                None => scene.figures.push(new_figure(minion, player, FigureKind::Minion, hp, Location::Space(*space))),
            }
        }
        MinionRemoved { minion, .. } => place(scene, minion, Location::Aside),
        ProjectileDeployed { player, projectile, space } => {
            scene.figures.retain(|f| f.id != *projectile);
            let f = new_figure(projectile, *player, FigureKind::RunningProjectile, Some(1), Location::Space(*space));
            scene.figures.push(f);
        }
        ProjectileRemoved { projectile, .. } => scene.figures.retain(|f| f.id != *projectile),
        SpecialSpacePlaced { space, .. } => scene.special_spaces.push(Marker { space: *space, revealed: None }),
        SpecialSpaceRevealed { space, marker } => {
            if let Some(m) = scene.special_spaces.iter_mut().find(|m| m.space == *space) {
                m.revealed = Some(*marker);
            }
        }
        SmokeDeployed { space, .. } => {
            scene.smoke.insert(*space);
        }
        SmokeRemoved { space, .. } => {
            scene.smoke.remove(space);
        }
        Infirmary { character } => {
            place(scene, character, Location::Infirmary);
            if let Some(f) = figure(scene, character) {
                // "remove all Damage and State tokens" on the way (`000 § Infirmary`).
                f.damage = 0;
                f.tokens.clear();
            }
        }
        Benched { character } => place(scene, character, Location::Bench),
        Frag { player, total } => set_total(frags, *player, *total),
        VictoryPoints { player, total, .. } => set_total(vp, *player, *total),
        ScoringZone { zone } => scene.scoring_zones = vec![*zone],
        ScoringZones { zones } => scene.scoring_zones = zones.clone(),
        GameEnded { .. } => {
            for f in &mut scene.figures {
                f.active = false;
            }
        }
        _ => {}
    }
}
