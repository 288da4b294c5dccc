//! Generic `for` loops go through the sandbox's iteration guard.
//!
//! Luau iterates a table directly (`for k, v in t do`) in the order of its
//! hash, which for keys that are tables or functions follows memory addresses:
//! the same seed would play differently from run to run. The VM offers no hook
//! there, so before compiling, the first expression of every generic `for` is
//! wrapped: `for k, v in t do` becomes `for k, v in __arena_iter(t) do`, on the
//! same line. `__arena_iter` (in `sandbox.luau`) passes iterator functions
//! (`pairs(t)`, `string.gmatch`..., `next` in `in next, t`) through unchanged
//! and walks a table with the checked `next`, which refuses keys that are
//! tables or functions (`in t, nil` then fails: the guard's state is cut off).
//! A loop whose expression starts with a function literal at the top level is
//! left as it is: it iterates with that function.

/// The guard's name; a script may not use it.
pub const GUARD: &str = "__arena_iter";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Name,
    Punct(u8),
    /// `==`, `<=`, `>=`, `~=`, `..` and the like: never `=` alone.
    Operator,
    Literal,
}

#[derive(Debug, Clone, Copy)]
struct Token {
    start: usize,
    end: usize,
    kind: Kind,
}

/// The level of a long bracket (`[[`, `[==[`) opening at `i`, if one does.
fn long_level(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'[') {
        return None;
    }
    let eq = b[i + 1..].iter().take_while(|&&c| c == b'=').count();
    (b.get(i + 1 + eq) == Some(&b'[')).then_some(eq)
}

/// Past the long bracket of `level` opening at `i`.
fn skip_long(b: &[u8], i: usize, level: usize) -> usize {
    let mut j = i + level + 2;
    while j < b.len() {
        if b[j] == b']' && b[j + 1..].iter().take(level).all(|&c| c == b'=') && b.get(j + 1 + level) == Some(&b']') {
            return j + level + 2;
        }
        j += 1;
    }
    b.len()
}

/// Past the quoted string opening at `i`.
fn skip_quoted(b: &[u8], i: usize) -> usize {
    let quote = b[i];
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            c if c == quote => return j + 1,
            b'\n' => return j,
            _ => j += 1,
        }
    }
    b.len()
}

/// The tokens of a Luau source, comments left out. An interpolated string's
/// `{expression}` parts are tokens between `(` and `)`.
fn tokens(src: &str) -> Vec<Token> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    // Brace depths at which an interpolation (`{` inside a backtick string) opened.
    let mut interpolations: Vec<usize> = Vec::new();
    let mut braces = 0usize;
    // Inside a backtick string (after its opening or after an interpolation's `}`).
    let mut in_backtick = false;
    while i < b.len() {
        if in_backtick {
            let start = i;
            in_backtick = false;
            while i < b.len() {
                match b[i] {
                    b'\\' => i += 2,
                    b'`' => {
                        i += 1;
                        break;
                    }
                    b'{' => {
                        interpolations.push(braces);
                        braces += 1;
                        out.push(Token { start: i, end: i + 1, kind: Kind::Punct(b'(') });
                        i += 1;
                        break;
                    }
                    _ => i += 1,
                }
            }
            out.push(Token { start, end: i.min(b.len()), kind: Kind::Literal });
            continue;
        }
        let c = b[i];
        let start = i;
        match c {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => i += 1,
            b'-' if b.get(i + 1) == Some(&b'-') => {
                i += 2;
                if let Some(level) = long_level(b, i) {
                    i = skip_long(b, i, level);
                } else {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
            }
            b'\'' | b'"' => {
                i = skip_quoted(b, i);
                out.push(Token { start, end: i, kind: Kind::Literal });
            }
            b'`' => {
                i += 1;
                in_backtick = true;
            }
            b'[' if long_level(b, i).is_some() => {
                i = skip_long(b, i, long_level(b, i).unwrap_or(0));
                out.push(Token { start, end: i, kind: Kind::Literal });
            }
            b'{' => {
                braces += 1;
                i += 1;
                out.push(Token { start, end: i, kind: Kind::Punct(b'{') });
            }
            b'}' => {
                braces = braces.saturating_sub(1);
                i += 1;
                if interpolations.last() == Some(&braces) {
                    interpolations.pop();
                    out.push(Token { start, end: i, kind: Kind::Punct(b')') });
                    in_backtick = true;
                } else {
                    out.push(Token { start, end: i, kind: Kind::Punct(b'}') });
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                    i += 1;
                }
                out.push(Token { start, end: i, kind: Kind::Name });
            }
            c if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                    if b[i] == b'.' && b.get(i + 1) == Some(&b'.') {
                        break;
                    }
                    i += 1;
                }
                out.push(Token { start, end: i, kind: Kind::Literal });
            }
            b'=' | b'<' | b'>' | b'~' | b'.' | b':' | b'-' | b'+' | b'*' | b'/' | b'%' | b'^'
                if b.get(i + 1).is_some_and(|&n| {
                    n == b'='
                        || (c == b'.' && n == b'.')
                        || (c == b':' && n == b':')
                        || (c == b'-' && n == b'>')
                        || (c == b'/' && n == b'/')
                }) =>
            {
                i += 2;
                while i < b.len() && (b[i] == b'.' || b[i] == b'=') && c == b'.' {
                    i += 1;
                }
                out.push(Token { start, end: i, kind: Kind::Operator });
            }
            _ => {
                i += 1;
                out.push(Token { start, end: i, kind: Kind::Punct(c) });
            }
        }
    }
    out
}

