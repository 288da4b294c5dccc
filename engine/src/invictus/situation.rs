//! Hand-made Invictus positions (hands, decks, Health, Stamina, tokens,
//! forced Boost flips) for rule tests and `arena run`: a [`Situation`] is
//! TOML or built in code, and its answers name the wanted options by their
//! text ("attack apollo with xiphos"), so a test reads like the rulebook's
//! example.

use super::decision::{Choice, Controller, Decision, View};
use super::game::{Game, SetupError};
use super::state::{BoostCard, Card, GameState, HeldBoost, OwnedReinforcement, Player, Token};
use crate::content::Content;
use crate::model::{BoostColour, Skill};
use crate::rules::seats::PlayerId;
use crate::script::runtime::Runtime;
use serde::Deserialize;
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};

/// One player of a situation.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SituationPlayer {
    /// The god played.
    pub god: String,
    /// Team (0 or 1; in a free-for-all each player its own).
    pub team: usize,
    /// HP now (default: the god's maximum).
    #[serde(default)]
    pub health: Option<i32>,
    /// Stamina now (default: full).
    #[serde(default)]
    pub stamina: Option<i32>,
    /// Stamina tokens owned (default 1).
    #[serde(default)]
    pub stamina_tokens: Option<usize>,
    /// Range tokens owned (default 1).
    #[serde(default)]
    pub range_tokens: Option<usize>,
    /// Accuracy colours owned (default `["omega"]`).
    #[serde(default)]
    pub accuracy: Vec<String>,
    /// Artifacts in hand.
    #[serde(default)]
    pub hand: Vec<String>,
    /// Draw pile, top first.
    #[serde(default)]
    pub draw: Vec<String>,
    /// Discard pile.
    #[serde(default)]
    pub discard: Vec<String>,
    /// Charge Station.
    #[serde(default)]
    pub charged: Vec<String>,
    /// Boosts in hand (playable now).
    #[serde(default)]
    pub boosts: Vec<String>,
    /// Reinforcements owned.
    #[serde(default)]
    pub reinforcements: Vec<String>,
    /// Defeated already.
    #[serde(default)]
    pub defeated: bool,
}

/// A position: players in seat order, the Boost deck's top cards, whose turn.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Situation {
    /// `"invictus"`: what tells an Invictus situation file from an Aristeia one.
    #[serde(default)]
    pub game: Option<String>,
    /// Players, seat 1 first (clockwise); none for `phase = "setup"`.
    #[serde(default)]
    pub player: Vec<SituationPlayer>,
    /// The Boost deck, top first, as `id:colour` (`godlike:delta`); the
    /// rest of the deck (from the content) lies under them unless `boost_deck_only`.
    #[serde(default)]
    pub boost_deck: Vec<String>,
    /// Only the listed Boosts are in the deck (for the Apocalypse).
    #[serde(default)]
    pub boost_deck_only: bool,
    /// Whose turn (seat index from 0).
    #[serde(default)]
    pub active: usize,
    /// Whether revivals are still allowed.
    #[serde(default = "yes")]
    pub revivals_allowed: bool,
    /// The answers, as the text of the options (`Choice`'s display), in order.
    #[serde(default)]
    pub answers: Vec<String>,
    /// The seed.
    #[serde(default)]
    pub seed: u64,
    /// What to play: `turn` (the default: `turns` turns from the position)
    /// or `setup` (the game's setup from `setup` and `seed`: teams seated,
    /// two god boards dealt to each player and one chosen, starter decks,
    /// the first player, `003 § Game Setup`; `player` is then not used).
    #[serde(default)]
    pub phase: Phase,
    /// The setup a `phase = "setup"` situation plays (`players`,
    /// `seating`, `gods`...: as `arena sim invictus` takes them).
    #[serde(default)]
    pub setup: Option<super::game::InvictusSetup>,
    /// How many turns to play, from the active player's (default 1; the
    /// next player clockwise not defeated plays each next one).
    #[serde(default = "one")]
    pub turns: u32,
    /// Lines the narrative must contain, in this order (as Aristeia's
    /// situations: `crate::rules::situation::Situation::expect`).
    #[serde(default)]
    pub expect: Vec<String>,
    /// Text no narrative line may contain.
    #[serde(default)]
    pub absent: Vec<String>,
    /// The packs to load, relative to the situation file, when `arena run`
    /// is given no `--pack`.
    #[serde(default)]
    pub packs: Vec<std::path::PathBuf>,
}

