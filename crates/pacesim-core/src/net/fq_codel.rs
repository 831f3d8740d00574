//! FQ-CoDel, Flow Queue CoDel (Hoeiland-Joergensen, McKenney, Taht,
//! Gettys, Dumazet, RFC 8290, 2018), with Linux's `sch_fq_codel.c` (the
//! RFC's reference implementation) as the reference for its details:
//!
//! - each arriving packet is hashed by its flow into one of `flows` (1024)
//!   queues (Sec 4.1.1); each queue is a FIFO with its own CoDel state
//!   (`net::codel`, with `[codel]`'s target, interval and mtu);
//! - the queues take turns by deficit round robin (Sec 4.2): a queue that
//!   becomes non-empty while in neither list joins the tail of the *new*
//!   list with a deficit of `quantum` (1514 B); the scheduler serves the
//!   head of the new list, or of the old list if the new one is empty; a
//!   head whose deficit is spent (<= 0) gets another quantum and moves to
//!   the tail of the old list; otherwise it sends the packet CoDel gives
//!   it and its deficit drops by the packet's size. A head with nothing to
//!   send moves to the old list if it came from the new list and the old
//!   list is not empty (so that new queues cannot starve old ones), and
//!   otherwise leaves the lists;
//! - when the queue overflows, packets are dropped from the head of the
//!   queue holding the most bytes (Sec 4.1.2): as Linux, up to `drop_batch`
//!   (64) packets, stopping once half of that queue's bytes are dropped,
//!   and its CoDel counts them as drops (`count`).
//!
//! Where pacesim departs from Linux: the flow hash is not a hash of the
//! packet's 5-tuple with a random key drawn at boot, but a fixed 64-bit
//! mixer (SplitMix64's finaliser) of the packet's flow (its TCP flow, data
//! and ACKs alike as Linux's symmetric hash, or its UDP source) xor a
//! perturbation drawn from the run's seed (the link's queue stream), scaled
//! to the queues as Linux's `reciprocal_scale`; so the same scenario and
//! seed make the same collisions. The queue overflows when the packets
//! exceed `limit` (Linux's, 10240) or, with the arrival, the bytes reach
//! the link's buffer or the packets its `buffer_packets` (drop-tail's
//! admission rule, so both hold as many packets; Linux's byte limit is
//! `memory_limit`, in memory used). CoDel's rule that a queue with no more
//! than `mtu` behind the packet is not dropped from counts the bytes of all
//! the flow queues, as Linux does. ECN marking is not modelled (packets
//! are dropped).

use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::codel::{CodelParams, ControlLaw, Fifo};
use super::discipline::{Arrival, Discipline, Limits, Queued, Verdict};
use super::{DropTail, PacketKind};
use crate::sim::Time;

/// FQ-CoDel's parameters (RFC 8290 Sec 4-5, Linux's defaults), used when
/// the queue is `fq_codel`; each flow queue's CoDel takes `codel`'s.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct FqCodelParams {
    /// Flow queues the packets are hashed into (RFC 8290 Sec 5.1: 1024;
    /// Linux allows up to 65536).
    #[schemars(range(min = 1, max = 65536))]
    pub flows: u32,
    /// Bytes a queue may send in its turn of the deficit round robin
    /// (RFC 8290 Sec 5.1: 1514, an Ethernet frame; Linux refuses less than
    /// 256).
    #[schemars(extend("x-unit" = "bytes"), range(min = 256, max = 1_048_576))]
    pub quantum: u64,
    /// Packets the queues hold together before the largest queue is
    /// dropped from (Linux's `limit`, 10240); the link's `buffer` and
    /// `buffer_packets` bound them too.
    #[schemars(extend("x-unit" = "packets"), range(min = 1, max = u32::MAX))]
    pub limit: u64,
    /// Most packets one overflow drops from the largest queue, which stops
    /// once half its bytes are gone (Linux's `drop_batch_size`, 64; 1 drops
    /// one packet per overflow, RFC 8290 Sec 4.1.2's description).
    #[schemars(range(min = 1, max = 65536))]
    pub drop_batch: u32,
}

impl Default for FqCodelParams {
    fn default() -> Self {
        FqCodelParams { flows: 1024, quantum: 1514, limit: 10240, drop_batch: 64 }
    }
}

