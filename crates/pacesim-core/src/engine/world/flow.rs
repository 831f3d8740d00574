//! A TCP flow as the world holds it: its route, the user behind a
//! short-lived flow, and its drops; its sender and sink apart, each with
//! what is measured of it, among the [`Ends`] of the world that simulates
//! it.

use std::ops::{Deref, DerefMut, Index, IndexMut, Range};

use crate::metrics::{Received, TimeAverage, Transit};
use crate::sim::Time;
use crate::tcp::sender::SenderStats;
use crate::tcp::{TcpSender, TcpSink};
use crate::topology::FlowPath;
use crate::traffic::short::User;

/// What both halves of a split run read of a flow as packets and ACKs
/// come, beside its sender's and sink's state (`World::senders`,
/// `World::sinks`): the route, the connection and the drops. What its ends
/// measure on every packet is with them ([`SenderEnd`], [`SinkEnd`]), what
/// they measure only now and then apart ([`SenderMeasured`],
/// [`SinkMeasured`]).
pub struct Flow {
    pub path: FlowPath,
    pub start: Time,
    /// The closed-loop user of a short-lived flow (None: long-lived).
    pub user: Option<Box<User>>,
    /// The connection its packets belong to: a short-lived flow opens a
    /// new one per transfer and discards packets of closed ones.
    pub conn: u32,
    /// Its data packets (SYNs included) dropped in the window, wherever on its route.
    pub lost: u64,
}

/// A flow's sender as the world that simulates it holds it: the TCP sender
/// (which it derefs to) and what is measured of it on every transmission.
pub struct SenderEnd {
    pub tcp: TcpSender,
    /// Congestion window, averaged over the time a connection is open.
    pub cwnd: TimeAverage,
}

/// A flow's sink as the world that simulates it holds it: the TCP sink
/// (which it derefs to) and what is counted of it on every arrival.
pub struct SinkEnd {
    pub tcp: TcpSink,
    /// Data packets delivered by closed connections.
    pub delivered_before: i64,
    /// First copies of its data packets that reached the sink, by their
    /// share of the window (what [`Goodput`] counts, as they arrive).
    pub received: Received,
}

/// What is measured of a flow's sender beyond what its packets touch on
/// every hop, written only when the measured event happens (the window
/// opens, a SYN goes out) and read by the report: apart from the flows
/// (`World::measured_senders`, by flow, in the world that holds the
/// sender), so that the flows the sender and sink touch on every packet
/// stay small (a million flows).
#[derive(Debug, Clone, Copy, Default)]
pub struct SenderMeasured {
    /// SYNs it sent in the window (packet 0 of each connection, when
    /// modelled: shorter than the data packets `SenderStats::data_sent` counts).
    pub syns_sent: u64,
    /// Sender counters when the window opened.
    pub stats_at_warmup: SenderStats,
}

/// What is measured of a flow's sink, as [`SenderMeasured`] of its sender
/// (`World::measured_sinks`; the window opens, a delay is measured).
#[derive(Debug, Default)]
pub struct SinkMeasured {
    /// One-way delays of its data packets delivered in the window (count, sum ns), when measured.
    pub delays: (u64, u128),
    /// Transit delays of its data packets delivered in the window, when
    /// measured (`[transit]`).
    pub transit: Option<Box<Transit>>,
    /// What its goodput counts beyond the packets received ([`Goodput`]).
    pub goodput: Goodput,
}

impl Flow {
    pub fn new(path: FlowPath, start: Time, user: Option<User>) -> Self {
        Flow { path, start, user: user.map(Box::new), conn: 0, lost: 0 }
    }

    /// Data packets delivered in order by the window's end, each for the
    /// share of its bits that reached the sink inside the window: those
    /// counted as they arrived ([`SinkEnd::received`]) less those its `sink`
    /// still holds out of order (and had not as the window opened; `m`:
    /// what is measured of that sink).
    pub fn goodput_packets(&self, sink: &SinkEnd, m: &SinkMeasured) -> f64 {
        let g = &m.goodput;
        let held_at_open: &[i64] = if g.opened.0 == self.conn { &g.opened.1 } else { &[] };
        let held: f64 = (sink.out_of_order())
            .filter(|seq| held_at_open.binary_search(seq).is_err())
            .map(|seq| match g.straddler {
                Some((conn, s, share)) if (conn, s) == (self.conn, seq) => share,
                _ => 1.0,
            })
            .sum();
        sink.received.packets() - held
    }

