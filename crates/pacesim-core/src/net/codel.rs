//! CoDel, Controlled Delay (Nichols, Jacobson, McGregor, Iyengar, RFC 8289,
//! 2018), with Linux's `include/net/codel_impl.h` as the reference for its
//! details. It decides at dequeue, from each packet's sojourn time (the
//! time since it joined the queue), not from the queue's length:
//!
//! - a packet whose sojourn is below `target` (5 ms), or that leaves no
//!   more than one `mtu` behind it, clears the watch (Sec 3.2, 4.2);
//! - otherwise the first such packet sets the watch to expire an `interval`
//!   (100 ms) later, and a packet dequeued after it expired may be dropped
//!   (`ok_to_drop`, Sec 3.3);
//! - the first packet that may be dropped is, and CoDel enters its dropping
//!   state: it drops one packet at each `drop_next`, which the control law
//!   spaces `interval / sqrt(count)` apart, `count` the drops of this
//!   dropping state ("the next drop time is decreased in inverse proportion
//!   to the square root of the number of drops since the dropping state was
//!   entered", Sec 3.3), until a packet may not be dropped;
//! - re-entering soon after leaving (within 16 intervals of the last
//!   `drop_next`), `count` resumes from the drops of the last state beyond
//!   the state before it (`count - lastcount`, RFC 8289 Sec 5.5's
//!   pseudocode, Linux's `codel_dequeue`), so the drop rate resumes near
//!   where it was.
//!
//! At arrival the queue is drop-tail on the link's buffer (Linux's
//! `codel` qdisc drops at its `limit`). The control law's square root is
//! computed in floating point (Linux approximates `1/sqrt(count)` by
//! Newton steps in fixed point); drop times are integer ns.

use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::discipline::{Arrival, Discipline, Limits, Queued, Verdict};
use super::DropTail;
use crate::sim::Time;
use crate::spec::human::time;
use crate::spec::{bad, InvalidField};

/// CoDel's parameters (RFC 8289 Sec 4.3-4.4, Linux's defaults), used when
/// the queue is `codel`; the queue's hard limit is the link's buffer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct CodelParams {
    /// Acceptable standing queue delay, ns: packets that waited less are
    /// never dropped (RFC 8289 Sec 4.4: 5 ms).
    #[schemars(extend("x-unit" = "ns"), range(min = 1, max = 3_600_000_000_000u64))]
    pub target: u64,
    /// How long the sojourn time must stay at or above `target` before a
    /// drop, and the control law's base spacing `interval / sqrt(count)`,
    /// ns (RFC 8289 Sec 4.3: 100 ms, a worst-case round trip).
    #[schemars(extend("x-unit" = "ns"), range(min = 1, max = 3_600_000_000_000u64))]
    pub interval: u64,
    /// A queue holding no more than this many bytes behind the packet
    /// dequeued is never dropped from (RFC 8289's MAXPACKET, Linux's
    /// `mtu`: 1514, an Ethernet frame).
    #[schemars(extend("x-unit" = "bytes"), range(max = u32::MAX))]
    pub mtu: u64,
}

impl Default for CodelParams {
    fn default() -> Self {
        CodelParams { target: 5_000_000, interval: 100_000_000, mtu: 1514 }
    }
}

impl CodelParams {
    /// Check the parameters of the table at `at` (`core.codel`); the
    /// error names the field.
    pub fn validate(&self, at: &str) -> Result<(), InvalidField> {
        if self.target >= self.interval {
            let message = format!(
                "{} must be below interval ({}; RFC 8289 Sec 4.4: 5-10 % of it)",
                time(self.target),
                time(self.interval)
            );
            return Err(bad(&format!("{at}.target"), message));
        }
        Ok(())
    }
}

/// A CoDel queue: its packets in order, and the control law's state.
#[derive(Debug, Clone)]
pub struct Codel {
    params: CodelParams,
    /// The hard limit at arrival.
    limit: DropTail,
    fifo: Fifo,
    law: ControlLaw,
}

impl Codel {
    pub fn new(params: CodelParams, limit: DropTail) -> Self {
        Codel { params, limit, fifo: Fifo::default(), law: ControlLaw::default() }
    }
}

/// Packets in arrival order and their bytes: the queue CoDel acts on (one
/// per flow queue in FQ-CoDel).
#[derive(Debug, Clone, Default)]
pub(super) struct Fifo {
    pub(super) packets: VecDeque<Queued>,
    /// Bytes in `packets`.
    pub(super) bytes: u64,
}

