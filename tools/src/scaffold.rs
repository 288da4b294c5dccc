//! `arena new`: scaffolding for designers. Each kind writes a valid entry with
//! every required key, a comment on each key saying what it means, and, for
//! entries with effects, a Lua script and its `*.test.lua`, so that
//! `arena check` passes on the result at once.

use crate::Exit;
use anyhow::Context;
use arena_engine::load;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `arena new` makes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewKind {
    /// A pack folder with its `pack.toml` (depending on aristeia-core).
    Pack,
    /// A Character with a Switch whose effect is a Lua script, and its test.
    Character,
    /// A Tactic whose effect is a Lua script, and its test.
    Tactic,
    /// A Scenario, on a new map of its own.
    Scenario,
    /// A HexaDome map with two Deployment Zones and a central Scoring Zone.
    Map,
}

/// Arguments of `arena new`.
#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// What to make.
    #[arg(value_enum)]
    kind: NewKind,
    /// Its id, in kebab-case (`la-duelista`).
    id: String,
    /// The pack folder to write into; for `new pack`, the folder to create.
    /// Default: the current folder (`new pack`: a folder named ID in it).
    #[arg(long, value_name = "DIR")]
    pack: Option<PathBuf>,
    /// The printed name. Default: the id in title case (`La Duelista`).
    #[arg(long)]
    name: Option<String>,
    /// For `new tactic`: the Character whose Tactic it is (default: none, a
    /// Tactic any team may hold).
    #[arg(long, value_name = "CHARACTER")]
    character: Option<String>,
    /// Overwrite files that exist.
    #[arg(long)]
    force: bool,
}

/// `arena new KIND ID`: write the files, list them, and say how to check them.
pub fn run(args: NewArgs, ui: &crate::Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    if !arena_engine::read::is_kebab(&args.id) {
        writeln!(
            stderr,
            "error: `{}` is not a kebab-case id\nhelp: lower-case letters, digits and single hyphens, such as `la-duelista`",
            args.id
        )?;
        return Ok(2);
    }
    if let Some(c) = args.character.as_deref().filter(|c| !arena_engine::read::is_kebab(c)) {
        writeln!(stderr, "error: --character `{c}` is not a kebab-case id")?;
        return Ok(2);
    }
    let name = args.name.clone().unwrap_or_else(|| title_case(&args.id));
    // A name is one line of print: a newline would end the `--` comment it is
    // written into in the Lua files and make the rest of it code.
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        writeln!(
            stderr,
            "error: --name {} holds the control character U+{:04X}\nhelp: a printed name is one line of text, without tabs, newlines or escapes",
            name.escape_debug(),
            c as u32
        )?;
        return Ok(2);
    }
    let root = match args.kind {
        NewKind::Pack => args.pack.clone().unwrap_or_else(|| PathBuf::from(&args.id)),
        _ => args.pack.clone().unwrap_or_else(|| PathBuf::from(".")),
    };
    if args.kind != NewKind::Pack && !root.join(load::MANIFEST).is_file() {
        writeln!(
            stderr,
            "error: {} holds no {}: give the pack folder with --pack DIR\nhelp: `arena new pack ID` makes one",
            root.display(),
            load::MANIFEST
        )?;
        return Ok(2);
    }
    if let Some(c) = args.character.as_deref().filter(|_| args.kind == NewKind::Tactic) {
        // The Character must be one the pack or its dependencies define
        // (else the scaffold fails `check` with a dangling reference).
        let selection = crate::packs::select(std::slice::from_ref(&root), crate::content_paths);
        let options = load::Options { run_script_tests: false, ..load::Options::default() };
        let loaded = load::load(&selection.paths, &options);
        let known: Vec<String> = loaded.content.characters.keys().map(|k| k.to_string()).collect();
        if !known.iter().any(|k| k == c) {
            writeln!(
                stderr,
                "error: --character `{c}` is not a Character of {} or its dependencies{}",
                root.display(),
                crate::did_you_mean(c, &known)
            )?;
            return Ok(2);
        }
    }
    let id = args.id.as_str();
    let files: Vec<(PathBuf, String)> = match args.kind {
        NewKind::Pack => vec![(root.join(load::MANIFEST), pack(id, &name))],
        NewKind::Character => vec![
            (root.join(format!("characters/{id}.toml")), character(id, &name)),
            (root.join(format!("scripts/{id}.lua")), character_script(id, &name)),
            (root.join(format!("tests/{id}.test.lua")), character_test(id, &name)),
        ],
        NewKind::Tactic => vec![
            (root.join(format!("tactics/{id}.toml")), tactic(id, &name, args.character.as_deref())),
            (root.join(format!("scripts/{id}.lua")), tactic_script(id, &name)),
            (root.join(format!("tests/{id}.test.lua")), tactic_test(id, &name, args.character.as_deref())),
        ],
        NewKind::Scenario => vec![(root.join(format!("scenarios/{id}.toml")), scenario(id, &name))],
        NewKind::Map => vec![(root.join(format!("maps/{id}.toml")), map_file(id, &name))],
    };
    // A symbolic link inside the pack (a folder, or the file itself, even
    // dangling) is never followed: a file is written only inside the pack.
    if let Some(link) = files.iter().find_map(|(p, _)| linked_below(&root, p)) {
        writeln!(
            stderr,
            "error: {} is a symbolic link: `arena new` writes only inside the pack folder, and does not follow links\nhelp: remove the link, or give the folder it leads to with --pack",
            link.display()
        )?;
        return Ok(2);
    }
    // `symlink_metadata`: a dangling link counts as there (it is not followed).
    let existing: Vec<&PathBuf> =
        files.iter().map(|(p, _)| p).filter(|p| std::fs::symlink_metadata(p).is_ok()).collect();
    if !args.force && !existing.is_empty() {
        for p in existing {
            writeln!(stderr, "error: {} exists (--force overwrites it)", p.display())?;
        }
        return Ok(2);
    }
    for (path, text) in &files {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        crate::write_atomically(path, text.as_bytes())?;
        if !ui.quiet() {
            writeln!(stdout, "created {}", path.display())?;
        }
    }
    // The editors' files: what the `#:schema` lines and `.luarc.json` name.
    let (wrote, warnings) = write_editor_files(&root);
    for w in warnings {
        writeln!(stderr, "warning: {w}")?;
    }
    if !wrote.is_empty() && !ui.quiet() {
        let folder = wrote.iter().any(|r| r.starts_with(EDITOR_FOLDER));
        let luarc = wrote.iter().any(|r| r == Path::new(".luarc.json"));
        let what = match (folder, luarc) {
            (true, true) => format!(
                "{} (this arena's schemas and Lua definitions, for editors) and .luarc.json",
                root.join(EDITOR_FOLDER).display()
            ),
            (true, false) => format!(
                "{} (this arena's schemas and Lua definitions, for editors)",
                root.join(EDITOR_FOLDER).display()
            ),
            _ => root.join(".luarc.json").display().to_string(),
        };
        writeln!(stdout, "wrote {what}")?;
    }
    if !ui.quiet() {
        writeln!(stdout, "next: edit the files, then `arena check {}`", root.display())?;
    }
    Ok(0)
}

