//! Effects: one source each, script paths inside the pack, every Lua source compiled once (those games load into the set) and checked statically (`lua.rs`), effects without Lua counted or listed.

use super::*;

impl Validator<'_> {
    /// Every pack script file: not bytecode, UTF-8. Returns their text by path.
    pub(super) fn read_scripts(&mut self, options: &Options) -> BTreeMap<std::path::PathBuf, Arc<str>> {
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
    pub(super) fn effects(&mut self, options: &Options) {
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
            // An Objective card's printed text: its `requirement` is what the
            // engine checks (`001 § Objective Cards`), not Lua.
            let card_id = cpath.split_once(' ').map_or(cpath.as_str(), |(c, _)| c);
            let objective = card_id.strip_prefix("objective:").and_then(|id| self.loaded.content.objectives.get(id));
            if lua.is_none() && script.is_none() && objective.is_some_and(|o| o.value.requirement.is_some()) {
                continue;
            }
            // A Wildcard Marker's printed text says only that it is not played
            // unless a Scenario says so and gives its Effect (`001 § Special
            // Spaces`): the engine never places one (`special_spaces.rs`),
            // which is all the text asks, so it is no effect left undone.
            let special =
                card_id.strip_prefix("special_space:").and_then(|id| self.loaded.content.special_spaces.get(id));
            if lua.is_none() && script.is_none() && special.is_some_and(|m| m.value.wildcard) {
                continue;
            }
            // An Invictus card or rule the engine performs from its data.
            if lua.is_none() && script.is_none() && self.invictus_native(&cpath) {
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
                        pack: origin.pack.to_string(),
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
                                    pack: origin.pack.to_string(),
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
                        pack: pack.manifest.id.to_string(),
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
        if options.compile_scripts {
            self.static_lua(&sources);
            self.compile_effects(sources, for_games, &texts);
        }
    }

    /// Compile every script once: those games load into the set (and check
    /// that a game's VM takes them), the others only for their errors.
    pub(super) fn compile_effects(
        &mut self,
        mut sources: Vec<ScriptSource>,
        for_games: usize,
        texts: &BTreeMap<std::path::PathBuf, Arc<str>>,
    ) {
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
                // Luau gives a line, not a column: point at the line's first
                // character that is not a space (inside a TOML string, the
                // Lua's own indentation), so the caret is on the code.
                let mut loc = crate::diag::line_location(&e.file, text, line);
                if let Some(span) = loc.span.clone() {
                    let indent = text[span.clone()].len() - text[span.clone()].trim_start().len();
                    if indent < span.len() {
                        let start = span.start + indent;
                        loc.column = crate::diag::line_column(text, start).1;
                        loc.span = Some(start..span.end);
                    }
                }
                d.location = Some(loc);
            }
            self.out.push(d);
        }
        self.set = Some(set);
    }

    /// Whether the effect at content path `cpath` (`artifact:xiphos effect`,
    /// `god:athena abilities[id=spectral-force].effect`) is one the Invictus
    /// engine performs from the entry's data, so it needs no Lua (docs/invictus.md):
    /// an Artifact by its `use` and the value that use reads (`prisma`,
    /// `damage`, `healing`, `stamina_gain`, `block`; `none` needs none); a
    /// god's ability that deals `damage`; a Reinforcement that gives a 4th
    /// skill token or an attack bonus; a counterfeit Boost; a component (a
    /// rule of `003` the engine's chapters play).
    fn invictus_native(&self, cpath: &str) -> bool {
        use crate::model::ArtifactUse;
        let c = &self.loaded.content;
        let (card, rest) = cpath.split_once(' ').unwrap_or((cpath, ""));
        let Some((kind, id)) = card.split_once(':') else { return false };
        match kind {
            "artifact" => c.artifacts.get(id).is_some_and(|a| {
                let a = &a.value;
                match a.use_ {
                    ArtifactUse::Prisma => a.prisma.is_some(),
                    ArtifactUse::StandardAttack => a.damage.is_some(),
                    ArtifactUse::Healing => a.healing.is_some(),
                    ArtifactUse::Stamina => a.stamina_gain.is_some(),
                    ArtifactUse::Block => a.block.is_some(),
                    ArtifactUse::None => true,
                }
            }),
            "god" => {
                let ability = rest.split_once("abilities[id=").and_then(|(_, r)| r.split_once(']')).map(|(a, _)| a);
                c.gods.get(id).is_some_and(|g| {
                    g.value.abilities.iter().any(|a| Some(a.id.as_str()) == ability && a.damage.is_some())
                })
            }
            "reinforcement" => {
                c.reinforcements.get(id).is_some_and(|r| r.value.skill_tier.is_some() || r.value.attack_bonus > 0)
            }
            "boost" => c.boosts.get(id).is_some_and(|b| b.value.counterfeit),
            "component" => c.components.contains_key(id),
            _ => false,
        }
    }

    /// The file line on which an inline chunk's line 1 is: a multi-line string
    /// that starts with a newline begins on the next line.
    pub(super) fn inline_first_line(&self, origin: &Origin, sub: &str) -> usize {
        let Some(loc) = self.loc(origin, sub) else { return 1 };
        let Some(text) = self.loaded.sources.get(&origin.file) else { return loc.line };
        let start = loc.span.map(|s| s.start).unwrap_or(0).min(text.len());
        let rest = &text[start..];
        let skip = ["'''\n", "'''\r\n", "\"\"\"\n", "\"\"\"\r\n"].iter().any(|p| rest.starts_with(p));
        loc.line + usize::from(skip)
    }

    /// (origin, JSON Pointer, effect object) for every effect of every loaded entry.
    /// Every effect of every entry, as (origin, pointer in the file, effect,
    /// its content path). A patched entry's effects are its effective ones,
    /// named from the effective entry (its items may have moved or been added).
    pub(super) fn all_effects(&self) -> Vec<(&Origin, String, &Value, String)> {
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

pub(super) fn ellipsis(s: &str, n: usize) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > n { format!("{}...", s.chars().take(n).collect::<String>()) } else { s }
}
