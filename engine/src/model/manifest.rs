//! The pack manifest (`pack.toml`): id, version, game, dependencies, known gaps (docs/packs.md).

use super::*;

/// A pack manifest, `pack.toml` (see docs/packs.md).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "arena pack manifest (pack.toml)")]
pub struct Manifest {
    /// Kebab-case pack id (`aristeia-core`).
    pub id: Id,
    /// Semantic version (`1.0.0`).
    pub version: String,
    /// The game the pack is for.
    pub game: GameTitle,
    /// Display title.
    pub title: String,
    /// Authors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authors: Vec<String>,
    /// One paragraph on what the pack holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Required packs: id = semver requirement (`aristeia-core = "^1.0"`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub dependencies: std::collections::BTreeMap<Id, String>,
    /// Packs used when present: id = semver requirement.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub optional_dependencies: std::collections::BTreeMap<Id, String>,
    /// Packs this one cannot be loaded with: id = semver requirement (`"*"` for any version).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub incompatibilities: std::collections::BTreeMap<Id, String>,
    /// Load this pack after these (when they are present).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub load_after: Vec<Id>,
    /// Load this pack before these (when they are present).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub load_before: Vec<Id>,
    /// What the sources name but the pack cannot hold (a card whose text is
    /// not printed), so `arena check --strict` says it is missing rather than
    /// leaving it to a comment.
    #[serde(default, rename = "gap", skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Gap>,
}

/// Something the rulebooks name that a pack leaves out, and why.
///
/// Example: `[[gap]]` `what = "Hannibal's four Tactics"`, `why = "002 § Hannibal
/// Tactics prints four empty Code: lines"`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Gap {
    /// What is missing.
    pub what: String,
    /// Why it is missing, citing the source.
    pub why: String,
}