impl Fifo {
    pub(super) fn push(&mut self, p: Queued) {
        self.bytes += u64::from(p.size);
        self.packets.push_back(p);
    }

    pub(super) fn pop(&mut self) -> Option<Queued> {
        let p = self.packets.pop_front()?;
        self.bytes -= u64::from(p.size);
        Some(p)
    }
}

/// CoDel's state over one queue (RFC 8289 Sec 5.5's variables), apart
/// from the packets, so that FQ-CoDel keeps one per flow queue.
#[derive(Debug, Clone, Default)]
pub(super) struct ControlLaw {
    /// When the sojourn time, at or above target since, may first drop
    /// (RFC 8289's `first_above_time_`; `None` for its 0).
    first_above_time: Option<Time>,
    /// When the next drop is due in the dropping state.
    drop_next: Time,
    /// Drops in the dropping state (RFC 8289's `count_`; FQ-CoDel adds
    /// its overflow drops, as Linux does), and `count` when the state was
    /// last entered (`lastcount_`).
    pub(super) count: u32,
    lastcount: u32,
    dropping: bool,
}

impl ControlLaw {
    /// "t + interval / sqrt(count)" (RFC 8289 Sec 5.5, `control_law`).
    fn control_law(&self, t: Time, interval: Time) -> Time {
        t + (interval as f64 / f64::from(self.count).sqrt()) as Time
    }

    /// The head packet leaves the queue at `now` (`pop` takes it and
    /// tells the bytes the queue holds after it), and whether it may be
    /// dropped (RFC 8289's `dodequeue`, Linux's `codel_should_drop`).
    fn take(
        &mut self,
        params: &CodelParams,
        now: Time,
        pop: &mut impl FnMut() -> Option<(Queued, u64)>,
    ) -> Option<(Queued, bool)> {
        let Some((p, behind)) = pop() else {
            self.first_above_time = None;
            return None;
        };
        let sojourn = now - p.enqueued;
        if sojourn < params.target || behind <= params.mtu {
            // Below target, or too little queue left to matter: the watch ends.
            self.first_above_time = None;
            return Some((p, false));
        }
        match self.first_above_time {
            None => {
                self.first_above_time = Some(now + params.interval);
                Some((p, false))
            }
            Some(t) => Some((p, now >= t)),
        }
    }

    /// RFC 8289 Sec 5.5's `dequeue` at `now` from the queue `pop` takes
    /// packets from (the packet and the bytes left behind it); the packets
    /// dropped on the way are pushed on `dropped`.
    pub(super) fn dequeue(
        &mut self,
        params: &CodelParams,
        now: Time,
        mut pop: impl FnMut() -> Option<(Queued, u64)>,
        dropped: &mut Vec<Queued>,
    ) -> Option<Queued> {
        let Some((mut p, mut ok_to_drop)) = self.take(params, now, &mut pop) else {
            self.dropping = false;
            return None;
        };
        if self.dropping {
            if !ok_to_drop {
                // Sojourn fell below target: leave the dropping state.
                self.dropping = false;
            }
            // One drop at each due time; several if the queue sat idle past them.
            while self.dropping && now >= self.drop_next {
                dropped.push(p);
                self.count += 1;
                match self.take(params, now, &mut pop) {
                    None => {
                        self.dropping = false;
                        return None;
                    }
                    Some((next, ok)) => (p, ok_to_drop) = (next, ok),
                }
                if ok_to_drop {
                    self.drop_next = self.control_law(self.drop_next, params.interval);
                } else {
                    self.dropping = false;
                }
            }
        } else if ok_to_drop {
            // Enter the dropping state with this drop.
            dropped.push(p);
            let next = self.take(params, now, &mut pop);
            self.dropping = true;
            // Re-entering within 16 intervals of the last drop_next: resume
            // the drop rate the last dropping state reached.
            let delta = self.count.wrapping_sub(self.lastcount);
            let recent = now < self.drop_next.saturating_add(16 * params.interval);
            self.count = if delta > 1 && recent { delta } else { 1 };
            self.lastcount = self.count;
            self.drop_next = self.control_law(now, params.interval);
            return next.map(|(q, _)| q);
        }
        Some(p)
    }
}

