//! The VM's environment: what is removed, the read-only globals and libraries, `print` and `math.random` through the host, the `game` object and its calls (argument checks, conversions), and the content queries answered from the packs.

use super::*;
use crate::model::Id;

/// Convert a Lua value without running any metamethod.
pub(super) fn to_api_value(v: &Value) -> ApiValue {
    match v {
        Value::Nil => ApiValue::Nil,
        Value::Boolean(b) => ApiValue::Bool(*b),
        Value::Integer(i) => ApiValue::Int(*i),
        Value::Number(n) if n.fract() == 0.0 && n.is_finite() && n.abs() < 9.0e15 => ApiValue::Int(*n as i64),
        Value::Number(n) => ApiValue::Str(n.to_string().into()),
        Value::String(s) => {
            let text: String = s.to_string_lossy().chars().take(1000).collect();
            Id::try_new(&text).map_or(ApiValue::Nil, ApiValue::Str)
        }
        other => ApiValue::Str(format!("<{}>", other.type_name()).into()),
    }
}

/// A Lua value as JSON, without metamethods; bounded in depth and size.
pub(super) fn to_json(v: &Value, depth: usize, budget: &mut usize) -> mlua::Result<serde_json::Value> {
    use serde_json::Value as J;
    if depth > 16 || *budget == 0 {
        return Err(lua_err("the returned data is too deep or too large"));
    }
    *budget -= 1;
    Ok(match v {
        Value::Nil => J::Null,
        Value::Boolean(b) => J::Bool(*b),
        Value::Integer(i) => J::from(*i),
        Value::Number(n) if n.fract() == 0.0 && n.is_finite() && n.abs() < 9.0e15 => J::from(*n as i64),
        Value::Number(n) => serde_json::Number::from_f64(*n).map_or(J::Null, J::Number),
        Value::String(s) => J::String(s.to_string_lossy()),
        Value::Table(t) => {
            let n = t.raw_len();
            let mut pairs = Vec::new();
            for pair in t.clone().pairs::<Value, Value>() {
                let (k, v) = pair?;
                pairs.push((k, v));
                if pairs.len() > 10_000 {
                    return Err(lua_err("the returned data is too large"));
                }
            }
            if n > 0 && pairs.len() == n {
                let mut arr = Vec::with_capacity(n);
                for k in 1..=n {
                    arr.push(to_json(&t.raw_get::<Value>(k)?, depth + 1, budget)?);
                }
                J::Array(arr)
            } else if pairs.is_empty() {
                J::Array(Vec::new())
            } else {
                let mut map = serde_json::Map::new();
                for (k, v) in pairs {
                    let key = match &k {
                        Value::String(s) => s.to_string_lossy(),
                        Value::Integer(i) => i.to_string(),
                        other => format!("<{}>", other.type_name()),
                    };
                    map.insert(key, to_json(&v, depth + 1, budget)?);
                }
                J::Object(map)
            }
        }
        other => J::String(format!("<{}>", other.type_name())),
    })
}

/// Globals removed from effects, named when a script reaches for them.
pub(super) const REMOVED: &[&str] = &[
    "getfenv",
    "setfenv",
    "newproxy",
    "load",
    "loadstring",
    "dofile",
    "loadfile",
    "require",
    "gcinfo",
    "debug",
    "os",
    "io",
    "package",
    "coroutine",
    "module",
    "collectgarbage",
];

