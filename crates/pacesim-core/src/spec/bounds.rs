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
//! refused as null. A spec built in Rust is held to them through [`wire`],
//! which first refuses a float that is not finite (NaN, an infinity),
//! naming its path: its wire form would write it as null, for an optional
//! key the same as absent, past every bound. A component's `validate`
//! checks only what these bounds cannot say (rules across keys).

use std::fmt;

use serde::ser::{self, Serialize, Serializer};
use serde_json::{Number, Value};

use super::human::in_unit;
use super::{bad, InvalidField, MAX_TIME};

/// The wire form (JSON) of `spec`, a spec built in Rust, to hold to the
/// schema's bounds ([`check`]); a float in it that is not finite is refused
/// naming its path (`pacing.utilization: NaN is not a finite number`),
/// where its wire form would hold null.
pub fn wire<T: Serialize>(spec: &T) -> Result<Value, InvalidField> {
    spec.serialize(Finite { path: "" }).map_err(|e| {
        let InvalidField { field, message } = e.at("");
        bad(if field.is_empty() { "scenario" } else { &field }, message)
    })?;
    serde_json::to_value(spec).map_err(|e| bad("scenario", e.to_string()))
}

/// A serializer that writes nothing and refuses a float that is not
/// finite, naming its path under `path` ([`wire`]).
struct Finite<'a> {
    path: &'a str,
}

/// Why [`Finite`] refused a value: the float's path (None until a table
/// or list holding it names it) and what is wrong.
#[derive(Debug)]
struct NotFinite {
    field: Option<String>,
    message: String,
}

impl NotFinite {
    /// This error named at `path`, unless named below it. A table written
    /// through its own wire form ([`super::variants::write`]) names the key
    /// inside it in its message: `utilization: ...` under `pacing`.
    fn at(self, path: &str) -> InvalidField {
        if let Some(field) = self.field {
            return InvalidField { field, message: self.message };
        }
        match self.message.split_once(": ") {
            Some((inner, m)) if !inner.contains(' ') => bad(&join(path, inner), m),
            _ => bad(path, self.message),
        }
    }
}

impl fmt::Display for NotFinite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for NotFinite {}

impl ser::Error for NotFinite {
    fn custom<T: fmt::Display>(message: T) -> Self {
        NotFinite { field: None, message: message.to_string() }
    }
}

/// `inner` under `path` (`pacing` and `fraction`: `pacing.fraction`; an index `[0]` is not dotted).
fn join(path: &str, inner: &str) -> String {
    match (path.is_empty(), inner.starts_with('[')) {
        (true, _) => inner.to_string(),
        (false, true) => format!("{path}{inner}"),
        (false, false) => format!("{path}.{inner}"),
    }
}

type Probed = Result<(), NotFinite>;

/// What [`Finite`] holds while it walks a table or a list: its path, the
/// next element's index, a map's key.
struct Walk {
    path: String,
    index: usize,
    key: String,
}

impl Walk {
    fn probe<T: ?Sized + Serialize>(&self, inner: &str, value: &T) -> Probed {
        let path = join(&self.path, inner);
        value.serialize(Finite { path: &path }).map_err(|e| {
            let named = e.at(&path);
            NotFinite { field: Some(named.field), message: named.message }
        })
    }
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Probed {
        self.index += 1;
        self.probe(&format!("[{}]", self.index - 1), value)
    }
}

/// [`Walk`] as serde's compounds: of elements (by index) and of fields (by key).
macro_rules! walks {
    ($($trait:ident::$method:ident($($key:ident: $arg:ty)?) => $walk:ident),*) => {
        $(impl ser::$trait for Walk {
            type Ok = ();
            type Error = NotFinite;
            fn $method<T: ?Sized + Serialize>(&mut self, $($key: $arg,)? value: &T) -> Probed {
                self.$walk($($key,)? value)
            }
            fn end(self) -> Probed {
                Ok(())
            }
        })*
    };
}

