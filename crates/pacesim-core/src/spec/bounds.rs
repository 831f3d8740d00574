//! The numeric bounds of the scenario schema, held on a scenario's wire form.
//!
//! Each spec declares its keys' bounds once, as schemars attributes
//! (`range(min = 1)`, `exclusiveMinimum`), in the schema the Python front
//! generates its types from (python/pacesim/scenario_tables.py). [`check`] holds a
//! wire form (JSON) to those same bounds, so the engine and the front refuse
//! the same values and cannot part: a key past its bound is refused naming
//! its path (`core.red.max_p`), whether or not the run would read it (RED's
//! knobs under a drop-tail queue, FAST's under Reno).
//!
//! It reads only the schema keywords the specs produce: `$ref` into
//! `$defs`, an optional's `anyOf` with `null`, a table's `properties`, a
//! list's `items`, a tagged table's `oneOf` (the branch whose keys and
//! consts the value matches), and `minimum`, `maximum`, `exclusiveMinimum`,
//! `exclusiveMaximum`. Types, required keys and choices are serde's to check
//! (a negative or fractional integer is left to it, to be named by its
//! type), but for a list given for a table, which serde's derived tables
//! would read by position: it is refused here, naming the table; a full
//! JSON Schema validator would name a tagged table's bad key
//! only as "valid under none of oneOf". A number that is not optional is
//! refused as null: NaN or an infinity in a spec built in Rust, which its
//! wire form writes as null. A component's `validate` checks only what
//! these bounds cannot say (rules across keys).

use serde_json::{Number, Value};

use super::human::in_unit;
use super::{bad, InvalidField, MAX_TIME};

/// `schema` with every time (`x-unit` "ns", a value or a range's items)
/// bounded by the engine's clock, [`MAX_TIME`] (a bound of its own kept if
/// lower): the one place the largest time is declared, so [`check`]
/// refuses a time past it naming its path, whichever key it is.
pub fn with_clock(mut schema: Value) -> Value {
    fn walk(node: &mut Value) {
        if node.get("x-unit").and_then(Value::as_str) == Some("ns") {
            let bounded = if node.get("items").is_some() { &mut node["items"] } else { &mut *node };
            let own = bounded.get("maximum").and_then(Value::as_u64).unwrap_or(u64::MAX);
            bounded["maximum"] = own.min(MAX_TIME).into();
        }
        match node {
            Value::Object(table) => table.values_mut().for_each(walk),
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut schema);
    schema
}

/// Every number in `value` within the bounds `schema` (a root schema, with
/// its `$defs`) gives it; the error names the first one past them.
pub fn check(value: &Value, schema: &Value) -> Result<(), InvalidField> {
    walk(value, schema, &schema["$defs"], "")
}

fn walk(value: &Value, node: &Value, defs: &Value, path: &str) -> Result<(), InvalidField> {
    if value.is_null() && !nullable(node, defs) && resolve(node, defs)["type"] == "number" {
        return Err(bad(if path.is_empty() { "scenario" } else { path }, "null is not a finite number"));
    }
    let node = resolve(node, defs);
    if let Some(branches) = node.get("oneOf").and_then(Value::as_array) {
        // A value no branch matches was refused by serde before this.
        return match branches.iter().map(|b| resolve(b, defs)).find(|b| matches(value, b)) {
            Some(branch) => walk(value, branch, defs, path),
            None => Ok(()),
        };
    }
    match value {
        Value::Object(table) => {
            let Some(keys) = node.get("properties") else { return Ok(()) };
            for (key, inner) in table {
                if let Some(n) = keys.get(key) {
                    let at = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
                    walk(inner, n, defs, &at)?;
                }
            }
            Ok(())
        }
        // serde's derived tables read a list by position (`"core": [rate,
        // delay, ...]`); the scenario's tables are keyed only.
        Value::Array(_) if node.get("properties").is_some() => Err(bad(
            if path.is_empty() { "scenario" } else { path },
            "invalid type: sequence, expected a map",
        )),
        Value::Array(items) => match node.get("items") {
            // A range's items ([low, high]) are in the range's unit.
            Some(n) if node.get("x-unit").is_some() => {
                items.iter().enumerate().try_for_each(|(i, v)| match v {
                    Value::Number(x) => within(x, n, node, &format!("{path}[{i}]")),
                    _ => Ok(()),
                })
            }
            Some(n) => {
                items.iter().enumerate().try_for_each(|(i, v)| walk(v, n, defs, &format!("{path}[{i}]")))
            }
            None => Ok(()),
        },
        // A negative or fractional integer is serde's to name, by its type.
        Value::Number(n) if n.is_u64() || !integer(node) => within(n, node, node, path),
        _ => Ok(()),
    }
}

/// `node` with its `$ref` followed and an optional's `null` alternative dropped.
fn resolve<'a>(mut node: &'a Value, defs: &'a Value) -> &'a Value {
    loop {
        if let Some(name) = node.get("$ref").and_then(Value::as_str) {
            node = &defs[name.rsplit('/').next().unwrap_or(name)];
        } else if let Some(any) = node.get("anyOf").and_then(Value::as_array) {
            match any.iter().find(|n| n.get("type").and_then(Value::as_str) != Some("null")) {
                Some(n) => node = n,
                None => return node,
            }
        } else {
            return node;
        }
    }
}

/// Whether `node` takes null: an optional's (`anyOf` with `null`, or a
/// type list holding it).
fn nullable<'a>(mut node: &'a Value, defs: &'a Value) -> bool {
    loop {
        if let Some(name) = node.get("$ref").and_then(Value::as_str) {
            node = &defs[name.rsplit('/').next().unwrap_or(name)];
        } else if let Some(any) = node.get("anyOf").and_then(Value::as_array) {
            return any.iter().any(|n| nullable(n, defs));
        } else {
            return match &node["type"] {
                Value::String(t) => t == "null",
                Value::Array(ts) => ts.iter().any(|t| t == "null"),
                _ => false,
            };
        }
    }
}

