//! Patches: errata and balance changes as data, applied to the loaded content
//! in pack load order (docs/patches.md).
//!
//! A patch targets one entry (`character:hannibal`) with RFC 6902 operations
//! (and a merge shorthand) whose paths select list items by key
//! (`actions[id=coordinated-assault].effects[0].text`), never by index alone
//! without a warning. An `expect` guard makes a patch fail loudly when the card
//! it was written for has changed. The patched entry is validated against the
//! schema again; a patch that fails in any way is not applied at all. Every
//! field a patch sets records where it was set (provenance), for `arena show`.
//!
//! The operations themselves are `json_patch`'s; this module resolves keyed
//! paths to JSON Pointers, checks guards, and reports.

use crate::diag::{Code, Diagnostic, Location};
pub use crate::loaded::FieldOrigin;
use crate::loaded::{Loaded, PendingPatch};
use crate::model::{Kind, Patch, PatchVerb};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Apply every pending patch of `out` in order, updating its content,
/// provenance and diagnostics.
/// With `strict` (`arena check --strict`), a `replace` of printed text or a
/// number without an `expect` guard is a warning (`patch-unguarded`).
pub fn apply_all(out: &mut Loaded, schema: &(Value, Option<jsonschema::Validator>), strict: bool) {
    let pending = std::mem::take(&mut out.pending_patches);
    // Which field was written by which pack, to find writers with no order between them.
    let mut writers: BTreeMap<(String, String), String> = BTreeMap::new();
    for p in pending {
        let Some(doc) = out.docs.get(&p.file) else { continue };
        let Some(raw) = doc.get(&p.pointer) else { continue };
        let Ok(patch) = Patch::deserialize(raw) else { continue };
        // Locations in the patch file, from a copy of its document (patches are few).
        let doc = out.docs.get(&p.file).cloned().unwrap_or_default();
        let mut sources = crate::diag::SourceMap::default();
        if let Some(text) = out.sources.get(&p.file) {
            sources.insert(p.file.clone(), text.into());
        }
        let loc = |sub: &str| doc.value_span(&format!("{}{sub}", p.pointer)).map(|s| sources.locate(&p.file, s));
        let mut diags = Vec::new();
        let applied = apply_one(out, &p, &patch, &loc, &mut diags, schema, strict);
        if let Some((target, fields)) = applied {
            for f in &fields {
                let key = (target.clone(), f.path.clone());
                if let Some(prev) = writers.get(&key) {
                    if prev != &p.pack && !ordered(out, &p.pack, prev) {
                        diags.push(
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
            out.provenance.entry(target).or_default().extend(fields);
        }
        out.diagnostics.extend(diags);
    }
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
            stack.extend(m.dependencies.keys().cloned());
            stack.extend(m.optional_dependencies.keys().cloned());
            stack.extend(m.load_after.iter().cloned());
        }
    }
    false
}

type Loc<'a> = dyn Fn(&str) -> Option<Location> + 'a;

/// Largest size of a patched entry, as JSON: 1 MiB, hundreds of times any card.
pub const MAX_PATCHED_ENTRY: usize = 1024 * 1024;

fn apply_one(
    out: &mut Loaded,
    p: &PendingPatch,
    patch: &Patch,
    loc: &Loc<'_>,
    diags: &mut Vec<Diagnostic>,
    schema: &(Value, Option<jsonschema::Validator>),
    strict: bool,
) -> Option<(String, Vec<FieldOrigin>)> {
    let (kind, id, origin) = patch_target(out, patch, loc, diags)?;
    let target = format!("{kind}:{id}");
    // The entry as it stands now (earlier patches included).
    let mut value = match out.effective.get(&target) {
        Some(v) => v.clone(),
        None => out.docs.get(&origin.file).and_then(|d| d.get(&origin.pointer)).cloned().unwrap_or(Value::Null),
    };
    let mut fields = Vec::new();
    // Each applied op's index and JSON Pointer, to blame the one that made the
    // entry invalid.
    let mut applied: Vec<(usize, String)> = Vec::new();
    for (i, op) in patch.op.iter().enumerate() {
        let at = |key: &str| loc(&format!("/op/{i}/{key}"));
        let pointer = op_pointer(op, &target, &id, &value, &at, diags)?;
        applied.push((i, pointer.clone()));
        let before = value.pointer(&pointer).cloned();
        check_expect(op, &target, before.as_ref(), &at, diags)?;
        // Printed text or a number replaced blind: a base that changed since
        // would be overwritten without a word.
        let field = op.path.rsplit('.').next().unwrap_or_default();
        let printed = matches!(before, Some(Value::String(_) | Value::Number(_)))
            && !matches!(field, "lua" | "script" | "function" | "note" | "source");
        if strict && op.op == PatchVerb::Replace && op.expect.is_none() && printed {
            diags.push(
                Diagnostic::warning(
                    Code::PatchUnguarded,
                    format!("`{target}` {} is replaced without an `expect` guard", op.path),
                )
                .at_opt(at("op"))
                .path(format!("{target} {}", op.path))
                .with_note(format!(
                    "it is {} now",
                    before.as_ref().map_or("nothing".to_string(), |v| crate::diag::shorten(&v.to_string(), 80))
                ))
                .help("add `expect = ...` with the value the patch was written against"),
            );
        }
        apply_op(op, &target, &pointer, &mut value, &at, diags)?;
        // An entry patched past any card's size (an `add`/`copy` loop doubling
        // it) is refused before it can exhaust memory.
        let size = serde_json::to_vec(&value).map_or(usize::MAX, |v| v.len());
        if size > MAX_PATCHED_ENTRY {
            diags.push(
                Diagnostic::error(
                    Code::PatchInvalid,
                    format!(
                        "this patch makes `{target}` larger than {} KiB; it is not applied",
                        MAX_PATCHED_ENTRY / 1024
                    ),
                )
                .at_opt(at("op"))
                .path(target.clone())
                .help("a card is a few KiB: check the `copy` and `add` operations of this patch"),
            );
            return None;
        }
        if op.op != PatchVerb::Test {
            let line = at("op").map_or(1, |l| l.line);
            fields.push(FieldOrigin {
                path: op.path.clone(),
                pack: p.pack.clone(),
                file: p.file.clone(),
                line,
                reason: patch.reason.clone(),
                before,
            });
        }
    }
    still_valid(schema, kind, &value, &applied, patch, &target, loc, diags)?;
    if !out.content.replace_json(kind, &id, &value) {
        diags.push(
            Diagnostic::error(Code::PatchInvalid, format!("the patched `{target}` does not read back"))
                .at_opt(loc("/target"))
                .help("report this"),
        );
        return None;
    }
    out.effective.insert(target.clone(), value);
    Some((target, fields))
}

/// The entry a patch targets (`kind:id`), which some loaded pack defines.
fn patch_target(
    out: &Loaded,
    patch: &Patch,
    loc: &Loc<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Kind, String, crate::content::Origin)> {
    let Some((kind, id)) = patch.target.split_once(':').and_then(|(k, i)| Some((Kind::from_key(k)?, i.to_string())))
    else {
        diags.push(
            Diagnostic::error(Code::PatchTargetMissing, format!("`{}` is not a `kind:id` reference", patch.target))
                .at_opt(loc("/target"))
                .help("write the target as `character:hannibal`, `tactic:ice-wall`, ..."),
        );
        return None;
    };
    let target = format!("{kind}:{id}");
    let Some(origin) = out.content.origin(kind, &id).cloned() else {
        diags.push(
            Diagnostic::error(Code::PatchTargetMissing, format!("no loaded pack defines `{target}`"))
                .at_opt(loc("/target"))
                .path(target.clone())
                .help("check the id, and that this pack depends on the pack that defines it"),
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

/// Where an op writes, as a JSON Pointer (for `add`, the last segment may be
/// new); a patch may not change the entry's id.
fn op_pointer(
    op: &crate::model::PatchOp,
    target: &str,
    id: &str,
    value: &Value,
    at: &Loc<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    // `move` and `copy` to the end of a list (`actions[-]`) land like an `add`.
    let add = matches!(op.op, PatchVerb::Add)
        || matches!(op.op, PatchVerb::Move | PatchVerb::Copy) && op.path.ends_with("[-]");
    // For `add`, the last segment may be new: resolve the parent.
    let pointer = if add {
        let (parent, last) = split_last(&op.path);
        let parent_ptr = if parent.is_empty() {
            Some(String::new())
        } else {
            resolve_path(target, parent, value, at, diags, "path")
        };
        parent_ptr.map(|pp| {
            let last = last.trim_end_matches("[-]");
            if op.path.ends_with("[-]") {
                format!("{pp}/{}/-", crate::tomljson::escape(last))
            } else {
                format!("{pp}/{}", crate::tomljson::escape(last))
            }
        })
    } else {
        resolve_path(target, &op.path, value, at, diags, "path")
    };
    let pointer = pointer?;
    // An entry's id is its identity: other content refers to it, and a
    // patch names it in `target`. Renaming would leave two entries with one
    // id or dangling references, so it is refused.
    let new_id = op.value.as_ref().and_then(|v| v.get("id"));
    let renames = !matches!(op.op, PatchVerb::Test)
        && (pointer == "/id"
            || pointer.is_empty() && new_id.is_some_and(|v| v.as_str() != Some(id))
            || matches!(op.op, PatchVerb::Move) && op.from.as_deref() == Some("id"));
    if renames {
        diags.push(
            Diagnostic::error(Code::PatchInvalid, format!("a patch cannot change the id of `{target}`"))
                .at_opt(at("path"))
                .path(format!("{target} id"))
                .help("to rename, add a new entry with the new id (and remove this one with a patch from the pack that owns it)"),
        );
        return None;
    }
    Some(pointer)
}

/// An op's `expect` guard: the value it was written against must still be there.
fn check_expect(
    op: &crate::model::PatchOp,
    target: &str,
    before: Option<&Value>,
    at: &Loc<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<()> {
    if let Some(expect) = &op.expect {
        if before != Some(expect) {
            diags.push(
                Diagnostic::error(
                    Code::PatchGuardFailed,
                    format!("`{target}` {} is no longer what this patch was written for", op.path),
                )
                .at_opt(at("expect"))
                .path(format!("{target} {}", op.path))
                .with_note(format!("found: {}", before.map_or("nothing".to_string(), Value::to_string)))
                .help("read the card again and update the patch (and its `expect`), or drop it"),
            );
            return None;
        }
    }
    Some(())
}

/// Apply one op to the entry (RFC 6902 through `json-patch`, or a merge).
fn apply_op(
    op: &crate::model::PatchOp,
    target: &str,
    pointer: &str,
    value: &mut Value,
    at: &Loc<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<()> {
    let mut ops = Vec::new();
    let mut rfc = |verb: &str, extra: Option<(&str, Value)>| {
        let mut o = serde_json::json!({ "op": verb, "path": pointer });
        if let Some((k, v)) = extra {
            o[k] = v;
        }
        ops.push(o);
    };
    match op.op {
        PatchVerb::Add | PatchVerb::Replace | PatchVerb::Test => {
            let Some(v) = op.value.clone() else {
                diags.push(
                    Diagnostic::error(Code::PatchFailed, format!("`{:?}` needs a `value`", op.op).to_lowercase())
                        .at_opt(at("op"))
                        .help("add `value = ...`"),
                );
                return None;
            };
            let verb = match op.op {
                PatchVerb::Add => "add",
                PatchVerb::Replace => "replace",
                _ => "test",
            };
            rfc(verb, Some(("value", v)));
        }
        PatchVerb::Remove => rfc("remove", None),
        PatchVerb::Move | PatchVerb::Copy => {
            let Some(from) = op.from.as_deref() else {
                diags.push(
                    Diagnostic::error(Code::PatchFailed, "this operation needs `from`")
                        .at_opt(at("op"))
                        .help("add `from = \"...\"`"),
                );
                return None;
            };
            let from = resolve_path(target, from, value, at, diags, "from")?;
            rfc(if op.op == PatchVerb::Move { "move" } else { "copy" }, Some(("from", Value::String(from))));
        }
        PatchVerb::Merge => {
            let Some(v) = &op.value else {
                diags.push(
                    Diagnostic::error(Code::PatchFailed, "`merge` needs a `value` table")
                        .at_opt(at("op"))
                        .help("add `value = { ... }`"),
                );
                return None;
            };
            if let Some(slot) = value.pointer_mut(pointer) {
                json_patch::merge(slot, v);
            }
        }
    }
    if !ops.is_empty() {
        let result = serde_json::from_value::<json_patch::Patch>(Value::Array(ops))
            .map_err(|e| e.to_string())
            .and_then(|ps| json_patch::patch(value, &ps).map_err(|e| e.kind.to_string()));
        if let Err(e) = result {
            let code = if op.op == PatchVerb::Test { Code::PatchGuardFailed } else { Code::PatchFailed };
            diags.push(
                Diagnostic::error(
                    code,
                    format!("cannot {} `{target}` {}: {e}", format!("{:?}", op.op).to_lowercase(), op.path),
                )
                .at_opt(at("path"))
                .path(format!("{target} {}", op.path))
                .help(format!("`arena show {target}` prints the entry as it stands")),
            );
            return None;
        }
    }
    Some(())
}

/// The patched entry must still be valid against the schema; the op that
/// made it invalid is blamed.
#[allow(clippy::too_many_arguments)]
fn still_valid(
    schema: &(Value, Option<jsonschema::Validator>),
    kind: Kind,
    value: &Value,
    applied: &[(usize, String)],
    patch: &Patch,
    target: &str,
    loc: &Loc<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<()> {
    // The patched entry must still be valid.
    if let Some(validator) = &schema.1 {
        let wrapped = serde_json::json!({ kind.key(): [value.clone()] });
        let prefix = format!("/{}/0", kind.key());
        let mut blamed = None;
        let errors: Vec<String> = validator
            .iter_errors(&wrapped)
            .map(|e| {
                if blamed.is_none() {
                    // The last op that wrote at, above or below the invalid place
                    // (a missing key is reported at the table that lacks it).
                    let at = e.instance_path().as_str().to_string();
                    let at = at.strip_prefix(&prefix).unwrap_or(&at).to_string();
                    blamed = applied
                        .iter()
                        .rev()
                        .find(|(_, p)| {
                            let p = p.trim_end_matches("/-");
                            *p == at || at.starts_with(&format!("{p}/")) || p.starts_with(&format!("{at}/"))
                        })
                        .map(|(i, _)| *i);
                }
                e.to_string()
            })
            .collect();
        if !errors.is_empty() {
            let at = blamed.and_then(|i| {
                let key = if patch.op[i].value.is_some() { "value" } else { "path" };
                loc(&format!("/op/{i}/{key}"))
            });
            let mut d = Diagnostic::error(
                Code::PatchInvalid,
                format!("this patch would make `{target}` invalid; it is not applied"),
            )
            .at_opt(at.or_else(|| loc("/target")))
            .path(target)
            .help("fix the patch's values so the entry still follows the schema");
            for e in errors.iter().take(5) {
                d = d.with_note(e.lines().next().unwrap_or_default().to_string());
            }
            diags.push(d);
            return None;
        }
    }
    Some(())
}

fn split_last(path: &str) -> (&str, &str) {
    match path.rfind('.') {
        Some(i) if !path[i..].contains(']') || path.ends_with("[-]") => (&path[..i], &path[i + 1..]),
        _ => ("", path),
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

use serde::Deserialize;

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
