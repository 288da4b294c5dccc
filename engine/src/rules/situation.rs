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
use crate::rules::decision::{Controller, Decision};
use crate::rules::state::View;
use serde::Deserialize;

/// A situation file.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Situation {
    /// The Scenario whose map and Scoring Zone are used.
    pub scenario: Id,
    /// The Scoring Zone, if not the Scenario's first.
    #[serde(default)]
    pub scoring_zone: Option<Id>,
    /// The Scoring Zones, if not the Scenario's (several, or `[]` for none).
    #[serde(default)]
    pub scoring_zones: Option<Vec<Id>>,
    /// Scenario counters at the start: `{ on = "gata", counter = "crow-substance", value = 2 }`.
    #[serde(default)]
    pub counters: Vec<SituationCounter>,
    /// How many players sit at the table: 2 (Aristeia!, the default), or 3
    /// or 4 (Prime Time's rules: `001`).
    #[serde(default = "two")]
    pub players: u8,
    /// The Underdog: player 1 or 2; with 3 or 4 `players`, who holds the
    /// Prime Time marker (`001 § Prime Time`).
    #[serde(default = "one")]
    pub underdog: u8,
    /// The Character whose Activation is played (`phase = "activation"`,
    /// the default, needs one; other phases may name one or not).
    #[serde(default)]
    pub active: Id,
    /// The Characters in play (none when `phase = "team-creation"` plays
    /// the Draft, which picks them).
    #[serde(default)]
    pub character: Vec<SituationCharacter>,
    /// Faces the dice show, in the order they are rolled; then the RNG.
    #[serde(default)]
    pub dice: Vec<Vec<Symbol>>,
    /// Answers to the Decisions, in order, as `arena run` prints the options
    /// (`"ken-no-sen on major-lunah (3 AP)"`), or an option's number (`2`).
    #[serde(default, deserialize_with = "answers")]
    #[schemars(with = "Vec<AnswerSchema>")]
    pub answers: Vec<String>,
    /// The RNG seed for anything not forced.
    #[serde(default)]
    pub seed: u64,
    /// Each player's Tactics deck (ids), top card last, in seat order (a
    /// player left out has none).
    #[serde(default)]
    pub decks: Vec<Vec<Id>>,
    /// Each player's hand of Tactics (ids), in seat order.
    #[serde(default)]
    pub hands: Vec<Vec<Id>>,
    /// Each player's Victory Points so far, in seat order.
    #[serde(default)]
    pub victory_points: Vec<u32>,
    /// The Victory Points each player gained in the previous Round, in seat
    /// order (what "only if a player scored in the previous Round" reads).
    #[serde(default)]
    pub previous_round_vp: Vec<u32>,
    /// The Frags each player earned in this Round so far, in seat order
    /// (what "Having earned at least 1 Frag" at the end of the Round reads:
    /// `game:frags_earned`). Their Frag tokens in all are not changed.
    #[serde(default)]
    pub frags_this_round: Vec<u32>,
    /// `[p1, p2, ...]` each player's Frag tokens so far (`001 § Frags`; the
    /// ties of the marker's hand-over).
    #[serde(default)]
    pub frags: Vec<u32>,
    /// The Round being played (for `phase = "end-of-round"`).
    #[serde(default = "one")]
    pub round: u8,
    /// What to play: the active Character's `activation` (default), the
    /// `end-of-round` (Objectives and Recovery Phases), the `round-start`,
    /// the `planning` Phase, the Team `deployment`, or the
    /// `hidden-objectives-deal`.
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
    /// The optional rules played (`001 § Additional Rules`):
    /// `optional_rules = ["underdog", "hidden-objectives"]` (docs/optional-rules.md).
    #[serde(default)]
    pub optional_rules: Vec<crate::rules::game::OptionalRule>,
    /// Running Projectiles in the HexaDome: `{ space = [q, r], marker =
    /// "crazy-koala-3-damage", player = 1 }` (who deployed it), named
    /// `running-projectile-<n>` in the order given.
    #[serde(default)]
    pub running_projectiles: Vec<SituationProjectile>,
    /// The Objective cards (`001 § Objectives Deck`): the deck in draw order,
    /// the available cards, the discard deck, each player's hidden cards.
    #[serde(default)]
    pub objectives: Option<crate::rules::situation_setup::SituationObjectives>,
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

