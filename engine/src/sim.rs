//! Simulation: play whole games headless with controllers, one or many.
//!
//! [`play`] plays one seeded game and returns its record (events, answers,
//! result). Deterministic: the same content, setup, seed and controllers give the
//! same record, byte for byte.

use crate::content::Content;
use crate::rules::decision::{Controller, GreedyController, RandomController};
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

/// Which controller plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Player {
    /// Uniformly random legal options, seeded from the game's seed.
    Random,
    /// The greedy heuristic.
    Greedy,
}

impl Player {
    /// A controller of this kind for seat `seat` of the game seeded `seed`.
    pub fn controller(self, seed: u64, seat: usize) -> Box<dyn Controller> {
        match self {
            Player::Random => Box::new(RandomController::new(seed.wrapping_mul(2).wrapping_add(seat as u64 + 1))),
            Player::Greedy => Box::new(GreedyController),
        }
    }
}

/// Play one game with the given kinds of controller.
pub fn play_with(content: &Content, runtime: &Runtime, setup: &Setup, players: [Player; 2]) -> Result<Record, String> {
    let mut a = players[0].controller(setup.seed, 0);
    let mut b = players[1].controller(setup.seed, 1);
    play(content, runtime, setup, [a.as_mut(), b.as_mut()])
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
    // Each game starts with its own log allowance, whatever the VM played before.
    runtime.begin_game();
    let mut game = Game::new(content, runtime, setup, controllers)?;
    game.play()?;
    Ok(Record {
        seed: setup.seed,
        effect_failures: game.effect_failures(),
        answers: std::mem::take(&mut game.answers),
        events: std::mem::take(&mut game.events),
    })
}

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
        }
    }

    /// The same, naming the packs it was played on.
    pub fn with_packs(mut self, loaded: &crate::load::Loaded) -> Replay {
        self.packs = loaded.packs.iter().map(|p| format!("{} {}", p.manifest.id, p.manifest.version)).collect();
        self
    }
}

/// How a replay compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayCheck {
    /// Same events, all of them.
    Same { events: usize },
    /// The first event that differs (index, recorded, replayed; `None` past the end).
    Differs { index: usize, recorded: Option<String>, replayed: Option<String> },
}

/// Shares one answer stream between both seats, in the order they were asked.
struct ReplayController(std::rc::Rc<std::cell::RefCell<(std::collections::VecDeque<usize>, bool)>>);

impl Controller for ReplayController {
    fn decide(&mut self, d: &crate::rules::decision::Decision, _v: &crate::rules::game::View<'_>) -> usize {
        // Past the recorded answers, or with one out of range, the game has
        // diverged: note it; any legal answer will do from there.
        let mut q = self.0.borrow_mut();
        match q.0.pop_front() {
            Some(a) if a < d.options.len() => a,
            _ => {
                q.1 = true;
                0
            }
        }
    }
}

/// Play a replay again and compare its events.
pub fn check_replay(content: &Content, runtime: &Runtime, replay: &Replay) -> Result<ReplayCheck, String> {
    let setup = replay_setup(content, &replay.setup, replay.seed)?;
    let queue = std::rc::Rc::new(std::cell::RefCell::new((replay.answers.iter().copied().collect(), false)));
    let mut a = ReplayController(queue.clone());
    let mut b = ReplayController(queue.clone());
    let record = play(content, runtime, &setup, [&mut a, &mut b])?;
    let (left, diverged) = {
        let q = queue.borrow();
        (q.0.len(), q.1)
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
            });
        }
    }
    Ok(ReplayCheck::Same { events: n })
}

/// The setup a replay names: a setup id, or `random-teams:<scenario>` for a
/// game with random teams drawn from its seed.
///
/// # Errors
/// When the setup or Scenario is not loaded.
pub fn replay_setup(content: &Content, setup: &str, seed: u64) -> Result<Setup, String> {
    match setup.strip_prefix(RANDOM_TEAMS) {
        Some(scenario) => Setup::random(content, scenario, seed),
        None => Setup::from_content(content, setup, seed),
    }
}

