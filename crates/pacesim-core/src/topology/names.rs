//! Names by index, packed: a network's link names and node names, read by
//! reports, errors and traces, never on a packet's way.
//!
//! Layout: every name's bytes back to back in one `String`, and where each
//! ends in a `Vec<u32>`: name `i` is `text[ends[i - 1]..ends[i]]` (from 0 for
//! the first). A name costs its UTF-8 bytes and 4 B, where a `String` of its
//! own costs 24 B and its heap block (E-base's `access.17.up`: 16 B against
//! 36 and more); the table itself is two vectors' 48 B. The text is at most
//! `u32::MAX` bytes: 4 GiB of link names at about 16 B a name is 2^28
//! links, 15 GB of [`Link`](crate::net::Link)s reserved before them.
//!
//! A copy shares the table until either is written (the two halves of a
//! split run share their network's names: at a million flows, 101 MB
//! held once, not twice).
//!
//! While a network is built its names are looked up and checked for
//! repeats through an [`Index`] of the table, which the build then drops.

use std::hash::{BuildHasher, RandomState};
use std::sync::Arc;

use hashbrown::HashTable;

/// Names numbered from 0 in the order pushed; see the module's layout.
#[derive(Debug, Clone, Default)]
pub struct Names(Arc<Packed>);

#[derive(Debug, Clone, Default)]
struct Packed {
    /// Every name's bytes, back to back.
    text: String,
    /// One past each name's last byte in `text`, by index (non-decreasing).
    ends: Vec<u32>,
}

impl Names {
    /// Add `name` as the next index.
    pub fn push(&mut self, name: &str) {
        let p = Arc::make_mut(&mut self.0);
        p.text.push_str(name);
        p.ends.push(u32::try_from(p.text.len()).expect("names hold at most 4 GiB of text"));
    }

    /// Name `i`; panics past the end, as indexing a vector does.
    pub fn get(&self, i: usize) -> &str {
        let Packed { text, ends } = &*self.0;
        let start = if i == 0 { 0 } else { ends[i - 1] as usize };
        &text[start..ends[i] as usize]
    }

    /// The first index named `name`.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.iter().position(|n| n == name)
    }

    pub fn len(&self) -> usize {
        self.0.ends.len()
    }

    /// Every name, by index.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Room for `names` more names (the text still grows as pushed).
    pub fn reserve_exact(&mut self, names: usize) {
        Arc::make_mut(&mut self.0).ends.reserve_exact(names);
    }

    /// Give back the room the text and the ends grew by doubling.
    pub fn shrink_to_fit(&mut self) {
        let p = Arc::make_mut(&mut self.0);
        p.text.shrink_to_fit();
        p.ends.shrink_to_fit();
    }

    /// The heap this table holds, in bytes (shared with its copies).
    pub fn heap_bytes(&self) -> usize {
        self.0.text.capacity() + 4 * self.0.ends.capacity()
    }
}

/// A [`Names`] table's indices by name, for a build's look-ups and its
/// check for repeated names: a hash table of the indices alone (4 B and a
/// control byte a slot; the names' count times 8/7 slots, rounded up to a
/// power of two), each hashed and compared by its text in the table. A map
/// keyed by each name's own copy held that copy (24 B and its heap block)
/// in a 33 B slot: at a million flows E-base's 4,000,042 link names took
/// 340 MB of the build's peak that way, where this takes 42 MB
/// (bench/speed/README.md).
/// Every call is given the same table, which only grows by pushes; an
/// index may be inserted as `names.len()` just before its name is pushed.
#[derive(Debug)]
pub struct Index {
    slots: HashTable<u32>,
    hasher: RandomState,
}

impl Index {
    /// An index with room for `names` names.
    pub fn with_capacity(names: usize) -> Self {
        Index { slots: HashTable::with_capacity(names), hasher: RandomState::new() }
    }

    /// Index `name` as `i` in `names` (where it is, or `names.len()`, the
    /// index it takes when pushed next), unless `name` is indexed already:
    /// then the index it has.
    pub fn insert(&mut self, names: &Names, name: &str, i: usize) -> Result<(), usize> {
        let Index { slots, hasher } = self;
        let i = u32::try_from(i).expect("at most 2^32 names indexed");
        let same = |&j: &u32| names.get(j as usize) == name;
        match slots.entry(hasher.hash_one(name), same, |&j| hasher.hash_one(names.get(j as usize))) {
            hashbrown::hash_table::Entry::Occupied(e) => Err(*e.get() as usize),
            hashbrown::hash_table::Entry::Vacant(e) => {
                e.insert(i);
                Ok(())
            }
        }
    }

    /// The index named `name`.
    pub fn get(&self, names: &Names, name: &str) -> Option<usize> {
        let same = |&j: &u32| names.get(j as usize) == name;
        self.slots.find(self.hasher.hash_one(name), same).map(|&j| j as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_back_by_its_index_and_found_by_its_text() {
        let mut n = Names::default();
        for name in ["core", "", "access.17.up", "émetteur", "core"] {
            n.push(name);
        }
        assert_eq!(n.len(), 5);
        assert_eq!(n.iter().collect::<Vec<_>>(), ["core", "", "access.17.up", "émetteur", "core"]);
        assert_eq!((n.get(0), n.get(1), n.get(3)), ("core", "", "émetteur"));
        // The first of two equal names, as `Vec::position` finds it.
        assert_eq!(n.position("core"), Some(0));
        assert_eq!((n.position(""), n.position("émetteur"), n.position("acc")), (Some(1), Some(3), None));
        // 4 + 0 + 12 + 9 + 4 bytes of UTF-8, and 4 B an end.
        n.shrink_to_fit();
        assert_eq!(n.heap_bytes(), 29 + 5 * 4);
    }

    #[test]
    fn empty_has_no_names() {
        let n = Names::default();
        assert_eq!((n.len(), n.position(""), n.iter().count()), (0, None, 0));
    }

    #[test]
    fn an_index_finds_each_name_and_refuses_a_repeat() {
        let mut n = Names::default();
        let mut index = Index::with_capacity(2);
        // Indexed before it is pushed, then pushed; more names than the room given.
        for name in ["core", "access.17.up", "", "émetteur"] {
            assert_eq!(index.insert(&n, name, n.len()), Ok(()));
            n.push(name);
        }
        assert_eq!(index.insert(&n, "access.17.up", n.len()), Err(1));
        assert_eq!(index.insert(&n, "", n.len()), Err(2));
        let found = ["core", "access.17.up", "", "émetteur", "acc"].map(|m| index.get(&n, m));
        assert_eq!(found, [Some(0), Some(1), Some(2), Some(3), None]);
    }
}
