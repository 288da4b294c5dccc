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
            /// the schema). Errors: [`InsertError::Duplicate`] when an entry of
            /// that kind and id is loaded already; [`InsertError::Refused`] when
            /// the typed model refuses what the schema accepted (the entry is not
            /// added, and the caller reports it at the pointer given).
            pub fn insert_json(&mut self, kind: Kind, item: &Value, origin: Origin) -> Result<(), InsertError> {
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

/// Why [`Content::insert_json`] did not add an entry.
#[derive(Debug)]
pub enum InsertError {
    /// An entry of that kind and id is loaded already: (the new one, the first).
    Duplicate(Box<(Origin, Origin)>),
    /// The schema accepted the entry but the typed model does not: the
    /// JSON Pointer of the value refused (inside the file, so under the
    /// entry's own pointer) and serde's message. Never silently skipped.
    Refused {
        /// The entry's origin.
        origin: Box<Origin>,
        /// JSON Pointer, in the file, of the value refused.
        pointer: String,
        /// What the typed model expected.
        message: String,
    },
}

fn insert<T: serde::de::DeserializeOwned>(
    table: &mut Table<T>,
    item: &Value,
    origin: Origin,
) -> Result<(), InsertError> {
    let id = item.get("id").and_then(Value::as_str).unwrap_or_default();
    if let Some(first) = table.get(id) {
        return Err(InsertError::Duplicate(Box::new((origin, first.origin.clone()))));
    }
    // The schema accepted it, so a failure here is content the schema does
    // not describe exactly: report where, never skip the entry in silence.
    match serde_path_to_error::deserialize::<_, T>(item) {
        Ok(value) => {
            table.insert(id.into(), Entry { value, origin });
            Ok(())
        }
        Err(e) => {
            let pointer = format!("{}{}", origin.pointer, path_pointer(e.path()));
            let message = e.into_inner().to_string();
            Err(InsertError::Refused { origin: Box::new(origin), pointer, message })
        }
    }
}

/// A serde path (`actions[2].range.min`) as a JSON Pointer (`/actions/2/range/min`).
fn path_pointer(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("/{index}")),
            Segment::Map { key } => {
                out.push('/');
                out.push_str(&crate::tomljson::escape(key));
            }
            Segment::Enum { .. } | Segment::Unknown => {}
        }
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    fn origin() -> Origin {
        Origin { pack: "p".into(), file: "c.toml".into(), pointer: "/state/0".into(), span: None }
    }

    /// What the typed model refuses is an error naming the value, never a
    /// skipped entry (a JSON float where a count belongs: the TOML reader
    /// makes `4.0` an integer, so only the JSON form can still carry one).
    #[test]
    fn an_entry_the_model_refuses_is_an_error_at_its_value() {
        let mut content = Content::default();
        let item = serde_json::json!({ "id": "x", "name": "X", "text": "T", "modifiers": { "speed": 1.5 } });
        let e = content.insert_json(Kind::State, &item, origin()).unwrap_err();
        match e {
            InsertError::Refused { pointer, message, .. } => {
                assert_eq!(pointer, "/state/0/modifiers/speed");
                assert!(message.contains("1.5"), "{message}");
            }
            InsertError::Duplicate(_) => panic!("not a duplicate"),
        }
        assert_eq!(content.count(Kind::State), 0);
    }

    #[test]
    fn a_second_entry_of_one_id_is_a_duplicate() {
        let mut content = Content::default();
        let item = serde_json::json!({ "id": "x", "name": "X", "text": "T" });
        content.insert_json(Kind::State, &item, origin()).unwrap();
        assert!(matches!(content.insert_json(Kind::State, &item, origin()), Err(InsertError::Duplicate(_))));
    }
}
