//! A table with a group of its keys declared in a struct of their own,
//! flattened into it (`net::core_link::QueueKnobs` in `[core]` and in a
//! graph link's half), read so that every error names its whole path.
//!
//! serde's derived `#[serde(flatten)]` buffers every key the table does not
//! name itself and reads the group from that buffer, out of sight of
//! `serde_path_to_error`: an error inside the group (`core.codel.target`)
//! or an unknown key (`core.bogus`) was named by the table alone (`core`),
//! the unknown key's message without the keys the table takes. Here the
//! table's own derived `Deserialize` (made its inherent `deserialize` by
//! `#[serde(remote = "Self")]`, the group field `skip_deserializing`)
//! reads its own keys straight from the input, and each of the group's
//! keys is handed to the group as it comes, so every key is on the path.
//! The schema and the written form are serde's and schemars' flatten
//! (`#[schemars(!skip_deserializing)]` keeps the group in the schema);
//! [`flattened!`] writes the table's `Serialize` and `Deserialize`.

use std::fmt;

use schemars::{JsonSchema, SchemaGenerator};
use serde::de::value::Error as ProbeError;
use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};
use serde::{forward_to_deserialize_any, Deserialize};

/// The `Serialize` and `Deserialize` of table `$table` (its derived ones
/// made inherent by `#[serde(remote = "Self")]`), its group field
/// `$group` (`#[serde(flatten, skip_deserializing)]`) read by [`deserialize`].
macro_rules! flattened {
    ($table:ident, $group:ident) => {
        impl ::serde::Serialize for $table {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $table::serialize(self, s)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $table {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let (table, $group) = $crate::spec::flat::deserialize(d, |own| $table::deserialize(own))?;
                Ok($table { $group, ..table })
            }
        }
    };
}
pub(crate) use flattened;

/// Keys declared apart and flattened into a table: its fields, whose wire
/// names its derived `Deserialize` gives ([`keys_of`]).
pub trait Group: Default + for<'de> Deserialize<'de> {
    /// Read the value of `key`, one of the group's keys, from `map`.
    fn read<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error>;
}

/// Read a table `T` (one that refuses unknown keys) with its group `G`:
/// `derived` is `T`'s derived `Deserialize`, which reads the table's own
/// keys (and leaves `G` at its default).
pub fn deserialize<'de, D, T, G>(
    d: D,
    derived: impl FnOnce(Flat<'_, D, T, G>) -> Result<T, D::Error>,
) -> Result<(T, G), D::Error>
where
    D: Deserializer<'de>,
    T: JsonSchema,
    G: Group,
{
    let mut group = G::default();
    let table = derived(Flat { d, group: &mut group, table: std::marker::PhantomData })?;
    Ok((table, group))
}

/// The input as `T`'s derived `Deserialize` sees it: without the group's keys.
pub struct Flat<'a, D, T, G> {
    d: D,
    group: &'a mut G,
    table: std::marker::PhantomData<T>,
}

impl<'de, D: Deserializer<'de>, T: JsonSchema, G: Group> Deserializer<'de> for Flat<'_, D, T, G> {
    type Error = D::Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let table =
            Table::<V, T, G> { visitor, own: fields, group: self.group, table: std::marker::PhantomData };
        self.d.deserialize_struct(name, fields, table)
    }

    // A derived struct asks for `deserialize_struct`, with its keys; asked
    // anything else, the table has no keys of its own.
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.deserialize_struct("", &[], visitor)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

/// `T`'s derived visitor, handed the table without the group's keys.
struct Table<'a, V, T, G> {
    visitor: V,
    /// `T`'s own keys.
    own: &'static [&'static str],
    group: &'a mut G,
    table: std::marker::PhantomData<T>,
}

