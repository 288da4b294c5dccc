//! Loading packs from disk: the only module that reads files.
//!
//! [`load`] finds the packs under the given paths, reads each manifest, resolves
//! dependencies and load order, reads every content file (size limit, UTF-8,
//! TOML with spans), validates it against the generated JSON Schema, and builds
//! the [`Content`] from every entry that is valid. It never stops at the first
//! problem: it returns what it could build plus every [`Diagnostic`]. It never
//! writes a file and never panics on bad input.
//!
//! Semantic checks that need all content at once (references, dice limits,
//! scripts) live in `validate`, which `load` runs last.

use crate::content::{Content, Origin};
use crate::diag::{Code, Diagnostic, Location, SourceMap};
use crate::model::{Kind, Manifest};
use crate::tomljson::{self, SpannedDoc};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// The manifest file name of a pack.
pub const MANIFEST: &str = "pack.toml";

/// A pack's folder of situation files (docs/situations.md), which are not content.
pub const SITUATIONS: &str = "situations";

/// Loader settings.
#[derive(Debug, Clone)]
pub struct Options {
    /// Largest content, manifest or script file read, in bytes (default 8 MiB).
    pub max_file_size: u64,
    /// Compile every Lua script and inline effect (default true).
    pub compile_scripts: bool,
    /// Run the packs' own `*.test.lua` script tests (default true).
    pub run_script_tests: bool,
    /// Limits of the Lua VM that runs script tests.
    pub limits: crate::script::runtime::Limits,
    /// Build the notes (provisional entries, effects without Lua) as diagnostics;
    /// off, they are only counted (`arena check --strict` turns them on).
    pub notes: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_file_size: 8 * 1024 * 1024,
            compile_scripts: true,
            run_script_tests: true,
            limits: crate::script::runtime::Limits::default(),
            notes: false,
        }
    }
}

/// A pack that was found and whose manifest could be read.
#[derive(Debug, Clone)]
pub struct Pack {
    /// The manifest.
    pub manifest: Manifest,
    /// Its version, when it parses as semver.
    pub version: Option<semver::Version>,
    /// The pack folder, as found.
    pub root: PathBuf,
    /// Content files (`*.toml` other than the manifest), sorted.
    pub content_files: Vec<PathBuf>,
    /// Lua files, sorted, by path relative to the pack root.
    pub scripts: BTreeMap<String, PathBuf>,
    /// Situation files (`situations/*.toml`), sorted: `arena check` plays them.
    pub situations: Vec<PathBuf>,
}

/// Everything `load` produced.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Packs in load order.
    pub packs: Vec<Pack>,
    /// Every valid entry.
    pub content: Content,
    /// Every problem found, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// The text of every file read, for rendering.
    pub sources: SourceMap,
    /// The parsed form of every content file and manifest, with spans.
    pub docs: BTreeMap<PathBuf, SpannedDoc>,
    /// Number of content files read.
    pub files: usize,
    /// Number of Lua sources compiled (files and inline effects).
    pub scripts: usize,
    /// Every script that compiled, ready for a VM (`script::runtime::Runtime`).
    pub script_set: Arc<crate::script::runtime::ScriptSet>,
    /// Script test cases run (`*.test.lua`).
    pub script_tests: usize,
    /// Provisional entries.
    pub provisional_entries: usize,
    /// Effects with no Lua.
    pub unsupported_effects: usize,
    /// Known gaps the packs declare (`[[gap]]` in pack.toml).
    pub gaps: usize,
    /// Patches found, applied once every content file is in.
    pub pending_patches: Vec<crate::patch::Pending>,
    /// For each patched entry (`kind:id`), where each patched field was set.
    pub provenance: BTreeMap<String, Vec<crate::patch::FieldOrigin>>,
    /// The effective (patched) form of each patched entry, as JSON.
    pub effective: BTreeMap<String, Value>,
}

impl Loaded {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }

    /// Location of a JSON Pointer in a file that was read: its value's span.
    pub fn locate(&self, file: &Path, pointer: &str) -> Option<Location> {
        let span = self.docs.get(file)?.value_span(pointer)?;
        Some(self.sources.locate(file, span))
    }

    /// Location of a key in a file that was read (falls back to the value).
    pub fn locate_key(&self, file: &Path, pointer: &str) -> Option<Location> {
        let span = self.docs.get(file)?.key_span(pointer)?;
        Some(self.sources.locate(file, span))
    }
}

