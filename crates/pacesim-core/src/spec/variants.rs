//! A table whose tag chooses one of several variants (`tcp.variant`,
//! `pacing.scheme`), each variant's knobs declared once, in its own spec
//! beside its algorithm, and written in the table beside its common keys
//! (`[tcp]`: `variant = "fast"`, `fast_alpha = 20.0`, `segment_size = ...`).
//!
//! The variants are an internally tagged enum (`#[serde(tag = "variant")]`):
//! adding one with knobs is its variant line, with its spec. The table is
//! read by [`read`]: the tag, every variant's knobs given (each variant's,
//! whatever the tag chooses, read and checked by its own rules, its type,
//! the bounds its spec's schema gives it and its `validate`, so a bad knob
//! is named and never silently dropped; a knob of a variant not chosen is
//! otherwise unused), then the common keys, unknown keys refused. Its
//! schema ([`schema`]) is one flat table: the tag with its choices, the
//! common keys, then every variant's knobs with their descriptions, units,
//! bounds and defaults as the variant's spec declares them, each marked with
//! its variant (`x-variant`).

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{DeserializeOwned, Deserializer, Error as _};
use serde::ser::{Error as _, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::InvalidField;

/// An internally tagged enum of variants, each with only its own knobs.
pub trait Variants: Serialize + DeserializeOwned + JsonSchema + Default {
    /// The tag's key (`variant`).
    const TAG: &'static str;
    /// Check a variant's knobs as given, for the rules across its keys that
    /// the schema's bounds cannot say; the error names the field.
    fn validate(&self) -> Result<(), InvalidField>;
}

/// A table with a variant among its keys (`Tcp` and its `TcpVariant`),
/// its common keys read by its own `Deserialize` (the variant field skipped).
pub trait Table: Serialize + DeserializeOwned + JsonSchema {
    type Variant: Variants;
    /// The table's path in the scenario (`tcp`).
    const AT: &'static str;
    fn variant(&self) -> &Self::Variant;
    /// The table with its variant.
    fn with(self, variant: Self::Variant) -> Self;
}

/// Read a [`Table`] whole (`#[serde(deserialize_with = ...)]` on the scenario's field).
pub fn deserialize<'de, D: Deserializer<'de>, T: Table>(d: D) -> Result<T, D::Error> {
    let (table, variant): (T, T::Variant) = read(d, T::AT)?;
    Ok(table.with(variant))
}

/// Write a [`Table`] whole (`#[serde(serialize_with = ...)]`).
pub fn serialize<S: Serializer, T: Table>(table: &T, s: S) -> Result<S::Ok, S::Error> {
    write(table, table.variant(), s)
}

/// The schema of a [`Table`] whole (`#[schemars(schema_with = ...)]`).
pub fn table_schema<T: Table>(generator: &mut SchemaGenerator) -> Schema {
    schema::<T, T::Variant>(generator, &T::schema_name())
}

/// Every variant's name and its knobs' keys, in the enum's order, from its schema.
pub fn knobs<V: Variants>() -> Vec<(String, Vec<String>)> {
    let (variants, _) = knob_schemas::<V>();
    variants.into_iter().map(|(name, keys)| (name, keys.keys().cloned().collect())).collect()
}

/// Every variant's name and its knobs with their schemas, in the enum's
/// order, and the definitions those schemas refer to.
fn knob_schemas<V: Variants>() -> (Vec<(String, Map<String, Value>)>, Value) {
    let schema = SchemaGenerator::default().into_root_schema_for::<V>().to_value();
    let branches = schema["oneOf"].as_array().cloned().unwrap_or_default();
    let variants = branches
        .iter()
        .map(|b| {
            let mut keys = properties(b, &schema["$defs"]);
            let tag = keys.shift_remove(V::TAG).unwrap_or_default();
            (tag["const"].as_str().unwrap_or_default().to_string(), keys)
        })
        .collect();
    (variants, schema["$defs"].clone())
}

/// The properties of a branch of the enum's schema: its own, those of the
/// spec it refers to (a newtype variant's) and of what it is all of.
fn properties(branch: &Value, defs: &Value) -> Map<String, Value> {
    let mut out = branch["properties"].as_object().cloned().unwrap_or_default();
    if let Some(name) = branch["$ref"].as_str() {
        out.extend(properties(&defs[name.rsplit('/').next().unwrap_or(name)], defs));
    }
    for part in branch["allOf"].as_array().into_iter().flatten() {
        out.extend(properties(part, defs));
    }
    out
}

/// Read table `at` (`tcp`) as its common keys `T` (a struct with
/// `deny_unknown_fields`) and its variant `V`; an error names the field.
pub fn read<'de, D: Deserializer<'de>, T: DeserializeOwned, V: Variants>(
    d: D,
    at: &str,
) -> Result<(T, V), D::Error> {
    let fail = |e: InvalidField| D::Error::custom(e);
    let mut table = Map::<String, Value>::deserialize(d)?;
    let chosen = match table.remove(V::TAG) {
        Some(tag) => tag,
        None => tag_of(&V::default()).map_err(fail)?,
    };
    let mut kept = None;
    let (variants, defs) = knob_schemas::<V>();
    for (name, keys) in variants {
        let given: Map<String, Value> = keys.keys().filter_map(|k| table.remove_entry(k)).collect();
        let tag = (V::TAG.to_string(), Value::String(name.clone()));
        let with_tag = |knobs: Map<String, Value>| {
            Value::Object(Map::from_iter([tag.clone()]).into_iter().chain(knobs).collect())
        };
        let variant: V = from_value(with_tag(given.clone()), at).map_err(|e| {
            // serde reads a tagged variant from a buffer, out of sight of the
            // path: the knob whose value alone fails is the one to name.
            let alone = |(k, v): &(String, Value)| with_tag(Map::from_iter([(k.clone(), v.clone())]));
            match given
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .find(|kv| from_value::<V>(alone(kv), at).is_err())
            {
                Some((key, _)) if e.field == at => fail(InvalidField { field: format!("{at}.{key}"), ..e }),
                _ => fail(e),
            }
        })?;
        // Each knob given within the bounds its spec declares (and the engine's limits).
        let bounds = super::bounds::with_limits(serde_json::json!({"properties": keys, "$defs": defs}));
        super::bounds::check(&Value::Object(given), &bounds)
            .map_err(|e| fail(InvalidField { field: format!("{at}.{}", e.field), ..e }))?;
        variant.validate().map_err(fail)?;
        if chosen == Value::String(name) {
            kept = Some(variant);
        }
    }
    let Some(variant) = kept else {
        // Not one of the variants: the enum's own error names the choices.
        let tag = Map::from_iter([(V::TAG.to_string(), chosen)]);
        let message =
            from_value::<V>(Value::Object(tag), at).err().map_or("not a variant".into(), |e| e.message);
        return Err(fail(InvalidField { field: format!("{at}.{}", V::TAG), message }));
    };
    Ok((from_value(Value::Object(table), at).map_err(fail)?, variant))
}

/// A value of a table under `at`, its errors naming their path inside it.
fn from_value<X: DeserializeOwned>(value: Value, at: &str) -> Result<X, InvalidField> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let inner = e.path().to_string();
        let field = if inner == "." { at.to_string() } else { format!("{at}.{inner}") };
        InvalidField { field, message: e.into_inner().to_string() }
    })
}

