//! What a Luau source says without running it, for `arena check`: the
//! `game:` calls it makes, with the string literals passed to them, and the
//! loops that can never end.
//!
//! Parsed with full_moon (a maintained Luau parser) rather than by scanning
//! text, so comments, strings, if-expressions and type annotations are read
//! as Luau reads them. A source is analysed only once Luau itself has
//! compiled it: Luau's recursion limit then bounds the depth of the tree, and
//! the parse runs on a thread with a stack made for that depth
//! ([`analyse_all`]), so no hostile nesting can overflow the stack.
//!
//! What is found, in source byte offsets; the caller resolves it against an
//! API registry and the loaded content:
//! - [`GameCall`]: `game:NAME(...)` (and `game.NAME(game, ...)`), with each
//!   argument that is a string literal or a table of them. Only calls on the
//!   name `game`, the effect's first argument as every card and the docs
//!   write it; a `game` passed on under another name is not followed.
//! - [`EndlessLoop`]: `while C do ... end` with a condition that is always
//!   true (`true`, a number, a string, `not nil`...), or `repeat ... until C`
//!   with one that is always false, whose body has no `break` (of that loop),
//!   no `return`, and no call of `error`, `assert` or `coroutine.yield`
//!   outside the functions it defines. Such a loop, once entered, can only
//!   run until the instruction budget stops the effect.

use full_moon::ast::{self, Expression};
use full_moon::tokenizer::{Symbol, TokenReference, TokenType};
use full_moon::visitors::{Visit, Visitor};
use std::ops::Range;

/// One argument of a [`GameCall`], as far as it is known without running.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// A string literal (its text between the quotes) and its byte span.
    Str(String, Range<usize>),
    /// A table constructor: the string literals among its positional items.
    List(Vec<(String, Range<usize>)>),
    /// Anything else (a variable, a call, a number...): not checked.
    Other,
}

/// A call of an API function on `game`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameCall {
    /// The function's name (`impose_state`).
    pub name: String,
    /// The byte span of the name in the source.
    pub span: Range<usize>,
    /// The arguments after `self`, in order.
    pub args: Vec<Arg>,
}

/// A loop that can never end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndlessLoop {
    /// `while` or `repeat`.
    pub keyword: &'static str,
    /// The byte span of the keyword.
    pub span: Range<usize>,
}

/// What [`analyse`] found in one source.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    /// Every `game:` call, in source order.
    pub calls: Vec<GameCall>,
    /// Every loop that can never end, in source order.
    pub endless: Vec<EndlessLoop>,
}

/// The stack of the thread that parses: far more than a tree of Luau's
/// deepest accepted nesting needs (a test parses one in a debug build).
const STACK_BYTES: usize = 256 * 1024 * 1024;

/// [`analyse`] every source, on one thread with a stack for the deepest tree
/// Luau accepts. `None` for a source Luau does not compile (its compile
/// error is reported elsewhere) or that full_moon cannot read.
pub fn analyse_all(sources: &[&str]) -> Vec<Option<Facts>> {
    let work = || sources.iter().map(|s| analyse(s)).collect::<Vec<_>>();
    std::thread::scope(|scope| {
        match std::thread::Builder::new().name("lua-analysis".into()).stack_size(STACK_BYTES).spawn_scoped(scope, work)
        {
            Ok(handle) => handle.join().unwrap_or_else(|_| vec![None; sources.len()]),
            // No thread to be had: nothing is analysed, nothing is claimed.
            Err(_) => vec![None; sources.len()],
        }
    })
}

