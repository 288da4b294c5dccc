//! Reading packs from disk: the only module that reads content files.
//!
//! Finds pack folders ([`discover`]), lists a pack's files ([`walk_pack`]:
//! content, Lua scripts, situations), reads each file (size limit, UTF-8, TOML
//! with spans), validates it against the generated JSON Schema and adds every
//! valid entry to the [`Content`]. Problems are diagnostics in the
//! [`Loaded`]; nothing here stops at the first one, writes a file or panics.
//! The order of the whole load (manifests, resolution, content, patches,
//! validation, script tests) is [`crate::load`]'s.

mod schema_errors;

use schema_errors::schema_error;
pub use schema_errors::{content_path, keyed_path, suggest};

use crate::content::{InsertError, Origin};
use crate::diag::{Code, Diagnostic, Location, SourceMap};
use crate::loaded::{Loaded, Options, Pack};
use crate::model::Kind;
use crate::tomljson::{self, SpannedDoc};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// The manifest file name of a pack.
pub const MANIFEST: &str = "pack.toml";

/// A pack's folder of situation files (docs/situations.md), which are not content.
pub const SITUATIONS: &str = "situations";

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

/// The compiled schemas and their JSON, for hints.
pub(crate) struct Schemas {
    pub(crate) content: (Value, Option<jsonschema::Validator>),
    pub(crate) manifest: (Value, Option<jsonschema::Validator>),
}

impl Schemas {
    pub(crate) fn new() -> Self {
        let build = |v: Value| {
            let validator = jsonschema::draft7::new(&v).ok();
            (v, validator)
        };
        Schemas { content: build(crate::schema::content_schema()), manifest: build(crate::schema::manifest_schema()) }
    }

    /// The schemas, generated and compiled once per process (the first load
    /// pays for them; every later load, a `watch` reload or a test's, reuses
    /// them: they depend only on the engine's types).
    pub(crate) fn shared() -> &'static Schemas {
        static SCHEMAS: std::sync::OnceLock<Schemas> = std::sync::OnceLock::new();
        SCHEMAS.get_or_init(Schemas::new)
    }

    /// Validate a document; every error becomes a diagnostic. Also returns the
    /// JSON Pointers of the invalid values.
    pub(crate) fn check(
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
            let pointer = e.instance_path().as_str().to_string();
            // A value the TOML reader refused is reported already, once.
            if !doc.invalid.iter().any(|(p, _)| *p == pointer) {
                schema_error(&schema.0, file, doc, sources, &e, &mut out);
            }
            pointers.push(pointer);
        }
        (out, pointers)
    }
}

