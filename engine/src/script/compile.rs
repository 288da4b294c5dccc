//! Compiling Luau source without running it.
//!
//! What loading needs: refusing precompiled bytecode and
//! compiling source to find syntax errors, with the line they are on.

/// A compile error: message and 1-based line within the chunk, when Luau gives one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    /// Line within the chunk.
    pub line: Option<usize>,
    /// Luau's message, without the chunk-name prefix.
    pub message: String,
}

/// Whether bytes look like precompiled bytecode rather than source: Lua 5.x
/// bytecode starts with ESC (`\x1bLua`), Luau bytecode with a version byte below
/// 0x09; both hold NUL bytes, which source never does.
pub fn is_bytecode(bytes: &[u8]) -> bool {
    bytes.first().is_some_and(|&b| b == 0x1b || b < 0x09) || bytes.contains(&0)
}

/// Compile Luau source without running it.
pub fn compile(source: &str) -> Result<(), CompileError> {
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    if is_bytecode(source.as_bytes()) {
        return Err(CompileError { line: None, message: "precompiled bytecode is not accepted".into() });
    }
    match mlua::chunk::Compiler::new().compile(source) {
        Ok(_) => Ok(()),
        Err(e) => Err(parse_error(&e.to_string())),
    }
}

/// Split Luau's `chunk:LINE: message` form.
pub fn parse_error(text: &str) -> CompileError {
    let text = text.strip_prefix("syntax error: ").unwrap_or(text);
    // Luau writes `LINE: message` for a nameless chunk, `chunk:LINE: message` otherwise.
    if let Some((head, rest)) = text.split_once(':') {
        if !head.is_empty() && head.bytes().all(|b| b.is_ascii_digit()) {
            return CompileError { line: head.parse().ok(), message: rest.trim().to_string() };
        }
    }
    // Find the first ":<digits>:" and take what follows as the message.
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b':' {
            let start = i + 1;
            let mut j = start;
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            if j > start && j < bytes.len() && bytes[j] == b':' {
                let line = text[start..j].parse().ok();
                let message = text[j + 1..].trim().to_string();
                return CompileError { line, message };
            }
        }
        i += 1;
    }
    CompileError { line: None, message: text.trim().to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_carry_their_line() {
        let e = compile("local x = 1\nlocal y = \nreturn x").unwrap_err();
        assert_eq!(e.line, Some(3), "{e:?}");
    }

    #[test]
    fn bytecode_is_refused() {
        assert!(is_bytecode(b"\x1bLuaT\x00\x19"));
        assert!(is_bytecode(&[0x05, 0x01, 0x00]));
        assert!(!is_bytecode(b"return 1\n"));
        assert!(compile("return 1").is_ok());
    }
}
