//! The game as the Lua effects' host: every `game:...` call an effect makes (the registry: `script::api`).

use super::host_args::{Args, space_arg, space_choices, symbol, symbol_name};
use super::*;
use crate::model::Id;
use crate::script::api::{ChanceFn, ChangeFn, ChoiceFn, DiceFn, HostFn, MoveFn, QueryFn, RollFn, Ty};

impl Host for Game<'_> {
    fn call(&mut self, f: &'static ApiFn, args: &[ApiValue]) -> std::result::Result<ApiValue, String> {
        let a = Args { f, args };
        // Once the game is over (`game:end_game` earlier in this effect), the
        // result stands: a call that would change the game is ignored quietly
        // (no change, no event), answering as if there were nothing to do
        // (docs/effects.md; like `gain_victory_points`, rulings R45).
        if self.state.over && changes_the_game(f.id) {
            return Ok(match f.returns {
                Ty::Boolean => ApiValue::Bool(false),
                Ty::CharacterList | Ty::StringList => ApiValue::List(vec![]),
                Ty::SpaceList => ApiValue::Spaces(vec![]),
                _ => ApiValue::Nil,
            });
        }
        if !matches!(f.id, HostFn::Query(_) | HostFn::Content(_)) {
            self.keep_undo();
        }
        match f.id {
            HostFn::Content(_) => {
                Err(format!("{}: answered by the runtime from the content, not by the game", a.f.name))
            }
            HostFn::Chance(func) => self.api_chance(func, &a),
            HostFn::Query(func) => self.api_query(func, &a),
            HostFn::Change(func) => self.api_change(func, &a),
            HostFn::Move(func) => self.api_move(func, &a),
            HostFn::Dice(func) => self.api_dice(func, &a),
            HostFn::Roll(func) => self.api_roll(func, &a),
            HostFn::Choice(func) => self.api_choice(func, &a),
            HostFn::Scenario(func) => self.api_scenario(func, &a),
            HostFn::Invictus(func) => Err(format!("{} is a function of Invictus games", func.name())),
        }
    }

    /// The undo point of an effect: the events so far now, the state and the
    /// Roll only when the effect first asks for a change ([`Game::keep_undo`]):
    /// an effect that only asks questions (a condition, most Automatic Skills'
    /// checks) costs no copy of the state.
    fn begin_effect(&mut self) {
        self.snapshots.push(Undo { state: None, events: self.events.len() });
    }

    fn end_effect(&mut self, ok: bool) {
        if let Some(Undo { state, events }) = self.snapshots.pop() {
            if !ok || self.effect_frame.probing {
                // Undo: the effect is never half-applied. With no copy taken,
                // nothing but events can have changed.
                if let Some((state, roll)) = state {
                    self.state = state;
                    self.roll_frame.roll = roll;
                }
                self.events.truncate(events);
            }
        }
    }
    /// The game's events: what its effects' calls record counts against the log caps.
    fn events_recorded(&self) -> usize {
        self.events.len()
    }

    fn narrative_bytes(&self, from: usize) -> usize {
        self.events.get(from..).unwrap_or_default().iter().map(crate::script::host::display_len).sum()
    }
}

/// A distance argument of a question (`enemies_within`'s `min` and `max`):
/// saturating, so below 0 is 0 and anything past `u32::MAX` is `u32::MAX`,
/// which no distance reaches.
fn range_bound(n: i64) -> u32 {
    n.clamp(0, u32::MAX as i64) as u32
}

/// Whether a host function may change the game or add to its events (every
/// one but the questions, `random` and `pool_dice`; `end_game`,
/// `gain_victory_points` and `add_counter` change nothing once the game is
/// over themselves, `add_counter` answering the counter as it stands).
fn changes_the_game(id: HostFn) -> bool {
    use crate::script::api::ScenarioFn as S;
    match id {
        HostFn::Content(_) | HostFn::Query(_) | HostFn::Chance(ChanceFn::Random) | HostFn::Dice(DiceFn::PoolDice) => {
            false
        }
        HostFn::Scenario(f) => {
            matches!(f, S::SetScoringZones | S::ChooseZone | S::ChooseSpaceFor)
        }
        _ => true,
    }
}

/// What undoes a running effect (see [`Host::begin_effect`]): the state and
/// the Roll as they were before its first change, once it has made one, and
/// how many events there were.
pub(super) struct Undo {
    state: Option<(GameState, Option<RollCtx>)>,
    events: usize,
}