impl<'de, V: Visitor<'de>, T: JsonSchema, G: Group> Visitor<'de> for Table<'_, V, T, G> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let keys = Keys::<A, T, G> {
            map,
            own: self.own,
            group: self.group,
            keys: keys_of::<G>(),
            seen: Vec::new(),
            table: std::marker::PhantomData,
        };
        self.visitor.visit_map(keys)
    }

    // A list is refused (`visit_seq`'s default): the table is keyed only,
    // where `T`'s derived visitor would read a list by position.
}

/// The table's entries: the group's read into it, the others passed on.
struct Keys<'a, A, T, G> {
    map: A,
    own: &'static [&'static str],
    group: &'a mut G,
    /// The group's keys.
    keys: &'static [&'static str],
    /// The group's keys read so far (each may be given once).
    seen: Vec<&'static str>,
    table: std::marker::PhantomData<T>,
}

impl<'de, A: MapAccess<'de>, T: JsonSchema, G: Group> MapAccess<'de> for Keys<'_, A, T, G> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, mut seed: K) -> Result<Option<K::Value>, A::Error> {
        loop {
            let key = Key::<K, T> { seed, own: self.own, group: self.keys, table: std::marker::PhantomData };
            match self.map.next_key_seed(key)? {
                None => return Ok(None),
                Some(Entry::Own(key)) => return Ok(Some(key)),
                Some(Entry::Group(name, unused)) => {
                    if self.seen.contains(&name) {
                        return Err(de::Error::duplicate_field(name));
                    }
                    self.seen.push(name);
                    self.group.read(name, &mut self.map)?;
                    seed = unused;
                }
            }
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

/// A key of the table, read from the input (so an error in it is on the
/// path): the group's, one of `T`'s own, or an error naming every key.
struct Key<'a, K, T> {
    seed: K,
    own: &'a [&'static str],
    group: &'static [&'static str],
    table: std::marker::PhantomData<T>,
}

enum Entry<O, K> {
    Own(O),
    /// A key of the group, and the seed its key did not take.
    Group(&'static str, K),
}

impl<'de, K: DeserializeSeed<'de>, T: JsonSchema> DeserializeSeed<'de> for Key<'_, K, T> {
    type Value = Entry<K::Value, K>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let key = String::deserialize(d)?;
        if let Some(&name) = self.group.iter().find(|&&g| g == key) {
            return Ok(Entry::Group(name, self.seed));
        }
        if !self.own.contains(&key.as_str()) {
            return Err(unknown::<T, D::Error>(&key));
        }
        self.seed.deserialize(key.into_deserializer()).map(Entry::Own)
    }
}

/// serde's message for an unknown key, listing every key of `T` (its
/// own and its group's) in its schema's order.
fn unknown<T: JsonSchema, E: de::Error>(key: &str) -> E {
    let schema = SchemaGenerator::default().into_root_schema_for::<T>().to_value();
    let keys: Vec<String> = schema["properties"]
        .as_object()
        .map(|p| p.keys().map(|k| format!("`{k}`")).collect())
        .unwrap_or_default();
    let expected = match keys.as_slice() {
        [] => return E::custom(format_args!("unknown field `{key}`, there are no fields")),
        [one] => one.clone(),
        [a, b] => format!("{a} or {b}"),
        more => format!("one of {}", more.join(", ")),
    };
    E::custom(format_args!("unknown field `{key}`, expected {expected}"))
}

/// The keys `G`'s derived `Deserialize` reads, in order: the fields it
/// names to `deserialize_struct`.
fn keys_of<G: for<'de> Deserialize<'de>>() -> &'static [&'static str] {
    struct Probe<'a>(&'a mut &'static [&'static str]);

    impl<'de> Deserializer<'de> for Probe<'_> {
        type Error = ProbeError;

        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, ProbeError> {
            *self.0 = fields;
            Err(de::Error::custom("probed"))
        }

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, ProbeError> {
            Err(de::Error::custom("not a struct"))
        }

        forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map enum identifier ignored_any
        }
    }

    let mut fields: &'static [&'static str] = &[];
    let _ = G::deserialize(Probe(&mut fields));
    fields
}
