//! [`Id`]: a content identifier as a small `Copy` handle.
//!
//! Every id a game holds (Characters, Tactics, States, dice, zones, the
//! options of a Decision, the events) is one of these: a pointer into one
//! process-wide table of interned strings ([`ustr`]), so copying an id is
//! copying 8 bytes and comparing two is comparing two pointers. The text is
//! only read at the edges (files, the narrative, Lua, JSON).
//!
//! It reads, writes, hashes, orders and prints exactly as the `String` it
//! replaces: serialized as a string, `Debug` with quotes, `Hash` as the
//! `str` (so `HashMap<Id, _>` looks up by `&str`, and maps iterate in the
//! same order as before), ordered by its text (so `BTreeMap`s and sorts are
//! unchanged, and games stay the same byte for byte).
//!
//! Interned strings are never freed: the table holds each distinct id once
//! for the life of the process (351 ids, 13 KiB, for the bundled packs; a
//! watch session adds only the ids a designer types).

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::{Borrow, Cow};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use ustr::Ustr;

/// The most bytes the process's table of interned ids may hold before
/// [`Id::try_new`] (Lua strings, files read at run time) refuses new names:
/// 64 MiB; loading the bundled packs interns 351 ids in 13 KiB.
pub const INTERN_LIMIT: usize = 64 << 20;

/// A kebab-case identifier, unique within its kind (`valkyrie`, `ice-wall`),
/// interned: `Copy`, compared by pointer, ordered by its text.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Id(Ustr);

impl Id {
    /// The id of `text` (interned on first use).
    #[inline]
    pub fn new(text: &str) -> Id {
        Id(Ustr::from(text))
    }

    /// The id of `text` from untrusted input (a Lua script, a file or a
    /// request read at run time): as [`Id::new`] while the table of
    /// interned strings is under [`INTERN_LIMIT`] bytes, or while `text` is
    /// already in it; an error past it, so no input can grow the table
    /// without bound (interned strings are never freed).
    ///
    /// # Errors
    /// `text` is new and the table already holds [`INTERN_LIMIT`] bytes.
    pub fn try_new(text: &str) -> Result<Id, String> {
        Id::try_new_within(text, INTERN_LIMIT)
    }

    /// [`Id::try_new`] with the table's cap at `limit` bytes.
    fn try_new_within(text: &str, limit: usize) -> Result<Id, String> {
        if let Some(u) = ustr::existing_ustr(text) {
            return Ok(Id(u));
        }
        if ustr::total_allocated().saturating_add(text.len()) > limit {
            return Err(format!(
                "too many distinct names: the table of ids holds {} MiB, the most it may (a script or an input that makes a new name each time?)",
                limit >> 20
            ));
        }
        Ok(Id::new(text))
    }

    /// Its text.
    #[inline]
    pub fn as_str(&self) -> &'static str {
        self.0.as_str()
    }

    /// Its text as an owned `String`.
    pub fn to_owned_string(&self) -> String {
        self.0.as_str().to_owned()
    }

    /// Whether it is the empty id.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The length of its text, in bytes.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

impl Default for Id {
    fn default() -> Id {
        Id::new("")
    }
}

