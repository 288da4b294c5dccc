//! What effects call back into: the [`Host`] trait, and [`RecordingHost`], a host
//! with no game behind it that records every call, so an effect can be run and
//! tested on its own (`arena script`, designers' script tests, the hostile suite).

use super::api::{ApiFn, ApiValue, ChanceFn, ChoiceFn, HostFn, ScenarioFn, Ty};
use rand::{RngExt, SeedableRng};
use std::collections::{BTreeMap, VecDeque};

/// The game side of the API: answers every function whose [`super::api::Answer`]
/// is `Host`. Arguments arrive type-checked against the registry.
pub trait Host {
    /// Perform or answer one call. An `Err` becomes a Lua error at the caller's line.
    fn call(&mut self, f: &'static ApiFn, args: &[ApiValue]) -> Result<ApiValue, String>;

    /// An effect is about to run.
    fn begin_effect(&mut self) {}

    /// The effect ended; `ok` is false when it failed, in which case the host must
    /// undo what it did (an effect is never half-applied).
    fn end_effect(&mut self, ok: bool) {
        let _ = ok;
    }

    /// How many events of its narrative the host holds now (a game's events;
    /// a host that records none answers 0). The runtime counts what each
    /// call adds against the log caps (`Limits::log_per_call`, `log_per_game`).
    fn events_recorded(&self) -> usize {
        0
    }

    /// The bytes of text of the events after the first `from` (their
    /// narrative lines), for the log caps.
    fn narrative_bytes(&self, from: usize) -> usize {
        let _ = from;
        0
    }
}

/// The length of `value`'s `Display` text, without building it.
pub fn display_len(value: &impl std::fmt::Display) -> usize {
    struct Count(usize);
    impl std::fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0 += s.len();
            Ok(())
        }
    }
    let mut n = Count(0);
    let _ = std::fmt::write(&mut n, format_args!("{value}"));
    n.0
}

/// One recorded call.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Call {
    /// API function name.
    pub name: &'static str,
    /// Its arguments.
    pub args: Vec<ApiValue>,
}

impl std::fmt::Display for Call {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let args: Vec<String> = self.args.iter().map(ToString::to_string).collect();
        write!(f, "{}({})", self.name, args.join(", "))
    }
}

/// A host that records calls and answers queries from scripted answers or
/// neutral defaults (0, false, empty list, the first candidate or option),
/// with a seeded RNG for `random`.
#[derive(Debug)]
pub struct RecordingHost {
    /// Calls of effects that completed, in order.
    pub calls: Vec<Call>,
    /// Calls of the effect that failed last, which were rolled back.
    pub rolled_back: Vec<Call>,
    pending: Vec<Call>,
    /// `log` calls among `calls`: its narrative, with those of `pending`.
    logged: usize,
    answers: BTreeMap<String, VecDeque<ApiValue>>,
    rng: rand_chacha::ChaCha8Rng,
}

impl Default for RecordingHost {
    fn default() -> Self {
        Self::new(0)
    }
}

impl RecordingHost {
    /// A host whose `random` is seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RecordingHost {
            calls: Vec::new(),
            rolled_back: Vec::new(),
            pending: Vec::new(),
            logged: 0,
            answers: BTreeMap::new(),
            rng: rand_chacha::ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Queue the answer the next call of `name` returns (then the defaults again).
    pub fn answer(&mut self, name: &str, value: ApiValue) {
        self.answers.entry(name.to_string()).or_default().push_back(value);
    }
}

impl Host for RecordingHost {
    fn call(&mut self, f: &'static ApiFn, args: &[ApiValue]) -> Result<ApiValue, String> {
        self.pending.push(Call { name: f.name, args: args.to_vec() });
        if let Some(v) = self.answers.get_mut(f.name).and_then(VecDeque::pop_front) {
            return Ok(v);
        }
        Ok(match (f.id, f.returns) {
            (HostFn::Chance(ChanceFn::Random), _) => {
                let (ApiValue::Int(lo), ApiValue::Int(hi)) = (&args[0], &args[1]) else {
                    return Err("random needs two integers".into());
                };
                if lo > hi {
                    return Err(format!("random: empty range [{lo}, {hi}]"));
                }
                ApiValue::Int(self.rng.random_range(*lo..=*hi))
            }
            (HostFn::Choice(ChoiceFn::ChooseTarget | ChoiceFn::Choose), _) => match &args[0] {
                ApiValue::List(l) => l.first().map_or(ApiValue::Nil, |s| ApiValue::Str(*s)),
                _ => ApiValue::Nil,
            },
            // A Scenario rule's choice for a named player: the first option.
            (HostFn::Scenario(ScenarioFn::ChooseZone), _) => match args.get(1) {
                Some(ApiValue::List(l)) => l.first().map_or(ApiValue::Nil, |s| ApiValue::Str(*s)),
                _ => ApiValue::Nil,
            },
            (HostFn::Scenario(ScenarioFn::ChooseSpaceFor), _) => match args.get(1) {
                Some(ApiValue::Spaces(l)) => l.first().map_or(ApiValue::Nil, |s| ApiValue::Space(*s)),
                _ => ApiValue::Nil,
            },
            (_, Ty::Integer) => ApiValue::Int(0),
            (_, Ty::Player) => ApiValue::Int(1),
            (_, Ty::Boolean) => ApiValue::Bool(false),
            (HostFn::Choice(ChoiceFn::ChooseSpace), _) => match &args[0] {
                ApiValue::Spaces(l) => l.first().map_or(ApiValue::Nil, |s| ApiValue::Space(*s)),
                _ => ApiValue::Nil,
            },
            (_, Ty::CharacterList | Ty::StringList) => ApiValue::List(Vec::new()),
            (_, Ty::SpaceList) => ApiValue::Spaces(Vec::new()),
            _ => ApiValue::Nil,
        })
    }

    fn begin_effect(&mut self) {
        self.pending.clear();
    }

    fn end_effect(&mut self, ok: bool) {
        if ok {
            self.logged += self.pending.iter().filter(|c| is_log(c)).count();
            self.calls.append(&mut self.pending);
        } else {
            self.rolled_back = std::mem::take(&mut self.pending);
        }
    }

    /// Its narrative is what effects logged (`print`, `game:log`).
    fn events_recorded(&self) -> usize {
        self.logged + self.pending.iter().filter(|c| is_log(c)).count()
    }

    fn narrative_bytes(&self, from: usize) -> usize {
        let pending = self.pending.iter().filter(|c| is_log(c));
        pending
            .skip(from.saturating_sub(self.logged))
            .map(|c| match c.args.first() {
                Some(ApiValue::Str(s)) => s.len(),
                _ => 0,
            })
            .sum()
    }
}

fn is_log(c: &Call) -> bool {
    c.name == "log"
}