/// Remove and replace what effects must not have, before the sandbox freezes it.
pub(super) fn harden(lua: &Lua, shared: &Rc<Shared>, ctx: &mlua::AnyUserData) -> mlua::Result<()> {
    let g = lua.globals();
    // Reading a removed library says so, instead of Luau's "attempt to index
    // nil". Only missing names reach this `__index`, so other lookups cost the same.
    let missing = lua.create_table()?;
    missing.raw_set(
        "__index",
        lua.create_function(|_, (_g, k): (Value, Value)| -> mlua::Result<Value> {
            let name = match &k {
                Value::String(s) => s.to_string_lossy(),
                _ => return Ok(Value::Nil),
            };
            if REMOVED.contains(&name.as_str()) {
                return Err(lua_err(format!(
                    "`{name}` is not available in card effects (they run sandboxed: docs/effects.md § The sandbox)"
                )));
            }
            Ok(Value::Nil)
        })?,
    )?;
    // `getmetatable(_G)` answers `false`; the metatable itself is read-only.
    missing.raw_set("__metatable", false)?;
    missing.set_readonly(true);
    g.set_metatable(Some(missing))?;
    // `print` comes back below, restricted. `collectgarbage` is gone: what
    // it answers depends on the games played before on the same VM.
    for name in REMOVED.iter().chain(&["print"]) {
        g.raw_set(*name, Value::Nil)?;
    }
    let string: Table = g.raw_get("string")?;
    string.raw_set("dump", Value::Nil)?;
    // Library functions charged for their work, address-free `tostring`,
    // deterministic `pairs`, no weak tables (sandbox.luau).
    {
        let shared = shared.clone();
        let charge = lua.create_function(move |lua, units: f64| {
            let units = if units.is_finite() { units.clamp(0.0, 1e18) as u64 } else { u64::MAX };
            shared.charge(lua, units)
        })?;
        lua.load(include_str!("sandbox.luau")).set_name("=sandbox").call::<()>((charge, ctx.clone()))?;
    }
    // math.random through the host's seeded RNG; no randomseed.
    let math: Table = g.raw_get("math")?;
    math.raw_set("randomseed", Value::Nil)?;
    let random = api::find("random").expect("random is registered");
    {
        let shared = shared.clone();
        math.raw_set(
            "random",
            lua.create_function(move |_, (a, b): (Option<i64>, Option<i64>)| {
                let (lo, hi) = match (a, b) {
                    (None, _) => {
                        return Err(lua_err("math.random() without bounds is not available: use math.random(m, n)"));
                    }
                    (Some(n), None) => (1, n),
                    (Some(m), Some(n)) => (m, n),
                };
                let host = shared.host().ok_or_else(|| lua_err("math.random needs a game"))?;
                let answer = host.call(random, &[ApiValue::Int(lo), ApiValue::Int(hi)]).map_err(lua_err)?;
                shared.count_events()?;
                match answer {
                    ApiValue::Int(i) => Ok(i),
                    _ => Err(lua_err("random: the game answered a non-integer")),
                }
            })?,
        )?;
    }
    let log = api::find("log").expect("log is registered");
    {
        let shared = shared.clone();
        g.raw_set(
            "print",
            lua.create_function(move |_, args: mlua::Variadic<Value>| {
                // Built up to what the allowance lets through, never more.
                let allowed = shared.log_room();
                let mut text = String::new();
                for (i, v) in args.iter().enumerate() {
                    if i > 0 {
                        text.push('\t');
                    }
                    match to_api_value(v) {
                        ApiValue::Str(s) => text.push_str(&s),
                        other => text.push_str(&other.to_string()),
                    }
                    if text.len() > allowed {
                        break;
                    }
                }
                let host = shared.host().ok_or_else(|| lua_err("print needs a game"))?;
                host.call(log, &[ApiValue::Str(Id::try_new(&text).map_err(lua_err)?)]).map_err(lua_err)?;
                // The line is an event of the game: counted with the others.
                shared.count_events()
            })?,
        )?;
    }
    Ok(())
}

/// The `game` object: one function per registry entry, checked arguments.
pub(super) fn build_game(lua: &Lua, shared: &Rc<Shared>, registry: &'static [ApiFn]) -> mlua::Result<Table> {
    let game = lua.create_table()?;
    for f in registry {
        let shared = shared.clone();
        let func = lua.create_function(move |lua, args: mlua::MultiValue| call_api(lua, &shared, f, args))?;
        game.raw_set(f.name, func)?;
    }
    game.set_readonly(true);
    Ok(game)
}

