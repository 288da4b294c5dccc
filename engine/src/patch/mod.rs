//! Patches: errata and balance changes as data, applied to the loaded content
//! in pack load order (docs/patches.md).
//!
//! A patch targets one entry (`character:hannibal`) with RFC 6902 operations
//! (and a merge shorthand) whose paths select list items by key
//! (`actions[id=coordinated-assault].effects[0].text`), never by index alone
//! without a warning. An `expect` guard makes a patch fail loudly when the card
//! it was written for has changed. A patch that fails in any way is not
//! applied at all. Every field a patch sets records where it was set
//! (provenance), for `arena show`.
//!
//! The patches of one entry are applied in order to one copy of its JSON, in
//! place (a failed patch is taken back out by its undo, `ops`), and the
//! result is validated against the schema and read back into the typed entry
//! once. When that fails, the patch that broke it is found by halving (the
//! first of the patches after which the entry no longer holds), reported and
//! left out, and the others are applied again. So n patches cost time linear
//! in n, not a validation and a copy of the entry each.
//!
//! The operations themselves are `json_patch`'s; this module resolves keyed
//! paths to JSON Pointers, checks guards, and reports.

use crate::content::Origin;
use crate::diag::{Code, Diagnostic, Location, SourceMap};
pub use crate::loaded::FieldOrigin;
use crate::loaded::{Loaded, PendingPatch};
use crate::model::{Kind, Patch};
use crate::tomljson::SpannedDoc;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

mod ops;

/// Apply every pending patch of `out` in order, updating its content,
/// provenance and diagnostics.
/// With `strict` (`arena check --strict`), a `replace` of printed text or a
/// number without an `expect` guard is a warning (`patch-unguarded`).
pub fn apply_all(out: &mut Loaded, schema: &(Value, Option<jsonschema::Validator>), strict: bool) {
    let pending = std::mem::take(&mut out.pending_patches);
    // The patch files' documents and texts locate what a patch says; they are
    // lent out of `out` while its content is patched, and put back.
    let docs = std::mem::take(&mut out.docs);
    let sources = std::mem::take(&mut out.sources);
    let files = Files { docs: &docs, sources: &sources };
    // The patches of each entry, in load order; entries in the order their
    // first patch comes.
    let mut groups: Vec<Group> = Vec::new();
    let mut by_target: BTreeMap<String, usize> = BTreeMap::new();
    let mut suggested = 0;
    for p in pending {
        let Some(raw) = docs.get(&p.file).and_then(|d| d.get(&p.pointer)) else { continue };
        let Ok(patch) = Patch::deserialize(raw) else { continue };
        let loc = |sub: &str| files.locate(&p, sub);
        let mut diags = Vec::new();
        let found = patch_target(out, &patch, &loc, &mut diags, &mut suggested);
        out.diagnostics.extend(diags);
        let Some((kind, id, origin)) = found else { continue };
        let i = *by_target.entry(format!("{kind}:{id}")).or_insert_with(|| {
            groups.push(Group { kind, id, origin, patches: Vec::new() });
            groups.len() - 1
        });
        groups[i].patches.push(Parsed { pending: p, patch });
    }
    // Which field was written by which pack, to find writers with no order between them.
    let mut writers: BTreeMap<(String, String), String> = BTreeMap::new();
    for group in &groups {
        let entry = EntryPatches { files: &files, group, target: format!("{}:{}", group.kind, group.id), strict };
        entry.apply(out, schema, &mut writers);
    }
    out.docs = docs;
    out.sources = sources;
}

/// One `[[patch]]` as read: where it is, and what it says.
struct Parsed {
    pending: PendingPatch,
    patch: Patch,
}

/// The patches of one entry, in load order.
struct Group {
    kind: Kind,
    id: String,
    origin: Origin,
    patches: Vec<Parsed>,
}