/// How a replay names a game with random teams: `random-teams:<scenario>`.
pub const RANDOM_TEAMS: &str = "random-teams:";

/// One game of a batch, summed up.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GameSummary {
    /// Its seed.
    pub seed: u64,
    /// The winner (0 or 1), or none on a draw or error.
    pub winner: Option<usize>,
    /// Victory Points of each player.
    pub victory_points: [u32; 2],
    /// Frags of each player.
    pub frags: [u32; 2],
    /// Rounds played.
    pub rounds: u8,
    /// Effects that failed and were undone, with their messages.
    pub effect_failures: Vec<String>,
    /// An engine error that stopped the game, if any.
    pub error: Option<String>,
    /// The Characters of each team.
    pub teams: [Vec<crate::model::Id>; 2],
}

impl GameSummary {
    fn of(seed: u64, result: Result<Record, String>) -> GameSummary {
        match result {
            Err(e) => GameSummary {
                seed,
                winner: None,
                victory_points: [0; 2],
                frags: [0; 2],
                rounds: 0,
                effect_failures: vec![],
                error: Some(e),
                teams: Default::default(),
            },
            Ok(r) => {
                let (mut vp, mut frags, mut rounds) = ([0; 2], [0; 2], 0);
                let mut failures = Vec::new();
                for e in &r.events {
                    match e {
                        Event::GameEnded { victory_points, frags: f, rounds: n, .. } => {
                            vp = *victory_points;
                            frags = *f;
                            rounds = *n;
                        }
                        Event::EffectFailed { card, effect, message, file, line } => {
                            failures.push(format!("{file}:{}: {card} {effect}: {message}", line.unwrap_or(1)))
                        }
                        _ => {}
                    }
                }
                GameSummary {
                    seed,
                    winner: r.winner(),
                    victory_points: vp,
                    frags,
                    rounds,
                    effect_failures: failures,
                    error: None,
                    teams: Default::default(),
                }
            }
        }
    }
}

/// Which teams a batch plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Teams {
    /// A ready-made setup, by id: the same teams every game.
    Setup(String),
    /// Random teams of the loaded Characters for this Scenario, drawn per seed
    /// (`Setup::random`).
    Random(String),
}

impl Teams {
    /// The setup of one game.
    pub fn setup(&self, content: &Content, seed: u64) -> Result<Setup, String> {
        match self {
            Teams::Setup(id) => Setup::from_content(content, id, seed),
            Teams::Random(scenario) => Setup::random(content, scenario, seed),
        }
    }
}

/// Play games with seeds `seeds` in parallel on `jobs` threads (one Lua VM per
/// thread), calling `progress` after each game. Results are in seed order, so a
/// batch is as deterministic as one game.
pub fn batch(
    content: std::sync::Arc<Content>,
    scripts: std::sync::Arc<crate::script::runtime::ScriptSet>,
    teams: &Teams,
    seeds: std::ops::Range<u64>,
    players: [Player; 2],
    jobs: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<GameSummary>, String> {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs.max(1)).build().map_err(|e| e.to_string())?;
    let limits = crate::script::runtime::Limits::default();
    Ok(pool.install(|| {
        seeds
            .into_par_iter()
            .map_init(
                || Runtime::new(content.clone(), scripts.clone(), limits).map_err(|e| e.to_string()),
                |rt, seed| {
                    let result = match rt {
                        Err(e) => Err(e.clone()),
                        Ok(rt) => teams.setup(&content, seed).and_then(|s| {
                            let teams = s.teams.clone();
                            play_with(&content, rt, &s, players).map(|r| (r, teams))
                        }),
                    };
                    progress();
                    match result {
                        Ok((record, teams)) => {
                            let mut g = GameSummary::of(seed, Ok(record));
                            g.teams = teams;
                            g
                        }
                        Err(e) => GameSummary::of(seed, Err(e)),
                    }
                },
            )
            .collect()
    }))
}