/// The first symbolic link on the way from `root` (not included: the user
/// named it) down to `file` (included), if any.
fn linked_below(root: &Path, file: &Path) -> Option<PathBuf> {
    let rel = file.strip_prefix(root).ok()?;
    let mut at = root.to_path_buf();
    for part in rel.components() {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => return Some(at),
            Ok(_) => {}
            // Not there yet: nothing below it is either.
            Err(_) => return None,
        }
    }
    None
}

/// `la-duelista` -> `La Duelista`.
fn title_case(id: &str) -> String {
    id.split('-')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect::<String>()).unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A TOML basic string.
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// `s` as a Lua string literal: in double quotes, with `\\` and `"` escaped
/// (and any control character as `\ddd`, though names have none).
fn lua_quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_ascii_control() => out.push_str(&format!("\\{:03}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The folder of a pack that `arena new` writes the editors' files into
/// (hidden: the loader reads no hidden file).
pub const EDITOR_FOLDER: &str = ".arena";

/// The `#:schema` line of a file `depth` folders below the pack's root: the
/// pack's own copy of the schema, in [`EDITOR_FOLDER`], so the line works on
/// every machine the pack is cloned to.
pub(crate) fn schema_line(depth: usize, schema: &str) -> String {
    format!("#:schema {}{EDITOR_FOLDER}/{schema}\n", "../".repeat(depth))
}

/// The files `arena new` keeps in a pack for editors: this arena's schemas
/// and Lua definitions in [`EDITOR_FOLDER`] (written again by every `arena
/// new`, so they follow the arena that wrote the pack's files), and a
/// `.luarc.json` that points the Lua language server (LuaLS) at the
/// definitions (written once: the modder may edit it). Paths relative to the
/// pack's root, with whether an existing file is kept.
fn editor_files() -> Vec<(PathBuf, String, bool)> {
    let mut out: Vec<(PathBuf, String, bool)> = arena_engine::generate::files()
        .into_iter()
        .filter_map(|(rel, text)| Some((Path::new(EDITOR_FOLDER).join(rel.strip_prefix("schemas/")?), text, false)))
        .collect();
    let luarc = serde_json::json!({
        "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
        "runtime.version": "Lua 5.1",
        "workspace.library": [EDITOR_FOLDER],
    });
    let text = serde_json::to_string_pretty(&luarc).unwrap_or_default() + "\n";
    out.push((PathBuf::from(".luarc.json"), text, true));
    out
}

/// Write the editors' files ([`editor_files`]) into the pack at `root`:
/// the paths written (relative to `root`), and a warning for each that
/// could not be (they only help editors: a pack works without them).
pub(crate) fn write_editor_files(root: &Path) -> (Vec<PathBuf>, Vec<String>) {
    let mut wrote = Vec::new();
    let mut warnings = Vec::new();
    let mut folder_failed = false;
    for (rel, text, keep) in editor_files() {
        let in_folder = rel.starts_with(EDITOR_FOLDER);
        if in_folder && folder_failed {
            continue;
        }
        let path = root.join(&rel);
        if let Some(link) = linked_below(root, &path) {
            warnings.push(format!(
                "{} is a symbolic link, not followed: {} not written (the #:schema lines and .luarc.json name what is in it)",
                link.display(),
                if in_folder { EDITOR_FOLDER.to_string() } else { rel.display().to_string() }
            ));
            folder_failed |= in_folder;
            continue;
        }
        let there = std::fs::symlink_metadata(&path).is_ok();
        if (keep && there) || std::fs::read_to_string(&path).is_ok_and(|t| t == text) {
            continue;
        }
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .map_err(anyhow::Error::from)
            .and_then(|()| crate::write_atomically(&path, text.as_bytes()));
        match written {
            Ok(()) => wrote.push(rel),
            Err(e) => {
                let what = if in_folder { root.join(EDITOR_FOLDER) } else { path.clone() };
                warnings.push(format!(
                    "{} not written ({e:#}): editors will not find what the #:schema lines and .luarc.json name",
                    what.display()
                ));
                folder_failed |= in_folder;
            }
        }
    }
    (wrote, warnings)
}

fn pack(id: &str, name: &str) -> String {
    format!(
        r#"{schema}# The pack manifest (docs/packs.md). Every other `*.toml` below this folder is
# content; `*.lua` files are scripts, `*.test.lua` files their tests.

# The pack's id: kebab-case, unique among the packs loaded together.
id = {id}
# Its version (semver); dependents pin it with a requirement such as "^0.1".
version = "0.1.0"
# The game it is for: "aristeia" or "invictus".
game = "aristeia"
# The display title.
title = {name}
# Who made it.
authors = ["Your Name <you@example.org>"]
# One paragraph on what the pack holds.
description = "A new pack."

# The packs this one needs, id = semver requirement: the core box's dice,
# States and maps. Add `aristeia-prime-time = "^1.0"` and so on as needed.
[dependencies]
aristeia-core = "^1.0"
"#,
        schema = schema_line(0, "pack.schema.json"),
        id = quoted(id),
        name = quoted(name),
    )
}

fn character(id: &str, name: &str) -> String {
    format!(
        r#"{schema}# A Character (000 § Characters): the keys are the card's; docs/packs.md has
# them all, and docs/effects.md the Lua of effects.

[[character]]
# Its id: kebab-case, unique among Characters.
id = {id}
# The printed name.
name = {name}
# Initiative: who acts first in a Turn (000 § Initiative).
initiative = 5
# Speed: Movement Points the Move Action gives (000 § Speed).
speed = 4
# Energy: Action Points gained at the Preparation Step (000 § Energy).
energy = 5
# Hit Points: the Damage it can suffer before going to the Infirmary (000 § Hit Points).
hit_points = 4
# Defense pool: the dice rolled when it is Attacked (000 § Defense).
defense = {{ dice = ["green", "blue"] }}
# Brawn pool: the dice rolled to stop an Enemy's Disengage (000 § Brawn).
brawn = {{ dice = ["blue"] }}
# Agility pool: the dice rolled to Disengage (000 § Agility).
agility = {{ dice = ["orange"] }}
# Where the entry comes from: a rulebook citation (`<file> § <heading>`) or "original design".
source = "original design"

# A general Switch: usable on any of its Rolls (000 § Switches).
[[character.switches]]
# Its id: kebab-case, unique within the Character.
id = "{id_raw}-switch"
# The symbols paid to use it.
cost = ["special"]
# What it does: the printed text, and the Lua that does it (here a script
# file, relative to the pack folder; inline Lua is `effect.lua = '''...'''`).
effect = {{ text = "Add a Success to your Roll.", script = "scripts/{id_raw}.lua" }}

# Actions (`[[character.actions]]`) and Automatic Skills
# (`[[character.automatic_skills]]`) are added the same way: see docs/packs.md.
"#,
        schema = schema_line(1, "content.schema.json"),
        id = quoted(id),
        id_raw = id,
        name = quoted(name),
    )
}

fn character_script(id: &str, name: &str) -> String {
    format!(
        r#"-- {name}'s Switch (characters/{id}.toml). The file returns a function that
-- the engine calls with the game API and the effect's context (docs/effects.md,
-- docs/lua-api.md): `ctx.self` is {name}, `ctx.target` the Target if any.
-- The types are in .arena/arena.d.lua (the Lua language server reads them
-- through .luarc.json).
---@param game Game
---@param ctx Ctx
return function(game, ctx)
  game:add_symbol("success")
end
"#
    )
}

fn character_test(id: &str, name: &str) -> String {
    format!(
        r#"-- Tests of {name}'s scripted effects, run by `arena check` against a recording
-- host: each case names the card and effect, the context, the answers the
-- API gives, and the calls the effect must make (docs/effects.md).
return {{
  {{
    name = {case},
    card = "character:{id}",
    effect = "switches[id={id}-switch].effect",
    ctx = {{ self = "{id}" }},
    expect_calls = {{ 'add_symbol("success", nil)' }},
  }},
}}
"#,
        case = lua_quoted(&format!("{name}'s Switch adds a Success to the Roll")),
    )
}

fn tactic(id: &str, name: &str, character: Option<&str>) -> String {
    let owner = match character {
        Some(c) => format!("# The Character whose Tactic this is (leave it out for a Tactic of any team).\ncharacter = {}\n", quoted(c)),
        None => "# The Character whose Tactic this is: `character = \"id\"` (left out: a Tactic of\n# no Character, as the Standard Tactics are).\n".to_string(),
    };
    format!(
        r#"{schema}# A Tactic card (000 § Tactics): docs/packs.md has every key, docs/windows.md
# the timings, docs/effects.md the Lua of effects.

[[tactic]]
# Its id: kebab-case, unique among Tactics.
id = {id}
# The printed name.
name = {name}
{owner}# The window in which it may be played (docs/windows.md lists them).
timing = "before-roll"
# The printed timing line.
timing_text = "Before making a Roll."
# What it does: the printed text, and the Lua that does it (a script file,
# relative to the pack folder; inline Lua is `effect.lua = '''...'''`).
effect = {{ text = "Add a Yellow die to the Roll.", script = "scripts/{id_raw}.lua" }}
# Where the entry comes from: a rulebook citation (`<file> § <heading>`) or "original design".
source = "original design"
"#,
        schema = schema_line(1, "content.schema.json"),
        id = quoted(id),
        id_raw = id,
        name = quoted(name),
    )
}

fn tactic_script(id: &str, name: &str) -> String {
    format!(
        r#"-- {name} (tactics/{id}.toml). The file returns a function that the engine
-- calls with the game API and the effect's context (docs/effects.md,
-- docs/lua-api.md): `ctx.self` is the Character it is played for.
-- The types are in .arena/arena.d.lua (the Lua language server reads them
-- through .luarc.json).
---@param game Game
---@param ctx Ctx
return function(game, ctx)
  game:add_die("yellow")
end
"#
    )
}

