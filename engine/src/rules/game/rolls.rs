//! Rolls: pools before the Roll, rolling dice, Simple and Face to Face Rolls, Switches, Cover dice (`000 § Rolls`, `000 § Switches`, `000 § Cover`).

use super::host_args::symbol_name;
use super::*;
use crate::model::Id;

impl<'a> Game<'a> {
    /// An Action's `before-roll` Effects, which change its own Roll's pools
    /// (`game:add_die`, `game:add_symbol`) before the dice are rolled.
    pub(super) fn before_roll_effects(
        &mut self,
        id: &str,
        target: Option<&str>,
        action: &Action,
        pools: [Pool; 2],
    ) -> [Pool; 2] {
        let indices: Vec<usize> = action
            .effects
            .iter()
            .enumerate()
            .filter(|(_, e)| e.timing == Some(model::Window::BeforeRoll))
            .map(|(i, _)| i)
            .collect();
        if indices.is_empty() {
            return pools;
        }
        self.roll_frame.pending_pools = Some(pools);
        self.roll_frame.tactic_side = Some(Side::Active);
        for i in indices {
            let path = format!("actions[id={}].effects[{i}]", action.id);
            let text = action.effects[i].text.clone();
            self.run_card_effect(id, &path, id, target, None, &text);
        }
        self.roll_frame.tactic_side = None;
        self.roll_frame.pending_pools.take().unwrap_or_default()
    }

    /// Automatic Skills with `timing = "before-roll"` of the attacker's team
    /// (the attacker included: "Characters are Allies of themselves",
    /// `000 § Allies`), run before an Attack Roll with ctx.self = the skill's
    /// owner and ctx.target = the Defender; they may add dice to the Attack
    /// (Pointman, `002 § Hannibal`).
    pub(super) fn team_before_roll_skills(&mut self, attacker: &str, defender: &str, pools: [Pool; 2]) -> [Pool; 2] {
        let Some(owner) = self.unit(attacker).map(|u| u.owner) else { return pools };
        let holders: Vec<(Id, String, String)> = self
            .state
            .units
            .iter()
            .filter(|u| u.owner == owner && matches!(u.location, Location::Space(_)))
            .flat_map(|u| {
                self.card(&u.id)
                    .automatic_skills
                    .iter()
                    .filter(|s| {
                        s.timing == Some(model::Window::BeforeRoll)
                            && (s.effect.lua.is_some() || s.effect.script.is_some())
                    })
                    .filter(|s| !self.silenced(&u.id, &s.id))
                    .map(|s| (u.id, format!("automatic_skills[id={}].effect", s.id), s.effect.text.clone()))
                    .collect::<Vec<_>>()
            })
            .collect();
        if holders.is_empty() {
            return pools;
        }
        self.roll_frame.pending_pools = Some(pools);
        self.roll_frame.tactic_side = Some(Side::Active);
        for (who, path, text) in holders {
            let before = self.roll_frame.pending_pools.clone();
            self.run_card_effect(&who, &path, &who, Some(defender), None, &text);
            self.say_pool_change(&who, &path, before.as_ref(), 0);
        }
        self.roll_frame.tactic_side = None;
        self.roll_frame.pending_pools.take().unwrap_or_default()
    }

    /// A narrative line for an Automatic Skill that changed a Roll's pool
    /// before it is rolled (Pointman, Benediction of Freyja): which skill,
    /// and the dice and symbols it added.
    pub(super) fn say_pool_change(&mut self, who: &str, path: &str, before: Option<&[Pool; 2]>, index: usize) {
        let (Some(before), Some(after)) = (before, self.roll_frame.pending_pools.as_ref()) else { return };
        let (b, a) = (&before[index], &after[index]);
        let mut added: Vec<Id> = a.dice.clone();
        for d in &b.dice {
            if let Some(i) = added.iter().position(|x| x == d) {
                added.remove(i);
            }
        }
        let symbols = a.symbols.len().saturating_sub(b.symbols.len());
        if added.is_empty() && symbols == 0 {
            return;
        }
        let id = path.strip_prefix("automatic_skills[id=").and_then(|r| r.split(']').next()).unwrap_or(path);
        let name = self.card(who).automatic_skills.iter().find(|k| k.id == id).map(|k| k.name.clone());
        let article = |w: &str| if w.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
        let mut parts: Vec<String> = added.iter().map(|d| format!("{} {d} die", article(d))).collect();
        parts.extend(a.symbols[a.symbols.len() - symbols..].iter().map(|x| {
            let n = symbol_name(*x).replace('_', " ");
            format!("{} {n}", article(&n))
        }));
        self.emit(Event::Log {
            text: format!("{who}'s {}: {} added to the Roll", name.as_deref().unwrap_or(id), parts.join(", ")),
        });
    }