/// A proportion with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Rate {
    /// Successes / trials.
    pub rate: f64,
    /// Lower bound of the 95% interval.
    pub low: f64,
    /// Upper bound of the 95% interval.
    pub high: f64,
}

impl Rate {
    /// `k` of `n`, with the Wilson interval at z = 1.96.
    pub fn of(k: usize, n: usize) -> Rate {
        if n == 0 {
            return Rate { rate: 0.0, low: 0.0, high: 1.0 };
        }
        let (k, n, z) = (k as f64, n as f64, 1.96f64);
        let p = k / n;
        let denom = 1.0 + z * z / n;
        let centre = (p + z * z / (2.0 * n)) / denom;
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
        Rate { rate: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0) }
    }
}

/// What a batch amounted to.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    /// Games played.
    pub games: usize,
    /// Win rate of each player.
    pub win_rate: [Rate; 2],
    /// Draws.
    pub draws: usize,
    /// Mean Victory Points of each player.
    pub mean_victory_points: [f64; 2],
    /// Mean Frags of each player.
    pub mean_frags: [f64; 2],
    /// Mean Rounds played.
    pub mean_rounds: f64,
    /// Games with at least one failed effect.
    pub games_with_effect_failures: usize,
    /// Games an engine error stopped.
    pub errors: usize,
    /// Win rate of each Character: games its team won over games it played.
    pub characters: std::collections::BTreeMap<crate::model::Id, Rate>,
}

impl Report {
    /// Sum up a batch.
    pub fn of(games: &[GameSummary]) -> Report {
        let n = games.len();
        let wins = |p| games.iter().filter(|g| g.winner == Some(p)).count();
        let mean =
            |f: &dyn Fn(&GameSummary) -> f64| if n == 0 { 0.0 } else { games.iter().map(f).sum::<f64>() / n as f64 };
        Report {
            games: n,
            win_rate: [Rate::of(wins(0), n), Rate::of(wins(1), n)],
            draws: games.iter().filter(|g| g.winner.is_none() && g.error.is_none()).count(),
            mean_victory_points: [mean(&|g| g.victory_points[0] as f64), mean(&|g| g.victory_points[1] as f64)],
            mean_frags: [mean(&|g| g.frags[0] as f64), mean(&|g| g.frags[1] as f64)],
            mean_rounds: mean(&|g| g.rounds as f64),
            games_with_effect_failures: games.iter().filter(|g| !g.effect_failures.is_empty()).count(),
            errors: games.iter().filter(|g| g.error.is_some()).count(),
            characters: {
                let mut played: std::collections::BTreeMap<crate::model::Id, (usize, usize)> = Default::default();
                for g in games.iter().filter(|g| g.error.is_none()) {
                    for (p, team) in g.teams.iter().enumerate() {
                        for c in team {
                            let e = played.entry(c.clone()).or_default();
                            e.1 += 1;
                            e.0 += usize::from(g.winner == Some(p));
                        }
                    }
                }
                played.into_iter().map(|(c, (w, n))| (c, Rate::of(w, n))).collect()
            },
        }
    }
}

