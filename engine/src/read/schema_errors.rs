//! JSON Schema errors as diagnostics: each error of the validator becomes a
//! coded diagnostic at the key or value it is about, with a hint (did you
//! mean, the allowed values, the expected type).

use crate::diag::{Code, Diagnostic, Location, SourceMap};
use crate::model::Kind;
use crate::tomljson::{self, SpannedDoc};
use serde_json::Value;
use std::path::Path;

pub(super) fn schema_error(
    schema: &Value,
    file: &Path,
    doc: &SpannedDoc,
    sources: &SourceMap,
    e: &jsonschema::ValidationError<'_>,
    out: &mut Vec<Diagnostic>,
) {
    use jsonschema::error::ValidationErrorKind as K;
    let pointer = e.instance_path().as_str().to_string();
    let segments: Vec<String> = pointer.split('/').skip(1).map(unescape).collect();
    let seg_refs: Vec<&str> = segments.iter().map(String::as_str).collect();
    let at_value = |p: &str| doc.value_span(p).map(|s| sources.locate(file, s));
    let at_key = |p: &str| doc.key_span(p).map(|s| sources.locate(file, s));
    let cpath = content_path(doc, &pointer);
    match e.kind() {
        K::AdditionalProperties { unexpected } => {
            let allowed = crate::schema::properties_at(schema, &seg_refs);
            for key in unexpected {
                let p = format!("{pointer}/{}", tomljson::escape(key));
                let mut d = Diagnostic::error(Code::UnknownField, format!("unknown key `{key}`"))
                    .at_opt(at_key(&p))
                    .path(content_path(doc, &p));
                d = match suggest(key, &allowed) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None => d.help(format!("the keys allowed here are: {}", allowed.join(", "))),
                };
                out.push(d);
            }
        }
        K::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            // A misspelt key (`timming`) is reported once, as unknown with a
            // suggestion, not again as the required key it misses.
            let allowed = crate::schema::properties_at(schema, &seg_refs);
            let misspelt = e.instance().as_object().is_some_and(|obj| {
                obj.keys().any(|k| !allowed.contains(k) && suggest(k, &allowed).as_deref() == Some(name))
            });
            if misspelt {
                return;
            }
            let where_ = if pointer.is_empty() { "the file".to_string() } else { format!("`{cpath}`") };
            out.push(
                Diagnostic::error(Code::MissingField, format!("missing required key `{name}` in {where_}"))
                    .at_opt(at_key(&pointer))
                    .path(cpath.clone())
                    .help(if name == "op" && cpath.starts_with("patch[") {
                        // `op` is a list of tables: `op = ...` is not how it is written.
                        "add one `[[patch.op]]` table per operation under this `[[patch]]`, such as \
                         `[[patch.op]]` / `op = \"replace\"` / `path = \"speed\"` / `value = 4` (docs/patches.md)"
                            .to_string()
                    } else {
                        format!("add `{name} = ...`; see the schema's description of `{name}`")
                    }),
            );
        }
        K::Type { kind } => {
            let found = e.instance();
            let expected = type_name(kind);
            out.push(
                Diagnostic::error(
                    Code::WrongType,
                    format!("expected {expected}, found {} {}", json_type(found), short(found)),
                )
                .at_opt(at_value(&pointer))
                .path(cpath.clone())
                .help(type_hint(expected, found)),
            );
        }
        K::Enum { options } => {
            let opts: Vec<String> = options
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
                .unwrap_or_default();
            out.push(enum_error(e.instance(), &opts, at_value(&pointer), cpath.clone()));
        }
        K::AnyOf { context } | K::OneOfNotValid { context }
            if !context.is_empty()
                && context.iter().all(|b| b.len() == 1 && matches!(b[0].kind(), K::Constant { .. })) =>
        {
            // A documented enum: schemars writes each variant as `{ const, description }`.
            let opts: Vec<String> = context
                .iter()
                .filter_map(|b| match b[0].kind() {
                    K::Constant { expected_value } => expected_value.as_str().map(str::to_string),
                    _ => None,
                })
                .collect();
            out.push(enum_error(e.instance(), &opts, at_value(&pointer), cpath.clone()));
        }
        K::AnyOf { context } | K::OneOfNotValid { context } => {
            // Option<T> fields are `anyOf: [T, null]`: report the branch that
            // matched the value's type, so the user sees the real problem.
            let best = context.iter().filter(|branch| !branch.is_empty()).min_by_key(|branch| {
                branch.iter().any(|x| matches!(x.kind(), K::Type { .. }) && x.instance_path() == e.instance_path())
                    as usize
                    * 1000
                    + branch.len()
            });
            match best {
                Some(branch) => {
                    for inner in branch {
                        schema_error(schema, file, doc, sources, inner, out);
                    }
                }
                None => out.push(
                    Diagnostic::error(Code::InvalidValue, e.to_string()).at_opt(at_value(&pointer)).path(cpath.clone()),
                ),
            }
        }
        _ => {
            let (code, help) = match e.kind() {
                K::MinItems { .. } | K::MaxItems { .. } => (Code::InvalidValue, "change the number of items"),
                K::Minimum { .. } | K::Maximum { .. } => (Code::InvalidValue, "use a value in the allowed range"),
                _ => (Code::InvalidValue, "see the schema's description of this key"),
            };
            out.push(
                Diagnostic::error(code, first_line(&e.to_string()))
                    .at_opt(at_value(&pointer))
                    .path(cpath.clone())
                    .help(help),
            );
        }
    }
}

