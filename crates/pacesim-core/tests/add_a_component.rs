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
//!   a network and run as a scenario's written-out graph;
//! - a drop-head queue discipline (`net::discipline::Discipline`, in the
//!   registry as `net::Queue::Other`), on a link and in a run of the
//!   two-node line (`run_with`, which puts it on the core).
//!
//! Files each touched, beyond this one: none for the pacer, the congestion
//! control and the topology; for the drop-head queue, the seam it needed
//! (`Discipline::holds`, `enqueue` and `dequeue`, `Queue::Other`,
//! `Link::enqueue`/`next_held`, `run_with`): `net/discipline.rs`,
//! `net/queue.rs`, `net/droptail.rs`, `net/red.rs`, `net/link.rs`,
//! `metrics/link_stats.rs`, `net/packet_trace.rs`, `engine/build.rs`,
//! `engine/run.rs`, `engine/world.rs`, `engine/world/{event, forward, held,
//! measure, split, traced}.rs`, `lib.rs` (and a test's call in
//! `engine/parallel.rs`); no Python.

use pacesim_core::metrics::DelayStats;
use pacesim_core::net::core_link::Core;
use pacesim_core::net::discipline::{Arrival, Discipline, Limits, Queued, Verdict};
use pacesim_core::net::{Link, PacketId, PacketKind, Queue, TcpOptions};
use pacesim_core::pacing::LinkPacer;
use pacesim_core::sim::time::tx_time;
use pacesim_core::sim::timer::Timer;
use pacesim_core::sim::Time;
use pacesim_core::tcp::rtt::RttEstimator;
use pacesim_core::tcp::{Congestion, CongestionControl, Recovery, TcpSender, Window};
use pacesim_core::topology::graph::{FlowSpec, Graph, LinkSpec};
use pacesim_core::{run, run_with, Scenario};
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
        tx.on_ack(k, false, &ack, 100 * MS, &mut out);
        assert_eq!(out, vec![k + 4], "ACK of {k}");
    }
    assert_eq!(tx.state.w.cwnd, 4.0);
    // Packet 3 lost: packets 4, 5, 6 arrive and each is acknowledged as 2.
    let mut sent = vec![];
    for _ in 0..4 {
        out.clear();
        tx.on_ack(2, false, &ack, 200 * MS, &mut out);
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
    let core = Core::droptail(10_000_000, 20 * MS, 100_000);
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

/// A drop-head queue in bytes: an arrival joins the queue while the bytes
/// waiting, its own included, stay within `limit`; past it, the packet at
/// the head of the queue (the oldest waiting) is dropped, and the arrival
/// joins: one packet per arrival, as Linux's `pfifo_head_drop` does in
/// packets. (So the limit binds only for packets of one size: a large
/// arrival dropping a small head leaves more bytes than the limit.) It
/// holds its packets, in order.
#[derive(Debug, Clone)]
struct DropHead {
    limit: u64,
    fifo: VecDeque<Queued>,
}

impl Discipline for DropHead {
    /// Every arrival joins; [`DropHead::enqueue`] drops the head.
    fn verdict(&mut self, _: &Arrival) -> Verdict {
        Verdict::Admit
    }

    fn holds(&self) -> bool {
        true
    }

    fn enqueue(&mut self, a: &Arrival, p: Queued, dropped: &mut Vec<Queued>) {
        self.fifo.push_back(p);
        if a.queued_bytes + u64::from(a.size) > self.limit {
            dropped.extend(self.fifo.pop_front());
        }
    }

    fn dequeue(&mut self, _: Time, _: &mut Vec<Queued>) -> Option<Queued> {
        self.fifo.pop_front()
    }

    fn limits(&self) -> Limits {
        Limits::default()
    }
}

fn drop_head(limit: u64) -> Queue {
    Queue::Other(Box::new(DropHead { limit, fifo: VecDeque::new() }))
}

/// 1 Mb/s, 10 ms, a 2000-byte drop-head queue: 1000 B takes 8 ms, 500 B
/// 4 ms. Packets 0 to 3 (1000 B) at 0, 4 (500 B) at 1 ms: 0 finds the link
/// idle and starts at once (at the far end at 8 + 10 = 18 ms); 1 and 2
/// wait (2000 B, within the limit); 3 would make 3000 B: 1, the head, is
/// dropped and 3 joins (2, 3); 4 would make 2500 B: 2 is dropped (3, 4:
/// 1500 B). 3 starts when 0 is done, at 8 ms (far end 26 ms), 4 at 16 ms
/// (far end 16 + 4 + 10 = 30 ms). Drop-tail would have kept 1 and 2 and
/// dropped 3 and 4. Waiting over [0, 100 ms): 2 packets (2000 B) to 1 ms,
/// 2 (1500 B) to 8 ms, 1 (500 B) to 16 ms: a mean of 24 / 100 = 0.24
/// packets and (2000 + 7 * 1500 + 8 * 500) / 100 = 165 B, empty 84 % of
/// the time; the link sends over [0, 20 ms): idle 80 %.
#[test]
fn a_drop_head_queue_drops_the_oldest_waiting_packet() {
    let mut link = Link::new(1_000_000, 10 * MS, drop_head(2000));
    assert!(link.holds());
    link.set_window(0, 100 * MS);
    let sizes = [1000, 1000, 1000, 1000, 500];
    let (mut delivered, mut dropped) = (vec![], vec![]);
    // Put on the wire what the queue lets go at `now`, with its far-end time.
    let mut let_go = |link: &mut Link, now: Time| {
        while let Some(id) = link.next_held(now, &mut vec![]) {
            let arrives = link.offer(now, sizes[id as usize], PacketKind::Data).expect("a held packet goes");
            delivered.push((id, arrives));
        }
    };
    for (id, at) in [(0, 0), (1, 0), (2, 0), (3, 0), (4, MS)] {
        while let Some(t) = link.next_start().filter(|&t| t <= at) {
            let_go(&mut link, t);
        }
        let p = Queued { id, kind: PacketKind::Data, size: sizes[id as usize], flow: 0, enqueued: at };
        assert!(link.enqueue(p, &mut 0, &mut dropped));
        let_go(&mut link, at);
    }
    assert_eq!(dropped.iter().map(|d| d.id).collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(link.next_start(), Some(8 * MS));
    while let Some(t) = link.next_start() {
        let_go(&mut link, t);
    }
    assert_eq!(delivered, vec![(0, 18 * MS), (3, 26 * MS), (4, 30 * MS)]);
    link.close_window(100 * MS);
    let stats = &link.output().stats;
    assert_eq!((stats.arrivals, stats.drops, stats.departures), (5, 2, 3));
    let r = stats.report();
    assert!((r.mean_queue_packets - 0.24).abs() < 1e-12, "{}", r.mean_queue_packets);
    assert!((r.mean_queue_bytes - 165.0).abs() < 1e-9, "{}", r.mean_queue_bytes);
    assert!((r.empty_prob - 0.84).abs() < 1e-12, "{}", r.empty_prob);
    assert!((r.idle_prob - 0.8).abs() < 1e-12, "{}", r.idle_prob);
}

/// The two-node line, 1 Mb/s and 10 ms, a 2000-byte drop-head queue on the
/// core, and 1000-byte UDP packets every 4 ms (2 Mb/s) for 1 s: packet k
/// arrives at 4k ms, and a start due at the instant of an arrival comes
/// first (its event was scheduled earlier). 0 starts at 0, 1 at 8 ms;
/// 2 (at 8 ms) and 3 wait; from then on the queue holds two packets and
/// each odd arrival k + 2 (at 4k + 8 ms) drops the head, odd k, while
/// even k (arrived at 4k ms) starts at 4k + 8 ms and reaches b 18 ms
/// later. Over [0, 1 s): 250 packets; delivered 0 (18 ms), 1 (22 ms) and
/// the even k from 2 to 242 (k = 242 at 4 * 242 + 26 = 994 ms): 123;
/// dropped the odd k from 3 to 247 (247 when 249 arrives at 996 ms): 123;
/// left: 244 and 246 on their way, 248 and 249 waiting. The core starts
/// 0, 1 and the even k to 246 (at 992 ms): 125. The trace records each
/// drop when the next odd packet arrives, after its `+`: the first `d`
/// is packet 3 at 20 ms. Two threads report the same.
#[test]
fn a_drop_head_queue_runs_on_the_core_with_packets_conserved() {
    let file = std::env::temp_dir().join(format!("pacesim-drophead-{}.tr", std::process::id()));
    let json = format!(
        r#"{{"seed":1,"duration":1000000000,"warmup":0,
        "topology":{{"kind":"graph","nodes":[],"hosts":["a","b"],"links":[{{"from":"a","to":"b","core":true,"forward":{{"name":"core"}}}}],"flows":[]}},
        "core":{{"rate":1000000,"delay":10000000,"buffer":2000,"queue":"droptail"}},
        "tcp":{{"variant":"reno","segment_size":1000,"header_size":40,"ack_size":40,"window":20,"initial_window":2,"syn":true,"tick":10000000,"min_rto":200000000,"max_rto":60000000000,"initial_rto":3000000000}},
        "traffic":{{"start":[0,0],"udp":[{{"kind":"cbr","rate":2000000,"size":{{"range":[1000,1000]}},"start":0,"from":"a","to":"b"}}]}},
        "trace":{{"links":["core"],"file":{:?}}}}}"#,
        file.to_str().unwrap()
    );
    let s = Scenario::from_json(&json).unwrap();
    let queues = |name: &str| (name == "core").then(|| drop_head(2000));
    let r = run_with(&s, 1, &queues, &mut |_| {}).unwrap();
    let c = &r.conservation;
    assert_eq!((c.created, c.delivered, c.dropped, c.in_flight), (250, 123, 123, 4));
    let core = &r.links["core"];
    assert_eq!((core.arrivals, core.drops, core.departures), (250, 123, 125));
    assert_eq!((r.udp[0].sent, r.udp[0].received), (250, 123));

    let trace = std::fs::read_to_string(&file).unwrap();
    std::fs::remove_file(&file).unwrap();
    let lines: Vec<Vec<&str>> = trace.lines().map(|l| l.split(' ').collect()).collect();
    let drops: Vec<_> = lines.iter().filter(|l| l[0] == "d").collect();
    assert_eq!(drops.len(), 123);
    assert_eq!((drops[0][1], drops[0][11]), ("0.02", "3"));
    let queued = |uid: &str| lines.iter().position(|l| l[0] == "+" && l[11] == uid).unwrap();
    let dropped = |uid: &str| lines.iter().position(|l| l[0] == "d" && l[11] == uid).unwrap();
    assert!(queued("3") < dropped("3"));

    let mut untraced = s.clone();
    untraced.trace = None;
    let one = run_with(&untraced, 1, &queues, &mut |_| {}).unwrap();
    let two = run_with(&untraced, 2, &queues, &mut |_| {}).unwrap();
    assert_eq!((one.links, one.udp, one.conservation), (two.links, two.udp, two.conservation));

    // A pacer in front of a queue that holds its packets is refused, by name.
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["topology"]["links"][0]["forward"]["pace"] = true.into();
    v["pacing"] = serde_json::json!({"scheme": "edge", "delay": 10_000_000, "fraction": 1.0});
    let paced = Scenario::from_json(&v.to_string()).unwrap();
    let e = run_with(&paced, 1, &queues, &mut |_| {}).unwrap_err().to_string();
    assert!(e.contains("pacing") && e.contains("link core"), "{e}");
}