/// A Scenario counter of a situation (`game:counter`).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SituationCounter {
    /// What holds it: a Character id, a zone id, or `player 1`.
    pub on: Id,
    /// Its name (`crow-substance`).
    pub counter: Id,
    /// How many.
    pub value: i64,
}

/// A Smoke token of a situation.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SmokeToken {
    /// Its space.
    pub space: [i32; 2],
    /// The Character that deployed it.
    pub character: Id,
}

/// A deployed Minion of a situation (`002 § Minion`).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// The active Character's Activation.
    #[default]
    Activation,
    /// The Objectives and Recovery Phases that end the Round.
    EndOfRound,
    /// The start of Round `round`: the Scenario's `round-start` rules, before
    /// the Planning Phase.
    RoundStart,
    /// The hidden objectives' deal, before Team Presentation (`001 §
    /// Objective Cards (Additional Rule)`): deal 3, keep 1, pass left and
    /// right, keep 1.
    HiddenObjectivesDeal,
    /// The Planning Phase of Round `round` (`000 § Planning Phase`; `001 §
    /// Round`, 1. Planning Phase): the Running Orders placed, the Planning
    /// Phase's Tactics and Skills.
    Planning,
    /// Team Deployment (`000 § Setup`; `001 § Preparations`, 8. Team
    /// Deployment): every Character without a `space` is deployed as the
    /// Setup deploys it.
    Deployment,
    /// Team Creation and the marker's first holder (`000 § Setup`, Step 6;
    /// `001 § Preparations`, 4. Team Creation; `001 § Draft` when
    /// `optional_rules` has `draft`): the Underdog at 2 players, Prime Time
    /// (or, under its rule, the Underdog) at 3-4.
    TeamCreation,
    /// The whole Setup (`000 § Setup`; `001 § Preparations`): the Draft when
    /// played, the starting hands from `decks` and the Mulligan, No! to
    /// hand, the marker, Special Spaces, Running Projectiles, the Objectives
    /// Deck and Team Deployment; every `[[character]]` without a `space`.
    Setup,
}

impl Situation {
    /// Every `absent` text some narrative line contains.
    pub fn forbidden<'s>(&'s self, narrative: &[String]) -> Vec<&'s str> {
        met(&self.absent, narrative)
    }

    /// The first expected line the narrative lacks (in order), if any.
    pub fn unmet(&self, narrative: &[String]) -> Option<&str> {
        first_unmet(&self.expect, narrative)
    }
}

/// The first of `expect` that the narrative lacks, the lines taken in
/// order (each after the one before it), if any: a situation's `expect`, in
/// either game.
pub fn first_unmet<'s>(expect: &'s [String], narrative: &[String]) -> Option<&'s str> {
    let mut at = 0;
    for want in expect {
        match narrative[at..].iter().position(|l| l.trim() == want.trim()) {
            Some(i) => at += i + 1,
            None => return Some(want),
        }
    }
    None
}

/// Every text of `absent` that some narrative line contains: a situation's
/// `absent`, in either game.
pub fn met<'s>(absent: &'s [String], narrative: &[String]) -> Vec<&'s str> {
    absent.iter().filter(|a| narrative.iter().any(|l| l.contains(a.trim()))).map(String::as_str).collect()
}

/// ` (did you mean `x`?)` for a name close to one of `known`, else nothing.
pub(crate) fn mean<S: AsRef<str>>(name: &str, known: &[S]) -> String {
    crate::read::suggest(name, known).map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default()
}

fn two() -> u8 {
    2
}

fn one() -> u8 {
    1
}

