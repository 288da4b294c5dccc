//! What `arena check` resolves in Lua without running it
//! ([`crate::script::analysis`]): every `game:` call names a function of the
//! API of the script's game (Aristeia's `script::api::REGISTRY` or Invictus's
//! `invictus::api::REGISTRY`, never the other), the string literals passed as
//! State, Character, die, zone or god ids name loaded content, and no loop
//! can run for ever. Each is an error with "did you mean" where one is near:
//! a game would only fail there. A question about an id no pack defines
//! (`game:has_state(c, "marked")` without the pack of Marked) is only ever
//! "no", so it is said only for a near miss, as a warning; ids of a kind no
//! loaded pack has any of are not judged.

use super::*;
use crate::model::Id;
use crate::script::analysis::{self, Arg, Facts};
use crate::script::api::{ApiFn, HostFn, Param, Ty};

/// The kinds whose effects call the Invictus API (docs/invictus-lua-api.md).
const INVICTUS_KINDS: [&str; 4] = ["god", "boost", "reinforcement", "artifact"];

/// The game whose API a script calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Api {
    Aristeia,
    Invictus,
}

impl Api {
    fn registry(self) -> &'static [ApiFn] {
        match self {
            Api::Aristeia => crate::script::api::REGISTRY,
            Api::Invictus => crate::invictus::api::REGISTRY,
        }
    }

    fn doc(self) -> &'static str {
        match self {
            Api::Aristeia => "docs/lua-api.md",
            Api::Invictus => "docs/invictus-lua-api.md",
        }
    }
}

/// What kind of id a parameter takes, when the loaded content can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum IdKind {
    State,
    Character,
    Die,
    Zone,
    God,
}

fn id_kind(api: Api, param: &Param) -> Option<IdKind> {
    match (api, param.ty, param.name) {
        (Api::Aristeia, Ty::State, _) => Some(IdKind::State),
        (Api::Aristeia, Ty::Character | Ty::CharacterList, _) => Some(IdKind::Character),
        (Api::Aristeia, Ty::Die, _) => Some(IdKind::Die),
        (Api::Aristeia, Ty::String | Ty::StringList, "zone" | "zones") => Some(IdKind::Zone),
        (Api::Invictus, Ty::String, "god" | "from" | "to") => Some(IdKind::God),
        _ => None,
    }
}