/// The tag's value of `variant`.
fn tag_of<V: Variants>(variant: &V) -> Result<Value, InvalidField> {
    let written = serde_json::to_value(variant).map_err(|e| super::bad(V::TAG, e.to_string()))?;
    Ok(written[V::TAG].clone())
}

/// Write the common keys `table` and the variant's tag and knobs as one table.
pub fn write<S: Serializer, T: Serialize, V: Variants>(
    table: &T,
    variant: &V,
    s: S,
) -> Result<S::Ok, S::Error> {
    // Each float finite (`bounds::wire`): JSON would write NaN as null.
    let Value::Object(mut out) = super::bounds::wire(variant).map_err(S::Error::custom)? else {
        return Err(S::Error::custom("a variant is written as a table"));
    };
    let Value::Object(common) = super::bounds::wire(table).map_err(S::Error::custom)? else {
        return Err(S::Error::custom("a table is written as a table"));
    };
    // The tag first, then the common keys, then the variant's knobs.
    let tag = out.shift_remove(V::TAG).unwrap_or(Value::Null);
    let mut table = Map::from_iter([(V::TAG.to_string(), tag)]);
    table.extend(common);
    table.extend(out);
    table.serialize(s)
}

/// The schema of the whole table, registered as definition `name`: the tag
/// (its choices, described by the enum's doc comment), `T`'s keys, then every
/// variant's knobs as its spec declares them, with their variant's name.
pub fn schema<T: JsonSchema, V: Variants>(generator: &mut SchemaGenerator, name: &str) -> Schema {
    let common = T::json_schema(generator).to_value();
    let variants = V::json_schema(generator).to_value();
    let defs = generator.definitions().clone();
    let mut keys = Map::new();
    let (names, knobs): (Vec<_>, Vec<_>) = knobs::<V>().into_iter().unzip();
    let default = tag_of(&V::default()).unwrap_or(Value::Null);
    let mut tag = serde_json::json!({"type": "string", "enum": names.clone(), "default": default});
    // The enum's title (its axis name) and doc comment are its tag's.
    for word in ["title", "description"] {
        if let Some(doc) = variants.get(word) {
            tag[word] = doc.clone();
        }
    }
    keys.insert(V::TAG.to_string(), tag);
    keys.extend(common["properties"].as_object().cloned().unwrap_or_default());
    // Each knob marked with its variant's name (`x-variant`), so that a
    // reader of the schema tells a variant's knobs from the common keys.
    for (branch, name) in variants["oneOf"].as_array().into_iter().flatten().zip(&names) {
        let own = properties(branch, &Value::Object(defs.clone()));
        for (key, mut knob) in
            own.into_iter().filter(|(k, _)| k != V::TAG && knobs.iter().flatten().any(|n| n == k))
        {
            knob["x-variant"] = Value::String(name.clone());
            keys.insert(key, knob);
        }
    }
    let mut table = common;
    table["properties"] = Value::Object(keys);
    let schema = Schema::try_from(table).unwrap_or_default();
    generator.definitions_mut().insert(name.to_string(), schema.to_value());
    Schema::try_from(serde_json::json!({"$ref": format!("#/$defs/{name}")})).unwrap_or_default()
}
