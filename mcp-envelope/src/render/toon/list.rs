//! The TOON text of one list whose items arrive in parts (pages), written part by part without holding the items:
//! the header (`key[N]...:`) can only be written once every item was seen (its length, and whether every item keeps
//! the form the first one allows), so each part is written in each form still possible, and the header is chosen at
//! the end ([`ListText::form`]). The forms and their order of preference are [`super::Toon::array`]'s.

use serde_json::{Map, Value};

use super::fields::{self, Field, is_primitive};
use super::{Sink, TooDeep, Toon};

/// The form of a list's items, as [`super::Toon::array`] chooses it for the whole list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// Every item a primitive: `key[N]: a,b,c` on one line.
    Inline,
    /// Every item an array of primitives: `key[N]:` then `- [M]: a,b` lines.
    Arrays,
    /// Every item an object of the first item's tabular shape: `key[N]{fields}:` then one row per item.
    Rows,
    /// Anything else: `key[N]:` then one list item (`- ...`) per item.
    Items,
}

/// The form the first item allows besides [`Form::Items`] (which every list allows), if any.
fn specific(first: &Value) -> Option<Form> {
    match first {
        Value::Array(inner) if inner.iter().all(is_primitive) => Some(Form::Arrays),
        Value::Array(_) => None,
        Value::Object(_) => fields::tabular(std::slice::from_ref(first)).map(|_| Form::Rows),
        _ => Some(Form::Inline),
    }
}

/// Whether `item` keeps `form` (for [`Form::Rows`], the first item's `fields`).
fn keeps(form: Form, fields: Option<&[Field<'_>]>, item: &Value) -> bool {
    match (form, item) {
        (Form::Inline, item) => is_primitive(item),
        (Form::Arrays, Value::Array(inner)) => inner.iter().all(is_primitive),
        (Form::Rows, Value::Object(row)) => fields.is_some_and(|fields| conforms(fields, row)),
        _ => false,
    }
}

/// Whether `row` has exactly the columns of `fields`, each leaf a primitive and each group a non-empty object of
/// its children: what [`fields::tabular`] of the first row and `row` together requires.
fn conforms(fields: &[Field<'_>], row: &Map<String, Value>) -> bool {
    row.len() == fields.len()
        && fields.iter().all(|field| match (row.get(field.name), &field.children) {
            (Some(value), None) => is_primitive(value),
            (Some(Value::Object(group)), Some(children)) => !group.is_empty() && conforms(children, group),
            _ => false,
        })
}

/// The items' text in one form: written into `S` (which keeps what the truncated text shows), or failed.
#[derive(Debug)]
struct Written<S> {
    form: Form,
    out: S,
    failed: Option<TooDeep>,
}

/// A list's items written part by part, each part in every form still possible (see the module documentation).
#[derive(Debug)]
pub(crate) struct ListText<S> {
    /// The depth of the list's own line (its items are one deeper).
    depth: usize,
    /// The first item, whose shape the [`Form::Rows`] form keeps.
    first: Option<Value>,
    /// The form the first item allows besides [`Form::Items`], while every item kept it.
    specific: Option<Written<S>>,
    /// The items as list items, the form every list allows.
    items: Written<S>,
    /// Items written.
    count: usize,
    /// A sink for a new form's text.
    empty: S,
}

impl<S: Sink + Clone> ListText<S> {
    /// A list whose key line is at `depth`, its text written into copies of `empty`.
    pub(crate) fn new(depth: usize, empty: S) -> Self {
        ListText {
            depth,
            first: None,
            specific: None,
            items: Written {
                form: Form::Items,
                out: empty.clone(),
                failed: None,
            },
            count: 0,
            empty,
        }
    }

    /// Writes the next items, in each form still possible.
    pub(crate) fn push(&mut self, part: &[Value]) {
        let Some(head) = part.first() else { return };
        if self.first.is_none() {
            self.first = Some(head.clone());
            self.specific = specific(head).map(|form| Written {
                form,
                out: self.empty.clone(),
                failed: None,
            });
        }
        let first = self.first.as_slice();
        let fields = fields::tabular(first);
        if let Some(written) = &self.specific
            && !part.iter().all(|item| keeps(written.form, fields.as_deref(), item))
        {
            self.specific = None;
        }
        if let Some(written) = &mut self.specific {
            write(written, part, self.count, fields.as_deref(), self.depth);
        }
        write(&mut self.items, part, self.count, None, self.depth);
        self.count += part.len();
    }

    /// The form the whole list takes, its header (`[N]{fields}:`, without the key) and its items' text; the
    /// encoder's error when an item nests too deep for TOON. `None` for an empty list (written `key: []`, not in
    /// parts).
    pub(crate) fn finish(self) -> Option<Result<(String, S), TooDeep>> {
        if self.count == 0 {
            return None;
        }
        let written = self.specific.unwrap_or(self.items);
        if let Some(failed) = written.failed {
            return Some(Err(failed));
        }
        let mut header = String::new();
        let first = self.first.as_slice();
        let fields = (written.form == Form::Rows).then(|| fields::tabular(first)).flatten();
        Toon {
            out: &mut header,
            started: true,
        }
        .header(self.count, None, fields.as_deref(), false);
        Some(Ok((header, written.out)))
    }
}

/// Writes `part` (items `from..` of the list) in `written`'s form.
fn write<S: Sink>(written: &mut Written<S>, part: &[Value], from: usize, fields: Option<&[Field<'_>]>, depth: usize) {
    if written.failed.is_some() {
        return;
    }
    let mut toon = Toon {
        out: &mut written.out,
        started: true,
    };
    let done = match written.form {
        Form::Inline => {
            for (at, item) in part.iter().enumerate() {
                toon.out.push_str(if from + at == 0 { " " } else { "," });
                super::scalar::primitive(toon.out, item);
            }
            Ok(())
        }
        Form::Arrays => {
            for item in part {
                toon.item(depth + 1);
                toon.inline_array(None, item.as_array().map_or(&[], Vec::as_slice));
            }
            Ok(())
        }
        Form::Rows => {
            toon.rows(part, fields.unwrap_or_default(), depth + 1);
            Ok(())
        }
        Form::Items => part.iter().try_for_each(|item| toon.list_item(item, depth + 1)),
    };
    written.failed = done.err();
}
