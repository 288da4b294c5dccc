//! `arena show` and `arena diff`: the effective content, and where it came from.

use crate::{Exit, JSON_VERSION, Output, Ui, content_paths};
use arena_engine::diag;
use arena_engine::load::{self, Loaded};
use arena_engine::patch;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `arena show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// The entry, as `kind:id` (`character:hannibal`).
    #[arg(add = crate::complete::references())]
    reference: String,
    /// Packs to load (default: the bundled ones).
    paths: Vec<PathBuf>,
    /// The same as a PATH: `--pack` spells packs the same way for every command.
    #[arg(long = "pack", value_name = "PATH")]
    pack: Vec<PathBuf>,
    /// `human` (the entry as TOML, then where each patched field was set) or `json`.
    #[arg(long, value_enum, default_value_t = Output::Human)]
    format: Output,
    /// List every field with the pack, file and line that set it.
    #[arg(long)]
    fields: bool,
}

/// Arguments of `arena diff`.
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The packs of the base selection (default: the bundled ones).
    #[arg(long, value_name = "PATH", num_args = 1..)]
    base: Vec<PathBuf>,
    /// Packs added to the base for the other selection (an errata pack, a mod).
    #[arg(long = "with", value_name = "PATH", num_args = 1.., required = true)]
    with: Vec<PathBuf>,
    /// `human` (one line per changed field) or `json`.
    #[arg(long, value_enum, default_value_t = Output::Human)]
    format: Output,
}

/// The packs loaded, or the exit code for their errors (2 when a folder
/// cannot be read, as `arena check` gives).
fn load_clean(paths: &[PathBuf], ui: &Ui, stderr: &mut dyn Write) -> anyhow::Result<std::result::Result<Loaded, Exit>> {
    let selection = crate::packs::select(paths, crate::content_paths);
    crate::note_borrowed(&selection, ui, stderr)?;
    let loaded = load::load(&selection.paths, &load::Options { run_script_tests: false, ..Default::default() });
    let errors: Vec<_> = loaded.diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
    if !errors.is_empty() {
        write!(stderr, "{}", diag::render_human(&errors, &loaded.sources, ui.color()))?;
        let code = crate::exit_code(&loaded);
        if code != 2 {
            writeln!(stderr, "the packs have errors: run `arena check` first")?;
        }
        return Ok(Err(code));
    }
    ui.loaded(&loaded, stderr)?;
    Ok(Ok(loaded))
}

/// `arena show`.
pub fn show(args: ShowArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    let paths = [args.paths.clone(), args.pack.clone()].concat();
    let loaded = match load_clean(&paths, ui, stderr)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let Some(entry) = patch::entry_json(&loaded, &args.reference) else {
        let known = patch::references(&loaded);
        let hint =
            load::suggest(&args.reference, &known).map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default();
        writeln!(stderr, "error: no loaded pack defines `{}`{hint}", args.reference)?;
        // An unknown id is a usage error, 2, in every command (docs/cli.md § Exit codes).
        return Ok(2);
    };
    let (kind, id) = args.reference.split_once(':').unwrap_or_default();
    let origin = arena_engine::model::Kind::from_key(kind).and_then(|k| loaded.content.origin(k, id)).cloned();
    let defined = origin.as_ref().map(|o| {
        let line = loaded.locate(&o.file, &format!("{}/id", o.pointer)).map_or(1, |l| l.line);
        (o.pack, o.file.display().to_string(), line)
    });
    let fields = loaded.provenance.get(&args.reference).cloned().unwrap_or_default();
    // Every leaf field and where it was set: a patch, else the defining file.
    let mut leaves = Vec::new();
    leaf_paths(&entry, String::new(), &mut leaves);
    let field_origins: Vec<serde_json::Value> = leaves
        .iter()
        .map(|path| {
            // An op on a list item appended with `[-]` changes the list itself.
            let touches = |f: &&patch::FieldOrigin| {
                let fp = f.path.trim_end_matches("[-]");
                fp == path || path.starts_with(&format!("{fp}.")) || path.starts_with(&format!("{fp}["))
            };
            if let Some(f) = fields.iter().rev().find(touches) {
                return serde_json::json!({"path": path, "pack": f.pack, "file": f.file, "line": f.line, "by": "patch"});
            }
            let at = origin.as_ref().and_then(|o| {
                let raw = loaded.docs.get(&o.file)?.get(&o.pointer)?;
                let (ptr, _) = patch::keyed_pointer(raw, path).ok()?;
                let l = loaded.locate(&o.file, &format!("{}{ptr}", o.pointer))?;
                Some(serde_json::json!({"path": path, "pack": o.pack, "file": l.file, "line": l.line, "by": "definition"}))
            });
            at.unwrap_or_else(|| serde_json::json!({"path": path}))
        })
        .collect();
    if args.format == Output::Json {
        let v = serde_json::json!({
            "version": JSON_VERSION,
            "kind": "show",
            "reference": args.reference,
            "defined": defined.as_ref().map(|(p, f, l)| serde_json::json!({"pack": p, "file": f, "line": l})),
            "effective": entry,
            "patched": fields,
            "fields": field_origins,
        });
        writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(0);
    }
    if let Some((pack, file, line)) = &defined {
        writeln!(stdout, "# {} — defined by pack `{pack}` at {file}:{line}", args.reference)?;
    }
    let mut table = serde_json::Map::new();
    table.insert(kind.to_string(), Value::Array(vec![entry.clone()]));
    match toml::to_string_pretty(&Value::Object(table)) {
        Ok(t) => write!(stdout, "{t}")?,
        Err(_) => writeln!(stdout, "{}", serde_json::to_string_pretty(&entry)?)?,
    }
    if args.fields {
        writeln!(stdout, "\n# every field, and where it was set:")?;
        for f in &field_origins {
            let path = f["path"].as_str().unwrap_or_default();
            match (f["pack"].as_str(), f["file"].as_str(), f["line"].as_u64()) {
                (Some(pack), Some(file), Some(line)) => writeln!(
                    stdout,
                    "#   {path:<50} {pack} {file}:{line}{}",
                    if f["by"] == "patch" { " (patch)" } else { "" }
                )?,
                _ => writeln!(stdout, "#   {path}")?,
            }
        }
    }
    if fields.is_empty() {
        writeln!(stdout, "\n# no patch changes this entry")?;
    } else {
        writeln!(stdout, "\n# patched fields (last change first), each with what it replaced:")?;
        for (k, f) in fields.iter().enumerate().rev() {
            writeln!(stdout, "#   {}", f.path)?;
            writeln!(
                stdout,
                "#     set by pack `{}` at {}:{}{}",
                f.pack,
                f.file.display(),
                f.line,
                f.reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default()
            )?;
            let before = f.before.as_ref().map_or("nothing".to_string(), Value::to_string);
            // Where the replaced value was written: an earlier patch of the same
            // field, or else the base file, if it was there.
            let earlier = fields[..k]
                .iter()
                .rev()
                .find(|e| e.path == f.path)
                .map(|e| format!(" (set by pack `{}` at {}:{})", e.pack, e.file.display(), e.line));
            let base = earlier.or_else(|| {
                origin.as_ref().and_then(|o| {
                    let raw = loaded.docs.get(&o.file)?.get(&o.pointer)?;
                    let (ptr, _) = patch::keyed_pointer(raw, &f.path).ok()?;
                    loaded
                        .locate(&o.file, &format!("{}{ptr}", o.pointer))
                        .map(|l| format!(" (pack `{}` at {}:{})", o.pack, l.file.display(), l.line))
                })
            });
            writeln!(stdout, "#     was: {before}{}", base.unwrap_or_default())?;
        }
    }
    Ok(0)
}

/// `arena diff`.
pub fn diff(args: DiffArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    let base_paths = if args.base.is_empty() { content_paths() } else { args.base.clone() };
    let mut other_paths = base_paths.clone();
    other_paths.extend(args.with.iter().cloned());
    let base = match load_clean(&base_paths, ui, stderr)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let other = match load_clean(&other_paths, ui, stderr)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let changes = patch::diff(&base, &other);
    if args.format == Output::Json {
        let v = serde_json::json!({
            "version": JSON_VERSION,
            "kind": "diff",
            "base": base.packs.iter().map(|p| format!("{}@{}", p.manifest.id, p.manifest.version)).collect::<Vec<_>>(),
            "with": other.packs.iter().map(|p| format!("{}@{}", p.manifest.id, p.manifest.version)).collect::<Vec<_>>(),
            "changes": changes,
        });
        writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(0);
    }
    let show = |v: &Option<Value>| v.as_ref().map_or("(absent)".to_string(), Value::to_string);
    for c in &changes {
        let path = if c.path.is_empty() { String::new() } else { format!(" {}", c.path) };
        writeln!(stdout, "{}{path}:\n  - {}\n  + {}", c.reference, show(&c.before), show(&c.after))?;
    }
    writeln!(stdout, "{} change{}", changes.len(), if changes.len() == 1 { "" } else { "s" })?;
    Ok(0)
}

/// Keyed paths of every leaf of an entry (`actions[id=x].cost`, `defense.dice[0]`).
fn leaf_paths(v: &Value, path: String, out: &mut Vec<String>) {
    let join = |k: &str| if path.is_empty() { k.to_string() } else { format!("{path}.{k}") };
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                leaf_paths(child, join(k), out);
            }
        }
        Value::Array(items)
            if !items.is_empty() && items.iter().all(|i| i.get("id").and_then(Value::as_str).is_some()) =>
        {
            for i in items {
                leaf_paths(i, format!("{path}[id={}]", i["id"].as_str().unwrap_or_default()), out);
            }
        }
        Value::Array(items) if items.iter().any(|i| i.is_object()) => {
            for (n, i) in items.iter().enumerate() {
                leaf_paths(i, format!("{path}[{n}]"), out);
            }
        }
        _ => out.push(path),
    }
}
