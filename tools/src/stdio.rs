//! `-` as a FILE argument: standard input where a command reads a file,
//! standard output where it writes one (`arena run - < situation.toml`,
//! `arena sim assault --replay - | jq .seed`), as POSIX utilities do.
//!
//! Standard input is a field of the run ([`Stdin`], in [`crate::Ui`]), not
//! `std::io::stdin()` read where it is needed, so `arena::run_with_stdin`
//! drives it in-process in the tests. It is read whole, at most once, and no
//! further than the limit of the file it stands for (`MAX_TOOL_FILE`), as
//! `arena_engine::read::read_limited` reads a file.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::Mutex;

/// What `-` is called in messages and diagnostics.
pub(crate) const STDIN_NAME: &str = "<stdin>";

/// Whether a FILE argument is `-`.
pub(crate) fn is_dash(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// A FILE argument as messages name it: `<stdin>` for `-`, else its path.
pub(crate) fn name(path: &Path) -> String {
    if is_dash(path) { STDIN_NAME.to_string() } else { path.display().to_string() }
}

/// The standard input of one run of the CLI, taken by the first `-` that
/// reads it.
pub struct Stdin {
    reader: Mutex<Option<Box<dyn Read + Send>>>,
}

impl std::fmt::Debug for Stdin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Stdin")
    }
}

impl Stdin {
    /// Standard input read from `reader`.
    pub fn new(reader: impl Read + Send + 'static) -> Self {
        Stdin { reader: Mutex::new(Some(Box::new(reader))) }
    }

    /// The bytes of `path`, at most `max`: the file's, or standard input's
    /// for `-`.
    ///
    /// # Errors
    /// The file (or standard input) cannot be read or holds more than `max`
    /// bytes; standard input was read already by another `-` of this run.
    pub(crate) fn read_limited(&self, path: &Path, max: u64) -> Result<Vec<u8>, String> {
        if !is_dash(path) {
            return arena_engine::read::read_limited(path, max);
        }
        let taken = self.reader.lock().map(|mut r| r.take()).unwrap_or(None);
        let Some(reader) = taken else {
            return Err("standard input was read already: only one FILE of a command may be `-`".into());
        };
        let mut bytes = Vec::new();
        reader.take(max + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read {STDIN_NAME}: {e}"))?;
        if bytes.len() as u64 > max {
            return Err(format!("{STDIN_NAME} is larger than {max} bytes, the most arena reads of such a file"));
        }
        Ok(bytes)
    }

    /// [`Stdin::read_limited`], as UTF-8 text.
    ///
    /// # Errors
    /// As [`Stdin::read_limited`]; or the bytes are not UTF-8.
    pub(crate) fn read_text_limited(&self, path: &Path, max: u64) -> Result<String, String> {
        String::from_utf8(self.read_limited(path, max)?).map_err(|_| format!("{} is not UTF-8 text", name(path)))
    }
}

/// Write `bytes` as the file `path`, whole or not at all
/// (`crate::write_atomically`), or to `stdout` for `-`.
///
/// # Errors
/// As `crate::write_atomically`, or writing to `stdout` failed.
pub(crate) fn write_output(path: &Path, bytes: &[u8], stdout: &mut dyn Write) -> anyhow::Result<()> {
    if is_dash(path) {
        stdout.write_all(bytes)?;
        stdout.flush()?;
        Ok(())
    } else {
        crate::write_atomically(path, bytes)
    }
}