/// Find the pack folders under `paths`: a path that holds a `pack.toml` is a
/// pack; otherwise each immediate subfolder holding one is (sorted by name).
pub fn discover(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<Diagnostic>) {
    let mut roots = Vec::new();
    let mut diags = Vec::new();
    for path in paths {
        let path = if path.file_name().is_some_and(|n| n == MANIFEST) {
            path.parent().map(Path::to_path_buf).unwrap_or_default()
        } else {
            path.clone()
        };
        if !path.is_dir() {
            diags.push(
                Diagnostic::error(Code::Io, format!("`{}` is not a folder that can be read", path.display()))
                    .help("give the path of a pack folder, or of a folder of packs"),
            );
            continue;
        }
        if path.join(MANIFEST).is_file() {
            roots.push(path);
            continue;
        }
        let mut found: Vec<PathBuf> = match std::fs::read_dir(&path) {
            Ok(rd) => rd.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.join(MANIFEST).is_file()).collect(),
            Err(e) => {
                diags.push(Diagnostic::error(Code::Io, format!("cannot read `{}`: {e}", path.display())));
                continue;
            }
        };
        if found.is_empty() {
            diags.push(
                Diagnostic::error(Code::NotAPack, format!("no pack found in `{}`", path.display()))
                    .help(format!("a pack is a folder with a `{MANIFEST}`; see docs/packs.md")),
            );
        }
        found.sort();
        roots.extend(found);
    }
    // The same pack given twice (or through a link) loads once.
    let mut seen = std::collections::HashSet::new();
    roots.retain(|r| seen.insert(r.canonicalize().unwrap_or_else(|_| r.clone())));
    (roots, diags)
}

/// Load the packs under `paths` (see [`discover`]), resolve them and validate
/// everything. Never panics; every problem is a diagnostic in the result.
pub fn load(paths: &[PathBuf], options: &Options) -> Loaded {
    let (roots, diags) = discover(paths);
    load_packs(&roots, diags, options)
}

/// Load the given pack folders.
pub fn load_packs(roots: &[PathBuf], diags: Vec<Diagnostic>, options: &Options) -> Loaded {
    let mut out = Loaded { diagnostics: diags, ..Loaded::default() };
    let schemas = Schemas::new();

    // 1. Manifests and file lists.
    let mut packs = Vec::new();
    let mut manifest_files = Vec::new();
    for root in roots {
        let manifest_path = root.join(MANIFEST);
        let Some(text) = read_text(&manifest_path, options, &mut out) else {
            continue;
        };
        let Some(doc) = parse_toml(&manifest_path, &text, &mut out) else {
            continue;
        };
        let (errors, _) = schemas.check(&schemas.manifest, &manifest_path, &doc, &out.sources);
        let ok = errors.is_empty();
        out.diagnostics.extend(errors);
        check_ids(&manifest_path, &doc, &out.sources, &mut out.diagnostics);
        let manifest = if ok { serde_json::from_value::<Manifest>(doc.value.clone()).ok() } else { None };
        out.docs.insert(manifest_path.clone(), doc);
        let Some(manifest) = manifest else { continue };
        let version = match semver::Version::parse(&manifest.version) {
            Ok(v) => Some(v),
            Err(e) => {
                let loc = out.locate(&manifest_path, "/version");
                out.diagnostics.push(
                    Diagnostic::error(
                        Code::InvalidVersion,
                        format!("`{}` is not a semantic version: {e}", manifest.version),
                    )
                    .at_opt(loc)
                    .path("version")
                    .help("write MAJOR.MINOR.PATCH, such as \"1.0.0\""),
                );
                None
            }
        };
        let (content_files, scripts, situations) = walk_pack(root, options, &mut out);
        packs.push(Pack { manifest, version, root: root.clone(), content_files, scripts, situations });
        manifest_files.push(manifest_path);
    }

    // 2. Resolution.
    let nodes: Vec<crate::resolve::Node<'_>> =
        packs.iter().map(|p| crate::resolve::Node { manifest: &p.manifest, version: p.version.as_ref() }).collect();
    let (order, findings) = crate::resolve::resolve(&nodes);
    for f in findings {
        let file = &manifest_files[f.pack];
        let loc = out.locate_key(file, &f.pointer);
        let path = f.pointer.trim_start_matches('/').replace('/', ".");
        out.diagnostics.push(f.diagnostic.at_opt(loc).path(path));
    }
    let mut slots: Vec<Option<Pack>> = packs.into_iter().map(Some).collect();
    out.packs = order.into_iter().filter_map(|i| slots[i].take()).collect();

    // 3. Content files, pack by pack in load order.
    for pi in 0..out.packs.len() {
        let files = out.packs[pi].content_files.clone();
        let pack_id = out.packs[pi].manifest.id.clone();
        for file in files {
            load_content_file(&pack_id, &file, &schemas, options, &mut out);
        }
    }

    // 4. Patches, in load order, on the content they depend on.
    crate::patch::apply_all(&mut out, &schemas.content);

    // 5. Checks across all content.
    let report = crate::validate::validate(&out, options);
    out.diagnostics.extend(report.diagnostics);
    out.scripts = report.compiled;
    out.provisional_entries = report.provisional;
    out.unsupported_effects = report.unsupported;
    out.gaps = report.gaps;
    out.script_set = report.scripts;
    for (path, text) in report.sources {
        out.sources.insert(path, text);
    }
    if options.run_script_tests && options.compile_scripts {
        let tests = crate::script::packtest::run_all(&out, options.limits);
        out.script_tests = tests.run;
        out.diagnostics.extend(tests.diagnostics);
        let missing = crate::script::packtest::check_functions(&out, options.limits);
        out.diagnostics.extend(missing);
    }
    // Present problems in reading order: those without a file first, then by file and position.
    out.diagnostics.sort_by(|a, b| {
        let key =
            |d: &Diagnostic| d.location.as_ref().map(|l| (l.file.clone(), l.span.as_ref().map_or(0, |s| s.start)));
        key(a).cmp(&key(b))
    });
    out
}