    pub(super) fn roll_dice(&mut self, pool: &Pool) -> Vec<(Id, Vec<Symbol>)> {
        let mut out = Vec::new();
        for d in &pool.dice {
            let Some(die) = self.content.dice.get(d) else { continue };
            if let Some(face) = self.forced.faces.pop_front() {
                let sorted = |f: &[Symbol]| {
                    let mut f = f.to_vec();
                    f.sort();
                    f
                };
                if !die.value.faces.iter().any(|f| sorted(f) == sorted(&face)) && self.forced.fault.is_none() {
                    let show = |f: &[Symbol]| {
                        if f.is_empty() {
                            "blank".to_string()
                        } else {
                            f.iter().map(|x| symbol_name(*x)).collect::<Vec<_>>().join("+")
                        }
                    };
                    let faces: Vec<String> = die.value.faces.iter().map(|f| show(f)).collect();
                    self.forced.fault = Some(format!(
                        "forced face #{} is {}, which the {d} die does not have (its faces: {})",
                        self.forced.used + 1,
                        show(&face),
                        faces.join(", ")
                    ));
                    // Nothing after an impossible face is a real game: stop here.
                    if self.halted.is_none() {
                        self.halted = Some(self.events.len());
                        self.state.over = true;
                    }
                }
                self.forced.used += 1;
                out.push((*d, face));
                continue;
            }
            let face = self.state.rng.random_range(0..die.value.faces.len().max(1));
            out.push((*d, die.value.faces.get(face).cloned().unwrap_or_default()));
        }
        out
    }

    pub(super) fn simple_roll(
        &mut self,
        id: &str,
        pool: &Pool,
        target: Option<&str>,
        switches: &[model::Switch],
    ) -> u32 {
        let faces = self.roll_dice(pool);
        self.emit(Event::Rolled { character: id.into(), faces: faces.clone(), added: pool.symbols.clone() });
        let side = SideRoll::rolled(faces, &pool.symbols);
        // A Simple Roll as a Face to Face Roll with nobody opposite.
        let mut ftf = FaceToFace::new(side, SideRoll::rolled(vec![], &[]));
        self.after_roll_tactics(&mut ftf, id, target, false);
        if self.has_state(id, "stunned") {
            crate::rules::roll::apply_stunned(&mut ftf.active.tally);
        }
        self.switches_step(&mut ftf, Side::Active, id, target, switches);
        let r = ftf.results();
        self.roll_frame.switches_forbidden = [false; 2];
        self.roll_frame.pool_locked = [false; 2];
        self.emit(Event::RollResult {
            active: id.into(),
            active_successes: r.active_successes,
            opponent: None,
            opponent_successes: 0,
        });
        r.active_successes
    }

