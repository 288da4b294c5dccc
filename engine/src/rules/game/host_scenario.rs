//! The `Scenario` functions of the host API: Rounds, players, zones, Victory Points, counters, the end of the game (docs/scenarios.md).

use super::host_args::Args;
use super::*;
use crate::model::Id;
use crate::script::api::ScenarioFn;

impl<'a> Game<'a> {
    /// Player argument `i` (1, 2, ...): a seat of this game.
    fn player_arg(&self, a: &Args<'_>, i: usize) -> std::result::Result<PlayerId, String> {
        let n = a.n(i, 0);
        if n < 1 || n as usize > self.table().len() {
            return Err(format!("{}: there is no player {n} (players are 1 to {})", a.f.name, self.table().len()));
        }
        Ok(PlayerId::seat(n as usize - 1))
    }

    /// Zone argument `i`: a zone of the map (or `scoring-zone` where allowed).
    fn zone_arg(&self, a: &Args<'_>, i: usize, scoring: bool) -> std::result::Result<Id, String> {
        let zone = a.s(i)?;
        if self.board.zones.contains_key(zone) || (scoring && zone == model::SCORING_ZONE) {
            return Ok(zone.into());
        }
        let known: Vec<&str> = self.board.zones.keys().map(Id::as_str).collect();
        Err(format!("{}: the map has no zone `{zone}` (its zones: {})", a.f.name, known.join(", ")))
    }

    /// What holds a counter: a Character or Minion of this game, a zone of the
    /// map, or a player as `player N`.
    fn counter_holder(&self, a: &Args<'_>) -> std::result::Result<Id, String> {
        let on = a.s(0)?;
        let player = on.strip_prefix("player ").and_then(|n| n.parse::<usize>().ok());
        let ok = self.unit(on).is_some()
            || self.board.zones.contains_key(on)
            || player.is_some_and(|n| (1..=self.table().len()).contains(&n));
        if ok {
            Ok(on.into())
        } else {
            Err(format!(
                "{}: `{on}` is neither a Character in this game, a zone of the map, nor a player (`player 1`)",
                a.f.name
            ))
        }
    }

    /// `Scenario` functions (docs/scenarios.md).
    pub(super) fn api_scenario(&mut self, func: ScenarioFn, a: &Args<'_>) -> std::result::Result<ApiValue, String> {
        let number = |p: PlayerId| ApiValue::Int(p.number() as i64);
        Ok(match func {
            ScenarioFn::Round => ApiValue::Int(self.state.round as i64),
            ScenarioFn::PlayerCount => ApiValue::Int(self.table().len() as i64),
            ScenarioFn::PlayerOf => number(self.unit(&a.character(self, 0)?).map_or(PlayerId::seat(0), |u| u.owner)),
            ScenarioFn::CharactersOf => {
                let p = self.player_arg(a, 0)?;
                let team = &self.state.players[p].team;
                ApiValue::List(team.iter().filter(|c| self.space_of(c).is_some()).cloned().collect())
            }
            ScenarioFn::Underdog => number(self.state.underdog),
            ScenarioFn::PrimeTime => number(self.chooser(model::Chooser::PrimeTime)),
            ScenarioFn::VictoryPoints => {
                ApiValue::Int(self.state.players[self.player_arg(a, 0)?].victory_points as i64)
            }
            ScenarioFn::VictoryPointsScored => {
                let p = self.player_arg(a, 0)?;
                ApiValue::Int(self.scored_in(p, a.n(1, self.state.round as i64)) as i64)
            }
            ScenarioFn::Frags => ApiValue::Int(self.state.players[self.player_arg(a, 0)?].frags as i64),
            ScenarioFn::FragsEarned => {
                let p = self.player_arg(a, 0)?;
                ApiValue::Int(self.frags_in(p, a.n(1, self.state.round as i64)) as i64)
            }
            ScenarioFn::GainVictoryPoints => {
                let p = self.player_arg(a, 0)?;
                let Some(rule) = self.effect_frame.scenario_rule.map(|i| &self.scenario().rules[i]) else {
                    return Err("gain_victory_points: only a Scenario rule's effect scores Victory Points".into());
                };
                let amount = a.n(1, rule.vp.unwrap_or(0) as i64);
                if !(0..=100).contains(&amount) {
                    return Err(format!("gain_victory_points: {amount} is not 0 to 100 Victory Points"));
                }
                let objective = rule.id;
                self.gain_victory_points(p, amount as u8, &objective);
                ApiValue::Nil
            }
            ScenarioFn::Zones => self.zones_of_map(a)?,
            ScenarioFn::AdjacentZones => {
                let zone = self.zone_arg(a, 0, false)?;
                let map = &self.content.maps[&self.scenario().map].value;
                ApiValue::List(map.zones.iter().find(|z| z.id == zone).map(|z| z.adjacent.clone()).unwrap_or_default())
            }
            ScenarioFn::ZoneSpaces => {
                let zone = self.zone_arg(a, 0, false)?;
                ApiValue::Spaces(self.zone_spaces(&zone).iter().map(|h| [h.q as i64, h.r as i64]).collect())
            }
            ScenarioFn::CharactersInZone => {
                let zone = self.zone_arg(a, 0, true)?;
                let player = match a.args.get(1) {
                    Some(ApiValue::Int(_)) => Some(self.player_arg(a, 1)?),
                    _ => None,
                };
                ApiValue::List(self.characters_in(&self.zone_or_scoring_spaces(&zone), player))
            }
            ScenarioFn::ScoringZones => ApiValue::List(self.state.scoring_zones.to_vec()),
            ScenarioFn::SetScoringZones => self.set_scoring_zones_call(a)?,
            ScenarioFn::ChooseZone => self.choose_zone_decision(a)?,
            ScenarioFn::ChooseSpaceFor => self.choose_space_for_decision(a)?,
            ScenarioFn::Counter => {
                let on = self.counter_holder(a)?;
                let name = a.s(1)?;
                ApiValue::Int(self.state.counters.get(&on).and_then(|c| c.get(name)).copied().unwrap_or(0))
            }
            ScenarioFn::AddCounter => self.add_counter_call(a)?,
            ScenarioFn::EndGame => {
                // Say which rule ended it: a game that ends at a `round-start`
                // would otherwise show only its Game over line.
                if let Some(i) = self.effect_frame.scenario_rule.filter(|_| !self.state.over) {
                    let rule = self.scenario().rules[i].id;
                    self.emit(Event::GameEndedByRule { rule, round: self.state.round });
                }
                self.end_game();
                ApiValue::Nil
            }
        })
    }

