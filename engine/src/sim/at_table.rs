//! Games with a search player: played at a table (`crate::table`), where
//! the search player samples worlds consistent with its view
//! (`Player::choose_in`), then played again by the engine's own loop from
//! the answers, for the record every game keeps (events, effects run and
//! failed). The same game either way: a table replays through the engine.

use crate::players::ScriptedPlayer;
use crate::table::{Played, Player, SeatView, Table, play_out};
use std::cell::RefCell;
use std::rc::Rc;

/// Whether some of `players` search (their game is played at a table).
pub(crate) fn any_searches(players: &[Box<dyn Player>]) -> bool {
    players.iter().any(|p| p.searches())
}

/// Play `table` to its end with `players` (one per seat, cycled) and give
/// every answer.
///
/// # Errors
/// The engine stopped, or a player gave up or answered out of range.
pub(crate) fn answers(table: &mut dyn Table<'_>, players: &mut [Box<dyn Player>]) -> Result<Vec<usize>, String> {
    let mut seats: Vec<&mut dyn Player> = players.iter_mut().map(|p| p as &mut dyn Player).collect();
    match play_out(table, &mut seats).map_err(|e| e.to_string())? {
        Played::Over => Ok(table.answers()),
        Played::GaveUp(p) => Err(format!("the player of {p} gave up")),
    }
}

/// One list of answers shared by every seat, in order: the engine's own
/// loop plays a recorded game again with one of these per seat.
#[derive(Clone)]
pub(crate) struct SharedScript(Rc<RefCell<ScriptedPlayer>>);

impl SharedScript {
    /// `seats` seats sharing `answers`.
    pub(crate) fn seats(answers: Vec<usize>, seats: usize) -> Vec<SharedScript> {
        let shared = SharedScript(Rc::new(RefCell::new(ScriptedPlayer::new(answers))));
        vec![shared; seats]
    }
}

impl Player for SharedScript {
    fn choose(&mut self, seat: &SeatView<'_>) -> Option<usize> {
        self.0.borrow_mut().choose(seat)
    }
}