/// Read a file as text, with the size limit and a UTF-8 check; record its text.
pub(crate) fn read_text(path: &Path, options: &Options, out: &mut Loaded) -> Option<Arc<str>> {
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

pub(crate) fn parse_toml(path: &Path, text: &str, out: &mut Loaded) -> Option<SpannedDoc> {
    match tomljson::parse(text) {
        Ok(doc) => {
            // Values TOML allows that no content holds: an error each, and the
            // schema then refuses their entries (they are `null`).
            for (_, e) in &doc.invalid {
                let loc = match &e.span {
                    Some(s) => out.sources.locate(path, s.clone()),
                    None => Location { file: path.to_path_buf(), span: None, line: 1, column: 1 },
                };
                let mut d = Diagnostic::error(Code::InvalidValue, e.message.clone()).at(loc);
                if let Some(help) = &e.help {
                    d = d.help(help.clone());
                }
                out.diagnostics.push(d);
            }
            Some(doc)
        }
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
pub(crate) fn walk_pack(
    root: &Path,
    ignore: &globset::GlobSet,
    out: &mut Loaded,
) -> (Vec<PathBuf>, BTreeMap<String, PathBuf>, Vec<PathBuf>) {
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
    // A pack owns only its files: not hidden or temporary ones, not folders of
    // another pack or project, not its manifest's `ignore` patterns.
    let owned = |e: &walkdir::DirEntry| {
        if e.depth() == 0 {
            return true;
        }
        let rel = e.path().strip_prefix(root).unwrap_or(e.path());
        !(is_ignored(e.file_name().to_string_lossy().as_ref())
            || (e.file_type().is_dir() && is_foreign_folder(e.path()))
            || ignore.is_match(rel))
    };
    for entry in walker.filter_entry(owned) {
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
        } else if ext == "toml" && rel != Path::new(MANIFEST) && !TOOL_CONFIGS.iter().any(|c| rel == Path::new(c)) {
            content.push(path);
        } else if ext == "lua" || ext == "luau" {
            scripts.insert(rel_key(rel), path);
        }
    }
    case_conflicts(root, content.iter().chain(scripts.values()).chain(&situations), out);
    (content, scripts, situations)
}

/// Two files whose paths differ only in case are two files here but one on
/// Windows and macOS: a warning at the second (`case-conflict`).
fn case_conflicts<'p>(root: &Path, files: impl Iterator<Item = &'p PathBuf>, out: &mut Loaded) {
    let mut seen: BTreeMap<String, &PathBuf> = BTreeMap::new();
    let mut files: Vec<&PathBuf> = files.collect();
    files.sort();
    for f in files {
        let rel = f.strip_prefix(root).unwrap_or(f);
        let key = rel_key(rel).to_lowercase();
        match seen.get(&key) {
            Some(first) => out.diagnostics.push(
                Diagnostic::warning(
                    Code::CaseConflict,
                    format!(
                        "`{}` and `{}` differ only in case",
                        rel_key(first.strip_prefix(root).unwrap_or(first)),
                        rel_key(rel)
                    ),
                )
                .at(Location { file: f.clone(), span: None, line: 1, column: 1 })
                .help("rename one of them: on Windows and macOS they are the same file"),
            ),
            None => {
                seen.insert(key, f);
            }
        }
    }
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

/// Whether a file or folder name is never content: hidden and editor
/// temporary files, `target/`.
pub fn is_ignored(name: &str) -> bool {
    name.starts_with('.')
        || name.starts_with('#')
        || name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name.ends_with(".tmp")
        || name == "target"
        || name == "node_modules"
}

/// Configuration files of other tools that may sit in a pack folder (a mod
/// repository's root): never read as content.
pub const TOOL_CONFIGS: &[&str] = &[
    "Cargo.toml",
    "rustfmt.toml",
    "clippy.toml",
    "deny.toml",
    "rust-toolchain.toml",
    "taplo.toml",
    "stylua.toml",
    "selene.toml",
    "typos.toml",
    "_typos.toml",
    "cliff.toml",
    "release.toml",
    "pyproject.toml",
    "netlify.toml",
];

/// Whether a folder inside a pack belongs to something else: another pack
/// (it has a `pack.toml`) or another project (`Cargo.toml`, `.git`).
fn is_foreign_folder(dir: &Path) -> bool {
    dir.join(MANIFEST).exists() || dir.join("Cargo.toml").exists() || dir.join(".git").exists()
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

pub(crate) fn load_content_file(pack: &str, file: &Path, schemas: &Schemas, options: &Options, out: &mut Loaded) {
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
    let mut failed = Vec::new();
    if let Value::Object(map) = &doc.value {
        for (key, items) in map {
            if key == "patch" {
                if let Value::Array(patches) = items {
                    for i in 0..patches.len() {
                        let pointer = format!("/patch/{i}");
                        let clean = !whole_file_bad && !bad_entries.contains(&pointer);
                        if clean {
                            pending.push(crate::loaded::PendingPatch {
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
            for (i, item) in items.iter().enumerate() {
                let pointer = format!("/{key}/{i}");
                let clean = !whole_file_bad && !bad_entries.contains(&pointer);
                if !clean {
                    if let Some(id) = item.get("id").and_then(Value::as_str) {
                        failed.push(format!("{key}:{id}"));
                    }
                    continue;
                }
                let origin =
                    Origin { pack: pack.into(), file: file.to_path_buf(), span: doc.key_span(&pointer), pointer };
                entries.push((kind, origin));
            }
        }
    }
    out.pending_patches.extend(pending);
    out.failed_entries.extend(failed);
    // Deserialize straight from the stored document (no copy of the entry).
    let mut duplicates = Vec::new();
    let mut refused = Vec::new();
    {
        let doc = &out.docs[file];
        for (kind, origin) in entries {
            let Some(item) = doc.get(&origin.pointer) else { continue };
            match out.content.insert_json(kind, item, origin) {
                Ok(()) => {}
                Err(InsertError::Duplicate(pair)) => duplicates.push((kind, *pair)),
                Err(InsertError::Refused { origin, pointer, message }) => {
                    refused.push((kind, *origin, pointer, message))
                }
            }
        }
    }
    for (kind, (second, first)) in duplicates {
        duplicate_id(kind, second, first, out);
    }
    for (kind, origin, pointer, message) in refused {
        let id = out.docs[file]
            .get(&format!("{}/id", origin.pointer))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        out.failed_entries.insert(format!("{}:{id}", kind.key()));
        let loc = out.locate(file, &pointer);
        out.diagnostics.push(
            Diagnostic::error(Code::InvalidValue, format!("`{}:{id}` cannot be loaded: {message}", kind.key()))
                .at_opt(loc)
                .help("the value passes the schema but not the content model; write it as the field's type (a whole number, a list, ...) says"),
        );
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
pub(crate) fn check_ids(file: &Path, doc: &SpannedDoc, sources: &SourceMap, diags: &mut Vec<Diagnostic>) {
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
                .help(match to_kebab(&id) {
                    k if k.is_empty() => {
                        "use lowercase letters, digits and single hyphens, such as \"la-duelista\"".to_string()
                    }
                    k => format!("use lowercase letters, digits and single hyphens, such as \"{k}\""),
                }),
        );
    }
}

/// Whether a string is a kebab-case id (`ice-wall`, `zone-1`).
pub fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.split('-')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

/// `s` made a kebab-case id as well as it can be (`Señor Massacre` →
/// `senor-massacre`): accents folded, every run of other characters one
/// hyphen; empty when `s` holds no letter or digit.
pub fn to_kebab(s: &str) -> String {
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

/// Most bytes of a file the tool reads whole outside a pack (a script given
/// to `arena script`, a situation, a replay, a lockfile): 64 MiB.
pub const MAX_TOOL_FILE: u64 = 64 * 1024 * 1024;

/// Read a whole file of at most `max` bytes, reading no more than `max + 1`
/// (so `/dev/zero` or a huge file fails at once). Errors name the file and,
/// for a file too large, the limit.
pub fn read_limited(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() as u64 > max {
        return Err(format!("{} is larger than {} bytes, the most arena reads of such a file", path.display(), max));
    }
    Ok(bytes)
}

/// [`read_limited`], as UTF-8 text.
pub fn read_text_limited(path: &Path, max: u64) -> Result<String, String> {
    String::from_utf8(read_limited(path, max)?).map_err(|_| format!("{} is not UTF-8 text", path.display()))
}

/// A manifest's `ignore` patterns as a glob set; a pattern that does not
/// parse is an error at its place in the manifest (and ignores nothing).
pub(crate) fn ignore_set(manifest: &crate::model::Manifest, file: &Path, out: &mut Loaded) -> globset::GlobSet {
    let mut builder = globset::GlobSetBuilder::new();
    for (i, pattern) in manifest.ignore.iter().enumerate() {
        match globset::GlobBuilder::new(pattern).literal_separator(true).build() {
            Ok(glob) => {
                builder.add(glob);
            }
            Err(e) => {
                let loc = out.locate(file, &format!("/ignore/{i}"));
                out.diagnostics.push(
                    Diagnostic::error(Code::InvalidValue, format!("`{pattern}` is not a glob pattern: {}", e.kind()))
                        .at_opt(loc)
                        .path(format!("ignore[{i}]"))
                        .help("write paths relative to the pack folder, with * and ** (`drafts/**`)"),
                );
            }
        }
    }
    builder.build().unwrap_or_else(|_| globset::GlobSet::empty())
}
