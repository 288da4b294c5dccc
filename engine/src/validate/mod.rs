//! Checks across all loaded content, beyond what a schema can say: references
//! between entries, per-Roll dice limits, map geometry, effects and their scripts,
//! and notes on provisional and unsupported content.
//!
//! Reads no files except the packs' Lua scripts (through `load`'s size-limited
//! reader); returns diagnostics and never changes the content.

mod effects;
mod invictus;
mod lua;
mod objectives;
mod scenarios;

use crate::content::{Entry, Origin};
use crate::diag::{Code, Diagnostic, Location};
use crate::loaded::{Loaded, Options};
use crate::model::Id;
use crate::model::*;
use crate::read;
use crate::script::runtime::{ScriptSet, ScriptSource};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// What the cross-content checks found.
#[derive(Debug, Default)]
pub struct Report {
    /// Every problem, in check order.
    pub diagnostics: Vec<Diagnostic>,
    /// Lua sources (files and inline effects) compiled.
    pub compiled: usize,
    /// The text of the script files read, for rendering their source lines.
    pub sources: Vec<(std::path::PathBuf, std::sync::Arc<str>)>,
    /// Every script that compiled, ready for a [`crate::script::runtime::Runtime`].
    pub scripts: Arc<ScriptSet>,
    /// Provisional entries counted.
    pub provisional: usize,
    /// Effects without Lua counted.
    pub unsupported: usize,
    /// Known gaps the packs' manifests declare.
    pub gaps: usize,
    /// Scenario rules the engine cannot perform (text only).
    pub text_only_rules: usize,
}

/// Run every cross-content check.
pub fn validate(loaded: &Loaded, options: &Options) -> Report {
    let mut v = Validator {
        loaded,
        out: Vec::new(),
        compiled: 0,
        sources: Vec::new(),
        set: None,
        notes: options.notes,
        provisional_count: 0,
        unsupported_count: 0,
        gap_count: 0,
        text_only_count: 0,
        suggested: std::cell::Cell::new(0),
    };
    v.dice_pools();
    v.references();
    v.invictus();
    v.maps();
    v.effects(options);
    v.timings();
    v.provisional();
    v.scenario_rules();
    v.objectives();
    Report {
        diagnostics: v.out,
        compiled: v.compiled,
        sources: v.sources,
        scripts: v.set.unwrap_or_default(),
        provisional: v.provisional_count,
        unsupported: v.unsupported_count,
        gaps: v.gap_count,
        text_only_rules: v.text_only_count,
    }
}

struct Validator<'a> {
    loaded: &'a Loaded,
    out: Vec<Diagnostic>,
    compiled: usize,
    sources: Vec<(std::path::PathBuf, std::sync::Arc<str>)>,
    set: Option<Arc<ScriptSet>>,
    notes: bool,
    provisional_count: usize,
    unsupported_count: usize,
    gap_count: usize,
    text_only_count: usize,
    /// "Did you mean" suggestions made so far.
    suggested: std::cell::Cell<usize>,
}

/// Most "did you mean" suggestions for dangling references in one load.
const MAX_SUGGESTIONS: usize = 100;

