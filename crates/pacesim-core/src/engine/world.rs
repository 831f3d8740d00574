//! The world: every link, pacer and flow of a run, and the dispatch of
//! events to them. One `match` handles every kind: a packet reaching the far
//! end of a link, a retransmission timer, a pacer releasing packets, a paced
//! sender or a delayed ACK becoming due, a flow starting (or a short-lived
//! one opening its next connection), a Tmix connection starting, one of its
//! applications' timers or a packet leaving its DelayBox, and the edges of
//! the measurement window.
//!
//! The world's work is spread over files by concept: the events
//! ([`event`]), a flow's two ends ([`flow`]), a packet's way along its
//! route to its endpoint ([`forward`]), pacers putting packets on their
//! links ([`pace`]), queues that hold their packets letting them go
//! ([`held`]), the connections of short-lived flows ([`connection`]),
//! Tmix clouds ([`tmix`]),
//! what the world measures ([`measure`]) and records over time ([`series`]),
//! and the bookkeeping of a network
//! split in two halves ([`split`]).

mod ahead;
mod connection;
pub mod event;
pub mod flow;
mod forward;
mod held;
mod hop;
mod measure;
mod pace;
mod series;
mod split;
mod tmix;
mod traced;

use crate::pacing::LinkPacer;
pub use event::{Event, Packed};
pub use flow::{Ends, Flow, SenderEnd, SenderMeasured, SinkEnd, SinkMeasured, Sizes, SACK_BLOCK_BYTES};
use hop::Hop;
pub use series::{attach_links, Series};
pub(crate) use tmix::{connect as connect_tmix, Tmix};

use crate::engine::partition::{Cut, Outbox};
use crate::metrics::DelayStats;
use crate::net::discipline::Queued;
use crate::net::packet_trace::PacketTrace;
use crate::net::{Packet, PacketArena, PacketId, PacketKind, TcpOptions};
use crate::pacing::Pacer;
use crate::report::ProgressTable;
use crate::sim::{EventQueue, Time};
use crate::tcp::TcpSetup;
use crate::topology::Network;
use crate::traffic::short::Transfer;
use crate::traffic::udp::UdpSource;

use std::sync::Arc;

const NO_PACER: u32 = u32::MAX;

pub struct World {
    pub now: Time,
    pub queue: EventQueue<Packed>,
    pub packets: PacketArena,
    pub net: Network,
    pub flows: Vec<Flow>,
    /// The senders and the sinks of the flows this world simulates that
    /// end of (every flow's in one world; a half's own, see [`Ends`]).
    pub senders: Ends<SenderEnd>,
    pub sinks: Ends<SinkEnd>,
    /// What is measured of each flow's sender and sink now and then, where
    /// the end is (`flow::SenderMeasured`, `flow::SinkMeasured`).
    pub measured_senders: Ends<SenderMeasured>,
    pub measured_sinks: Ends<SinkMeasured>,
    pub sources: Vec<UdpSource>,
    pub pacers: Vec<Pacer>,
    /// How each connection's sender and sink are built.
    pub setup: TcpSetup,
    /// The measurement window [start, end], ns (`Scenario::warmup`, `duration`).
    pub window: [Time; 2],
    /// Finished short-lived transfers, by flow, in the order they finished.
    pub transfers: Vec<(u32, Transfer)>,
    /// Progress samples and their interval, when sampled.
    pub progress: Option<(Time, ProgressTable)>,
    /// One-way delays of the delivered packets of one class, when measured.
    pub delay: Option<(PacketKind, DelayStats)>,
    /// Whether each flow's transit delays are measured (`Flow::transit`;
    /// its data packets are then stamped when sent).
    pub measures_transit: bool,
    /// The flows' and pacers' time series, when recorded.
    pub series: Option<Box<Series>>,
    /// The packet trace of some links, when asked for (see [`traced`]).
    pub trace: Option<Box<PacketTrace>>,
    /// The Tmix clouds, when the scenario has any (see [`tmix`]), and the
    /// first flow that is a Tmix end (`u32::MAX` without: every per-packet
    /// check is one comparison).
    pub tmix: Option<Box<Tmix>>,
    tmix_from: u32,
    /// Where the network splits in two, if it does (`engine::partition`), and
    /// the half this world simulates if it simulates only one.
    pub cut: Option<Cut>,
    pub side: Option<u8>,
    /// The half the current event happens in: equal-time events pop in the
    /// order they were scheduled, and those scheduled at the same instant
    /// in half 0 before half 1, so that one world and two halves agree.
    origin: u8,
    /// Every route's hops, as `net.routes` has their links: written only
    /// while the world is made ([`hop::unshared`]), then shared with the
    /// other half of a split run, whose are the same ([`World::share_routes`]).
    route_hops: Arc<[Hop]>,
    /// Whether the events ahead are prepared for ([`ahead`]): only in a
    /// network too large for the caches.
    prepares: bool,
    /// The packets that reached the far end of a link into the other half
    /// and are not yet handed over.
    pub outbox: Outbox,
    /// Packets from the other half due at or after the end, not taken in.
    pub unreceived: u64,
    /// Those packets and when they reach the far end of their cut link:
    /// counted by [`World::count_late_arrivals`] once the half has ended
    /// (they may come while it still runs, before its sink has had the
    /// packets due ahead of them).
    late: Vec<(Time, Packet)>,
    /// For each link, the index of the pacer in front of it, or `NO_PACER`
    /// (shared as `route_hops`).
    pacer_at: Arc<[u32]>,
    /// The pacers in front of a cut link.
    pacing_across: Vec<u32>,
    /// Wire sizes of the packets TCP sends.
    pub sizes: Sizes,
    /// Scratch buffers: sequence numbers a sender emits (and their ECN
    /// bits), packets a pacer
    /// releases, packets a queue that holds its packets drops.
    out: Vec<i64>,
    /// The ECN bits of `out`'s packets, for a sender that uses ECN.
    ecn_bits: Vec<u8>,
    released: Vec<PacketId>,
    queue_drops: Vec<Queued>,
    /// The links a packet trace records (empty without one).
    traced_links: Vec<u32>,
    pub delivered: u64,
    pub dropped: u64,
    pub hops: u64,
}