    /// A Face to Face Roll between the active Character and an opponent.
    #[allow(clippy::too_many_arguments)] // the Roll's two sides and the Action's parts
    pub(super) fn face_to_face(
        &mut self,
        active: &str,
        active_pool: &Pool,
        opponent: &str,
        opponent_pool: &Pool,
        action_switches: &[model::Switch],
        attack: bool,
        before_switches: &[(String, String)],
    ) -> crate::rules::roll::Results {
        let a_faces = self.roll_dice(active_pool);
        self.emit(Event::Rolled {
            character: active.into(),
            faces: a_faces.clone(),
            added: active_pool.symbols.clone(),
        });
        let o_faces = self.roll_dice(opponent_pool);
        self.emit(Event::Rolled {
            character: opponent.into(),
            faces: o_faces.clone(),
            added: opponent_pool.symbols.clone(),
        });
        let mut ftf = FaceToFace::new(
            SideRoll::rolled(a_faces, &active_pool.symbols),
            SideRoll::rolled(o_faces, &opponent_pool.symbols),
        );
        self.after_roll_tactics(&mut ftf, active, Some(opponent), true);
        // Critical Block step (`000 § Critical Block`).
        for (side, who) in [(Side::Active, active), (Side::Opponent, opponent)] {
            let targets = ftf.critical_block_targets(side);
            if targets.is_empty() {
                continue;
            }
            let owner = self.unit(who).map(|u| u.owner).unwrap_or(PlayerId::seat(0));
            let mut options = vec![Choice::Done];
            for i in targets {
                let die = ftf.side(side.other()).dice[i].die.unwrap_or_else(|| "added symbol".into());
                options.push(Choice::Nullify { index: i, die });
            }
            if let Choice::Nullify { index, die } = self.decide(
                owner,
                DecisionKind::CriticalBlock,
                Some(who),
                "Use the Critical Block to Nullify a die?",
                options,
            ) {
                ftf.use_critical_block(side, index);
                self.emit(Event::CriticalBlock { character: who.into(), nullified: die });
            }
        }
        for (side, who) in [(Side::Active, active), (Side::Opponent, opponent)] {
            if self.has_state(who, "stunned") {
                crate::rules::roll::apply_stunned(&mut ftf.side_mut(side).tally);
            }
        }
        // The Action's `before-switches` Effects change the rolled Roll.
        for (path, text) in before_switches {
            self.roll_frame.roll =
                Some(RollCtx { roll: ftf.clone(), side: Side::Active, rollers: [active.into(), opponent.into()] });
            self.run_card_effect(active, path, active, Some(opponent), None, text);
            if let Some(rc) = self.roll_frame.roll.take() {
                ftf = rc.roll;
            }
        }
        // Switches: the active player chooses who goes first (`000 § Switches`).
        // The question only matters when both sides can pay for a Switch: no
        // Switch gives the other side symbols, so a side that cannot pay now never can.
        let active_owner = self.unit(active).map(|u| u.owner).unwrap_or(PlayerId::seat(0));
        let can_pay =
            |g: &Self, side: Side, who: &str, extra: &[model::Switch]| {
                g.card(who).switches.iter().chain(extra).any(|s| {
                    (s.effect.lua.is_some() || s.effect.script.is_some()) && ftf.side(side).tally.can_pay(&s.cost)
                })
            };
        let both = can_pay(self, Side::Active, active, action_switches) && can_pay(self, Side::Opponent, opponent, &[]);
        let first_is_active = !both || {
            let order = vec![Choice::First { character: active.into() }, Choice::First { character: opponent.into() }];
            self.decide(active_owner, DecisionKind::SwitchOrder, Some(active), "Who activates Switches first?", order)
                == Choice::First { character: active.into() }
        };
        let sides = if first_is_active { [Side::Active, Side::Opponent] } else { [Side::Opponent, Side::Active] };
        for side in sides {
            let (who, target, switches): (&str, &str, &[model::Switch]) = match side {
                Side::Active => (active, opponent, action_switches),
                Side::Opponent => (opponent, active, &[]),
            };
            // In a Disengage only the contesting Character may Switch, besides the
            // active one (`000 § Disengage`); here both sides may.
            self.switches_step(&mut ftf, side, who, Some(target), switches);
        }
        let _ = attack;
        let r = ftf.results();
        self.roll_frame.switches_forbidden = [false; 2];
        self.roll_frame.pool_locked = [false; 2];
        self.emit(Event::RollResult {
            active: active.into(),
            active_successes: r.active_successes,
            opponent: Some(opponent.into()),
            opponent_successes: r.opponent_successes,
        });
        r
    }

