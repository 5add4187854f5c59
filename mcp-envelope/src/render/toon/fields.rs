//! Which arrays and objects take TOON's tabular forms (spec §9.3, §9.5): the field list of uniformly shaped
//! objects, nested field groups included, as `toon-format` 0.7 decides it.

use serde_json::{Map, Value};

use super::MAX_DEPTH;

/// One column of a tabular header: a leaf (`children: None`) or a nested field group.
pub(super) struct Field<'v> {
    pub(super) name: &'v str,
    pub(super) children: Option<Vec<Field<'v>>>,
}

/// The field list of an array whose elements are all objects with one key set, every column uniformly primitive
/// or itself such a group; `None` otherwise (§9.3).
pub(super) fn tabular(rows: &[Value]) -> Option<Vec<Field<'_>>> {
    let objects: Option<Vec<&Map<String, Value>>> = rows.iter().map(Value::as_object).collect();
    of_objects(&objects?, 0)
}

/// The field list of an object that takes the keyed tabular form: at least two entries, every value a non-empty
/// object, uniform columns; `None` otherwise (§9.5). `values` are the object's values in order.
pub(super) fn keyed<'v>(values: impl ExactSizeIterator<Item = &'v Value>) -> Option<Vec<Field<'v>>> {
    if values.len() < 2 {
        return None;
    }
    let objects: Option<Vec<&Map<String, Value>>> = values
        .map(|value| value.as_object().filter(|map| !map.is_empty()))
        .collect();
    of_objects(&objects?, 0)
}

fn of_objects<'v>(objects: &[&'v Map<String, Value>], depth: usize) -> Option<Vec<Field<'v>>> {
    let first = objects.first()?;
    if first.is_empty() {
        return None;
    }
    // The same key set in every object (the order may differ).
    let same_keys = objects
        .iter()
        .all(|object| object.len() == first.len() && first.keys().all(|key| object.contains_key(key)));
    if !same_keys {
        return None;
    }
    first
        .keys()
        .map(|key| {
            let column: Option<Vec<&Value>> = objects.iter().map(|object| object.get(key)).collect();
            column_of(key, &column?, depth)
        })
        .collect()
}

fn column_of<'v>(name: &'v str, values: &[&'v Value], depth: usize) -> Option<Field<'v>> {
    if values.iter().all(|value| is_primitive(value)) {
        return Some(Field { name, children: None });
    }
    // Nested field groups stop at MAX_DEPTH; deeper columns fall back to the list form.
    if depth >= MAX_DEPTH {
        return None;
    }
    let objects: Option<Vec<&Map<String, Value>>> = values
        .iter()
        .map(|value| value.as_object().filter(|map| !map.is_empty()))
        .collect();
    let children = of_objects(&objects?, depth + 1)?;
    Some(Field {
        name,
        children: Some(children),
    })
}

/// Neither an array nor an object.
pub(super) fn is_primitive(value: &Value) -> bool {
    !matches!(value, Value::Array(_) | Value::Object(_))
}