impl World {
    pub fn new(
        net: Network,
        (flows, senders, sinks): (Vec<Flow>, Ends<SenderEnd>, Ends<SinkEnd>),
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
        let mut route_hops: Arc<[Hop]> = net
            .routes
            .hops()
            .iter()
            .map(|&l| {
                assert!(l < Hop::MARKS, "link id {l} needs more than 26 bits");
                let (paced, holds) = (pacer_at[l as usize] != NO_PACER, net.links[l as usize].holds());
                assert!(!(paced && holds), "link {l}: a pacer in front of a queue that holds its packets");
                // A queue that marks is waited for as a held one is (`forward_held`).
                let marks = net.links[l as usize].marks();
                Hop(l
                    | if marks { Hop::MARKS } else { 0 }
                    | if paced || holds || marks { Hop::HELD } else { 0 })
            })
            .collect();
        let hops = hop::unshared(&mut route_hops);
        for r in 0..net.routes.len() as u32 {
            let span = net.routes.span(r);
            let route = &mut hops[span.start as usize..span.end as usize];
            for (hop, &next) in route.iter_mut().zip(net.routes.get(r).iter().skip(1)) {
                if net.cut_through[next as usize] {
                    hop.0 |= Hop::ONWARD;
                }
            }
        }
        let flows_len = flows.len();
        let measured_senders = Ends::of(senders.span(), |_| SenderMeasured::default());
        let measured_sinks = Ends::of(sinks.span(), |_| SinkMeasured::default());
        World {
            now: 0,
            queue: EventQueue::default(),
            packets: PacketArena::default(),
            net,
            flows,
            senders,
            sinks,
            measured_senders,
            measured_sinks,
            sources,
            pacers,
            setup,
            window: [0, Time::MAX],
            transfers: Vec::new(),
            progress: None,
            delay: None,
            measures_transit: false,
            series: None,
            trace: None,
            tmix: None,
            tmix_from: u32::MAX,
            cut: None,
            side: None,
            origin: 0,
            route_hops,
            prepares: Self::prepares_for(flows_len),
            outbox: Outbox::default(),
            unreceived: 0,
            late: Vec::new(),
            pacing_across: Vec::new(),
            pacer_at: pacer_at.into(),
            sizes,
            out: Vec::new(),
            ecn_bits: Vec::new(),
            released: Vec::new(),
            queue_drops: Vec::new(),
            traced_links: Vec::new(),
            delivered: 0,
            dropped: 0,
            hops: 0,
        }
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
            if self.prepares {
                self.prepare_ahead();
            }
            match ev {
                Event::Arrive(id) => self.arrive(id),
                Event::Rto(f) => {
                    let sender = &mut self.senders[f as usize];
                    if sender.state.rtx.fires(t) {
                        sender.on_timeout(t, &mut self.out);
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
                    let sender = &mut self.senders[f as usize];
                    if sender.state.pace.fires(t) {
                        sender.on_pace(t, &mut self.out);
                    }
                    self.transmit(f);
                }
                Event::DelAck(f) => {
                    let sink = &mut self.sinks[f as usize];
                    if sink.timer.fires(t) {
                        let (ackno, ece) = (sink.on_timer(), sink.ece());
                        self.inject_ack(f, ackno, ece);
                    }
                    self.arm_sink(f);
                }
                Event::Start(f) => {
                    self.open_connection(f);
                    self.senders[f as usize].start(t, &mut self.out);
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
                Event::Transmit(l) => {
                    self.net.links[l as usize].transmit_popped(t);
                    self.start_held(l);
                }
                Event::End => {
                    self.release_all_before(t);
                    return true;
                }
                Event::TmixStart(c) => self.tmix_start(c),
                Event::TmixApp(f) => self.tmix_timer(f),
                Event::Delayed(id) => {
                    let hop = self.route_hops[self.packets.get(id).hop as usize];
                    self.forward_held(id, hop);
                }
            }
        }
        false
    }

    /// Put `event` in the queue, due at `at`. (The three steps always
    /// inlined: left to the compiler, `transmit`'s calls went out of line
    /// once the flows' ends moved out of `Flow`, 0.4 % more instructions
    /// at paper size.)
    #[inline(always)]
    pub fn schedule(&mut self, at: Time, event: Event) {
        self.schedule_as(at, (self.now, 0), event);
    }

    /// Put `event` in the queue, due at `at`, ordered among its ties as if
    /// scheduled at `scheduled.0`, `scheduled.1` resumes into a train of
    /// packets (see `EventQueue::push_from`), in the current event's half.
    #[inline(always)]
    fn schedule_as(&mut self, at: Time, scheduled: (Time, u16), event: Event) {
        self.schedule_from(at, scheduled, self.origin, event);
    }

    #[inline(always)]
    fn schedule_from(&mut self, at: Time, (scheduled, place): (Time, u16), origin: u8, event: Event) {
        #[cfg(feature = "trace")]
        crate::sim::event::trace::push(at, event.tag());
        self.queue.push_from(at, scheduled, place, origin, event.into());
    }
}

/// A small world for the engine's unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::World;
    use crate::engine::build::build_world;
    use crate::scenario::Scenario;

