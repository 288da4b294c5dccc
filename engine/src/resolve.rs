//! Pack dependency resolution: which packs load, in which order, and what is wrong
//! with the set (missing or mismatched dependencies, cycles, incompatibilities).
//!
//! Pure: works on manifests already read. The order is deterministic: the
//! dependency graph (with `load_after` / `load_before` hints and present optional
//! dependencies as edges) first, then pack id.

use crate::diag::{Code, Diagnostic};
use crate::model::Manifest;
use std::collections::{BTreeMap, BTreeSet};

/// One pack as the resolver sees it.
#[derive(Debug, Clone)]
pub struct Node<'a> {
    /// The manifest.
    pub manifest: &'a Manifest,
    /// The parsed version, when valid.
    pub version: Option<&'a semver::Version>,
}

/// A resolver finding, with the manifest key it concerns so the loader can point at it.
#[derive(Debug, Clone)]
pub struct Finding {
    /// Index of the pack in the input.
    pub pack: usize,
    /// JSON Pointer into that pack's manifest (`/dependencies/aristeia-core`).
    pub pointer: String,
    /// The diagnostic, without location.
    pub diagnostic: Diagnostic,
}

/// A dependency of another game (an Invictus pack on `aristeia-core`): the
/// games' content does not mix, so it is an error at the dependency's key.
fn check_game(nodes: &[Node<'_>], i: usize, j: usize, pointer: &str, findings: &mut Vec<Finding>) {
    let (m, dep) = (nodes[i].manifest, nodes[j].manifest);
    if m.game == dep.game {
        return;
    }
    let game = |g: &crate::model::GameTitle| {
        serde_json::to_value(g).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
    };
    let (mine, theirs) = (game(&m.game), game(&dep.game));
    findings.push(Finding {
        pack: i,
        pointer: pointer.to_string(),
        diagnostic: Diagnostic::error(
            Code::IncompatiblePacks,
            format!("pack `{}` is for {mine}, but depends on `{}`, a pack for {theirs}", m.id, dep.id),
        )
        .help(format!("depend only on packs of the same game (`game = \"{mine}\"`): the games' content does not mix")),
    });
}

/// The load order (indices into the input) and the findings.
pub fn resolve(nodes: &[Node<'_>]) -> (Vec<usize>, Vec<Finding>) {
    let mut findings = Vec::new();
    let mut by_id: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, n) in nodes.iter().enumerate() {
        if let Some(&first) = by_id.get(n.manifest.id.as_str()) {
            findings.push(Finding {
                pack: i,
                pointer: "/id".into(),
                diagnostic: Diagnostic::error(Code::DuplicatePack, format!("pack `{}` is loaded twice", n.manifest.id))
                    .with_note(format!("the first has version {}", nodes[first].manifest.version))
                    .help("give each pack its own id, or check only one copy"),
            });
        } else {
            by_id.insert(&n.manifest.id, i);
        }
    }

    // edges[a] = packs that must load before a
    let mut before: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        let m = n.manifest;
        for (dep, req) in &m.dependencies {
            let pointer = format!("/dependencies/{}", crate::tomljson::escape(dep));
            match by_id.get(dep.as_str()) {
                None => findings.push(Finding {
                    pack: i,
                    pointer,
                    diagnostic: Diagnostic::error(
                        Code::MissingDependency,
                        format!("pack `{}` depends on `{dep}`, which is not loaded", m.id),
                    )
                    .help(format!("add the `{dep}` pack to the paths you check, or remove the dependency")),
                }),
                Some(&j) => {
                    before[i].insert(j);
                    check_game(nodes, i, j, &pointer, &mut findings);
                    check_req(nodes, i, j, req, &pointer, &mut findings, false);
                }
            }
        }
        for (dep, req) in &m.optional_dependencies {
            if let Some(&j) = by_id.get(dep.as_str()) {
                let pointer = format!("/optional_dependencies/{}", crate::tomljson::escape(dep));
                before[i].insert(j);
                check_req(nodes, i, j, req, &pointer, &mut findings, false);
            }
        }
        for (other, req) in &m.incompatibilities {
            if let Some(&j) = by_id.get(other.as_str()) {
                let pointer = format!("/incompatibilities/{}", crate::tomljson::escape(other));
                check_req(nodes, i, j, req, &pointer, &mut findings, true);
            }
        }
        for after in &m.load_after {
            if let Some(&j) = by_id.get(after.as_str()) {
                before[i].insert(j);
            }
        }
        for b in &m.load_before {
            if let Some(&j) = by_id.get(b.as_str()) {
                before[j].insert(i);
            }
        }
    }

    // Kahn's algorithm, always taking the smallest id among the ready packs:
    // counts of unloaded predecessors and a heap, so thousands of packs order
    // in O((packs + edges) log packs).
    let mut waiting: Vec<usize> = before.iter().map(BTreeSet::len).collect();
    let mut after: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (i, b) in before.iter().enumerate() {
        for &j in b {
            after[j].push(i);
        }
    }
    let key = |i: usize| std::cmp::Reverse((nodes[i].manifest.id.as_str(), i));
    let mut ready: std::collections::BinaryHeap<_> = (0..nodes.len()).filter(|&i| waiting[i] == 0).map(key).collect();
    let mut done = vec![false; nodes.len()];
    let mut order = Vec::new();
    while let Some(std::cmp::Reverse((_, i))) = ready.pop() {
        done[i] = true;
        order.push(i);
        for &k in &after[i] {
            waiting[k] -= 1;
            if waiting[k] == 0 {
                ready.push(key(k));
            }
        }
    }
    if order.len() < nodes.len() {
        // Every pack left is on or behind a cycle; report each cycle once.
        let left: Vec<usize> = (0..nodes.len()).filter(|&i| !done[i]).collect();
        for cycle in find_cycles(&left, &before, &done) {
            let names: Vec<&str> = cycle.iter().map(|&k| nodes[k].manifest.id.as_str()).collect();
            let head = cycle[0];
            let next = cycle.get(1).copied().unwrap_or(head);
            let dep = &nodes[next].manifest.id;
            let pointer = if nodes[head].manifest.dependencies.contains_key(dep) {
                format!("/dependencies/{}", crate::tomljson::escape(dep))
            } else {
                "/id".to_string()
            };
            findings.push(Finding {
                pack: head,
                pointer,
                diagnostic: Diagnostic::error(
                    Code::DependencyCycle,
                    format!("packs depend on each other in a cycle: {} -> {}", names.join(" -> "), names[0]),
                )
                .help("remove one of the dependencies (or load hints) so the packs can be ordered"),
            });
        }
        // Still load the rest, by id, so their content is checked too.
        let mut rest = left;
        rest.sort_by(|&a, &b| nodes[a].manifest.id.cmp(&nodes[b].manifest.id));
        order.extend(rest);
    }
    (order, findings)
}