/// The documents and texts of the files patches are in.
struct Files<'a> {
    docs: &'a BTreeMap<PathBuf, SpannedDoc>,
    sources: &'a SourceMap,
}

impl Files<'_> {
    /// Where `sub` (`/op/0/path`) of a `[[patch]]` table is.
    fn locate(&self, p: &PendingPatch, sub: &str) -> Option<Location> {
        let span = self.docs.get(&p.file)?.value_span(&format!("{}{sub}", p.pointer))?;
        Some(self.sources.locate(&p.file, span))
    }
}

/// The patches of one entry applied in order to a copy of it.
struct Run {
    value: Value,
    /// The patches applied (the others failed, with a diagnostic in `diags`).
    accepted: Vec<Accepted>,
    diags: Vec<Diagnostic>,
}

/// A patch that applied: its index in its [`Group`], the fields it set, and
/// each op's index and JSON Pointer.
struct Accepted {
    index: usize,
    fields: Vec<FieldOrigin>,
    applied: Vec<(usize, String)>,
}

/// Applying one entry's patches.
struct EntryPatches<'a> {
    files: &'a Files<'a>,
    group: &'a Group,
    target: String,
    strict: bool,
}

impl EntryPatches<'_> {
    /// Apply the patches, validate the result once and read it back into the
    /// content; a patch after which the entry no longer holds is reported and
    /// left out, and the rest applied again (each round leaves one more out).
    fn apply(
        &self,
        out: &mut Loaded,
        schema: &(Value, Option<jsonschema::Validator>),
        writers: &mut BTreeMap<(String, String), String>,
    ) {
        let g = self.group;
        // The entry as it stands now (earlier packs' patches included).
        let original = match out.effective.get(&self.target) {
            Some(v) => v.clone(),
            None => self
                .files
                .docs
                .get(&g.origin.file)
                .and_then(|d| d.get(&g.origin.pointer))
                .cloned()
                .unwrap_or(Value::Null),
        };
        let mut dropped = BTreeSet::new();
        let mut refused = Vec::new();
        loop {
            let run = self.replay(&original, &dropped, g.patches.len());
            if run.accepted.is_empty() {
                out.diagnostics.extend(run.diags);
                break;
            }
            if schema_errors(schema, g.kind, &run.value).is_empty()
                && out.content.replace_json(g.kind, &g.id, &run.value)
            {
                self.commit(out, run, writers);
                break;
            }
            let (index, d) = self.culprit(&original, &dropped, &run, schema);
            dropped.insert(index);
            refused.push(d);
        }
        out.diagnostics.extend(refused);
    }

    /// The patches (but those `dropped`, and from index `upto` on) applied in
    /// order to a copy of `original`.
    fn replay(&self, original: &Value, dropped: &BTreeSet<usize>, upto: usize) -> Run {
        let mut value = original.clone();
        let mut size = ops::json_size(&value);
        let (mut accepted, mut diags) = (Vec::new(), Vec::new());
        for (index, pp) in self.group.patches.iter().enumerate().take(upto) {
            if dropped.contains(&index) {
                continue;
            }
            let loc = |sub: &str| self.files.locate(&pp.pending, sub);
            let (target, id) = (&self.target, &self.group.id);
            if let Some((fields, applied)) =
                ops::apply_patch(&mut value, &mut size, pp, target, id, &loc, self.strict, &mut diags)
            {
                accepted.push(Accepted { index, fields, applied });
            }
        }
        Run { value, accepted, diags }
    }

    /// The patch of `run` after which the entry first no longer holds (found
    /// by halving: the entry holds before the first patch, not after the
    /// last), and its diagnostic.
    fn culprit(
        &self,
        original: &Value,
        dropped: &BTreeSet<usize>,
        run: &Run,
        schema: &(Value, Option<jsonschema::Validator>),
    ) -> (usize, Diagnostic) {
        let g = self.group;
        let holds = |v: &Value| schema_errors(schema, g.kind, v).is_empty() && reads_back(g, v);
        let (mut fine, mut broken) = (0, run.accepted.len());
        while broken - fine > 1 {
            let mid = (fine + broken) / 2;
            if holds(&self.replay(original, dropped, run.accepted[mid - 1].index + 1).value) {
                fine = mid;
            } else {
                broken = mid;
            }
        }
        let a = &run.accepted[broken - 1];
        let after = self.replay(original, dropped, a.index + 1).value;
        let pp = &g.patches[a.index];
        let loc = |sub: &str| self.files.locate(&pp.pending, sub);
        let errors = schema_errors(schema, g.kind, &after);
        let d = if errors.is_empty() {
            Diagnostic::error(Code::PatchInvalid, format!("the patched `{}` does not read back", self.target))
                .at_opt(loc("/target"))
                .help("report this")
        } else {
            invalid(&errors, &a.applied, &pp.patch, &self.target, &loc)
        };
        (a.index, d)
    }

    /// Keep a run that holds: its diagnostics, provenance and effective JSON,
    /// and the patch conflicts of its fields.
    fn commit(&self, out: &mut Loaded, run: Run, writers: &mut BTreeMap<(String, String), String>) {
        out.diagnostics.extend(run.diags);
        let target = &self.target;
        for a in run.accepted {
            let pp = &self.group.patches[a.index];
            let (p, patch) = (&pp.pending, &pp.patch);
            let loc = |sub: &str| self.files.locate(p, sub);
            for f in &a.fields {
                let key = (target.clone(), f.path.clone());
                if let Some(prev) = writers.get(&key) {
                    if prev != &p.pack && !ordered(out, &p.pack, prev) {
                        out.diagnostics.push(
                            Diagnostic::error(
                                Code::PatchConflict,
                                format!("`{target}` {} is also written by pack `{prev}`, with no order between the two packs", f.path),
                            )
                            .at_opt(
                                // The clashing op's `path`, or else the `[[patch]]`.
                                patch
                                    .op
                                    .iter()
                                    .rposition(|o| o.path == f.path)
                                    .and_then(|i| loc(&format!("/op/{i}/path")))
                                    .or_else(|| loc("")),
                            )
                            .path(format!("{target} {}", f.path))
                            .help(format!("make `{}` depend on `{prev}` or add `load_after = [\"{prev}\"]` to its pack.toml", p.pack)),
                        );
                    }
                }
                writers.insert(key, p.pack.clone());
            }
            out.provenance.entry(target.clone()).or_default().extend(a.fields);
        }
        out.effective.insert(target.clone(), run.value);
    }
}

