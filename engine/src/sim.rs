//! Simulation: play whole games headless with controllers, one or many.
//!
//! [`play`] plays one seeded game and returns its record (events, answers,
//! result). Deterministic: the same content, setup, seed and controllers give the
//! same record, byte for byte.

use crate::content::Content;
use crate::rules::decision::{Controller, RandomController};
use crate::rules::event::Event;
use crate::rules::game::{Game, Setup};
use crate::script::runtime::Runtime;

/// What one game left behind.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Record {
    /// The seed.
    pub seed: u64,
    /// Every event.
    pub events: Vec<Event>,
    /// Every answer, in order (with the seed and content, a replay).
    pub answers: Vec<usize>,
    /// Effects that failed and were undone.
    pub effect_failures: usize,
}

impl Record {
    /// The winner, if the game ended with one.
    pub fn winner(&self) -> Option<usize> {
        self.events.iter().rev().find_map(|e| match e {
            Event::GameEnded { winner, .. } => *winner,
            _ => None,
        })
    }

    /// The readable narrative, one event a line.
    pub fn narrative(&self) -> String {
        let mut s = String::new();
        for e in &self.events {
            s.push_str(&e.to_string());
            s.push('\n');
        }
        s
    }
}

/// Play one game with random-legal controllers seeded from `seed`.
pub fn play_random(content: &Content, runtime: &Runtime, setup: &Setup) -> Result<Record, String> {
    let mut a = RandomController::new(setup.seed.wrapping_mul(2).wrapping_add(1));
    let mut b = RandomController::new(setup.seed.wrapping_mul(2).wrapping_add(2));
    play(content, runtime, setup, [&mut a, &mut b])
}

/// Play one game with the given controllers.
pub fn play<'a>(
    content: &'a Content,
    runtime: &'a Runtime,
    setup: &Setup,
    controllers: [&'a mut dyn Controller; 2],
) -> Result<Record, String> {
    let mut game = Game::new(content, runtime, setup, controllers)?;
    game.play()?;
    Ok(Record {
        seed: setup.seed,
        effect_failures: game.effect_failures(),
        answers: std::mem::take(&mut game.answers),
        events: std::mem::take(&mut game.events),
    })
}
