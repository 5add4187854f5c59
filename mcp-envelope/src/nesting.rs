//! Values nested arbitrarily deep: measuring and freeing them without recursion, so that neither
//! overflows a stack whatever the depth.

use serde_json::Value;

/// A result nests deeper than its carrier allows (e.g. `mcp-results`' 100,000 levels, what the runtime's stacks
/// hold): the error text says to select a shallower part with `jq`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the response nests {depth} levels deep, more than the {limit} a result can carry: select a shallower part with \
     jq (e.g. \"flatten\" or a path)"
)]
pub struct TooDeepToCarry {
    /// The depth measured ([`depth`]).
    pub depth: usize,
    /// The most levels allowed.
    pub limit: usize,
}

/// Drops `value` without recursion (an explicit work list instead of one stack frame per level), so a value nested
/// millions of levels deep is freed without overflowing the stack.
pub fn drop_flat(value: Value) {
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            Value::Array(items) => pending.extend(items),
            Value::Object(map) => pending.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// The nesting depth of `value` (a scalar is 0; `[]`, `{}` and `[1]` are 1; `[[1]]` is 2), measured without
/// recursion.
pub fn depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut pending = vec![(value, 1usize)];
    while let Some((value, level)) = pending.pop() {
        match value {
            Value::Array(items) => {
                deepest = deepest.max(level);
                pending.extend(items.iter().map(|v| (v, level + 1)));
            }
            Value::Object(map) => {
                deepest = deepest.max(level);
                pending.extend(map.values().map(|v| (v, level + 1)));
            }
            _ => {}
        }
    }
    deepest
}

/// Whether `value` is over `limit` bytes, counting its strings, keys and numbers about as its compact JSON does (a
/// number as 5 bytes, a string as its bytes and quotes): a walk without recursion that stops as soon as the count
/// passes `limit`, so it costs at most about `limit` bytes of work however large the value.
pub fn larger_than(value: &Value, limit: usize) -> bool {
    let mut bytes = 0usize;
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        bytes += match value {
            Value::Null | Value::Bool(_) | Value::Number(_) => 5,
            Value::String(text) => text.len() + 2,
            Value::Array(items) => {
                pending.extend(items);
                items.len() + 2
            }
            Value::Object(members) => {
                for (key, member) in members {
                    bytes += key.len() + 4;
                    pending.push(member);
                }
                2
            }
        };
        if bytes > limit {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn depth_and_drop_without_recursion() {
        assert_eq!(depth(&json!(1)), 0);
        assert_eq!(depth(&json!([])), 1);
        assert_eq!(depth(&json!({"a": [1, {"b": {}}], "c": 2})), 4);
        // Built without recursion; freed on a 2 MiB stack.
        let handle = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(|| {
                let mut deep = json!(1);
                for _ in 0..300_000 {
                    deep = Value::Array(vec![deep]);
                }
                let measured = depth(&deep);
                drop_flat(deep);
                measured
            })
            .unwrap();
        assert_eq!(handle.join().unwrap(), 300_000);
    }
}