impl Game<'_> {
    /// Before a `game:` call that may change the game: the running effects
    /// that have changed nothing yet keep the state as it is now, which is the
    /// state they began with (questions change nothing, and every change an
    /// effect makes goes through a `game:` call, nested effects included).
    fn keep_undo(&mut self) {
        for i in (0..self.snapshots.len()).rev() {
            if self.snapshots[i].state.is_some() {
                // The effects under it began earlier and have their copy too.
                break;
            }
            self.snapshots[i].state = Some((self.state.clone(), self.roll_frame.roll.clone()));
        }
    }
}

impl<'a> Game<'a> {
    /// `Chance` functions: randomness and the narrative: through the host, so games stay reproducible.
    fn api_chance(&mut self, func: ChanceFn, a: &Args<'_>) -> std::result::Result<ApiValue, String> {
        Ok(match func {
            ChanceFn::Random => {
                let (lo, hi) = (a.n(0, 1), a.n(1, 1));
                if lo > hi {
                    return Err(format!("random: empty range [{lo}, {hi}]"));
                }
                ApiValue::Int(self.state.rng.random_range(lo..=hi))
            }
            ChanceFn::Log => {
                self.emit(Event::Log { text: a.s(0)?.to_string() });
                ApiValue::Nil
            }
        })
    }

    /// `Query` functions: questions about the game: who, where, what they see (`000 § Range`, `000 § Line of Sight`).
    fn api_query(&mut self, func: QueryFn, a: &Args<'_>) -> std::result::Result<ApiValue, String> {
        Ok(match func {
            QueryFn::ActiveCharacter => self.state.active.map_or(ApiValue::Nil, ApiValue::Str),
            QueryFn::Attacker => self.roll_frame.attacker.map_or(ApiValue::Nil, ApiValue::Str),
            QueryFn::Damage => ApiValue::Int(self.unit(&a.character(self, 0)?).map_or(0, |u| u.damage as i64)),
            QueryFn::HasState => ApiValue::Bool(self.has_state(&a.character(self, 0)?, a.s(1)?)),
            QueryFn::Position => match self.space_of(&a.character(self, 0)?) {
                Some(h) => ApiValue::Space([h.q as i64, h.r as i64]),
                None => ApiValue::Nil,
            },
            QueryFn::Distance => {
                ApiValue::Int(self.distance(&a.character(self, 0)?, &a.character(self, 1)?).min(1000) as i64)
            }
            QueryFn::EnemiesWithin | QueryFn::AlliesWithin => {
                let of = a.character(self, 0)?;
                // Saturating: below 0 counts as 0, beyond any distance as
                // every distance (never wrapped round to a small number).
                let (lo, hi) = (range_bound(a.n(1, 0)), range_bound(a.n(2, 0)));
                let owner = self.unit(&of).map(|u| u.owner);
                let enemies = func == QueryFn::EnemiesWithin;
                let list = self
                    .state
                    .units
                    .iter()
                    .filter(|u| u.id != of && u.projectile.is_none() && (Some(u.owner) != owner) == enemies)
                    .filter(|u| {
                        let d = self.distance(&of, &u.id);
                        d >= lo && d <= hi
                    })
                    .map(|u| u.id)
                    .collect();
                ApiValue::List(list)
            }
            QueryFn::HasLineOfSight => {
                ApiValue::Bool(self.sight(&a.character(self, 0)?, &a.character(self, 1)?).has_line_of_sight())
            }
            QueryFn::MovementPointsSpent => {
                ApiValue::Int(self.unit(&a.character(self, 0)?).map_or(0, |u| u.movement_spent as i64))
            }
            QueryFn::HasActivationEffect => ApiValue::Bool(self.has_activation_effect(&a.character(self, 0)?, a.s(1)?)),
            QueryFn::HasRoundEffect => ApiValue::Bool(self.has_round_effect(&a.character(self, 0)?, a.s(1)?)),
            QueryFn::States => {
                let t = a.character(self, 0)?;
                let mut list: Vec<Id> =
                    self.unit(&t).map(|u| u.tokens.iter().map(|k| k.state).collect()).unwrap_or_default();
                list.dedup();
                ApiValue::List(list)
            }
            QueryFn::TacticsInHand => {
                let t = a.character(self, 0)?;
                let p = self.unit(&t).map_or(PlayerId::seat(0), |u| u.owner);
                ApiValue::Int(self.state.players[p].hand.len() as i64)
            }
            QueryFn::FreeSpacesInZone => {
                let zone = a.s(0)?;
                if !self.board.zones.contains_key(zone) {
                    let known: Vec<&str> = self.board.zones.keys().map(Id::as_str).collect();
                    return Err(format!(
                        "free_spaces_in_zone: the map has no zone `{zone}` (its zones: {})",
                        known.join(", ")
                    ));
                }
                let spaces = self
                    .zone_spaces(zone)
                    .iter()
                    .filter(|h| self.is_free(**h))
                    .map(|h| [h.q as i64, h.r as i64])
                    .collect();
                ApiValue::Spaces(spaces)
            }
            QueryFn::FreeSpacesWithin | QueryFn::DeployableSpaces => {
                let of = a.character(self, 0)?;
                let (lo, hi) = (range_bound(a.n(1, 0)), range_bound(a.n(2, 0)));
                let Some(h) = self.space_of(&of) else { return Ok(ApiValue::Spaces(vec![])) };
                let owner = self.unit(&of).map(|u| u.owner);
                let allied_minions: Vec<Hex> = self
                    .state
                    .units
                    .iter()
                    .filter(|u| Some(u.owner) == owner && u.minion.is_some())
                    .filter_map(|u| match u.location {
                        Location::Space(x) => Some(x),
                        _ => None,
                    })
                    .collect();
                let deploying = func == QueryFn::DeployableSpaces;
                let r = self.board.radius as i32;
                let mut spaces: Vec<(u32, Hex)> = (-r..=r)
                    .flat_map(|q| (-r..=r).map(move |rr| Hex::new(q, rr)))
                    .filter(|x| self.is_free(*x))
                    .filter(|x| !deploying || !allied_minions.iter().any(|m| m.is_adjacent(*x)))
                    .map(|x| (h.distance(x), x))
                    .filter(|(d, _)| *d >= lo && *d <= hi)
                    .collect();
                spaces.sort();
                ApiValue::Spaces(spaces.into_iter().map(|(_, x)| [x.q as i64, x.r as i64]).collect())
            }
            QueryFn::Minions => ApiValue::List(self.minions_of(&a.character(self, 0)?)),
            QueryFn::IsMinion => ApiValue::Bool(self.is_minion(&a.character(self, 0)?)),
        })
    }

