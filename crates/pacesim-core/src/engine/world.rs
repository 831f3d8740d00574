//! The world: every link, pacer and flow of a run, and the dispatch of
//! events to them. One `match` handles every kind: a packet reaching the far
//! end of a link, a retransmission timer, a pacer releasing packets, a paced
//! sender or a delayed ACK becoming due, a flow starting (or a short-lived
//! one opening its next connection), and the edges of the measurement window.

use crate::engine::partition::{Cut, Outbox};
use crate::metrics::{DelayStats, TimeAverage};
use crate::net::{LinkId, Packet, PacketArena, PacketId, PacketKind, TcpOptions};
use crate::pacing::Pacer;
use crate::report::ProgressTable;
use crate::sim::{EventQueue, Time};
use crate::tcp::sender::SenderStats;
use crate::tcp::{TcpSender, TcpSetup, TcpSink};
use crate::topology::{FlowPath, Network};
use crate::traffic::short::{Transfer, User};
use crate::traffic::udp::UdpSource;

const NO_PACER: u32 = u32::MAX;

/// A route hop: its link, and in the upper bits what the engine asks at
/// every hop: whether a pacer sits in front of the link, whether the packet
/// goes on at once across the route's next link (cut through, see
/// `Network::mark_cut_through`), and whether the link's far end is in the
/// other half of a split run. One word, next to the route's other hops,
/// instead of a table by link for each question: at 100,000 flows every
/// such table is megabytes and every lookup a cache miss of its own.
#[derive(Debug, Clone, Copy)]
struct Hop(u32);

impl Hop {
    const PACED: u32 = 1 << 31;
    const ONWARD: u32 = 1 << 30;
    const CROSSES: u32 = 1 << 29;

    fn link(self) -> usize {
        (self.0 & (Hop::CROSSES - 1)) as usize
    }

    fn has(self, flag: u32) -> bool {
        self.0 & flag != 0
    }
}

#[derive(Debug, Clone, Copy)]
pub enum Event {
    /// The packet's last bit reached the far end of the link it was crossing.
    Arrive(PacketId),
    /// The retransmission timer of a flow may expire.
    Rto(u32),
    /// A pacer in front of a link may release packets.
    Pace(u32),
    /// A paced sender may send again.
    HostPace(u32),
    /// A sink's delayed ACK may be due.
    DelAck(u32),
    /// A flow's application starts (a short-lived flow's next transfer).
    Start(u32),
    /// A UDP source's next packet is due.
    Udp(u32),
    /// The measurement window opens.
    Warmup,
    /// Every flow's progress is sampled (`ProgressSpec`).
    Sample,
    /// The run ends.
    End,
}

impl Event {
    /// The kind of event, numbered in declaration order from 0, and its index.
    fn parts(self) -> (u8, u32) {
        match self {
            Event::Arrive(i) => (0, i),
            Event::Rto(i) => (1, i),
            Event::Pace(i) => (2, i),
            Event::HostPace(i) => (3, i),
            Event::DelAck(i) => (4, i),
            Event::Start(i) => (5, i),
            Event::Udp(i) => (6, i),
            Event::Warmup => (7, 0),
            Event::Sample => (8, 0),
            Event::End => (9, 0),
        }
    }

    /// The kind of event, numbered in declaration order from 0.
    #[cfg(feature = "trace")]
    pub fn tag(&self) -> u8 {
        self.parts().0
    }
}

/// An [`Event`] in 32 bits, its kind in the top 4 and its index below, so
/// that an entry of the event queue (time, tie, event) takes 16 bytes: with
/// the 8-byte enum entries took 24 and E-base ran 5 % slower in one world,
/// 13 % slower split in two (`engine::partition`).
#[derive(Debug, Clone, Copy)]
pub struct Packed(u32);

const INDEX_BITS: u32 = 28;

