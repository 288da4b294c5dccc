//! Situations: a position set up by hand (Characters, places, Damage, States,
//! points, the Underdog), with the dice faces each Roll will show and the
//! answers to each Decision, to play one Activation and look at what happens
//! (`arena run SITUATION`). Designers ask "what if Valkyrie charges from here?";
//! tests replay the rulebooks' worked examples with their exact dice.
//!
//! The file is TOML:
//!
//! ```toml
//! scenario = "assault"
//! underdog = 1
//! active = "miyamoto-mushashi"
//!
//! [[character]]
//! id = "miyamoto-mushashi"
//! player = 2
//! space = [0, 0]
//! action_points = 5
//!
//! [[character]]
//! id = "major-lunah"
//! player = 1
//! space = [1, 0]
//!
//! dice = [["success", "special"], ["success", "block", "special"], ["block"]]
//! answers = ["ken-no-sen on major-lunah (3 AP)", "miyamoto-mushashi first", "done"]
//! ```

use crate::model::{Id, Symbol};
use serde::Deserialize;

/// A situation file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Situation {
    /// The Scenario whose map and Scoring Zone are used.
    pub scenario: Id,
    /// The Scoring Zone, if not the Scenario's first.
    #[serde(default)]
    pub scoring_zone: Option<Id>,
    /// The Underdog: player 1 or 2.
    #[serde(default = "one")]
    pub underdog: u8,
    /// The Character whose Activation is played.
    pub active: Id,
    /// The Characters in play.
    pub character: Vec<SituationCharacter>,
    /// Faces the dice show, in the order they are rolled; then the RNG.
    #[serde(default)]
    pub dice: Vec<Vec<Symbol>>,
    /// Answers to the Decisions, in order, as `arena run` prints the options
    /// (`"ken-no-sen on major-lunah (3 AP)"`), or an option's number (`2`).
    #[serde(default, deserialize_with = "answers")]
    pub answers: Vec<String>,
    /// The RNG seed for anything not forced.
    #[serde(default)]
    pub seed: u64,
    /// Each player's Tactics deck (ids), top card last.
    #[serde(default)]
    pub decks: [Vec<Id>; 2],
    /// Each player's hand of Tactics (ids).
    #[serde(default)]
    pub hands: [Vec<Id>; 2],
    /// Each player's Victory Points so far.
    #[serde(default)]
    pub victory_points: [u32; 2],
    /// The Round being played (for `phase = "end-of-round"`).
    #[serde(default = "one")]
    pub round: u8,
    /// What to play: the active Character's `activation` (default), or the
    /// `end-of-round` (Objectives and Recovery Phases).
    #[serde(default)]
    pub phase: Phase,
    /// Smoke tokens in the HexaDome: `{ space = [q, r], character = "..." }`.
    #[serde(default)]
    pub smoke: Vec<SmokeToken>,
    /// Minions in the HexaDome (their Controllers are `[[character]]`s).
    #[serde(default)]
    pub minion: Vec<SituationMinion>,
    /// Special Space markers: `{ space = [q, r], marker = "stunned" }`, face
    /// down unless `revealed = true`.
    #[serde(default)]
    pub special_spaces: Vec<SituationSpecialSpace>,
    /// Running Projectiles in the HexaDome: `{ space = [q, r], marker =
    /// "crazy-koala-3-damage", player = 1 }` (who deployed it), named
    /// `running-projectile-<n>` in the order given.
    #[serde(default)]
    pub running_projectiles: Vec<SituationProjectile>,
    /// Lines the narrative must contain, in this order (`arena run` checks them).
    #[serde(default)]
    pub expect: Vec<String>,
    /// Text no narrative line may contain (an Effect that must not reach an
    /// Ally, a State that must not be imposed): `"gata suffers"` forbids any
    /// Damage to Gata.
    #[serde(default)]
    pub absent: Vec<String>,
    /// The packs to load, relative to the situation file, when `arena run` is
    /// given no `--pack` (a mod's situations name the base game and the mod).
    #[serde(default)]
    pub packs: Vec<std::path::PathBuf>,
}