    /// Whether a connection is open (always, once a long-lived flow starts).
    pub(super) fn active(&self) -> bool {
        self.user.as_ref().is_none_or(|u| u.busy())
    }

    /// Whether a packet of connection `conn` reaches its endpoint: not if
    /// that connection has closed.
    pub(super) fn accepts(&self, conn: u32) -> bool {
        conn == self.conn && self.active()
    }
}

impl SenderEnd {
    pub fn new(tcp: TcpSender) -> Self {
        SenderEnd { tcp, cwnd: TimeAverage::default() }
    }
}

impl SinkEnd {
    pub fn new(tcp: TcpSink) -> Self {
        SinkEnd { tcp, delivered_before: 0, received: Received::default() }
    }

    /// Data packets delivered in order over the flow's life, every
    /// connection's (a long-lived flow has one): each connection's SYN,
    /// packet 0 before `first_data`, is no data. (Counted, it made a run
    /// with no warm-up report a segment more than could have arrived.)
    pub fn delivered_in_all(&self, first_data: i64) -> i64 {
        self.delivered_before + (self.tcp.delivered() - first_data).max(0)
    }
}

impl Deref for SenderEnd {
    type Target = TcpSender;

    #[inline(always)]
    fn deref(&self) -> &TcpSender {
        &self.tcp
    }
}

impl DerefMut for SenderEnd {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut TcpSender {
        &mut self.tcp
    }
}

impl Deref for SinkEnd {
    type Target = TcpSink;

    #[inline(always)]
    fn deref(&self) -> &TcpSink {
        &self.tcp
    }
}

impl DerefMut for SinkEnd {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut TcpSink {
        &mut self.tcp
    }
}

impl SinkMeasured {
    /// The window opens: what `flow`'s `sink` holds out of order then
    /// arrived before it, and counts for nothing.
    pub fn open_goodput(&mut self, flow: &Flow, sink: &TcpSink) {
        self.goodput.opened = (flow.conn, sink.out_of_order().collect());
    }
}

/// One end of the flows a world simulates, their senders or their sinks,
/// by flow: those of the flows `from..from + items.len()`. One world holds
/// every flow's; a half of a split run the span from its first flow with
/// that end in the half to its last, so that a half holds no end the other
/// simulates (E-base: half 0 every sender and no sink, half 1 every sink
/// and no sender) but for those of flows inside its span whose end is in
/// the other half, built and never used. Reading a flow's end outside the
/// span panics: a half never reads an end it does not simulate.
#[derive(Debug)]
pub struct Ends<T> {
    from: usize,
    items: Vec<T>,
}

impl<T> Ends<T> {
    /// The ends of the flows in `span`, `end(f)` flow f's.
    pub fn of(span: Range<usize>, end: impl FnMut(usize) -> T) -> Self {
        Ends { from: span.start, items: span.map(end).collect() }
    }

    /// The flows whose ends these are.
    pub fn span(&self) -> Range<usize> {
        self.from..self.from + self.items.len()
    }

    /// Flow `f`'s end, if this world holds it.
    pub fn get(&self, f: usize) -> Option<&T> {
        self.items.get(f.checked_sub(self.from)?)
    }

    /// The end of a flow added after every flow held (a Tmix end; such runs
    /// are never split).
    pub fn push(&mut self, end: T) {
        debug_assert_eq!(self.from, 0, "flows are added only in one world");
        self.items.push(end);
    }

    /// These ends (half 0's) and `other`'s (half 1's) as one world's, each
    /// flow's from the half that simulated it (`theirs(f)`: half 1's) of
    /// the `flows`; `other` is left empty. A half that holds no end of
    /// this kind costs no copy of the other's.
    pub fn join(&mut self, other: &mut Self, flows: usize, theirs: impl Fn(usize) -> bool) {
        let (this, other) = (std::mem::take(self), std::mem::take(other));
        *self = if other.items.is_empty() && this.span() == (0..flows) {
            this
        } else if this.items.is_empty() && other.span() == (0..flows) {
            other
        } else {
            this.merged(other, flows, theirs)
        };
    }