    /// `Change` functions: changes to Characters: Damage, States, points, Minions, Tactics, granted Actions (`000 § Effects`).
    fn api_change(&mut self, func: ChangeFn, a: &Args<'_>) -> std::result::Result<ApiValue, String> {
        Ok(match func {
            ChangeFn::InflictDamage => {
                let t = a.character(self, 0)?;
                let amount = a.n(1, 0);
                if amount < 1 {
                    return Err(format!(
                        "inflict_damage: {amount} Damage; the amount is at least 1 (`game:heal` removes Damage)"
                    ));
                }
                // More than the Hit Points left is the same as just enough:
                // the excess is ignored (`000 § Damage`).
                self.inflict(&t, amount.min(255) as u8, None);
                ApiValue::Nil
            }
            ChangeFn::Heal => {
                let t = a.character(self, 0)?;
                let amount = a.n(1, 0);
                if amount < 0 {
                    return Err(format!(
                        "heal: {amount} Damage; the amount is at least 0 (`game:inflict_damage` inflicts Damage)"
                    ));
                }
                // More than the Character's Damage heals it all.
                let amount = amount.min(255) as u8;
                if let Some(u) = self.unit_mut(&t) {
                    let healed = amount.min(u.damage);
                    u.damage -= healed;
                    let total = u.damage;
                    // Nothing to heal, nothing happens (and nothing to tell).
                    if healed > 0 {
                        self.emit(Event::Healed { character: t, amount: healed, total });
                    }
                }
                ApiValue::Nil
            }
            ChangeFn::ImposeState => {
                let t = a.character(self, 0)?;
                let source = match a.args.get(2) {
                    Some(ApiValue::Str(x)) => Some(*x),
                    _ => self.state.active,
                };
                self.impose(&t, a.s(1)?, source.as_deref())?;
                ApiValue::Nil
            }
            ChangeFn::RemoveState => {
                let t = a.character(self, 0)?;
                ApiValue::Bool(self.remove_token(&t, a.s(1)?))
            }
            ChangeFn::GainActionPoints => {
                let t = a.character(self, 0)?;
                self.gain_points(&t, a.n(1, 0), Points::Action);
                ApiValue::Nil
            }
            ChangeFn::DrawTactics | ChangeFn::DiscardTactics => {
                let p = self.effect_player();
                let count = a.n(0, 1).clamp(0, 10) as u8;
                if func == ChangeFn::DrawTactics {
                    self.draw(p, count);
                } else {
                    self.discard_tactics(p, count, false);
                }
                ApiValue::Nil
            }
            ChangeFn::DiscardTacticsAtRandom => {
                let t = a.character(self, 0)?;
                let p = self.unit(&t).map_or(PlayerId::seat(0), |u| u.owner);
                let count = a.n(1, 1).clamp(0, 10) as u8;
                self.discard_tactics(p, count, true);
                ApiValue::Nil
            }
            ChangeFn::ActivationEffect => {
                let t = a.character(self, 0)?;
                let name = a.s(1)?.to_string();
                let u = self.unit_mut(&t).expect("unit");
                if !u.until_end_of_activation.contains(&Id::from(&name)) {
                    u.until_end_of_activation.push(Id::from(name));
                }
                ApiValue::Nil
            }
            ChangeFn::RoundEffect => {
                let t = a.character(self, 0)?;
                let name = a.s(1)?.to_string();
                let u = self.unit_mut(&t).expect("unit");
                if !u.until_end_of_round.contains(&Id::from(&name)) {
                    u.until_end_of_round.push(name.as_str().into());
                    self.emit(Event::Log { text: format!("{t} is under {name} until the end of the Round") });
                }
                ApiValue::Nil
            }
            ChangeFn::NullifyTactic => match self.effect_frame.answering.last_mut() {
                Some((_, nullified)) => {
                    *nullified = true;
                    ApiValue::Nil
                }
                None => {
                    return Err("nullify_tactic: no Tactic is being answered (the timing is `tactic-played`)".into());
                }
            },
            ChangeFn::GrantAction => {
                let t = a.character(self, 0)?;
                let max = a.n(1, 0).clamp(0, 20) as u8;
                let player = self.effect_player();
                self.effect_frame.pending_grant = Some((t, max, player));
                ApiValue::Nil
            }
            ChangeFn::DeployMinion => {
                let card = a.s(0)?.to_string();
                let Some(ApiValue::Space([q, r])) = a.args.get(1) else {
                    return Err("deploy_minion: a space {q, r} is needed".into());
                };
                let controller =
                    self.effect_frame.effect_source.ok_or("deploy_minion: no Character's effect is running")?;
                let aside = self.state.units.iter().any(|u| {
                    u.location == Location::Aside
                        && u.minion.as_ref().is_some_and(|m| m.controller == controller && m.card == card)
                });
                let known = self
                    .content
                    .characters
                    .get(&controller)
                    .is_some_and(|c| c.value.minions.iter().any(|m| m.id == card));
                if known && !aside {
                    // "The Controller cannot have more Minions deployed than are listed on their Card."
                    self.emit(Event::Log { text: format!("{controller} has no {card} left to deploy") });
                    return Ok(ApiValue::Nil);
                }
                let space = Hex::checked(*q, *r).ok_or_else(|| format!("deploy_minion: ({q}, {r}) is not a space"))?;
                let id = self.deploy_minion(&controller, &card, space).map_err(|e| format!("deploy_minion: {e}"))?;
                ApiValue::Str(id)
            }
        })
    }

