//! Adding a component, in test code only: a small one of each kind written
//! against the engine's public seams, each checked against a hand-computed
//! case. Each is what a new component's file would hold; what plugging it
//! into a scenario takes beyond the file (the registry lines, in non-test
//! code) is listed in ARCHITECTURE.md ("What adding one takes").
//!
//! - a fixed-rate pacer (`pacing::LinkPacer`);
//! - a fixed-window congestion control (`tcp::CongestionControl`), driven
//!   by the real sender with Reno recovery;
//! - a two-node line topology (a builder to a `topology::Graph`), built into
//!   a network and run as a scenario's written-out graph.

use pacesim_core::metrics::DelayStats;
use pacesim_core::net::queue::{Core, QueueKind};
use pacesim_core::net::{PacketId, TcpOptions};
use pacesim_core::pacing::LinkPacer;
use pacesim_core::sim::time::tx_time;
use pacesim_core::sim::timer::Timer;
use pacesim_core::sim::Time;
use pacesim_core::tcp::rtt::RttEstimator;
use pacesim_core::tcp::{Congestion, CongestionControl, Recovery, TcpSender, Window};
use pacesim_core::topology::graph::{FlowSpec, Graph, LinkSpec};
use pacesim_core::{run, Scenario};
use std::collections::VecDeque;

const MS: Time = 1_000_000;

/// A pacer letting packets out at a fixed rate: a packet of L bytes leaves
/// L * 8 / rate after the one before it, or at once if the pacer is idle.
struct FixedRate {
    rate: u64,
    /// Packets waiting, with their departure times.
    queue: VecDeque<(PacketId, Time, Time)>,
    /// When the last packet scheduled has left.
    free_at: Time,
    timer: Timer,
    delays: DelayStats,
}

impl FixedRate {
    fn new(rate: u64) -> Self {
        FixedRate {
            rate,
            queue: VecDeque::new(),
            free_at: 0,
            timer: Timer::default(),
            delays: DelayStats::default(),
        }
    }
}

impl LinkPacer for FixedRate {
    fn arrive(&mut self, now: Time, id: PacketId, size: u32) -> bool {
        let leaves = self.free_at.max(now);
        self.free_at = leaves + tx_time(u64::from(size), self.rate);
        self.queue.push_back((id, now, leaves));
        true
    }

    fn advance(&mut self, now: Time, out: &mut Vec<PacketId>) {
        while let Some(&(id, arrived, leaves)) = self.queue.front() {
            if leaves > now {
                break;
            }
            self.queue.pop_front();
            self.delays.record(leaves - arrived);
            out.push(id);
        }
    }

    fn next_departure(&self) -> Option<Time> {
        self.queue.front().map(|p| p.2)
    }

    fn queued(&self) -> usize {
        self.queue.len()
    }

    fn rate_bps(&self) -> f64 {
        self.rate as f64
    }

    fn timer(&mut self) -> &mut Timer {
        &mut self.timer
    }

    fn delays(&mut self) -> &mut DelayStats {
        &mut self.delays
    }
}

/// 1 Mb/s: a 1000-byte packet takes 8 ms, a 500-byte one 4 ms. Packets of
/// 1000, 1000, 500 bytes at 0, 1, 2 ms leave at 0, 8, 16 ms; one of 1000
/// bytes at 30 ms finds the pacer idle (free since 20 ms) and leaves at once.
#[test]
fn a_fixed_rate_pacer_spaces_departures_by_size_over_rate() {
    let mut p = FixedRate::new(1_000_000);
    let mut out = vec![];
    let mut departures = vec![];
    for (id, (at, size)) in [(0, 1000), (MS, 1000), (2 * MS, 500), (30 * MS, 1000)].into_iter().enumerate() {
        // Let out what is due before the next arrival, at its departure time.
        while let Some(t) = p.next_departure().filter(|&t| t <= at) {
            p.advance(t, &mut out);
            departures.push(t);
        }
        p.advance(at, &mut out);
        assert!(p.arrive(at, id as PacketId, size));
    }
    while let Some(t) = p.next_departure() {
        p.advance(t, &mut out);
        departures.push(t);
    }
    assert_eq!(out, vec![0, 1, 2, 3]);
    assert_eq!(departures, vec![0, 8 * MS, 16 * MS, 30 * MS]);
    // Delays 0, 7, 14, 0 ms.
    assert_eq!(p.delays().mean(), 21.0 * MS as f64 / 4.0);
}

/// A congestion control that keeps the window at `w` packets whatever happens.
struct FixedWindow(f64);