/// The compiled schemas and their JSON, for hints.
struct Schemas {
    content: (Value, Option<jsonschema::Validator>),
    manifest: (Value, Option<jsonschema::Validator>),
}

impl Schemas {
    fn new() -> Self {
        let build = |v: Value| {
            let validator = jsonschema::draft7::new(&v).ok();
            (v, validator)
        };
        Schemas { content: build(crate::schema::content_schema()), manifest: build(crate::schema::manifest_schema()) }
    }

    /// Validate a document; every error becomes a diagnostic. Also returns the
    /// JSON Pointers of the invalid values.
    fn check(
        &self,
        schema: &(Value, Option<jsonschema::Validator>),
        file: &Path,
        doc: &SpannedDoc,
        sources: &SourceMap,
    ) -> (Vec<Diagnostic>, Vec<String>) {
        let Some(validator) = &schema.1 else {
            return (Vec::new(), Vec::new());
        };
        // The common case, a valid file, without collecting errors.
        if validator.is_valid(&doc.value) {
            return (Vec::new(), Vec::new());
        }
        let mut out = Vec::new();
        let mut pointers = Vec::new();
        for e in validator.iter_errors(&doc.value) {
            pointers.push(e.instance_path().as_str().to_string());
            schema_error(&schema.0, file, doc, sources, &e, &mut out);
        }
        (out, pointers)
    }
}

fn schema_error(
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
pub fn suggest(name: &str, allowed: &[String]) -> Option<String> {
    // References (`character:gatta`): compare ids of the same kind only, so the
    // shared `character:` does not make every id look near.
    if let Some((kind, id)) = name.split_once(':') {
        let prefix = format!("{kind}:");
        let ids: Vec<String> = allowed.iter().filter_map(|a| a.strip_prefix(&prefix).map(str::to_string)).collect();
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
        .filter(|a| !digits_only(a))
        .map(|a| (strsim::damerau_levenshtein(name, a), a))
        .filter(|(d, a)| *d <= 2.max(a.len() / 3) && *d < a.len())
        .min_by_key(|(d, a)| (*d, (*a).clone()))
        .map(|(_, a)| a.clone())
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
    let mut first = true;
    while i < segs.len() {
        let s = &segs[i];
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
                if !first {
                    out.push('.');
                }
                out.push_str(s);
                cur = c.and_then(|v| v.get(s.as_str()));
            }
        }
        first = false;
        i += 1;
    }
    out
}