    /// `Move` functions: movement by effects: Displace, Place, Swap, Movement Points, Smoke (`000 § Displace`, `000 § Place`).
    fn api_move(&mut self, func: MoveFn, a: &Args<'_>) -> std::result::Result<ApiValue, String> {
        Ok(match func {
            MoveFn::Displace => {
                let t = a.character(self, 0)?;
                if self.prevented(&t, model::Prevention::MovedByEnemyEffects) {
                    return Ok(ApiValue::Nil);
                }
                for _ in 0..a.n(1, 1).clamp(0, 10) {
                    let Some(from) = self.space_of(&t) else { break };
                    let options: Vec<Choice> = from
                        .neighbours()
                        .into_iter()
                        .filter(|h| self.is_free(*h))
                        .map(|h| Choice::Space { space: h })
                        .collect();
                    if options.is_empty() {
                        break;
                    }
                    let decider = self.effect_player();
                    if let Choice::Space { space } =
                        self.decide(decider, DecisionKind::Displace, Some(&t), "Displace to?", options)
                    {
                        self.unit_mut(&t).expect("unit").location = Location::Space(space);
                        self.emit(Event::Displaced { character: t.as_str().into(), from, to: space });
                        self.entered(&t, Some(from), space);
                    }
                }
                ApiValue::Nil
            }
            MoveFn::Place => {
                let t = a.character(self, 0)?;
                if self.prevented(&t, model::Prevention::MovedByEnemyEffects) {
                    return Ok(ApiValue::Nil);
                }
                // Only what is in the HexaDome is Placed by an Effect (a Running
                // Projectile gone to its deck, a Character in the Infirmary: R20).
                if self.space_of(&t).is_none() {
                    return Ok(ApiValue::Nil);
                }
                let to = space_arg(a.args, 1, a.f.name)?;
                let (q, r) = (to.q, to.r);
                if !self.is_free(to) {
                    return Err(format!("place: [{q}, {r}] is not a Free space"));
                }
                let from = self.space_of(&t);
                self.unit_mut(&t).expect("unit").location = Location::Space(to);
                self.emit(Event::Placed { character: t.as_str().into(), from, to });
                self.entered(&t, from, to);
                ApiValue::Nil
            }
            MoveFn::Swap => {
                let (a, b) = (a.character(self, 0)?, a.character(self, 1)?);
                // Neither moves if either cannot (a Swap moves both: `000 § Swap`).
                let moved_by_enemy = model::Prevention::MovedByEnemyEffects;
                if self.prevented(&a, moved_by_enemy) | self.prevented(&b, moved_by_enemy) {
                    return Ok(ApiValue::Nil);
                }
                let (la, lb) = (self.unit(&a).expect("unit").location, self.unit(&b).expect("unit").location);
                if let (Location::Space(ha), Location::Space(hb)) = (la, lb) {
                    self.unit_mut(&a).expect("unit").location = Location::Space(hb);
                    self.unit_mut(&b).expect("unit").location = Location::Space(ha);
                    self.emit(Event::Placed { character: a.as_str().into(), from: Some(ha), to: hb });
                    self.emit(Event::Placed { character: b.as_str().into(), from: Some(hb), to: ha });
                    self.entered(&a, Some(ha), hb);
                    self.entered(&b, Some(hb), ha);
                }
                ApiValue::Nil
            }
            MoveFn::DeploySmoke => {
                let Some(ApiValue::Space([q, r])) = a.args.first() else {
                    return Err("deploy_smoke: a space {q, r} is needed".into());
                };
                let space = Hex::checked(*q, *r).ok_or_else(|| format!("deploy_smoke: ({q}, {r}) is not a space"))?;
                let who = self.state.active.ok_or("deploy_smoke: no active Character")?;
                let max = self.card(&who).smoke_tokens as usize;
                let deployed = self.state.smoke.iter().filter(|(_, c)| *c == who).count();
                if deployed >= max {
                    return Err(format!(
                        "deploy_smoke: {who} has {deployed} of its {max} Smoke tokens in the HexaDome already"
                    ));
                }
                if !self.board.on_board(space) || self.in_smoke(space) {
                    return Err(format!("deploy_smoke: [{q}, {r}] is off the board or already has Smoke"));
                }
                self.state.smoke.push((space, who));
                self.emit(Event::SmokeDeployed { character: who, space });
                ApiValue::Nil
            }
            MoveFn::GainMovementPoints => {
                let t = a.character(self, 0)?;
                self.gain_points(&t, a.n(1, 0), Points::Movement);
                ApiValue::Nil
            }
            MoveFn::DisplaceTo => {
                let t = a.character(self, 0)?;
                if self.prevented(&t, model::Prevention::MovedByEnemyEffects) {
                    return Ok(ApiValue::Nil);
                }
                let to = space_arg(a.args, 1, a.f.name)?;
                let (q, r) = (to.q, to.r);
                let Some(from) = self.space_of(&t) else { return Ok(ApiValue::Nil) };
                if !from.is_adjacent(to) || !self.is_free(to) {
                    return Err(format!("displace_to: [{q}, {r}] is not a Free space Adjacent to `{t}`"));
                }
                self.unit_mut(&t).expect("unit").location = Location::Space(to);
                self.emit(Event::Displaced { character: t.as_str().into(), from, to });
                self.entered(&t, Some(from), to);
                ApiValue::Nil
            }
            MoveFn::SpendMovementPoints => {
                let t = a.character(self, 0)?;
                let amount = a.n(1, 0).clamp(0, 255) as u8;
                let active = self.state.active.as_deref() == Some(t.as_str());
                let u = self.unit_mut(&t).expect("unit");
                if !active || u.movement_points < amount {
                    return Ok(ApiValue::Bool(false));
                }
                u.movement_points -= amount;
                u.movement_spent = u.movement_spent.saturating_add(amount);
                let left = u.movement_points;
                self.emit(Event::Log {
                    text: format!(
                        "{t} spends {} ({left} left)",
                        crate::rules::event::count(amount as u32, "Movement Point")
                    ),
                });
                ApiValue::Bool(true)
            }
        })
    }