impl CongestionControl for FixedWindow {
    fn name(&self) -> &'static str {
        "fixed"
    }

    fn on_ack(&mut self, w: &mut Window, _now: Time) {
        w.cwnd = self.0;
    }

    fn on_congestion(&mut self, w: &mut Window, _flight: f64, _event: Congestion, _now: Time) {
        w.cwnd = self.0;
    }
}

/// With no SYN and an initial window of 4 the sender sends 0..=3; with the
/// window fixed at 4, each new ACK releases exactly one packet (ACK of k
/// sends k + 4), and a lost packet's three duplicates fast-retransmit it
/// without shrinking the window; Reno's recovery then inflates the window
/// by 3 at once and by one per further duplicate.
#[test]
fn a_fixed_window_congestion_control_plugs_into_the_sender() {
    let rtt = RttEstimator::new(10 * MS, 0, 200 * MS, 60_000 * MS, 3_000 * MS);
    let mut tx = TcpSender::new((Box::new(FixedWindow(4.0)), Recovery::reno()), 100, 4, false, rtt);
    let mut out = vec![];
    tx.start(0, &mut out);
    assert_eq!(out, vec![0, 1, 2, 3]);
    let ack = TcpOptions::default();
    for k in 0..3 {
        out.clear();
        tx.on_ack(k, &ack, 100 * MS, &mut out);
        assert_eq!(out, vec![k + 4], "ACK of {k}");
    }
    assert_eq!(tx.state.w.cwnd, 4.0);
    // Packet 3 lost: packets 4, 5, 6 arrive and each is acknowledged as 2.
    let mut sent = vec![];
    for _ in 0..4 {
        out.clear();
        tx.on_ack(2, &ack, 200 * MS, &mut out);
        sent.push(out.clone());
    }
    // Duplicates 1 and 2: limited transmit (cwnd 4 + dupacks allows 7, 8);
    // 3: fast retransmit of 3 with the window kept at 4, inflated by 3:
    // 2 + 4 + 3 = 9 goes too; 4: inflated by one more, 10.
    assert_eq!(sent, vec![vec![7], vec![8], vec![3, 9], vec![10]]);
    assert_eq!(tx.state.w.cwnd, 4.0);
    assert_eq!(tx.state.stats.fast_retransmits, 1);
}

/// A topology builder: two hosts joined by one link, the core (its rate,
/// delay and queue from `[core]`), one flow from `a` to `b`.
fn two_node_line() -> Graph {
    Graph {
        nodes: vec![],
        hosts: vec!["a".into(), "b".into()],
        links: vec![LinkSpec::core("a", "b")],
        flows: vec![FlowSpec { from: "a".into(), to: "b".into() }],
    }
}

/// A 10 Mb/s, 20 ms core: a 1040-byte data packet takes 0.832 ms out, a 40-byte
/// ACK 0.032 ms back, so the idle round trip is 40.864 ms; and a run of it
/// as a scenario's written-out graph delivers data with packets conserved.
#[test]
fn a_two_node_line_topology_builds_and_runs() {
    let g = two_node_line();
    let core = Core {
        rate: 10_000_000,
        delay: 20 * MS,
        buffer: 100_000,
        buffer_packets: None,
        queue: QueueKind::Droptail,
        red: Default::default(),
    };
    let net = g.build(&core, 1, false).unwrap();
    assert_eq!(net.base_rtt(0, 1040, 40), 40 * MS + 832_000 + 32_000);

    let graph = serde_json::to_value(&g).unwrap();
    let mut topology = graph.as_object().unwrap().clone();
    topology.insert("kind".into(), "graph".into());
    let json = format!(
        r#"{{"seed":1,"duration":5000000000,"warmup":1000000000,"topology":{},
        "core":{{"rate":10000000,"delay":20000000,"buffer":100000,"queue":"droptail"}},
        "tcp":{{"variant":"reno","segment_size":1000,"header_size":40,"ack_size":40,"window":20,"initial_window":2,"syn":true,"tick":10000000,"min_rto":200000000,"max_rto":60000000000,"initial_rto":3000000000}},
        "traffic":{{"start":[0,0]}}}}"#,
        serde_json::Value::Object(topology)
    );
    let s = Scenario::from_json(&json).unwrap();
    let r = run(&s).unwrap();
    let c = &r.conservation;
    assert_eq!(c.created, c.delivered + c.dropped + c.in_flight);
    // A 20-packet window over a 40.864 ms round trip: 20 * 8320 wire bits
    // per round trip, 4.072 Mb/s, under the 10 Mb/s link: no drop, and the
    // rate the window allows, within 1 % (the window's edges).
    assert_eq!(c.dropped, 0);
    let want = 20.0 * 8320.0 / 40.864e-3 / 1e6;
    let mbps = r.summary.aggregate_mbps;
    assert!((mbps - want).abs() / want < 0.01, "{mbps} against {want}");
}
