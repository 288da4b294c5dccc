//! Which pack folders a command loads, the same way for every command.
//!
//! A command's packs are the paths it was given, or its default (the bundled
//! packs); then every dependency they name that they lack is taken from the
//! bundled packs, transitively, and said so ([`select`]). The bundled packs
//! travel with the binary: when the checkout it was built from is gone (an
//! installed `arena`), they are written once from the copy embedded at build
//! time into the platform's cache folder ([`bundled_root`]). A `content/`
//! folder in the current folder is never taken for them: it is loaded only
//! when named (`arena check content`).

use arena_engine::load;
use include_dir::{Dir, include_dir};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The packs and schemas embedded at build time.
static EMBEDDED_CONTENT: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../content");
static EMBEDDED_MODS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../mods");
static EMBEDDED_SCHEMAS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../schemas");

/// The pack folders to load and the bundled packs borrowed for dependencies.
#[derive(Debug, Clone)]
pub struct Selection {
    /// Pack folders, or folders of packs, in the order given.
    pub paths: Vec<PathBuf>,
    /// Bundled packs added for a missing dependency, as `id (folder)`.
    pub borrowed: Vec<String>,
}

/// The packs of a command: `given`, or `default()` when none are given, plus
/// the bundled packs that provide a dependency the others lack (by manifest
/// only, before anything is loaded).
pub fn select(given: &[PathBuf], default: fn() -> Vec<PathBuf>) -> Selection {
    let mut paths = if given.is_empty() { default() } else { given.iter().map(|p| by_id(p)).collect() };
    let (roots, _) = load::discover(&paths);
    let mut have: BTreeMap<String, Vec<String>> = roots.iter().filter_map(|r| manifest(r)).collect();
    let (bundled_roots, _) = load::discover(&crate::content_paths());
    let bundled: Vec<(String, Vec<String>, PathBuf)> =
        bundled_roots.into_iter().filter_map(|r| manifest(&r).map(|(id, deps)| (id, deps, r))).collect();
    let mut borrowed = Vec::new();
    loop {
        let wanted: BTreeSet<&String> = have.values().flatten().filter(|d| !have.contains_key(*d)).collect();
        let add: Vec<&(String, Vec<String>, PathBuf)> = bundled.iter().filter(|(id, ..)| wanted.contains(id)).collect();
        if add.is_empty() {
            break;
        }
        for (id, deps, root) in add {
            borrowed.push(format!("{id} ({})", root.display()));
            paths.push(root.clone());
            have.insert(id.clone(), deps.clone());
        }
    }
    Selection { paths, borrowed }
}

/// A PATH that is no file or folder but a bundled pack's id (`aristeia-prime-time`,
/// `errata-1-6`, or `id@version` when that is the bundled version): that
/// pack's folder. Anything else is kept as given (and fails to load, said so).
pub fn by_id(given: &Path) -> PathBuf {
    if given.exists() || given.components().count() != 1 {
        return given.to_path_buf();
    }
    let name = given.to_string_lossy();
    let (id, version) = name.split_once('@').map_or((name.as_ref(), None), |(i, v)| (i, Some(v)));
    let (roots, _) = load::discover(&crate::default_paths());
    roots
        .into_iter()
        .find(|r| {
            let Some(text) = arena_engine::read::read_text_limited(&r.join(load::MANIFEST), 1024 * 1024).ok() else {
                return false;
            };
            let Ok(table) = text.parse::<toml::Table>() else { return false };
            table.get("id").and_then(|i| i.as_str()) == Some(id)
                && version.is_none_or(|v| table.get("version").and_then(|x| x.as_str()) == Some(v))
        })
        .unwrap_or_else(|| given.to_path_buf())
}

/// The packs a replay file records (`id@version`; `id version` in the
/// files of format 1) as the bundled folders of those ids and versions, for
/// a command given no `--pack`; `None` when the file records none or one of
/// them is not bundled (the default packs load then, and the content hash
/// says whether they are the same).
pub fn recorded(packs: &[String]) -> Option<Vec<PathBuf>> {
    if packs.is_empty() {
        return None;
    }
    packs
        .iter()
        .map(|p| {
            let named = PathBuf::from(p.replacen(' ', "@", 1));
            let found = by_id(&named);
            (found != named).then_some(found)
        })
        .collect()
}