/// Whether the entry's JSON reads back as its typed entry (the schema
/// accepting it should mean it does).
fn reads_back(g: &Group, v: &Value) -> bool {
    let mut scratch = crate::content::Content::default();
    scratch.insert_json(g.kind, v, g.origin.clone()).is_ok() && scratch.contains(g.kind, &g.id)
}

/// The schema's errors for an entry of `kind`: (where in the entry, as a
/// JSON Pointer, what is wrong).
fn schema_errors(schema: &(Value, Option<jsonschema::Validator>), kind: Kind, value: &Value) -> Vec<(String, String)> {
    let Some(validator) = &schema.1 else { return Vec::new() };
    let wrapped = serde_json::json!({ kind.key(): [value] });
    let prefix = format!("/{}/0", kind.key());
    validator
        .iter_errors(&wrapped)
        .map(|e| {
            let at = e.instance_path().as_str().to_string();
            (at.strip_prefix(&prefix).unwrap_or(&at).to_string(), e.to_string())
        })
        .collect()
}

/// The diagnostic of a patch that made its entry invalid: at the last op that
/// wrote at, above or below the first invalid place (a missing key is
/// reported at the table that lacks it), with the first errors as notes.
fn invalid(
    errors: &[(String, String)],
    applied: &[(usize, String)],
    patch: &Patch,
    target: &str,
    loc: &Loc<'_>,
) -> Diagnostic {
    let blamed = errors.first().and_then(|(at, _)| {
        applied
            .iter()
            .rev()
            .find(|(_, p)| {
                let p = p.trim_end_matches("/-");
                p == at || at.starts_with(&format!("{p}/")) || p.starts_with(&format!("{at}/"))
            })
            .map(|(i, _)| *i)
    });
    let at = blamed.and_then(|i| {
        let key = if patch.op[i].value.is_some() { "value" } else { "path" };
        loc(&format!("/op/{i}/{key}"))
    });
    let mut d =
        Diagnostic::error(Code::PatchInvalid, format!("this patch would make `{target}` invalid; it is not applied"))
            .at_opt(at.or_else(|| loc("/target")))
            .path(target)
            .help("fix the patch's values so the entry still follows the schema");
    for (_, e) in errors.iter().take(5) {
        d = d.with_note(e.lines().next().unwrap_or_default().to_string());
    }
    d
}