fn tactic_test(id: &str, name: &str, character: Option<&str>) -> String {
    let ctx = character.map(|c| format!("{{ self = \"{c}\" }}")).unwrap_or_else(|| "{}".to_string());
    format!(
        r#"-- Tests of {name}, run by `arena check` against a recording host: each case
-- names the card and effect, the context, the answers the API gives, and the
-- calls the effect must make (docs/effects.md).
return {{
  {{
    name = {case},
    card = "tactic:{id}",
    effect = "effect",
    ctx = {ctx},
    expect_calls = {{ 'add_die("yellow", nil)' }},
  }},
}}
"#,
        case = lua_quoted(&format!("{name} adds a Yellow die to the Roll")),
    )
}

/// A map of radius 6 with two Deployment Zones facing each other and a
/// central zone (the layout of the King of the Hill example).
fn map_entry(id: &str, name: &str) -> String {
    format!(
        r#"[[map]]
# Its id: kebab-case, unique among maps.
id = {id}
# The display name.
name = {name}
# The board is every space within this many spaces of [0, 0] (axial [q, r] coordinates).
radius = 6
# Blocked spaces: cannot be entered, block Line of Sight (000 § Blocked Spaces).
blocked = [[2, -2], [-2, 2]]
# Barriers at setup (000 § Barriers).
barriers = [[0, 2], [0, -2]]

# A Deployment Zone: where a player deploys (000 § Deployment Zones).
[[map.zones]]
# Its id: kebab-case, unique within the map.
id = "north"
# The printed number of a Deployment Zone (1-6).
number = 1
# What the zone is: "deployment" or "central".
kind = "deployment"
# Its spaces, as [q, r].
spaces = [[0, -5], [1, -6], [1, -5], [0, -4], [-1, -4], [-1, -5], [0, -6]]
# The zone across the HexaDome.
opposite = "south"

[[map.zones]]
id = "south"
number = 2
kind = "deployment"
spaces = [[0, 5], [1, 5], [1, 4], [0, 4], [-1, 5], [-1, 6], [0, 6]]
opposite = "north"

# The central zone, a Scoring Zone in most Scenarios.
[[map.zones]]
id = "central"
kind = "central"
spaces = [[0, 0], [1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]
"#,
        id = quoted(id),
        name = quoted(name),
    )
}

fn map_file(id: &str, name: &str) -> String {
    format!(
        "{}# A HexaDome map (000 § HexaDome): docs/packs.md has every key.\n\n{}",
        schema_line(1, "content.schema.json"),
        map_entry(id, name)
    )
}

fn scenario(id: &str, name: &str) -> String {
    let map_id = format!("{id}-map");
    format!(
        r#"{schema}# A Scenario (000 § Scenarios) and the map it is played on: docs/packs.md has
# every key. To play it on another map, set `map` to that map's id and the
# zone ids below to its zones, and remove the `[[map]]` entry.

[[scenario]]
# Its id: kebab-case, unique among Scenarios.
id = {id}
# The printed name.
name = {name}
# The id of the map it is played on.
map = {map}
# How many players.
players = {{ min = 2, max = 2 }}
# Characters in each team.
characters_per_team = 4
# Rounds before the game ends.
rounds = 5
# Victory Points that end the game at once.
vp_to_win = 8
# The zones where each player deploys, in player order.
deployment_zones = ["north", "south"]
# The zones that are Scoring Zones at the start.
scoring_zones = ["central"]
# The printed deployment rule.
deployment = "Player 1 deploys in the north zone, player 2 in the south zone."
# Whether Frags break ties on Victory Points.
frags_break_ties = true
# Where the entry comes from: a rulebook citation (`<file> § <heading>`) or "original design".
source = "original design"

# An Objective: what scores Victory Points at the end of each Round
# (docs/scenarios.md § Rules).
[[scenario.rules]]
# Its id: the narrative names it when a player scores by it.
id = "only-player-in-scoring-zone"
# The printed text.
text = "Being the only player with Characters in the Scoring Zone at the end of the Round."
# Victory Points it gives.
vp = 3
# What the engine does with it: a Scoring Zone objective, scored in the
# Objectives Phase (without it, or an `effect` with Lua, the rule is text only
# and its `vp` is never scored).
objective = {{ scores = "only-player" }}

[[scenario.rules]]
id = "more-characters-in-scoring-zone"
text = "Having more Characters in the Scoring Zone than the opponent at the end of the Round."
vp = 2
objective = {{ scores = "most-characters" }}

[[scenario.rules]]
id = "same-characters-in-scoring-zone"
text = "Having as many Characters in the Scoring Zone as the opponent (at least one each) at the end of the Round."
vp = 1
objective = {{ scores = "same-characters" }}

{map_entry}"#,
        schema = schema_line(1, "content.schema.json"),
        id = quoted(id),
        name = quoted(name),
        map = quoted(&map_id),
        map_entry = map_entry(&map_id, &format!("{name} map")),
    )
}