/// Answers as text, an option's number becoming `#N`.
/// An answer as the file writes it (for the schema: [`answers`] reads it).
#[derive(schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum AnswerSchema {
    /// An option as `arena run` prints it (`"done"`).
    Text(String),
    /// An option's number, from 1.
    Number(std::num::NonZeroU32),
}

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
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
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
    /// Who imposed each of its States, by State: one Character for all its
    /// tokens (`{ poisoned = "hexx3r" }`), or, for a State of several tokens
    /// (Burning: "Characters can suffer more than one instance of Burning at
    /// the same time", `004 § Burning`), who imposed how many, in the order
    /// of its tokens in `states` and `blue_states` (`{ burning = [{ by =
    /// "wild-bill", tokens = 2 }, { by = "gata", tokens = 1 }] }`). The Frag
    /// of Poisoned and Burning Damage goes to the player who imposed more
    /// of them (`001 § Frags and States`).
    #[serde(default)]
    pub imposed_by: std::collections::BTreeMap<Id, ImposedBy>,
    /// Effects "until the end of the Round" already on it, by name (the
    /// Markers on its card, `000 § Effects`; `game:round_effect`).
    #[serde(default)]
    pub round_effects: Vec<Id>,
}

/// Who imposed a State's tokens in a situation ([`SituationCharacter::imposed_by`]).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum ImposedBy {
    /// One Character imposed every token.
    One(Id),
    /// Several imposers, each of some tokens, in token order.
    Many(Vec<ImposedTokens>),
}

/// Some of a State's tokens and who imposed them.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImposedTokens {
    /// The imposing Character (one of the situation's).
    pub by: Id,
    /// How many of the State's tokens it imposed (at least 1).
    pub tokens: u8,
}

impl ImposedBy {
    /// The imposer of each of `n` tokens, in order, or why they do not add up.
    pub fn sources(&self, n: usize) -> Result<Vec<Id>, String> {
        match self {
            ImposedBy::One(id) => Ok(vec![*id; n]),
            ImposedBy::Many(list) => {
                let all: Vec<Id> = list.iter().flat_map(|t| std::iter::repeat_n(t.by, usize::from(t.tokens))).collect();
                if list.iter().any(|t| t.tokens == 0) {
                    return Err("an imposer of 0 tokens: give `tokens = 1` or more".into());
                }
                if all.len() != n {
                    return Err(format!("lists {} token(s) for {n} token(s) of the State", all.len()));
                }
                Ok(all)
            }
        }
    }

    /// Every imposing Character named.
    pub fn imposers(&self) -> Vec<&Id> {
        match self {
            ImposedBy::One(id) => vec![id],
            ImposedBy::Many(list) => list.iter().map(|t| &t.by).collect(),
        }
    }
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
    /// The state after (`arena run --state` prints its `summary`).
    pub state: crate::rules::state::GameState,
}

/// A way a situation went differently than written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// What happened.
    pub message: String,
    /// The `expect` or `absent` line it is about, if any (to point at it).
    pub line: Option<String>,
}

/// Why a situation cannot be set up: what is wrong, and the key concerned as
/// a JSON Pointer into the file (`/character/1/space`), when there is one, so
/// `arena run` and `arena check` show its line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError {
    /// What is wrong.
    pub message: String,
    /// The key concerned (`/counters/0/on`), if the error is about one.
    pub at: Option<String>,
}

impl SetupError {
    /// An error about the key at `pointer` (`/character/0/id`).
    pub fn at(pointer: impl Into<String>, message: impl Into<String>) -> SetupError {
        SetupError { message: message.into(), at: Some(pointer.into()) }
    }

    /// Where the key is in the situation's text: its byte span, line and
    /// column (1-based), or `None` when the error names no key.
    pub fn locate(&self, text: &str) -> Option<(std::ops::Range<usize>, usize, usize)> {
        locate_key(text, self.at.as_deref()?)
    }
}

/// The byte range, line and column (from 1) of the key at JSON `pointer`
/// (`/character/0/space`) in a situation file's TOML `text`, if it is there:
/// where a setup error of either game points.
pub(crate) fn locate_key(text: &str, pointer: &str) -> Option<(std::ops::Range<usize>, usize, usize)> {
    let doc = crate::tomljson::parse(text).ok()?;
    let span = doc.key_span(pointer)?;
    let (line, column) = crate::diag::line_column(text, span.start);
    Some((span, line, column))
}

impl From<String> for SetupError {
    fn from(message: String) -> SetupError {
        SetupError { message, at: None }
    }
}

