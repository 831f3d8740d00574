//! A route's hop as the forwarding path reads it: a link id and the
//! questions asked of it at every hop, in one word.

use std::sync::Arc;

/// A route hop: its link, and in the upper bits what the engine asks at
/// every hop: whether packets wait for the link outside its own decision
/// (in a pacer in front of it, or in a queue that holds them, see
/// `Link::holds`), whether the packet
/// goes on at once across the route's next link (cut through, see
/// `Network::mark_cut_through`), whether the link's far end is in the
/// other half of a split run, whether the link is traced, whether it leaves a Tmix DelayBox, and whether its
/// queue may mark ECN-capable packets. One word, next to the route's other hops,
/// instead of a table by link for each question: at 100,000 flows every
/// such table is megabytes and every lookup a cache miss of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Hop(pub(super) u32);

impl Hop {
    pub(super) const HELD: u32 = 1 << 31;
    pub(super) const ONWARD: u32 = 1 << 30;
    pub(super) const CROSSES: u32 = 1 << 29;
    pub(super) const TRACED: u32 = 1 << 28;
    /// The link leaves a Tmix DelayBox router (see `tmix`); also `HELD`.
    pub(super) const DELAYED: u32 = 1 << 27;
    /// The link's queue may mark ECN-capable packets CE (`Link::marks`).
    pub(super) const MARKS: u32 = 1 << 26;

    pub(super) fn link(self) -> usize {
        (self.0 & (Hop::MARKS - 1)) as usize
    }

    pub(super) fn has(self, flag: u32) -> bool {
        self.0 & flag != 0
    }
}

/// Every route's hops, to be written: only while a world is made and
/// marked (for a split, a trace, a Tmix DelayBox), before the other half of
/// a split run shares them (`World::share_routes`); panics once shared.
pub(super) fn unshared(hops: &mut Arc<[Hop]>) -> &mut [Hop] {
    Arc::get_mut(hops).expect("hop words are written only before a half shares them")
}
