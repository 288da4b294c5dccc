//! TOML text to a JSON value, keeping where every value and key came from.
//!
//! The schema validator speaks JSON and reports JSON Pointer paths
//! (`/character/0/speed`); this module parses TOML with the span-preserving
//! `toml::de::DeTable` and records, for every pointer, the byte span of the key
//! and of the value, so a schema error maps back to a line and column.
//!
//! Deliberately does no file IO and no validation.

use serde_json::{Map, Number, Value};
use std::collections::HashMap;
use std::ops::Range;
use toml::de::{DeTable, DeValue};

/// Spans of one value: where its key is written (for a table or array item
/// without a key, the header or the item itself), and where the value is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spans {
    /// Span of the key, when the value has one.
    pub key: Option<Range<usize>>,
    /// Span of the value.
    pub value: Range<usize>,
}

/// A parsed document: the JSON form and the spans of every JSON Pointer in it.
#[derive(Debug, Clone, Default)]
pub struct SpannedDoc {
    /// The document as JSON; TOML datetimes become strings.
    pub value: Value,
    /// JSON Pointer (`""` for the root, `/character/0/name`) to spans.
    pub spans: HashMap<String, Spans>,
}

impl SpannedDoc {
    /// The best span for a pointer: its own value span, or the nearest
    /// ancestor's when the pointer names something absent (a missing field).
    pub fn value_span(&self, pointer: &str) -> Option<Range<usize>> {
        let mut p = pointer;
        loop {
            if let Some(s) = self.spans.get(p) {
                return Some(s.value.clone());
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return None,
            }
        }
    }

    /// The span of the key of a pointer, falling back to its value span.
    pub fn key_span(&self, pointer: &str) -> Option<Range<usize>> {
        match self.spans.get(pointer) {
            Some(Spans { key: Some(k), .. }) => Some(k.clone()),
            _ => self.value_span(pointer),
        }
    }

    /// The JSON value at a pointer.
    pub fn get(&self, pointer: &str) -> Option<&Value> {
        self.value.pointer(pointer)
    }
}

/// A TOML syntax error: message and byte span.
#[derive(Debug, Clone)]
pub struct SyntaxError {
    /// The parser's message, without its own rendering of the source.
    pub message: String,
    /// Where, when known.
    pub span: Option<Range<usize>>,
}

/// Parse TOML text into JSON with spans. On a syntax error, every error the
/// parser could recover is returned.
pub fn parse(text: &str) -> Result<SpannedDoc, Vec<SyntaxError>> {
    let (table, errors) = DeTable::parse_recoverable(text);
    if !errors.is_empty() {
        return Err(errors
            .into_iter()
            .map(|e| SyntaxError { message: e.message().trim().to_string(), span: e.span() })
            .collect());
    }
    let mut doc = SpannedDoc::default();
    let span = table.span();
    let value = convert_table(table.get_ref(), "", &mut doc.spans);
    doc.spans.insert(String::new(), Spans { key: None, value: span });
    doc.value = value;
    Ok(doc)
}

/// Escape a key as one JSON Pointer segment (RFC 6901).
pub fn escape(key: &str) -> String {
    if key.contains(['~', '/']) { key.replace('~', "~0").replace('/', "~1") } else { key.to_string() }
}

/// `pointer` + "/" + the escaped key, in one allocation.
fn child(pointer: &str, key: &str) -> String {
    let mut p = String::with_capacity(pointer.len() + key.len() + 1);
    p.push_str(pointer);
    p.push('/');
    if key.contains(['~', '/']) {
        p.push_str(&escape(key));
    } else {
        p.push_str(key);
    }
    p
}

fn convert_table(table: &DeTable<'_>, pointer: &str, spans: &mut HashMap<String, Spans>) -> Value {
    let mut map = Map::new();
    for (key, value) in table.iter() {
        let p = child(pointer, key.get_ref());
        let v = convert_value(value.get_ref(), &p, spans);
        spans.insert(p, Spans { key: Some(key.span()), value: value.span() });
        map.insert(key.get_ref().to_string(), v);
    }
    Value::Object(map)
}

fn convert_value(value: &DeValue<'_>, pointer: &str, spans: &mut HashMap<String, Spans>) -> Value {
    match value {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Integer(i) => {
            let digits: String = i.as_str().chars().filter(|c| *c != '_').collect();
            let (neg, digits) = match digits.strip_prefix('-') {
                Some(rest) => (true, rest.to_string()),
                None => (false, digits.trim_start_matches('+').to_string()),
            };
            let digits = digits.trim_start_matches("0x").trim_start_matches("0o").trim_start_matches("0b");
            match i64::from_str_radix(digits, i.radix()) {
                Ok(n) => Value::Number(Number::from(if neg { -n } else { n })),
                Err(_) => Value::String(i.as_str().to_string()),
            }
        }
        DeValue::Float(f) => {
            let s: String = f.as_str().chars().filter(|c| *c != '_').collect();
            s.parse::<f64>()
                .ok()
                .and_then(Number::from_f64)
                .map_or_else(|| Value::String(f.as_str().to_string()), Value::Number)
        }
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Datetime(d) => Value::String(d.to_string()),
        DeValue::Array(items) => Value::Array(
            items
                .iter()
                .enumerate()
                .map(|(idx, item)| {
                    let p = child(pointer, itoa(idx).as_str());
                    let v = convert_value(item.get_ref(), &p, spans);
                    spans.insert(p, Spans { key: None, value: item.span() });
                    v
                })
                .collect(),
        ),
        DeValue::Table(t) => convert_table(t, pointer, spans),
    }
}

fn itoa(n: usize) -> String {
    n.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_of_array_of_tables_point_at_the_entry() {
        let text = "[[character]]\nid = \"a\"\nspeed = 3\n\n[[character]]\nid = \"b\"\n";
        let doc = parse(text).unwrap();
        let s = doc.spans.get("/character/1/id").unwrap();
        assert_eq!(&text[s.key.clone().unwrap()], "id");
        assert_eq!(&text[s.value.clone()], "\"b\"");
        assert_eq!(doc.value["character"][0]["speed"], 3);
        let entry = doc.value_span("/character/1").unwrap();
        assert!(text[entry].contains("character"));
    }

    #[test]
    fn integers_in_every_radix() {
        let doc = parse("a = 0x1F\nb = -1_000\nc = 0o17\nd = 0b101\n").unwrap();
        assert_eq!(doc.value["a"], 31);
        assert_eq!(doc.value["b"], -1000);
        assert_eq!(doc.value["c"], 15);
        assert_eq!(doc.value["d"], 5);
    }
}
