//! The Invictus game as the Lua effects' host: every `game:...` call of a
//! god ability, Boost or Reinforcement (the registry: `crate::invictus::api`).
//! Players are named by their god's id.

use super::*;
use crate::model::Id;
use crate::model::{EnergyType, Skill};
use crate::script::api::{ApiFn, ApiValue, ChanceFn, HostFn, InvictusFn};
use crate::script::host::Host;

impl Host for Game<'_, '_> {
    fn call(&mut self, f: &'static ApiFn, args: &[ApiValue]) -> Result<ApiValue, String> {
        match f.id {
            HostFn::Chance(ChanceFn::Random) => {
                let (Some(ApiValue::Int(lo)), Some(ApiValue::Int(hi))) = (args.first(), args.get(1)) else {
                    return Err("random needs two integers".into());
                };
                if lo > hi {
                    return Err(format!("random: empty range [{lo}, {hi}]"));
                }
                Ok(ApiValue::Int(self.rng.random_range(*lo..=*hi)))
            }
            HostFn::Chance(ChanceFn::Log) => {
                if let Some(ApiValue::Str(s)) = args.first() {
                    self.emit(Event::Log { text: s.to_string() });
                }
                Ok(ApiValue::Nil)
            }
            HostFn::Invictus(func) => self.api_invictus(func, args),
            _ => Err(format!("{} is not a function of Invictus games", f.name)),
        }
    }

    fn begin_effect(&mut self) {
        self.snapshots.push((self.state.clone(), self.events.len(), self.attack.clone()));
    }