    /// `Dice` functions: dice outside a Roll's pools: the next Roll, a die rolled alone, reading and reducing pools, forbidding Switches (`000 § Rolls`).
    fn api_dice(&mut self, func: DiceFn, a: &Args<'_>) -> std::result::Result<ApiValue, String> {
        Ok(match func {
            DiceFn::AddDieToNextRoll => {
                let t = a.character(self, 0)?;
                let die = a.s(1)?.to_string();
                if !self.content.dice.contains_key(die.as_str()) {
                    return Err(format!("add_die_to_next_roll: no die `{die}`"));
                }
                // Only the active Character has a next Roll "in this Activation".
                if self.state.active.as_deref() == Some(t.as_str()) {
                    self.unit_mut(&t).expect("unit").next_roll.push(Id::from(die));
                }
                ApiValue::Nil
            }
            DiceFn::RollDie => {
                let die = a.s(0)?.to_string();
                if !self.content.dice.contains_key(die.as_str()) {
                    return Err(format!("roll_die: no die `{die}`"));
                }
                let who = self.effect_frame.effect_source.unwrap_or_default();
                let faces = self.roll_dice(&Pool { dice: vec![Id::from(die)], symbols: vec![] });
                let face: Vec<Id> =
                    faces.first().map_or(vec![], |(_, f)| f.iter().map(|x| symbol_name(*x).into()).collect());
                self.emit(Event::Rolled { character: who, faces, added: vec![] });
                ApiValue::List(face)
            }
            DiceFn::PoolDice => {
                let own = self.roll_frame.tactic_side.unwrap_or(Side::Active);
                let side = if a.s(0)? == "own" { own } else { own.other() };
                let Some(pools) = &self.roll_frame.pending_pools else {
                    return Err("pool_dice: no Roll is about to be made".into());
                };
                ApiValue::List(pools[side as usize].dice.clone())
            }
            DiceFn::ReduceRollTo => {
                let own = self.roll_frame.tactic_side.unwrap_or(Side::Active);
                let side = if a.s(0)? == "own" { own } else { own.other() };
                let index = a.n(1, 0);
                let Some(pools) = self.roll_frame.pending_pools.as_mut() else {
                    return Err("reduce_roll_to: no Roll is about to be made".into());
                };
                let pool = &mut pools[side as usize];
                if index < 1 || index as usize > pool.dice.len() {
                    return Err(format!("reduce_roll_to: the Roll has no die #{index}"));
                }
                let die = pool.dice[index as usize - 1];
                pool.dice = vec![die];
                pool.symbols.clear();
                self.roll_frame.pool_locked[side as usize] = true;
                self.emit(Event::Log { text: format!("the Roll is reduced to one {die} die") });
                ApiValue::Nil
            }
            DiceFn::ForbidSwitches => {
                let own = if self.roll_frame.pending_pools.is_some() {
                    self.roll_frame.tactic_side.unwrap_or(Side::Active)
                } else if let Some(rc) = &self.roll_frame.roll {
                    rc.side
                } else {
                    return Err("forbid_switches: there is no Roll to change now".into());
                };
                let side = if a.s(0)? == "own" { own } else { own.other() };
                self.roll_frame.switches_forbidden[side as usize] = true;
                ApiValue::Nil
            }
        })
    }

