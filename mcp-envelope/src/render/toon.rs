//! A TOON encoder that writes straight from `&serde_json::Value` into one output (spec v4.4, the forms
//! `toon-format` 0.7 chooses with its default options: 2-space indent, comma delimiter), with every number's
//! digits (see [`scalar`]).
//!
//! `toon_format::encode` copies its input four times (to a `serde_json::Value`, to its own value type, once more to
//! normalise it, then a vector of lines joined at the end); on a 1.2 MB page that was ~6x a plain parse+serialize.
//! This encoder makes no copy of the value and writes each line once. Its output is byte for byte the same as
//! `toon-format`'s (a property test holds it to that, `tests/it/toon_oracle.rs`), and it fails where `toon-format`
//! fails: on nesting deeper than [`MAX_DEPTH`].

use serde_json::{Map, Value};

use fields::{Field, is_primitive};

/// Deepest nesting level the encoder writes (as `toon-format`): 256.
pub(crate) const MAX_DEPTH: usize = 256;

/// Where the text goes: a `String`, or a sink that keeps only what the truncated text shows.
pub(crate) trait Sink {
    /// Appends `s`.
    fn push_str(&mut self, s: &str);
}

impl Sink for String {
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }
}

/// The value nests deeper than 256 levels, too deep for TOON's indented text (the message is
/// `toon-format`'s).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Invalid structure: Maximum nesting depth of {MAX_DEPTH} exceeded")]
pub struct TooDeep;

/// Writes `value` as TOON into `out`.
pub(crate) fn encode<S: Sink>(value: &Value, out: &mut S) -> Result<(), TooDeep> {
    match value {
        Value::Object(map) => encode_root(map.iter().map(|(k, v)| (k.as_str(), v)), out),
        value => {
            let mut toon = Toon { out, started: false };
            match value {
                Value::Array(items) => toon.array(None, items, 0)?,
                // On line 1 a leading U+FEFF would read as a byte-order mark (§12), so such a string is quoted.
                Value::String(s) if s.starts_with('\u{FEFF}') => scalar::quoted(toon.out, s),
                primitive => scalar::primitive(toon.out, primitive),
            }
            Ok(())
        }
    }
}

/// Writes a root object given as its entries in order (e.g. an envelope's `data` beside its metadata, without
/// building a map that would copy `data`).
pub(crate) fn encode_root<'v, S, I>(entries: I, out: &mut S) -> Result<(), TooDeep>
where
    S: Sink,
    I: ExactSizeIterator<Item = (&'v str, &'v Value)> + Clone,
{
    let mut toon = Toon { out, started: false };
    match fields::keyed(entries.clone().map(|(_, v)| v)) {
        Some(fields) => toon.keyed_object(None, entries, &fields, 0),
        None => toon.object(entries, 0),
    }
}

struct Toon<'o, S> {
    out: &'o mut S,
    started: bool,
}

fn entries(map: &Map<String, Value>) -> impl ExactSizeIterator<Item = (&str, &Value)> + Clone {
    map.iter().map(|(k, v)| (k.as_str(), v))
}

fn check(depth: usize) -> Result<(), TooDeep> {
    if depth > MAX_DEPTH { Err(TooDeep) } else { Ok(()) }
}