/// A Smoke token of a situation.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmokeToken {
    /// Its space.
    pub space: [i32; 2],
    /// The Character that deployed it.
    pub character: Id,
}

/// A deployed Minion of a situation (`002 § Minion`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SituationMinion {
    /// Its Controller (a `[[character]]` of the situation).
    pub controller: Id,
    /// The Minion card's id on the Controller's card; the Minion is named
    /// `<card>-<n>` in the game, numbered in the order given here.
    pub card: Id,
    /// Its space `[q, r]`.
    pub space: [i32; 2],
    /// Damage tokens.
    #[serde(default)]
    pub damage: u8,
    /// States, red side up.
    #[serde(default)]
    pub states: Vec<Id>,
    /// States, blue side up.
    #[serde(default)]
    pub blue_states: Vec<Id>,
}

/// A Special Space marker of a situation (`001 § Special Spaces`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SituationSpecialSpace {
    /// Its space.
    pub space: [i32; 2],
    /// The marker's `special_space` id.
    pub marker: Id,
    /// Face up already.
    #[serde(default)]
    pub revealed: bool,
}

/// A Running Projectile of a situation (`001 § Running Projectiles`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SituationProjectile {
    /// Its space.
    pub space: [i32; 2],
    /// The marker's `running_projectile` id.
    pub marker: Id,
    /// The player who deployed it (1 or 2; default 1).
    #[serde(default = "one")]
    pub player: u8,
}

/// What a situation plays.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// The active Character's Activation.
    #[default]
    Activation,
    /// The Objectives and Recovery Phases that end the Round.
    EndOfRound,
}

impl Situation {
    /// Every `absent` text some narrative line contains.
    pub fn forbidden<'s>(&'s self, narrative: &[String]) -> Vec<&'s str> {
        self.absent.iter().filter(|a| narrative.iter().any(|l| l.contains(a.trim()))).map(String::as_str).collect()
    }

    /// The first expected line the narrative lacks (in order), if any.
    pub fn unmet(&self, narrative: &[String]) -> Option<&str> {
        let mut at = 0;
        for want in &self.expect {
            match narrative[at..].iter().position(|l| l.trim() == want.trim()) {
                Some(i) => at += i + 1,
                None => return Some(want),
            }
        }
        None
    }
}

fn one() -> u8 {
    1
}

/// Answers as text, an option's number becoming `#N`.
fn answers<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    struct Answer(String);
    struct Visit;
    impl serde::de::Visitor<'_> for Visit {
        type Value = Answer;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an option as `arena run` prints it, or an option's number (1, 2, ...)")
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Answer, E> {
            Ok(Answer(v.to_string()))
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Answer, E> {
            if v < 1 {
                return Err(E::custom(format!("answer {v}: options are numbered from 1")));
            }
            Ok(Answer(format!("#{v}")))
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Answer, E> {
            self.visit_i64(v.min(i64::MAX as u64) as i64)
        }
    }
    impl<'de> Deserialize<'de> for Answer {
        fn deserialize<D2: serde::Deserializer<'de>>(d: D2) -> Result<Answer, D2::Error> {
            d.deserialize_any(Visit)
        }
    }
    let list: Vec<Answer> = Vec::deserialize(d)?;
    Ok(list.into_iter().map(|a| a.0).collect())
}