/// Where a source's byte offsets are in its file.
enum Place<'t> {
    /// The source is in the file verbatim from this byte on.
    At(&'t str, usize),
    /// Only the line is known: the source's line 1 is the file's `first_line`.
    Lines(&'t str, usize),
}

impl Validator<'_> {
    /// The static checks of every script (see the module doc).
    pub(super) fn static_lua(&mut self, sources: &[ScriptSource]) {
        // A file several effects name is analysed once.
        let mut seen = BTreeSet::new();
        let unique: Vec<&ScriptSource> =
            sources.iter().filter(|s| seen.insert((s.file.clone(), s.first_line, s.source.len()))).collect();
        let texts: Vec<&str> = unique.iter().map(|s| &*s.source).collect();
        let all = analysis::analyse_all(&texts);
        let mut found = Vec::new();
        for (src, facts) in unique.into_iter().zip(all) {
            if let Some(facts) = facts {
                self.check_facts(src, &facts, &mut found);
            }
        }
        self.out.extend(found);
    }

    fn api_of(&self, src: &ScriptSource) -> Api {
        let kind = src.card.split_once(':').map_or("", |(k, _)| k);
        if INVICTUS_KINDS.contains(&kind) {
            return Api::Invictus;
        }
        // A script no loaded effect names (a helper, or the script of an entry
        // that did not load): the API of its pack's game.
        let pack = self.loaded.packs.iter().find(|p| p.manifest.id == src.pack);
        match pack.map(|p| p.manifest.game) {
            Some(GameTitle::Invictus) if kind == "script" => Api::Invictus,
            _ => Api::Aristeia,
        }
    }

    fn place<'t>(&'t self, src: &'t ScriptSource) -> Place<'t> {
        let file_text = self.loaded.sources.get(&src.file).unwrap_or(&src.source);
        if src.module.is_some() {
            return Place::At(&src.source, 0);
        }
        // An inline chunk: found from the start of its first line (a
        // single-line string starts after the key and its quote).
        let start = crate::diag::line_location(&src.file, file_text, src.first_line).span.map_or(0, |s| s.start);
        let line_end = file_text[start..].find('\n').map_or(file_text.len(), |n| start + n);
        match file_text[start..].find(&*src.source) {
            Some(i) if start + i <= line_end => Place::At(file_text, start + i),
            _ => Place::Lines(file_text, src.first_line),
        }
    }

    fn lua_location(&self, src: &ScriptSource, span: &std::ops::Range<usize>) -> Location {
        match self.place(src) {
            Place::At(text, base) => {
                let (line, column) = crate::diag::line_column(text, base + span.start);
                Location { file: src.file.clone(), span: Some(base + span.start..base + span.end), line, column }
            }
            Place::Lines(text, first_line) => {
                let lua_line = crate::diag::line_column(&src.source, span.start).0;
                crate::diag::line_location(&src.file, text, first_line + lua_line - 1)
            }
        }
    }

    fn content_path(src: &ScriptSource) -> String {
        if src.effect.is_empty() { src.card.clone() } else { format!("{} {}", src.card, src.effect) }
    }

    fn check_facts(&self, src: &ScriptSource, facts: &Facts, found: &mut Vec<Diagnostic>) {
        let api = self.api_of(src);
        let registry = api.registry();
        // Ids the script asks the content about (`game:state_card("burning")`
        // before imposing Burning, a State of another pack): it guards them.
        let asked: BTreeSet<(IdKind, &str)> = facts
            .calls
            .iter()
            .filter_map(|c| {
                let kind = match c.name.as_str() {
                    "state_card" => IdKind::State,
                    "character_card" => IdKind::Character,
                    "die_faces" => IdKind::Die,
                    _ => return None,
                };
                match c.args.first() {
                    Some(Arg::Str(id, _)) if api == Api::Aristeia => Some((kind, id.as_str())),
                    _ => None,
                }
            })
            .collect();
        for call in &facts.calls {
            let Some(f) = registry.iter().find(|f| f.name == call.name) else {
                found.push(self.unknown_function(src, api, &call.name, &call.span));
                continue;
            };
            for (param, arg) in f.params.iter().zip(&call.args) {
                let Some(kind) = id_kind(api, param) else { continue };
                let literals: Vec<(&String, &std::ops::Range<usize>)> = match arg {
                    Arg::Str(s, r) => vec![(s, r)],
                    Arg::List(items) => items.iter().map(|(s, r)| (s, r)).collect(),
                    Arg::Other => continue,
                };
                for (id, span) in literals {
                    // `characters_in_zone("scoring-zone")` names every current Scoring Zone.
                    if kind == IdKind::Zone && param.doc.contains("`scoring-zone`") && id == "scoring-zone" {
                        continue;
                    }
                    if let Some(d) = self.unknown_id(src, f, kind, id, span, asked.contains(&(kind, id.as_str()))) {
                        found.push(d);
                    }
                }
            }
        }
        for l in &facts.endless {
            let condition = if l.keyword == "while" { "is always true" } else { "is never true" };
            found.push(
                Diagnostic::error(
                    Code::ScriptNeverEnds,
                    format!("this `{}` loop never ends: its condition {condition} and nothing in it leaves it", l.keyword),
                )
                .at(self.lua_location(src, &l.span))
                .path(Self::content_path(src))
                .with_note("an effect runs within a fixed instruction budget: once entered, this loop can only make the effect fail (script-budget-exhausted)")
                .help("give the loop a condition that becomes false, or a `break`, `return` or `error(...)` inside it"),
            );
        }
    }

    fn unknown_function(&self, src: &ScriptSource, api: Api, name: &str, span: &std::ops::Range<usize>) -> Diagnostic {
        let known: Vec<String> = api.registry().iter().map(|f| f.name.to_string()).collect();
        let game = match api {
            Api::Aristeia => "Aristeia!",
            Api::Invictus => "Invictus",
        };
        let mut d = Diagnostic::error(
            Code::ScriptUnknownFunction,
            format!("`game:{name}` is not a function of the {game} Lua API"),
        )
        .at(self.lua_location(src, span))
        .path(Self::content_path(src));
        // A function of the other game's API: say so, it is the usual mix-up.
        let other = match api {
            Api::Aristeia => Api::Invictus,
            Api::Invictus => Api::Aristeia,
        };
        if other.registry().iter().any(|f| f.name == name) {
            d = d.with_note(format!(
                "`{name}` is in the other game's API ({}); this script is for {game} (its card's kind, or its pack's `game`)",
                other.doc()
            ));
        }
        d.help(match read::suggest(name, &known) {
            Some(s) => format!("did you mean `game:{s}`? ({})", api.doc()),
            None => format!("see {} for the functions effects can call", api.doc()),
        })
    }

    /// The zones a Scenario rule's Lua may name (its map's), or every loaded map's.
    fn zones_for(&self, src: &ScriptSource) -> (Vec<Id>, Option<String>) {
        let c = &self.loaded.content;
        let scenario = src.card.strip_prefix("scenario:").and_then(|id| c.scenarios.get(id));
        if let Some(map) = scenario.and_then(|s| c.maps.get(&s.value.map)) {
            return (map.value.zones.iter().map(|z| z.id).collect(), Some(map.value.id.to_string()));
        }
        let mut all: Vec<Id> = c.maps.values().flat_map(|m| m.value.zones.iter().map(|z| z.id)).collect();
        all.sort();
        all.dedup();
        (all, None)
    }

    /// A literal id that names no loaded entry of its kind, as a diagnostic.
    fn unknown_id(
        &self,
        src: &ScriptSource,
        f: &ApiFn,
        kind: IdKind,
        id: &str,
        span: &std::ops::Range<usize>,
        guarded: bool,
    ) -> Option<Diagnostic> {
        let c = &self.loaded.content;
        let (entry_kind, known): (Option<Kind>, Vec<Id>) = match kind {
            IdKind::State => (Some(Kind::State), c.states.keys().cloned().collect()),
            IdKind::Die => (Some(Kind::Die), c.dice.keys().cloned().collect()),
            IdKind::God => (Some(Kind::God), c.gods.keys().cloned().collect()),
            IdKind::Character => {
                // A Character, a Minion of one (`drone-1`), a Running
                // Projectile or an Obstacle (`barrier@q,r`) is a unit in play.
                let minions = c.characters.values().flat_map(|ch| ch.value.minions.iter().map(|m| m.id));
                let unit = c.characters.contains_key(id)
                    || c.running_projectiles.contains_key(id)
                    || id.starts_with("barrier@")
                    || minions.clone().any(|m| id == m || id.strip_prefix(&*m).is_some_and(|r| r.starts_with('-')));
                if unit {
                    return None;
                }
                (Some(Kind::Character), c.characters.keys().cloned().collect())
            }
            IdKind::Zone => (None, self.zones_for(src).0),
        };
        // Nothing of the kind loaded (a pack checked without the packs its
        // ids come from): nothing to resolve against.
        if known.is_empty() || known.iter().any(|k| k == id) {
            return None;
        }
        // A question (`has_state`, `state_card`) about an entry no loaded
        // pack defines is only ever "no": the core's Tactics ask whether a
        // Character is Marked, a State of Soldiers of Fortune. Only a near
        // miss is worth a word there, and a warning.
        let question = matches!(f.id, HostFn::Query(_) | HostFn::Content(_)) && kind != IdKind::Character;
        let suggestion = if self.suggested.get() < MAX_SUGGESTIONS {
            self.suggested.set(self.suggested.get() + 1);
            read::suggest(id, &known)
        } else {
            None
        };
        // Likewise a change the script makes only once it has found the
        // entry loaded (`if game:state_card("burning") == nil then return end`).
        if (question || guarded) && suggestion.is_none() {
            return None;
        }
        let at = self.lua_location(src, span);
        let (message, wait) = match entry_kind {
            Some(k) if self.loaded.failed_entries.contains(&format!("{k}:{id}")) => {
                (format!("`{k}:{id}` did not load (see its error); this call waits for it"), true)
            }
            Some(k) => (format!("`game:{}` is given `{k}:{id}`, which no loaded pack defines", f.name), false),
            None => match self.zones_for(src).1 {
                Some(map) => {
                    (format!("`game:{}` is given zone `{id}`, which map `{map}` does not have", f.name), false)
                }
                None => (format!("`game:{}` is given zone `{id}`, which no loaded map has", f.name), false),
            },
        };
        if wait {
            return Some(Diagnostic::note(Code::DanglingReference, message).at(at).path(Self::content_path(src)));
        }
        let (mut d, note) = if question {
            (
                Diagnostic::warning(Code::DanglingReference, message),
                "the answer is always \"no\" for an id no loaded pack defines",
            )
        } else {
            (
                Diagnostic::error(Code::DanglingReference, message),
                "a game would fail at this call: the id is a string the engine looks up",
            )
        };
        d = d.at(at).path(Self::content_path(src)).with_note(note);
        Some(match suggestion {
            Some(s) => d.help(format!("did you mean \"{s}\"?")),
            None => match entry_kind {
                Some(k) => d.help(format!(
                    "name a loaded `{k}`, or depend on the pack that defines `{id}` (or call this only once `game:{}(\"{id}\")` found it loaded)",
                    match k {
                        Kind::Die => "die_faces",
                        Kind::Character => "character_card",
                        _ => "state_card",
                    }
                )),
                None => d.help(format!("the zones are: {}", known.join(", "))),
            },
        })
    }
}