    /// One side's Switches: general Switches of the Character and those of the
    /// Action, repeatable while affordable (`000 § Switches`).
    pub(super) fn switches_step(
        &mut self,
        ftf: &mut FaceToFace,
        side: Side,
        who: &str,
        target: Option<&str>,
        action_switches: &[model::Switch],
    ) {
        if self.roll_frame.switches_forbidden[side as usize] {
            self.emit(Event::Log { text: format!("{who} cannot activate Switches during this Roll") });
            return;
        }
        let card = self.card(who);
        let owner = self.unit(who).map(|u| u.owner).unwrap_or(PlayerId::seat(0));
        // The scripted Switches, the card's (true) then the Action's, as they are.
        let all: Vec<(bool, &model::Switch)> = card
            .switches
            .iter()
            .map(|s| (true, s))
            .chain(action_switches.iter().map(|s| (false, s)))
            .filter(|(_, s)| s.effect.lua.is_some() || s.effect.script.is_some())
            .collect();
        // Automatic Skills used in the Switches step, offered like a Switch with
        // no cost while their condition holds (Dead Man's Hand).
        // A skill without a condition is offered once per Switches step.
        let mut skills: Vec<(Id, String, bool)> = card
            .automatic_skills
            .iter()
            .filter(|k| k.timing == Some(model::Window::Switches) && !self.silenced(who, &k.id))
            .filter(|k| k.effect.lua.is_some() || k.effect.script.is_some())
            .map(|k| {
                let repeatable = k.condition.as_ref().is_some_and(|c| c.lua.is_some() || c.script.is_some());
                (k.id, k.effect.text.clone(), repeatable)
            })
            .collect();
        if all.is_empty() && skills.is_empty() {
            return;
        }
        for _ in 0..16 {
            let mut usable = Vec::new();
            for (k, _, _) in &skills {
                let scripted = self.find_card_effect(who, format_args!("automatic_skills[id={k}].condition")).is_some();
                if !scripted || self.condition_at(who, &format!("automatic_skills[id={k}].condition"), target) {
                    usable.push(Choice::Activate { switch: k.as_str().into() });
                }
            }
            let options: Vec<Choice> = std::iter::once(Choice::Done)
                .chain(
                    all.iter()
                        .filter(|(_, s)| ftf.side(side).tally.can_pay(&s.cost))
                        .map(|(_, s)| Choice::Activate { switch: s.id }),
                )
                .chain(usable)
                .collect();
            let Choice::Activate { switch } =
                self.decide(owner, DecisionKind::Switch, Some(who), "Activate a Switch?", options)
            else {
                return;
            };
            if let Some((k, text, repeatable)) = skills.iter().find(|(k, ..)| *k == switch).cloned() {
                if !repeatable {
                    skills.retain(|(x, ..)| *x != k);
                }
                self.emit(Event::Log { text: format!("{who} uses {k}") });
                self.roll_frame.roll =
                    Some(RollCtx { roll: ftf.clone(), side, rollers: [who.into(), target.unwrap_or_default().into()] });
                self.run_card_effect(who, &format!("automatic_skills[id={k}].effect"), who, target, None, &text);
                if let Some(rc) = self.roll_frame.roll.take() {
                    *ftf = rc.roll;
                }
                continue;
            }
            let Some(&(on_card, s)) = all.iter().find(|(_, s)| s.id == switch) else { return };
            ftf.side_mut(side).tally.pay(&s.cost);
            self.emit(Event::Switch { character: who.into(), switch: s.id, cost: s.cost.clone() });
            let path =
                if on_card { format!("switches[id={}].effect", s.id) } else { self.action_switch_path(who, &s.id) };
            self.roll_frame.roll =
                Some(RollCtx { roll: ftf.clone(), side, rollers: [who.into(), target.unwrap_or_default().into()] });
            self.run_card_effect(who, &path, who, target, None, &s.effect.text);
            if let Some(rc) = self.roll_frame.roll.take() {
                *ftf = rc.roll;
            }
        }
    }

    pub(super) fn action_switch_path(&self, who: &str, switch: &str) -> String {
        for a in &self.card(who).actions {
            if a.switches.iter().any(|s| s.id == switch) {
                return format!("actions[id={}].switches[id={switch}].effect", a.id);
            }
        }
        format!("switches[id={switch}].effect")
    }