    /// `Zones` of the `Scenario` group (docs/lua-api.md).
    fn zones_of_map(&mut self, a: &Args<'_>) -> std::result::Result<ApiValue, String> {
        Ok({
            let kind = match a.args.first() {
                Some(ApiValue::Str(k)) => Some(k.as_str()),
                _ => None,
            };
            let map = &self.content.maps[&self.scenario().map].value;
            let mut zones = Vec::new();
            for z in &map.zones {
                let name = match z.kind {
                    model::ZoneKind::Deployment => "deployment",
                    model::ZoneKind::Central => "central",
                    model::ZoneKind::Ziggurat => "ziggurat",
                };
                if kind.is_none_or(|k| k == name) {
                    zones.push(z.id);
                }
            }
            if let Some(k) = kind.filter(|k| !["deployment", "central", "ziggurat"].contains(k)) {
                return Err(format!("zones: `{k}` is not a kind of zone (deployment, central, ziggurat)"));
            }
            ApiValue::List(zones)
        })
    }

    /// `SetScoringZones` of the `Scenario` group (docs/lua-api.md).
    fn set_scoring_zones_call(&mut self, a: &Args<'_>) -> std::result::Result<ApiValue, String> {
        Ok({
            let Some(ApiValue::List(zones)) = a.args.first() else {
                return Err("set_scoring_zones: a list of zone ids is needed".into());
            };
            let mut set = Vec::new();
            for z in zones {
                if !self.board.zones.contains_key(z.as_str()) {
                    return Err(format!("set_scoring_zones: the map has no zone `{z}`"));
                }
                if !set.contains(z) {
                    set.push(*z);
                }
            }
            self.set_scoring_zones(set);
            ApiValue::Nil
        })
    }

    /// `ChooseZone` of the `Scenario` group (docs/lua-api.md).
    fn choose_zone_decision(&mut self, a: &Args<'_>) -> std::result::Result<ApiValue, String> {
        Ok({
            let p = self.player_arg(a, 0)?;
            let Some(ApiValue::List(zones)) = a.args.get(1) else { return Ok(ApiValue::Nil) };
            if let Some(z) = zones.iter().find(|z| !self.board.zones.contains_key(*z)) {
                return Err(format!("choose_zone: the map has no zone `{z}`"));
            }
            if zones.is_empty() {
                return Ok(ApiValue::Nil);
            }
            let prompt = match a.args.get(2) {
                Some(ApiValue::Str(s)) => s.to_string(),
                _ => "Which zone?".to_string(),
            };
            let options = zones.iter().map(|z| Choice::Pick { id: z.as_str().into() }).collect();
            match self.decide(p, DecisionKind::ScoringZone, None, prompt, options) {
                Choice::Pick { id } => ApiValue::Str(id),
                _ => ApiValue::Nil,
            }
        })
    }

    /// `ChooseSpaceFor` of the `Scenario` group (docs/lua-api.md).
    fn choose_space_for_decision(&mut self, a: &Args<'_>) -> std::result::Result<ApiValue, String> {
        Ok({
            let p = self.player_arg(a, 0)?;
            let Some(ApiValue::Spaces(spaces)) = a.args.get(1) else { return Ok(ApiValue::Nil) };
            if spaces.is_empty() {
                return Ok(ApiValue::Nil);
            }
            let prompt = match a.args.get(2) {
                Some(ApiValue::Str(s)) => s.to_string(),
                _ => "Which space?".to_string(),
            };
            let options = super::host_args::space_choices(spaces, "choose_space_for")?;
            match self.decide(p, DecisionKind::Space, None, prompt, options) {
                Choice::Space { space } => ApiValue::Space([space.q as i64, space.r as i64]),
                _ => ApiValue::Nil,
            }
        })
    }

    /// `AddCounter` of the `Scenario` group (docs/lua-api.md).
    fn add_counter_call(&mut self, a: &Args<'_>) -> std::result::Result<ApiValue, String> {
        Ok({
            let on = self.counter_holder(a)?;
            let name = a.s(1)?.to_string();
            let amount = a.n(2, 0);
            if !(-1000..=1000).contains(&amount) {
                return Err(format!("add_counter: {amount} is not -1000 to 1000"));
            }
            // Once the game is over nothing changes: the counter as it stands.
            let amount = if self.state.over { 0 } else { amount };
            let held = self.state.counters.entry(on).or_default();
            let value = held.get(name.as_str()).copied().unwrap_or(0).saturating_add(amount).clamp(0, MAX_COUNTER);
            if value == 0 {
                held.remove(name.as_str());
            } else {
                held.insert(name.as_str().into(), value);
            }
            if held.is_empty() {
                self.state.counters.remove(&on);
            }
            if amount != 0 {
                self.emit(Event::Counter { on, counter: Id::from(name), value });
            }
            ApiValue::Int(value)
        })
    }
}
