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

/// Why an Invictus situation cannot be set up: the message, and the key
/// concerned as a JSON pointer into the file (`/player/1/hand/0`) when one is
/// to blame, which [`SituationError::locate`] turns into a line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SituationError {
    /// What is wrong, as a sentence.
    pub message: String,
    /// The key concerned, a JSON pointer (`/player/1/god`).
    pub at: Option<String>,
}

impl SituationError {
    fn at(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        SituationError { message: message.into(), at: Some(pointer.into()) }
    }

    /// The key's byte range, line and column (from 1) in the situation's
    /// `text`, when the error names a key found there.
    pub fn locate(&self, text: &str) -> Option<(std::ops::Range<usize>, usize, usize)> {
        crate::rules::situation::locate_key(text, self.at.as_deref()?)
    }
}

impl From<SetupError> for SituationError {
    fn from(e: SetupError) -> Self {
        SituationError { message: e.0, at: None }
    }
}

impl std::fmt::Display for SituationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// One player of a situation.
#[derive(Debug, Clone, Deserialize, Default, schemars::JsonSchema)]
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
    /// Boosts held, as `id` (an Omega card) or `id:colour`; each was
    /// obtained in an earlier turn, so each is playable now.
    #[serde(default)]
    pub boosts: Vec<String>,
    /// Reinforcements owned.
    #[serde(default)]
    pub reinforcements: Vec<String>,
    /// Defeated already.
    #[serde(default)]
    pub defeated: bool,
    /// How many of each skill's tokens are inactive, flipped black side up
    /// (`003 § Tokens: Active vs Inactive`): `{ accuracy = 1 }` inactivates
    /// the last of them, as `game:inactivate_token` does. At most the tokens
    /// owned.
    #[serde(default)]
    pub inactive: BTreeMap<String, usize>,
    /// The gods who revived this one already, by god id (`003 § Revival and
    /// Defeat`: an ally may revive a teammate only once), in order.
    #[serde(default)]
    pub revived_by: Vec<String>,
}

/// A position: players in seat order, the Boost deck's top cards, whose turn.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
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
    /// The Boost discard pile, as `id:colour`, the first discarded first
    /// (the flipped Boosts of `003 § Standard Attacks`, shuffled into a new
    /// Boost deck when it runs out).
    #[serde(default)]
    pub boost_discard: Vec<String>,
    /// Turns played so far in the game (default 0): the next turn played is
    /// turn `turns_played + 1`. A Boost held at the start of a turn was obtained in
    /// an earlier one, so it is playable now even if it may only be played
    /// "in a future turn" (`003 § Boosts`).
    #[serde(default)]
    pub turns_played: u32,
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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// `turns` turns from the position, the first from its start (`003 §
    /// During Your Turn`): `turn-start`, or `turn`.
    #[default]
    #[serde(alias = "turn")]
    TurnStart,
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
            boost_discard: Vec::new(),
            turns_played: 0,
            active: 0,
            revivals_allowed: true,
            answers: Vec::new(),
            seed: 0,
            phase: Phase::TurnStart,
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
    /// How many events the game had when the first such Decision was asked:
    /// what follows is the game going on from a stand-in answer (pass, end
    /// the turn), not from the situation's.
    pub stopped_at: Arc<Mutex<Option<usize>>>,
}

impl ScriptedController {
    /// A controller sharing the queue of answers (one queue for every seat: the answers are in game order).
    pub fn shared(answers: &[String]) -> (Self, Arc<Mutex<Vec<String>>>) {
        let errors = Arc::new(Mutex::new(Vec::new()));
        (
            ScriptedController {
                answers: Arc::new(Mutex::new(answers.iter().cloned().collect())),
                errors: errors.clone(),
                stopped_at: Arc::new(Mutex::new(None)),
            },
            errors,
        )
    }
}