/// The facts of one source (see the module doc), or `None` when Luau does
/// not compile it or full_moon cannot parse it. Call it on a thread with a
/// large stack ([`analyse_all`] does).
pub fn analyse(source: &str) -> Option<Facts> {
    if super::compile::compile(source).is_err() {
        return None;
    }
    // A byte-order mark is not Lua; offsets stay those of the text given.
    let bom = if source.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    let parsed = std::panic::catch_unwind(|| {
        let ast = full_moon::parse_fallible(&source[bom..], full_moon::LuaVersion::luau()).into_result().ok()?;
        let mut facts = Collect::default();
        ast.nodes().visit(&mut facts);
        Some(facts.facts)
    });
    let mut facts = parsed.ok().flatten()?;
    for c in &mut facts.calls {
        c.span = shift(&c.span, bom);
        for a in &mut c.args {
            match a {
                Arg::Str(_, span) => *span = shift(span, bom),
                Arg::List(items) => items.iter_mut().for_each(|(_, span)| *span = shift(span, bom)),
                Arg::Other => {}
            }
        }
    }
    for l in &mut facts.endless {
        l.span = shift(&l.span, bom);
    }
    Some(facts)
}

fn shift(r: &Range<usize>, by: usize) -> Range<usize> {
    r.start + by..r.end + by
}

fn span(t: &TokenReference) -> Range<usize> {
    t.start_position().bytes()..t.end_position().bytes()
}

/// The expression inside parentheses and type assertions (`("x" :: StateId)`).
fn bare(mut e: &Expression) -> &Expression {
    loop {
        match e {
            Expression::Parentheses { expression, .. } => e = expression,
            Expression::TypeAssertion { expression, .. } => e = expression,
            _ => return e,
        }
    }
}

fn string_literal(e: &Expression) -> Option<(String, Range<usize>)> {
    match bare(e) {
        Expression::String(t) => match t.token_type() {
            TokenType::StringLiteral { literal, .. } => Some((literal.to_string(), span(t))),
            _ => None,
        },
        _ => None,
    }
}

fn arg(e: &Expression) -> Arg {
    if let Some((s, r)) = string_literal(e) {
        return Arg::Str(s, r);
    }
    match bare(e) {
        Expression::TableConstructor(t) => Arg::List(
            t.fields()
                .iter()
                .filter_map(|f| match f {
                    ast::Field::NoKey(e) => string_literal(e),
                    _ => None,
                })
                .collect(),
        ),
        _ => Arg::Other,
    }
}

fn args(a: &ast::FunctionArgs) -> Vec<Arg> {
    match a {
        ast::FunctionArgs::Parentheses { arguments, .. } => arguments.iter().map(arg).collect(),
        ast::FunctionArgs::String(t) => match t.token_type() {
            TokenType::StringLiteral { literal, .. } => vec![Arg::Str(literal.to_string(), span(t))],
            _ => vec![Arg::Other],
        },
        ast::FunctionArgs::TableConstructor(_) => vec![Arg::Other],
        _ => vec![Arg::Other],
    }
}

fn symbol(e: &Expression) -> Option<Symbol> {
    match bare(e) {
        Expression::Symbol(t) => match t.token_type() {
            TokenType::Symbol { symbol } => Some(*symbol),
            _ => None,
        },
        _ => None,
    }
}

/// `Some(truthiness)` of an expression whose value is known without running it.
fn constant(e: &Expression) -> Option<bool> {
    match bare(e) {
        Expression::Number(_)
        | Expression::String(_)
        | Expression::TableConstructor(_)
        | Expression::Function(_)
        | Expression::InterpolatedString(_) => Some(true),
        Expression::UnaryOperator { unop: ast::UnOp::Not(_), expression } => constant(expression).map(|b| !b),
        e => match symbol(e) {
            Some(Symbol::True) => Some(true),
            Some(Symbol::False | Symbol::Nil) => Some(false),
            _ => None,
        },
    }
}

/// The name a call's prefix is, if it is a plain name.
fn prefix_name(call: &ast::FunctionCall) -> Option<&str> {
    match call.prefix() {
        ast::Prefix::Name(t) => match t.token_type() {
            TokenType::Identifier { identifier } => Some(identifier.as_str()),
            _ => None,
        },
        _ => None,
    }
}

fn identifier(t: &TokenReference) -> Option<&str> {
    match t.token_type() {
        TokenType::Identifier { identifier } => Some(identifier.as_str()),
        _ => None,
    }
}

