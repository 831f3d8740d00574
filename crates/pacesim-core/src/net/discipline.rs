//! The queue-discipline seam: what a discipline sees of an arriving
//! packet, what it may decide, and what the link asks of it.
//!
//! Two kinds of discipline sit behind the one trait:
//!
//! - one that decides only at arrival (drop-tail, RED): its [`Verdict`]
//!   admits the packet to the tail of the link's FIFO queue or drops it,
//!   and the link then knows the packet's whole passage at once
//!   (`net::Link::offer`);
//! - one that holds its packets ([`Discipline::holds`]): the packets wait
//!   in the discipline, each with the time it joined ([`Queued`]), until
//!   the transmitter frees. It may drop packets already queued, when one
//!   arrives ([`Discipline::enqueue`]: drop-head, Linux's
//!   `pfifo_head_drop`; the fattest flow's head in FQ-CoDel) or when the
//!   transmitter asks for the next ([`Discipline::dequeue`]: CoDel's
//!   sojourn-time drops), and choose which packet goes next from several
//!   queues behind the one link (FQ-CoDel's flows). Its link holds the
//!   waiting packets by id (`net::Link::enqueue`, `next_held`).
//!
//! Either kind may mark an ECN-capable arrival CE instead of dropping it
//! ([`Verdict::Mark`]: drop-tail with a marking threshold, RED and PIE
//! with `ecn`); the link sets the packet's bit and counts the mark.

use std::fmt::Debug;

use super::{PacketId, PacketKind};
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
    /// Whether it is ECN-capable (`ECT`): a queue that marks may mark it
    /// CE instead of dropping it ([`Verdict::Mark`]).
    pub ect: bool,
}

/// What becomes of an arriving packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// It joins the queue (for a discipline that holds: it is given to
    /// [`Discipline::enqueue`]).
    Admit,
    /// It is dropped; the queue is unchanged.
    DropArrival,
    /// It joins the queue marked CE (RFC 3168 Sec 5): congestion signalled
    /// without a loss. Only for an ECN-capable arrival ([`Arrival::ect`]);
    /// a queue that would mark one that is not drops it.
    Mark,
}

/// A packet waiting in a discipline that holds its packets: what the
/// discipline keeps of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Queued {
    pub id: PacketId,
    pub kind: PacketKind,
    /// Size on the wire, bytes.
    pub size: u32,
    /// The flow it belongs to (a TCP flow's data and ACKs, or a UDP
    /// source's datagrams), for a discipline that queues flows apart.
    pub flow: u32,
    /// When it joined the queue, ns (its sojourn at dequeue is `now -
    /// enqueued`).
    pub enqueued: Time,
}

/// The limits an arrival at a queue never passes, counted as ns-2's
/// drop-tail counts them (`net::DropTail`); `None`: no limit of that count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// Bytes waiting.
    pub bytes: Option<u64>,
    /// Packets waiting.
    pub packets: Option<u64>,
}

/// A queue discipline: what becomes of the packets at a link's queue. A
/// new discipline is a file beside this one implementing it, a variant of
/// `net::Queue` and an arm in its `dispatch!` (or, from outside the crate,
/// `net::Queue::Other`).
pub trait Discipline {
    /// What becomes of the arriving packet: for a discipline that does not
    /// hold, all it decides; for one that holds, whether the packet is
    /// given to [`Discipline::enqueue`] (its admission limit).
    fn verdict(&mut self, a: &Arrival) -> Verdict;

    /// Whether it may answer [`Verdict::Mark`] (the world then shows it
    /// each packet's ECN bits; to the others every packet is not ECN-capable).
    fn marks(&self) -> bool {
        false
    }

    /// Whether the packets wait in the discipline until the transmitter
    /// takes them ([`Discipline::enqueue`], [`Discipline::dequeue`]).
    fn holds(&self) -> bool {
        false
    }

    /// A discipline that holds: packet `p`, admitted, joins its queues (the
    /// queue it found is `a`). The packets it drops to make room, `p` among
    /// them if it goes no further, are pushed on `dropped`. A discipline
    /// that does not hold keeps nothing (its link decided the passage).
    fn enqueue(&mut self, a: &Arrival, p: Queued, dropped: &mut Vec<Queued>) {
        let _ = (a, p, dropped);
    }

    /// A discipline that holds: the transmitter is free at `now`; the
    /// packet it sends, if any waits. The packets dropped instead on the
    /// way (CoDel's) are pushed on `dropped`.
    fn dequeue(&mut self, now: Time, dropped: &mut Vec<Queued>) -> Option<Queued> {
        let _ = (now, dropped);
        None
    }

    /// The limits an arrival never passes.
    fn limits(&self) -> Limits;
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