/// Read a file as text, with the size limit and a UTF-8 check; record its text.
fn read_text(path: &Path, options: &Options, out: &mut Loaded) -> Option<Arc<str>> {
    let bytes = read_bytes(path, options, out)?;
    match String::from_utf8(bytes) {
        Ok(text) => {
            let text: Arc<str> = text.into();
            out.sources.insert(path.to_path_buf(), text.clone());
            Some(text)
        }
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let prefix = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
            let (line, column) = crate::diag::line_column(&prefix, prefix.len());
            out.diagnostics.push(
                Diagnostic::error(Code::NotUtf8, format!("file is not valid UTF-8 (invalid byte at offset {valid})"))
                    .at(Location { file: path.to_path_buf(), span: Some(valid..valid + 1), line, column })
                    .help("save the file as UTF-8"),
            );
            None
        }
    }
}

/// Read a file's bytes with the size limit.
pub(crate) fn read_bytes(path: &Path, options: &Options, out: &mut Loaded) -> Option<Vec<u8>> {
    let whole = |path: &Path| Location { file: path.to_path_buf(), span: None, line: 1, column: 1 };
    match std::fs::metadata(path) {
        Ok(m) if m.len() > options.max_file_size => {
            out.diagnostics.push(
                Diagnostic::error(
                    Code::FileTooLarge,
                    format!("file is {} bytes, over the limit of {} bytes", m.len(), options.max_file_size),
                )
                .at(whole(path))
                .help("split the content into several files, or raise the limit with --max-file-size"),
            );
            return None;
        }
        Ok(_) => {}
        Err(e) => {
            out.diagnostics.push(Diagnostic::error(Code::Io, format!("cannot read file: {e}")).at(whole(path)));
            return None;
        }
    }
    match std::fs::read(path) {
        Ok(b) => Some(b),
        Err(e) => {
            out.diagnostics.push(Diagnostic::error(Code::Io, format!("cannot read file: {e}")).at(whole(path)));
            None
        }
    }
}

fn parse_toml(path: &Path, text: &str, out: &mut Loaded) -> Option<SpannedDoc> {
    match tomljson::parse(text) {
        Ok(doc) => Some(doc),
        Err(errors) => {
            for e in errors {
                let loc = match e.span {
                    Some(s) => out.sources.locate(path, s),
                    None => Location { file: path.to_path_buf(), span: None, line: 1, column: 1 },
                };
                out.diagnostics.push(
                    Diagnostic::error(Code::TomlSyntax, format!("invalid TOML: {}", e.message))
                        .at(loc)
                        .help("see https://toml.io for the syntax; strings need quotes, tables [[kind]] headers"),
                );
            }
            None
        }
    }
}

/// Walk a pack folder: content files and scripts, refusing anything that leads outside.
#[allow(clippy::type_complexity)]
fn walk_pack(
    root: &Path,
    options: &Options,
    out: &mut Loaded,
) -> (Vec<PathBuf>, BTreeMap<String, PathBuf>, Vec<PathBuf>) {
    let _ = options;
    let mut content = Vec::new();
    let mut scripts = BTreeMap::new();
    let mut situations = Vec::new();
    let canonical_root = match root.canonicalize() {
        Ok(c) => c,
        Err(e) => {
            out.diagnostics
                .push(Diagnostic::error(Code::Io, format!("cannot read pack folder `{}`: {e}", root.display())));
            return (content, scripts, situations);
        }
    };
    let walker = walkdir::WalkDir::new(root).follow_links(false).sort_by_file_name().into_iter();
    for entry in walker.filter_entry(|e| e.depth() == 0 || !is_ignored(e.file_name().to_string_lossy().as_ref())) {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                out.diagnostics
                    .push(Diagnostic::error(Code::Io, format!("cannot read inside `{}`: {e}", root.display())));
                continue;
            }
        };
        let path = entry.path().to_path_buf();
        let ft = entry.file_type();
        let is_file = if ft.is_symlink() {
            match path.canonicalize() {
                Ok(target) if target.starts_with(&canonical_root) => target.is_file(),
                Ok(_) => {
                    let written = std::fs::read_link(&path).unwrap_or_default();
                    out.diagnostics.push(
                        Diagnostic::error(
                            Code::PathEscapesPack,
                            format!("symbolic link points outside the pack, to `{}`", written.display()),
                        )
                        .at(Location { file: path.clone(), span: None, line: 1, column: 1 })
                        .help("copy the file into the pack instead of linking to it"),
                    );
                    continue;
                }
                Err(_) => {
                    out.diagnostics.push(
                        Diagnostic::warning(Code::Io, "symbolic link whose target does not exist; skipped")
                            .at(Location { file: path.clone(), span: None, line: 1, column: 1 }),
                    );
                    continue;
                }
            }
        } else {
            ft.is_file()
        };
        if !is_file {
            continue;
        }
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
        let rel = path.strip_prefix(root).unwrap_or(&path);
        // `situations/` holds the pack's situation files (`arena run`), not content.
        if ext == "toml" && rel.starts_with(SITUATIONS) {
            situations.push(path);
        } else if ext == "toml" && rel != Path::new(MANIFEST) {
            content.push(path);
        } else if ext == "lua" || ext == "luau" {
            scripts.insert(rel_key(rel), path);
        }
    }
    (content, scripts, situations)
}