impl From<Event> for Packed {
    #[inline]
    fn from(e: Event) -> Packed {
        let (kind, index) = e.parts();
        assert!(index < 1 << INDEX_BITS, "event index {index} needs more than {INDEX_BITS} bits");
        Packed(u32::from(kind) << INDEX_BITS | index)
    }
}

impl From<Packed> for Event {
    #[inline]
    fn from(p: Packed) -> Event {
        let index = p.0 & ((1 << INDEX_BITS) - 1);
        match p.0 >> INDEX_BITS {
            0 => Event::Arrive(index),
            1 => Event::Rto(index),
            2 => Event::Pace(index),
            3 => Event::HostPace(index),
            4 => Event::DelAck(index),
            5 => Event::Start(index),
            6 => Event::Udp(index),
            7 => Event::Warmup,
            8 => Event::Sample,
            _ => Event::End,
        }
    }
}

pub struct Flow {
    pub sender: TcpSender,
    pub sink: TcpSink,
    pub path: FlowPath,
    pub start: Time,
    /// The closed-loop user of a short-lived flow (None: long-lived).
    pub user: Option<Box<User>>,
    /// The connection its packets belong to: a short-lived flow opens a
    /// new one per transfer and discards packets of closed ones.
    pub conn: u32,
    /// Data packets delivered by closed connections.
    pub delivered_before: i64,
    /// Congestion window, averaged over the time a connection is open.
    pub cwnd: TimeAverage,
    /// One-way delays of its data packets delivered in the window (count, sum ns), when measured.
    pub delays: (u64, u128),
    /// Progress and sender counters when the window opened.
    pub delivered_at_warmup: i64,
    pub stats_at_warmup: SenderStats,
}

impl Flow {
    pub fn new(sender: TcpSender, sink: TcpSink, path: FlowPath, start: Time, user: Option<User>) -> Self {
        Flow {
            sender,
            sink,
            path,
            start,
            user: user.map(Box::new),
            conn: 0,
            delivered_before: 0,
            cwnd: TimeAverage::default(),
            delays: (0, 0),
            delivered_at_warmup: 0,
            stats_at_warmup: SenderStats::default(),
        }
    }

    /// Packets delivered in order over the flow's life: for a long-lived
    /// flow the sink's count, for a short-lived one its data packets over
    /// every connection (each connection's SYN, packet 0 before
    /// `first_data`, excluded).
    pub fn delivered(&self, first_data: i64) -> i64 {
        match self.user {
            None => self.sink.delivered(),
            Some(_) => self.delivered_before + (self.sink.delivered() - first_data).max(0),
        }
    }

    /// Data packets delivered in order, SYNs not counted.
    pub fn data_delivered(&self, first_data: i64) -> i64 {
        match self.user {
            None => (self.sink.delivered() - first_data).max(0),
            Some(_) => self.delivered(first_data),
        }
    }

    /// Take over `other`'s sender half (the sender and what is measured
    /// of it), from the world that simulated that end of the flow.
    pub fn take_sender_half(&mut self, other: &mut Flow) {
        std::mem::swap(&mut self.sender, &mut other.sender);
        std::mem::swap(&mut self.cwnd, &mut other.cwnd);
        self.stats_at_warmup = other.stats_at_warmup;
    }

    /// Take over `other`'s sink half (the sink and what it measured).
    pub fn take_sink_half(&mut self, other: &mut Flow) {
        std::mem::swap(&mut self.sink, &mut other.sink);
        self.delays = other.delays;
        self.delivered_at_warmup = other.delivered_at_warmup;
        self.delivered_before = other.delivered_before;
    }

    /// Whether a connection is open (always, once a long-lived flow starts).
    fn active(&self) -> bool {
        self.user.as_ref().is_none_or(|u| u.busy())
    }