fn enum_error(found: &Value, opts: &[String], loc: Option<Location>, cpath: String) -> Diagnostic {
    let d = Diagnostic::error(Code::InvalidValue, format!("{} is not one of the allowed values", short(found)))
        .at_opt(loc)
        .path(cpath);
    let listed = opts.iter().map(|o| format!("\"{o}\"")).collect::<Vec<_>>().join(", ");
    match found.as_str().and_then(|s| suggest(s, opts)) {
        Some(s) => d.help(format!("did you mean \"{s}\"?")).with_note(format!("allowed: {listed}")),
        None => d.help(format!("allowed: {listed}")),
    }
}

fn first_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or_default();
    crate::diag::shorten(line, 200)
}

fn type_name(kind: &jsonschema::error::TypeKind) -> String {
    use jsonschema::error::TypeKind;
    let one = |t: &jsonschema::JsonType| match t.to_string().as_str() {
        "object" => "a table".to_string(),
        "array" => "an array".to_string(),
        "integer" => "an integer".to_string(),
        "number" => "a number".to_string(),
        "string" => "a string".to_string(),
        "boolean" => "a boolean".to_string(),
        "null" => "nothing".to_string(),
        other => other.to_string(),
    };
    match kind {
        TypeKind::Single(t) => one(t),
        TypeKind::Multiple(ts) => {
            let names: Vec<String> = ts.iter().map(|t| one(&t)).filter(|n| n != "nothing").collect();
            names.join(" or ")
        }
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "nothing",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "table",
    }
}

fn short(v: &Value) -> String {
    let s = match v {
        Value::Object(_) => "{...}".to_string(),
        Value::Array(a) if a.len() > 4 => format!("[... {} items]", a.len()),
        other => other.to_string(),
    };
    if s.len() > 60 { crate::diag::shorten(&s, 57) } else { s }
}

fn type_hint(expected: String, found: &Value) -> String {
    match (expected.as_str(), found) {
        ("an integer", Value::String(s)) => {
            let words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
            match words.iter().position(|w| w.eq_ignore_ascii_case(s.trim())) {
                Some(n) => format!("write the number without quotes: {n}"),
                None => "write a whole number without quotes, such as 3".to_string(),
            }
        }
        ("an integer", Value::Number(_)) => "write a whole number, such as 3".to_string(),
        ("a string", _) => "put the value in double quotes".to_string(),
        ("an array", _) => "write a list in square brackets: [\"a\", \"b\"]".to_string(),
        _ => format!("write {expected} here"),
    }
}