/// One flow queue: its packets, its CoDel state, its deficit, and the
/// round-robin list it is in.
#[derive(Debug, Clone, Default)]
struct FlowQueue {
    fifo: Fifo,
    law: ControlLaw,
    /// Bytes it may still send in this turn, bytes (may go negative: a
    /// packet is sent whole).
    deficit: i64,
    listed: bool,
}

/// An FQ-CoDel queue.
#[derive(Debug, Clone)]
pub struct FqCodel {
    params: FqCodelParams,
    codel: CodelParams,
    /// The link's limits (drop-tail's admission rule, applied with the arrival).
    limit: DropTail,
    /// Xored into each flow's key before hashing (from the run's seed).
    perturbation: u64,
    queues: Vec<FlowQueue>,
    /// The round robin's lists of queue indices: a queue is in at most one.
    new_flows: VecDeque<u32>,
    old_flows: VecDeque<u32>,
    /// Packets and bytes in all the queues.
    packets: u64,
    bytes: u64,
}

impl FqCodel {
    pub fn new(params: FqCodelParams, codel: CodelParams, limit: DropTail, perturbation: u64) -> Self {
        let queues = vec![FlowQueue::default(); params.flows as usize];
        FqCodel {
            params,
            codel,
            limit,
            perturbation,
            queues,
            new_flows: VecDeque::new(),
            old_flows: VecDeque::new(),
            packets: 0,
            bytes: 0,
        }
    }

    /// The queue packet `p` is hashed into: the flow's key (its flow, UDP
    /// sources apart from TCP flows) xor the perturbation, mixed
    /// (SplitMix64's finaliser), its top 32 bits scaled to [0, flows)
    /// (`(h * flows) >> 32`, Linux's `reciprocal_scale`).
    fn classify(&self, p: &Queued) -> usize {
        let key = u64::from(p.flow) | u64::from(p.kind == PacketKind::Udp) << 32;
        let mut z = key ^ self.perturbation;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (((z >> 32) * u64::from(self.params.flows)) >> 32) as usize
    }

    /// Whether the queues hold more than their limits allow.
    fn overflows(&self) -> bool {
        let over_link = !self.limit.fits(self.bytes, self.packets - 1, 0);
        self.packets > self.params.limit || over_link
    }

    /// Drop from the head of the queue holding the most bytes (the lowest
    /// index among equals): up to `drop_batch` packets, until half its
    /// bytes are gone (Linux's `fq_codel_drop`).
    fn drop_from_largest(&mut self, dropped: &mut Vec<Queued>) {
        let listed = self.new_flows.iter().chain(&self.old_flows);
        let size_then_lowest = |&&i: &&u32| (self.queues[i as usize].fifo.bytes, std::cmp::Reverse(i));
        let Some(&i) = listed.max_by_key(size_then_lowest) else { return };
        let q = &mut self.queues[i as usize];
        let half = q.fifo.bytes / 2;
        let (mut gone, mut n) = (0, 0);
        while let Some(p) = q.fifo.pop() {
            gone += u64::from(p.size);
            n += 1;
            dropped.push(p);
            if n == self.params.drop_batch || gone >= half {
                break;
            }
        }
        q.law.count += n;
        self.packets -= u64::from(n);
        self.bytes -= gone;
    }
}

impl Discipline for FqCodel {
    /// Every arrival joins its queue; an overflow drops from the largest.
    fn verdict(&mut self, _: &Arrival) -> Verdict {
        Verdict::Admit
    }

    fn holds(&self) -> bool {
        true
    }

    /// RFC 8290 Sec 4.1: to its flow's queue, which joins the new list if
    /// it was in neither; then, while over the limits, drops.
    fn enqueue(&mut self, _: &Arrival, p: Queued, dropped: &mut Vec<Queued>) {
        let i = self.classify(&p);
        let q = &mut self.queues[i];
        q.fifo.push(p);
        if !q.listed {
            q.listed = true;
            q.deficit = self.params.quantum as i64;
            self.new_flows.push_back(i as u32);
        }
        self.packets += 1;
        self.bytes += u64::from(p.size);
        while self.packets > 0 && self.overflows() {
            self.drop_from_largest(dropped);
        }
    }

