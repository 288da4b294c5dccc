//! The arguments of a host call (`Args`: read, checked, named in errors)
//! and the conversions of spaces and dice symbols they use.

use super::*;
use crate::script::api::{HostFn, QueryFn};

/// A call's arguments, type-checked against the registry already.
pub(super) struct Args<'x> {
    pub(super) f: &'static ApiFn,
    pub(super) args: &'x [ApiValue],
}

impl Args<'_> {
    /// String argument `i` (0-based).
    pub(super) fn s(&self, i: usize) -> std::result::Result<&str, String> {
        match self.args.get(i) {
            Some(ApiValue::Str(s)) => Ok(s.as_str()),
            _ => Err(format!("{}: argument {} is missing", self.f.name, i + 1)),
        }
    }

    /// Integer argument `i`, or `default` when left out.
    pub(super) fn n(&self, i: usize, default: i64) -> i64 {
        match self.args.get(i) {
            Some(ApiValue::Int(n)) => *n,
            _ => default,
        }
    }

    /// Character argument `i`: a unit in this game. A Barrier Target
    /// (`barrier@q,r`) answers the questions about places.
    pub(super) fn character(&self, g: &Game<'_>, i: usize) -> std::result::Result<Id, String> {
        let Some(ApiValue::Str(the_id)) = self.args.get(i) else {
            return Err(format!("{}: argument {} is missing", self.f.name, i + 1));
        };
        let (the_id, id) = (*the_id, the_id.as_str());
        if g.unit(id).is_none() {
            let query = matches!(
                self.f.id,
                HostFn::Query(
                    QueryFn::Position | QueryFn::Distance | QueryFn::FreeSpacesWithin | QueryFn::HasLineOfSight
                )
            );
            if barrier_space(id).is_some() && g.space_of(id).is_some() {
                if query {
                    return Ok(the_id);
                }
                return Err(format!("{}: `{id}` is an Obstacle, not a Character", self.f.name));
            }
            return Err(format!("{}: `{id}` is not a Character in this game", self.f.name));
        }
        Ok(the_id)
    }
}

/// The space argument `i` of an API call.
pub(super) fn space_arg(args: &[ApiValue], i: usize, name: &str) -> std::result::Result<Hex, String> {
    match args.get(i) {
        Some(ApiValue::Space([q, r])) => {
            Hex::checked(*q, *r).ok_or_else(|| format!("{name}: ({q}, {r}) is not a space"))
        }
        _ => Err(format!("{name}: a space {{q, r}} is needed")),
    }
}

/// A list of spaces from Lua as a Decision's options; a pair of numbers that
/// does not fit a space's coordinates is an error, never a truncated space.
pub(super) fn space_choices(spaces: &[[i64; 2]], name: &str) -> std::result::Result<Vec<Choice>, String> {
    spaces
        .iter()
        .map(|&[q, r]| {
            Hex::checked(q, r)
                .map(|space| Choice::Space { space })
                .ok_or_else(|| format!("{name}: ({q}, {r}) is not a space"))
        })
        .collect()
}

/// A symbol as the Lua API spells it.
pub(super) fn symbol_name(s: Symbol) -> &'static str {
    match s {
        Symbol::Success => "success",
        Symbol::Block => "block",
        Symbol::Special => "special",
        Symbol::CriticalSuccess => "critical_success",
        Symbol::CriticalBlock => "critical_block",
    }
}

pub(super) fn symbol(s: &str) -> std::result::Result<Symbol, String> {
    Ok(match s {
        "success" => Symbol::Success,
        "block" => Symbol::Block,
        "special" => Symbol::Special,
        "critical_success" => Symbol::CriticalSuccess,
        "critical_block" => Symbol::CriticalBlock,
        other => return Err(format!("`{other}` is not a symbol")),
    })
}