impl From<&str> for SetupError {
    fn from(message: &str) -> SetupError {
        SetupError { message: message.into(), at: None }
    }
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl Situation {
    /// Play the situation on `content` with `runtime` (one Activation, or the
    /// end of the Round for `phase = "end-of-round"`) and report how it went.
    ///
    /// # Errors
    /// When the position cannot be set up (an unknown Character, a space that
    /// is not Free, ...): the message says which, and the key concerned.
    pub fn play(
        &self,
        content: &crate::content::Content,
        runtime: &crate::script::runtime::Runtime,
    ) -> Result<Played, SetupError> {
        use crate::rules::game::Game;
        use crate::rules::situation::{SituationController, SituationSeat};
        let shared = std::rc::Rc::new(std::cell::RefCell::new(SituationController::new(self.answers.clone())));
        let mut seats: Vec<SituationSeat> =
            (0..self.players.clamp(2, 4)).map(|_| SituationSeat(shared.clone())).collect();
        let skip = self.character.iter().any(|c| c.id == self.active && c.action_points.is_some());
        let mut game = Game::from_situation(
            content,
            runtime,
            self,
            seats.iter_mut().map(|s| s as &mut dyn crate::rules::decision::Controller).collect(),
        )?;
        match self.phase {
            Phase::Activation => game.run_activation(skip).map_err(SetupError::from)?,
            Phase::EndOfRound => game.run_end_of_round(),
            Phase::RoundStart => game.run_round_start(),
            Phase::HiddenObjectivesDeal => game.deal_hidden_objectives(),
            Phase::Planning => game.run_planning(),
            Phase::Deployment => game.run_deployment().map_err(SetupError::from)?,
            Phase::TeamCreation => game.run_team_creation().map_err(SetupError::from)?,
            Phase::Setup => game.play_setup().map_err(SetupError::from)?,
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
        Ok(Played { events: shown, problems, expected: self.expect.len(), state: game.state.clone() })
    }
}

/// Answers a situation's Decisions from its list of answers, matched against
/// how each option prints (`ken-no-sen on major-lunah (3 AP)`, `done`); a
/// missing or unmatched answer stops the situation with the options listed.
#[derive(Debug, Default)]
pub struct SituationController {
    answers: std::collections::VecDeque<String>,
    /// The first Decision that could not be answered, with its options.
    pub unanswered: Option<String>,
    /// The Decisions asked and the answers given, as text.
    pub transcript: Vec<String>,
}

impl SituationController {
    /// A controller answering with `answers` in order.
    pub fn new(answers: Vec<String>) -> Self {
        SituationController { answers: answers.into(), unanswered: None, transcript: vec![] }
    }

    /// Answers never asked for.
    pub fn leftover(&self) -> usize {
        self.answers.len()
    }

    /// The answers never asked for, in order.
    pub fn leftovers(&self) -> Vec<String> {
        self.answers.iter().cloned().collect()
    }
}

/// The shared answer stream of both players of a situation.
pub type SharedSituation = std::rc::Rc<std::cell::RefCell<SituationController>>;

/// One seat's handle on a [`SharedSituation`].
pub struct SituationSeat(pub SharedSituation);

impl Controller for SituationSeat {
    fn decide(&mut self, d: &Decision, _view: &View<'_>) -> usize {
        let mut s = self.0.borrow_mut();
        let listed =
            || d.options.iter().enumerate().map(|(i, o)| format!("  {}. {o}", i + 1)).collect::<Vec<_>>().join("\n");
        // Once stopped, the game halts (usize::MAX: the engine stops asking).
        let wind_down = usize::MAX;
        if s.unanswered.is_some() {
            return wind_down;
        }
        match s.answers.pop_front() {
            // `#N`: the Nth option, as listed.
            Some(a) => match a
                .strip_prefix('#')
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|n| (1..=d.options.len()).contains(n))
                .map(|n| n - 1)
                .or_else(|| d.options.iter().position(|o| o.to_string() == a))
            {
                Some(i) => {
                    s.transcript.push(format!("{} -> {a}", d.prompt));
                    i
                }
                None => {
                    s.unanswered = Some(format!(
                        "answer #{} \"{a}\" is not an option of \"{}\"; the options are:\n{}",
                        s.transcript.len() + 1,
                        d.prompt,
                        listed()
                    ));
                    wind_down
                }
            },
            None => {
                s.unanswered =
                    Some(format!("no answer left for \"{}\" ({}); the options are:\n{}", d.prompt, d.player, listed()));
                wind_down
            }
        }
    }
}