    fn merged(self, other: Self, flows: usize, theirs: impl Fn(usize) -> bool) -> Self {
        let (mine, yours) = (self.span(), other.span());
        let (mut a, mut b) = (self.items.into_iter(), other.items.into_iter());
        let items = (0..flows)
            .map(|f| {
                let x = mine.contains(&f).then(|| a.next()).flatten();
                let y = yours.contains(&f).then(|| b.next()).flatten();
                let end = if theirs(f) { y } else { x };
                end.expect("the half that simulates a flow's end holds it")
            })
            .collect();
        Ends { from: 0, items }
    }
}

impl<T> Default for Ends<T> {
    fn default() -> Self {
        Ends { from: 0, items: Vec::new() }
    }
}

impl<T> Index<usize> for Ends<T> {
    type Output = T;

    #[inline(always)]
    fn index(&self, f: usize) -> &T {
        &self.items[f - self.from]
    }
}

impl<T> IndexMut<usize> for Ends<T> {
    #[inline(always)]
    fn index_mut(&mut self, f: usize) -> &mut T {
        &mut self.items[f - self.from]
    }
}

/// What a flow's goodput counts: its data packets delivered in order by the
/// window's end, each for the share of its bits that reached the sink
/// inside the window (`metrics::received`), so that no window shows more
/// than its last link carries (a retransmission filling a hole delivers
/// the packets held behind it, but their bits arrived when they did). The
/// packet on the wire at the end counts for its share if it is next in
/// order. Counted as first copies arrive (kept with the sink,
/// [`SinkEnd::received`], as every arrival counts); those still held out of
/// order at the end are taken back then ([`Flow::goodput_packets`]).
///
/// What the physics allows when the bottleneck is not the last link
/// (issue 33). Model: a store-and-forward chain; the flow's segments, `w`
/// wire bytes each, leave its slowest link (rate `C_b`) at least
/// `t_b = 8 w / C_b` apart, and wait nowhere after it (every later link is
/// faster and carries only what came over the bottleneck). Each then
/// reaches the sink after one fixed delay `D` (the propagation of the
/// bottleneck and every later link, the serialisation of the later links),
/// so segment k's bits arrive over `[e_k + D - t_n, e_k + D]`, `e_k` its
/// end on the bottleneck, `t_n = 8 w / C_n` on the last link (`t_n <= t_b`).
/// A delay common to all arrivals moves them alike and drops out. Bound: in
/// a window of `T >= t_n`, if m segments reach into it, the first one's
/// last bit `a` after the window opens and the last one's first bit `b`
/// before it closes, they count at most `min(1, a / t_n)` and
/// `min(1, b / t_n)`, the m - 2 between 1 each, and the spacing gives
/// `(m - 1) t_b <= T + t_n - a - b`; as `t_n <= t_b` the sum is largest at
/// `a = b = t_n`:
///
///   segments <= 1 + (T - t_n) / t_b,
///   goodput  <= payload rate of C_b + one segment's payload * (1 - C_b / C_n) / T,
///
/// reached when `T - t_n` is a whole number of `t_b` and the window opens
/// as a segment's first bit arrives. A window may hold more than `C_b T`
/// because a segment serialised slowly on the bottleneck before it opens
/// arrives compressed to `t_n` inside it (1 Mb/s core, 100 Mb/s last link,
/// 2 s: 241 segments, 964 Kb/s of payload, against 961.54 over the core).
/// When the bottleneck sends the flow's segments back to back through the
/// window, at least `T / t_b - 1` count. Segments that queue after the
/// bottleneck (cross traffic on a later link) can arrive at `C_n`'s rate,
/// and the last link is then the only bound. tests/test_window_edges.py
/// checks both bounds at window phases, on one thread and split.
#[derive(Debug, Clone, Default)]
pub struct Goodput {
    /// The connection open as the window opened, and the packets its sink
    /// held out of order then (ascending; they arrived before the window).
    opened: (u32, Vec<i64>),
    /// The packet whose bits were arriving as the window opened: its
    /// connection, sequence number and share.
    pub(super) straddler: Option<(u32, i64, f64)>,
}

/// Wire sizes of the packets TCP puts on the network.
#[derive(Debug, Clone, Copy)]
pub struct Sizes {
    pub data: u32,
    /// Size of packet 0 when it models the SYN.
    pub syn: Option<u32>,
    /// An ACK without SACK blocks; each block adds [`SACK_BLOCK_BYTES`].
    pub ack: u32,
}

/// Bytes a SACK block adds to an ACK (two 4-byte sequence numbers; ns-2
/// `Sacker::append_ack` grows the ACK by as much).
pub const SACK_BLOCK_BYTES: u32 = 8;