    /// Whether a packet of connection `conn` reaches its endpoint: not if
    /// that connection has closed.
    fn accepts(&self, conn: u32) -> bool {
        conn == self.conn && self.active()
    }
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

pub struct World {
    pub now: Time,
    pub queue: EventQueue<Packed>,
    pub packets: PacketArena,
    pub net: Network,
    pub flows: Vec<Flow>,
    pub sources: Vec<UdpSource>,
    pub pacers: Vec<Pacer>,
    /// How each connection's sender and sink are built.
    pub setup: TcpSetup,
    /// Finished short-lived transfers, by flow, in the order they finished.
    pub transfers: Vec<(u32, Transfer)>,
    /// Progress samples and their interval, when sampled.
    pub progress: Option<(Time, ProgressTable)>,
    /// One-way delays of the delivered packets of one class, when measured.
    pub delay: Option<(PacketKind, DelayStats)>,
    /// Where the network splits in two, if it does (`engine::partition`), and
    /// the half this world simulates if it simulates only one.
    pub cut: Option<Cut>,
    pub side: Option<u8>,
    /// The half the current event happens in: equal-time events pop in the
    /// order they were scheduled, and those scheduled at the same instant
    /// in half 0 before half 1, so that one world and two halves agree.
    origin: u8,
    /// Every route's hops, as `net.hops` has their links.
    route_hops: Vec<Hop>,
    /// The packets that reached the far end of a link into the other half
    /// and are not yet handed over.
    pub outbox: Outbox,
    /// Packets from the other half due at or after the end, not taken in.
    pub unreceived: u64,
    /// For each link, the index of the pacer in front of it, or `NO_PACER`.
    pacer_at: Vec<u32>,
    /// The pacers in front of a cut link.
    pacing_across: Vec<u32>,
    sizes: Sizes,
    /// Scratch buffers: sequence numbers a sender emits, packets a pacer releases.
    out: Vec<i64>,
    released: Vec<PacketId>,
    pub delivered: u64,
    pub dropped: u64,
    pub hops: u64,
}

impl World {
    pub fn new(
        net: Network,
        flows: Vec<Flow>,
        sources: Vec<UdpSource>,
        setup: TcpSetup,
        sizes: Sizes,
    ) -> Self {
        let mut pacer_at = vec![NO_PACER; net.links.len()];
        let pacers = net
            .pacers
            .iter()
            .enumerate()
            .map(|(i, &(link, spec))| {
                pacer_at[link as usize] = i as u32;
                spec.build(net.links[link as usize].rate_bps)
            })
            .collect();
        let mut route_hops: Vec<Hop> = net
            .hops
            .iter()
            .map(|&l| {
                assert!(l < Hop::CROSSES, "link id {l} needs more than 29 bits");
                Hop(l | if pacer_at[l as usize] == NO_PACER { 0 } else { Hop::PACED })
            })
            .collect();
        for span in &net.routes {
            let route = span.start as usize..span.end as usize;
            for (hop, &next) in route_hops[route.clone()].iter_mut().zip(net.hops[route].iter().skip(1)) {
                if net.cut_through[next as usize] {
                    hop.0 |= Hop::ONWARD;
                }
            }
        }
        World {
            now: 0,
            queue: EventQueue::default(),
            packets: PacketArena::default(),
            net,
            flows,
            sources,
            pacers,
            setup,
            transfers: Vec::new(),
            progress: None,
            delay: None,
            cut: None,
            side: None,
            origin: 0,
            route_hops,
            outbox: Outbox::default(),
            unreceived: 0,
            pacing_across: Vec::new(),
            pacer_at,
            sizes,
            out: Vec::new(),
            released: Vec::new(),
            delivered: 0,
            dropped: 0,
            hops: 0,
        }
    }

    /// Simulate one half of a split network: that half's events only, and
    /// packets reaching the far end of a cut link go to the outbox.
    pub fn split(&mut self, side: u8) {
        let cut = self.cut.as_ref().expect("a network with a cut");
        for hop in &mut self.route_hops {
            if cut.crosses(hop.link() as LinkId) {
                hop.0 |= Hop::CROSSES;
            }
        }
        self.pacing_across =
            (0..self.pacers.len() as u32).filter(|&i| cut.crosses(self.net.pacers[i as usize].0)).collect();
        self.side = Some(side);
        self.origin = side;
    }

