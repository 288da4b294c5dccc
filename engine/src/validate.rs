//! Checks across all loaded content, beyond what a schema can say: references
//! between entries, per-Roll dice limits, map geometry, effects and their scripts,
//! and notes on provisional and unsupported content.
//!
//! Reads no files except the packs' Lua scripts (through `load`'s size-limited
//! reader); returns diagnostics and never changes the content.

use crate::content::{Entry, Origin};
use crate::diag::{Code, Diagnostic, Location};
use crate::loaded::{Loaded, Options};
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
        suggested: std::cell::Cell::new(0),
    };
    v.dice_pools();
    v.references();
    v.maps();
    v.effects(options);
    v.timings();
    v.provisional();
    Report {
        diagnostics: v.out,
        compiled: v.compiled,
        sources: v.sources,
        scripts: v.set.unwrap_or_default(),
        provisional: v.provisional_count,
        unsupported: v.unsupported_count,
        gaps: v.gap_count,
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
    fn dangling(
        &self,
        origin: &Origin,
        sub: &str,
        kind: Kind,
        id: &str,
        known: impl FnOnce() -> Vec<String>,
    ) -> Diagnostic {
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
        let absent: Vec<&String> = self
            .loaded
            .packs
            .iter()
            .find(|p| p.manifest.id == origin.pack)
            .map(|p| {
                p.manifest
                    .optional_dependencies
                    .keys()
                    .filter(|dep| !self.loaded.packs.iter().any(|l| &l.manifest.id == *dep))
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
            let dice: Vec<&str> = self.loaded.content.dice.keys().map(String::as_str).collect();
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
        let known: Vec<String> = dice.keys().cloned().collect();
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
        let characters: Vec<String> = c.characters.keys().cloned().collect();
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
        let zones: Vec<String> = map.value.zones.iter().map(|z| z.id.clone()).collect();
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

    /// Every pack script file: not bytecode, UTF-8. Returns their text by path.
    fn read_scripts(&mut self, options: &Options) -> BTreeMap<std::path::PathBuf, Arc<str>> {
        let mut found = Vec::new();
        let mut texts = BTreeMap::new();
        let mut scratch = Loaded::default();
        for pack in &self.loaded.packs {
            for path in pack.scripts.values() {
                let Some(bytes) = crate::read::read_bytes(path, options, &mut scratch) else { continue };
                let whole = Location { file: path.clone(), span: None, line: 1, column: 1 };
                if let Some(encoding) = crate::script::compile::wide_encoding(&bytes) {
                    found.push(
                        Diagnostic::error(Code::NotUtf8, crate::script::compile::wide_encoding_message(encoding))
                            .at(whole)
                            .help("save the file as UTF-8 (Lua source is read as UTF-8 only)"),
                    );
                    continue;
                }
                if crate::script::is_bytecode(&bytes) {
                    found.push(
                        Diagnostic::error(Code::ScriptBytecode, "script is precompiled bytecode")
                            .at(whole)
                            .help("ship the Lua source; bytecode can bypass the sandbox and is never loaded"),
                    );
                    continue;
                }
                let Ok(text) = String::from_utf8(bytes) else {
                    found.push(
                        Diagnostic::error(Code::NotUtf8, "script is not valid UTF-8")
                            .at(whole)
                            .help("save the file as UTF-8"),
                    );
                    continue;
                };
                let text: Arc<str> = text.into();
                self.sources.push((path.clone(), text.clone()));
                texts.insert(path.clone(), text);
            }
        }
        self.out.extend(scratch.diagnostics);
        self.out.extend(found);
        texts
    }

    /// Every effect: one source at most, script paths inside the pack and present;
    /// effects with no Lua are listed as unsupported. Then every script (inline,
    /// referenced file, or any other `.lua` of a pack) is compiled, once.
    fn effects(&mut self, options: &Options) {
        let texts = self.read_scripts(options);
        let mut found = Vec::new();
        let mut sources = Vec::new();
        let mut referenced = BTreeSet::new();
        let mut unsupported = 0;
        for (origin, pointer, effect, cpath) in self.all_effects() {
            let sub = pointer.strip_prefix(&origin.pointer).unwrap_or(&pointer).to_string();
            let lua = effect.get("lua").and_then(Value::as_str);
            let script = effect.get("script").and_then(Value::as_str);
            let restriction = effect.get("prevents").and_then(Value::as_array).is_some_and(|p| !p.is_empty());
            if lua.is_none() && script.is_none() && restriction {
                // A restriction the engine applies itself (`model::Prevention`).
                continue;
            }
            if lua.is_none() && script.is_none() && !self.notes {
                // An effect without Lua, not listed: counted only (no path to build).
                unsupported += 1;
                continue;
            }
            let (card, effect_path) = cpath.split_once(' ').unwrap_or((cpath.as_str(), ""));
            match (lua, script) {
                (Some(_), Some(_)) => found.push(
                    Diagnostic::error(Code::EffectSource, "this effect gives both `lua` and `script`")
                        .at_opt(self.loc(origin, &format!("{sub}/script")))
                        .path(cpath.clone())
                        .help("keep one: inline `lua` for short effects, `script` for a file"),
                ),
                (Some(src), None) => {
                    let first_line = self.inline_first_line(origin, &format!("{sub}/lua"));
                    sources.push(ScriptSource {
                        pack: origin.pack.clone(),
                        card: card.to_string(),
                        effect: effect_path.to_string(),
                        file: origin.file.clone(),
                        first_line,
                        source: src.into(),
                        module: None,
                    });
                }
                (None, Some(path)) => {
                    let at = format!("{sub}/script");
                    if !read::path_stays_inside(path) {
                        found.push(
                            Diagnostic::error(Code::PathEscapesPack, format!("script path `{path}` leads outside the pack"))
                                .at_opt(self.loc(origin, &at))
                                .path(self.cpath(origin, &at))
                                .help("give a path relative to the pack folder, without `..`, such as \"scripts/valkyrie.lua\""),
                        );
                        continue;
                    }
                    let pack = self.loaded.packs.iter().find(|p| p.manifest.id == origin.pack);
                    let key = read::rel_key(std::path::Path::new(path));
                    match pack.and_then(|p| p.scripts.get(&key)) {
                        Some(file) => {
                            referenced.insert(file.clone());
                            if let Some(text) = texts.get(file) {
                                let function = effect.get("function").and_then(Value::as_str).map(str::to_string);
                                sources.push(ScriptSource {
                                    pack: origin.pack.clone(),
                                    card: card.to_string(),
                                    effect: effect_path.to_string(),
                                    file: file.clone(),
                                    first_line: 1,
                                    source: text.clone(),
                                    module: Some(function),
                                });
                            }
                        }
                        None => {
                            let known: Vec<String> =
                                pack.map(|p| p.scripts.keys().cloned().collect()).unwrap_or_default();
                            let mut d = Diagnostic::error(
                                Code::ScriptNotFound,
                                format!("no script `{path}` in pack `{}`", origin.pack),
                            )
                            .at_opt(self.loc(origin, &at))
                            .path(self.cpath(origin, &at));
                            d = match read::suggest(&key, &known) {
                                Some(s) => d.help(format!("did you mean \"{s}\"?")),
                                None => d.help("paths are relative to the pack folder (where pack.toml is)"),
                            };
                            found.push(d);
                        }
                    }
                }
                (None, None) => {
                    unsupported += 1;
                    if !self.notes {
                        continue;
                    }
                    let text = effect.get("text").and_then(Value::as_str).unwrap_or_default();
                    found.push(
                        Diagnostic::note(
                            Code::UnsupportedEffect,
                            format!("effect has no Lua yet: \"{}\"", ellipsis(text, 70)),
                        )
                        .at_opt(self.loc(origin, &sub))
                        .path(cpath.clone())
                        .help("add `lua = '''...'''` or `script = \"file.lua\"`; until then the engine cannot run it"),
                    );
                }
            }
        }
        self.unsupported_count += unsupported;
        // Pack scripts no effect names (helpers, tests) are compiled too, for
        // their syntax errors, but games never load them.
        let for_games = sources.len();
        for pack in &self.loaded.packs {
            for (key, file) in &pack.scripts {
                if referenced.contains(file) {
                    continue;
                }
                if let Some(text) = texts.get(file) {
                    sources.push(ScriptSource {
                        pack: pack.manifest.id.clone(),
                        card: format!("script:{key}"),
                        effect: String::new(),
                        file: file.clone(),
                        first_line: 1,
                        source: text.clone(),
                        module: Some(None),
                    });
                }
            }
        }
        self.out.extend(found);
        // Calls of `game:` functions the API does not have (docs/lua-api.md).
        for src in &sources {
            for (line_no, line) in src.source.lines().enumerate() {
                for name in game_calls(line) {
                    if crate::script::api::find(name).is_none() {
                        let known: Vec<String> =
                            crate::script::api::REGISTRY.iter().map(|f| f.name.to_string()).collect();
                        let mut d = Diagnostic::warning(
                            Code::ScriptError,
                            format!("`game:{name}` is not a function of the API"),
                        )
                        .at(crate::diag::line_location(
                            &src.file,
                            self.loaded.sources.get(&src.file).unwrap_or(&src.source),
                            src.first_line + line_no,
                        ))
                        .path(if src.effect.is_empty() {
                            src.card.clone()
                        } else {
                            format!("{} {}", src.card, src.effect)
                        });
                        d = match read::suggest(name, &known) {
                            Some(s) => d.help(format!("did you mean `game:{s}`? (docs/lua-api.md)")),
                            None => d.help("see docs/lua-api.md for the functions effects can call"),
                        };
                        self.out.push(d);
                    }
                }
            }
        }
        if options.compile_scripts {
            let others = sources.split_off(for_games);
            let (set, mut errors) = crate::script::runtime::compile_all(sources);
            let (unused, unused_errors) = crate::script::runtime::compile_all(others);
            errors.extend(unused_errors);
            self.compiled = set.len() + unused.len() + errors.len();
            // Exactly what a game loads: a VM with these scripts, under the
            // limits games play with.
            let limits = crate::script::runtime::Limits::default();
            if let Err(e) =
                crate::script::runtime::Runtime::new(Arc::new(crate::content::Content::default()), set.clone(), limits)
            {
                let first = set.sources().first();
                let mut d = Diagnostic::error(
                    Code::ScriptError,
                    format!(
                        "the scripts do not fit in the Lua VM games use: {}",
                        crate::diag::shorten(&e.to_string(), 200)
                    ),
                )
                .help(format!(
                    "each game's VM holds every effect's compiled Lua within {} MiB: make the scripts smaller",
                    limits.memory_bytes / (1024 * 1024)
                ));
                if let Some(f) = first {
                    d = d.at(Location { file: f.file.clone(), span: None, line: 1, column: 1 });
                }
                self.out.push(d);
            }
            for e in errors {
                let mut d = e.to_diagnostic();
                let text = self.loaded.sources.get(&e.file).or_else(|| texts.get(&e.file).map(|t| &**t));
                if let (Some(line), Some(text)) = (e.line, text) {
                    d.location = Some(crate::diag::line_location(&e.file, text, line));
                }
                self.out.push(d);
            }
            self.set = Some(set);
        }
    }

    /// The file line on which an inline chunk's line 1 is: a multi-line string
    /// that starts with a newline begins on the next line.
    fn inline_first_line(&self, origin: &Origin, sub: &str) -> usize {
        let Some(loc) = self.loc(origin, sub) else { return 1 };
        let Some(text) = self.loaded.sources.get(&origin.file) else { return loc.line };
        let start = loc.span.map(|s| s.start).unwrap_or(0).min(text.len());
        let rest = &text[start..];
        let skip = ["'''\n", "'''\r\n", "\"\"\"\n", "\"\"\"\r\n"].iter().any(|p| rest.starts_with(p));
        loc.line + usize::from(skip)
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

    /// (origin, JSON Pointer, effect object) for every effect of every loaded entry.
    /// Every effect of every entry, as (origin, pointer in the file, effect,
    /// its content path). A patched entry's effects are its effective ones,
    /// named from the effective entry (its items may have moved or been added).
    fn all_effects(&self) -> Vec<(&Origin, String, &Value, String)> {
        fn walk<'v>(v: &'v Value, pointer: String, out: &mut Vec<(String, &'v Value)>) {
            match v {
                Value::Object(m) => {
                    for (k, child) in m {
                        let p = format!("{pointer}/{}", crate::tomljson::escape(k));
                        match (k.as_str(), child) {
                            ("effect" | "condition", Value::Object(_)) => out.push((p.clone(), child)),
                            ("effects", Value::Array(items)) => {
                                for (i, item) in items.iter().enumerate() {
                                    if item.is_object() {
                                        out.push((format!("{p}/{i}"), item));
                                    }
                                }
                            }
                            _ => {}
                        }
                        walk(child, p, out);
                    }
                }
                Value::Array(a) => {
                    for (i, child) in a.iter().enumerate() {
                        walk(child, format!("{pointer}/{i}"), out);
                    }
                }
                _ => {}
            }
        }
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        for (kind, id, _, origin) in self.loaded.content.metas() {
            if !seen.insert((origin.file.clone(), origin.pointer.clone())) {
                continue;
            }
            let Some(doc) = self.loaded.docs.get(&origin.file) else {
                continue;
            };
            // A patched entry's effects are its effective ones (errata may change Lua too).
            let Some(v) = self.loaded.effective.get(&format!("{kind}:{id}")).or_else(|| doc.get(&origin.pointer))
            else {
                continue;
            };
            let patched = self.loaded.effective.contains_key(&format!("{kind}:{id}"));
            let mut effects = Vec::new();
            walk(v, origin.pointer.clone(), &mut effects);
            out.extend(effects.into_iter().map(|(p, e)| {
                let sub = p.strip_prefix(&origin.pointer).unwrap_or(&p).to_string();
                let cpath = if patched {
                    format!("{kind}:{id} {}", read::keyed_path(v, &sub))
                } else {
                    self.cpath(origin, &sub)
                };
                (origin, p, e, cpath)
            }));
        }
        out
    }
}

fn ellipsis(s: &str, n: usize) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > n { format!("{}...", s.chars().take(n).collect::<String>()) } else { s }
}

/// The names called as `game:NAME(` or `game.NAME(` on a line (comments skipped).
fn game_calls(line: &str) -> Vec<&str> {
    let code = line.split("--").next().unwrap_or_default();
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("game") {
        let before_ok = i == 0 || !rest.as_bytes()[i - 1].is_ascii_alphanumeric() && rest.as_bytes()[i - 1] != b'_';
        let after = &rest[i + 4..];
        if before_ok && (after.starts_with(':') || after.starts_with('.')) {
            let name: &str = &after[1..];
            let len = name.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
            if len > 0 && name[len..].trim_start().starts_with('(') {
                out.push(&name[..len]);
            }
        }
        rest = &rest[i + 4..];
    }
    out
}
