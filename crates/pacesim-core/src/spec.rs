//! The vocabulary every component's spec shares: value ranges, shares,
//! the engine's limits on times and sizes (and a file read within one),
//! and the error naming a bad field, its quantities as a scenario writes
//! them (`human`). It imports nothing of the engine, so any component may use it.

pub mod bounds;
pub mod flat;
pub mod human;
pub mod tagged;
pub mod variants;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A closed interval drawn uniformly per element; `[v, v]` is a fixed value.
pub type Range = [u64; 2];

/// Which packets a delay measurement follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DelayClass {
    /// TCP data segments.
    #[default]
    Data,
    /// Real-time UDP datagrams.
    Udp,
}

/// A scenario field that is out of range, with its path (`core.buffer`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct InvalidField {
    pub field: String,
    pub message: String,
}

impl InvalidField {
    /// The value at this error's field in `wire`, a scenario in its wire
    /// form (JSON), if the field names one there (`topology.links[2].rate`
    /// does, `scenario` or a missing key does not): the offending value as
    /// the scenario gives it.
    pub fn value_in<'a>(&self, wire: &'a serde_json::Value) -> Option<&'a serde_json::Value> {
        let mut node = wire;
        for part in self.field.split('.') {
            let mut pieces = part.split('[');
            node = node.get(pieces.next()?)?;
            for index in pieces {
                node = node.get(index.strip_suffix(']')?.parse::<usize>().ok()?)?;
            }
        }
        Some(node)
    }
}

/// Whether element `i` is among a share `fraction` of elements spread evenly:
/// when floor((i+1) f) > floor(i f).
pub fn evenly(i: usize, fraction: f64) -> bool {
    ((i + 1) as f64 * fraction).floor() > (i as f64 * fraction).floor()
}

/// The first item equal to one before it, with its index, or None. One pass
/// with a hash set: a list of a million names (a 15 MB scenario) is checked
/// in a fraction of a second, where comparing each item with all before it
/// took about an hour (issue 33).
pub fn first_repeat<T: Eq + std::hash::Hash + Copy>(
    items: impl IntoIterator<Item = T>,
) -> Option<(usize, T)> {
    let mut seen = std::collections::HashSet::new();
    items.into_iter().enumerate().find(|&(_, x)| !seen.insert(x))
}

pub fn bad(field: &str, message: impl Into<String>) -> InvalidField {
    InvalidField { field: field.to_string(), message: message.into() }
}

pub fn positive(field: &str, v: u64) -> Result<(), InvalidField> {
    if v == 0 {
        return Err(bad(field, "must be greater than zero"));
    }
    Ok(())
}

pub fn ordered(field: &str, r: Range) -> Result<(), InvalidField> {
    if r[0] > r[1] {
        return Err(bad(field, format!("range lower bound {} exceeds upper bound {}", r[0], r[1])));
    }
    Ok(())
}

/// The longest time a scenario may give anything (10^6 s, 11.6 days): any
/// time plus a few others, and an RTO backed off 64-fold, stay far within
/// the engine's clock (u64 ns, 584 years).
pub const MAX_TIME: u64 = 1_000_000 * crate::sim::time::NS_PER_SEC;

/// A millisecond, ns, and a megabit per second, bit/s: for writing defaults.
pub const MS: u64 = 1_000_000;
pub const MBPS: u64 = 1_000_000;

/// The largest packet a scenario may send or assume, bytes: IPv4's total
/// length is 16 bits. Each size key's schema bound (`range(max = MAX_PACKET)`).
pub const MAX_PACKET: u64 = 65_535;

/// `v` at most `max`, both quoted as `spell` writes them (`human::size`).
pub fn at_most(field: &str, v: u64, max: u64, spell: impl Fn(u64) -> String) -> Result<(), InvalidField> {
    if v > max {
        return Err(bad(field, format!("{} is more than the engine allows ({})", spell(v), spell(max))));
    }
    Ok(())
}

/// The bytes of the regular file `path` if it holds at most `max`; else
/// why not ("not a regular file", "more than N bytes: not read", or the
/// system's error). Never more than `max` + 1 bytes are read: a file
/// growing as it is read stays bounded.
pub fn read_file(path: &std::path::Path, max: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    let too_big = || format!("more than {max} bytes: not read");
    if meta.len() > max {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(max.saturating_add(1)).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > max {
        return Err(too_big());
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of `max` bytes is read; one byte more, or no file, is not.
    #[test]
    fn a_file_is_read_within_its_bound() {
        let path = std::env::temp_dir().join(format!("pacesim-read-file-{}", std::process::id()));
        std::fs::write(&path, "abc").unwrap();
        assert_eq!(read_file(&path, 3).unwrap(), b"abc");
        assert_eq!(read_file(&path, 2).unwrap_err(), "more than 2 bytes: not read");
        std::fs::remove_file(&path).unwrap();
        assert!(read_file(&path, 3).is_err());
    }

    #[test]
    fn the_first_repeat_is_the_first_item_equal_to_an_earlier_one() {
        assert_eq!(first_repeat([3, 1, 4, 1, 3]), Some((3, 1)));
        assert_eq!(first_repeat(["a", "b", "b"]), Some((2, "b")));
        assert_eq!(first_repeat([1, 2, 3]), None);
        assert_eq!(first_repeat(Vec::<u32>::new()), None);
    }

    #[test]
    fn an_errors_value_is_found_at_its_fields_path() {
        let wire = serde_json::json!({
            "warmup": 5,
            "topology": {"kind": "graph", "links": [{"rate": 1}, {"rate": 2, "name": "core"}]},
        });
        let value = |field: &str| bad(field, "m").value_in(&wire).cloned();
        assert_eq!(value("warmup"), Some(serde_json::json!(5)));
        assert_eq!(value("topology.links[1].rate"), Some(serde_json::json!(2)));
        assert_eq!(value("topology.links[1]"), Some(serde_json::json!({"rate": 2, "name": "core"})));
        // Not there: the whole scenario, a key not given, an element past the list's end, a key of a value.
        for field in ["scenario", "duration", "topology.links[2].rate", "warmup.x", "topology.links[x]"] {
            assert_eq!(value(field), None, "{field}");
        }
    }
}