fn check_req(
    nodes: &[Node<'_>],
    i: usize,
    j: usize,
    req: &str,
    pointer: &str,
    findings: &mut Vec<Finding>,
    incompatibility: bool,
) {
    let m = nodes[i].manifest;
    let other = nodes[j].manifest;
    let parsed = match semver::VersionReq::parse(req) {
        Ok(r) => r,
        Err(e) => {
            findings.push(Finding {
                pack: i,
                pointer: pointer.to_string(),
                diagnostic: Diagnostic::error(
                    Code::InvalidVersion,
                    format!("`{req}` is not a version requirement: {e}"),
                )
                .help("write a semver requirement such as \"^1.0\", \">=1.2, <2\" or \"*\""),
            });
            return;
        }
    };
    let Some(v) = nodes[j].version else { return };
    let matches = parsed.matches(v);
    if incompatibility && matches {
        findings.push(Finding {
            pack: i,
            pointer: pointer.to_string(),
            diagnostic: Diagnostic::error(
                Code::IncompatiblePacks,
                format!("pack `{}` is incompatible with `{}` {v}, which is loaded", m.id, other.id),
            )
            .help(format!("check `{}` or `{}`, not both", m.id, other.id)),
        });
    } else if !incompatibility && !matches {
        findings.push(Finding {
            pack: i,
            pointer: pointer.to_string(),
            diagnostic: Diagnostic::error(
                Code::VersionMismatch,
                format!("pack `{}` needs `{}` {req}, but version {v} is loaded", m.id, other.id),
            )
            .help(format!("load a version of `{}` that matches {req}, or relax the requirement", other.id)),
        });
    }
}

/// The cycles among the packs left unordered, each once: a depth-first search
/// along "must load before" edges from each pack in turn (iterative, so a
/// long chain cannot overflow the stack; each pack is searched once, so the
/// whole search is linear). From each start, the first cycle met is reported.
fn find_cycles(left: &[usize], before: &[BTreeSet<usize>], done: &[bool]) -> Vec<Vec<usize>> {
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const FINISHED: u8 = 2;
    let mut mark = vec![NEW; before.len()];
    let mut at = vec![usize::MAX; before.len()];
    let mut cycles = Vec::new();
    for &start in left {
        if mark[start] != NEW {
            continue;
        }
        // The path, each pack with the edges still to follow.
        let mut path: Vec<(usize, Vec<usize>)> = Vec::new();
        let enter = |n: usize, path: &mut Vec<(usize, Vec<usize>)>, mark: &mut Vec<u8>, at: &mut Vec<usize>| {
            mark[n] = ON_PATH;
            at[n] = path.len();
            let next: Vec<usize> = before[n].iter().rev().copied().filter(|&m| !done[m]).collect();
            path.push((n, next));
        };
        enter(start, &mut path, &mut mark, &mut at);
        let mut found = None;
        while let Some((_, next)) = path.last_mut() {
            match next.pop() {
                Some(m) if mark[m] == ON_PATH => {
                    found = Some(path[at[m]..].iter().map(|(n, _)| *n).collect::<Vec<_>>());
                    break;
                }
                Some(m) if mark[m] == NEW => enter(m, &mut path, &mut mark, &mut at),
                Some(_) => {}
                None => {
                    let (n, _) = path.pop().expect("a pack on the path");
                    mark[n] = FINISHED;
                }
            }
        }
        for (n, _) in path {
            mark[n] = FINISHED;
        }
        cycles.extend(found);
    }
    cycles
}
