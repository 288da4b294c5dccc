//! The patch pack `arena tune` writes (docs/patches.md): `pack.toml`, whose
//! dependencies are the packs that define or patch a tuned entry, and
//! `tune.toml`, one `[[patch]]` per tuned entry with an op per field, each
//! guarded by `expect` on the value it replaces, its `reason` quoting the
//! evidence and its comments every value read.

use super::args::{Field, TuneArgs};
use super::{Found, Tuner, percent, points};
use crate::*;
use std::collections::BTreeMap;

impl Tuner<'_> {
    /// The patch pack's manifest.
    pub(super) fn pack_toml(&self, id: &str, schema: &str, values: &[i64], reached: bool) -> String {
        let changes: Vec<String> = self
            .fields
            .iter()
            .zip(values)
            .filter(|(f, v)| f.current != **v)
            .map(|(f, v)| format!("{} {} -> {v}", f.name(), f.current))
            .collect();
        let title = format!(
            "Tuned by arena tune: {}",
            if changes.is_empty() { "no change".into() } else { changes.join(", ") }
        );
        let mut out = format!(
            "{schema}# Written by `arena tune` (docs/balance.md § arena tune); the evidence is in tune.toml.\nid = {}\nversion = \"0.1.0\"\ngame = {}\ntitle = {}\nauthors = [\"arena tune\"]\ndescription = {}\n\n[dependencies]\n",
            toml_string(id),
            toml_string(&self.game),
            toml_string(&title),
            toml_string(&format!(
                "{} {} {} ± {} points in {}",
                self.target.words(),
                if reached { "brought to" } else { "brought closest to (not reached)" },
                percent(self.goal.target),
                points(self.goal.precision),
                self.args.scenario
            )),
        );
        for (pack, req) in &self.dependencies {
            out.push_str(&format!("{pack} = {}\n", toml_string(req)));
        }
        out
    }

    /// The patches: one per tuned entry, an op per changed field, each guarded by
    /// the value it replaces (`expect`); `reason` quotes the evidence.
    pub(super) fn patch_toml(&self, values: &[i64], reason: &str, comments: &[String]) -> String {
        let mut out = String::new();
        for c in comments {
            out.push_str(&format!("# {c}\n").replace("# \n", "#\n"));
        }
        // The entries with a changed field, in --field order, once each.
        let changed: Vec<(&super::Field, &i64)> =
            self.fields.iter().zip(values).filter(|(f, v)| f.current != **v).collect();
        let mut entries: Vec<&str> = Vec::new();
        for (f, _) in &changed {
            if !entries.contains(&f.reference.as_str()) {
                entries.push(&f.reference);
            }
        }
        for entry in entries {
            out.push_str(&format!("\n[[patch]]\ntarget = {}\nreason = {}\n", toml_string(entry), toml_string(reason)));
            for (f, v) in changed.iter().filter(|(f, _)| f.reference == entry) {
                out.push_str(&format!(
                    "\n[[patch.op]]\nop = \"replace\"\npath = {}\nexpect = {}\nvalue = {v}\n",
                    toml_string(&f.path),
                    f.current
                ));
            }
        }
        out
    }
}

fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A folder name made a pack id (`arena_engine::read::to_kebab`: `Über
/// Mod` → `uber-mod`); `.` and `..` are named by the folder they are; a
/// name with no letter first is `tuned-NAME`.
pub(super) fn pack_id(dir: &std::path::Path) -> String {
    let named = dir.file_name().map(|n| n.to_string_lossy().into_owned());
    let name = named
        .or_else(|| {
            let whole = std::path::absolute(dir).ok()?.canonicalize().ok()?;
            Some(whole.file_name()?.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    let id = arena_engine::read::to_kebab(&name);
    if id.is_empty() || !id.starts_with(|c: char| c.is_ascii_lowercase()) {
        format!("tuned-{id}").trim_end_matches('-').to_string()
    } else {
        id
    }
}

/// `--out`, or `tuned-ID` (ID the first field's entry); `Err` when it is a
/// file, already holds a pack (without `--force`) or is a pack loaded.
pub(super) fn out_folder(args: &TuneArgs, fields: &[Field], loaded: &Loaded) -> Result<PathBuf, String> {
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(format!("tuned-{}", fields[0].reference.split_once(':').map_or("", |(_, id)| id)))
    });
    if out.as_os_str() == "-" {
        return Err("--out -: the tuned pack is a folder, not standard output; name a folder".to_string());
    }
    if out.exists() && !out.is_dir() {
        return Err(format!("--out {}: not a folder", out.display()));
    }
    if ["pack.toml", "tune.toml"].iter().any(|f| out.join(f).exists()) && !args.force {
        return Err(format!(
            "--out {}: it already holds a pack; give another --out, or --force to replace its pack.toml and tune.toml",
            out.display()
        ));
    }
    // --force replaces a pack `arena tune` wrote, never a designer's own.
    let manifest = std::fs::read_to_string(out.join("pack.toml")).ok();
    if manifest.is_some_and(|m| !m.contains("Tuned by arena tune")) {
        return Err(format!(
            "--out {}: it holds a pack that arena tune did not write; --force replaces only a tuned pack, so give another --out",
            out.display()
        ));
    }
    let id = pack_id(&out);
    if loaded.packs.iter().any(|p| *p.manifest.id == *id) {
        return Err(format!(
            "--out {}: the pack written there would be `{id}`, the id of a pack loaded; name the folder otherwise (its name is the pack's id)",
            out.display()
        ));
    }
    // It can be written: the folder, or the nearest folder above it that exists.
    let mut probe = out.as_path();
    while !probe.exists() {
        probe = match probe.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => std::path::Path::new("."),
        };
    }
    if tempfile::tempfile_in(probe).is_err() {
        return Err(format!("--out {}: {} cannot be written to", out.display(), probe.display()));
    }
    let canonical = out.canonicalize().ok();
    if canonical.is_some() && loaded.packs.iter().any(|p| p.root.canonicalize().ok() == canonical) {
        return Err(format!("--out {}: it is one of the packs loaded; write the tuned pack elsewhere", out.display()));
    }
    Ok(out)
}

