//! Loading packs: the whole pipeline, in order.
//!
//! [`load`] finds the packs under the given paths, reads each manifest,
//! resolves dependencies and load order ([`crate::resolve`]), reads every
//! content file ([`crate::read`], the only module that reads them), applies
//! patches ([`crate::patch`]), runs the checks across all content
//! ([`crate::validate`]) and the packs' script tests
//! ([`crate::packtest`]). It never stops at the first problem: the
//! [`Loaded`] holds what could be built plus every [`Diagnostic`]. It never
//! writes a file and never panics on bad input.

pub use crate::loaded::{Loaded, Options, Pack, Summary};
pub use crate::read::{
    MANIFEST, SITUATIONS, content_path, discover, is_ignored, path_stays_inside, rel_key, situation_texts, suggest,
};

use crate::diag::{Code, Diagnostic};
use crate::model::Manifest;
use crate::read::{Schemas, check_ids, load_content_file, parse_toml, read_text, walk_pack};
use std::path::PathBuf;

/// Load the packs under `paths` (see [`discover`]), resolve them and validate
/// everything. Never panics; every problem is a diagnostic in the result.
pub fn load(paths: &[PathBuf], options: &Options) -> Loaded {
    let (roots, diags) = discover(paths);
    load_packs(&roots, diags, options)
}

/// Load the given pack folders.
pub fn load_packs(roots: &[PathBuf], diags: Vec<Diagnostic>, options: &Options) -> Loaded {
    let mut out = Loaded { diagnostics: diags, ..Loaded::default() };
    let schemas = Schemas::shared();

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
        let ignore = crate::read::ignore_set(&manifest, &manifest_path, &mut out);
        let (content_files, scripts, situations) = walk_pack(root, &ignore, &mut out);
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
        let pack_id = out.packs[pi].manifest.id;
        for file in files {
            load_content_file(&pack_id, &file, schemas, options, &mut out);
        }
    }

    // 4. Patches, in load order, on the content they depend on.
    crate::patch::apply_all(&mut out, &schemas.content, options.notes);

    // 5. Checks across all content.
    let report = crate::validate::validate(&out, options);
    out.diagnostics.extend(report.diagnostics);
    out.scripts = report.compiled;
    out.provisional_entries = report.provisional;
    out.unsupported_effects = report.unsupported;
    out.gaps = report.gaps;
    out.text_only_rules = report.text_only_rules;
    out.script_set = report.scripts;
    for (path, text) in report.sources {
        out.sources.insert(path, text);
    }
    if options.run_script_tests && options.compile_scripts {
        // One VM for the packs' script tests and the check of file scripts' functions.
        let runtime = crate::script::runtime::Runtime::new(
            std::sync::Arc::new(out.content.clone()),
            out.script_set.clone(),
            options.limits,
        )
        .ok();
        let tests = crate::packtest::run_all(&out, runtime.as_ref(), options.limits);
        out.script_tests = tests.run;
        out.diagnostics.extend(tests.diagnostics);
        let missing = crate::packtest::check_functions(&out, runtime.as_ref(), options.limits);
        out.diagnostics.extend(missing);
    }
    // The same problem found twice (a test file compiled for two purposes) is shown once.
    let mut seen = std::collections::HashSet::new();
    out.diagnostics.retain(|d| {
        seen.insert((d.code, d.message.clone(), d.location.as_ref().map(|l| (l.file.clone(), l.line, l.column))))
    });
    // Present problems in reading order: those without a file first, then by file and position.
    out.diagnostics.sort_by(|a, b| {
        let key =
            |d: &Diagnostic| d.location.as_ref().map(|l| (l.file.clone(), l.span.as_ref().map_or(0, |s| s.start)));
        key(a).cmp(&key(b))
    });
    out
}
