//! Scenario rules: what each one does is data or Lua the engine performs; the rest is listed (`--strict`) and counted (docs/scenarios.md).

use super::*;
use crate::model::Id;

impl Validator<'_> {
    /// Every Scenario rule: text only (a note with `--strict`, always
    /// counted), Victory Points nothing awards (performed or not),
    /// `performed_by` keys the Scenario does not set or mixed with a key or
    /// Lua that performs the rule (warnings); two rules with one id, a reward
    /// for a Character no pack defines, zones its objectives name, fewer
    /// `deployment_zones` than players (errors).
    pub(super) fn scenario_rules(&mut self) {
        let c = &self.loaded.content;
        let mut found = Vec::new();
        let mut text_only = 0;
        for e in c.scenarios.values() {
            let s = &e.value;
            let map = c.maps.get(&s.map);
            if let Some(map) = map {
                self.scenario_obstacles(e, map, &mut found);
                // Teams deploy in the Scenario's zones, else the map's Deployment Zones.
                if s.deployment_zones.is_empty() && !map.value.zones.iter().any(|z| z.kind == ZoneKind::Deployment) {
                    found.push(
                        Diagnostic::error(
                            Code::InvalidValue,
                            format!("map `{}` has no Deployment Zone, so no team of `{}` can deploy", map.value.id, s.id),
                        )
                        .at_opt(self.loc(&e.origin, "/map"))
                        .path(self.cpath(&e.origin, "/map"))
                        .help("give the map zones of `kind = \"deployment\"`, or list the Scenario's `deployment_zones` (docs/scenarios.md)"),
                    );
                }
            }
            self.scenario_characters(e, &mut found);
            // One listed zone per player, at every table size it allows
            // (docs/rulings.md R46): a shorter list cannot say where the
            // others deploy, and games refuse it.
            let listed = s.deployment_zones.len();
            if listed > 0 && listed < usize::from(s.players.max) {
                let at = format!("/deployment_zones/{}", listed - 1);
                found.push(
                    Diagnostic::error(
                        Code::InvalidValue,
                        format!(
                            "Scenario `{}` lists {listed} deployment_zones but is for up to {} players: each player deploys in their own, at every table size",
                            s.id, s.players.max
                        ),
                    )
                    .at_opt(self.loc(&e.origin, &at))
                    .path(self.cpath(&e.origin, "/deployment_zones"))
                    .with_note("docs/rulings.md R46: a Scenario's `deployment_zones` give player 1's, player 2's, ... zone, also at a Prime Time table; without them, 001's players deploy in any Deployment Zone that is not a Scoring Zone")
                    .help(format!("list {} zones, one per player in seat order, or none", s.players.max)),
                );
            }
            // 000 is for 2 players, 001's Prime Time for 3-4: the tables the engine plays.
            if s.players.min > s.players.max || s.players.min < 2 || s.players.max > 4 {
                found.push(
                    Diagnostic::error(
                        Code::InvalidValue,
                        format!(
                            "Scenario `{}` is for {} to {} players; the engine plays tables of 2 (000) to 4 (001 § Prime Time), with `min` no more than `max`",
                            s.id, s.players.min, s.players.max
                        ),
                    )
                    .at_opt(self.loc(&e.origin, "/players"))
                    .path(self.cpath(&e.origin, "/players"))
                    .help("write `players = { min = 2, max = 2 }` for a 2-player Scenario, `{ min = 3, max = 4 }` for a Prime Time one"),
                );
            }
            for i in 0..s.rules.len() {
                if !self.scenario_rule(e, map, i, &mut found) {
                    text_only += 1;
                }
            }
            // A Prime Time Scenario's printed deployment is performed by
            // `team_deployment` or `deployment_zones`; else it is text only
            // (the engine deploys by 001's default: any Deployment Zone that
            // is neither the Central Zone nor a Scoring Zone, from Prime Time).
            if s.players.max > 2
                && s.deployment.is_some()
                && s.team_deployment.is_none()
                && s.deployment_zones.is_empty()
            {
                text_only += 1;
                if self.notes {
                    found.push(
                        Diagnostic::note(
                            Code::ScenarioRuleTextOnly,
                            format!("the deployment of `{}` is text only: the engine deploys by 001's default (any Deployment Zone that is neither the Central Zone nor a Scoring Zone, from Prime Time)", s.id),
                        )
                        .at_opt(self.loc(&e.origin, "/deployment"))
                        .path(self.cpath(&e.origin, "/deployment"))
                        .help("say what it does with `team_deployment = { zones, first, same_zone, central_space }` or `deployment_zones` (docs/scenarios.md)"),
                    );
                }
            }
        }
        self.text_only_count += text_only;
        self.out.extend(found);
    }

    /// A Scenario's `characters` are Characters some loaded pack defines,
    /// named once each, and enough for Teams at its largest table (errors).
    fn scenario_characters(&self, e: &Entry<Scenario>, found: &mut Vec<Diagnostic>) {
        let (c, s) = (&self.loaded.content, &e.value);
        if s.characters.is_empty() {
            return;
        }
        let known = || c.characters.keys().cloned().collect::<Vec<Id>>();
        for (k, id) in s.characters.iter().enumerate() {
            if s.characters[..k].contains(id) {
                found.push(
                    Diagnostic::error(Code::DuplicateId, format!("Scenario `{}` lists Character `{id}` twice", s.id))
                        .at_opt(self.loc(&e.origin, &format!("/characters/{k}")))
                        .path(self.cpath(&e.origin, &format!("/characters/{k}")))
                        .help("list each Character the Teams are picked from once"),
                );
            } else if !c.characters.contains_key(id) {
                // Always an error: the Teams cannot be picked without it.
                found.push(self.dangling(&e.origin, &format!("/characters/{k}"), Kind::Character, id, known));
            }
        }
        let needed = usize::from(s.players.max) * usize::from(s.characters_per_team.max(1));
        if s.characters.len() < needed {
            found.push(
                Diagnostic::error(
                    Code::InvalidValue,
                    format!(
                        "Scenario `{}` picks Teams from {} Characters; {} players with {} each need {needed}",
                        s.id,
                        s.characters.len(),
                        s.players.max,
                        s.characters_per_team
                    ),
                )
                .at_opt(self.loc(&e.origin, "/characters"))
                .path(self.cpath(&e.origin, "/characters"))
                .help("list more Characters, or lower `players.max` or `characters_per_team`"),
            );
        }
    }

    /// A Scenario's Obstacles stand on Free spaces of its map (errors).
    fn scenario_obstacles(&self, e: &Entry<Scenario>, map: &Entry<Map>, found: &mut Vec<Diagnostic>) {
        let r = map.value.radius as i32;
        for (i, h) in e.value.obstacles.iter().enumerate() {
            let (q, rr) = (h[0] as i32, h[1] as i32);
            let on_board = q.abs().max(rr.abs()).max((q + rr).abs()) <= r;
            if !on_board || map.value.blocked.contains(h) {
                let why = if on_board { "a Blocked space" } else { "off the board" };
                let at = format!("/obstacles/{i}");
                found.push(
                    Diagnostic::error(
                        Code::InvalidValue,
                        format!("Obstacle [{q}, {rr}] is {why} of map `{}`", map.value.id),
                    )
                    .at_opt(self.loc(&e.origin, &at))
                    .path(self.cpath(&e.origin, &at))
                    .help(format!("place it on a Free space within {r} of [0, 0]")),
                );
            }
        }
    }

    /// One Scenario rule, `rules[i]` of `e` (see `scenario_rules`): whether
    /// the engine performs it.
    fn scenario_rule(
        &self,
        e: &Entry<Scenario>,
        map: Option<&Entry<Map>>,
        i: usize,
        found: &mut Vec<Diagnostic>,
    ) -> bool {
        let c = &self.loaded.content;
        let s = &e.value;
        let rule = &s.rules[i];
        let characters = || c.characters.keys().cloned().collect::<Vec<Id>>();
        let at = format!("/rules/{i}");
        // One id per rule: the narrative names the rule a player scores by.
        if let Some(first) = s.rules[..i].iter().position(|r| r.id == rule.id) {
            let first_at = self.loc(&e.origin, &format!("/rules/{first}/id"));
            let mut d = Diagnostic::error(
                Code::DuplicateId,
                format!("Scenario `{}` has two rules with id `{}`", s.id, rule.id),
            )
            .at_opt(self.loc(&e.origin, &format!("{at}/id")))
            .path(self.cpath(&e.origin, &at))
            .help("give each rule its own id: the narrative names the rule a player scores by");
            if let Some(l) = first_at {
                d = d.with_note(format!("the first is at line {}", l.line));
            }
            found.push(d);
        }
        // A reward names a Character some loaded pack defines.
        for (k, reward) in rule.rewards.iter().enumerate() {
            if !c.characters.contains_key(&reward.character) {
                let sub = format!("{at}/rewards/{k}/character");
                let mut d = self.dangling(&e.origin, &sub, Kind::Character, &reward.character, characters);
                // A table may name another expansion's Characters: when
                // the pack lists it as an optional dependency that is not
                // loaded, the row waits for it (a note, not an error).
                if self.optional_dependency_absent(&e.origin) {
                    d.severity = crate::diag::Severity::Note;
                }
                found.push(d);
            }
        }
        // What performs the rule, besides `performed_by`.
        let performers: Vec<&str> = [
            ("objective", rule.objective.is_some()),
            ("move_scoring_zone", rule.move_scoring_zone.is_some()),
            ("rewards", !rule.rewards.is_empty()),
            ("effect", rule.effect.as_ref().is_some_and(|e| e.lua.is_some() || e.script.is_some())),
        ]
        .into_iter()
        .filter_map(|(k, set)| set.then_some(k))
        .collect();
        if !rule.performed_by.is_empty() && !performers.is_empty() {
            let keys = performers.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(" and ");
            found.push(
                Diagnostic::warning(
                    Code::ScenarioRulePerformedTwice,
                    format!(
                        "rule `{}` of `{}` is performed by {keys} and also says `performed_by`",
                        rule.id, s.id
                    ),
                )
                .at_opt(self.loc(&e.origin, &format!("{at}/performed_by")))
                .path(self.cpath(&e.origin, &at))
                .with_note("`performed_by` marks a rule the Scenario's keys perform on their own; a rule with its own declarative key or Lua is performed by that")
                .help(format!(
                    "remove `performed_by` (the rule's {keys} performs it); if part of its text restates a Scenario key, say so in a comment, or split the text into two rules"
                )),
            );
        }
        if let (Some(o), Some(map)) = (&rule.objective, map) {
            if o.zone != SCORING_ZONE {
                self.zone_ref(&e.origin, &format!("{at}/objective/zone"), map, &o.zone, found);
            }
        }
        if !rule.performed() && self.notes {
            found.push(
                Diagnostic::note(
                    Code::ScenarioRuleTextOnly,
                    format!("Scenario rule `{}` of `{}` is text only: the engine does not perform it", rule.id, s.id),
                )
                .at_opt(self.loc(&e.origin, &format!("{at}/id")))
                .path(self.cpath(&e.origin, &at))
                .help("give it an `objective`, `move_scoring_zone`, `rewards`, an `effect` with Lua, or `performed_by` (docs/scenarios.md)"),
            );
        }
        let awards = rule.objective.is_some()
            || !rule.rewards.is_empty()
            || rule.effect.as_ref().is_some_and(|e| e.lua.is_some() || e.script.is_some());
        // Performed or text only: Victory Points nothing awards are
        // never scored (a text-only rule's VP are not either).
        if rule.vp.is_some_and(|v| v > 0) && !awards {
            let why = if rule.performed() {
                "nothing awards them"
            } else {
                "the rule is text only, so the engine never awards them"
            };
            found.push(
                Diagnostic::warning(
                    Code::ObjectiveNeverScored,
                    format!("objective `{}` gives {} VP, but {why}", rule.id, rule.vp.unwrap_or(0)),
                )
                .at_opt(self.loc(&e.origin, &format!("{at}/vp")))
                .path(self.cpath(&e.origin, &at))
                .help("give it an `objective` (docs/scenarios.md) or an `effect` whose Lua calls `game:gain_victory_points`; or remove `vp` and leave the printed value in `text`"),
            );
        }
        if rule.objective.is_some() && rule.vp.is_none() {
            found.push(
                Diagnostic::warning(
                    Code::ObjectiveNeverScored,
                    format!("objective `{}` has no `vp`: it scores nothing", rule.id),
                )
                .at_opt(self.loc(&e.origin, &format!("{at}/objective")))
                .path(self.cpath(&e.origin, &at))
                .help("add `vp = N`"),
            );
        }
        for (k, key) in rule.performed_by.iter().enumerate() {
            if !key_is_set(s, *key) {
                let name =
                    serde_json::to_value(key).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
                found.push(
                    Diagnostic::warning(
                        Code::ObjectiveNeverScored,
                        format!("rule `{}` is performed by `{name}`, which Scenario `{}` does not set", rule.id, s.id),
                    )
                    .at_opt(self.loc(&e.origin, &format!("{at}/performed_by/{k}")))
                    .path(self.cpath(&e.origin, &at))
                    .help(format!("set `{name}` in the Scenario, or give the rule its own `objective` or `effect`")),
                );
            }
        }
        if let (Some(m), Some(map)) = (&rule.move_scoring_zone, map) {
            if m.to == ZoneChoice::AdjacentEmptyDeploymentZone && map.value.zones.iter().all(|z| z.adjacent.is_empty())
            {
                found.push(
                    Diagnostic::warning(
                        Code::ObjectiveNeverScored,
                        format!("rule `{}` moves the Scoring Zone to an adjacent zone, but map `{}` lists no `adjacent` zones", rule.id, map.value.id),
                    )
                    .at_opt(self.loc(&e.origin, &format!("{at}/move_scoring_zone/to")))
                    .path(self.cpath(&e.origin, &at))
                    .help("list each zone's `adjacent` zones in the map, or use `to = \"empty-deployment-zone\"`"),
                );
            }
        }
        rule.performed()
    }
}

