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
/// 0x09; both hold NUL bytes, which source never does. Text in UTF-16 or UTF-32
/// (which also holds NUL bytes) is not bytecode: see [`wide_encoding`].
pub fn is_bytecode(bytes: &[u8]) -> bool {
    if wide_encoding(bytes).is_some() {
        return false;
    }
    bytes.first().is_some_and(|&b| b == 0x1b || b < 0x09) || bytes.contains(&0)
}

/// The encoding of text saved as UTF-16 or UTF-32 (by its byte-order mark, or
/// by the NUL bytes that ASCII text has between its characters), if it is.
pub fn wide_encoding(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0xff, 0xfe, 0, 0, ..] => return Some("UTF-32LE"),
        [0, 0, 0xfe, 0xff, ..] => return Some("UTF-32BE"),
        [0xff, 0xfe, ..] => return Some("UTF-16LE"),
        [0xfe, 0xff, ..] => return Some("UTF-16BE"),
        _ => {}
    }
    // Without a mark: look at the first characters (ASCII in any Lua file).
    let head = &bytes[..bytes.len().min(64) & !3];
    if head.len() < 4 {
        return None;
    }
    let zero_at = |phase: usize, width: usize| {
        head.chunks(width).all(|c| c.iter().enumerate().all(|(i, &b)| (b == 0) == (i != phase)))
    };
    if zero_at(0, 4) {
        Some("UTF-32LE")
    } else if zero_at(3, 4) {
        Some("UTF-32BE")
    } else if zero_at(0, 2) {
        Some("UTF-16LE")
    } else if zero_at(1, 2) {
        Some("UTF-16BE")
    } else {
        None
    }
}

/// The error for a script saved as UTF-16 or UTF-32 rather than UTF-8.
pub fn wide_encoding_message(encoding: &str) -> String {
    format!("script is saved as {encoding} text, not UTF-8")
}

/// Compile Luau source without running it.
pub fn compile(source: &str) -> Result<(), CompileError> {
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    if let Some(enc) = wide_encoding(source.as_bytes()) {
        return Err(CompileError { line: None, message: wide_encoding_message(enc) });
    }
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

    /// UTF-16 text holds NUL bytes too, but it is text in the wrong encoding.
    #[test]
    fn wide_text_is_not_bytecode() {
        let utf16le: Vec<u8> = "return 1\n".encode_utf16().flat_map(u16::to_le_bytes).collect();
        let utf16be: Vec<u8> = "return 1\n".encode_utf16().flat_map(u16::to_be_bytes).collect();
        let mut bom = vec![0xff, 0xfe];
        bom.extend(&utf16le);
        assert_eq!(wide_encoding(&utf16le), Some("UTF-16LE"));
        assert_eq!(wide_encoding(&utf16be), Some("UTF-16BE"));
        assert_eq!(wide_encoding(&bom), Some("UTF-16LE"));
        assert_eq!(wide_encoding(b"return 1\n"), None);
        assert!(!is_bytecode(&utf16le) && !is_bytecode(&bom));
        let e = compile(std::str::from_utf8(&utf16le).unwrap()).unwrap_err();
        assert!(e.message.contains("UTF-16LE"), "{e:?}");
    }
}