impl Deref for Id {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl AsRef<str> for Id {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<std::path::Path> for Id {
    fn as_ref(&self) -> &std::path::Path {
        std::path::Path::new(self.as_str())
    }
}

impl AsRef<std::ffi::OsStr> for Id {
    fn as_ref(&self) -> &std::ffi::OsStr {
        std::ffi::OsStr::new(self.as_str())
    }
}

impl Borrow<str> for Id {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl Hash for Id {
    /// As the `str`: consistent with `Borrow<str>`, and the same as `String`'s.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialOrd for Id {
    fn partial_cmp(&self, other: &Id) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Id {
    /// By text, as `String`.
    fn cmp(&self, other: &Id) -> Ordering {
        if self.0 == other.0 { Ordering::Equal } else { self.as_str().cmp(other.as_str()) }
    }
}

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl From<&str> for Id {
    fn from(text: &str) -> Id {
        Id::new(text)
    }
}

impl From<&&str> for Id {
    fn from(text: &&str) -> Id {
        Id::new(text)
    }
}

impl From<String> for Id {
    fn from(text: String) -> Id {
        Id::new(&text)
    }
}

impl From<&String> for Id {
    fn from(text: &String) -> Id {
        Id::new(text)
    }
}

impl From<Cow<'_, str>> for Id {
    fn from(text: Cow<'_, str>) -> Id {
        Id::new(&text)
    }
}

impl From<&Id> for Id {
    fn from(id: &Id) -> Id {
        *id
    }
}

impl From<Id> for String {
    fn from(id: Id) -> String {
        id.to_owned_string()
    }
}

impl From<&Id> for String {
    fn from(id: &Id) -> String {
        id.to_owned_string()
    }
}

impl std::str::FromStr for Id {
    type Err = std::convert::Infallible;
    fn from_str(text: &str) -> Result<Id, Self::Err> {
        Ok(Id::new(text))
    }
}

impl PartialEq<str> for Id {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Id {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Id {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<&String> for Id {
    fn eq(&self, other: &&String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Id> for str {
    fn eq(&self, other: &Id) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Id> for &str {
    fn eq(&self, other: &Id) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Id> for String {
    fn eq(&self, other: &Id) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<&Id> for Id {
    fn eq(&self, other: &&Id) -> bool {
        self == *other
    }
}

impl PartialEq<Id> for &Id {
    fn eq(&self, other: &Id) -> bool {
        *self == other
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Id, D::Error> {
        struct Text;
        impl serde::de::Visitor<'_> for Text {
            type Value = Id;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Id, E> {
                Id::try_new(text).map_err(E::custom)
            }
        }
        deserializer.deserialize_str(Text)
    }
}

impl JsonSchema for Id {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        String::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        String::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        String::json_schema(generator)
    }
}

impl mlua::IntoLua for Id {
    fn into_lua(self, lua: &mlua::Lua) -> mlua::Result<mlua::Value> {
        self.as_str().into_lua(lua)
    }
}

impl mlua::IntoLua for &Id {
    fn into_lua(self, lua: &mlua::Lua) -> mlua::Result<mlua::Value> {
        self.as_str().into_lua(lua)
    }
}

impl mlua::FromLua for Id {
    fn from_lua(value: mlua::Value, lua: &mlua::Lua) -> mlua::Result<Id> {
        let text = mlua::LuaString::from_lua(value, lua)?;
        Id::try_new(&text.to_str()?).map_err(mlua::Error::runtime)
    }
}

#[cfg(test)]
mod tests {
    use super::Id;
    use std::collections::{BTreeSet, HashMap};

    /// Interned names are never freed, so untrusted input (a Lua script
    /// making a new name at each call) may add names only while the table
    /// is under its cap; names already in it are always found.
    #[test]
    fn a_new_name_past_the_cap_is_refused_and_a_known_one_is_still_found() {
        let known = Id::new("valkyrie");
        let full = ustr::total_allocated();
        let refused = Id::try_new_within("a-name-no-pack-has-interned-yet", full);
        assert!(refused.is_err(), "a new name past the cap is interned: {refused:?}");
        assert!(refused.unwrap_err().contains("too many distinct names"));
        assert!(ustr::existing_ustr("a-name-no-pack-has-interned-yet").is_none(), "the refused name was interned");
        assert_eq!(Id::try_new_within("valkyrie", full), Ok(known));
        let room = ustr::total_allocated() + 64;
        assert_eq!(Id::try_new_within("a-name-with-room-left", room).map(|i| i.as_str()), Ok("a-name-with-room-left"));
    }

    #[test]
    fn an_id_orders_hashes_and_prints_as_its_text() {
        let ids: BTreeSet<Id> = ["zeta", "alpha", "mid"].into_iter().map(Id::new).collect();
        let texts: Vec<&str> = ids.iter().map(|i| i.as_str()).collect();
        assert_eq!(texts, ["alpha", "mid", "zeta"]);
        let mut map = HashMap::new();
        map.insert(Id::new("valkyrie"), 1);
        assert_eq!(map.get("valkyrie"), Some(&1));
        assert_eq!(format!("{:?}", Id::new("a\"b")), format!("{:?}", "a\"b"));
        assert_eq!(Id::new("x").to_string(), "x");
        assert_eq!(serde_json::to_string(&Id::new("x")).unwrap(), "\"x\"");
        let back: Id = serde_json::from_str("\"ice-wall\"").unwrap();
        assert_eq!(back, "ice-wall");
        assert!(Id::new("same") == Id::new(&String::from("same")));
    }
}