impl<S: Sink> Toon<'_, S> {
    /// Starts a line at `depth` (lines are joined by `\n`, with none after the last).
    fn line(&mut self, depth: usize) {
        const SPACES: &str = "                                                                ";
        if self.started {
            self.out.push_str("\n");
        }
        self.started = true;
        let mut indent = depth * 2;
        while indent > 0 {
            let now = indent.min(SPACES.len());
            self.out.push_str(&SPACES[..now]);
            indent -= now;
        }
    }

    /// Starts a list item (`- `) at `depth`.
    fn item(&mut self, depth: usize) {
        self.line(depth);
        self.out.push_str("- ");
    }

    /// `key[N]{fields}:`, `[N:]` for the keyed form; the comma delimiter is declared by omission (§6, §11.1).
    fn header(&mut self, len: usize, key: Option<&str>, fields: Option<&[Field<'_>]>, keyed: bool) {
        if let Some(key) = key {
            scalar::key(self.out, key);
        }
        self.out.push_str("[");
        self.out.push_str(itoa::Buffer::new().format(len));
        if keyed {
            self.out.push_str(":");
        }
        self.out.push_str("]");
        if let Some(fields) = fields {
            self.out.push_str("{");
            self.field_segment(fields);
            self.out.push_str("}");
        }
        self.out.push_str(":");
    }

    fn field_segment(&mut self, fields: &[Field<'_>]) {
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                self.out.push_str(",");
            }
            scalar::key(self.out, field.name);
            if let Some(children) = &field.children {
                self.out.push_str("{");
                self.field_segment(children);
                self.out.push_str("}");
            }
        }
    }

    /// The cells of one tabular row, depth first in field order (§9.3).
    fn row(&mut self, row: &Map<String, Value>, fields: &[Field<'_>], first: &mut bool) {
        for field in fields {
            let Some(value) = row.get(field.name) else { continue };
            match (&field.children, value) {
                (Some(children), Value::Object(nested)) => self.row(nested, children, first),
                _ => {
                    if !*first {
                        self.out.push_str(",");
                    }
                    *first = false;
                    scalar::primitive(self.out, value);
                }
            }
        }
    }

    fn object<'v>(&mut self, entries: impl Iterator<Item = (&'v str, &'v Value)>, depth: usize) -> Result<(), TooDeep> {
        check(depth)?;
        for (key, value) in entries {
            self.pair(key, value, depth)?;
        }
        Ok(())
    }

    fn pair(&mut self, key: &str, value: &Value, depth: usize) -> Result<(), TooDeep> {
        match value {
            Value::Array(items) => self.array(Some(key), items, depth),
            Value::Object(map) => {
                if let Some(fields) = fields::keyed(map.values()) {
                    return self.keyed_object(Some(key), entries(map), &fields, depth);
                }
                self.line(depth);
                scalar::key(self.out, key);
                self.out.push_str(":");
                if map.is_empty() {
                    Ok(())
                } else {
                    self.object(entries(map), depth + 1)
                }
            }
            primitive => {
                self.line(depth);
                scalar::key(self.out, key);
                self.out.push_str(": ");
                scalar::primitive(self.out, primitive);
                Ok(())
            }
        }
    }

    /// `key[N:]{fields}:` then one `entryKey: cells` line per entry (§9.5).
    fn keyed_object<'v>(
        &mut self,
        key: Option<&str>,
        entries: impl ExactSizeIterator<Item = (&'v str, &'v Value)>,
        fields: &[Field<'_>],
        depth: usize,
    ) -> Result<(), TooDeep> {
        self.line(depth);
        self.header(entries.len(), key, Some(fields), true);
        self.keyed_rows(entries, fields, depth + 1);
        Ok(())
    }

    fn keyed_rows<'v>(
        &mut self,
        entries: impl Iterator<Item = (&'v str, &'v Value)>,
        fields: &[Field<'_>],
        depth: usize,
    ) {
        for (key, value) in entries {
            let Value::Object(entry) = value else { continue };
            self.line(depth);
            scalar::key(self.out, key);
            self.out.push_str(": ");
            self.row(entry, fields, &mut true);
        }
    }

    fn array(&mut self, key: Option<&str>, items: &[Value], depth: usize) -> Result<(), TooDeep> {
        check(depth)?;
        if items.is_empty() {
            self.line(depth);
            match key {
                Some(key) => {
                    scalar::key(self.out, key);
                    self.out.push_str(": []");
                }
                None => self.out.push_str("[]"),
            }
            return Ok(());
        }
        if items.iter().all(is_primitive) {
            self.line(depth);
            self.inline_array(key, items);
            return Ok(());
        }
        let arrays_of_primitives = items
            .iter()
            .all(|item| matches!(item, Value::Array(inner) if inner.iter().all(is_primitive)));
        if arrays_of_primitives {
            // List form of primitive arrays (§9.2).
            self.line(depth);
            self.header(items.len(), key, None, false);
            for item in items {
                self.item(depth + 1);
                self.inline_array(None, item.as_array().map_or(&[], Vec::as_slice));
            }
            return Ok(());
        }
        if items.iter().all(Value::is_object)
            && let Some(fields) = fields::tabular(items)
        {
            self.line(depth);
            self.header(items.len(), key, Some(&fields), false);
            self.rows(items, &fields, depth + 1);
            return Ok(());
        }
        // Mixed and non-uniform arrays: list form (§9.4).
        self.line(depth);
        self.header(items.len(), key, None, false);
        for item in items {
            self.list_item(item, depth + 1)?;
        }
        Ok(())
    }

    /// `key[N]: a,b,c` on the current line.
    fn inline_array(&mut self, key: Option<&str>, items: &[Value]) {
        self.header(items.len(), key, None, false);
        for (i, item) in items.iter().enumerate() {
            self.out.push_str(if i == 0 { " " } else { "," });
            scalar::primitive(self.out, item);
        }
    }

    fn rows(&mut self, rows: &[Value], fields: &[Field<'_>], depth: usize) {
        for row in rows {
            let Value::Object(row) = row else { continue };
            self.line(depth);
            self.row(row, fields, &mut true);
        }
    }

    fn list_item(&mut self, value: &Value, depth: usize) -> Result<(), TooDeep> {
        check(depth)?;
        match value {
            Value::Array(items) => {
                self.item(depth);
                if items.iter().all(is_primitive) {
                    self.inline_array(None, items);
                } else {
                    // No tabular form here: a keyless fields-bearing header is valid only at the root (§9.4).
                    self.header(items.len(), None, None, false);
                    for item in items {
                        self.list_item(item, depth + 1)?;
                    }
                }
                Ok(())
            }
            Value::Object(map) => self.object_item(map, depth),
            primitive => {
                self.item(depth);
                scalar::primitive(self.out, primitive);
                Ok(())
            }
        }
    }

    /// An object as a list item: its first field on the hyphen line, the others below at `depth + 1` (§10).
    fn object_item(&mut self, map: &Map<String, Value>, depth: usize) -> Result<(), TooDeep> {
        let mut rest = map.iter();
        let Some((first_key, first)) = rest.next() else {
            self.line(depth);
            self.out.push_str("-");
            return Ok(());
        };
        self.first_field(first_key, first, depth)?;
        for (key, value) in rest {
            self.pair(key, value, depth + 1)?;
        }
        Ok(())
    }

    fn first_field(&mut self, key: &str, value: &Value, depth: usize) -> Result<(), TooDeep> {
        match value {
            // A tabular or keyed tabular first field: header on the hyphen line, rows at depth + 2.
            Value::Array(items) if !items.is_empty() && items.iter().all(Value::is_object) => {
                if let Some(fields) = fields::tabular(items) {
                    self.item(depth);
                    self.header(items.len(), Some(key), Some(&fields), false);
                    self.rows(items, &fields, depth + 2);
                    return Ok(());
                }
            }
            Value::Object(map) => {
                if let Some(fields) = fields::keyed(map.values()) {
                    self.item(depth);
                    self.header(map.len(), Some(key), Some(&fields), true);
                    self.keyed_rows(entries(map), &fields, depth + 2);
                    return Ok(());
                }
            }
            _ => {}
        }
        self.item(depth);
        scalar::key(self.out, key);
        match value {
            Value::Array(items) if items.is_empty() => self.out.push_str(": []"),
            Value::Array(items) if items.iter().all(is_primitive) => self.inline_array(None, items),
            Value::Array(items) => {
                // Non-inline items sit at depth + 2, below the hyphen line.
                self.header(items.len(), None, None, false);
                for item in items {
                    self.list_item(item, depth + 2)?;
                }
            }
            Value::Object(map) => {
                self.out.push_str(":");
                if !map.is_empty() {
                    self.object(entries(map), depth + 2)?;
                }
            }
            primitive => {
                self.out.push_str(": ");
                scalar::primitive(self.out, primitive);
            }
        }
        Ok(())
    }
}

mod fields;
pub(crate) mod list;
mod scalar;