/// Whether the table `value` is of the tagged branch `branch`: every key
/// one of its keys, every const key (the tag) as the branch has it.
fn matches(value: &Value, branch: &Value) -> bool {
    let (Some(table), Some(keys)) = (value.as_object(), branch.get("properties").and_then(Value::as_object))
    else {
        return false;
    };
    table.keys().all(|k| keys.contains_key(k))
        && keys.iter().all(|(k, n)| n.get("const").is_none_or(|c| table.get(k).is_none_or(|v| v == c)))
}

/// Whether the key is an integer (every integer of the scenario is unsigned).
fn integer(node: &Value) -> bool {
    match &node["type"] {
        Value::String(t) => t == "integer",
        Value::Array(ts) => ts.iter().any(|t| t == "integer"),
        _ => false,
    }
}

/// The number `n` within `node`'s bounds, in the unit (`x-unit`) of `unit_of`
/// (`node` itself, or the range holding it).
fn within(n: &Number, node: &Value, unit_of: &Value, path: &str) -> Result<(), InvalidField> {
    let unit = unit_of.get("x-unit").and_then(Value::as_str);
    // As the scenario writes it ("10KB"; `spec::human`); a number that is
    // not a whole one has no unit.
    let spell = |x: &Number| x.as_u64().map_or_else(|| x.to_string(), |v| in_unit(v, unit));
    let rules: [(&str, fn(&Number, &Number) -> bool, &str); 4] = [
        ("minimum", |v, b| !below(v, b), "at least"),
        ("maximum", |v, b| !below(b, v), "at most"),
        ("exclusiveMinimum", |v, b| below(b, v), "greater than"),
        ("exclusiveMaximum", |v, b| below(v, b), "less than"),
    ];
    for (keyword, holds, says) in rules {
        if let Some(Value::Number(b)) = node.get(keyword) {
            if !holds(n, b) {
                return Err(bad(path, format!("{} must be {says} {}", spell(n), spell(b))));
            }
        }
    }
    Ok(())
}

/// The first key of a component's `spec` past the bounds of its own schema
/// (for its tests: a spec built in Rust, named from its table).
#[cfg(test)]
pub fn past_bound<T: serde::Serialize + schemars::JsonSchema>(spec: &T) -> Option<String> {
    let schema = schemars::schema_for!(T).to_value();
    check(&serde_json::to_value(spec).ok()?, &schema).err().map(|e| e.field)
}