    /// Add a die to a pool unless the Roll holds its colour's limit already
    /// (`000 § Dice`), saying so when it does not fit.
    pub(super) fn add_die_within_limit(&mut self, who: &str, pool: &mut Pool, die: &str) {
        let limit = self.content.dice.get(die).map_or(0, |d| d.value.max_per_roll as usize);
        if pool.dice.iter().filter(|d| *d == die).count() < limit {
            pool.dice.push(die.into());
        } else {
            self.emit(Event::Log {
                text: format!("{who}'s {die} die is not added: a Roll holds at most {limit} (000 § Dice)"),
            });
        }
    }

    /// The dice promised to `id`'s next Roll (`game:add_die_to_next_roll`) join
    /// `pool`, within the per-Roll limits (`000 § Dice`), and are used up.
    pub(super) fn next_roll_dice(&mut self, id: &str, pool: &mut Pool) {
        let Some(dice) = self.unit_mut(id).map(|u| std::mem::take(&mut u.next_roll)) else { return };
        for die in dice {
            let limit = self.content.dice.get(&die).map_or(0, |d| d.value.max_per_roll as usize);
            if pool.dice.iter().filter(|d| **d == die).count() < limit {
                self.emit(Event::Log { text: format!("{id} adds the {die} die promised to its next Roll") });
                pool.dice.push(die);
            }
        }
    }

    /// Cover for an Attack of `attacker` on `target` (`000 § Cover`): each
    /// side with Cover adds a Black die. An Attack with No-Line-of-Sight Range
    /// ignores the Cover rules (`000 § Range`); the Attacker's Automatic Skills
    /// at the `cover` window may ignore the Target's Cover or change its own
    /// Cover die (Marksmanship, Veteran Sniper: `000` Turn 4).
    pub(super) fn check_cover(&mut self, attacker: &str, target: &str, action: &model::Action) -> CoverCheck {
        if action.range.as_ref().is_some_and(|r| !r.line_of_sight) {
            return CoverCheck { attacker: None, target: false };
        }
        let check = CoverCheck {
            attacker: self.cover(attacker, target).then(|| "black".into()),
            target: self.cover(target, attacker),
        };
        self.roll_frame.cover_check = Some(check);
        self.automatic_skills(attacker, model::Window::Cover, Some(target), None);
        let check = self.roll_frame.cover_check.take().expect("cover check");
        if let Some(die) = &check.attacker
            && die != "black"
        {
            self.emit(Event::Log {
                text: format!(
                    "{attacker} adds {} {die} die for Cover instead of a black die",
                    if die.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
                ),
            });
        }
        check
    }

    /// A unit's `own-roll` Automatic Skills change its own pool (`side`) of the
    /// coming Roll (Benediction of Freyja), with ctx.target = the other side.
    pub(super) fn own_roll_skills(
        &mut self,
        who: &str,
        side: Side,
        other: Option<&str>,
        pools: [Pool; 2],
    ) -> [Pool; 2] {
        let has = self.card(who).automatic_skills.iter().any(|s| s.timing == Some(model::Window::OwnRoll));
        if !has {
            return pools;
        }
        let outer = (self.roll_frame.pending_pools.replace(pools), self.roll_frame.tactic_side.replace(side));
        let skills: Vec<Id> = self
            .card(who)
            .automatic_skills
            .iter()
            .filter(|k| k.timing == Some(model::Window::OwnRoll))
            .filter(|k| k.effect.lua.is_some() || k.effect.script.is_some())
            .map(|k| k.id)
            .collect();
        for k in skills {
            let before = self.roll_frame.pending_pools.clone();
            let path = format!("automatic_skills[id={k}].effect");
            let (text, silenced) = (
                self.card(who)
                    .automatic_skills
                    .iter()
                    .find(|x| x.id == k)
                    .map(|x| x.effect.text.clone())
                    .unwrap_or_default(),
                self.silenced(who, &k),
            );
            if silenced {
                continue;
            }
            self.run_card_effect(who, &path, who, other, None, &text);
            self.say_pool_change(who, &path, before.as_ref(), side as usize);
        }
        let pools = self.roll_frame.pending_pools.take().unwrap_or_default();
        (self.roll_frame.pending_pools, self.roll_frame.tactic_side) = outer;
        pools
    }
}