    /// Fold half 1's results (`other`) into this world, half 0's, which then
    /// reports for both: each link, pacer, flow end and source from the half
    /// that simulated it.
    pub fn join(&mut self, other: &mut World) {
        let (a, b) = (self, other);
        let cut = a.cut.clone().expect("a split world");
        for l in (0..a.net.links.len()).filter(|&l| cut.side(l as LinkId) == 1) {
            std::mem::swap(&mut a.net.links[l], &mut b.net.links[l]);
        }
        for (i, &(link, _)) in a.net.pacers.iter().enumerate() {
            if cut.side(link) == 1 {
                std::mem::swap(&mut a.pacers[i], &mut b.pacers[i]);
            }
        }
        for f in 0..a.flows.len() {
            if b.owns_sender(f) {
                a.flows[f].take_sender_half(&mut b.flows[f]);
            }
            if b.owns_sink(f) {
                a.flows[f].take_sink_half(&mut b.flows[f]);
            }
        }
        for (x, y) in a.sources.iter_mut().zip(&b.sources) {
            x.sent += y.sent;
            x.received += y.received;
        }
        if let (Some((_, x)), Some((_, y))) = (&mut a.progress, &b.progress) {
            x.merge(y);
        }
        if let (Some((_, x)), Some((_, y))) = (&mut a.delay, &b.delay) {
            x.merge(y);
        }
    }

    /// The earliest time this half may still put a packet on a cut link
    /// from: `clock` (it has run every event before), or an earlier
    /// departure that a pacer in front of a cut link has yet to put on it
    /// (`World::release`).
    pub fn sends_from(&self, clock: Time) -> Time {
        self.pacing_across
            .iter()
            .filter_map(|&i| self.pacers[i as usize].next_departure())
            .fold(clock, Time::min)
    }

    /// Whether this world simulates the half of the network where `link`'s queue is.
    pub fn owns(&self, link: LinkId) -> bool {
        match (&self.cut, self.side) {
            (Some(cut), Some(side)) => cut.side(link) == side,
            _ => true,
        }
    }

    /// The half of the network event `ev` happens in (for a world that
    /// simulates both).
    fn origin_of(&self, cut: &Cut, ev: Event) -> u8 {
        let net = &self.net;
        match ev {
            Event::Arrive(id) => {
                cut.far_side(self.route_hops[self.packets.get(id).hop as usize].link() as LinkId)
            }
            Event::Rto(f) | Event::HostPace(f) | Event::Start(f) => cut.side(net.sender_link(f as usize)),
            Event::DelAck(f) => cut.side(net.sink_link(f as usize)),
            Event::Pace(i) => cut.side(net.pacers[i as usize].0),
            Event::Udp(i) => cut.side(net.route(self.sources[i as usize].route)[0]),
            Event::Warmup | Event::Sample | Event::End => 0,
        }
    }

    /// Whether this world simulates the sender of flow `f`, and its sink.
    pub fn owns_sender(&self, f: usize) -> bool {
        self.owns(self.net.sender_link(f))
    }

    pub fn owns_sink(&self, f: usize) -> bool {
        self.owns(self.net.sink_link(f))
    }

    /// Run events until `End`, telling `progress` the simulated time every
    /// 2^18 events (often enough for Ctrl-C to stop a run within a second).
    pub fn run(&mut self, progress: &mut dyn FnMut(Time)) {
        self.run_until(Time::MAX, progress);
    }

