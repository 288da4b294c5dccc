//! Replays: a game's seed, setup, packs and answers, played again and compared event by event.

use super::*;

/// A replay file: enough to play a game again and check it went the same way.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Replay {
    /// Format version (1).
    pub format: u32,
    /// `Loaded::content_hash` of the packs it was played on.
    pub content_hash: String,
    /// The setup id.
    pub setup: String,
    /// The seed.
    pub seed: u64,
    /// Every answer, in order.
    pub answers: Vec<usize>,
    /// The events, as JSON, to compare against.
    pub events: Vec<serde_json::Value>,
    /// The packs it was played on (`id version`, in load order), to say which
    /// to load when they are missing; empty in files from before this field.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub packs: Vec<String>,
    /// The optional rules it was played with (`001 § Additional Rules`),
    /// so that it re-plays with the same rules; absent when none.
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub optional_rules: std::collections::BTreeSet<crate::rules::game::OptionalRule>,
}

impl Replay {
    /// The replay of a played game.
    pub fn of(record: &Record, setup: &str, content_hash: &str) -> Replay {
        Replay {
            format: 1,
            content_hash: content_hash.to_string(),
            setup: setup.to_string(),
            seed: record.seed,
            answers: record.answers.clone(),
            events: record.events.iter().map(|e| serde_json::to_value(e).unwrap_or_default()).collect(),
            packs: Vec::new(),
            optional_rules: record.optional_rules.clone(),
        }
    }

    /// The same, naming the optional rules it was played with.
    pub fn with_optional_rules(mut self, setup: &GameSetup) -> Replay {
        self.optional_rules = setup.optional_rules.iter().copied().collect();
        self
    }

    /// The same, naming the packs it was played on.
    pub fn with_packs(mut self, loaded: &crate::loaded::Loaded) -> Replay {
        self.packs = loaded.packs.iter().map(|p| format!("{} {}", p.manifest.id, p.manifest.version)).collect();
        self
    }
}

/// How a replay compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayCheck {
    /// Same events, all of them.
    Same { events: usize },
    /// The first event that differs (index, recorded, replayed; `None` past
    /// the end), and the first answer of the file that was out of range for
    /// its Decision, if one was (an edited or damaged file, or a game that
    /// had already gone another way).
    Differs { index: usize, recorded: Option<String>, replayed: Option<String>, bad_answer: Option<BadAnswer> },
}

/// An answer of a replay file that is not an option of the Decision it met.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadAnswer {
    /// Which answer, from 0.
    pub index: usize,
    /// Its value.
    pub answer: usize,
    /// How many options the Decision had.
    pub options: usize,
    /// The Decision: `player 1: Move where?`.
    pub decision: String,
}

impl std::fmt::Display for BadAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "answer {} (from 0) is {}, but the Decision it met has {} options (0 to {}): {}",
            self.index,
            self.answer,
            self.options,
            self.options.saturating_sub(1),
            self.decision
        )
    }
}

/// The answers of a replay as they are used: one stream for every seat, in
/// the order the Decisions were asked.
#[derive(Default)]
pub(super) struct AnswerQueue {
    answers: std::collections::VecDeque<usize>,
    used: usize,
    /// Past the recorded answers, or one out of range: the game went another way.
    diverged: bool,
    /// The first answer out of range.
    bad: Option<BadAnswer>,
}

impl AnswerQueue {
    fn of(answers: &[usize]) -> std::rc::Rc<std::cell::RefCell<AnswerQueue>> {
        std::rc::Rc::new(std::cell::RefCell::new(AnswerQueue {
            answers: answers.iter().copied().collect(),
            ..AnswerQueue::default()
        }))
    }
}

/// One seat of a replayed game, answering from the shared [`AnswerQueue`].
pub(super) struct ReplayController(std::rc::Rc<std::cell::RefCell<AnswerQueue>>);

impl Controller for ReplayController {
    fn decide(&mut self, d: &crate::rules::decision::Decision, _v: &crate::rules::state::View<'_>) -> usize {
        // Past the recorded answers, or with one out of range, the game has
        // diverged: note it; any legal answer will do from there.
        let mut q = self.0.borrow_mut();
        let index = q.used;
        q.used += 1;
        match q.answers.pop_front() {
            Some(a) if a < d.options.len() => a,
            Some(a) => {
                q.diverged = true;
                if q.bad.is_none() {
                    q.bad = Some(BadAnswer {
                        index,
                        answer: a,
                        options: d.options.len(),
                        decision: format!("{}: {}", d.player, d.prompt),
                    });
                }
                0
            }
            None => {
                q.diverged = true;
                0
            }
        }
    }
}

