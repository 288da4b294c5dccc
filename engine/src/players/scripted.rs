//! The scripted player: answers from a list (a replay, a test), then from a fallback.

use crate::rules::decision::{Controller, Decision};
use crate::rules::state::View;

/// Answers from a list (a replay, a situation file, a test), then from a fallback.
pub struct ScriptedController {
    answers: std::collections::VecDeque<usize>,
    fallback: Box<dyn Controller>,
}

impl ScriptedController {
    /// Answer with `answers` in order, then ask `fallback`.
    pub fn new(answers: Vec<usize>, fallback: Box<dyn Controller>) -> Self {
        ScriptedController { answers: answers.into(), fallback }
    }
}

impl Controller for ScriptedController {
    fn decide(&mut self, decision: &Decision, view: &View<'_>) -> usize {
        match self.answers.pop_front() {
            Some(a) if a < decision.options.len() => a,
            _ => self.fallback.decide(decision, view),
        }
    }
}