fn one() -> u32 {
    1
}

/// What an Invictus situation plays ([`Situation::phase`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// `turns` turns from the position.
    #[default]
    Turn,
    /// The game's setup (`003 § Game Setup`).
    Setup,
}

/// What playing an Invictus situation gave: the events, every way it went
/// differently than written (empty: it passed), and the state after.
#[derive(Debug, Clone)]
pub struct Played {
    /// The events played.
    pub events: Vec<super::event::Event>,
    /// Each problem, as a sentence: an answer that was not an option or was
    /// missing, a failed effect, an `expect` line unmet, an `absent` line met.
    pub problems: Vec<String>,
    /// How many `expect` lines there were.
    pub expected: usize,
    /// The state after the last turn played.
    pub state: GameState,
}

fn yes() -> bool {
    true
}

impl Default for Situation {
    /// No players yet, revivals allowed, seed 0.
    fn default() -> Self {
        Situation {
            game: Some("invictus".into()),
            player: Vec::new(),
            boost_deck: Vec::new(),
            boost_deck_only: false,
            active: 0,
            revivals_allowed: true,
            answers: Vec::new(),
            seed: 0,
            phase: Phase::Turn,
            setup: None,
            turns: 1,
            expect: Vec::new(),
            absent: Vec::new(),
            packs: Vec::new(),
        }
    }
}

/// The unanswerable decisions of a situation, shared by its seats.
pub type Errors = Arc<Mutex<Vec<String>>>;

/// Answers by the option's text; records a mismatch instead of guessing.
#[derive(Debug, Clone)]
pub struct ScriptedController {
    answers: Arc<Mutex<VecDeque<String>>>,
    /// Decisions asked with no answer left, or whose answer was not an option.
    pub errors: Arc<Mutex<Vec<String>>>,
}

impl ScriptedController {
    /// A controller sharing the queue of answers (one queue for every seat: the answers are in game order).
    pub fn shared(answers: &[String]) -> (Self, Arc<Mutex<Vec<String>>>) {
        let errors = Arc::new(Mutex::new(Vec::new()));
        (
            ScriptedController {
                answers: Arc::new(Mutex::new(answers.iter().cloned().collect())),
                errors: errors.clone(),
            },
            errors,
        )
    }
}

impl Controller for ScriptedController {
    fn decide(&mut self, d: &Decision, _view: &View<'_>) -> usize {
        let texts: Vec<String> = d.options.iter().map(ToString::to_string).collect();
        let next = self.answers.lock().map(|mut q| q.pop_front()).ok().flatten();
        match next {
            Some(a) => texts.iter().position(|t| *t == a).unwrap_or_else(|| {
                if let Ok(mut e) = self.errors.lock() {
                    e.push(format!("`{a}` is not an option of \"{}\" ({}): {}", d.prompt, d.player, texts.join(" | ")));
                }
                d.options.iter().position(|c| matches!(c, Choice::Pass | Choice::EndTurn)).unwrap_or(0)
            }),
            None => {
                // Out of answers: pass, or end the turn (the test then stops the game).
                if let Ok(mut e) = self.errors.lock() {
                    e.push(format!("no answer left for \"{}\" ({}): {}", d.prompt, d.player, texts.join(" | ")));
                }
                d.options.iter().position(|c| matches!(c, Choice::Pass | Choice::EndTurn)).unwrap_or(0)
            }
        }
    }
}

fn parse_boost(s: &str) -> Result<BoostCard, SetupError> {
    let (id, colour) = s.split_once(':').ok_or_else(|| SetupError(format!("`{s}`: write a Boost as id:colour")))?;
    let colour = BoostColour::parse(colour).ok_or_else(|| SetupError(format!("`{colour}` is not a Boost colour")))?;
    Ok(BoostCard { id: id.into(), colour })
}

