//! The queue-discipline seam: what a discipline sees of an arriving
//! packet, what it may decide, and what the link asks of it.
//!
//! A discipline decides, at each arrival, whether the packet joins the
//! tail of the link's FIFO queue, and which packet is dropped if one is:
//! the arrival (drop-tail, RED) or the packet at the head of the queue
//! (drop-head: ns-2's `Queue/DropTail` with `drop_front_`, Linux's
//! `pfifo_head_drop`). A discipline that may drop queued packets says so
//! ([`Discipline::drops_queued`]), and its link then holds the waiting
//! packets until they start transmission (`net::Link::enqueue`) instead
//! of deciding each packet's passage when it is admitted.

use std::fmt::Debug;

use crate::sim::Time;

/// What a queue sees of an arriving packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrival {
    pub now: Time,
    /// When the link went idle with nothing queued, if it is idle now.
    pub idle_since: Option<Time>,
    /// Bytes and packets waiting (not counting the one on the wire).
    pub queued_bytes: u64,
    pub queued_packets: u64,
    pub size: u32,
}

/// What becomes of an arriving packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// It joins the tail of the queue.
    Admit,
    /// It is dropped; the queue is unchanged.
    DropArrival,
    /// It joins the tail, and the packet at the head of the queue (the
    /// oldest waiting, not the one on the wire; the arrival itself if
    /// nothing else waits) is dropped, as ns-2's `drop_front_` does. Only
    /// a discipline that [`Discipline::drops_queued`] may answer this (the
    /// link of one that does not drops the arrival instead).
    DropHead,
}

/// A queue discipline: what becomes of the arrivals at a link's FIFO
/// queue. A new discipline is a file beside this one implementing it, a
/// variant of `net::Queue` and an arm in its `dispatch!` (or, from outside
/// the crate, `net::Queue::Other`).
pub trait Discipline {
    /// What becomes of the arriving packet.
    fn verdict(&mut self, a: &Arrival) -> Verdict;

    /// Whether [`Discipline::verdict`] may answer [`Verdict::DropHead`].
    fn drops_queued(&self) -> bool {
        false
    }

    /// The byte limit an arrival never passes, if any.
    fn limit_bytes(&self) -> Option<u64>;

    /// The packet limit an arrival never passes, if any.
    fn limit_packets(&self) -> Option<u64>;
}

/// A discipline written outside the crate, as `net::Queue::Other` holds
/// it: any cloneable, printable [`Discipline`] a thread can take along.
pub trait OtherDiscipline: Discipline + Debug + Send {
    fn clone_box(&self) -> Box<dyn OtherDiscipline>;
}

impl<D: Discipline + Debug + Send + Clone + 'static> OtherDiscipline for D {
    fn clone_box(&self) -> Box<dyn OtherDiscipline> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn OtherDiscipline> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
