//! Script errors: kinds, messages with the file's own line numbers and without addresses, and their diagnostics.

use super::*;

/// A message with the lines it names (Luau's `at line N`, counted in the
/// chunk) counted in the file instead: for inline Lua, lines of the TOML file.
pub(super) fn file_lines(message: &str, first_line: usize) -> String {
    const AT: &str = "at line ";
    if first_line <= 1 {
        return message.to_string();
    }
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find(AT) {
        let (head, tail) = rest.split_at(i + AT.len());
        out.push_str(head);
        let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
        match tail[..digits].parse::<usize>() {
            Ok(n) if n >= 1 => out.push_str(&(n + first_line - 1).to_string()),
            _ => out.push_str(&tail[..digits]),
        }
        rest = &tail[digits..];
    }
    out.push_str(rest);
    out
}

/// What went wrong in a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScriptErrorKind {
    /// Does not compile.
    Compile,
    /// Larger than [`MAX_SCRIPT_BYTES`]: not compiled.
    TooLarge,
    /// A Lua error, or a wrong argument to the API.
    Runtime,
    /// The instruction budget (or the wall-time backstop) of the call ran out.
    Budget,
    /// The VM's memory limit was reached.
    Memory,
}

/// A script failure with everything a diagnostic needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    /// Kind.
    pub kind: ScriptErrorKind,
    /// The message, positions stripped.
    pub message: String,
    /// Pack id.
    pub pack: String,
    /// The card (`character:valkyrie`).
    pub card: String,
    /// The effect of the card.
    pub effect: String,
    /// The file.
    pub file: PathBuf,
    /// The line in `file`, when known.
    pub line: Option<usize>,
}

impl ScriptError {
    pub(super) fn new(kind: ScriptErrorKind, message: &str, s: &ScriptSource, chunk_line: Option<usize>) -> Self {
        ScriptError {
            kind,
            message: file_lines(message.trim(), s.first_line),
            pack: s.pack.clone(),
            card: s.card.clone(),
            effect: s.effect.clone(),
            file: s.file.clone(),
            line: chunk_line.map(|l| s.first_line + l - 1),
        }
    }

    /// The stable diagnostic code of this kind of failure.
    pub fn code(&self) -> Code {
        match self.kind {
            ScriptErrorKind::Compile | ScriptErrorKind::TooLarge => Code::ScriptCompile,
            ScriptErrorKind::Runtime => Code::ScriptError,
            ScriptErrorKind::Budget => Code::ScriptBudget,
            ScriptErrorKind::Memory => Code::ScriptMemory,
        }
    }

    /// As a diagnostic (line known, column 1; the caller may refine the span).
    pub fn to_diagnostic(&self) -> Diagnostic {
        let help = match self.kind {
            ScriptErrorKind::Compile => "fix the Luau syntax; `arena script FILE` runs a file on its own",
            ScriptErrorKind::TooLarge => "split the effects over smaller files (docs/effects.md § The sandbox)",
            ScriptErrorKind::Runtime => "see docs/lua-api.md for the API; `arena script FILE` runs a script alone",
            ScriptErrorKind::Budget => "the effect ran too long: look for a loop that never ends",
            ScriptErrorKind::Memory => {
                "the effect used too much memory: look for a string or table that grows without end"
            }
        };
        let what = if self.effect.is_empty() { self.card.clone() } else { format!("{} {}", self.card, self.effect) };
        let message = match self.kind {
            ScriptErrorKind::Compile => format!("Lua does not compile: {}", self.message),
            ScriptErrorKind::TooLarge => format!("script too large: {}", self.message),
            _ => format!("{}: {}", what, self.message),
        };
        let mut d = Diagnostic::error(self.code(), message)
            .at(Location { file: self.file.clone(), span: None, line: self.line.unwrap_or(1), column: 1 })
            .path(what)
            .help(help);
        if !self.pack.is_empty() {
            d = d.with_note(format!("in pack `{}`", self.pack));
        }
        d
    }
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line.unwrap_or(1), self.message)
    }
}

/// The first line of an error and its causes, and whether it was a memory error.
pub(super) fn flatten(e: &mlua::Error) -> (String, bool) {
    match e {
        mlua::Error::CallbackError { cause, traceback } => {
            let (m, mem) = flatten(cause);
            // A Rust-side error carries the caller's position in the traceback.
            if !m.contains('@') {
                if let Some(pos) = first_position(traceback) {
                    return (format!("{pos} {m}"), mem);
                }
            }
            (m, mem)
        }
        mlua::Error::MemoryError(m) => (m.clone(), true),
        mlua::Error::RuntimeError(m) => (m.lines().next().unwrap_or_default().to_string(), false),
        mlua::Error::WithContext { cause, .. } => flatten(cause),
        other => (other.to_string().lines().next().unwrap_or_default().to_string(), false),
    }
}

/// The first `@CHUNK:LINE:` in a text (a traceback), if any.
pub(super) fn first_position(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(off) = text[i..].find('@') {
        let start = i + off;
        let mut j = start + 1;
        let digits = |j: &mut usize| {
            let from = *j;
            while *j < bytes.len() && bytes[*j].is_ascii_digit() {
                *j += 1;
            }
            *j > from
        };
        if digits(&mut j) && bytes.get(j) == Some(&b':') {
            j += 1;
            if digits(&mut j) && bytes.get(j) == Some(&b':') {
                return Some(&text[start..=j]);
            }
        }
        i = start + 1;
    }
    None
}

/// `@3:12: attempt to call a nil value` → `attempt to call a nil value`; also
/// the positions of the sandbox's own wrappers (`sandbox:12:`).
pub(super) fn strip_positions(m: &str) -> String {
    let mut s = m.trim();
    while let Some(rest) = s.strip_prefix('@').or_else(|| s.strip_prefix("sandbox:")) {
        let after: &str = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        let after = after.strip_prefix(':').unwrap_or(after);
        let after = after.trim_start_matches(|c: char| c.is_ascii_digit());
        s = after.strip_prefix(':').unwrap_or(after).trim();
    }
    let s = s.strip_prefix("runtime error: ").unwrap_or(s);
    crate::diag::shorten(s, 300)
}

/// `table: 0x00007f...` → `table`: an address differs from run to run, so it
/// never reaches a diagnostic or a game's events (`error({})`, `error(ctx)`).
pub(super) fn without_addresses(m: &str) -> String {
    let mut out = String::with_capacity(m.len());
    let mut rest = m;
    while let Some(i) = rest.find(": 0x") {
        let hex = rest[i + 4..].bytes().take_while(u8::is_ascii_hexdigit).count();
        out.push_str(&rest[..i]);
        if hex == 0 {
            out.push_str(": 0x");
        }
        rest = &rest[i + 4 + hex..];
    }
    out.push_str(rest);
    out.replace("CtxObject", "ctx")
}