    /// RFC 8290 Sec 4.2's scheduler (Linux's `fq_codel_dequeue`).
    fn dequeue(&mut self, now: Time, dropped: &mut Vec<Queued>) -> Option<Queued> {
        loop {
            let from_new = !self.new_flows.is_empty();
            let i = *if from_new { &self.new_flows } else { &self.old_flows }.front()?;
            let FlowQueue { fifo, law, deficit, listed } = &mut self.queues[i as usize];
            let leave_head = |new: &mut VecDeque<u32>, old: &mut VecDeque<u32>| {
                if from_new {
                    new.pop_front()
                } else {
                    old.pop_front()
                }
            };
            if *deficit <= 0 {
                // Its turn is spent: another quantum, at the old list's tail.
                *deficit += self.params.quantum as i64;
                leave_head(&mut self.new_flows, &mut self.old_flows);
                self.old_flows.push_back(i);
                continue;
            }
            let total = &mut self.bytes;
            let before = dropped.len();
            let pop = || {
                let p = fifo.pop()?;
                *total -= u64::from(p.size);
                Some((p, *total))
            };
            let next = law.dequeue(&self.codel, now, pop, dropped);
            self.packets -= (dropped.len() - before) as u64;
            if let Some(p) = next {
                *deficit -= i64::from(p.size);
                self.packets -= 1;
                return Some(p);
            }
            // Nothing to send: to the old list if it came from the new one
            // and the old list waits (so new queues cannot starve old ones),
            // else out of the lists.
            leave_head(&mut self.new_flows, &mut self.old_flows);
            if from_new && !self.old_flows.is_empty() {
                self.old_flows.push_back(i);
            } else {
                *listed = false;
            }
        }
    }

