//! One patch's operations on an entry's JSON, in place: keyed paths to JSON
//! Pointers, `expect` guards, the RFC 6902 verbs through `json-patch` and the
//! merge shorthand, the size limit, and the undo that takes a failed patch
//! back out exactly (so a patch that fails is not applied at all, without a
//! copy of the entry per patch).

use super::{FieldOrigin, Loc, MAX_PATCHED_ENTRY, Parsed, resolve_path};
use crate::diag::{Code, Diagnostic};
use crate::model::{PatchOp, PatchVerb};
use serde_json::Value;

/// What an applied patch set: its fields (provenance) and each op's index
/// and JSON Pointer.
pub(super) type Applied = (Vec<FieldOrigin>, Vec<(usize, String)>);

/// Apply one patch's ops to `value` (whose serialized size is `size`, kept up
/// to date) and return the fields it set and each op's JSON Pointer; on any
/// failure the diagnostic is pushed and `value` and `size` are as before.
#[allow(clippy::too_many_arguments)]
pub(super) fn apply_patch(
    value: &mut Value,
    size: &mut usize,
    pp: &Parsed,
    target: &str,
    id: &str,
    loc: &Loc<'_>,
    strict: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<Applied> {
    let (start, mut undo) = (*size, Vec::new());
    let done = apply_ops(value, size, &mut undo, pp, target, id, loc, strict, diags);
    if done.is_none() {
        for u in undo.into_iter().rev() {
            u.apply(value);
        }
        *size = start;
    }
    done
}

#[allow(clippy::too_many_arguments)]
fn apply_ops(
    value: &mut Value,
    size: &mut usize,
    undo: &mut Vec<Undo>,
    pp: &Parsed,
    target: &str,
    id: &str,
    loc: &Loc<'_>,
    strict: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<Applied> {
    let (p, patch) = (&pp.pending, &pp.patch);
    let mut fields = Vec::new();
    // Each applied op's index and JSON Pointer, to blame the one that made the
    // entry invalid.
    let mut applied: Vec<(usize, String)> = Vec::new();
    for (i, op) in patch.op.iter().enumerate() {
        let at = |key: &str| loc(&format!("/op/{i}/{key}"));
        let pointer = op_pointer(op, target, id, value, &at, diags)?;
        applied.push((i, pointer.clone()));
        let before = value.pointer(&pointer).cloned();
        check_expect(op, target, before.as_ref(), &at, diags)?;
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
        let from = match op.op {
            PatchVerb::Move | PatchVerb::Copy => Some(from_pointer(op, target, value, &at, diags)?),
            _ => None,
        };
        let shape = Shape::before(op, &pointer, from.as_deref(), value);
        apply_op(op, target, &pointer, from.as_deref(), value, &at, diags)?;
        let (u, delta) = shape.after(op, pointer, from, before.clone(), value);
        undo.push(u);
        *size = size.saturating_add_signed(delta);
        // An entry patched past any card's size (an `add`/`copy` loop doubling
        // it) is refused before it can exhaust memory. The running size is
        // exact or an over-estimate; the entry is measured when it says so.
        if *size > MAX_PATCHED_ENTRY {
            *size = json_size(value);
        }
        if *size > MAX_PATCHED_ENTRY {
            diags.push(
                Diagnostic::error(
                    Code::PatchInvalid,
                    format!(
                        "this patch makes `{target}` larger than {} KiB; it is not applied",
                        MAX_PATCHED_ENTRY / 1024
                    ),
                )
                .at_opt(at("op"))
                .path(target.to_string())
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
    Some((fields, applied))
}

/// Where an op writes, as a JSON Pointer (for `add`, the last segment may be
/// new); a patch may not change the entry's id.
fn op_pointer(
    op: &PatchOp,
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

fn split_last(path: &str) -> (&str, &str) {
    match path.rfind('.') {
        Some(i) if !path[i..].contains(']') || path.ends_with("[-]") => (&path[..i], &path[i + 1..]),
        _ => ("", path),
    }
}

/// An op's `expect` guard: the value it was written against must still be there.
fn check_expect(
    op: &PatchOp,
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

/// The JSON Pointer of a `move`'s or `copy`'s `from`.
fn from_pointer(
    op: &PatchOp,
    target: &str,
    value: &Value,
    at: &Loc<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    let Some(from) = op.from.as_deref() else {
        diags.push(
            Diagnostic::error(Code::PatchFailed, "this operation needs `from`")
                .at_opt(at("op"))
                .help("add `from = \"...\"`"),
        );
        return None;
    };
    resolve_path(target, from, value, at, diags, "from")
}

/// Apply one op to the entry (RFC 6902 through `json-patch`, or a merge);
/// `from` is the resolved `from` of a `move` or `copy`. A failed op leaves
/// the entry as it was.
fn apply_op(
    op: &PatchOp,
    target: &str,
    pointer: &str,
    from: Option<&str>,
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
            let from = Value::String(from.unwrap_or_default().to_string());
            rfc(if op.op == PatchVerb::Move { "move" } else { "copy" }, Some(("from", from)));
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

/// How to take one applied op back out, exactly (key order included).
#[derive(Debug)]
pub(super) enum Undo {
    /// Nothing changed (`test`).
    Nothing,
    /// Put this value back at the pointer (`replace`, `merge`, an `add` over
    /// an existing key).
    Set(String, Value),
    /// Take out what the op added (a list item or a new key).
    Take(String),
    /// Put back what the op removed, at its place: `index` is its key's
    /// position in the object it was in.
    Restore(String, Value, Option<usize>),
    /// A `move`: take the value from `to` (putting back `replaced`, the value
    /// it overwrote there) and restore it at `from`, at `index`.
    MoveBack { from: String, index: Option<usize>, to: String, replaced: Option<Value> },
}

impl Undo {
    pub(super) fn apply(self, value: &mut Value) {
        match self {
            Undo::Nothing => {}
            Undo::Set(p, v) => {
                if let Some(slot) = value.pointer_mut(&p) {
                    *slot = v;
                }
            }
            Undo::Take(p) => {
                take_at(value, &p);
            }
            Undo::Restore(p, v, index) => restore_at(value, &p, v, index),
            Undo::MoveBack { from, index, to, replaced } => {
                let moved = match replaced {
                    Some(r) => value.pointer_mut(&to).map(|slot| std::mem::replace(slot, r)),
                    None => take_at(value, &to),
                };
                if let Some(v) = moved {
                    restore_at(value, &from, v, index);
                }
            }
        }
    }
}

/// What an op's undo and size change need to know of the entry before it runs.
struct Shape {
    /// Whether the parent of `path` is a list (the op inserts) or an object.
    into_list: bool,
    /// Items or keys in that parent.
    parent_len: usize,
    /// For `remove` (at `path`) and `move` (at `from`): the removed key's
    /// position in its object, and how many items or keys its parent had.
    removed: (Option<usize>, usize),
}

impl Shape {
    fn before(op: &PatchOp, pointer: &str, from: Option<&str>, value: &Value) -> Shape {
        let parent = split_pointer(pointer).and_then(|(parent, _)| value.pointer(parent));
        let removed = match (op.op, from) {
            (PatchVerb::Remove, _) => removed_place(value, pointer),
            (PatchVerb::Move, Some(from)) => removed_place(value, from),
            _ => (None, 0),
        };
        Shape { into_list: parent.is_some_and(Value::is_array), parent_len: parent.map_or(0, container_len), removed }
    }

    /// The undo of the op just applied, and how much it changed the
    /// serialized size of the entry (exact, or more than the change for a
    /// `move`). `before` is what `pointer` held before the op.
    fn after(
        self,
        op: &PatchOp,
        pointer: String,
        from: Option<String>,
        before: Option<Value>,
        value: &Value,
    ) -> (Undo, isize) {
        // An `add` to the end of a list (`.../-`) landed at its last index.
        let concrete = match pointer.strip_suffix("/-") {
            Some(parent) if self.into_list => {
                let len = value.pointer(parent).map_or(0, container_len);
                format!("{parent}/{}", len.saturating_sub(1))
            }
            _ => pointer.clone(),
        };
        let now_size = value.pointer(&concrete).map_or(0, json_size);
        let before_size = before.as_ref().map_or(0, json_size);
        let key_cost = |p: &str| if self.into_list { 0 } else { split_pointer(p).map_or(0, |(_, k)| key_size(&k)) };
        match op.op {
            PatchVerb::Test => (Undo::Nothing, 0),
            PatchVerb::Replace => (Undo::Set(pointer, before.unwrap_or(Value::Null)), diff(now_size, before_size)),
            PatchVerb::Merge => match before {
                Some(b) => (Undo::Set(pointer, b), diff(now_size, before_size)),
                None => (Undo::Nothing, 0),
            },
            PatchVerb::Remove => {
                let (index, len) = self.removed;
                let cost = before_size + key_cost(&pointer) + usize::from(len >= 2);
                (Undo::Restore(pointer, before.unwrap_or(Value::Null), index), -(cost as isize))
            }
            PatchVerb::Add | PatchVerb::Copy => match before {
                Some(b) if !self.into_list => (Undo::Set(concrete, b), diff(now_size, before_size)),
                _ => {
                    let grew = now_size + key_cost(&concrete) + usize::from(self.parent_len >= 1);
                    (Undo::Take(concrete), grew as isize)
                }
            },
            PatchVerb::Move => {
                let replaced = if self.into_list { None } else { before };
                // The value moved keeps its size; its new key and a
                // separator may be new (what left `from` is not counted off).
                let grew = key_cost(&concrete) + 1;
                let from = from.unwrap_or_default();
                (Undo::MoveBack { from, index: self.removed.0, to: concrete, replaced }, grew as isize)
            }
        }
    }
}

/// A removed key's position in its object (`None` in a list) and how many
/// items or keys its parent has.
fn removed_place(value: &Value, pointer: &str) -> (Option<usize>, usize) {
    let Some((parent, key)) = split_pointer(pointer) else { return (None, 0) };
    match value.pointer(parent) {
        Some(Value::Object(o)) => (o.keys().position(|k| *k == key), o.len()),
        Some(Value::Array(a)) => (None, a.len()),
        _ => (None, 0),
    }
}

fn diff(now: usize, before: usize) -> isize {
    now as isize - before as isize
}

fn container_len(v: &Value) -> usize {
    match v {
        Value::Array(a) => a.len(),
        Value::Object(o) => o.len(),
        _ => 0,
    }
}

/// A key's share of its object's JSON: the quoted key and its colon.
fn key_size(key: &str) -> usize {
    json_size(&Value::String(key.to_string())) + 1
}

/// A JSON Pointer's parent and last segment (decoded); `None` for the root.
fn split_pointer(p: &str) -> Option<(&str, String)> {
    let i = p.rfind('/')?;
    Some((&p[..i], p[i + 1..].replace("~1", "/").replace("~0", "~")))
}

/// Remove what is at `p` (a list item, shifting the rest, or a key, keeping
/// the order of the others).
fn take_at(value: &mut Value, p: &str) -> Option<Value> {
    let (parent, key) = split_pointer(p)?;
    match value.pointer_mut(parent)? {
        Value::Array(a) => {
            let i = key.parse::<usize>().ok().filter(|i| *i < a.len())?;
            Some(a.remove(i))
        }
        Value::Object(o) => o.shift_remove(&key),
        _ => None,
    }
}

/// Put `v` back at `p`: into a list at its index, or into an object at
/// `index`, undoing the swap-remove `json-patch` removes keys with (the last
/// key took the removed one's place: it goes back to the end).
fn restore_at(value: &mut Value, p: &str, v: Value, index: Option<usize>) {
    let Some((parent, key)) = split_pointer(p) else {
        *value = v;
        return;
    };
    match value.pointer_mut(parent) {
        Some(Value::Array(a)) => {
            if let Ok(i) = key.parse::<usize>() {
                a.insert(i.min(a.len()), v);
            }
        }
        Some(Value::Object(o)) => match index {
            Some(i) if i < o.len() => {
                if let Some(last) = o.keys().nth(i).cloned().filter(|k| *k != key) {
                    if let Some(moved) = o.shift_remove(&last) {
                        o.insert(last, moved);
                    }
                }
                o.shift_insert(i, key, v);
            }
            _ => {
                o.insert(key, v);
            }
        },
        _ => {}
    }
}

/// The length of a value's JSON, without building it.
pub(super) fn json_size(v: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0 += b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    serde_json::to_writer(&mut c, v).map_or(usize::MAX, |()| c.0)
}

#[cfg(test)]
mod tests;
