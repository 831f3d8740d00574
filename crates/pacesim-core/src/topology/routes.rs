//! Every route of a network, its links back to back, in one table that
//! copies share.
//!
//! Layout: all routes' link ids in one `Vec<LinkId>` (4 B a hop) and each
//! route's span of it (8 B a route): route `r` is `hops[spans[r]]`. Routes
//! are added while the network is built and never written after, so the two
//! halves of a split run share one table (at a million flows, 10 hops and 2
//! routes a flow: 56 MB held once, not twice); a copy written to is copied
//! then, as the names are ([`super::Names`]).

use std::ops::Range;
use std::sync::Arc;

use crate::net::LinkId;

/// Routes numbered from 0 in the order added; see the module's layout.
#[derive(Debug, Clone, Default)]
pub struct Routes(Arc<Table>);

#[derive(Debug, Clone, Default)]
struct Table {
    /// Every route's links, back to back.
    hops: Vec<LinkId>,
    /// Each route's span of `hops`, by route (contiguous, ascending).
    spans: Vec<Range<u32>>,
}

impl Routes {
    /// Add the route over `links`, in order, as the next route.
    pub fn add(&mut self, links: &[LinkId]) -> u32 {
        let t = Arc::make_mut(&mut self.0);
        let start = t.hops.len() as u32;
        t.hops.extend_from_slice(links);
        t.spans.push(start..t.hops.len() as u32);
        (t.spans.len() - 1) as u32
    }

    /// The links of route `r`, in order.
    #[inline]
    pub fn get(&self, r: u32) -> &[LinkId] {
        let span = self.span(r);
        &self.0.hops[span.start as usize..span.end as usize]
    }

    /// Where route `r`'s links are among [`Routes::hops`].
    #[inline]
    pub fn span(&self, r: u32) -> Range<u32> {
        self.0.spans[r as usize].clone()
    }

    /// Every route's links, back to back (a hop's index is its place here).
    #[inline]
    pub fn hops(&self) -> &[LinkId] {
        &self.0.hops
    }

    /// Every route's links, by route.
    pub fn iter(&self) -> impl Iterator<Item = &[LinkId]> + '_ {
        (0..self.len() as u32).map(|r| self.get(r))
    }

    pub fn len(&self) -> usize {
        self.0.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Give back the room the table grew by doubling.
    pub fn shrink_to_fit(&mut self) {
        let t = Arc::make_mut(&mut self.0);
        t.hops.shrink_to_fit();
        t.spans.shrink_to_fit();
    }

    /// The heap this table holds, in bytes (shared with its copies): the
    /// hops', then the spans'.
    pub fn heap_bytes(&self) -> (usize, usize) {
        (4 * self.0.hops.capacity(), 8 * self.0.spans.capacity())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_route_back_by_its_number_and_copies_share_the_table() {
        let mut r = Routes::default();
        assert!(r.is_empty());
        assert_eq!((r.add(&[3, 1, 4]), r.add(&[]), r.add(&[1, 5])), (0, 1, 2));
        assert_eq!((r.get(0), r.get(1), r.get(2)), (&[3, 1, 4][..], &[][..], &[1, 5][..]));
        assert_eq!((r.span(2), r.hops()), (3..5, &[3, 1, 4, 1, 5][..]));
        assert_eq!(r.iter().map(<[_]>::len).collect::<Vec<_>>(), [3, 0, 2]);
        let copy = r.clone();
        assert!(std::ptr::eq(copy.hops(), r.hops()), "one table");
        // Written to, a copy is its own.
        r.add(&[9]);
        assert_eq!((r.len(), copy.len()), (4, 3));
        r.shrink_to_fit();
        assert_eq!(r.heap_bytes(), (4 * 6, 8 * 4));
    }
}