impl Validator<'_> {
    /// Whether the entry's pack has an optional dependency that is not loaded.
    fn optional_dependency_absent(&self, origin: &crate::content::Origin) -> bool {
        self.loaded.packs.iter().find(|p| p.manifest.id == origin.pack).is_some_and(|p| {
            p.manifest.optional_dependencies.keys().any(|dep| !self.loaded.packs.iter().any(|l| l.manifest.id == dep))
        })
    }
}

/// Whether a Scenario sets a key (a `performed_by` may name it).
fn key_is_set(s: &Scenario, key: ScenarioKey) -> bool {
    match key {
        ScenarioKey::Rounds | ScenarioKey::CharactersPerTeam | ScenarioKey::Map => true,
        ScenarioKey::VpToWin => s.vp_to_win.is_some(),
        ScenarioKey::FragsBreakTies => s.frags_break_ties,
        ScenarioKey::ScoringZones => !s.scoring_zones.is_empty(),
        ScenarioKey::DeploymentZones => !s.deployment_zones.is_empty(),
        ScenarioKey::BenchReturnTo => true,
        ScenarioKey::SpecialSpaces => s.special_spaces > 0,
        ScenarioKey::RunningProjectiles => s.running_projectiles,
        ScenarioKey::Actions => !s.actions.is_empty(),
        ScenarioKey::Characters => !s.characters.is_empty(),
        ScenarioKey::Obstacles => !s.obstacles.is_empty(),
        ScenarioKey::ObjectivesDeck => s.objectives_deck,
    }
}