pub(super) fn call_api(lua: &Lua, shared: &Shared, f: &'static ApiFn, args: mlua::MultiValue) -> mlua::Result<Value> {
    // What the game records for a call is host memory the VM's limit does not
    // see: calls are charged, so one effect makes at most ~15,000 of them.
    shared.charge(lua, API_CALL_UNITS)?;
    match args.front() {
        Some(Value::Table(t)) if t.to_pointer() as usize == shared.game_ptr.get() => {}
        _ => return Err(lua_err(format!("call `game:{}(...)` with a colon", f.name))),
    }
    let given = args.len() - 1;
    if given > f.params.len() {
        return Err(lua_err(format!("{} takes {} arguments, got {given}", f.name, f.params.len())));
    }
    // One argument buffer per VM, reused: calls never nest.
    let mut values = shared.args.take();
    values.clear();
    for (i, p) in f.params.iter().enumerate() {
        let v = args.get(i + 1).unwrap_or(&Value::Nil);
        match check_arg(f, i, p, v) {
            Ok(a) => values.push(a),
            Err(e) => {
                shared.args.set(values);
                return Err(e);
            }
        }
    }
    let result = match f.answer {
        Answer::Content => content_query(lua, &shared.content, f, &values),
        Answer::Host => match shared.host() {
            None => Err(lua_err(format!("{} needs a game", f.name))),
            Some(host) => {
                let answer = host.call(f, &values);
                // Every event the call recorded counts against the log caps
                // (`game:log`'s line as much as a Counter or a State).
                match shared.count_events() {
                    Err(e) => Err(e),
                    Ok(()) => answer.map_err(lua_err).and_then(|answer| from_api_value(lua, &answer)),
                }
            }
        },
    };
    shared.args.set(values);
    result
}

/// The most players a game seats (player arguments are `1..=MAX_PLAYERS`).
const MAX_PLAYERS: i64 = 8;