impl Validator<'_> {
    fn loc(&self, origin: &Origin, sub: &str) -> Option<Location> {
        self.loaded.locate(&origin.file, &format!("{}{sub}", origin.pointer))
    }

    fn cpath(&self, origin: &Origin, sub: &str) -> String {
        match self.loaded.docs.get(&origin.file) {
            Some(doc) => read::content_path(doc, &format!("{}{sub}", origin.pointer)),
            None => sub.to_string(),
        }
    }

    /// A reference to an entry no pack defines; "did you mean" for the first
    /// [`MAX_SUGGESTIONS`] of a load (each compares against every known id, so
    /// thousands of dangling references stay linear).
    fn dangling<S: AsRef<str>>(
        &self,
        origin: &Origin,
        sub: &str,
        kind: Kind,
        id: &str,
        known: impl FnOnce() -> Vec<S>,
    ) -> Diagnostic {
        // The entry is there but failed to load: a consequence of its error,
        // shown with --strict, not a second mistake.
        if self.loaded.failed_entries.contains(&format!("{kind}:{id}")) {
            return Diagnostic::note(
                Code::DanglingReference,
                format!("`{kind}:{id}` did not load (see its error); this reference waits for it"),
            )
            .at_opt(self.loc(origin, sub))
            .path(self.cpath(origin, sub));
        }
        let mut d = Diagnostic::error(Code::DanglingReference, format!("no loaded pack defines `{kind}:{id}`"))
            .at_opt(self.loc(origin, sub))
            .path(self.cpath(origin, sub));
        let suggestion = if self.suggested.get() < MAX_SUGGESTIONS {
            self.suggested.set(self.suggested.get() + 1);
            read::suggest(id, &known())
        } else {
            None
        };
        // A reference into an optional dependency that is not loaded: say so
        // (the content is missing because the pack is, not because of a typo).
        let absent: Vec<&Id> = self
            .loaded
            .packs
            .iter()
            .find(|p| p.manifest.id == origin.pack)
            .map(|p| {
                p.manifest
                    .optional_dependencies
                    .keys()
                    .filter(|dep| !self.loaded.packs.iter().any(|l| l.manifest.id == *dep))
                    .collect()
            })
            .unwrap_or_default();
        if !absent.is_empty() {
            let names: Vec<String> = absent.iter().map(|d| format!("`{d}`")).collect();
            d = d.with_note(format!(
                "pack `{}` has the optional dependency {} that is not loaded: if `{kind}:{id}` comes from it, the reference only holds when it is",
                origin.pack,
                names.join(", ")
            ));
        }
        d = match suggestion {
            Some(s) => d.help(format!("did you mean \"{s}\"?")),
            None => d.help(format!("add a `[[{kind}]]` entry with id = \"{id}\", or depend on the pack that has it")),
        };
        // A die is one of a handful of colours: name them all.
        if kind == Kind::Die {
            let dice: Vec<&str> = self.loaded.content.dice.keys().map(Id::as_str).collect();
            d = d.with_note(if dice.is_empty() {
                "no loaded pack defines any die (aristeia-core has the six colours)".to_string()
            } else {
                format!("the loaded dice are: {}", dice.join(", "))
            });
        }
        d
    }

    /// A Tactic or Automatic Skill whose timing the engine never plays for
    /// its kind would silently do nothing: a warning (docs/windows.md).
    fn timings(&mut self) {
        let mut found = Vec::new();
        let name = |w: crate::model::Window| {
            serde_json::to_value(w).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
        };
        for e in self.loaded.content.tactics.values() {
            let w = e.value.timing;
            if !w.plays_tactics() {
                let other = if w.runs_skills() { "Automatic Skills" } else { "an Action's own Effects" };
                found.push(
                    Diagnostic::warning(
                        Code::TimingNotPlayed,
                        format!("no Tactic is ever offered at `{}`: it is a moment for {other}", name(w)),
                    )
                    .at_opt(self.loc(&e.origin, "/timing"))
                    .path(self.cpath(&e.origin, "/timing"))
                    .help("see docs/windows.md for the timings Tactics are played at"),
                );
            }
        }
        // Scenarios that place markers need them loaded.
        let markers: usize = self
            .loaded
            .content
            .special_spaces
            .values()
            .filter(|m| !m.value.wildcard)
            .map(|m| m.value.count as usize)
            .sum();
        let projectiles = self.loaded.content.running_projectiles.len();
        for e in self.loaded.content.scenarios.values() {
            let sc = &e.value;
            let wanted = sc.special_spaces as usize;
            if wanted > markers {
                found.push(
                    Diagnostic::warning(
                        Code::MarkersMissing,
                        format!("`special_spaces = {wanted}`, but the loaded packs have {markers} Special Space marker(s): only those are placed"),
                    )
                    .at_opt(self.loc(&e.origin, "/special_spaces"))
                    .path(self.cpath(&e.origin, "/special_spaces"))
                    .help("depend on the pack with the markers (`aristeia-prime-time`), or ask for fewer"),
                );
            }
            if sc.running_projectiles && projectiles == 0 {
                found.push(
                    Diagnostic::warning(
                        Code::MarkersMissing,
                        "`running_projectiles = true`, but no loaded pack has a Running Projectile: none is deployed",
                    )
                    .at_opt(self.loc(&e.origin, "/running_projectiles"))
                    .path(self.cpath(&e.origin, "/running_projectiles"))
                    .help("depend on the pack with them (`aristeia-prime-time`)"),
                );
            }
        }
        for e in self.loaded.content.characters.values() {
            for (i, k) in e.value.automatic_skills.iter().enumerate() {
                let Some(w) = k.timing else { continue };
                if !w.runs_skills() {
                    let at = format!("/automatic_skills/{i}/timing");
                    let other = if w.plays_tactics() { "Tactics" } else { "an Action's own Effects" };
                    found.push(
                        Diagnostic::warning(
                            Code::TimingNotPlayed,
                            format!("no Automatic Skill ever runs at `{}`: it is a moment for {other}", name(w)),
                        )
                        .at_opt(self.loc(&e.origin, &at))
                        .path(self.cpath(&e.origin, &at))
                        .help("see docs/windows.md for the timings Automatic Skills run at"),
                    );
                }
            }
        }
        self.out.extend(found);
    }

    /// Every die named exists and no Roll exceeds a colour's per-Roll limit (`000 § Dice`).
    fn dice_pools(&mut self) {
        let mut pools: Vec<(&Origin, String, &Pool)> = Vec::new();
        for e in self.loaded.content.characters.values() {
            let c = &e.value;
            pools.push((&e.origin, "/defense".into(), &c.defense));
            pools.push((&e.origin, "/brawn".into(), &c.brawn));
            pools.push((&e.origin, "/agility".into(), &c.agility));
            for (i, a) in c.actions.iter().enumerate() {
                if let Some(r) = &a.roll {
                    pools.push((&e.origin, format!("/actions/{i}/roll"), r));
                }
            }
            for (m, minion) in c.minions.iter().enumerate() {
                for (key, p) in [("defense", &minion.defense), ("brawn", &minion.brawn), ("agility", &minion.agility)] {
                    if let Some(p) = p {
                        pools.push((&e.origin, format!("/minions/{m}/{key}"), p));
                    }
                }
                for (i, a) in minion.actions.iter().enumerate() {
                    if let Some(r) = &a.roll {
                        pools.push((&e.origin, format!("/minions/{m}/actions/{i}/roll"), r));
                    }
                }
            }
        }
        for e in self.loaded.content.scenarios.values() {
            for (i, a) in e.value.actions.iter().enumerate() {
                if let Some(r) = &a.roll {
                    pools.push((&e.origin, format!("/actions/{i}/roll"), r));
                }
            }
        }
        let dice = &self.loaded.content.dice;
        let known: Vec<Id> = dice.keys().cloned().collect();
        let mut found = Vec::new();
        for (origin, sub, pool) in pools {
            let mut counts: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
            for (i, d) in pool.dice.iter().enumerate() {
                let slot = counts.entry(d.as_str()).or_insert((0, i));
                slot.0 += 1;
                slot.1 = i;
                if !dice.contains_key(d) && slot.0 == 1 {
                    found.push(self.dangling(origin, &format!("{sub}/dice/{i}"), Kind::Die, d, || known.clone()));
                }
            }
            for (die, (n, last)) in counts {
                let Some(limit) = dice.get(die).map(|d| d.value.max_per_roll) else {
                    continue;
                };
                if n > limit as usize {
                    let at = format!("{sub}/dice/{last}");
                    found.push(
                        Diagnostic::error(
                            Code::DicePoolLimit,
                            format!("this Roll has {n} {die} dice; a Roll may hold at most {limit}"),
                        )
                        .at_opt(self.loc(origin, &at))
                        .path(self.cpath(origin, &format!("{sub}/dice")))
                        .with_note(
                            "000 § Dice: at most one red and one green die, and three of each other colour, per Roll",
                        )
                        .help(format!("remove {} {die} die or use another colour", n - limit as usize)),
                    );
                }
            }
        }
        self.out.extend(found);
    }

    /// Ids named by Tactics, Scenarios and setups exist.
    fn references(&mut self) {
        let c = &self.loaded.content;
        let characters: Vec<Id> = c.characters.keys().cloned().collect();
        let mut found = Vec::new();
        for e in c.tactics.values() {
            if let Some(ch) = &e.value.character {
                if !c.characters.contains_key(ch) {
                    found.push(self.dangling(&e.origin, "/character", Kind::Character, ch, || characters.clone()));
                }
            }
        }
        for e in c.scenarios.values() {
            let s = &e.value;
            match c.maps.get(&s.map) {
                None => {
                    found.push(self.dangling(&e.origin, "/map", Kind::Map, &s.map, || c.maps.keys().cloned().collect()))
                }
                Some(map) => {
                    for (key, list) in [("deployment_zones", &s.deployment_zones), ("scoring_zones", &s.scoring_zones)]
                    {
                        for (i, z) in list.iter().enumerate() {
                            self.zone_ref(&e.origin, &format!("/{key}/{i}"), map, z, &mut found);
                        }
                    }
                }
            }
        }
        for e in c.setups.values() {
            let s = &e.value;
            let map = match c.scenarios.get(&s.scenario) {
                None => {
                    let known = || c.scenarios.keys().cloned().collect();
                    found.push(self.dangling(&e.origin, "/scenario", Kind::Scenario, &s.scenario, known));
                    None
                }
                Some(sc) => c.maps.get(&sc.value.map),
            };
            for (t, team) in s.teams.iter().enumerate() {
                // "Two copies of the same Character cannot be on the same team" (`000 § Setup`, Step 2).
                for (i, ch) in team.characters.iter().enumerate() {
                    if team.characters[..i].contains(ch) {
                        let sub = format!("/teams/{t}/characters/{i}");
                        found.push(
                            Diagnostic::error(Code::InvalidValue, format!("`{ch}` is twice in team `{}`", team.name))
                                .at_opt(self.loc(&e.origin, &sub))
                                .path(self.cpath(&e.origin, &sub))
                                .with_note(
                                    "000 § Setup, Step 2: two copies of the same Character cannot be on the same team",
                                )
                                .help("choose another Character"),
                        );
                    }
                }
                for (i, ch) in team.characters.iter().enumerate() {
                    if !c.characters.contains_key(ch) {
                        let sub = format!("/teams/{t}/characters/{i}");
                        found.push(self.dangling(&e.origin, &sub, Kind::Character, ch, || characters.clone()));
                    }
                }
                for (i, ta) in team.tactics.iter().enumerate() {
                    if !c.tactics.contains_key(ta) {
                        let sub = format!("/teams/{t}/tactics/{i}");
                        found.push(
                            self.dangling(&e.origin, &sub, Kind::Tactic, ta, || c.tactics.keys().cloned().collect()),
                        );
                    }
                }
                if let (Some(z), Some(map)) = (&team.deployment_zone, map) {
                    self.zone_ref(&e.origin, &format!("/teams/{t}/deployment_zone"), map, z, &mut found);
                }
            }
        }
        self.out.extend(found);
    }

    fn zone_ref(&self, origin: &Origin, sub: &str, map: &Entry<Map>, zone: &str, found: &mut Vec<Diagnostic>) {
        let zones: Vec<Id> = map.value.zones.iter().map(|z| z.id).collect();
        if !zones.iter().any(|z| z == zone) {
            let mut d =
                Diagnostic::error(Code::DanglingReference, format!("map `{}` has no zone `{zone}`", map.value.id))
                    .at_opt(self.loc(origin, sub))
                    .path(self.cpath(origin, sub));
            d = match read::suggest(zone, &zones) {
                Some(s) => d.help(format!("did you mean \"{s}\"?")),
                None => d.help(format!("the zones of `{}` are: {}", map.value.id, zones.join(", "))),
            };
            found.push(d);
        }
    }

    /// Spaces lie on the board; zone references inside a map resolve.
    fn maps(&mut self) {
        let mut found = Vec::new();
        for e in self.loaded.content.maps.values() {
            let m = &e.value;
            let r = m.radius as i32;
            let on_board = |h: &Hex| {
                let (q, rr) = (h[0] as i32, h[1] as i32);
                q.abs().max(rr.abs()).max((q + rr).abs()) <= r
            };
            let check = |sub: String, h: &Hex, found: &mut Vec<Diagnostic>| {
                if !on_board(h) {
                    found.push(
                        Diagnostic::error(
                            Code::InvalidValue,
                            format!("space [{}, {}] is off the board of radius {r}", h[0], h[1]),
                        )
                        .at_opt(self.loc(&e.origin, &sub))
                        .path(self.cpath(&e.origin, &sub))
                        .help("axial coordinates [q, r] with max(|q|, |r|, |q + r|) <= radius"),
                    );
                }
            };
            for (i, h) in m.blocked.iter().enumerate() {
                check(format!("/blocked/{i}"), h, &mut found);
            }
            for (i, h) in m.barriers.iter().enumerate() {
                check(format!("/barriers/{i}"), h, &mut found);
            }
            for (z, zone) in m.zones.iter().enumerate() {
                for (i, h) in zone.spaces.iter().enumerate() {
                    check(format!("/zones/{z}/spaces/{i}"), h, &mut found);
                }
            }
            for (z, zone) in m.zones.iter().enumerate() {
                // One id per zone: Scenarios, objectives and Lua name zones by id.
                if let Some(first) = m.zones[..z].iter().position(|x| x.id == zone.id) {
                    let mut d = Diagnostic::error(
                        Code::DuplicateId,
                        format!("map `{}` has two zones with id `{}`", m.id, zone.id),
                    )
                    .at_opt(self.loc(&e.origin, &format!("/zones/{z}/id")))
                    .path(self.cpath(&e.origin, &format!("/zones/{z}")))
                    .help("give each zone its own id: Scenarios, objectives and Lua name zones by id");
                    if let Some(l) = self.loc(&e.origin, &format!("/zones/{first}/id")) {
                        d = d.with_note(format!("the first is at line {}", l.line));
                    }
                    found.push(d);
                }
                for (i, a) in zone.adjacent.iter().enumerate() {
                    self.zone_ref(&e.origin, &format!("/zones/{z}/adjacent/{i}"), e, a, &mut found);
                }
                if let Some(o) = &zone.opposite {
                    self.zone_ref(&e.origin, &format!("/zones/{z}/opposite"), e, o, &mut found);
                }
            }
        }
        self.out.extend(found);
    }

    /// Provisional entries, as notes (`arena check --strict` shows them).
    fn provisional(&mut self) {
        let mut found = Vec::new();
        for (kind, id, meta, origin) in self.loaded.content.metas() {
            if meta.provisional {
                self.provisional_count += 1;
                if !self.notes {
                    continue;
                }
                let mut d = Diagnostic::note(Code::Provisional, format!("`{kind}:{id}` is provisional"))
                    .at_opt(self.loaded.locate_key(&origin.file, &format!("{}/provisional", origin.pointer)))
                    .path(format!("{kind}:{id}"));
                if let Some(n) = &meta.note {
                    d = d.with_note(n.clone());
                }
                found.push(d.help("when the real data is known, correct it with a patch (docs/patches.md) that also sets `provisional = false` and a new `note`"));
            }
        }
        // Known gaps, from each pack's manifest.
        for pack in &self.loaded.packs {
            for (i, g) in pack.manifest.gaps.iter().enumerate() {
                self.gap_count += 1;
                if !self.notes {
                    continue;
                }
                let file = pack.root.join(crate::read::MANIFEST);
                found.push(
                    Diagnostic::note(Code::ContentGap, format!("not in `{}`: {}", pack.manifest.id, g.what))
                        .at_opt(self.loaded.locate_key(&file, &format!("/gap/{i}/what")))
                        .with_note(g.why.clone())
                        .help("when the text is known, add the entries and remove the `[[gap]]`"),
                );
            }
        }
        self.out.extend(found);
    }
}