    /// h1 -> a at 100 Mb/s and 1 ms, the core a -> b at 10 Mb/s and 20 ms
    /// with `buffer` bytes of drop-tail queue, b -> h2 at 100 Mb/s and
    /// 1 ms; one TCP flow and one UDP source h1 -> h2.
    pub fn line_scenario(buffer: u64) -> Scenario {
        let json = format!(
            r#"{{"seed": 1, "duration": 60000000000, "warmup": 10000000000,
            "topology": {{"kind": "graph", "nodes": ["a", "b"], "hosts": ["h1", "h2"],
              "links": [{{"from": "h1", "to": "a", "rate": [100000000, 100000000], "delay": [1000000, 1000000]}},
                        {{"from": "a", "to": "b", "core": true}},
                        {{"from": "b", "to": "h2", "rate": [100000000, 100000000], "delay": [1000000, 1000000]}}],
              "flows": [{{"from": "h1", "to": "h2"}}]}},
            "core": {{"rate": 10000000, "delay": 20000000, "buffer": {buffer}, "queue": "droptail"}},
            "tcp": {{"variant": "reno", "segment_size": 1000, "header_size": 40, "ack_size": 40, "window": 20,
              "initial_window": 2, "syn": true, "tick": 10000000, "min_rto": 200000000,
              "max_rto": 60000000000, "initial_rto": 3000000000}},
            "traffic": {{"start": [0, 0],
              "udp": [{{"kind": "cbr", "rate": 1000000, "size": {{"range": [1040, 1040]}}, "start": 0, "from": "h1", "to": "h2"}}]}}}}"#
        );
        Scenario::from_json(&json).expect("a valid scenario")
    }

    /// The world of [`line_scenario`], nothing started.
    pub fn line(buffer: u64) -> World {
        build_world(&line_scenario(buffer), &|_| None).expect("a network")
    }
}
