//! The loaded content: every entry of every pack, by kind and id, with where it came from.
//!
//! No IO. Built by `load`, read by validation, the CLI and (later) the rules engine.
//! Entry type: [`Content`].

use crate::model::*;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;

/// Where an entry was defined: pack, file, JSON Pointer inside the file, byte span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// Pack id.
    pub pack: Id,
    /// File path as loaded.
    pub file: PathBuf,
    /// JSON Pointer of the entry in its file (`/character/0`).
    pub pointer: String,
    /// Byte span of the entry in its file.
    pub span: Option<Range<usize>>,
}

/// A content entry and its origin.
#[derive(Debug, Clone)]
pub struct Entry<T> {
    /// The typed entry.
    pub value: T,
    /// Where it was defined.
    pub origin: Origin,
}

/// Entries of one kind, by id (sorted, so iteration is deterministic).
pub type Table<T> = BTreeMap<Id, Entry<T>>;

/// All loaded content.
#[derive(Debug, Clone, Default)]
pub struct Content {
    pub dice: Table<Die>,
    pub states: Table<State>,
    pub characters: Table<Character>,
    pub tactics: Table<Tactic>,
    pub maps: Table<Map>,
    pub scenarios: Table<Scenario>,
    pub objectives: Table<Objective>,
    pub special_spaces: Table<SpecialSpace>,
    pub running_projectiles: Table<RunningProjectile>,
    pub setups: Table<Setup>,
    pub artifacts: Table<Artifact>,
    pub components: Table<Component>,
}

impl Content {
    /// How many entries of a kind are loaded.
    pub fn count(&self, kind: Kind) -> usize {
        match kind {
            Kind::Die => self.dice.len(),
            Kind::State => self.states.len(),
            Kind::Character => self.characters.len(),
            Kind::Tactic => self.tactics.len(),
            Kind::Map => self.maps.len(),
            Kind::Scenario => self.scenarios.len(),
            Kind::Objective => self.objectives.len(),
            Kind::SpecialSpace => self.special_spaces.len(),
            Kind::RunningProjectile => self.running_projectiles.len(),
            Kind::Setup => self.setups.len(),
            Kind::Artifact => self.artifacts.len(),
            Kind::Component => self.components.len(),
        }
    }

    /// The origin of an entry, if loaded.
    pub fn origin(&self, kind: Kind, id: &str) -> Option<&Origin> {
        fn o<'a, T>(t: &'a Table<T>, id: &str) -> Option<&'a Origin> {
            t.get(id).map(|e| &e.origin)
        }
        match kind {
            Kind::Die => o(&self.dice, id),
            Kind::State => o(&self.states, id),
            Kind::Character => o(&self.characters, id),
            Kind::Tactic => o(&self.tactics, id),
            Kind::Map => o(&self.maps, id),
            Kind::Scenario => o(&self.scenarios, id),
            Kind::Objective => o(&self.objectives, id),
            Kind::SpecialSpace => o(&self.special_spaces, id),
            Kind::RunningProjectile => o(&self.running_projectiles, id),
            Kind::Setup => o(&self.setups, id),
            Kind::Artifact => o(&self.artifacts, id),
            Kind::Component => o(&self.components, id),
        }
    }

    /// Whether an entry of this kind and id is loaded.
    pub fn contains(&self, kind: Kind, id: &str) -> bool {
        self.origin(kind, id).is_some()
    }

    /// Every entry's metadata, as (kind, id, meta), in kind then id order.
    pub fn metas(&self) -> Vec<(Kind, &str, &Meta, &Origin)> {
        let mut out = Vec::new();
        macro_rules! push {
            ($kind:expr, $table:expr) => {
                for (id, e) in &$table {
                    out.push(($kind, id.as_str(), &e.value.meta, &e.origin));
                }
            };
        }
        push!(Kind::Die, self.dice);
        push!(Kind::State, self.states);
        push!(Kind::Character, self.characters);
        push!(Kind::Tactic, self.tactics);
        push!(Kind::Map, self.maps);
        push!(Kind::Scenario, self.scenarios);
        push!(Kind::Objective, self.objectives);
        push!(Kind::SpecialSpace, self.special_spaces);
        push!(Kind::RunningProjectile, self.running_projectiles);
        push!(Kind::Setup, self.setups);
        push!(Kind::Artifact, self.artifacts);
        push!(Kind::Component, self.components);
        out
    }
}