/// `arena check --sims N`: play `n` seeded games of every Scenario that can be
/// set up (its ready-made setups, else random teams of the loaded Characters),
/// with random-legal controllers, and report every failed effect (at its script
/// line), engine error and unfinished game as a diagnostic. Deduplicated:
/// one diagnostic per distinct problem, with the number of games it hit.
pub fn check_sims(loaded: &crate::load::Loaded, n: u64, jobs: usize) -> Vec<crate::diag::Diagnostic> {
    use crate::diag::{Code, Diagnostic};
    let content = std::sync::Arc::new(loaded.content.clone());
    let mut setups: Vec<String> = Vec::new();
    let mut random: Vec<String> = Vec::new();
    for sc in content.scenarios.keys() {
        let ready: Vec<String> =
            content.setups.values().filter(|s| s.value.scenario == *sc).map(|s| s.value.id.clone()).collect();
        if ready.is_empty() {
            random.push(sc.clone());
        } else {
            setups.extend(ready);
        }
    }
    // The packs, for the reproduction command.
    let packs: String = loaded.packs.iter().map(|p| format!(" --pack {}", p.root.display())).collect();
    let mut problems: std::collections::BTreeMap<String, (Diagnostic, usize)> = Default::default();
    let mut note = |key: String, d: Diagnostic| problems.entry(key).or_insert((d, 0)).1 += 1;
    let players = [Player::Random, Player::Random];
    for setup in &setups {
        let games = match batch(
            content.clone(),
            loaded.script_set.clone(),
            &Teams::Setup(setup.clone()),
            1..n + 1,
            players,
            jobs,
            &|| {},
        ) {
            Ok(g) => g,
            Err(e) => {
                note(
                    format!("batch {setup}"),
                    Diagnostic::error(Code::SimFailed, format!("cannot play `{setup}`: {e}")).help("see the message"),
                );
                continue;
            }
        };
        for g in games {
            report_game(&g, setup, &packs, &mut note);
        }
    }
    // Random teams for every 2-player Scenario too, so every loaded Character plays.
    let two_player = |id: &String| {
        content.scenarios.get(id).is_some_and(|s| (s.value.players.min..=s.value.players.max).contains(&2))
    };
    let skipped: Vec<&str> = content.scenarios.keys().filter(|id| !two_player(id)).map(String::as_str).collect();
    if !skipped.is_empty() {
        note(
            "skipped multiplayer".into(),
            Diagnostic::note(
                Code::SimFailed,
                format!("not simulated: {} (3-4 players; the engine plays 2-player games)", skipped.join(", ")),
            )
            .help("these Scenarios load and validate; their games need the Prime Time rules engine"),
        );
    }
    let _ = &random;
    for scenario in content.scenarios.keys().filter(|s| two_player(s)) {
        let teams = Teams::Random(scenario.clone());
        match batch(content.clone(), loaded.script_set.clone(), &teams, 1..n + 1, players, jobs, &|| {}) {
            Ok(games) => {
                for g in games {
                    report_game(&g, &format!("{scenario} --random-teams"), &packs, &mut note);
                }
            }
            Err(e) => note(
                format!("batch {scenario}"),
                Diagnostic::error(Code::SimFailed, format!("cannot play `{scenario}`: {e}")).help("see the message"),
            ),
        }
    }
    problems
        .into_values()
        .map(|(mut d, count)| {
            if d.is_error() {
                d.notes.push(format!("in {count} of the simulated games"));
            }
            d
        })
        .collect()
}