impl Discipline for Codel {
    /// Drop-tail on the hard limit.
    fn verdict(&mut self, a: &Arrival) -> Verdict {
        self.limit.verdict(a)
    }

    fn holds(&self) -> bool {
        true
    }

    fn enqueue(&mut self, _: &Arrival, p: Queued, _: &mut Vec<Queued>) {
        self.fifo.push(p);
    }

    /// RFC 8289 Sec 5.5's `dequeue` on the one queue.
    fn dequeue(&mut self, now: Time, dropped: &mut Vec<Queued>) -> Option<Queued> {
        let fifo = &mut self.fifo;
        self.law.dequeue(&self.params, now, || fifo.pop().map(|p| (p, fifo.bytes)), dropped)
    }

    fn limits(&self) -> Limits {
        self.limit.limits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::{Link, PacketKind, Queue};

    const MS: Time = 1_000_000;

    fn packet(id: u32, enqueued: Time) -> Queued {
        Queued { id, kind: PacketKind::Data, size: 1000, flow: 0, enqueued }
    }

    fn arrival(now: Time) -> Arrival {
        Arrival { now, idle_since: None, queued_bytes: 0, queued_packets: 0, size: 1000, ect: false }
    }

    /// The queue as the transmitter finds it at `t`: five packets that
    /// joined `sojourn` earlier (a standing queue whose every packet has
    /// waited `sojourn` when it is dequeued, however many are dropped).
    fn stand(q: &mut Codel, t: Time, sojourn: Time) {
        q.fifo = Fifo::default();
        for id in 0..5 {
            q.enqueue(&arrival(t - sojourn), packet(id, t - sojourn), &mut vec![]);
        }
    }

    /// The transmitter asks every millisecond from 20 ms to `until`, the
    /// packets it finds having waited `sojourn(t)`: the times (ms) of the drops.
    fn drop_times(until: Time, sojourn: impl Fn(Time) -> Time) -> Vec<Time> {
        let mut q = Codel::new(CodelParams::default(), DropTail::unlimited());
        let mut dropped = vec![];
        let mut times = vec![];
        for t in 20..until {
            stand(&mut q, t * MS, sojourn(t) * MS);
            assert!(q.dequeue(t * MS, &mut dropped).is_some());
            times.extend(dropped.drain(..).map(|_| t));
        }
        times
    }

    /// A standing 20 ms queue (above target 5 ms): the first dequeue, at
    /// 20 ms, starts the watch, which expires an interval later, at 120 ms:
    /// the first drop. Then one drop at each drop_next = previous +
    /// 100 ms / sqrt(count): 220, 290.71, 348.45, 398.45, 443.17, 483.99,
    /// 521.79 ms, each taken at the first whole millisecond at or after it.
    #[test]
    fn a_standing_queue_above_target_drops_after_an_interval_then_by_the_control_law() {
        let drops = drop_times(3000, |_| 20);
        assert_eq!(drops[..8], [120, 220, 291, 349, 399, 444, 484, 522]);
        // The spacing keeps shrinking as 1/sqrt(count): the 100th drop's
        // time is 120 + the sum over k < 100 of 100/sqrt(k) ms, taken at
        // the next whole millisecond (the law runs from drop_next, not
        // from the late drop, so the lateness does not accumulate).
        let law: f64 = 120.0 + (1..100).map(|k| 100.0 / f64::from(k).sqrt()).sum::<f64>();
        assert_eq!(drops[99], law.ceil() as Time, "{law}");
    }

    /// A standing queue of 4 ms, below target, never drops, however long
    /// it stands; one of exactly target (5 ms) is above it (RFC 8289:
    /// "sojourn_time < TARGET" keeps the packet).
    #[test]
    fn below_target_never_drops() {
        assert!(drop_times(3000, |_| 4).is_empty());
        assert_eq!(drop_times(3000, |_| 5)[0], 120);
    }

    /// A queue left with no more than one mtu behind the head is never
    /// dropped from, however old the head.
    #[test]
    fn a_queue_of_one_packet_is_never_dropped_from() {
        let mut q = Codel::new(CodelParams::default(), DropTail::unlimited());
        let mut dropped = vec![];
        for k in 0..100 {
            // Two old packets; the first dequeued leaves 1000 B <= 1514 B.
            q.enqueue(&arrival(0), packet(2 * k, 0), &mut dropped);
            q.enqueue(&arrival(0), packet(2 * k + 1, 0), &mut dropped);
            let t = (k as Time + 1) * 50 * MS;
            assert_eq!(q.dequeue(t, &mut dropped).map(|p| p.id), Some(2 * k));
            assert_eq!(q.dequeue(t, &mut dropped).map(|p| p.id), Some(2 * k + 1));
        }
        assert!(dropped.is_empty());
    }

    /// Leaving the dropping state and coming back within 16 intervals
    /// resumes the count the last state added: a 20 ms standing queue to
    /// 1 s drops at 120, 220, 291, 349, 399, 444, 484, 522, 558, 591, 623,
    /// 653, 682, 709, 736, 762, 787, 811, 835, 858, 880, 902, 923, 944, 964
    /// and 984 ms (26; count 26, lastcount 1), then the head is below
    /// target for 100 ms (dropping ends at 1 s), then standing again from
    /// 1.1 s: the watch restarts, expires at 1.2 s, and that drop sets
    /// count = 26 - 1 = 25 (within 16 intervals of drop_next, 1003.5 ms),
    /// so the next comes 100 / sqrt(25) = 20 ms later, not 100 ms.
    #[test]
    fn re_entering_soon_resumes_the_drop_rate() {
        let drops = drop_times(1300, |t| if (1000..1100).contains(&t) { 1 } else { 20 });
        let first: Vec<Time> = drops.iter().copied().filter(|&t| t < 1000).collect();
        assert_eq!(first.len(), 26, "{first:?}");
        assert_eq!(first[25], 984);
        let again: Vec<Time> = drops.iter().copied().filter(|&t| t >= 1000).collect();
        assert_eq!(again[..2], [1200, 1220], "{again:?}");
    }

    /// On a link: 1 Mb/s (a 1000 B packet takes 8 ms), 50 packets at t = 0.
    /// Packet k would start at 8k ms, having waited 8k ms. The first
    /// dequeue above target (packet 1, at 8 ms) starts the watch: 108 ms.
    /// At 112 ms packet 14 may be dropped: it is, and 15 goes (dropping,
    /// count 1, next drop at 212 ms); at 216 ms 28 is dropped (count 2,
    /// next at 212 + 70.71 = 282.71 ms); at 288 ms 38 (next 340.45 ms); at
    /// 344 ms 46. Packet 49 goes at 360 ms; the link then idles.
    #[test]
    fn on_a_link_sojourn_is_measured_from_each_packets_enqueue() {
        let codel = Codel::new(CodelParams::default(), DropTail::unlimited());
        let mut link = Link::new(1_000_000, 0, Queue::Codel(codel));
        assert!(link.holds());
        link.set_window(0, Time::MAX);
        let mut dropped = vec![];
        let mut starts = vec![];
        for id in 0..50 {
            let p = Queued { id, kind: PacketKind::Data, size: 1000, flow: 0, enqueued: 0 };
            assert!(link.enqueue(p, &mut 0, &mut dropped));
        }
        while let Some(t) = link.next_start() {
            while let Some(id) = link.next_held(t, &mut dropped) {
                starts.push((id, t / MS));
                link.offer(t, 1000, PacketKind::Data).unwrap();
            }
        }
        let ids: Vec<u32> = dropped.iter().map(|d| d.id).collect();
        assert_eq!(ids, [14, 28, 38, 46]);
        assert_eq!(starts.len(), 46);
        assert!(starts.contains(&(15, 112)) && starts.contains(&(29, 216)) && starts.contains(&(39, 288)));
        assert_eq!(starts.last(), Some(&(49, 360)));
        link.close_window(400 * MS);
        let stats = &link.output().stats;
        assert_eq!((stats.arrivals, stats.drops, stats.departures), (50, 4, 46));
    }

    /// The drops at link `traced` (trace `d` lines: time in s, packet uid)
    /// of 1000 B UDP packets every 4 ms (2 Mb/s) for 0.4 s from host a to
    /// host b over `topology` with `core`, in which a 1 Mb/s link (8 ms a
    /// packet) has a CoDel queue with a 1 MB limit.
    fn codel_drops(topology: &str, core: &str, traced: &str) -> Vec<(f64, u64)> {
        let file = std::env::temp_dir().join(format!("pacesim-codel-{}-{traced}.tr", std::process::id()));
        let json = format!(
            r#"{{"seed":1,"duration":400000000,"warmup":0,"topology":{topology},"core":{core},
            "tcp":{{"variant":"reno","segment_size":1000,"header_size":40,"ack_size":40,"window":20,"initial_window":2,"syn":true,"tick":10000000,"min_rto":200000000,"max_rto":60000000000,"initial_rto":3000000000}},
            "traffic":{{"start":[0,0],"udp":[{{"kind":"cbr","rate":2000000,"size":{{"range":[1000,1000]}},"start":0,"from":"a","to":"b"}}]}},
            "trace":{{"links":["{traced}"],"file":{:?}}}}}"#,
            file.to_str().unwrap()
        );
        let s = crate::Scenario::from_json(&json).unwrap();
        let r = crate::run(&s).unwrap();
        let c = &r.conservation;
        assert_eq!(c.created, c.delivered + c.dropped + c.in_flight);
        let trace = std::fs::read_to_string(&file).unwrap();
        std::fs::remove_file(&file).unwrap();
        let drops = trace.lines().map(|l| l.split(' ').collect::<Vec<_>>()).filter(|l| l[0] == "d");
        drops.map(|l| (l[1].parse().unwrap(), l[11].parse().unwrap())).collect()
    }

    /// Packet k arrives at 4k ms and would start at 8k ms, having waited
    /// 4k ms; a start due at the instant of an arrival comes first (its
    /// event was scheduled earlier). At 16 ms packet 2 (8 ms) leaves one
    /// packet (3) behind, no more than an mtu: no watch. At 24 ms packet 3
    /// (12 ms) leaves 4 and 5: the watch expires at 124 ms. At 128 ms 16
    /// is dropped and 17 goes (next drop at 228 ms); at 232 ms 30 (next
    /// 298.71 ms), at 304 ms 40 (next 356.45 ms), at 360 ms 48 (next
    /// 406.45 ms, after the end). The same on a written-out graph's link
    /// that is not the core (`forward.queue = "codel"`).
    #[test]
    fn a_scenario_chooses_codel_on_the_core_or_on_any_link() {
        let want = vec![(0.128, 16), (0.232, 30), (0.304, 40), (0.36, 48)];
        let line = r#"{"kind":"graph","nodes":[],"hosts":["a","b"],"links":[{"from":"a","to":"b","core":true}],"flows":[]}"#;
        let core = r#"{"rate":1000000,"delay":10000000,"buffer":1000000,"queue":"codel"}"#;
        assert_eq!(codel_drops(line, core, "core"), want);
        let edge = r#"{"kind":"graph","nodes":["r"],"hosts":["a","b"],"links":[
            {"from":"a","to":"r","rate":[1000000,1000000],"delay":[0,0],"forward":{"name":"edge","queue":"codel","buffer":1000000}},
            {"from":"r","to":"b","core":true}],"flows":[]}"#;
        let fast = r#"{"rate":100000000,"delay":10000000,"buffer":1000000}"#;
        assert_eq!(codel_drops(edge, fast, "edge"), want);
    }

    /// A graph link's half reads its own knobs (`forward.codel`, held in a
    /// box only such a half has: `topology::graph::Knobs`). With a 50 ms
    /// interval the watch set at 24 ms expires at 74 ms: packet 10 is
    /// dropped at its start, 80 ms, and 11 goes; the next drop is due at
    /// 130 ms, the start at 136 ms (packet 18).
    #[test]
    fn a_graph_links_half_takes_its_own_codel_knobs() {
        let edge = r#"{"kind":"graph","nodes":["r"],"hosts":["a","b"],"links":[
            {"from":"a","to":"r","rate":[1000000,1000000],"delay":[0,0],
             "forward":{"name":"edge","queue":"codel","buffer":1000000,"codel":{"target":2500000,"interval":50000000}}},
            {"from":"r","to":"b","core":true}],"flows":[]}"#;
        let fast = r#"{"rate":100000000,"delay":10000000,"buffer":1000000}"#;
        assert_eq!(codel_drops(edge, fast, "edge")[..2], [(0.08, 10), (0.136, 18)]);
    }

    #[test]
    fn a_target_not_below_the_interval_is_refused_by_name() {
        let p = CodelParams { target: 100_000_000, ..CodelParams::default() };
        assert_eq!(p.validate("core.codel").unwrap_err().field, "core.codel.target");
        assert!(CodelParams::default().validate("core.codel").is_ok());
    }
}
