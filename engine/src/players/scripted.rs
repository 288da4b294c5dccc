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

/// Answers from a list at a table of any game (a replay, a test), one list
/// for every seat in the order the Decisions come; it gives up when the list
/// runs out or an answer is not an option (then [`ScriptedPlayer::refused`]
/// says which).
#[derive(Debug, Clone, Default)]
pub struct ScriptedPlayer {
    answers: std::collections::VecDeque<usize>,
    refused: Option<usize>,
}

impl ScriptedPlayer {
    /// Answer with `answers` in order.
    pub fn new(answers: Vec<usize>) -> Self {
        ScriptedPlayer { answers: answers.into(), refused: None }
    }

    /// The answers not used yet.
    pub fn left(&self) -> usize {
        self.answers.len()
    }

    /// The answer it gave up on for not being an option, if any.
    pub fn refused(&self) -> Option<usize> {
        self.refused
    }
}

impl crate::table::Player for ScriptedPlayer {
    fn choose(&mut self, table: &dyn crate::table::Table<'_>) -> Option<usize> {
        let a = self.answers.pop_front()?;
        if a < table.options() {
            Some(a)
        } else {
            self.refused = Some(a);
            None
        }
    }
}