/// `a < b`, exactly for integers (a u64 past 2^53 is not a float's).
fn below(a: &Number, b: &Number) -> bool {
    match (a.as_u64(), b.as_u64()) {
        (Some(x), Some(y)) => x < y,
        _ => a.as_f64().unwrap_or(f64::NAN) < b.as_f64().unwrap_or(f64::NAN),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "properties": {
                "buffer": {"type": "integer", "format": "uint64", "minimum": 1, "maximum": 4_294_967_295u64, "x-unit": "bytes"},
                "red": {"anyOf": [{"$ref": "#/$defs/Red"}, {"type": "null"}]},
                "links": {"type": "array", "items": {"$ref": "#/$defs/Link"}},
                "topology": {"oneOf": [
                    {"properties": {"kind": {"const": "a"}, "n": {"minimum": 1}}},
                    {"properties": {"kind": {"const": "b"}, "n": {"minimum": 5}}},
                ]},
            },
            "$defs": {
                "Red": {"properties": {"max_p": {"exclusiveMinimum": 0.0, "maximum": 1.0}}},
                "Link": {"properties": {"delay": {"minimum": 1, "x-unit": "ns"}}},
            },
        })
    }

    fn refused(value: Value) -> Option<String> {
        check(&value, &schema()).err().map(|e| e.to_string())
    }

    /// Each bound, at and just past it, with the key's path and unit.
    #[test]
    fn a_number_past_its_bound_is_refused_naming_its_path() {
        assert_eq!(refused(json!({"buffer": 1, "red": {"max_p": 1.0}})), None);
        assert_eq!(refused(json!({"buffer": 0})).unwrap(), "buffer: 0B must be at least 1B");
        assert_eq!(
            refused(json!({"buffer": 4_294_967_296u64})).unwrap(),
            "buffer: 4294967296B must be at most 4294967295B"
        );
        assert_eq!(
            refused(json!({"red": {"max_p": 0.0}})).unwrap(),
            "red.max_p: 0.0 must be greater than 0.0"
        );
        assert!(refused(json!({"red": {"max_p": 1.0000000000000002}})).unwrap().starts_with("red.max_p: "));
        assert_eq!(refused(json!({"red": null})), None);
        // Not an unsigned integer: serde names the type.
        assert_eq!(refused(json!({"buffer": -1})), None);
        assert_eq!(
            refused(json!({"links": [{"delay": 3}, {"delay": 0}]})).unwrap(),
            "links[1].delay: 0s must be at least 1ns"
        );
    }

    /// A number that is not optional is refused as null (NaN or an infinity
    /// written by a spec built in Rust), naming it; an optional one's null,
    /// and null for a key of another type, are not this check's.
    #[test]
    fn null_for_a_number_is_refused_unless_optional() {
        let schema = json!({
            "properties": {
                "gain": {"type": "number", "minimum": 1.0},
                "red": {"anyOf": [{"$ref": "#/$defs/Red"}, {"type": "null"}]},
                "hurst": {"type": ["number", "null"]},
                "share": {"anyOf": [{"type": "number"}, {"type": "null"}]},
                "name": {"type": "string"},
            },
            "$defs": {"Red": {"properties": {"max_p": {"type": "number"}}}},
        });
        let refused = |v: Value| check(&v, &schema).err().map(|e| e.to_string());
        assert_eq!(refused(json!({"gain": null})).unwrap(), "gain: null is not a finite number");
        assert_eq!(
            refused(json!({"red": {"max_p": null}})).unwrap(),
            "red.max_p: null is not a finite number"
        );
        assert_eq!(
            refused(json!({"gain": 1.0, "red": null, "hurst": null, "share": null, "name": null})),
            None
        );
    }

    /// A tagged table is held to its own branch's bounds: n = 3 is a fine
    /// `a`, not a `b`.
    #[test]
    fn a_tagged_table_takes_its_branchs_bounds() {
        assert_eq!(refused(json!({"topology": {"kind": "a", "n": 3}})), None);
        assert_eq!(
            refused(json!({"topology": {"kind": "b", "n": 3}})).unwrap(),
            "topology.n: 3 must be at least 5"
        );
        assert_eq!(
            refused(json!({"topology": {"kind": "a", "n": 0}})).unwrap(),
            "topology.n: 0 must be at least 1"
        );
    }

    /// Every time, a value or a range's, is bounded by the clock (a lower
    /// bound of its own kept); a range's item is named in its unit.
    #[test]
    fn every_time_is_bounded_by_the_clock() {
        let schema = with_clock(json!({
            "properties": {
                "rto": {"type": "integer", "x-unit": "ns"},
                "target": {"type": "integer", "maximum": 3_600_000_000_000u64, "x-unit": "ns"},
                "delay": {"type": "array", "items": {"type": "integer", "minimum": 0}, "x-unit": "ns"},
                "size": {"type": "integer", "x-unit": "bytes"},
            },
        }));
        let refused = |v: Value| check(&v, &schema).err().map(|e| e.to_string());
        let past = MAX_TIME + 1;
        assert_eq!(refused(json!({"rto": MAX_TIME, "delay": [0, MAX_TIME], "size": past})), None);
        assert_eq!(refused(json!({"rto": past})).unwrap(), format!("rto: {past}ns must be at most 1000000s"));
        assert_eq!(
            refused(json!({"delay": [1, past]})).unwrap(),
            format!("delay[1]: {past}ns must be at most 1000000s")
        );
        assert!(refused(json!({"target": 3_600_000_000_001u64})).unwrap().starts_with("target: "));
    }

    /// A list where a table is expected is refused naming the table (serde's
    /// derived tables would read it by position), a list of tables' item too;
    /// a list where a list is expected is not.
    #[test]
    fn a_list_for_a_table_is_refused_naming_it() {
        let message = |v: Value| check(&v, &schema()).err().map(|e| e.to_string());
        assert_eq!(message(json!({"red": [0.5]})).unwrap(), "red: invalid type: sequence, expected a map");
        assert_eq!(
            message(json!({"links": [{"delay": 3}, [3]]})).unwrap(),
            "links[1]: invalid type: sequence, expected a map"
        );
        assert_eq!(message(json!([1, 2])).unwrap(), "scenario: invalid type: sequence, expected a map");
        assert_eq!(message(json!({"links": []})), None);
    }

    /// Integers compare exactly past 2^53, where floats would call them equal.
    #[test]
    fn large_integers_compare_exactly() {
        let max = json!({"properties": {"x": {"maximum": 9_007_199_254_740_992u64}}});
        assert!(check(&json!({"x": 9_007_199_254_740_992u64}), &max).is_ok());
        assert!(check(&json!({"x": 9_007_199_254_740_993u64}), &max).is_err());
    }
}