/// `src` with the expression of each single-expression generic `for` wrapped
/// in the guard, or an error if the script uses the guard's name itself.
pub fn guard_iteration(src: &str) -> Result<std::borrow::Cow<'_, str>, String> {
    let toks = tokens(src);
    let name = |t: &Token| (t.kind == Kind::Name).then(|| &src[t.start..t.end]);
    if toks.iter().any(|t| name(t) == Some(GUARD)) {
        return Err(format!("`{GUARD}` is a name the sandbox reserves"));
    }
    let mut spans = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if name(t) != Some("for") {
            continue;
        }
        // `for names in` (generic) or `for name =` (numeric), at depth 0.
        let mut depth = 0i32;
        let mut after_in = None;
        for (j, u) in toks.iter().enumerate().skip(i + 1) {
            match u.kind {
                Kind::Punct(b'(' | b'[' | b'{') => depth += 1,
                Kind::Punct(b')' | b']' | b'}') => depth -= 1,
                Kind::Punct(b'=') if depth == 0 => break,
                Kind::Name if depth == 0 => match name(u) {
                    Some("in") => {
                        after_in = Some(j + 1);
                        break;
                    }
                    Some("do" | "end" | "for" | "function" | "local" | "return") => break,
                    _ => {}
                },
                _ => {}
            }
            if depth < 0 {
                break;
            }
        }
        let Some(first) = after_in else { continue };
        let mut depth = 0i32;
        let mut last = None;
        for (j, u) in toks.iter().enumerate().skip(first) {
            match u.kind {
                Kind::Punct(b'(' | b'[' | b'{') => depth += 1,
                Kind::Punct(b')' | b']' | b'}') => depth -= 1,
                // `in t, nil do`: the first expression is the one iterated.
                Kind::Punct(b',') if depth == 0 => {
                    if j > first {
                        last = Some(j - 1);
                    }
                    break;
                }
                Kind::Punct(b';') if depth == 0 => break,
                Kind::Name if depth == 0 && matches!(name(u), Some("function" | "end" | "for" | "local")) => break,
                Kind::Name if depth == 0 && name(u) == Some("do") => {
                    if j > first {
                        last = Some(j - 1);
                    }
                    break;
                }
                _ => {}
            }
            if depth < 0 {
                break;
            }
        }
        if let Some(last) = last {
            spans.push((toks[first].start, toks[last].end));
        }
    }
    if spans.is_empty() {
        return Ok(src.into());
    }
    let mut inserts: Vec<(usize, &str)> = Vec::with_capacity(spans.len() * 2);
    for (s, e) in spans {
        inserts.push((s, "__arena_iter("));
        inserts.push((e, ")"));
    }
    // Stable: at one position a `)` closing an inner loop's expression comes
    // before a `__arena_iter(` opening another.
    inserts.sort_by_key(|&(pos, text)| (pos, text != ")"));
    let mut out = String::with_capacity(src.len() + inserts.len() * 8);
    let mut at = 0;
    for (pos, text) in inserts {
        out.push_str(&src[at..pos]);
        out.push_str(text);
        at = pos;
    }
    out.push_str(&src[at..]);
    Ok(out.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(s: &str) -> String {
        guard_iteration(s).unwrap().into_owned()
    }

    #[test]
    fn single_expressions_are_wrapped() {
        assert_eq!(g("for k, v in t do end"), "for k, v in __arena_iter(t) do end");
        assert_eq!(g("for _, e in ipairs(game:list()) do end"), "for _, e in __arena_iter(ipairs(game:list())) do end");
        assert_eq!(g("for k in a.b[c] do\nend"), "for k in __arena_iter(a.b[c]) do\nend");
        assert_eq!(
            g("for k in f(function() for x in y do end end) do end"),
            "for k in __arena_iter(f(function() for x in __arena_iter(y) do end end)) do end"
        );
    }

    #[test]
    fn other_loops_strings_and_comments_are_left() {
        for s in [
            "for i = 1, 10 do end",
            "-- for k in t do end\nlocal s = 'for k in t do'",
            "local s = [[for k in t do]]",
            "local s = `for {x} in t do`",
            "for x in function() end do end",
        ] {
            assert_eq!(g(s), s);
        }
        assert_eq!(g("for k, v in next, t do end"), "for k, v in __arena_iter(next), t do end");
        assert_eq!(
            g("local s = `a{ {1} }b` for k in t do end"),
            "local s = `a{ {1} }b` for k in __arena_iter(t) do end"
        );
        assert!(guard_iteration("local __arena_iter = pairs").is_err());
    }
}