/// Whether pack `a` is ordered after pack `b` (depends on it, transitively, or loads after it).
fn ordered(out: &Loaded, a: &str, b: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack = vec![a.to_string()];
    while let Some(x) = stack.pop() {
        if x == b {
            return true;
        }
        if !seen.insert(x.clone()) {
            continue;
        }
        if let Some(pack) = out.packs.iter().find(|p| p.manifest.id == x) {
            let m = &pack.manifest;
            stack.extend(m.dependencies.keys().map(|k| k.to_string()));
            stack.extend(m.optional_dependencies.keys().map(|k| k.to_string()));
            stack.extend(m.load_after.iter().map(|k| k.to_string()));
        }
    }
    false
}

type Loc<'a> = dyn Fn(&str) -> Option<Location> + 'a;

/// Largest size of a patched entry, as JSON: 1 MiB, hundreds of times any card.
pub const MAX_PATCHED_ENTRY: usize = 1024 * 1024;

/// Most "did you mean" suggestions for patch targets in one load.
const MAX_SUGGESTIONS: usize = 100;

/// The entry a patch targets (`kind:id`), which some loaded pack defines.
/// A target no pack defines gets "did you mean" for the first
/// [`MAX_SUGGESTIONS`] of a load (`suggested` counts them): each compares
/// against every id of its kind.
fn patch_target(
    out: &Loaded,
    patch: &Patch,
    loc: &Loc<'_>,
    diags: &mut Vec<Diagnostic>,
    suggested: &mut usize,
) -> Option<(Kind, String, Origin)> {
    let Some((kind, id)) = patch.target.split_once(':').and_then(|(k, i)| Some((Kind::from_key(k)?, i.to_string())))
    else {
        let kinds: Vec<String> = Kind::ALL.iter().map(|k| k.key().to_string()).collect();
        let near = patch.target.split_once(':').and_then(|(k, id)| Some((crate::read::suggest(k, &kinds)?, id)));
        diags.push(
            Diagnostic::error(Code::PatchTargetMissing, format!("`{}` is not a `kind:id` reference", patch.target))
                .at_opt(loc("/target"))
                .help(match near {
                    Some((k, id)) => format!("did you mean `{k}:{id}`?"),
                    None => "write the target as `character:hannibal`, `tactic:ice-wall`, ...".to_string(),
                }),
        );
        return None;
    };
    let target = format!("{kind}:{id}");
    let Some(origin) = out.content.origin(kind, &id).cloned() else {
        let near = (*suggested < MAX_SUGGESTIONS).then(|| {
            *suggested += 1;
            let known: Vec<String> = out
                .content
                .metas()
                .into_iter()
                .filter(|(k, ..)| *k == kind)
                .map(|(_, id, ..)| id.to_string())
                .collect();
            crate::read::suggest(&id, &known)
        });
        diags.push(
            Diagnostic::error(Code::PatchTargetMissing, format!("no loaded pack defines `{target}`"))
                .at_opt(loc("/target"))
                .path(target.clone())
                .help(match near.flatten() {
                    Some(s) => format!("did you mean `{kind}:{s}`?"),
                    None => "check the id, and that this pack depends on the pack that defines it".to_string(),
                }),
        );
        return None;
    };
    Some((kind, id, origin))
}
/// A keyed path (`actions[id=x].cost`) of the entry as a JSON Pointer; an
/// index-only path is a warning, a missing key an error.
fn resolve_path(
    target: &str,
    path: &str,
    value: &Value,
    at: &Loc<'_>,
    diags: &mut Vec<Diagnostic>,
    key: &str,
) -> Option<String> {
    // The whole entry at once would lose who set each field (and its id).
    if path.split('.').all(|seg| seg.trim().is_empty()) {
        diags.push(
            Diagnostic::error(Code::PatchKeyNotFound, format!("an op on `{target}` names no field"))
                .at_opt(at(key))
                .path(format!("{target} {key}"))
                .help("name the field (`path = \"initiative\"`), one op per field, or `merge` into a table field such as `defense`"),
        );
        return None;
    }
    match keyed_pointer(value, path) {
        Ok((pointer, index_only)) => {
            if index_only {
                diags.push(
                    Diagnostic::warning(Code::PatchIndexPath, format!("`{path}` selects a list item by its index"))
                        .at_opt(at(key))
                        .help("select it by id instead, such as `actions[id=coordinated-assault]`, so a reordered list does not retarget the patch"),
                );
            }
            Some(pointer)
        }
        Err(e) => {
            // A JSON Pointer written where a keyed path belongs: show the keyed form.
            let help = if path.contains('/') {
                let keyed = path
                    .trim_start_matches('/')
                    .split('/')
                    .map(|seg| if seg.parse::<usize>().is_ok() { format!("[{seg}]") } else { format!(".{seg}") })
                    .collect::<String>();
                format!(
                    "paths are keys joined by dots, list items in brackets: `{}` (by id, `[id=...]`, is safer)",
                    keyed.trim_start_matches('.')
                )
            } else {
                format!("`arena show {target}` prints the entry as it stands")
            };
            diags.push(
                Diagnostic::error(Code::PatchKeyNotFound, format!("`{target}` has no {e}"))
                    .at_opt(at(key))
                    .path(format!("{target} {path}"))
                    .help(help),
            );
            None
        }
    }
}
/// Resolve a keyed path (`actions[id=x].effects[0].text`) in `value` to a JSON
/// Pointer. Returns whether an index alone selected a list item of entries with
/// ids. Errors name what is missing.
pub fn keyed_pointer(value: &Value, path: &str) -> Result<(String, bool), String> {
    let mut pointer = String::new();
    let mut cur = value;
    let mut index_only = false;
    for segment in path.split('.').filter(|s| !s.is_empty()) {
        let (name, selectors) = match segment.find('[') {
            Some(i) => (&segment[..i], &segment[i..]),
            None => (segment, ""),
        };
        if !name.is_empty() {
            cur = cur.get(name).ok_or_else(|| format!("key `{name}` (in `{path}`)"))?;
            pointer.push('/');
            pointer.push_str(&crate::tomljson::escape(name));
        }
        let mut rest = selectors;
        while let Some(inner) = rest.strip_prefix('[') {
            let end = inner.find(']').ok_or_else(|| format!("closing `]` in `{path}`"))?;
            let sel = &inner[..end];
            rest = &inner[end + 1..];
            let items = cur.as_array().ok_or_else(|| format!("list at `{name}` (in `{path}`)"))?;
            let index = if let Some(kv) = sel.strip_prefix("id=") {
                items
                    .iter()
                    .position(|it| it.get("id").and_then(Value::as_str) == Some(kv))
                    .ok_or_else(|| format!("item with id `{kv}` in `{name}` (in `{path}`)"))?
            } else {
                let n: usize = sel
                    .parse()
                    .map_err(|_| format!("selector `[{sel}]` it understands (use `[id=...]` or an index)"))?;
                if n >= items.len() {
                    return Err(format!("item {n} in `{name}`, which has {} (in `{path}`)", items.len()));
                }
                if items.iter().any(|it| it.get("id").is_some()) {
                    index_only = true;
                }
                n
            };
            cur = &items[index];
            pointer.push_str(&format!("/{index}"));
        }
    }
    Ok((pointer, index_only))
}

