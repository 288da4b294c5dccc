//! The loaded content: every entry of every pack, by kind and id, with where it came from.
//!
//! No IO. Built by `load`, read by validation, the CLI and (later) the rules engine.
//! Entry type: [`Content`].

use crate::model::*;
use serde_json::Value;
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

/// Declares [`Content`] and its per-kind dispatch from [`crate::content_kinds!`].
macro_rules! declare_content {
    ($( $(#[$doc:meta])* $variant:ident, $key:ident, $table:ident: $ty:ty; )*) => {
        /// All loaded content: one table per [`Kind`].
        #[derive(Debug, Clone, Default)]
        pub struct Content {
            $( $(#[$doc])* pub $table: Table<$ty>, )*
        }

        impl Content {
            /// How many entries of a kind are loaded.
            pub fn count(&self, kind: Kind) -> usize {
                match kind {
                    $( Kind::$variant => self.$table.len(), )*
                }
            }

            /// The origin of an entry, if loaded.
            pub fn origin(&self, kind: Kind, id: &str) -> Option<&Origin> {
                match kind {
                    $( Kind::$variant => self.$table.get(id).map(|e| &e.origin), )*
                }
            }

            /// Every entry's metadata, as (kind, id, meta), in kind then id order.
            pub fn metas(&self) -> Vec<(Kind, &str, &Meta, &Origin)> {
                let mut out = Vec::new();
                $(
                    for (id, e) in &self.$table {
                        out.push((Kind::$variant, id.as_str(), &e.value.meta, &e.origin));
                    }
                )*
                out
            }

            /// Add an entry of `kind` from its JSON form (already valid against
            /// the schema). `Err((new, first))` when an entry of that kind and
            /// id is loaded already; an entry that does not deserialize is skipped.
            pub fn insert_json(&mut self, kind: Kind, item: &Value, origin: Origin) -> Result<(), Box<(Origin, Origin)>> {
                match kind {
                    $( Kind::$variant => insert(&mut self.$table, item, origin), )*
                }
            }

            /// Replace a loaded entry's value with its patched JSON form; false
            /// when there is no such entry or the JSON does not deserialize.
            pub fn replace_json(&mut self, kind: Kind, id: &str, v: &Value) -> bool {
                match kind {
                    $( Kind::$variant => replace(&mut self.$table, id, v), )*
                }
            }
        }
    };
}

crate::content_kinds!(declare_content);

fn insert<T: serde::de::DeserializeOwned>(
    table: &mut Table<T>,
    item: &Value,
    origin: Origin,
) -> Result<(), Box<(Origin, Origin)>> {
    let id = item.get("id").and_then(Value::as_str).unwrap_or_default();
    if let Some(first) = table.get(id) {
        return Err(Box::new((origin, first.origin.clone())));
    }
    // The schema accepted it, so a failure here is content the schema does
    // not describe: skip the entry rather than guess.
    if let Ok(value) = T::deserialize(item) {
        table.insert(id.to_string(), Entry { value, origin });
    }
    Ok(())
}

fn replace<T: serde::de::DeserializeOwned>(t: &mut Table<T>, id: &str, v: &Value) -> bool {
    match (t.get_mut(id), T::deserialize(v)) {
        (Some(e), Ok(value)) => {
            e.value = value;
            true
        }
        _ => false,
    }
}

impl Content {
    /// Whether an entry of this kind and id is loaded.
    pub fn contains(&self, kind: Kind, id: &str) -> bool {
        self.origin(kind, id).is_some()
    }
}
