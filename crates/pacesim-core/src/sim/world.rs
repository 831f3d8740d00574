//! The world: every link, pacer and flow of a run, and the dispatch of
//! events to them. One `match` handles every kind: a packet reaching the far
//! end of a link, a retransmission timer, a pacer releasing packets, a paced
//! sender or a delayed ACK becoming due, a flow starting, and the edges of
//! the measurement window.

use crate::net::{Packet, PacketArena, PacketId, PacketKind, TcpOptions};
use crate::pacing::Pacer;
use crate::sim::{EventQueue, Time};
use crate::tcp::sender::SenderStats;
use crate::tcp::{TcpSender, TcpSink};
use crate::topology::{FlowPath, Network};
use crate::traffic::udp::UdpSource;

const NO_PACER: u32 = u32::MAX;

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
    /// A flow's application starts.
    Start(u32),
    /// A UDP source's next packet is due.
    Udp(u32),
    /// The measurement window opens.
    Warmup,
    /// The run ends.
    End,
}

#[cfg(feature = "trace")]
impl Event {
    /// The kind of event, numbered in declaration order from 0.
    pub fn tag(&self) -> u8 {
        match self {
            Event::Arrive(_) => 0,
            Event::Rto(_) => 1,
            Event::Pace(_) => 2,
            Event::HostPace(_) => 3,
            Event::DelAck(_) => 4,
            Event::Start(_) => 5,
            Event::Udp(_) => 6,
            Event::Warmup => 7,
            Event::End => 8,
        }
    }
}

pub struct Flow {
    pub sender: TcpSender,
    pub sink: TcpSink,
    pub path: FlowPath,
    pub start: Time,
    /// Sink progress and sender counters when the window opened.
    pub delivered_at_warmup: i64,
    pub stats_at_warmup: SenderStats,
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
    pub queue: EventQueue<Event>,
    pub packets: PacketArena,
    pub net: Network,
    pub flows: Vec<Flow>,
    pub sources: Vec<UdpSource>,
    pub pacers: Vec<Pacer>,
    /// For each link, the index of the pacer in front of it, or `NO_PACER`.
    pacer_at: Vec<u32>,
    sizes: Sizes,
    /// Scratch buffers: sequence numbers a sender emits, packets a pacer releases.
    out: Vec<i64>,
    released: Vec<PacketId>,
    pub delivered: u64,
    pub dropped: u64,
    pub hops: u64,
}

impl World {
    pub fn new(net: Network, flows: Vec<Flow>, sources: Vec<UdpSource>, sizes: Sizes) -> Self {
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
        World {
            now: 0,
            queue: EventQueue::default(),
            packets: PacketArena::default(),
            net,
            flows,
            sources,
            pacers,
            pacer_at,
            sizes,
            out: Vec::new(),
            released: Vec::new(),
            delivered: 0,
            dropped: 0,
            hops: 0,
        }
    }