/// The pack's dependencies, `id -> ^MAJOR.MINOR`: every loaded pack that
/// defines or patches a tuned entry (so the tuned patch applies after
/// theirs, docs/patches.md § Order and conflicts); and the game of the
/// first entry's pack.
pub(super) fn dependencies(fields: &[Field], loaded: &Loaded) -> (BTreeMap<String, String>, String) {
    let mut dependencies = BTreeMap::new();
    let version_of = |id: &str| {
        loaded.packs.iter().find(|p| *p.manifest.id == *id).map(|p| match &p.version {
            Some(v) => format!("^{}.{}", v.major, v.minor),
            None => format!("^{}", p.manifest.version),
        })
    };
    let mut game = String::new();
    for f in fields {
        let (kind, id) = f.reference.split_once(':').unwrap_or_default();
        let defining = arena_engine::model::Kind::from_key(kind)
            .and_then(|k| loaded.content.origin(k, id))
            .map(|o| o.pack.to_string());
        let patching = loaded.provenance.get(&f.reference).into_iter().flatten().map(|o| o.pack.clone());
        for pack in defining.clone().into_iter().chain(patching) {
            if let Some(req) = version_of(&pack) {
                dependencies.insert(pack, req);
            }
        }
        if game.is_empty()
            && let Some(p) = defining.and_then(|d| loaded.packs.iter().find(|p| *p.manifest.id == *d))
        {
            game = serde_json::to_value(p.manifest.game)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default();
        }
    }
    (dependencies, game)
}

impl Tuner<'_> {
    /// Write `pack.toml` and `tune.toml` into the out folder (made if
    /// needed); the folder written.
    pub(super) fn write(&self, found: &Found) -> anyhow::Result<PathBuf> {
        let out = &self.out;
        std::fs::create_dir_all(out).map_err(|e| anyhow::anyhow!("cannot make {}: {e}", out.display()))?;
        let teams = if self.args.random_teams { " (random teams)" } else { "" };
        let mut comments = vec![
            "Written by `arena tune` (docs/balance.md § arena tune). What it played:".to_string(),
            format!(
                "  {}{teams}, players {}, seeds from {}, on the packs {}",
                self.args.scenario,
                self.players(),
                self.args.seed,
                self.played_on.join(", ")
            ),
            format!(
                "  target: {} ({}) at {} ± {} points",
                self.target.words(),
                self.target.name(),
                percent(self.goal.target),
                points(self.goal.precision)
            ),
            "What it read (each value on the same seeds):".to_string(),
        ];
        comments.extend(found.reads.iter().map(|r| self.line(r)));
        // The editors' files, as `arena new` writes them; a warning is not
        // an error (the pack works without them).
        let _ = scaffold::write_editor_files(out);
        let schema_pack = scaffold::schema_line(0, "pack.schema.json");
        let schema_content = scaffold::schema_line(0, "content.schema.json");
        write_atomically(
            &out.join("pack.toml"),
            self.pack_toml(&pack_id(out), &schema_pack, &found.values, found.outcome == super::Outcome::Reached)
                .as_bytes(),
        )?;
        let patch = format!("{schema_content}{}", self.patch_toml(&found.values, &self.evidence(found), &comments));
        write_atomically(&out.join("tune.toml"), patch.as_bytes())?;
        Ok(out.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::pack_id;
    use std::path::Path;

    /// The tuned pack is named by its folder, `.` by the folder it is.
    #[test]
    fn a_pack_is_named_by_its_folder() {
        assert_eq!(pack_id(Path::new("parvati-tuned")), "parvati-tuned");
        assert_eq!(pack_id(Path::new("out/Parvati Tuned")), "parvati-tuned");
        assert_eq!(pack_id(Path::new("2024")), "tuned-2024");
        assert_eq!(pack_id(Path::new("a--b")), "a-b");
        assert_eq!(pack_id(Path::new("ÜberMod")), "ubermod");
        assert_eq!(pack_id(Path::new("-")), "tuned");
        let here = std::env::current_dir().unwrap();
        let want = pack_id(Path::new(here.file_name().unwrap()));
        assert_eq!(pack_id(Path::new(".")), want);
        assert_ne!(want, "tuned");
    }
}