    fn limits(&self) -> Limits {
        self.limit.limits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::stream;

    const MS: Time = 1_000_000;

    fn packet(flow: u32, id: u32, size: u32, enqueued: Time) -> Queued {
        Queued { id, kind: PacketKind::Udp, size, flow, enqueued }
    }

    fn arrival(now: Time) -> Arrival {
        Arrival { now, idle_since: None, queued_bytes: 0, queued_packets: 0, size: 1000, ect: false }
    }

    fn fq(params: FqCodelParams, limit: DropTail) -> FqCodel {
        FqCodel::new(params, CodelParams::default(), limit, 0x5eed)
    }

    /// The flows `flows` land in distinct queues (what the hand
    /// computations below assume).
    fn distinct(q: &FqCodel, flows: &[u32]) {
        let mut at: Vec<usize> = flows.iter().map(|&f| q.classify(&packet(f, 0, 1, 0))).collect();
        at.sort_unstable();
        at.dedup();
        assert_eq!(at.len(), flows.len(), "flows {flows:?} share a queue");
    }

    /// Deficit round robin on a hand-made arrival sequence, all at t = 0
    /// (no sojourn, so CoDel never drops): A sends 4 packets of 1000 B, B 2
    /// of 1000 B, C one of 100 B; quantum 1514. New list [A, B, C], each
    /// with deficit 1514. A sends A1 (deficit 514) and A2 (-486): two
    /// dequeues. Then D arrives with one packet: new [A, B, C, D]. A's
    /// deficit is spent: +1514 = 1028, to the old list [A]. B sends B1
    /// (514), B2 (-486), then +1514 = 1028, old [A, B]. C sends C1 (1414),
    /// then is empty: from the new list with the old list waiting, to old
    /// [A, B, C]. D sends D1 and goes the same way: old [A, B, C, D]. A
    /// sends A3 (28), A4 (-972), then +1514 = 542, old [B, C, D, A]. B, C,
    /// D, A are empty and leave the lists: nothing more.
    #[test]
    fn deficit_round_robin_serves_new_queues_first_a_quantum_a_turn() {
        let mut q = fq(FqCodelParams::default(), DropTail::unlimited());
        let (a, b, c, d) = (0, 1, 2, 3);
        distinct(&q, &[a, b, c, d]);
        let mut dropped = vec![];
        let mut id = 0;
        let mut send = |q: &mut FqCodel, flow: u32, n: usize, size: u32| {
            for _ in 0..n {
                id += 1;
                q.enqueue(&arrival(0), packet(flow, flow * 100 + id, size, 0), &mut vec![]);
            }
        };
        send(&mut q, a, 4, 1000);
        send(&mut q, b, 2, 1000);
        send(&mut q, c, 1, 100);
        let mut order = vec![];
        for _ in 0..2 {
            order.push(q.dequeue(0, &mut dropped).unwrap().flow);
        }
        send(&mut q, d, 1, 1000);
        while let Some(p) = q.dequeue(0, &mut dropped) {
            order.push(p.flow);
        }
        assert_eq!(order, [a, a, b, b, c, d, a, a]);
        assert!(dropped.is_empty());
        assert!(q.new_flows.is_empty() && q.old_flows.is_empty() && q.queues.iter().all(|f| !f.listed));
        assert_eq!((q.packets, q.bytes), (0, 0));
    }

    /// The departures (flow of each) of a transmitter taking a 1000 B packet
    /// every 8 ms (1 Mb/s) for 2 s from `queue`, into which flow 0 sends
    /// 1000 B every 2 ms (4 Mb/s) and flow 1 every 4 ms (2 Mb/s).
    fn departures(queue: &mut impl Discipline) -> Vec<u32> {
        let (mut out, mut dropped, mut id) = (vec![], vec![], 0);
        for t in (0..2000).map(|ms| ms * MS) {
            for flow in [0, 1] {
                if (t / MS).is_multiple_of(2 * (u64::from(flow) + 1)) {
                    id += 1;
                    queue.enqueue(&arrival(t), packet(flow, id, 1000, t), &mut dropped);
                }
            }
            if (t / MS).is_multiple_of(8) {
                out.push(queue.dequeue(t, &mut dropped).expect("both flows stay backlogged").flow);
            }
        }
        out
    }

    /// Two flows of unequal rates (4 and 2 Mb/s) into 1 Mb/s, both always
    /// backlogged: deficit round robin gives each a quantum a turn, so at
    /// every departure the bytes sent differ by at most quantum + 2 x the
    /// largest packet (one flow a turn ahead, each turn overshooting by
    /// less than a packet: 1514 + 2000 B, 3 packets of 1000 B), whatever
    /// CoDel drops from the heads; of the 250 departures each flow has 125
    /// +- 1. The same arrivals through one CoDel FIFO share as they
    /// arrive, about 2:1.
    #[test]
    fn two_flows_of_unequal_rates_get_equal_shares() {
        let out = departures(&mut fq(FqCodelParams::default(), DropTail::unlimited()));
        assert_eq!(out.len(), 250);
        let mut sent = [0i64; 2];
        for &flow in &out {
            sent[flow as usize] += 1;
            assert!((sent[0] - sent[1]).abs() <= 3, "{sent:?}");
        }
        assert!((sent[0] - 125).abs() <= 1, "{sent:?}");
        let fifo = departures(&mut crate::net::Codel::new(CodelParams::default(), DropTail::unlimited()));
        let first = fifo.iter().filter(|&&f| f == 0).count();
        assert!(first > 150, "a FIFO shares as the flows arrive: {first} of 250");
    }

    /// Overflow drops from the head of the queue holding the most bytes. A
    /// sends 3 packets of 1000 B, B 2: the fifth passes `limit` 4, and A
    /// (3000 B, the largest) drops its head (1000 B, less than half) and the
    /// next (2000 B, half reached): A1, A2; with `drop_batch` 1 only A1.
    /// On a 3000 B buffer (drop-tail's rule: full when the bytes reach it)
    /// A sends 2, then B's first fills it: A (2000 B) drops A1, half.
    #[test]
    fn an_overflow_drops_from_the_largest_queue_up_to_half_of_it() {
        let run = |params: FqCodelParams, limit: DropTail, flows: &[u32]| {
            let mut q = fq(params, limit);
            distinct(&q, &[0, 1]);
            let mut dropped = vec![];
            for (id, &flow) in flows.iter().enumerate() {
                q.enqueue(&arrival(0), packet(flow, id as u32, 1000, 0), &mut dropped);
            }
            let count = q.queues[q.classify(&packet(0, 0, 1, 0))].law.count;
            (dropped.iter().map(|p| p.id).collect::<Vec<_>>(), count, q.packets, q.bytes)
        };
        let small = FqCodelParams { limit: 4, ..FqCodelParams::default() };
        assert_eq!(run(small.clone(), DropTail::unlimited(), &[0, 0, 0, 1, 1]), (vec![0, 1], 2, 3, 3000));
        let one = FqCodelParams { drop_batch: 1, ..small };
        assert_eq!(run(one, DropTail::unlimited(), &[0, 0, 0, 1, 1]), (vec![0], 1, 4, 4000));
        assert_eq!(run(FqCodelParams::default(), DropTail::bytes(3000), &[0, 0, 1]), (vec![0], 1, 2, 2000));
    }

    /// The queue a flow hashes into is fixed by the perturbation, which
    /// the link draws from the run's seed: the same stream gives the same
    /// queues, another seed other ones.
    #[test]
    fn the_flow_hash_is_fixed_by_the_seed() {
        use rand::RngCore;
        let at = |seed: u64| {
            let q = FqCodel::new(
                FqCodelParams::default(),
                CodelParams::default(),
                DropTail::unlimited(),
                stream(seed, "core.queue", 0).next_u64(),
            );
            (0..100).map(|f| q.classify(&packet(f, 0, 1, 0))).collect::<Vec<_>>()
        };
        assert_eq!(at(1), at(1));
        assert_ne!(at(1), at(2));
        assert!(at(1).iter().all(|&i| i < 1024));
    }

    /// `[udp] received` of two UDP sources from host a to host b, 1000 B
    /// every 2 ms (4 Mb/s) and every 4 ms (2 Mb/s) for 2 s, through a 1
    /// Mb/s link with an FQ-CoDel queue, in `topology` with `core`.
    fn received(topology: &str, core: &str) -> Vec<u64> {
        let udp = |rate: u64| {
            format!(
                r#"{{"kind":"cbr","rate":{rate},"size":{{"range":[1000,1000]}},"start":0,"from":"a","to":"b"}}"#
            )
        };
        let json = format!(
            r#"{{"seed":1,"duration":2000000000,"warmup":0,"topology":{topology},"core":{core},
            "tcp":{{"variant":"reno","segment_size":1000,"header_size":40,"ack_size":40,"window":20,"initial_window":2,"syn":true,"tick":10000000,"min_rto":200000000,"max_rto":60000000000,"initial_rto":3000000000}},
            "traffic":{{"start":[0,0],"udp":[{},{}]}}}}"#,
            udp(4_000_000),
            udp(2_000_000)
        );
        let s = crate::Scenario::from_json(&json).unwrap();
        let r = crate::run(&s).unwrap();
        let c = &r.conservation;
        assert_eq!(c.created, c.delivered + c.dropped + c.in_flight);
        r.udp.iter().map(|u| u.received).collect()
    }

    /// From a scenario: the two sources share the 1 Mb/s link equally (the
    /// link sends 250 packets in 2 s; the last few are in flight at the
    /// end), on the core (`core.queue = "fq_codel"`) and on a written-out
    /// graph's link that is not the core (`forward.queue`); with drop-tail
    /// they share as they send, 2:1.
    #[test]
    fn a_scenario_chooses_fq_codel_on_the_core_or_on_any_link() {
        let line = r#"{"kind":"graph","nodes":[],"hosts":["a","b"],"links":[{"from":"a","to":"b","core":true}],"flows":[]}"#;
        let core =
            |queue: &str| format!(r#"{{"rate":1000000,"delay":10000000,"buffer":100000,"queue":"{queue}"}}"#);
        let equal = |r: &[u64]| r.len() == 2 && r[0].abs_diff(r[1]) <= 3 && r[0] + r[1] >= 245;
        let fair = received(line, &core("fq_codel"));
        assert!(equal(&fair), "{fair:?}");
        let edge = r#"{"kind":"graph","nodes":["r"],"hosts":["a","b"],"links":[
            {"from":"a","to":"r","rate":[1000000,1000000],"delay":[0,0],"forward":{"name":"edge","queue":"fq_codel","buffer":100000}},
            {"from":"r","to":"b","core":true}],"flows":[]}"#;
        let fast = r#"{"rate":100000000,"delay":10000000,"buffer":1000000}"#;
        let on_edge = received(edge, fast);
        assert!(equal(&on_edge), "{on_edge:?}");
        let tail = received(line, &core("droptail"));
        assert!(tail[0] > 150 && tail[1] < 100, "{tail:?}");
    }
}