impl Situation {
    /// Parse a situation from TOML.
    ///
    /// # Errors
    /// The TOML's error.
    pub fn from_toml(text: &str) -> Result<Situation, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }

    /// The game in this position, every seat answered from `answers`; the
    /// second value collects unanswerable decisions.
    ///
    /// # Errors
    /// A god, Artifact, Boost or Reinforcement not loaded; a bad Boost name.
    pub fn game<'a>(
        &self,
        content: &'a Content,
        runtime: Option<&'a Runtime>,
    ) -> Result<(Game<'a, 'a>, Errors), SetupError> {
        self.game_and_answers(content, runtime).map(|(g, e, _)| (g, e))
    }

    /// [`Situation::game`], and the answers not asked for yet.
    #[allow(clippy::type_complexity)]
    fn game_and_answers<'a>(
        &self,
        content: &'a Content,
        runtime: Option<&'a Runtime>,
    ) -> Result<(Game<'a, 'a>, Errors, Arc<Mutex<VecDeque<String>>>), SetupError> {
        let (controller, errors) = ScriptedController::shared(&self.answers);
        let left = controller.answers.clone();
        let controllers: Vec<Box<dyn Controller + 'a>> =
            (0..self.player.len()).map(|_| Box::new(controller.clone()) as Box<dyn Controller>).collect();
        Ok((self.game_with(content, runtime, controllers)?, errors, left))
    }

    /// The game in this position with `controllers` in the seats (one per
    /// `[[player]]`, in order): how those players go on from here. The
    /// situation's `answers` are not used.
    ///
    /// # Errors
    /// As [`Situation::game`].
    pub fn game_with<'a, 'c>(
        &self,
        content: &'a Content,
        runtime: Option<&'a Runtime>,
        controllers: Vec<Box<dyn Controller + 'c>>,
    ) -> Result<Game<'a, 'c>, SetupError> {
        // Build a real game for its marketplace and RNG, then lay the position over it.
        let mut game = Game::for_situation(content, runtime, self.seed, controllers)?;
        let mut players = Vec::new();
        for (s, sp) in self.player.iter().enumerate() {
            players.push(self.player_state(content, PlayerId::seat(s), sp)?);
        }
        let mut teams: BTreeMap<usize, usize> = BTreeMap::new();
        for p in &players {
            *teams.entry(p.team).or_default() += 1;
        }
        let state: &mut GameState = &mut game.state;
        state.team_game = teams.values().any(|c| *c > 1);
        state.players = players;
        state.active = PlayerId::seat(self.active);
        state.revivals_allowed = self.revivals_allowed;
        for (s, sp) in self.player.iter().enumerate() {
            if sp.stamina.is_none() {
                let full = game.full_stamina(PlayerId::seat(s));
                game.state.player_mut(PlayerId::seat(s)).stamina = full;
            }
        }
        let state: &mut GameState = &mut game.state;
        let mut top: Vec<BoostCard> = self.boost_deck.iter().map(|s| parse_boost(s)).collect::<Result<_, _>>()?;
        for b in &top {
            if !content.boosts.contains_key(&b.id) {
                return Err(SetupError(format!("no Boost `{}` is loaded", b.id)));
            }
        }
        top.reverse();
        if self.boost_deck_only {
            state.boost_deck = top;
        } else {
            state.boost_deck.extend(top);
        }
        Ok(game)
    }

    /// Play `turns` turns from the position (stopping at the game's end) and
    /// check the narrative against `expect` and `absent`.
    ///
    /// # Errors
    /// The position cannot be set up (as [`Situation::game`]).
    pub fn play<'a>(&self, content: &'a Content, runtime: Option<&'a Runtime>) -> Result<Played, SetupError> {
        if self.turns == 0 {
            return Err(SetupError("`turns` must be 1 or more".into()));
        }
        let (game, errors, left) = match self.phase {
            Phase::Turn => {
                let (mut game, errors, left) = self.game_and_answers(content, runtime)?;
                for _ in 0..self.turns {
                    if game.play_next_turn().is_some() {
                        break;
                    }
                }
                (game, errors, left)
            }
            Phase::Setup => {
                let setup = self.setup.clone().ok_or_else(|| {
                    SetupError(
                        "phase = \"setup\" needs a `setup` (`setup = { players = 4, seating = \"standard\" }`)".into(),
                    )
                })?;
                let (controller, errors) = ScriptedController::shared(&self.answers);
                let left = controller.answers.clone();
                let controllers: Vec<Box<dyn Controller + 'a>> =
                    (0..setup.players).map(|_| Box::new(controller.clone()) as Box<dyn Controller>).collect();
                (Game::new(content, runtime, &setup, self.seed, controllers)?, errors, left)
            }
        };
        let mut problems: Vec<String> = errors.lock().map(|e| e.clone()).unwrap_or_default();
        let left: Vec<String> = left.lock().map(|q| q.iter().map(|a| format!("\"{a}\"")).collect()).unwrap_or_default();
        if !left.is_empty() && problems.is_empty() {
            problems.push(format!(
                "{} answer(s) left over, never asked for ({}): the situation went differently than written",
                left.len(),
                left.join(", ")
            ));
        }
        for e in &game.events {
            if let super::event::Event::EffectFailed { card, message } = e {
                problems.push(format!("{card} failed: {message}"));
            }
        }
        let narrative: Vec<String> = game.events.iter().map(ToString::to_string).collect();
        if let Some(missing) = crate::rules::situation::first_unmet(&self.expect, &narrative) {
            problems.push(format!("expected \"{missing}\" (in this order), which did not happen"));
        }
        for line in crate::rules::situation::met(&self.absent, &narrative) {
            problems.push(format!("\"{line}\" happened, which `absent` forbids"));
        }
        Ok(Played { events: game.events.clone(), problems, expected: self.expect.len(), state: game.state.clone() })
    }

    fn player_state(&self, content: &Content, seat: PlayerId, sp: &SituationPlayer) -> Result<Player, SetupError> {
        let god =
            content.gods.get(sp.god.as_str()).ok_or_else(|| SetupError(format!("no god `{}` is loaded", sp.god)))?;
        let card = |id: &String| -> Result<Card, SetupError> {
            if content.artifacts.contains_key(id.as_str()) {
                Ok(Card::Artifact(id.as_str().into()))
            } else {
                Err(SetupError(format!("no Artifact `{id}` is loaded")))
            }
        };
        let cards = |v: &Vec<String>| v.iter().map(card).collect::<Result<Vec<Card>, _>>();
        let token = |colour| Token { active: true, colour, from_reinforcement: false };
        let mut tokens = BTreeMap::new();
        tokens.insert(Skill::Stamina, (0..sp.stamina_tokens.unwrap_or(1)).map(|_| token(None)).collect());
        tokens.insert(Skill::Range, (0..sp.range_tokens.unwrap_or(1)).map(|_| token(None)).collect());
        let colours: Vec<String> = if sp.accuracy.is_empty() { vec!["omega".into()] } else { sp.accuracy.clone() };
        let mut acc = Vec::new();
        for c in colours {
            acc.push(token(Some(BoostColour::parse(&c).ok_or_else(|| SetupError(format!("`{c}` is not a colour")))?)));
        }
        tokens.insert(Skill::Accuracy, acc);
        let mut draw = cards(&sp.draw)?;
        draw.reverse();
        let mut boosts = Vec::new();
        for b in &sp.boosts {
            if !content.boosts.contains_key(b.as_str()) {
                return Err(SetupError(format!("no Boost `{b}` is loaded")));
            }
            boosts.push(HeldBoost {
                card: BoostCard { id: b.as_str().into(), colour: BoostColour::Omega },
                obtained_turn: 0,
            });
        }
        for r in &sp.reinforcements {
            if !content.reinforcements.contains_key(r.as_str()) {
                return Err(SetupError(format!("no Reinforcement `{r}` is loaded")));
            }
        }
        let health = god.value.health as i32;
        Ok(Player {
            seat,
            team: sp.team,
            god: sp.god.as_str().into(),
            other_god: None,
            health: sp.health.unwrap_or(health),
            max_health: health,
            stamina: sp.stamina.unwrap_or(0),
            tokens,
            hand: cards(&sp.hand)?,
            boosts,
            draw,
            discard: cards(&sp.discard)?,
            charged: cards(&sp.charged)?,
            reinforcements: sp
                .reinforcements
                .iter()
                .map(|r| OwnedReinforcement { id: r.as_str().into(), hits: 0 })
                .collect(),
            revived_by: Vec::new(),
            defeated: sp.defeated,
        })
    }
}