    /// Run the events due before `limit`; true once `End` has popped.
    pub fn run_until(&mut self, limit: Time, progress: &mut dyn FnMut(Time)) -> bool {
        while let Some((t, ev)) = self.queue.pop_before(limit) {
            let ev = Event::from(ev);
            #[cfg(feature = "trace")]
            crate::sim::event::trace::pop();
            self.now = t;
            if let (Some(cut), None) = (&self.cut, self.side) {
                self.origin = self.origin_of(cut, ev);
            }
            if self.queue.popped() & 0x3_ffff == 0 {
                progress(t);
            }
            match ev {
                Event::Arrive(id) => self.arrive(id),
                Event::Rto(f) => {
                    let flow = &mut self.flows[f as usize];
                    if flow.sender.rtx.fires(t) {
                        flow.sender.on_timeout(t, &mut self.out);
                    }
                    self.transmit(f);
                }
                Event::Pace(i) => {
                    let timer = self.pacers[i as usize].timer();
                    let fired = timer.fires(t);
                    // A stale event (the deadline moved earlier) leaves the
                    // pacer as it was, and its timer armed unless this was
                    // its earliest event.
                    let stale = !fired && timer.has_event();
                    if fired {
                        self.release(i);
                    }
                    if !stale {
                        self.arm_pacer(i);
                    }
                }
                Event::HostPace(f) => {
                    let flow = &mut self.flows[f as usize];
                    if flow.sender.pace.fires(t) {
                        flow.sender.on_pace(t, &mut self.out);
                    }
                    self.transmit(f);
                }
                Event::DelAck(f) => {
                    let flow = &mut self.flows[f as usize];
                    if flow.sink.timer.fires(t) {
                        let ackno = flow.sink.on_timer();
                        self.inject_ack(f, ackno);
                    }
                    self.arm_sink(f);
                }
                Event::Start(f) => {
                    self.open_connection(f);
                    self.flows[f as usize].sender.start(t, &mut self.out);
                    self.transmit(f);
                }
                Event::Udp(i) => {
                    let source = &mut self.sources[i as usize];
                    let (size, next) = source.emit();
                    let route = source.route;
                    self.schedule(next, Event::Udp(i));
                    let id = self.alloc(i, route, PacketKind::Udp, size, 0, 0);
                    if self.measures_delay(PacketKind::Udp) {
                        self.packets
                            .set_options(id, TcpOptions { timestamp: self.now, ..Default::default() });
                    }
                    self.forward(id);
                }
                Event::Warmup => {
                    self.release_all_before(t);
                    self.open_window();
                }
                Event::Sample => self.sample(),
                Event::End => {
                    self.release_all_before(t);
                    return true;
                }
            }
        }
        false
    }

    /// Put `event` in the queue, due at `at`.
    #[inline]
    pub fn schedule(&mut self, at: Time, event: Event) {
        self.schedule_as(at, self.now, event);
    }

    /// Put `event` in the queue, due at `at`, ordered among its ties as if
    /// scheduled at `scheduled` (<= now; earlier for a packet from the
    /// other half of a split run) in the current event's half.
    #[inline]
    fn schedule_as(&mut self, at: Time, scheduled: Time, event: Event) {
        self.schedule_from(at, scheduled, self.origin, event);
    }

    #[inline]
    fn schedule_from(&mut self, at: Time, scheduled: Time, origin: u8, event: Event) {
        #[cfg(feature = "trace")]
        crate::sim::event::trace::push(at, event.tag());
        self.queue.push_from(at, scheduled, origin, event.into());
    }

    /// Hand the packet to the link of its current hop, through the link's
    /// pacer if it has one.
    #[inline]
    fn forward(&mut self, id: PacketId) {
        let hop = self.route_hops[self.packets.get(id).hop as usize];
        if !hop.has(Hop::PACED) {
            return self.transmit_packet(id);
        }
        let i = self.pacer_at[hop.link()];
        self.release(i);
        if !self.pacers[i as usize].arrive(self.now, id, self.packets.get(id).size) {
            self.packets.release(id);
            self.dropped += 1;
        }
        self.arm_pacer(i);
    }