pub(super) fn check_arg(f: &ApiFn, i: usize, p: &api::Param, v: &Value) -> mlua::Result<ApiValue> {
    let bad = |expected: &str| {
        lua_err(format!(
            "bad argument #{} `{}` to {} ({expected} expected, got {})",
            i + 1,
            p.name,
            f.name,
            v.type_name()
        ))
    };
    // A new name past the table of ids' limit (`model::INTERN_LIMIT`).
    let refused = |e: String| lua_err(format!("argument #{} `{}` to {}: {e}", i + 1, p.name, f.name));
    if matches!(v, Value::Nil) {
        return if p.optional { Ok(ApiValue::Nil) } else { Err(bad(p.ty.lua_name())) };
    }
    // The argument's text, read in place (no copy): `then` makes the value.
    let string = |max: usize, then: &dyn Fn(&str) -> mlua::Result<ApiValue>| -> mlua::Result<ApiValue> {
        match v {
            Value::String(s) if s.as_bytes().len() <= max => then(&s.to_str().map_err(|_| bad("UTF-8 string"))?),
            Value::String(_) => Err(bad(&format!("string of at most {max} bytes"))),
            _ => Err(bad(p.ty.lua_name())),
        }
    };
    let integer = |v: &Value| match v {
        Value::Integer(n) => Some(*n),
        Value::Number(n) if n.fract() == 0.0 && n.is_finite() && n.abs() < 9.0e15 => Some(*n as i64),
        _ => None,
    };
    match p.ty {
        Ty::Boolean => match v {
            Value::Boolean(b) => Ok(ApiValue::Bool(*b)),
            _ => Err(bad("boolean")),
        },
        Ty::Integer | Ty::Player => {
            // A number outside the allowed values says the range, not the type
            // (`game:gain_victory_points(9)` passes 9 as the player).
            let (min, max, what) = match (p.ty, p.range) {
                (Ty::Player, _) => (1, MAX_PLAYERS, "player numbers"),
                (_, Some(r)) => r,
                _ => (i64::MIN, i64::MAX, ""),
            };
            let out_of_range = |shown: String| {
                let names: Vec<&str> = f.params.iter().map(|p| p.name).collect();
                lua_err(format!(
                    "bad argument #{} `{}` to {}: {what} must be {min}..={max}, got {shown} (the call is game:{}({}))",
                    i + 1,
                    p.name,
                    f.name,
                    f.name,
                    names.join(", ")
                ))
            };
            match (integer(v), v) {
                (Some(n), _) if (min..=max).contains(&n) => Ok(ApiValue::Int(n)),
                (Some(n), _) => Err(out_of_range(n.to_string())),
                // Whole but too large for an integer (1e20): still a number out of range.
                (None, Value::Number(x)) if x.is_finite() && x.fract() == 0.0 && min > i64::MIN => {
                    Err(out_of_range(format!("{x}")))
                }
                _ if p.ty == Ty::Player => Err(bad("a player number (1, 2, ...)")),
                _ => Err(bad("integer")),
            }
        }
        Ty::String => string(4096, &|s| Id::try_new(s).map(ApiValue::Str).map_err(refused)),
        Ty::Character | Ty::State | Ty::Die => string(128, &|s| Id::try_new(s).map(ApiValue::Str).map_err(refused)),
        Ty::Symbol | Ty::Side => string(64, &|s| {
            let ok = api::allowed(p.ty).is_some_and(|a| a.contains(&s));
            if ok { Ok(ApiValue::Str(Id::from(s))) } else { Err(bad(&api::allowed(p.ty).unwrap_or(&[]).join(" | "))) }
        }),
        Ty::Space => match v {
            Value::Table(t) => {
                let q = t.raw_get::<Value>(1)?;
                let r = t.raw_get::<Value>(2)?;
                match (integer(&q), integer(&r)) {
                    (Some(q), Some(r)) => Ok(ApiValue::Space([q, r])),
                    _ => Err(bad("{q, r} with two integers")),
                }
            }
            _ => Err(bad("{q, r}")),
        },
        Ty::SpaceList => match v {
            Value::Table(t) => {
                let n = t.raw_len();
                if n > 256 {
                    return Err(bad("list of at most 256 spaces"));
                }
                let mut out = Vec::with_capacity(n);
                for k in 1..=n {
                    let Value::Table(s) = t.raw_get::<Value>(k)? else { return Err(bad("list of {q, r} spaces")) };
                    match (integer(&s.raw_get::<Value>(1)?), integer(&s.raw_get::<Value>(2)?)) {
                        (Some(q), Some(r)) => out.push([q, r]),
                        _ => return Err(bad("list of {q, r} spaces with two integers each")),
                    }
                }
                Ok(ApiValue::Spaces(out))
            }
            _ => Err(bad("list of {q, r} spaces")),
        },
        Ty::CharacterList | Ty::StringList => match v {
            Value::Table(t) => {
                let n = t.raw_len();
                if n > 256 {
                    return Err(bad("list of at most 256 strings"));
                }
                let mut out = Vec::with_capacity(n);
                for k in 1..=n {
                    match t.raw_get::<Value>(k)? {
                        Value::String(s) if s.as_bytes().len() <= 128 => {
                            let text = s.to_str().map_err(|_| bad("list of UTF-8 strings"))?;
                            out.push(Id::try_new(&text).map_err(refused)?)
                        }
                        _ => return Err(bad("list of strings")),
                    }
                }
                Ok(ApiValue::List(out))
            }
            _ => Err(bad("list of strings")),
        },
        Ty::Nil | Ty::Table => Err(bad(p.ty.lua_name())),
    }
}