fn report_game(g: &GameSummary, what: &str, packs: &str, note: &mut impl FnMut(String, crate::diag::Diagnostic)) {
    use crate::diag::{Code, Diagnostic, Location};
    let repro = format!("reproduce with `arena sim {what} --seed {} --players random{packs}`", g.seed);
    if let Some(e) = &g.error {
        note(
            format!("error {what} {e}"),
            Diagnostic::error(Code::SimFailed, format!("`{what}`, seed {}: {e}", g.seed)).help(repro.clone()),
        );
        return;
    }
    if g.rounds == 0 {
        note(
            format!("unfinished {what}"),
            Diagnostic::error(Code::SimFailed, format!("`{what}`, seed {}: the game did not end", g.seed))
                .help(repro.clone()),
        );
    }
    let mut this_game = std::collections::BTreeSet::new();
    for f in g.effect_failures.iter().filter(|f| this_game.insert((*f).clone())) {
        // "file:line: card effect: message"
        let mut parts = f.splitn(3, ':');
        let (file, line, rest) =
            (parts.next().unwrap_or_default(), parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
        let line: usize = line.trim().parse().unwrap_or(1);
        let code = if rest.contains("instruction budget exhausted") {
            Code::ScriptBudget
        } else if rest.contains("not enough memory") || rest.contains("memory limit") {
            Code::ScriptMemory
        } else {
            Code::ScriptError
        };
        // One diagnostic per script line, however its message varies.
        let key = if file.is_empty() { f.clone() } else { format!("{file}:{line}") };
        note(
            key,
            Diagnostic::error(code, format!("in a simulated game: {}", rest.trim()))
                .at(Location { file: file.into(), span: None, line, column: 1 })
                .with_note(format!("first seen in `{what}`, seed {}", g.seed))
                .help(repro.clone()),
        );
    }
}

/// Play every situation of the loaded packs (`situations/*.toml`, docs/
/// situations.md) on the loaded content, for `arena check`: each way one went
/// differently than written is a `situation-failed` error at the file, on the
/// `expect` or `absent` line concerned when there is one. The situations'
/// own `packs` keys are not used: the checked packs are. Returns the
/// diagnostics and the texts read (to show their lines).
pub fn check_situations(
    loaded: &crate::load::Loaded,
) -> (Vec<crate::diag::Diagnostic>, Vec<(std::path::PathBuf, String)>) {
    use crate::diag::{Code, Diagnostic, line_location};
    let mut out = Vec::new();
    let mut texts = Vec::new();
    let files = crate::load::situation_texts(loaded);
    if files.is_empty() {
        return (out, texts);
    }
    let content = std::sync::Arc::new(loaded.content.clone());
    let runtime =
        match Runtime::new(content.clone(), loaded.script_set.clone(), crate::script::runtime::Limits::default()) {
            Ok(r) => r,
            Err(e) => {
                out.push(Diagnostic::error(Code::SituationFailed, format!("cannot start the Lua VM: {e}")));
                return (out, texts);
            }
        };
    let help = |file: &std::path::Path| format!("play it with `arena run {}` to see its narrative", file.display());
    for (file, text) in files {
        let text = match text {
            Ok(t) => t,
            Err(e) => {
                out.push(Diagnostic::error(Code::SituationFailed, e).at(line_location(&file, "", 1)));
                continue;
            }
        };
        // The quoted `expect`/`absent` line in the file, to point at it.
        let at = |needle: Option<&str>| {
            let quoted = needle.map(|n| format!("\"{n}\""));
            match quoted.as_deref().and_then(|q| text.find(q).map(|i| (i, q.len()))) {
                Some((start, len)) => {
                    let (line, column) = crate::diag::line_column(&text, start);
                    crate::diag::Location { file: file.clone(), span: Some(start..start + len), line, column }
                }
                None => line_location(&file, &text, 1),
            }
        };
        let sit: crate::rules::situation::Situation = match toml::from_str(&text) {
            Ok(s) => s,
            Err(e) => {
                let line = e.span().map_or(1, |s| crate::diag::line_column(&text, s.start).0);
                out.push(
                    Diagnostic::error(Code::SituationFailed, format!("not a situation: {}", e.message()))
                        .at(line_location(&file, &text, line))
                        .help("see docs/situations.md for its keys"),
                );
                texts.push((file, text));
                continue;
            }
        };
        match sit.play(&content, &runtime) {
            Err(e) => out.push(
                Diagnostic::error(Code::SituationFailed, format!("cannot set up the situation: {e}"))
                    .at(line_location(&file, &text, 1))
                    .help(help(&file)),
            ),
            Ok(played) => {
                for p in played.problems {
                    out.push(
                        Diagnostic::error(Code::SituationFailed, p.message).at(at(p.line.as_deref())).help(help(&file)),
                    );
                }
            }
        }
        texts.push((file, text));
    }
    (out, texts)
}