    /// Put what pacer `i` has let out by now on its link, each packet at
    /// the moment it left.
    ///
    /// A pacer's packets go onto its link late, here, rather than by an
    /// event at each departure: nothing but the pacer feeds that link, so
    /// the link sees the same packets at the same times either way, and a
    /// packet put on it at t reaches the far end no sooner than t plus the
    /// link's delay. The pacer's timer therefore needs to fire only half
    /// that delay after its next departure ([`World::arm_pacer`]), and
    /// arrivals at the pacer let out what is due before they join it
    /// (E-base, edge-paced: 1.2 M pacer events instead of 7.2 M).
    fn release(&mut self, i: u32) {
        self.release_before(i, self.now + 1);
        // Nothing is left to leave by now, but the pacer moves on to it.
        self.pacers[i as usize].advance(self.now, &mut self.released);
        debug_assert!(self.released.is_empty(), "a departure the pacer had not announced");
    }

    /// Put pacer `i`'s departures before `t` on its link.
    fn release_before(&mut self, i: u32, t: Time) {
        while let Some(due) = self.pacers[i as usize].next_departure().filter(|&d| d < t) {
            self.release_at(i, due);
        }
    }

    /// Advance pacer `i` to `t` (<= now) and put the packets it lets out
    /// on its link at `t`.
    fn release_at(&mut self, i: u32, t: Time) {
        let mut released = std::mem::take(&mut self.released);
        self.pacers[i as usize].advance(t, &mut released);
        for id in released.drain(..) {
            self.carry(id, t, t);
        }
        self.released = released;
    }

    /// Every pacer lets out what left before `t`, at `t`'s events that
    /// precede any departure at `t` (the window opening, the end).
    fn release_all_before(&mut self, t: Time) {
        for i in 0..self.pacers.len() as u32 {
            if let (Some(cut), None) = (&self.cut, self.side) {
                self.origin = self.origin_of(cut, Event::Pace(i));
            }
            self.release_before(i, t);
        }
    }

    /// Arm pacer `i`'s timer for half its link's delay after its next departure.
    fn arm_pacer(&mut self, i: u32) {
        let link = self.net.pacers[i as usize].0 as usize;
        let slack = self.net.links[link].delay / 2;
        let p = &mut self.pacers[i as usize];
        match p.next_departure() {
            Some(at) => p.timer().set(at + slack),
            None => p.timer().cancel(),
        }
        if let Some(at) = p.timer().needs_event() {
            self.schedule(at, Event::Pace(i));
        }
    }

    /// Put the packet on the link of its current hop now.
    #[inline]
    fn transmit_packet(&mut self, id: PacketId) {
        self.carry(id, self.now, self.now);
    }

    /// Offer the packet to the link of its current hop at `at`, and straight
    /// on across any cut-through links after it (see
    /// `Network::mark_cut_through`); schedule its arrival at the end of the
    /// last one (as if scheduled at `sent`), or hand it to the other half
    /// at the end of a cut link.
    #[inline]
    fn carry(&mut self, id: PacketId, mut at: Time, sent: Time) {
        let net = &mut self.net;
        let p = self.packets.get_mut(id);
        let crossed = loop {
            let hop = self.route_hops[p.hop as usize];
            match net.links[hop.link()].offer(at, p.size, p.kind) {
                Some(t) => at = t,
                None => {
                    self.packets.release(id);
                    self.dropped += 1;
                    return;
                }
            }
            self.hops += 1;
            if hop.has(Hop::CROSSES) {
                break true;
            }
            if !hop.has(Hop::ONWARD) {
                break false;
            }
            p.hop += 1;
        };
        if crossed {
            let options = self.packets.attached_options(id);
            self.outbox.push(at, sent, self.origin, *self.packets.get(id), options);
            self.packets.release(id);
        } else {
            self.schedule_as(at, sent, Event::Arrive(id));
        }
    }

