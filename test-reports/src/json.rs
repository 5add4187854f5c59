//! JSON and JSON Lines with serde_json, shared by the mocha, RSpec, `go test -json` and dart readers: errors with
//! their position, and the keys of the first value (for detection).

use std::fmt;

use serde::Deserializer as _;
use serde::de::{DeserializeOwned, IgnoredAny, MapAccess, Visitor};

use crate::{Error, Format, Position};

/// `text` as one JSON value of type `T` (a report of `format`).
pub(crate) fn from_str<T: DeserializeOwned>(format: Format, text: &str) -> Result<T, Error> {
    let start = text.len() - text.trim_start().len();
    if !text[start..].starts_with('{') {
        // serde would read a struct from an array too.
        return Err(Error::Invalid {
            format,
            message: "the report is not a JSON object".into(),
            position: Some(Position::at(text, start)),
        });
    }
    serde_json::from_str(text).map_err(|err| error(format, text, 0, 0, &err))
}

/// Every non-blank line of `text` as a JSON value of type `T` (an event of a JSON Lines report of `format`).
pub(crate) fn lines<'a, T: DeserializeOwned>(
    format: Format,
    text: &'a str,
) -> impl Iterator<Item = Result<T, Error>> + 'a {
    let mut offset = 0;
    text.split('\n').enumerate().filter_map(move |(index, line)| {
        let start = offset;
        offset += line.len() + 1;
        if line.trim().is_empty() {
            return None;
        }
        Some(serde_json::from_str(line).map_err(|err| error(format, text, start, index, &err)))
    })
}

/// A serde_json error on the text starting at byte `start` of `text`, which is line `index` (0-based) of it.
fn error(format: Format, text: &str, start: usize, index: usize, err: &serde_json::Error) -> Error {
    // serde_json's line and column are relative to what it read; its column counts bytes, 1-based.
    let line_offset = if err.line() <= 1 {
        start
    } else {
        start
            + text[start..]
                .split_inclusive('\n')
                .take(err.line() - 1)
                .map(str::len)
                .sum::<usize>()
    };
    let offset = line_offset + err.column().saturating_sub(1);
    let mut position = Position::at(text, offset);
    if err.line() <= 1 {
        position.line = index as u64 + 1;
    }
    let message = err.to_string();
    let message = match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message,
    };
    match err.classify() {
        serde_json::error::Category::Data => Error::Invalid {
            format,
            message,
            position: Some(position),
        },
        _ => Error::Json { position, message },
    }
}

/// What the first JSON value of a text is, for [`crate::detect`].
pub(crate) enum FirstValue {
    /// An object, with its keys in order.
    Object(Vec<String>),
    /// Another JSON value: what kind.
    Other(&'static str),
}

/// The first JSON value of `text` (a whole document or the first JSON Lines event), read no further.
pub(crate) fn first_value(text: &str) -> Result<FirstValue, Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_any(FirstValueVisitor)
        .map_err(|err| match error(Format::MochaJson, text, 0, 0, &err) {
            Error::Invalid { message, position, .. } => Error::Json {
                message,
                position: position.unwrap_or_else(|| Position::at(text, 0)),
            },
            other => other,
        })
}

struct FirstValueVisitor;

impl<'de> Visitor<'de> for FirstValueVisitor {
    type Value = FirstValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FirstValue, A::Error> {
        let mut keys = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            map.next_value::<IgnoredAny>()?;
            keys.push(key);
        }
        // serde_json's `arbitrary_precision` (on in this workspace) hands numbers over as a one-key map.
        if keys.len() == 1 && keys[0] == "$serde_json::private::Number" {
            return Ok(FirstValue::Other("a JSON number"));
        }
        Ok(FirstValue::Object(keys))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<FirstValue, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(FirstValue::Other("a JSON array"))
    }

    fn visit_str<E>(self, _: &str) -> Result<FirstValue, E> {
        Ok(FirstValue::Other("a JSON string"))
    }

    fn visit_bool<E>(self, _: bool) -> Result<FirstValue, E> {
        Ok(FirstValue::Other("a JSON boolean"))
    }

    fn visit_i64<E>(self, _: i64) -> Result<FirstValue, E> {
        Ok(FirstValue::Other("a JSON number"))
    }

    fn visit_u64<E>(self, _: u64) -> Result<FirstValue, E> {
        Ok(FirstValue::Other("a JSON number"))
    }

    fn visit_f64<E>(self, _: f64) -> Result<FirstValue, E> {
        Ok(FirstValue::Other("a JSON number"))
    }

    fn visit_unit<E>(self) -> Result<FirstValue, E> {
        Ok(FirstValue::Other("JSON null"))
    }
}