/// The closest allowed name to a misspelt one, if any is close enough.
pub fn suggest<S: AsRef<str>>(name: &str, allowed: &[S]) -> Option<String> {
    // References (`character:gatta`): compare ids of the same kind only, so the
    // shared `character:` does not make every id look near.
    if let Some((kind, id)) = name.split_once(':') {
        let prefix = format!("{kind}:");
        let ids: Vec<String> =
            allowed.iter().filter_map(|a| a.as_ref().strip_prefix(&prefix).map(str::to_string)).collect();
        if !ids.is_empty() {
            return suggest(id, &ids).map(|i| format!("{prefix}{i}"));
        }
    }
    // `zone-4` is not a typo of `zone-1`: names that differ only in digits are distinct.
    let digits_only = |a: &str| {
        a.len() == name.len()
            && a.bytes().zip(name.bytes()).all(|(x, y)| x == y || (x.is_ascii_digit() && y.is_ascii_digit()))
    };
    allowed
        .iter()
        .map(AsRef::as_ref)
        .filter(|a| !digits_only(a))
        .map(|a| (strsim::damerau_levenshtein(name, a), a))
        .filter(|(d, a)| *d <= 2.max(a.len() / 3) && *d < a.len())
        .min_by_key(|(d, a)| (*d, *a))
        .map(|(_, a)| a.to_string())
}

fn unescape(seg: &str) -> String {
    seg.replace("~1", "/").replace("~0", "~")
}

/// The content path of a JSON Pointer in a content file:
/// `/character/0/actions/1/cost` → `character:valkyrie actions[id=frostbite].cost`.
pub fn content_path(doc: &SpannedDoc, pointer: &str) -> String {
    use std::fmt::Write as _;
    // Walk the document once along the pointer (no lookups from the root).
    let segs: Vec<String> = pointer.split('/').skip(1).map(unescape).collect();
    let mut out = String::new();
    let mut cur: Option<&Value> = Some(&doc.value);
    let mut i = 0;
    if segs.len() >= 2 && Kind::from_key(&segs[0]).is_some() {
        if let Ok(n) = segs[1].parse::<usize>() {
            let entry = cur.and_then(|v| v.get(&segs[0])).and_then(|v| v.get(n));
            match entry.and_then(|e| e.get("id")).and_then(Value::as_str) {
                Some(id) => {
                    let _ = write!(out, "{}:{id}", segs[0]);
                }
                None => {
                    let _ = write!(out, "{}[{}]", segs[0], segs[1]);
                }
            }
            cur = entry;
            i = 2;
            if i < segs.len() {
                out.push(' ');
            }
        }
    }
    keyed_segments(cur, &segs[i..], &mut out);
    out
}

/// The keyed path (`actions[id=lunge].effects[0]`) of a JSON Pointer inside
/// one entry's value (`/actions/2/effects/0`): list items by their `id` where
/// they have one. Used for a patched entry, whose items may have moved.
pub fn keyed_path(entry: &Value, pointer: &str) -> String {
    let segs: Vec<String> = pointer.split('/').skip(1).map(unescape).collect();
    let mut out = String::new();
    keyed_segments(Some(entry), &segs, &mut out);
    out
}

fn keyed_segments(mut cur: Option<&Value>, segs: &[String], out: &mut String) {
    use std::fmt::Write as _;
    for (k, s) in segs.iter().enumerate() {
        match (cur, s.parse::<usize>()) {
            (Some(Value::Array(items)), Ok(n)) => {
                let item = items.get(n);
                match item.and_then(|v| v.get("id")).and_then(Value::as_str) {
                    Some(id) => {
                        let _ = write!(out, "[id={id}]");
                    }
                    None => {
                        let _ = write!(out, "[{s}]");
                    }
                }
                cur = item;
            }
            (c, _) => {
                if k > 0 {
                    out.push('.');
                }
                out.push_str(s);
                cur = c.and_then(|v| v.get(s.as_str()));
            }
        }
    }
}