    /// Take in the packets the other half sent across, in order, but those
    /// due at or after `end`. Each reaches the far end of its cut link at
    /// `at` (later than anything this half has simulated) and goes on
    /// exactly as it would have in one world: across the cut-through links
    /// after the cut at once, or by an arrival event, ordered as if
    /// scheduled when the packet was sent across.
    pub fn receive(&mut self, inbox: &mut Outbox, end: Time) {
        inbox.drain(|c, options| {
            if c.at >= end {
                self.unreceived += 1;
                return;
            }
            let id = self.packets.adopt(c.packet);
            if let Some(options) = options {
                self.packets.set_options(id, options);
            }
            let p = self.packets.get_mut(id);
            if self.route_hops[p.hop as usize].has(Hop::ONWARD) {
                p.hop += 1;
                let origin = std::mem::replace(&mut self.origin, c.origin);
                self.carry(id, c.at, c.sent);
                self.origin = origin;
            } else {
                self.schedule_from(c.at, c.sent, c.origin, Event::Arrive(id));
            }
        });
    }

    /// A new packet of `flow`, at the start of its route.
    fn alloc(&mut self, flow: u32, route: u32, kind: PacketKind, size: u32, seq: i64, conn: u32) -> PacketId {
        let span = self.net.routes[route as usize].clone();
        self.packets.alloc(Packet { flow, hop: span.start, last_hop: span.end, kind, conn, size, seq })
    }

    /// The sink of `flow` acknowledges `ackno`, with its options if the
    /// sender reads them.
    fn inject_ack(&mut self, flow: u32, ackno: i64) {
        let f = &self.flows[flow as usize];
        let (options, rev, with_options, conn) = (f.sink.options(), f.path.rev, f.sender.uses_sack(), f.conn);
        let size = self.sizes.ack + SACK_BLOCK_BYTES * options.sack.as_slice().len() as u32;
        let id = self.alloc(flow, rev, PacketKind::Ack, size, ackno, conn);
        if with_options {
            self.packets.set_options(id, options);
        }
        self.forward(id);
    }

    fn arrive(&mut self, id: PacketId) {
        let p = self.packets.get_mut(id);
        p.hop += 1;
        if p.hop < p.last_hop {
            self.forward(id);
            return;
        }
        let p = *p;
        let options = self.packets.options(id);
        self.packets.release(id);
        self.delivered += 1;
        if let Some((kind, stats)) = &mut self.delay {
            if *kind == p.kind {
                let sent = if p.kind == PacketKind::Data { options.first_sent } else { options.timestamp };
                let delay = self.now - sent;
                stats.record(delay);
                if p.kind == PacketKind::Data {
                    let d = &mut self.flows[p.flow as usize].delays;
                    *d = (d.0 + 1, d.1 + u128::from(delay));
                }
            }
        }
        match p.kind {
            PacketKind::Data | PacketKind::Ack if !self.flows[p.flow as usize].accepts(p.conn) => {}
            PacketKind::Data => {
                let flow = &mut self.flows[p.flow as usize];
                if let Some(ackno) = flow.sink.on_data(p.seq, options.timestamp, self.now) {
                    self.inject_ack(p.flow, ackno);
                }
                self.arm_sink(p.flow);
            }
            PacketKind::Ack => {
                let flow = &mut self.flows[p.flow as usize];
                flow.sender.on_ack(p.seq, &options, self.now, &mut self.out);
                if flow.user.is_some() && flow.sender.done() {
                    self.finish_transfer(p.flow);
                }
                self.transmit(p.flow);
            }
            PacketKind::Udp => self.sources[p.flow as usize].received += 1,
        }
    }

    fn arm_sink(&mut self, f: u32) {
        if let Some(at) = self.flows[f as usize].sink.timer.needs_event() {
            self.schedule(at, Event::DelAck(f));
        }
    }

    /// A short-lived flow opens the connection for its user's next file:
    /// a new sender and sink, exactly like the flow's first ones.
    fn open_connection(&mut self, f: u32) {
        let first = self.setup.first_data();
        let flow = &mut self.flows[f as usize];
        let delivered = flow.delivered(first);
        let Some(user) = &mut flow.user else { return };
        let packets = user.begin(self.now, self.setup.tcp.segment_size) as i64;
        let stats = flow.sender.stats;
        flow.sender = self.setup.sender(f as usize, flow.sender.is_paced()).with_data(first + packets);
        flow.sender.stats = stats;
        flow.sink = self.setup.sink(&flow.sender);
        flow.delivered_before = delivered;
        flow.conn += 1;
    }

