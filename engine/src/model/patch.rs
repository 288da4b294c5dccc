//! Patches: errata and balance changes as operations on another pack's entries (docs/patches.md).

use super::*;

/// A patch: operations on one entry of another pack (docs/patches.md).
///
/// ```toml
/// [[patch]]
/// target = "character:hannibal"
/// reason = "Errata v1.6"
/// [[patch.op]]
/// op = "replace"
/// path = "actions[id=coordinated-assault].effects[0].text"
/// expect = "Add an Orange die ... for each of your Allies ..."
/// value = "Add an Orange die ... for each Ally other than you ..."
/// ```
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Patch {
    /// The entry patched, as `kind:id` (`character:hannibal`).
    pub target: String,
    /// Why: the erratum or change this is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Citation of the erratum's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The operations, applied in order; all or none.
    #[schemars(length(min = 1))]
    pub op: Vec<PatchOp>,
}

/// One patch operation: the RFC 6902 verbs and a merge shorthand.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchOp {
    /// What to do.
    pub op: PatchVerb,
    /// Where, in the entry: keys joined by dots, list items chosen by id
    /// (`actions[id=coordinated-assault].effects[0].text`). An index alone
    /// (`actions[2]`) is accepted with a warning: a reordered list would retarget it.
    pub path: String,
    /// The value to add, replace with, test against, or merge in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Value>")]
    pub value: Option<serde_json::Value>,
    /// For `move` and `copy`: where from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// A guard: the value found at `path` before this operation. When it differs
    /// (the card changed since the patch was written) the patch fails loudly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Value>")]
    pub expect: Option<serde_json::Value>,
}

/// A patch verb.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PatchVerb {
    /// Add a value (or a list item) at the path.
    Add,
    /// Remove the value at the path.
    Remove,
    /// Replace the value at the path.
    Replace,
    /// Move the value at `from` to the path.
    Move,
    /// Copy the value at `from` to the path.
    Copy,
    /// Fail unless the value at the path equals `value`.
    Test,
    /// Merge a table into the value at the path (RFC 7386 merge patch).
    Merge,
}