    /// `Roll` functions: changes to the Roll being made, before or after its dice are rolled, and to its Cover (`000 § Rolls`, `000 § Cover`).
    fn api_roll(&mut self, func: RollFn, a: &Args<'_>) -> std::result::Result<ApiValue, String> {
        Ok(match func {
            RollFn::AddSymbol if self.roll_frame.pending_pools.is_some() => {
                let sym = symbol(a.s(0)?)?;
                let side = self.roll_frame.tactic_side.unwrap_or(Side::Active);
                let pools = self.roll_frame.pending_pools.as_mut().expect("pools");
                let pool = &mut pools[if side == Side::Active { 0 } else { 1 }];
                pool.symbols.extend(std::iter::repeat_n(sym, a.n(1, 1).clamp(0, 6) as usize));
                ApiValue::Nil
            }
            RollFn::AddDie if self.roll_frame.pending_pools.is_some() => {
                let die = a.s(0)?.to_string();
                let limit = self
                    .content
                    .dice
                    .get(die.as_str())
                    .ok_or_else(|| format!("add_die: no die `{die}`"))?
                    .value
                    .max_per_roll as usize;
                let side = self.roll_frame.tactic_side.unwrap_or(Side::Active);
                if self.roll_frame.pool_locked[side as usize] {
                    self.emit(Event::Log { text: format!("no die can be added to this Roll (the {die} die is not)") });
                    return Ok(ApiValue::Nil);
                }
                let pools = self.roll_frame.pending_pools.as_mut().expect("pools");
                let pool = &mut pools[if side == Side::Active { 0 } else { 1 }];
                let mut refused = 0;
                for _ in 0..a.n(1, 1).clamp(0, 6) {
                    // The per-Roll limits hold (`000 § Dice`); dice over them are not added.
                    if pool.dice.iter().filter(|d| **d == die).count() < limit {
                        pool.dice.push(die.as_str().into());
                    } else {
                        refused += 1;
                    }
                }
                if refused > 0 {
                    self.emit(Event::Log {
                        text: format!("{refused} {die} die not added: a Roll holds at most {limit} (000 § Dice)"),
                    });
                }
                ApiValue::Nil
            }
            RollFn::NullifyDie if self.roll_frame.pending_pools.is_some() => {
                // Before the Roll: the die leaves the pool (`000 § Nullifying Dice`).
                let own = self.roll_frame.tactic_side.unwrap_or(Side::Active);
                let side = if a.s(0)? == "own" { own } else { own.other() };
                let index = a.n(1, 0);
                let pools = self.roll_frame.pending_pools.as_mut().expect("pools");
                let pool = &mut pools[if side == Side::Active { 0 } else { 1 }];
                if index >= 1 && (index as usize) <= pool.dice.len() {
                    pool.dice.remove(index as usize - 1);
                    ApiValue::Bool(true)
                } else {
                    ApiValue::Bool(false)
                }
            }
            RollFn::AddDie | RollFn::AddSymbol | RollFn::NullifySymbol | RollFn::NullifyDie => {
                let Some(rc) = &mut self.roll_frame.roll else {
                    return Err(format!("{}: there is no Roll to change now", a.f.name));
                };
                let own = rc.side;
                match a.f.name {
                    "add_symbol" => {
                        let sym = symbol(a.s(0)?)?;
                        rc.roll.side_mut(own).tally.add(sym, a.n(1, 1).clamp(0, 10) as u32);
                        ApiValue::Nil
                    }
                    "nullify_symbol" | "nullify_die" => {
                        let mine = a.s(0)? == "own";
                        let side = if mine { own } else { own.other() };
                        let whose = rc.rollers[usize::from(!mine)];
                        let (done, what) = if func == RollFn::NullifySymbol {
                            let sym = symbol(a.s(1)?)?;
                            (
                                rc.roll.side_mut(side).tally.nullify(sym),
                                format!("a {}", crate::rules::event::symbol_name(sym)),
                            )
                        } else {
                            let index = a.n(1, 0);
                            let done = index >= 1 && rc.roll.nullify_die(side, (index - 1) as usize);
                            (done, format!("die #{index}"))
                        };
                        if done {
                            self.emit(Event::Log { text: format!("{what} of {whose}'s Roll is Nullified") });
                        }
                        ApiValue::Bool(done)
                    }
                    _ => return Err(format!("{}: not available once the dice are rolled", a.f.name)),
                }
            }
            RollFn::IgnoreCover | RollFn::CoverDie => {
                let Some(check) = &mut self.roll_frame.cover_check else {
                    return Err(format!("{}: only while Cover is checked (the `cover` window)", a.f.name));
                };
                if func == RollFn::IgnoreCover {
                    check.target = false;
                } else {
                    let die = a.s(0)?.to_string();
                    if !self.content.dice.contains_key(die.as_str()) {
                        return Err(format!("cover_die: no die `{die}`"));
                    }
                    let check = self.roll_frame.cover_check.as_mut().expect("cover check");
                    if check.attacker.is_some() {
                        check.attacker = Some(Id::from(die));
                    }
                }
                ApiValue::Nil
            }
        })
    }