/// A Character of a situation.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SituationCharacter {
    /// Its id.
    pub id: Id,
    /// Player 1 or 2.
    pub player: u8,
    /// Its space `[q, r]`; absent: on the Bench (or in the Infirmary, with `infirmary`).
    #[serde(default)]
    pub space: Option<[i32; 2]>,
    /// In the Infirmary rather than on the Bench (when it has no space).
    #[serde(default)]
    pub infirmary: bool,
    /// Damage tokens.
    #[serde(default)]
    pub damage: u8,
    /// States, red side up.
    #[serde(default)]
    pub states: Vec<Id>,
    /// States, blue side up.
    #[serde(default)]
    pub blue_states: Vec<Id>,
    /// Action Points; for the active Character, setting them skips the Preparation Step.
    #[serde(default)]
    pub action_points: Option<u8>,
    /// Movement Points.
    #[serde(default)]
    pub movement_points: u8,
    /// Who provoked its Taunted token (`states = ["taunted"]`): it may then
    /// Attack only that Character (`000 § Taunted`).
    #[serde(default)]
    pub taunted_by: Option<Id>,
}

/// What playing a situation gave: the events it played (up to the first
/// Decision it had no answer for), and every way it went differently than
/// written, in order.
#[derive(Debug, Clone)]
pub struct Played {
    /// The events the situation itself played.
    pub events: Vec<crate::rules::event::Event>,
    /// Each problem, as a sentence (empty: the situation passed).
    pub problems: Vec<Problem>,
    /// How many `expect` lines there were, all met when no problem says otherwise.
    pub expected: usize,
}

/// A way a situation went differently than written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// What happened.
    pub message: String,
    /// The `expect` or `absent` line it is about, if any (to point at it).
    pub line: Option<String>,
}

impl Situation {
    /// Play the situation on `content` with `runtime` (one Activation, or the
    /// end of the Round for `phase = "end-of-round"`) and report how it went.
    ///
    /// # Errors
    /// When the position cannot be set up (an unknown Character, a space that
    /// is not Free, ...): the message says which.
    pub fn play(
        &self,
        content: &crate::content::Content,
        runtime: &crate::script::runtime::Runtime,
    ) -> Result<Played, String> {
        use crate::rules::decision::{SituationController, SituationSeat};
        use crate::rules::game::Game;
        let shared = std::rc::Rc::new(std::cell::RefCell::new(SituationController::new(self.answers.clone())));
        let mut a = SituationSeat(shared.clone());
        let mut b = SituationSeat(shared.clone());
        let skip = self.character.iter().any(|c| c.id == self.active && c.action_points.is_some());
        let mut game = Game::from_situation(content, runtime, self, [&mut a, &mut b])?;
        match self.phase {
            Phase::Activation => game.run_activation(skip)?,
            Phase::EndOfRound => game.run_end_of_round(),
        }
        let mut problems = Vec::new();
        let problem = |message: String| Problem { message, line: None };
        if let Some(f) = game.fault() {
            problems.push(problem(f.to_string()));
        }
        let shown = game.events[..game.halted().unwrap_or(game.events.len()).min(game.events.len())].to_vec();
        for e in &shown {
            if let crate::rules::event::Event::EffectFailed { card, effect, message, .. } = e {
                problems.push(problem(format!("{card} {effect} failed: {message}")));
            }
        }
        let controller = shared.borrow();
        match &controller.unanswered {
            Some(u) => problems.push(problem(u.clone())),
            None => {
                if controller.leftover() > 0 {
                    let left: Vec<String> = controller.leftovers().iter().map(|a| format!("\"{a}\"")).collect();
                    problems.push(problem(format!(
                        "{} answer(s) left over, never asked for ({}): the situation went differently than written",
                        left.len(),
                        left.join(", ")
                    )));
                }
                if game.unused_dice() > 0 {
                    problems.push(problem(format!("{} forced dice face(s) never rolled", game.unused_dice())));
                }
            }
        }
        let narrative: Vec<String> = shown.iter().map(ToString::to_string).collect();
        if let Some(missing) = self.unmet(&narrative) {
            problems.push(Problem {
                message: format!("expected \"{missing}\" (in this order), which did not happen"),
                line: Some(missing.to_string()),
            });
        }
        for line in self.forbidden(&narrative) {
            problems.push(Problem {
                message: format!("\"{line}\" happened, which `absent` forbids"),
                line: Some(line.to_string()),
            });
        }
        Ok(Played { events: shown, problems, expected: self.expect.len() })
    }
}