/// The bundled pack (`id`) that defines a Scenario or setup `name` the
/// loaded packs lack, for a hint (`add --pack aristeia-prime-time`).
pub fn bundled_pack_defining(name: &str) -> Option<String> {
    let options = load::Options { run_script_tests: false, ..load::Options::default() };
    let loaded = load::load(&crate::content_paths(), &options);
    let kind = [arena_engine::model::Kind::Scenario, arena_engine::model::Kind::Setup]
        .into_iter()
        .find_map(|k| loaded.content.origin(k, name))?;
    Some(kind.pack.to_string())
}

/// A pack's id and the ids of its required dependencies, from its manifest.
fn manifest(root: &Path) -> Option<(String, Vec<String>)> {
    let text = arena_engine::read::read_text_limited(&root.join(load::MANIFEST), 1024 * 1024).ok()?;
    let table = text.parse::<toml::Table>().ok()?;
    let id = table.get("id")?.as_str()?.to_string();
    let deps = table.get("dependencies").and_then(|d| d.as_table()).map(|t| t.keys().cloned().collect());
    Some((id, deps.unwrap_or_default()))
}

/// The folder holding the bundled `content/`, `mods/` and `schemas/`: the
/// checkout this binary was built from if it is still there, else the copy
/// embedded in the binary, written once to the cache folder. Never the
/// current folder: a `content/` there is some other content, loaded only
/// when named.
pub fn bundled_root() -> Option<PathBuf> {
    let built = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    if built.join("content").is_dir() && built.join("tools").join("Cargo.toml").is_file() {
        return Some(shortest(&built));
    }
    embedded_root().ok()
}

/// `dir` as printed in diagnostics: `.` or a path below the current folder
/// when it is there (`content/aristeia-core/...` in the checkout), else
/// its canonical form (no `tools/..`).
fn shortest(dir: &Path) -> PathBuf {
    let Ok(dir) = dir.canonicalize() else { return dir.to_path_buf() };
    match std::env::current_dir().and_then(|c| c.canonicalize()) {
        Ok(cwd) if dir == cwd => PathBuf::from("."),
        Ok(cwd) => dir.strip_prefix(&cwd).map(Path::to_path_buf).unwrap_or(dir),
        Err(_) => dir,
    }
}

/// The embedded packs, written whole into `<cache>/arena/bundled-<version>-<hash>`,
/// `<cache>` the platform's cache folder (`dirs::cache_dir`: `$XDG_CACHE_HOME`
/// when it is an absolute path, else `~/.cache` on Linux; `~/Library/Caches`
/// on macOS), else the temporary folder. The hash is BLAKE3's of every
/// embedded file's path and bytes, the same for the same content whatever
/// compiled it. A temporary folder is renamed into place, so a half-written
/// copy is never used.
fn embedded_root() -> std::io::Result<PathBuf> {
    let mut h = blake3::Hasher::new();
    for dir in [&EMBEDDED_CONTENT, &EMBEDDED_MODS, &EMBEDDED_SCHEMAS] {
        hash_dir(dir, &mut h);
    }
    let cache = cache_dir().join("arena");
    let key = h.finalize().to_hex();
    let root = cache.join(format!("bundled-{}-{}", env!("CARGO_PKG_VERSION"), &key[..16]));
    if root.join("content").is_dir() {
        return Ok(root);
    }
    std::fs::create_dir_all(&cache)?;
    let tmp = cache.join(format!(".bundled-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    for (name, dir) in [("content", &EMBEDDED_CONTENT), ("mods", &EMBEDDED_MODS), ("schemas", &EMBEDDED_SCHEMAS)] {
        let target = tmp.join(name);
        std::fs::create_dir_all(&target)?;
        dir.extract(&target)?;
    }
    match std::fs::rename(&tmp, &root) {
        Ok(()) => Ok(root),
        // Another process wrote it first: use theirs.
        Err(_) if root.join("content").is_dir() => {
            let _ = std::fs::remove_dir_all(&tmp);
            Ok(root)
        }
        Err(e) => Err(e),
    }
}

/// The platform's cache folder, else the temporary folder.
pub fn cache_dir() -> PathBuf {
    dirs::cache_dir().unwrap_or_else(std::env::temp_dir)
}

/// Each file's path and bytes, both length-prefixed (no two trees hash alike
/// by moving bytes between a name and a content), in `include_dir`'s order.
fn hash_dir(dir: &Dir<'_>, h: &mut blake3::Hasher) {
    for f in dir.files() {
        let path = f.path().to_string_lossy();
        h.update(&(path.len() as u64).to_le_bytes());
        h.update(path.as_bytes());
        h.update(&(f.contents().len() as u64).to_le_bytes());
        h.update(f.contents());
    }
    for d in dir.dirs() {
        hash_dir(d, h);
    }
}