/// The effective JSON of an entry (`kind:id`): patched if a patch touched it.
pub fn entry_json(loaded: &Loaded, reference: &str) -> Option<Value> {
    if let Some(v) = loaded.effective.get(reference) {
        return Some(v.clone());
    }
    let (k, id) = reference.split_once(':')?;
    let origin = loaded.content.origin(Kind::from_key(k)?, id)?;
    loaded.docs.get(&origin.file)?.get(&origin.pointer).cloned()
}

/// Every entry reference loaded (`kind:id`), sorted.
pub fn references(loaded: &Loaded) -> Vec<String> {
    let mut v: Vec<String> = loaded.content.metas().into_iter().map(|(k, id, _, _)| format!("{k}:{id}")).collect();
    v.sort();
    v.dedup();
    v
}

/// One difference between two selections of packs.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Change {
    /// The entry (`character:hannibal`).
    pub reference: String,
    /// The field, as a keyed path (empty: the whole entry).
    pub path: String,
    /// Its value in the base selection (absent: not there).
    pub before: Option<Value>,
    /// Its value in the other selection (absent: not there).
    pub after: Option<Value>,
}

/// The differences of the effective content of `base` and `other`, field by field.
pub fn diff(base: &Loaded, other: &Loaded) -> Vec<Change> {
    let mut refs: BTreeSet<String> = references(base).into_iter().collect();
    refs.extend(references(other));
    let mut out = Vec::new();
    for r in refs {
        let (a, b) = (entry_json(base, &r), entry_json(other, &r));
        match (&a, &b) {
            (Some(x), Some(y)) => diff_values(&r, "", x, y, &mut out),
            _ => out.push(Change { reference: r, path: String::new(), before: a, after: b }),
        }
    }
    out
}

