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
    /// Values TOML allows that content cannot hold (an integer beyond 64
    /// bits, `nan`, `inf`), by JSON Pointer; each is `null` in `value`, so
    /// the schema refuses its entry while the rest of the file loads.
    pub invalid: Vec<(String, SyntaxError)>,
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

/// A TOML syntax error: message and byte span; or (in [`SpannedDoc::invalid`])
/// a value TOML allows that content cannot hold, with a hint.
#[derive(Debug, Clone)]
pub struct SyntaxError {
    /// The parser's message, without its own rendering of the source.
    pub message: String,
    /// Where, when known.
    pub span: Option<Range<usize>>,
    /// What to do about it, when the error is about one value.
    pub help: Option<String>,
}

/// The largest whole number a float carries exactly (2^53): a float with no
/// fractional part up to this size loads as that integer.
const EXACT_FLOAT_INTEGER: f64 = 9_007_199_254_740_992.0;

/// Parse TOML text into JSON with spans. On a syntax error, every error the
/// parser could recover is returned.
pub fn parse(text: &str) -> Result<SpannedDoc, Vec<SyntaxError>> {
    let (table, errors) = DeTable::parse_recoverable(text);
    if !errors.is_empty() {
        return Err(errors
            .into_iter()
            .map(|e| SyntaxError { message: e.message().trim().to_string(), span: e.span(), help: None })
            .collect());
    }
    let mut doc = SpannedDoc::default();
    let span = table.span();
    let mut cx = Convert { spans: &mut doc.spans, invalid: Vec::new() };
    let value = cx.table(table.get_ref(), "");
    doc.invalid = cx.invalid;
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

/// The conversion's spans and the values it could not convert.
struct Convert<'s> {
    spans: &'s mut HashMap<String, Spans>,
    invalid: Vec<(String, SyntaxError)>,
}

impl Convert<'_> {
    fn table(&mut self, table: &DeTable<'_>, pointer: &str) -> Value {
        let mut map = Map::new();
        for (key, value) in table.iter() {
            let p = child(pointer, key.get_ref());
            let v = self.value(value.get_ref(), value.span(), &p);
            self.spans.insert(p, Spans { key: Some(key.span()), value: value.span() });
            map.insert(key.get_ref().to_string(), v);
        }
        Value::Object(map)
    }

    /// One value. Numbers: a TOML integer is 64 bits (toml.io: "Arbitrary
    /// 64-bit signed integers ... should be accepted and handled losslessly.
    /// If an integer cannot be represented losslessly, an error must be
    /// thrown"); a float with no fractional part (`4.0`, `5e0`) becomes that
    /// integer, so `speed = 4.0` loads as `speed = 4` (docs/packs.md §
    /// Numbers); `nan` and `inf` are errors, since no content holds them.
    fn value(&mut self, value: &DeValue<'_>, span: Range<usize>, pointer: &str) -> Value {
        match value {
            DeValue::String(s) => Value::String(s.to_string()),
            DeValue::Integer(i) => {
                let digits: String = i.as_str().chars().filter(|c| *c != '_').collect();
                let (neg, digits) = match digits.strip_prefix('-') {
                    Some(rest) => (true, rest.to_string()),
                    None => (false, digits.trim_start_matches('+').to_string()),
                };
                let digits = digits.trim_start_matches("0x").trim_start_matches("0o").trim_start_matches("0b");
                // Parse with the sign, so i64::MIN is in range.
                let signed = if neg { format!("-{digits}") } else { digits.to_string() };
                match i64::from_str_radix(&signed, i.radix()) {
                    Ok(n) => Value::Number(Number::from(n)),
                    Err(_) => {
                        self.invalid.push((pointer.to_string(), SyntaxError {
                            message: format!("the integer `{}` is out of range", i.as_str()),
                            span: Some(span),
                            help: Some(format!(
                                "TOML integers are 64-bit, from {} to {}; every count in content is far smaller (see the field's range in the schema)",
                                i64::MIN,
                                i64::MAX
                            )),
                        }));
                        Value::Null
                    }
                }
            }
            DeValue::Float(f) => {
                let s: String = f.as_str().chars().filter(|c| *c != '_').collect();
                match s.parse::<f64>() {
                    Ok(x) if x.is_finite() => {
                        if x.fract() == 0.0 && x.abs() <= EXACT_FLOAT_INTEGER {
                            // Exact: |x| <= 2^53, so the cast loses nothing.
                            Value::Number(Number::from(x as i64))
                        } else {
                            Number::from_f64(x).map_or(Value::Null, Value::Number)
                        }
                    }
                    _ => {
                        self.invalid.push((
                            pointer.to_string(),
                            SyntaxError {
                                message: format!("`{}` is not a finite number", f.as_str()),
                                span: Some(span),
                                help: Some("content numbers are finite: write the number itself".to_string()),
                            },
                        ));
                        Value::Null
                    }
                }
            }
            DeValue::Boolean(b) => Value::Bool(*b),
            DeValue::Datetime(d) => Value::String(d.to_string()),
            DeValue::Array(items) => Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(idx, item)| {
                        let p = child(pointer, itoa(idx).as_str());
                        let v = self.value(item.get_ref(), item.span(), &p);
                        self.spans.insert(p, Spans { key: None, value: item.span() });
                        v
                    })
                    .collect(),
            ),
            DeValue::Table(t) => self.table(t, pointer),
        }
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

    #[test]
    fn a_whole_number_float_loads_as_that_integer() {
        let doc = parse("a = 4.0\nb = 5e0\nc = -2.0\nd = 4.5\ne = [1.0, 2.5]\n").unwrap();
        assert_eq!(doc.value["a"], serde_json::json!(4));
        assert!(doc.value["a"].is_i64());
        assert_eq!(doc.value["b"], serde_json::json!(5));
        assert_eq!(doc.value["c"], serde_json::json!(-2));
        assert_eq!(doc.value["d"], serde_json::json!(4.5));
        assert_eq!(doc.value["e"], serde_json::json!([1, 2.5]));
    }

    #[test]
    fn a_float_too_large_to_be_exact_stays_a_float() {
        let doc = parse("a = 1e30\n").unwrap();
        assert!(doc.value["a"].is_f64(), "{:?}", doc.value["a"]);
    }

    #[test]
    fn an_integer_beyond_64_bits_is_an_error_at_its_span() {
        let text = "id = \"x\"\nhit_points = 99999999999999999999\n";
        let doc = parse(text).unwrap();
        assert_eq!(doc.invalid.len(), 1);
        let (pointer, e) = &doc.invalid[0];
        assert_eq!(pointer, "/hit_points");
        assert_eq!(doc.value["hit_points"], Value::Null);
        assert_eq!(doc.value["id"], "x", "the rest of the document is read");
        assert!(e.message.contains("out of range"), "{}", e.message);
        assert_eq!(&text[e.span.clone().unwrap()], "99999999999999999999");
        assert!(e.help.as_deref().unwrap_or_default().contains("64-bit"));
        assert!(!e.message.contains("string"));
    }

    #[test]
    fn the_smallest_64_bit_integer_is_in_range() {
        let doc = parse("a = -9223372036854775808\n").unwrap();
        assert_eq!(doc.value["a"], serde_json::json!(i64::MIN));
    }

    #[test]
    fn nan_and_infinity_are_errors() {
        for text in ["a = nan\n", "a = inf\n", "a = -inf\n", "a = +nan\n"] {
            let doc = parse(text).unwrap();
            assert!(doc.invalid[0].1.message.contains("not a finite number"), "{text}: {}", doc.invalid[0].1.message);
        }
    }
}