/// The `game:` call a function call is, if it is one.
fn game_call(call: &ast::FunctionCall) -> Option<GameCall> {
    if prefix_name(call)? != "game" {
        return None;
    }
    let mut suffixes = call.suffixes();
    match suffixes.next()? {
        ast::Suffix::Call(ast::Call::MethodCall(m)) => {
            Some(GameCall { name: identifier(m.name())?.to_string(), span: span(m.name()), args: args(m.args()) })
        }
        ast::Suffix::Index(ast::Index::Dot { name, .. }) => match suffixes.next()? {
            // `game.NAME(game, ...)`: the first argument is `self`.
            ast::Suffix::Call(ast::Call::AnonymousCall(a)) => Some(GameCall {
                name: identifier(name)?.to_string(),
                span: span(name),
                args: args(a).into_iter().skip(1).collect(),
            }),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a call leaves the loop it is in: `error(...)`, `assert(...)`,
/// `coroutine.yield(...)`.
fn leaves(call: &ast::FunctionCall) -> bool {
    match prefix_name(call) {
        Some("error" | "assert") => matches!(call.suffixes().next(), Some(ast::Suffix::Call(_))),
        Some("coroutine") => {
            let mut s = call.suffixes();
            matches!(s.next(), Some(ast::Suffix::Index(ast::Index::Dot { name, .. })) if identifier(name) == Some("yield"))
                && matches!(s.next(), Some(ast::Suffix::Call(_)))
        }
        _ => false,
    }
}

/// Whether a loop's body has a way out (see the module doc).
#[derive(Default)]
struct Exits {
    /// Loops entered inside the body: a `break` there leaves only them.
    loops: usize,
    /// Functions defined inside the body: their `return`s and calls are theirs.
    functions: usize,
    found: bool,
}

impl Visitor for Exits {
    fn visit_while(&mut self, _: &ast::While) {
        self.loops += 1;
    }
    fn visit_while_end(&mut self, _: &ast::While) {
        self.loops -= 1;
    }
    fn visit_repeat(&mut self, _: &ast::Repeat) {
        self.loops += 1;
    }
    fn visit_repeat_end(&mut self, _: &ast::Repeat) {
        self.loops -= 1;
    }
    fn visit_numeric_for(&mut self, _: &ast::NumericFor) {
        self.loops += 1;
    }
    fn visit_numeric_for_end(&mut self, _: &ast::NumericFor) {
        self.loops -= 1;
    }
    fn visit_generic_for(&mut self, _: &ast::GenericFor) {
        self.loops += 1;
    }
    fn visit_generic_for_end(&mut self, _: &ast::GenericFor) {
        self.loops -= 1;
    }
    fn visit_function_body(&mut self, _: &ast::FunctionBody) {
        self.functions += 1;
    }
    fn visit_function_body_end(&mut self, _: &ast::FunctionBody) {
        self.functions -= 1;
    }
    fn visit_last_stmt(&mut self, s: &ast::LastStmt) {
        if self.functions > 0 {
            return;
        }
        match s {
            ast::LastStmt::Return(_) => self.found = true,
            ast::LastStmt::Break(_) if self.loops == 0 => self.found = true,
            _ => {}
        }
    }
    fn visit_function_call(&mut self, call: &ast::FunctionCall) {
        if self.functions == 0 && leaves(call) {
            self.found = true;
        }
    }
}

fn has_exit(block: &ast::Block) -> bool {
    let mut exits = Exits::default();
    block.visit(&mut exits);
    exits.found
}

#[derive(Default)]
struct Collect {
    facts: Facts,
}

impl Visitor for Collect {
    fn visit_function_call(&mut self, call: &ast::FunctionCall) {
        if let Some(c) = game_call(call) {
            self.facts.calls.push(c);
        }
    }
    fn visit_while(&mut self, w: &ast::While) {
        if constant(w.condition()) == Some(true) && !has_exit(w.block()) {
            self.facts.endless.push(EndlessLoop { keyword: "while", span: span(w.while_token()) });
        }
    }
    fn visit_repeat(&mut self, r: &ast::Repeat) {
        if constant(r.until()) == Some(false) && !has_exit(r.block()) {
            self.facts.endless.push(EndlessLoop { keyword: "repeat", span: span(r.repeat_token()) });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(src: &str) -> Facts {
        analyse_all(&[src]).pop().flatten().expect("analysed")
    }

    #[test]
    fn game_calls_and_their_literal_arguments() {
        let src = "local game, ctx = ...\n-- game:commented_out(1)\nlocal s = 'game:in_a_string()'\ngame:impose_state(ctx.target, \"immobilised\")\nif game:has_state(ctx.self, ('stunned')) then game.set_scoring_zones(game, {'zone-1', x, \"zone-4\"}) end\ngame:log 'hi'";
        let f = facts(src);
        let names: Vec<&str> = f.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["impose_state", "has_state", "set_scoring_zones", "log"]);
        assert_eq!(f.calls[0].args[0], Arg::Other);
        let Arg::Str(s, r) = &f.calls[0].args[1] else { panic!("{:?}", f.calls[0]) };
        assert_eq!((s.as_str(), &src[r.clone()]), ("immobilised", "\"immobilised\""));
        assert_eq!(&src[f.calls[0].span.clone()], "impose_state");
        assert!(matches!(&f.calls[1].args[1], Arg::Str(s, _) if s == "stunned"));
        let Arg::List(items) = &f.calls[2].args[0] else { panic!("{:?}", f.calls[2]) };
        let ids: Vec<&str> = items.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(ids, ["zone-1", "zone-4"]);
        assert!(matches!(&f.calls[3].args[0], Arg::Str(s, _) if s == "hi"));
    }

    #[test]
    fn loops_that_cannot_end() {
        for src in [
            "while true do end",
            "while 1 do local x = 1 end",
            "while not nil do for i = 1, 3 do break end end",
            "repeat local x = 1 until false",
            "while (true) do local f = function() return 1 end end",
        ] {
            let f = facts(src);
            assert_eq!(f.endless.len(), 1, "{src}: {f:?}");
            assert_eq!(f.endless[0].span.start, 0, "{src}");
        }
    }

    #[test]
    fn loops_with_a_way_out() {
        for src in [
            "while true do break end",
            "while true do if x then return end end",
            "while true do error('stop') end",
            "while true do assert(x) end",
            "repeat local x = 1 until x",
            "while x do end",
            "local co = coroutine.wrap(function() while true do coroutine.yield(1) end end)",
            "while false do end",
        ] {
            assert_eq!(facts(src).endless, [], "{src}");
        }
    }

    #[test]
    fn what_luau_refuses_is_not_analysed() {
        assert_eq!(analyse_all(&["while true do"]), [None]);
    }

    /// The deepest nesting Luau compiles, of each kind, parses on the
    /// analysis thread without overflowing its stack (debug builds use the
    /// most; on a 2 MiB thread the parentheses alone abort the process).
    #[test]
    fn the_deepest_nesting_luau_accepts_is_analysed() {
        type Shape = fn(usize) -> String;
        let shapes: [(&str, Shape); 6] = [
            ("parentheses", |n| format!("local x = {}1{}", "(".repeat(n), ")".repeat(n))),
            ("tables", |n| format!("local x = {}{}", "{".repeat(n), "}".repeat(n))),
            ("blocks", |n| format!("{}{}", "do ".repeat(n), "end ".repeat(n))),
            ("functions", |n| format!("local f = {}{}", "function() return ".repeat(n), "1 end ".repeat(n))),
            ("not", |n| format!("local x = {}true", "not ".repeat(n))),
            ("concatenation", |n| format!("local x = 'a'{}", " .. 'a'".repeat(n))),
        ];
        let mut analysed = Vec::new();
        for (what, shape) in shapes {
            let deepest =
                (1..=40).map(|k| k * 100).filter(|&n| super::super::compile::compile(&shape(n)).is_ok()).max();
            let Some(n) = deepest else { continue };
            assert!(analyse_all(&[&shape(n)])[0].is_some(), "{what} at depth {n}");
            analysed.push((what, n));
        }
        assert!(analysed.iter().any(|(what, n)| *what == "parentheses" && *n >= 500), "{analysed:?}");
        assert!(analysed.len() >= 4, "{analysed:?}");
    }
}