walks!(
    SerializeSeq::serialize_element() => element,
    SerializeTuple::serialize_element() => element,
    SerializeTupleStruct::serialize_field() => element,
    SerializeTupleVariant::serialize_field() => element,
    SerializeStruct::serialize_field(key: &'static str) => probe,
    SerializeStructVariant::serialize_field(key: &'static str) => probe
);

impl ser::SerializeMap for Walk {
    type Ok = ();
    type Error = NotFinite;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Probed {
        // The scenario's maps are keyed by strings.
        self.key =
            serde_json::to_value(key).ok().and_then(|k| k.as_str().map(str::to_owned)).unwrap_or_default();
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Probed {
        self.probe(&self.key.clone(), value)
    }
    fn end(self) -> Probed {
        Ok(())
    }
}

/// [`Finite`]'s methods for values with nothing inside (every integer, a string, a unit).
macro_rules! nothing_inside {
    ($($method:ident($($arg:ty),*);)*) => {
        $(fn $method(self, $(_: $arg),*) -> Probed { Ok(()) })*
    };
}

/// [`Finite`]'s compounds: a [`Walk`] at its path, a variant's under its name.
macro_rules! compounds {
    ($($method:ident($($name:ident: $arg:ty),*) $(under $variant:ident)?;)*) => {
        $(fn $method(self, $($name: $arg),*) -> Result<Walk, NotFinite> {
            let path = self.path.to_string();
            $(let path = join(&path, $variant);)?
            Ok(Walk { path, index: 0, key: String::new() })
        })*
    };
}

impl Serializer for Finite<'_> {
    type Ok = ();
    type Error = NotFinite;
    type SerializeSeq = Walk;
    type SerializeTuple = Walk;
    type SerializeTupleStruct = Walk;
    type SerializeTupleVariant = Walk;
    type SerializeMap = Walk;
    type SerializeStruct = Walk;
    type SerializeStructVariant = Walk;

    nothing_inside! {
        serialize_bool(bool); serialize_i8(i8); serialize_i16(i16); serialize_i32(i32); serialize_i64(i64);
        serialize_u8(u8); serialize_u16(u16); serialize_u32(u32); serialize_u64(u64); serialize_char(char);
        serialize_str(&str); serialize_bytes(&[u8]); serialize_none(); serialize_unit();
        serialize_unit_struct(&'static str); serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_f32(self, v: f32) -> Probed {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Probed {
        if v.is_finite() {
            return Ok(());
        }
        Err(NotFinite { field: Some(self.path.to_string()), message: format!("{v} is not a finite number") })
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Probed {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, value: &T) -> Probed {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Probed {
        // Written as a table of one key, the variant's name (`{"range": [...]}`).
        Walk { path: self.path.to_string(), index: 0, key: String::new() }.probe(variant, value)
    }
    compounds! {
        serialize_seq(_len: Option<usize>);
        serialize_tuple(_len: usize);
        serialize_tuple_struct(_name: &'static str, _len: usize);
        serialize_tuple_variant(_name: &'static str, _i: u32, variant: &'static str, _len: usize) under variant;
        serialize_map(_len: Option<usize>);
        serialize_struct(_name: &'static str, _len: usize);
        serialize_struct_variant(_name: &'static str, _i: u32, variant: &'static str, _len: usize) under variant;
    }
}

/// `schema` with the engine's limits on every quantity of a unit (`x-unit`,
/// a value or a range's items), a bound of the key's own kept where it is
/// tighter: a time ("ns") at most the engine's clock, [`MAX_TIME`], and a
/// rate ("bit/s") at least 1 b/s (a link or a source of 0 b/s never
/// sends). The one place each is declared, so [`check`] refuses a time or
/// a rate past it naming its path, whichever key it is, and the front's
/// types, which take every rate as positive, are the schema's.
pub fn with_limits(mut schema: Value) -> Value {
    fn walk(node: &mut Value) {
        if let Some(unit) = node.get("x-unit").and_then(Value::as_str).map(str::to_owned) {
            let bounded = if node.get("items").is_some() { &mut node["items"] } else { &mut *node };
            let own = |key: &str, default: u64| bounded.get(key).and_then(Value::as_u64).unwrap_or(default);
            match unit.as_str() {
                "ns" => bounded["maximum"] = own("maximum", u64::MAX).min(MAX_TIME).into(),
                "bit/s" => bounded["minimum"] = own("minimum", 0).max(1).into(),
                _ => {}
            }
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
/// with the engine's limits (for its tests: a spec built in Rust, named
/// from its table).
#[cfg(test)]
pub fn past_bound<T: serde::Serialize + schemars::JsonSchema>(spec: &T) -> Option<String> {
    let schema = with_limits(schemars::schema_for!(T).to_value());
    wire(spec).and_then(|w| check(&w, &schema)).err().map(|e| e.field)
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
        let schema = with_limits(json!({
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

    /// Every rate, a value or a range's, is at least 1 b/s (a higher lower
    /// bound of its own kept); a range's item is named by its index.
    #[test]
    fn every_rate_is_positive() {
        let schema = with_limits(json!({
            "properties": {
                "rate": {"type": ["integer", "null"], "x-unit": "bit/s"},
                "peak": {"type": "integer", "minimum": 1000, "x-unit": "bit/s"},
                "access": {"type": "array", "items": {"type": "integer", "minimum": 0}, "x-unit": "bit/s"},
                "size": {"type": "integer", "x-unit": "bytes"},
            },
        }));
        let refused = |v: Value| check(&v, &schema).err().map(|e| e.to_string());
        assert_eq!(refused(json!({"rate": 1, "peak": 1000, "access": [1, 1], "size": 0})), None);
        assert_eq!(refused(json!({"rate": 0})).unwrap(), "rate: 0bps must be at least 1bps");
        assert_eq!(refused(json!({"peak": 999})).unwrap(), "peak: 999bps must be at least 1kbps");
        assert_eq!(refused(json!({"access": [0, 5]})).unwrap(), "access[0]: 0bps must be at least 1bps");
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
