//! Internally tagged tables (`{"kind": "graph", "links": [...]}`) read so
//! that an error inside one names its whole path.
//!
//! serde's derived `#[serde(tag = "...")]` buffers the table before it knows
//! the variant and reads the variant from the buffer, out of sight of
//! `serde_path_to_error`: an error deep inside (`topology.links[3].rate`)
//! was named by the table alone (`topology`). Here the variant reads the
//! rest of the table straight from the input, so every key it reads is on
//! the path. Keys before the tag are buffered (serde's own serializer and
//! the Python front write the tag first); an error in one of those names
//! its path inside the table at the start of its message.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

/// An enum read from a table whose key `TAG` names the variant.
pub trait Tagged: Sized {
    /// The key naming the variant (`kind`).
    const TAG: &'static str;
    /// Every variant's name, as the tag gives it.
    const VARIANTS: &'static [&'static str];
    /// Variant `name` (one of `VARIANTS`) from the table's other keys.
    fn variant<'de, D: Deserializer<'de>>(name: &str, rest: D) -> Result<Self, D::Error>;
}

/// Read a `T` from `d`: the tag, then the variant from the other keys.
pub fn deserialize<'de, T: Tagged, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    d.deserialize_map(Table(PhantomData))
}

struct Table<T>(PhantomData<T>);

impl<'de, T: Tagged> Visitor<'de> for Table<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a table with `{}` (one of {})", T::TAG, T::VARIANTS.join(", "))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut before = Vec::new();
        let name = loop {
            match map.next_key::<String>()? {
                Some(key) if key == T::TAG => break map.next_value_seed(Name(T::VARIANTS))?,
                Some(key) => before.push((key, map.next_value::<Value>()?)),
                None => return Err(de::Error::missing_field(T::TAG)),
            }
        };
        let rest = Rest { before: before.into_iter(), value: None, map };
        T::variant(&name, MapAccessDeserializer::new(rest))
    }
}

/// The tag's value: one of the variants' names.
struct Name(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for Name {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        let name = String::deserialize(d)?;
        if !self.0.contains(&name.as_str()) {
            return Err(de::Error::unknown_variant(&name, self.0));
        }
        Ok(name)
    }
}

/// The table without its tag: the buffered keys that came before it, then
/// the rest of the input.
struct Rest<A> {
    before: std::vec::IntoIter<(String, Value)>,
    /// The value of the buffered key last handed out, with its key.
    value: Option<(String, Value)>,
    map: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Rest<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        match self.before.next() {
            Some((key, value)) => {
                let name: StringDeserializer<A::Error> = key.clone().into_deserializer();
                self.value = Some((key, value));
                seed.deserialize(name).map(Some)
            }
            None => self.map.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        let Some((key, value)) = self.value.take() else {
            return self.map.next_value_seed(seed);
        };
        let mut track = serde_path_to_error::Track::new();
        seed.deserialize(serde_path_to_error::Deserializer::new(value, &mut track)).map_err(|e| {
            let path = match track.path().to_string() {
                inner if inner == "." => key,
                inner if inner.starts_with('[') => format!("{key}{inner}"),
                inner => format!("{key}.{inner}"),
            };
            de::Error::custom(format!("{path}: {e}"))
        })
    }
}
