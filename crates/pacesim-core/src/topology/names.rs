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

use std::sync::Arc;

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
}
