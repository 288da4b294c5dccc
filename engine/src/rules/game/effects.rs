//! Running an effect's Lua: conditions probed without consequences, effects undone when they fail, what an effect sets off resolved after it (`000 § Effects`).

use super::*;
use crate::model::Id;

impl<'a> Game<'a> {
    /// Whether an Action's `condition` allows it on `target` now (no
    /// condition: it does). The Lua's changes are undone; a condition that
    /// fails is recorded and allows nothing.
    pub(super) fn condition_holds(&mut self, actor: &str, action: &str, target: Option<&str>) -> bool {
        if self.find_card_effect(actor, format_args!("actions[id={action}].condition")).is_none() {
            return true; // the common case, answered without building the path
        }
        self.condition_at(actor, &format!("actions[id={action}].condition"), target)
    }

    /// Whether a Tactic's `condition` holds for `character` (none: it does):
    /// a Tactic with nothing to do (Valkyrie's Cry with no Damaged Target in
    /// Range) is not offered.
    pub(super) fn tactic_condition(&mut self, tactic: &str, character: &str) -> bool {
        let Some(script) = self.find_tactic_effect(tactic, "condition") else {
            return true;
        };
        self.probe(script, &format!("tactic:{tactic}"), "condition", character, None)
    }

    /// Whether the `condition` at `path` of `actor`'s card holds (none: it does).
    pub(super) fn condition_at(&mut self, actor: &str, path: &str, target: Option<&str>) -> bool {
        let Some(script) = self.find_card_effect(actor, format_args!("{path}")) else {
            return true; // none, or not scripted: listed by `arena check --strict`
        };
        let (home, path) = self.effect_home(actor, path);
        self.probe(script, &home, &path, actor, target)
    }

    /// Run a condition's Lua with its changes undone; a failure or a
    /// non-boolean is recorded and counts as false.
    pub(super) fn probe(
        &mut self,
        script: ScriptId,
        home: &str,
        path: &str,
        actor: &str,
        target: Option<&str>,
    ) -> bool {
        let ctx = Ctx { self_id: Some(actor.into()), target: target.map(Id::from), successes: None, ..Ctx::default() };
        let rt = self.runtime;
        let outer = self.effect_frame.effect_source.replace(actor.into());
        self.effect_frame.probing = true;
        self.effect_frame.probe_asked = false;
        self.effect_frame.running.push(script);
        let result = rt.call(script, self, &ctx);
        self.effect_frame.running.pop();
        self.effect_frame.probing = false;
        self.effect_frame.effect_source = outer;
        let asked = std::mem::take(&mut self.effect_frame.probe_asked);
        let failure = match result {
            Ok(_) if asked => {
                let source = &self.runtime.scripts().sources()[script.0];
                (
                    "a condition may not ask the players anything (choose, a Displacement's space ...): it only looks"
                        .to_string(),
                    source.file.display().to_string(),
                    Some(source.first_line),
                )
            }
            Ok(ApiValue::Bool(b)) => return b,
            Ok(other) => {
                let source = &self.runtime.scripts().sources()[script.0];
                (
                    format!("a condition must return true or false, not {other}"),
                    source.file.display().to_string(),
                    Some(source.first_line),
                )
            }
            Err(e) => (e.message.clone(), e.file.display().to_string(), e.line),
        };
        self.effect_failures += 1;
        self.emit(Event::EffectFailed {
            card: home.into(),
            effect: path.to_string(),
            message: failure.0,
            file: failure.1,
            line: failure.2,
        });
        false
    }

    /// What the effect that just ran set off, in order (`AfterEffect`).
    pub(super) fn resolve_after_effect(&mut self) {
        while let Some(next) = self.effect_frame.after_effect.pop_front() {
            match next {
                AfterEffect::Damage(id) => self.damage_received(&id),
                AfterEffect::Entered(id, from, space) => {
                    if self.space_of(&id) == Some(space) {
                        self.entered(&id, from, space);
                    }
                }
                AfterEffect::Scenario(w, at) => self.scenario_window(w, at),
            }
        }
    }

    /// Perform the Action an effect granted (`game:grant_action`), if any.
    pub(super) fn granted_action(&mut self) {
        let Some((who, max_cost, player)) = self.effect_frame.pending_grant.take() else { return };
        let mut options = vec![Choice::Done];
        for (action, target, cost) in self.action_options(&who, max_cost) {
            if self.condition_holds(&who, &action, target.as_deref()) {
                options.push(Choice::Perform { action, target, cost });
            }
        }
        if let Choice::Perform { action, target, .. } =
            self.decide(player, DecisionKind::Action, Some(&who), "Which Action, for no Action Points?", options)
        {
            if let Err(e) = self.perform(&who, &action, target.as_deref(), 0) {
                self.emit(Event::Log { text: format!("{who} cannot perform {action}: {e}") });
            }
        }
    }

    /// Run one effect's Lua, if it has any; a failure is undone and recorded.
    pub(super) fn run_effect(
        &mut self,
        card: &str,
        path: &str,
        self_id: &str,
        target: Option<&str>,
        successes: Option<i64>,
        text: &str,
    ) {
        let Some(script) = self.runtime.scripts().find(card, path) else {
            self.emit(Event::Log { text: format!("(not scripted: {text})") });
            return;
        };
        let ctx = Ctx { self_id: Some(self_id.into()), target: target.map(Id::from), successes, ..Ctx::default() };
        self.call_effect(script, card, path, &ctx, Some(self_id.into()));
    }

    /// Call a script with `ctx` as the effect of `source` (a Character; none
    /// for a Scenario rule); a failure is undone and recorded, and what it set
    /// off resolves after it.
    pub(super) fn call_effect(&mut self, script: ScriptId, card: &str, path: &str, ctx: &Ctx, source: Option<Id>) {
        self.effects_run.insert(script.0);
        let rt = self.runtime;
        let outer = std::mem::replace(&mut self.effect_frame.effect_source, source);
        self.effect_frame.running.push(script);
        let result = rt.call(script, self, ctx);
        self.effect_frame.running.pop();
        self.effect_frame.effect_source = outer;
        if result.is_ok() {
            if !self.in_effect() {
                // A chain of effects setting off effects is stopped well before
                // it could exhaust the stack.
                if self.effect_frame.chain_depth >= 32 {
                    self.effect_frame.after_effect.clear();
                    self.effect_failures += 1;
                    self.emit(Event::EffectFailed {
                        card: card.into(),
                        effect: path.to_string(),
                        message: "effects set off more than 32 further effects in a row: the chain is stopped".into(),
                        file: String::new(),
                        line: None,
                    });
                } else {
                    self.effect_frame.chain_depth += 1;
                    self.resolve_after_effect();
                    self.effect_frame.chain_depth -= 1;
                }
            }
            self.granted_action();
        } else {
            self.effect_frame.pending_grant = None;
            if !self.in_effect() {
                self.effect_frame.after_effect.clear();
            }
        }
        if let Err(e) = result {
            self.effect_failures += 1;
            self.emit(Event::EffectFailed {
                card: card.into(),
                effect: path.to_string(),
                message: e.message.clone(),
                file: e.file.display().to_string(),
                line: e.line,
            });
        }
        let _: ScriptId = script;
    }

    /// Whether an effect's Lua is running now.
    pub(super) fn in_effect(&self) -> bool {
        !self.snapshots.is_empty()
    }
}