pub(super) fn from_api_value(lua: &Lua, v: &ApiValue) -> mlua::Result<Value> {
    Ok(match v {
        ApiValue::Nil => Value::Nil,
        ApiValue::Bool(b) => Value::Boolean(*b),
        ApiValue::Int(i) => Value::Integer(*i),
        ApiValue::Str(s) => Value::String(lua.create_string(s.as_str())?),
        ApiValue::Space([q, r]) => {
            let t = lua.create_sequence_from([*q, *r])?;
            t.set_readonly(true);
            Value::Table(t)
        }
        ApiValue::List(l) => {
            let t = lua.create_sequence_from(l.iter().map(Id::as_str))?;
            t.set_readonly(true);
            Value::Table(t)
        }
        ApiValue::Spaces(l) => {
            let t = lua.create_table_with_capacity(l.len(), 0)?;
            for (i, [q, r]) in l.iter().enumerate() {
                let s = lua.create_sequence_from([*q, *r])?;
                s.set_readonly(true);
                t.raw_set(i + 1, s)?;
            }
            t.set_readonly(true);
            Value::Table(t)
        }
    })
}

pub(super) fn frozen(lua: &Lua, pairs: Vec<(&str, Value)>) -> mlua::Result<Value> {
    let t = lua.create_table()?;
    for (k, v) in pairs {
        t.raw_set(k, v)?;
    }
    t.set_readonly(true);
    Ok(Value::Table(t))
}

pub(super) fn pool_table(lua: &Lua, pool: &crate::model::Pool) -> mlua::Result<Value> {
    let dice = lua.create_sequence_from(pool.dice.iter().map(Id::as_str))?;
    dice.set_readonly(true);
    let symbols = lua.create_sequence_from(pool.symbols.iter().map(|s| symbol_name(*s)))?;
    symbols.set_readonly(true);
    frozen(lua, vec![("dice", Value::Table(dice)), ("symbols", Value::Table(symbols))])
}

pub(super) fn symbol_name(s: crate::model::Symbol) -> &'static str {
    use crate::model::Symbol::*;
    match s {
        Success => "success",
        Block => "block",
        Special => "special",
        CriticalSuccess => "critical_success",
        CriticalBlock => "critical_block",
    }
}

pub(super) fn content_query(lua: &Lua, content: &Content, f: &ApiFn, args: &[ApiValue]) -> mlua::Result<Value> {
    let id = match args.first() {
        Some(ApiValue::Str(s)) => s.as_str(),
        _ => return Ok(Value::Nil),
    };
    let s = |x: &str| lua.create_string(x).map(Value::String);
    match f.name {
        "character_card" => {
            let Some(e) = content.characters.get(id) else { return Ok(Value::Nil) };
            let c = &e.value;
            frozen(
                lua,
                vec![
                    ("id", s(&c.id)?),
                    ("name", s(&c.name)?),
                    ("initiative", Value::Integer(c.initiative.into())),
                    ("speed", Value::Integer(c.speed.into())),
                    ("energy", Value::Integer(c.energy.into())),
                    ("hit_points", Value::Integer(c.hit_points.into())),
                    ("defense", pool_table(lua, &c.defense)?),
                    ("brawn", pool_table(lua, &c.brawn)?),
                    ("agility", pool_table(lua, &c.agility)?),
                ],
            )
        }
        "state_card" => {
            let Some(e) = content.states.get(id) else { return Ok(Value::Nil) };
            let st = &e.value;
            let m = st.modifiers.clone().unwrap_or_default();
            let modifiers = frozen(
                lua,
                vec![
                    ("initiative", Value::Integer(m.initiative.into())),
                    ("speed", Value::Integer(m.speed.into())),
                    ("energy", Value::Integer(m.energy.into())),
                ],
            )?;
            frozen(
                lua,
                vec![
                    ("id", s(&st.id)?),
                    ("name", s(&st.name)?),
                    ("stacking", Value::Boolean(st.stacking)),
                    ("modifiers", modifiers),
                ],
            )
        }
        "die_faces" => {
            let Some(e) = content.dice.get(id) else { return Ok(Value::Nil) };
            let faces = lua.create_table()?;
            for (i, face) in e.value.faces.iter().enumerate() {
                let t = lua.create_sequence_from(face.iter().map(|s| symbol_name(*s)))?;
                t.set_readonly(true);
                faces.raw_set(i + 1, t)?;
            }
            faces.set_readonly(true);
            Ok(Value::Table(faces))
        }
        other => Err(lua_err(format!("{other} is not a content query"))),
    }
}