fn diff_values(r: &str, path: &str, a: &Value, b: &Value, out: &mut Vec<Change>) {
    if a == b {
        return;
    }
    let join = |p: &str, k: &str| if p.is_empty() { k.to_string() } else { format!("{p}.{k}") };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                match (x.get(k), y.get(k)) {
                    (Some(va), Some(vb)) => diff_values(r, &join(path, k), va, vb, out),
                    (va, vb) => out.push(Change {
                        reference: r.into(),
                        path: join(path, k),
                        before: va.cloned(),
                        after: vb.cloned(),
                    }),
                }
            }
        }
        (Value::Array(x), Value::Array(y))
            if x.iter().chain(y).all(|v| v.get("id").and_then(Value::as_str).is_some()) =>
        {
            let id = |v: &Value| v.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
            let ids: BTreeSet<String> = x.iter().chain(y).map(id).collect();
            for i in ids {
                let (va, vb) = (x.iter().find(|v| id(v) == i), y.iter().find(|v| id(v) == i));
                let p = format!("{path}[id={i}]");
                match (va, vb) {
                    (Some(va), Some(vb)) => diff_values(r, &p, va, vb, out),
                    _ => out.push(Change { reference: r.into(), path: p, before: va.cloned(), after: vb.cloned() }),
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                diff_values(r, &format!("{path}[{i}]"), va, vb, out);
            }
        }
        _ => {
            out.push(Change { reference: r.into(), path: path.into(), before: Some(a.clone()), after: Some(b.clone()) })
        }
    }
}
