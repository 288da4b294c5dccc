//! The scripted player: answers from a list (a replay, a test), then gives
//! up or hands over to a fallback player.

use crate::table::{Player, SeatView};

/// Answers from a list, in order, for every game. When the list runs out,
/// or an answer is not an option of its Decision, it gives up (`None`: the
/// game stops there), or, with [`ScriptedPlayer::then`], its fallback
/// answers.
#[derive(Default)]
pub struct ScriptedPlayer {
    answers: std::collections::VecDeque<usize>,
    refused: Option<usize>,
    fallback: Option<Box<dyn Player>>,
}

impl std::fmt::Debug for ScriptedPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptedPlayer")
            .field("answers", &self.answers)
            .field("refused", &self.refused)
            .field("fallback", &self.fallback.is_some())
            .finish()
    }
}

impl ScriptedPlayer {
    /// A player that gives `answers` in order, then gives up.
    pub fn new(answers: Vec<usize>) -> Self {
        ScriptedPlayer { answers: answers.into(), refused: None, fallback: None }
    }

    /// After the answers (or at one out of range), `fallback` answers.
    pub fn then(mut self, fallback: Box<dyn Player>) -> Self {
        self.fallback = Some(fallback);
        self
    }

    /// How many answers are left.
    pub fn left(&self) -> usize {
        self.answers.len()
    }

    /// The answer that was not an option of its Decision, if one was.
    pub fn refused(&self) -> Option<usize> {
        self.refused
    }
}

impl Player for ScriptedPlayer {
    fn choose(&mut self, seat: &SeatView<'_>) -> Option<usize> {
        match self.answers.pop_front() {
            Some(a) if a < seat.options() => Some(a),
            Some(a) => {
                self.refused.get_or_insert(a);
                self.fallback.as_mut()?.choose(seat)
            }
            None => self.fallback.as_mut()?.choose(seat),
        }
    }
}