/// The text of every pack's situation files, in pack order (read here: `load`
/// is the only module that reads files); an unreadable one gives its error.
pub fn situation_texts(loaded: &Loaded) -> Vec<(PathBuf, Result<String, String>)> {
    loaded
        .packs
        .iter()
        .flat_map(|p| p.situations.iter())
        .map(|f| (f.clone(), std::fs::read_to_string(f).map_err(|e| format!("cannot read it: {e}"))))
        .collect()
}

/// Editor droppings and hidden files are not content.
pub fn is_ignored(name: &str) -> bool {
    name.starts_with('.')
        || name.starts_with('#')
        || name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name.ends_with(".tmp")
        || name == "target"
}

/// A relative path as a `/`-separated key.
pub fn rel_key(rel: &Path) -> String {
    rel.components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn load_content_file(pack: &str, file: &Path, schemas: &Schemas, options: &Options, out: &mut Loaded) {
    out.files += 1;
    let Some(text) = read_text(file, options, out) else {
        return;
    };
    let Some(doc) = parse_toml(file, &text, out) else {
        return;
    };
    let (errors, bad_pointers) = schemas.check(&schemas.content, file, &doc, &out.sources);
    check_ids(file, &doc, &out.sources, &mut out.diagnostics);
    out.diagnostics.extend(errors);
    // Entries with no schema error in or above them load; the others are skipped.
    // The invalid entries, as `/kind/index`, once (not a scan per entry).
    let whole_file_bad = bad_pointers.iter().any(|b| b.split('/').filter(|x| !x.is_empty()).count() < 2);
    let bad_entries: std::collections::HashSet<String> = bad_pointers
        .iter()
        .filter_map(|b| {
            let mut segs = b.split('/').skip(1);
            Some(format!("/{}/{}", segs.next()?, segs.next()?))
        })
        .collect();
    out.docs.insert(file.to_path_buf(), doc);
    let doc = &out.docs[file];
    let mut entries = Vec::new();
    let mut pending = Vec::new();
    if let Value::Object(map) = &doc.value {
        for (key, items) in map {
            if key == "patch" {
                if let Value::Array(patches) = items {
                    for i in 0..patches.len() {
                        let pointer = format!("/patch/{i}");
                        let clean = !whole_file_bad && !bad_entries.contains(&pointer);
                        if clean {
                            pending.push(crate::patch::Pending {
                                pack: pack.to_string(),
                                file: file.to_path_buf(),
                                pointer,
                            });
                        }
                    }
                }
                continue;
            }
            let Some(kind) = Kind::from_key(key) else {
                // The schema refuses a key it does not define (reported above);
                // one it allows without a kind would be dropped unread: never silently.
                if !whole_file_bad {
                    let at = doc.key_span(&format!("/{key}")).map(|s| out.sources.locate(file, s));
                    out.diagnostics.push(
                        Diagnostic::error(Code::UnknownField, format!("no kind of content is called `{key}`"))
                            .at_opt(at)
                            .help(format!(
                                "the kinds are: {}",
                                Kind::ALL.iter().map(|k| k.key()).collect::<Vec<_>>().join(", ")
                            )),
                    );
                }
                continue;
            };
            let Value::Array(items) = items else { continue };
            for i in 0..items.len() {
                let pointer = format!("/{key}/{i}");
                let clean = !whole_file_bad && !bad_entries.contains(&pointer);
                if !clean {
                    continue;
                }
                let origin =
                    Origin { pack: pack.to_string(), file: file.to_path_buf(), span: doc.key_span(&pointer), pointer };
                entries.push((kind, origin));
            }
        }
    }
    out.pending_patches.extend(pending);
    // Deserialize straight from the stored document (no copy of the entry).
    let mut duplicates = Vec::new();
    {
        let doc = &out.docs[file];
        for (kind, origin) in entries {
            let Some(item) = doc.get(&origin.pointer) else { continue };
            if let Err(pair) = out.content.insert_json(kind, item, origin) {
                duplicates.push((kind, pair));
            }
        }
    }
    for (kind, (second, first)) in duplicates {
        duplicate_id(kind, second, first, out);
    }
}

fn duplicate_id(kind: Kind, second: Origin, first: Origin, out: &mut Loaded) {
    let id = out
        .docs
        .get(&second.file)
        .and_then(|d| d.get(&format!("{}/id", second.pointer)))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    {
        let loc = out.locate(&second.file, &format!("{}/id", second.pointer));
        let first_loc = out
            .locate(&first.file, &format!("{}/id", first.pointer))
            .map(|l| format!("{}:{}:{}", l.file.display(), l.line, l.column))
            .unwrap_or_else(|| first.file.display().to_string());
        let same_pack = first.pack == second.pack;
        let mut d = Diagnostic::error(Code::DuplicateId, format!("`{kind}:{id}` is defined twice"))
            .at_opt(loc)
            .path(format!("{kind}:{id}"))
            .with_note(format!("first defined in pack `{}` at {first_loc}", first.pack));
        d = if same_pack {
            d.help("give one of them another id")
        } else {
            d.help(format!(
                "to change `{kind}:{id}` from pack `{}`, write a patch instead of a second definition (docs/packs.md)",
                first.pack
            ))
        };
        out.diagnostics.push(d);
    }
}

/// Every `id` must be kebab-case: lowercase letters and digits joined by single hyphens.
fn check_ids(file: &Path, doc: &SpannedDoc, sources: &SourceMap, diags: &mut Vec<Diagnostic>) {
    fn walk(v: &Value, pointer: &str, found: &mut Vec<(String, String)>) {
        match v {
            Value::Object(m) => {
                for (k, child) in m {
                    let p = format!("{pointer}/{}", tomljson::escape(k));
                    if k == "id" {
                        if let Value::String(s) = child {
                            if !is_kebab(s) {
                                found.push((p.clone(), s.clone()));
                            }
                        }
                    }
                    walk(child, &p, found);
                }
            }
            Value::Array(a) => {
                for (i, child) in a.iter().enumerate() {
                    walk(child, &format!("{pointer}/{i}"), found);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk(&doc.value, "", &mut found);
    for (p, id) in found {
        let loc = doc.value_span(&p).map(|s| sources.locate(file, s));
        diags.push(
            Diagnostic::error(Code::InvalidId, format!("id \"{id}\" is not kebab-case"))
                .at_opt(loc)
                .path(content_path(doc, &p))
                .help(format!("use lowercase letters, digits and single hyphens, such as \"{}\"", to_kebab(&id))),
        );
    }
}

/// Whether a string is a kebab-case id (`ice-wall`, `zone-1`).
pub fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.split('-')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

fn to_kebab(s: &str) -> String {
    let mut out = String::new();
    let folded = s.chars().map(|c| match c {
        'á' | 'à' | 'â' | 'ä' | 'ã' | 'Á' | 'À' | 'Â' | 'Ä' => 'a',
        'é' | 'è' | 'ê' | 'ë' | 'É' | 'È' => 'e',
        'í' | 'ì' | 'î' | 'ï' | 'Í' => 'i',
        'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'Ó' | 'Ö' => 'o',
        'ú' | 'ù' | 'û' | 'ü' | 'Ú' | 'Ü' => 'u',
        'ñ' | 'Ñ' => 'n',
        'ç' | 'Ç' => 'c',
        other => other,
    });
    for c in folded {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// Whether a path written in content stays inside its pack: relative, with no
/// `..`, root or drive prefix.
pub fn path_stays_inside(path: &str) -> bool {
    let p = Path::new(path);
    !path.starts_with('/')
        && !path.starts_with('\\')
        && !path.contains(':')
        && p.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

impl Loaded {
    /// A hash of everything loaded: for each pack in load order its id, version
    /// and every file (path inside the pack, text), as hex BLAKE3. Paths are
    /// relative to the pack, so the same packs hash the same wherever they are.
    pub fn content_hash(&self) -> String {
        let mut h = blake3::Hasher::new();
        for pack in &self.packs {
            h.update(pack.manifest.id.as_bytes());
            h.update(b"@");
            h.update(pack.manifest.version.as_bytes());
            h.update(b"\n");
            h.update(self.pack_hash(pack).as_bytes());
        }
        h.finalize().to_hex().to_string()
    }

    /// A hash of one pack's files (path inside the pack, text), as hex BLAKE3.
    pub fn pack_hash(&self, pack: &Pack) -> String {
        let mut h = blake3::Hasher::new();
        let mut files: Vec<&PathBuf> = pack.content_files.iter().chain(pack.scripts.values()).collect();
        files.sort();
        let manifest = pack.root.join(MANIFEST);
        for f in std::iter::once(&manifest).chain(files) {
            let rel = f.strip_prefix(&pack.root).unwrap_or(f);
            h.update(rel_key(rel).as_bytes());
            h.update(b"\0");
            h.update(self.sources.get(f).unwrap_or_default().as_bytes());
            h.update(b"\0");
        }
        h.finalize().to_hex().to_string()
    }

    /// The lockfile of this load (`arena.lock`): every pack in load order with
    /// its version and content hash.
    pub fn lockfile(&self) -> String {
        let mut s = String::from(
            "# arena.lock: the packs `arena check --locked` expects, in load order. Written by `arena lock`.\n",
        );
        for p in &self.packs {
            s.push_str(&format!(
                "\n[[pack]]\nid = \"{}\"\nversion = \"{}\"\nhash = \"{}\"\n",
                p.manifest.id,
                p.manifest.version,
                self.pack_hash(p)
            ));
        }
        s
    }
}

/// What a load amounted to, for the one-line summary and `--format json`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Summary {
    /// Packs in load order, as `id@version`.
    pub packs: Vec<String>,
    /// Entries by kind (only kinds with entries), in kind order.
    pub entries: BTreeMap<String, usize>,
    /// Content files read.
    pub files: usize,
    /// Lua sources compiled.
    pub scripts: usize,
    /// Script test cases run.
    pub script_tests: usize,
    /// Diagnostics by severity.
    pub errors: usize,
    /// Warnings.
    pub warnings: usize,
    /// Provisional entries (`--strict` lists them).
    pub provisional: usize,
    /// Effects with no Lua yet.
    pub unsupported_effects: usize,
    /// Things the rulebooks name that the packs say they leave out.
    #[serde(skip_serializing_if = "is_zero")]
    pub gaps: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Loaded {
    /// The summary of this load.
    pub fn summary(&self) -> Summary {
        let count = |code: Code| self.diagnostics.iter().filter(|d| d.code == code).count();
        Summary {
            packs: self.packs.iter().map(|p| format!("{}@{}", p.manifest.id, p.manifest.version)).collect(),
            entries: Kind::ALL
                .iter()
                .map(|&k| (k.key().to_string(), self.content.count(k)))
                .filter(|(_, n)| *n > 0)
                .collect(),
            files: self.files,
            scripts: self.scripts,
            script_tests: self.script_tests,
            errors: self.diagnostics.iter().filter(|d| d.is_error()).count(),
            warnings: self.diagnostics.iter().filter(|d| d.severity == crate::diag::Severity::Warning).count(),
            provisional: self.provisional_entries.max(count(Code::Provisional)),
            unsupported_effects: self.unsupported_effects.max(count(Code::UnsupportedEffect)),
            gaps: self.gaps.max(count(Code::ContentGap)),
        }
    }
}