    /// Run events until `End`, telling `progress` the simulated time every
    /// 2^20 events.
    pub fn run(&mut self, progress: &mut dyn FnMut(Time)) {
        while let Some((t, ev)) = self.queue.pop() {
            #[cfg(feature = "trace")]
            crate::sim::event::trace::pop();
            self.now = t;
            if self.queue.popped() & 0xf_ffff == 0 {
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
                    if self.pacers[i as usize].timer().fires(t) {
                        self.release(i);
                    }
                    self.arm_pacer(i);
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
                    self.flows[f as usize].sender.start(t, &mut self.out);
                    self.transmit(f);
                }
                Event::Udp(i) => {
                    let source = &mut self.sources[i as usize];
                    let (size, next) = source.emit();
                    let route = source.route;
                    self.schedule(next, Event::Udp(i));
                    let id = self.alloc(i, route, PacketKind::Udp, size, 0);
                    self.forward(id);
                }
                Event::Warmup => self.open_window(),
                Event::End => break,
            }
        }
    }

    /// Put `event` in the queue, due at `at`.
    #[inline]
    pub fn schedule(&mut self, at: Time, event: Event) {
        #[cfg(feature = "trace")]
        crate::sim::event::trace::push(at, event.tag());
        self.queue.push(at, event);
    }

    /// Hand the packet to the link of its current hop, through the link's
    /// pacer if it has one.
    #[inline]
    fn forward(&mut self, id: PacketId) {
        let link = self.net.hops[self.packets.get(id).hop as usize];
        match self.pacer_at[link as usize] {
            NO_PACER => self.transmit_packet(id),
            i => {
                self.release(i);
                if !self.pacers[i as usize].arrive(self.now, id, self.packets.get(id).size) {
                    self.packets.release(id);
                    self.dropped += 1;
                }
                self.arm_pacer(i);
            }
        }
    }

    /// Send what pacer `i` has released by now onto its link.
    fn release(&mut self, i: u32) {
        let mut released = std::mem::take(&mut self.released);
        self.pacers[i as usize].advance(self.now, &mut released);
        for id in released.drain(..) {
            self.transmit_packet(id);
        }
        self.released = released;
    }

    fn arm_pacer(&mut self, i: u32) {
        let p = &mut self.pacers[i as usize];
        match p.next_departure() {
            Some(at) => p.timer().set(at),
            None => p.timer().cancel(),
        }
        if let Some(at) = p.timer().needs_event() {
            self.schedule(at, Event::Pace(i));
        }
    }

    /// Put the packet on the link of its current hop, and straight on across
    /// any cut-through links after it (see `Network::mark_cut_through`);
    /// schedule its arrival at the end of the last one.
    #[inline]
    fn transmit_packet(&mut self, id: PacketId) {
        let net = &mut self.net;
        let p = self.packets.get_mut(id);
        let mut at = self.now;
        loop {
            let link = net.hops[p.hop as usize] as usize;
            match net.links[link].offer(at, p.size, p.kind) {
                Some(t) => at = t,
                None => {
                    self.packets.release(id);
                    self.dropped += 1;
                    return;
                }
            }
            self.hops += 1;
            let next = p.hop + 1;
            if next == p.last_hop || !net.cut_through[net.hops[next as usize] as usize] {
                break;
            }
            p.hop = next;
        }
        self.schedule(at, Event::Arrive(id));
    }

    /// A new packet of `flow`, at the start of its route.
    fn alloc(&mut self, flow: u32, route: u32, kind: PacketKind, size: u32, seq: i64) -> PacketId {
        let span = self.net.routes[route as usize].clone();
        self.packets.alloc(Packet { flow, hop: span.start, last_hop: span.end, kind, size, seq })
    }

    /// The sink of `flow` acknowledges `ackno`, with its options if the
    /// sender reads them.
    fn inject_ack(&mut self, flow: u32, ackno: i64) {
        let f = &self.flows[flow as usize];
        let (options, rev, with_options) = (f.sink.options(), f.path.rev, f.sender.uses_sack());
        let size = self.sizes.ack + SACK_BLOCK_BYTES * options.sack.as_slice().len() as u32;
        let id = self.alloc(flow, rev, PacketKind::Ack, size, ackno);
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
        match p.kind {
            PacketKind::Data => {
                let flow = &mut self.flows[p.flow as usize];
                if let Some(ackno) = flow.sink.on_data(p.seq, options.timestamp, self.now) {
                    self.inject_ack(p.flow, ackno);
                }
                self.arm_sink(p.flow);
            }
            PacketKind::Ack => {
                self.flows[p.flow as usize].sender.on_ack(p.seq, &options, self.now, &mut self.out);
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

    /// Send what the flow's sender emitted and arm its timers.
    fn transmit(&mut self, f: u32) {
        let mut out = std::mem::take(&mut self.out);
        let route = self.flows[f as usize].path.fwd;
        let stamped = self.flows[f as usize].sender.uses_sack();
        for seq in out.drain(..) {
            let size = match self.sizes.syn {
                Some(syn) if seq == 0 => syn,
                _ => self.sizes.data,
            };
            let id = self.alloc(f, route, PacketKind::Data, size, seq);
            if stamped {
                self.packets.set_options(id, TcpOptions { timestamp: self.now, ..Default::default() });
            }
            self.forward(id);
        }
        self.out = out;
        if let Some(at) = self.flows[f as usize].sender.rtx.needs_event() {
            self.schedule(at, Event::Rto(f));
        }
        if let Some(at) = self.flows[f as usize].sender.pace.needs_event() {
            self.schedule(at, Event::HostPace(f));
        }
    }

    /// The measurement window opens: links open theirs themselves
    /// (`Link::set_window`); flows and pacers start counting afresh.
    fn open_window(&mut self) {
        for f in &mut self.flows {
            f.delivered_at_warmup = f.sink.delivered();
            f.stats_at_warmup = f.sender.stats;
        }
        for p in &mut self.pacers {
            p.restart_stats();
        }
    }

    /// Packets the event queue carries (each live packet is on exactly one
    /// link) plus those held by pacers.
    pub fn packets_in_queue(&self) -> u64 {
        let on_links = self.queue.iter().filter(|e| matches!(e, Event::Arrive(_))).count();
        let pacing: usize = self.pacers.iter().map(|p| p.queued()).sum();
        (on_links + pacing) as u64
    }
}
