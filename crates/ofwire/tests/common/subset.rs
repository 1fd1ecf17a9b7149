//! "Every expected field is there with the same value" for JSON values.

use serde_json::Value;

/// Returns the path of the first difference, or None when `expected` is contained in
/// `actual` (objects: every expected key matches; arrays: same length, element-wise).
pub fn first_difference(expected: &Value, actual: &Value, path: &str) -> Option<String> {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => e.iter().find_map(|(k, ev)| match a.get(k) {
            Some(av) => first_difference(ev, av, &format!("{path}.{k}")),
            None => Some(format!("{path}.{k}: missing (expected {ev})")),
        }),
        (Value::Array(e), Value::Array(a)) if e.len() == a.len() => {
            e.iter().zip(a).enumerate().find_map(|(i, (ev, av))| first_difference(ev, av, &format!("{path}[{i}]")))
        }
        (Value::Number(e), Value::Number(a)) if e.as_u64().is_some() && e.as_u64() == a.as_u64() => None,
        (e, a) if e == a => None,
        (e, a) => Some(format!("{path}: expected {e}, got {a}")),
    }
}