    fn end_effect(&mut self, ok: bool) {
        if let Some((state, events, attack)) = self.snapshots.pop() {
            if !ok {
                self.state = state;
                self.events.truncate(events);
                self.attack = attack;
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

impl<'a, 'c> Game<'a, 'c> {
    fn player_arg(&self, args: &[ApiValue], i: usize) -> Result<PlayerId, String> {
        match args.get(i) {
            Some(ApiValue::Str(s)) => self.state.seat_of(s).ok_or_else(|| format!("no player plays `{s}`")),
            _ => Err(format!("argument #{} must be a god id", i + 1)),
        }
    }

    fn int_arg(args: &[ApiValue], i: usize) -> Result<i64, String> {
        match args.get(i) {
            Some(ApiValue::Int(n)) => Ok(*n),
            _ => Err(format!("argument #{} must be an integer", i + 1)),
        }
    }

    fn amount_arg(args: &[ApiValue], i: usize) -> Result<i32, String> {
        let n = Self::int_arg(args, i)?;
        if !(0..=1000).contains(&n) {
            return Err(format!("amount {n} is out of range (0 to 1000)"));
        }
        Ok(n as i32)
    }

    fn names(&self, seats: Vec<PlayerId>) -> ApiValue {
        ApiValue::List(seats.into_iter().map(|s| self.name(s)).collect())
    }

    /// The attack frame entry the running effect writes to.
    fn frame_entry(&mut self) -> Result<&mut FrameEntry, String> {
        let i = self.effect_entry.ok_or("there is no attack being declared or countered")?;
        let frame = self.attack.as_mut().ok_or("there is no attack being declared or countered")?;
        frame.entries.get_mut(i).ok_or_else(|| "no attack entry for this effect".to_string())
    }

    fn api_invictus(&mut self, func: InvictusFn, a: &[ApiValue]) -> Result<ApiValue, String> {
        use InvictusFn as F;
        Ok(match func {
            F::Health => ApiValue::Int(self.state.player(self.player_arg(a, 0)?).health as i64),
            F::MaxHealth => ApiValue::Int(self.state.player(self.player_arg(a, 0)?).max_health as i64),
            F::Stamina => ApiValue::Int(self.state.player(self.player_arg(a, 0)?).stamina as i64),
            F::Enemies => self.names(self.state.enemies(self.player_arg(a, 0)?)),
            F::Allies => self.names(self.state.allies(self.player_arg(a, 0)?)),
            F::InRange => ApiValue::Bool(self.state.in_range(self.player_arg(a, 0)?, self.player_arg(a, 1)?)),
            F::Hand => {
                let p = self.player_arg(a, 0)?;
                ApiValue::List(self.state.player(p).hand.iter().map(|c| c.id().into()).collect())
            }
            F::Attacker => self.attack.as_ref().map_or(ApiValue::Nil, |f| ApiValue::Str(self.name(f.attacker))),
            F::Defender => self.attack.as_ref().map_or(ApiValue::Nil, |f| ApiValue::Str(self.name(f.target))),
            F::AttackKind => match self.attack.as_ref().map(|f| f.kind) {
                Some(AttackKind::Standard) => ApiValue::Str("standard".into()),
                Some(AttackKind::Ability) => ApiValue::Str("ability".into()),
                None => ApiValue::Nil,
            },
            F::AttackDamage => ApiValue::Int(self.attack.as_ref().map_or(0, |f| f.result().damage) as i64),
            F::DealDamage => {
                let (p, n) = (self.player_arg(a, 0)?, Self::amount_arg(a, 1)?);
                self.damage(p, n);
                ApiValue::Nil
            }
            F::Heal => {
                let (p, n) = (self.player_arg(a, 0)?, Self::amount_arg(a, 1)?);
                self.heal(p, n);
                ApiValue::Nil
            }
            F::GainStamina => {
                let (p, n) = (self.player_arg(a, 0)?, Self::amount_arg(a, 1)?);
                self.gain_stamina(p, n);
                ApiValue::Nil
            }
            F::Draw => {
                let (p, n) = (self.player_arg(a, 0)?, Self::amount_arg(a, 1)?);
                let mut count = 0;
                for _ in 0..n.min(20) {
                    if self.draw_one(p) {
                        count += 1;
                    }
                }
                self.emit(Event::Drew { god: self.name(p), count });
                ApiValue::Int(count as i64)
            }
            F::DiscardEnergyType => {
                let p = self.player_arg(a, 0)?;
                let Some(ApiValue::Str(t)) = a.get(1) else { return Err("argument #2 must be an Energy type".into()) };
                let t = EnergyType::parse(t).ok_or_else(|| format!("`{t}` is not an Energy type"))?;
                let (gone, kept): (Vec<Card>, Vec<Card>) =
                    std::mem::take(&mut self.state.player_mut(p).hand).into_iter().partition(
                        |c| matches!(c, Card::Artifact(id) if self.artifact(id).is_some_and(|x| x.energy_type == t)),
                    );
                let player = self.state.player_mut(p);
                player.hand = kept;
                let cards: Vec<Id> = gone.iter().map(|c| c.id().into()).collect();
                player.discard.extend(gone);
                let n = cards.len();
                self.emit(Event::Discarded { god: self.name(p), cards });
                ApiValue::Int(n as i64)
            }
            F::FlipBoost => {
                let owner = self.effect_owner.ok_or("no effect is running")?;
                match self.flip(owner) {
                    Some(c) => ApiValue::Str(c.as_str().into()),
                    None => ApiValue::Nil,
                }
            }
            F::AddAttackDamage => {
                let n = Self::int_arg(a, 0)?;
                if !(-1000..=1000).contains(&n) {
                    return Err(format!("amount {n} is out of range (-1000 to 1000)"));
                }
                self.frame_entry()?.bonus += n as i32;
                ApiValue::Nil
            }
            F::FailAttack => {
                let ability = self.attack.as_ref().is_some_and(|f| f.kind == AttackKind::Ability);
                let entry = self.frame_entry()?;
                entry.fail = ability;
                ApiValue::Bool(ability)
            }
            F::NegatePreviousBoost => {
                let i = self.effect_entry.ok_or("there is no attack being declared or countered")?;
                let frame = self.attack.as_mut().ok_or("there is no attack being declared or countered")?;
                match (0..i).rev().find(|j| frame.entries[*j].boost && !frame.entries[*j].negated) {
                    Some(j) => {
                        frame.entries[j].negated = true;
                        ApiValue::Bool(true)
                    }
                    None => ApiValue::Bool(false),
                }
            }
            F::Block => {
                let n = Self::amount_arg(a, 0)?;
                self.frame_entry()?.block += n;
                ApiValue::Nil
            }
            F::InactivateToken | F::ActivateToken => {
                let p = self.player_arg(a, 0)?;
                let Some(ApiValue::Str(s)) = a.get(1) else { return Err("argument #2 must be a skill".into()) };
                let skill =
                    Skill::parse(s).ok_or_else(|| format!("`{s}` is not a skill (stamina, range, accuracy)"))?;
                let active = func == F::ActivateToken;
                let changed = {
                    let tokens = self.state.player_mut(p).tokens.entry(skill).or_default();
                    // The last token of the other state changes.
                    match tokens.iter_mut().rev().find(|t| t.active != active) {
                        Some(t) => {
                            t.active = active;
                            true
                        }
                        None => false,
                    }
                };
                if changed {
                    self.emit(Event::Token { god: self.name(p), skill: s.as_str().into(), active });
                }
                ApiValue::Bool(changed)
            }
            F::Choose => {
                let owner = self.effect_owner.ok_or("no effect is running")?;
                let Some(ApiValue::List(options)) = a.first() else { return Err("argument #1 must be a list".into()) };
                if options.is_empty() {
                    return Ok(ApiValue::Nil);
                }
                if options.len() > 64 {
                    return Err("choose offers at most 64 options".into());
                }
                let prompt = match a.get(1) {
                    Some(ApiValue::Str(s)) => *s,
                    _ => "choose".into(),
                };
                let choices = options.iter().map(|t| Choice::Text { text: t.to_string() }).collect();
                match self.ask(owner, DecisionKind::Choose, &prompt, choices) {
                    Choice::Text { text } => ApiValue::Str(Id::from(text)),
                    _ => ApiValue::Nil,
                }
            }
        })
    }
}