/// Play a replay again and compare its events.
pub fn check_replay(content: &Content, runtime: &Runtime, replay: &Replay) -> Result<ReplayCheck, String> {
    let mut setup = replay_setup(content, &replay.setup, replay.seed)?;
    setup.optional_rules = replay.optional_rules.clone();
    let queue = AnswerQueue::of(&replay.answers);
    let mut seats: Vec<ReplayController> =
        setup.teams.table().seats().map(|_| ReplayController(queue.clone())).collect();
    let record = play(
        content,
        runtime,
        &setup,
        seats.iter_mut().map(|c| c as &mut dyn crate::rules::decision::Controller).collect(),
    )?;
    let (left, diverged, bad_answer) = {
        let mut q = queue.borrow_mut();
        (q.answers.len(), q.diverged, q.bad.take())
    };
    let replayed: Vec<serde_json::Value> =
        record.events.iter().map(|e| serde_json::to_value(e).unwrap_or_default()).collect();
    // The first event that differs says where the game went another way (a
    // changed seed differs at once, a changed answer where it was used).
    if let Some(i) = (0..replay.events.len().min(replayed.len())).find(|i| replay.events[*i] != replayed[*i]) {
        return Ok(ReplayCheck::Differs {
            index: i,
            recorded: Some(replay.events[i].to_string()),
            replayed: Some(replayed[i].to_string()),
            bad_answer,
        });
    }
    if left > 0 || diverged {
        return Ok(ReplayCheck::Differs {
            index: replayed.len().min(replay.events.len()),
            recorded: Some(format!("{} answers", replay.answers.len())),
            replayed: Some(format!(
                "{} answers used{}",
                replay.answers.len() - left,
                if diverged { ", one of them out of range or missing" } else { "" }
            )),
            bad_answer,
        });
    }
    let n = replay.events.len().max(replayed.len());
    for i in 0..n {
        let (r, p) = (replay.events.get(i), replayed.get(i));
        if r != p {
            return Ok(ReplayCheck::Differs {
                index: i,
                recorded: r.map(|v| v.to_string()),
                replayed: p.map(|v| v.to_string()),
                bad_answer,
            });
        }
    }
    Ok(ReplayCheck::Same { events: n })
}

/// The setup a replay names: a setup id, or `random-teams:<scenario>` for a
/// game with random teams drawn from its seed (`random-teams:<scenario>@4`
/// for a number of players other than the Scenario's default).
///
/// # Errors
/// When the setup or Scenario is not loaded.
pub fn replay_setup(content: &Content, setup: &str, seed: u64) -> Result<GameSetup, String> {
    match setup.strip_prefix(RANDOM_TEAMS) {
        Some(rest) => {
            let (scenario, seats) = match rest.rsplit_once('@') {
                Some((sc, n)) => {
                    (sc, Some(n.parse::<usize>().map_err(|_| format!("`{setup}`: `{n}` is not a number of players"))?))
                }
                None => (rest, None),
            };
            let sc = &content.scenarios.get(scenario).ok_or_else(|| format!("no scenario `{scenario}`"))?.value;
            GameSetup::random(content, scenario, seats.unwrap_or_else(|| GameSetup::default_seats(sc)), seed)
        }
        None => GameSetup::from_content(content, setup, seed),
    }
}

/// The name [`replay_setup`] reads for random teams of `scenario` with `seats` players.
pub fn random_teams_name(content: &Content, scenario: &str, seats: usize) -> String {
    let default = content.scenarios.get(scenario).map_or(2, |s| GameSetup::default_seats(&s.value));
    if seats == default { format!("{RANDOM_TEAMS}{scenario}") } else { format!("{RANDOM_TEAMS}{scenario}@{seats}") }
}

/// How a replay names a game with random teams: `random-teams:<scenario>`.
pub const RANDOM_TEAMS: &str = "random-teams:";

/// Play a replay again with its answers and return the game's events (what
/// `arena render replay` and the viewer step through). The events are the
/// engine's own, typed; [`check_replay`] says whether they match the file's.
///
/// # Errors
/// When the setup or Scenario the replay names is not loaded, or the game
/// cannot start.
pub fn replay_events(content: &Content, runtime: &Runtime, replay: &Replay) -> Result<Vec<Event>, String> {
    let mut setup = replay_setup(content, &replay.setup, replay.seed)?;
    setup.optional_rules = replay.optional_rules.clone();
    let queue = AnswerQueue::of(&replay.answers);
    let mut seats: Vec<ReplayController> =
        setup.teams.table().seats().map(|_| ReplayController(queue.clone())).collect();
    let controllers = seats.iter_mut().map(|c| c as &mut dyn crate::rules::decision::Controller).collect();
    Ok(play(content, runtime, &setup, controllers)?.events)
}