    /// `Choice` functions: choices a player makes for an effect (a Decision).
    fn api_choice(&mut self, func: ChoiceFn, a: &Args<'_>) -> std::result::Result<ApiValue, String> {
        Ok(match func {
            ChoiceFn::ChooseSpace => {
                let Some(ApiValue::Spaces(options)) = a.args.first() else { return Ok(ApiValue::Nil) };
                if options.is_empty() {
                    return Ok(ApiValue::Nil);
                }
                let prompt = match a.args.get(1) {
                    Some(ApiValue::Str(p)) => *p,
                    _ => "Which space?".into(),
                };
                let decider = self.effect_player();
                let opts = space_choices(options, "choose_space")?;
                match self.decide(
                    decider,
                    DecisionKind::Space,
                    self.state.active.clone().as_deref(),
                    prompt.as_str(),
                    opts,
                ) {
                    Choice::Space { space } => ApiValue::Space([space.q as i64, space.r as i64]),
                    _ => ApiValue::Nil,
                }
            }
            ChoiceFn::ChooseTarget | ChoiceFn::Choose => {
                let Some(ApiValue::List(options)) = a.args.first() else { return Ok(ApiValue::Nil) };
                if options.is_empty() {
                    return Ok(ApiValue::Nil);
                }
                let prompt = match a.args.get(1) {
                    Some(ApiValue::Str(p)) => *p,
                    _ => "Choose".into(),
                };
                let decider = self.effect_player();
                let (kind, opts) = if func == ChoiceFn::ChooseTarget {
                    (DecisionKind::Target, options.iter().map(|o| Choice::Pick { id: o.as_str().into() }).collect())
                } else {
                    (DecisionKind::Choose, options.iter().map(|o| Choice::Text { text: o.to_string() }).collect())
                };
                match self.decide(decider, kind, self.state.active.clone().as_deref(), prompt.as_str(), opts) {
                    Choice::Pick { id } => ApiValue::Str(id),
                    Choice::Text { text } => ApiValue::Str(Id::from(text)),
                    _ => ApiValue::Nil,
                }
            }
        })
    }
}

/// Which points an effect gives.
#[derive(Debug, Clone, Copy)]
enum Points {
    Action,
    Movement,
}

impl Game<'_> {
    /// An effect gives the active Character Action or Movement Points (0 to
    /// 50; only the active Character has any to gain, `000 § Action Points`),
    /// and is remembered as the last to give points, to be named if the
    /// Activation runs away.
    fn gain_points(&mut self, t: &str, amount: i64, points: Points) {
        let amount = amount.clamp(0, 50) as u8;
        if self.state.active.as_deref() != Some(t) {
            return;
        }
        if amount > 0 {
            self.effect_frame.granted_points = self.effect_frame.running.last().copied();
        }
        let u = self.unit_mut(t).expect("unit");
        let (character, total) = match points {
            Points::Action => {
                u.action_points = u.action_points.saturating_add(amount);
                (t.to_string(), u.action_points)
            }
            Points::Movement => {
                u.movement_points = u.movement_points.saturating_add(amount);
                (t.to_string(), u.movement_points)
            }
        };
        self.emit(match points {
            Points::Action => Event::ActionPoints { character: Id::from(character), gained: amount, total },
            Points::Movement => Event::MovementPoints { character: Id::from(character), gained: amount, total },
        });
    }
}