    /// A short-lived flow's transfer is acknowledged in full: record it,
    /// close the connection, and start the next after the user's think time.
    fn finish_transfer(&mut self, f: u32) {
        let now = self.now;
        let flow = &mut self.flows[f as usize];
        flow.sender.close();
        flow.cwnd.set(now, None);
        let (transfer, next) = flow.user.as_mut().expect("a short-lived flow").finish(now);
        self.transfers.push((f, transfer));
        self.schedule(next, Event::Start(f));
    }

    /// Send what the flow's sender emitted, arm its timers, and note its window.
    fn transmit(&mut self, f: u32) {
        let mut out = std::mem::take(&mut self.out);
        let flow = &self.flows[f as usize];
        let stamped = flow.sender.uses_sack() || self.measures_delay(PacketKind::Data);
        let (route, conn) = (flow.path.fwd, flow.conn);
        for seq in out.drain(..) {
            let size = match self.sizes.syn {
                Some(syn) if seq == 0 => syn,
                _ => self.sizes.data,
            };
            let id = self.alloc(f, route, PacketKind::Data, size, seq, conn);
            if stamped {
                let first_sent = self.flows[f as usize].sender.first_sent(seq).unwrap_or(self.now);
                self.packets
                    .set_options(id, TcpOptions { timestamp: self.now, first_sent, ..Default::default() });
            }
            self.forward(id);
        }
        self.out = out;
        let flow = &mut self.flows[f as usize];
        if flow.active() {
            flow.cwnd.set(self.now, Some(flow.sender.w.cwnd));
        }
        if let Some(at) = flow.sender.rtx.needs_event() {
            self.schedule(at, Event::Rto(f));
        }
        if let Some(at) = self.flows[f as usize].sender.pace.needs_event() {
            self.schedule(at, Event::HostPace(f));
        }
    }

    /// Whether the one-way delay of packets of `kind` is measured (they are then stamped when sent).
    fn measures_delay(&self, kind: PacketKind) -> bool {
        self.delay.as_ref().is_some_and(|(k, _)| *k == kind)
    }

    /// Note every flow's progress, and sample again an interval later.
    fn sample(&mut self) {
        let first = self.setup.first_data();
        let segment = self.setup.tcp.segment_size;
        // A split run samples each flow in the half that has its sink.
        let sampled: Vec<bool> = (0..self.flows.len()).map(|f| self.owns_sink(f)).collect();
        let Some((interval, table)) = &mut self.progress else { return };
        for (i, f) in self.flows.iter().enumerate().filter(|&(i, _)| sampled[i]) {
            table.t_s.push(crate::sim::time::secs(self.now));
            table.flow.push(i as u32);
            table.bytes.push(f.data_delivered(first) as u64 * segment);
        }
        let next = self.now + *interval;
        self.schedule(next, Event::Sample);
    }

    /// The measurement window opens: links open theirs themselves
    /// (`Link::set_window`); flows and pacers start counting afresh.
    fn open_window(&mut self) {
        let first = self.setup.first_data();
        for f in &mut self.flows {
            f.delivered_at_warmup = f.delivered(first);
            f.stats_at_warmup = f.sender.stats;
            f.cwnd.restart(self.now);
            f.delays = (0, 0);
        }
        for p in &mut self.pacers {
            p.restart_stats();
        }
        if let Some((_, stats)) = &mut self.delay {
            stats.restart();
        }
    }

    /// Packets the event queue carries (each live packet is on exactly one
    /// link) plus those held by pacers.
    pub fn packets_in_queue(&self) -> u64 {
        let on_links = self.queue.iter().filter(|&&e| matches!(Event::from(e), Event::Arrive(_))).count();
        let pacing: usize = self.pacers.iter().map(|p| p.queued()).sum();
        (on_links + pacing) as u64
    }
}