impl Controller for ScriptedController {
    fn decide(&mut self, d: &Decision, view: &View<'_>) -> usize {
        let texts: Vec<String> = d.options.iter().map(ToString::to_string).collect();
        let next = self.answers.lock().map(|mut q| q.pop_front()).ok().flatten();
        if next.as_ref().is_none_or(|a| !texts.contains(a)) {
            if let Ok(mut at) = self.stopped_at.lock() {
                at.get_or_insert(view.event_count());
            }
        }
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
    /// The game in this position, every seat answered from `answers`; the
    /// second value collects unanswerable decisions.
    ///
    /// # Errors
    /// A god, Artifact, Boost or Reinforcement not loaded; a bad Boost name.
    pub fn game<'a>(
        &self,
        content: &'a Content,
        runtime: Option<&'a Runtime>,
    ) -> Result<(Game<'a, 'a>, Errors), SituationError> {
        self.game_and_answers(content, runtime).map(|(g, c)| (g, c.errors))
    }

    /// [`Situation::game`], and the seats' shared controller (the answers
    /// not asked for yet, the errors, where the first came).
    fn game_and_answers<'a>(
        &self,
        content: &'a Content,
        runtime: Option<&'a Runtime>,
    ) -> Result<(Game<'a, 'a>, ScriptedController), SituationError> {
        let (controller, _) = ScriptedController::shared(&self.answers);
        let controllers: Vec<Box<dyn Controller + 'a>> =
            (0..self.player.len()).map(|_| Box::new(controller.clone()) as Box<dyn Controller>).collect();
        Ok((self.game_with(content, runtime, controllers)?, controller))
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
    ) -> Result<Game<'a, 'c>, SituationError> {
        if self.player.len() < 2 {
            return Err(SituationError::at(
                "/player",
                format!("an Invictus position needs 2 or more `[[player]]`, not {}", self.player.len()),
            ));
        }
        if self.active >= self.player.len() {
            return Err(SituationError::at(
                "/active",
                format!("`active` is a seat from 0 to {}, not {}", self.player.len() - 1, self.active),
            ));
        }
        // Build a real game for its marketplace and RNG, then lay the position over it.
        let mut game = Game::for_situation(content, runtime, self.seed, controllers)?;
        if self.turns_played >= game.max_turns {
            return Err(SituationError::at(
                "/turns_played",
                format!(
                    "`turns_played` {} is past the {} turns a game may last (the engine stops a game there)",
                    self.turns_played, game.max_turns
                ),
            ));
        }
        let mut players = Vec::new();
        for (s, sp) in self.player.iter().enumerate() {
            players.push(self.player_state(content, PlayerId::seat(s), sp)?);
        }
        let mut teams: BTreeMap<usize, usize> = BTreeMap::new();
        for p in &players {
            *teams.entry(p.team).or_default() += 1;
        }
        for (s, sp) in self.player.iter().enumerate() {
            for by in &sp.revived_by {
                let key = format!("/player/{s}/revived_by");
                let giver = self.player.iter().position(|o| o.god == *by).ok_or_else(|| {
                    let gods: Vec<&str> = self.player.iter().map(|o| o.god.as_str()).collect();
                    SituationError::at(
                        key.clone(),
                        format!(
                            "{}: `revived_by`: no player plays `{by}` in the situation{}",
                            sp.god,
                            crate::rules::situation::mean(by, &gods)
                        ),
                    )
                })?;
                if giver == s || self.player[giver].team != sp.team {
                    return Err(SituationError::at(
                        key,
                        format!(
                            "{}: `revived_by`: `{by}` is not an ally (003 § Revival and Defeat: allies revive)",
                            sp.god
                        ),
                    ));
                }
                players[s].revived_by.push(PlayerId::seat(giver));
            }
        }
        let state: &mut GameState = &mut game.state;
        state.team_game = teams.values().any(|c| *c > 1);
        state.turn = self.turns_played;
        state.players = players;
        state.active = PlayerId::seat(self.active);
        state.revivals_allowed = self.revivals_allowed;
        for (s, sp) in self.player.iter().enumerate() {
            if sp.stamina.is_none() {
                let full = game.full_stamina(PlayerId::seat(s));
                game.state.player_mut(PlayerId::seat(s)).stamina = full;
            }
            self.check_bounds(s, sp, &game)?;
        }
        let state: &mut GameState = &mut game.state;
        let boosts = |key: &str, list: &[String]| -> Result<Vec<BoostCard>, SituationError> {
            list.iter()
                .enumerate()
                .map(|(k, text)| {
                    let b = parse_boost(text).map_err(|e| SituationError::at(format!("/{key}/{k}"), e.0))?;
                    if content.boosts.contains_key(&b.id) {
                        Ok(b)
                    } else {
                        let known: Vec<&str> = content.boosts.keys().map(|k| k.as_str()).collect();
                        Err(SituationError::at(
                            format!("/{key}/{k}"),
                            format!(
                                "`{key}`: no Boost `{}` is loaded{}",
                                b.id,
                                crate::rules::situation::mean(&b.id, &known)
                            ),
                        ))
                    }
                })
                .collect()
        };
        let mut top = boosts("boost_deck", &self.boost_deck)?;
        top.reverse();
        if self.boost_deck_only {
            state.boost_deck = top;
        } else {
            state.boost_deck.extend(top);
        }
        let discard = boosts("boost_discard", &self.boost_discard)?;
        state.boost_discard = discard;
        Ok(game)
    }

    /// Play `turns` turns from the position (stopping at the game's end) and
    /// check the narrative against `expect` and `absent`.
    ///
    /// # Errors
    /// The position cannot be set up (as [`Situation::game`]).
    pub fn play<'a>(&self, content: &'a Content, runtime: Option<&'a Runtime>) -> Result<Played, SituationError> {
        if self.turns == 0 {
            return Err(SituationError::at("/turns", "`turns` must be 1 or more"));
        }
        let (game, script) = match self.phase {
            Phase::TurnStart => {
                let (mut game, script) = self.game_and_answers(content, runtime)?;
                for _ in 0..self.turns {
                    if game.play_next_turn().is_some() {
                        break;
                    }
                }
                (game, script)
            }
            Phase::Setup => {
                let setup = self.setup.clone().ok_or_else(|| {
                    SituationError::at(
                        "/phase",
                        "phase = \"setup\" needs a `setup` (`setup = { players = 4, seating = \"standard\" }`)",
                    )
                })?;
                let (controller, _) = ScriptedController::shared(&self.answers);
                let controllers: Vec<Box<dyn Controller + 'a>> =
                    (0..setup.players).map(|_| Box::new(controller.clone()) as Box<dyn Controller>).collect();
                // A setup the game refuses is an error at `setup`.
                let game = Game::new(content, runtime, &setup, self.seed, controllers).map_err(|e| {
                    SituationError::at(
                        "/setup",
                        format!("`setup`: {} (`seating` is standard, every-other, random or free-for-all)", e.0),
                    )
                })?;
                (game, controller)
            }
        };
        let mut problems: Vec<String> = script.errors.lock().map(|e| e.clone()).unwrap_or_default();
        let left: Vec<String> =
            script.answers.lock().map(|q| q.iter().map(|a| format!("\"{a}\"")).collect()).unwrap_or_default();
        // The events up to the first Decision the situation did not answer:
        // the rest came from a stand-in answer and are neither printed nor
        // matched against `expect`.
        let stopped_at = script.stopped_at.lock().ok().and_then(|at| *at);
        let events = &game.events[..stopped_at.unwrap_or(game.events.len()).min(game.events.len())];
        if !left.is_empty() && problems.is_empty() {
            problems.push(format!(
                "{} answer(s) left over, never asked for ({}): the situation went differently than written",
                left.len(),
                left.join(", ")
            ));
        }
        for e in events {
            if let super::event::Event::EffectFailed { card, message } = e {
                problems.push(format!("{card} failed: {message}"));
            }
        }
        let narrative: Vec<String> = events.iter().map(ToString::to_string).collect();
        if let Some(missing) = crate::rules::situation::first_unmet(&self.expect, &narrative) {
            problems.push(format!("expected \"{missing}\" (in this order), which did not happen"));
        }
        for line in crate::rules::situation::met(&self.absent, &narrative) {
            problems.push(format!("\"{line}\" happened, which `absent` forbids"));
        }
        Ok(Played { events: events.to_vec(), problems, expected: self.expect.len(), state: game.state.clone() })
    }

    /// A player's numbers within what the game allows, each error at its
    /// key: `team` one of the seats' (a team of its own is a free-for-all
    /// seat, `003 § Free-for-All`), HP from 0 (with `defeated = true`) to the
    /// god's maximum, Stamina from 0 to the game's most (24, `003 §
    /// Elixir`), HP 0 only for a defeated player and the other way round.
    fn check_bounds(&self, s: usize, sp: &SituationPlayer, game: &Game<'_, '_>) -> Result<(), SituationError> {
        let at = |key: &str| format!("/player/{s}/{key}");
        let player = &game.state.players[s];
        if sp.team >= self.player.len() {
            return Err(SituationError::at(
                at("team"),
                format!(
                    "{}: team {} of {} players: teams are numbered from 0 (`team = 0` or `1`; in a free-for-all one per player)",
                    sp.god,
                    sp.team,
                    self.player.len()
                ),
            ));
        }
        if let Some(hp) = sp.health {
            if hp < 0 || hp > player.max_health {
                return Err(SituationError::at(
                    at("health"),
                    format!("{}: {hp} HP: a god has from 0 to its {} HP", sp.god, player.max_health),
                ));
            }
            if (hp == 0) != sp.defeated {
                let why = if sp.defeated {
                    "a defeated god has 0 HP"
                } else {
                    "a god at 0 HP is defeated: add `defeated = true`"
                };
                return Err(SituationError::at(
                    at("health"),
                    format!("{}: {hp} HP: {why} (003 § Revival and Defeat)", sp.god),
                ));
            }
        } else if sp.defeated {
            return Err(SituationError::at(
                at("defeated"),
                format!("{}: defeated at full HP: give `health = 0` (003 § Revival and Defeat)", sp.god),
            ));
        }
        let most = game.max_stamina();
        if let Some(st) = sp.stamina.filter(|st| *st < 0 || *st > most) {
            return Err(SituationError::at(
                at("stamina"),
                format!("{}: {st} Stamina: a god has from 0 to {most} Stamina (003 § Elixir)", sp.god),
            ));
        }
        Ok(())
    }

    fn player_state(&self, content: &Content, seat: PlayerId, sp: &SituationPlayer) -> Result<Player, SituationError> {
        let at = |key: &str| format!("/player/{}/{key}", seat.index());
        let mean = |name: &str, known: Vec<&str>| crate::rules::situation::mean(name, &known);
        let god = content.gods.get(sp.god.as_str()).ok_or_else(|| {
            let gods = content.gods.keys().map(|k| k.as_str()).collect();
            SituationError::at(at("god"), format!("no god `{}` is loaded{}", sp.god, mean(&sp.god, gods)))
        })?;
        let cards = |key: &str, v: &Vec<String>| -> Result<Vec<Card>, SituationError> {
            v.iter()
                .enumerate()
                .map(|(k, id)| {
                    if content.artifacts.contains_key(id.as_str()) {
                        Ok(Card::Artifact(id.as_str().into()))
                    } else {
                        let known = content.artifacts.keys().map(|k| k.as_str()).collect();
                        Err(SituationError::at(
                            at(&format!("{key}/{k}")),
                            format!("{}'s {key}: no Artifact `{id}` is loaded{}", sp.god, mean(id, known)),
                        ))
                    }
                })
                .collect()
        };
        // At most one token per placeholder of the skill's track (four:
        // `003 § Character Skills`), checked before any token is made (a
        // count of 10^12 asked for terabytes).
        for (key, skill, n) in [
            ("stamina_tokens", Skill::Stamina, sp.stamina_tokens.unwrap_or(1)),
            ("range_tokens", Skill::Range, sp.range_tokens.unwrap_or(1)),
            ("accuracy", Skill::Accuracy, sp.accuracy.len()),
        ] {
            let most =
                content.skill_tracks.values().find(|t| t.value.skill == skill).map_or(4, |t| t.value.tiers.len());
            if n > most {
                return Err(SituationError::at(
                    at(key),
                    format!(
                        "{}: {n} {key}: a skill track holds at most {most} tokens (003 § Character Skills)",
                        sp.god
                    ),
                ));
            }
        }
        let token = |colour| Token { active: true, colour, from_reinforcement: false };
        let mut tokens = BTreeMap::new();
        tokens.insert(Skill::Stamina, (0..sp.stamina_tokens.unwrap_or(1)).map(|_| token(None)).collect());
        tokens.insert(Skill::Range, (0..sp.range_tokens.unwrap_or(1)).map(|_| token(None)).collect());
        let colours: Vec<String> = if sp.accuracy.is_empty() { vec!["omega".into()] } else { sp.accuracy.clone() };
        let mut acc = Vec::new();
        for (k, c) in colours.iter().enumerate() {
            let colour = BoostColour::parse(c).ok_or_else(|| {
                SituationError::at(
                    at(&format!("accuracy/{k}")),
                    format!("{}: `{c}` is not a colour (omega, sigma, phi, delta)", sp.god),
                )
            })?;
            acc.push(token(Some(colour)));
        }
        tokens.insert(Skill::Accuracy, acc);
        for (name, n) in &sp.inactive {
            let key = at(&format!("inactive/{name}"));
            let skill = Skill::parse(name).ok_or_else(|| {
                SituationError::at(
                    key.clone(),
                    format!("{}: `inactive`: `{name}` is not a skill (stamina, range, accuracy)", sp.god),
                )
            })?;
            let owned = tokens.get_mut(&skill).expect("every skill has its tokens");
            if *n > owned.len() {
                return Err(SituationError::at(
                    key,
                    format!("{}: `inactive`: {n} {name} token(s), and it owns {}", sp.god, owned.len()),
                ));
            }
            let len = owned.len();
            for t in &mut owned[len - n..] {
                t.active = false;
            }
        }
        let mut draw = cards("draw", &sp.draw)?;
        draw.reverse();
        let mut boosts = Vec::new();
        for (k, b) in sp.boosts.iter().enumerate() {
            let key = at(&format!("boosts/{k}"));
            let card = if b.contains(':') {
                parse_boost(b).map_err(|e| SituationError::at(key.clone(), e.0))?
            } else {
                BoostCard { id: b.as_str().into(), colour: BoostColour::Omega }
            };
            if !content.boosts.contains_key(&card.id) {
                let known = content.boosts.keys().map(|k| k.as_str()).collect();
                return Err(SituationError::at(
                    key,
                    format!("{}: no Boost `{}` is loaded{}", sp.god, card.id, mean(&card.id, known)),
                ));
            }
            boosts.push(HeldBoost { card, obtained_turn: self.turns_played });
        }
        for (k, r) in sp.reinforcements.iter().enumerate() {
            if !content.reinforcements.contains_key(r.as_str()) {
                let known = content.reinforcements.keys().map(|k| k.as_str()).collect();
                return Err(SituationError::at(
                    at(&format!("reinforcements/{k}")),
                    format!("{}: no Reinforcement `{r}` is loaded{}", sp.god, mean(r, known)),
                ));
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
            hand: cards("hand", &sp.hand)?,
            boosts,
            draw,
            discard: cards("discard", &sp.discard)?,
            charged: cards("charged", &sp.charged)?,
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
