//! The E-base dumbbell (paper E Sec 3.1, Fig. 2).
//!
//! `edges` ingress edge links E_S1..E_Sn feed the core node C0, each fed in
//! turn by `hosts_per_edge` access links with one TCP sender behind each.
//! C0-C1 is the core link, the only queue that can drop. On the right, C1
//! feeds `edges` egress edge links to the sinks; each right-hand link is the
//! twin (same rate and delay) of its left-hand counterpart, as in the ns-2
//! reference scripts. Every link is duplex; ACKs take the reverse links.
//!
//! Rates and delays are drawn per element from named streams
//! ("topology.access" by host, "topology.edge" by edge), so changing the
//! number of hosts leaves every other element's draw unchanged.

use super::{FlowPath, Network};
use crate::net::{DropTail, Link, Queue};
use crate::scenario::{Core, EBase};
use crate::sim::rng::{stream, uniform};

/// Build the dumbbell `spec` describes around the core link `c`. Links are
/// named `core`, `core.rev`, `edge_in.E`, `edge_out.E` (each with a `.rev`
/// twin carrying ACKs), `access.H.up`/`.down` and `sink.H.in`/`.out`; the
/// core and edge links are measured, and the ingress edges are where edge
/// pacing goes by default.
pub fn build(spec: &EBase, c: &Core, seed: u64) -> Network {
    let mut net = Network::default();
    let core = net.add_link(Link::new(c.rate, c.delay, Queue::core(c, seed)), "core".into());
    let core_rev = net.add_link(Link::new(c.rate, c.delay, DropTail::unlimited()), "core.rev".into());
    net.measured.extend([core, core_rev]);

    let duplex = |net: &mut Network, rate, delay, there: String, back: String| {
        let a = net.add_link(Link::new(rate, delay, DropTail::unlimited()), there);
        let b = net.add_link(Link::new(rate, delay, DropTail::unlimited()), back);
        (a, b)
    };
    for e in 0..spec.edges {
        let mut rng = stream(seed, "topology.edge", u64::from(e));
        let rate = uniform(&mut rng, spec.edge_rate);
        let delay = uniform(&mut rng, spec.edge_delay);
        // (E_Se -> C0, C0 -> E_Se) and (C1 -> E_De, E_De -> C1).
        let (edge_in, edge_in_rev) =
            duplex(&mut net, rate, delay, format!("edge_in.{e}"), format!("edge_in.{e}.rev"));
        let (edge_out, edge_out_rev) =
            duplex(&mut net, rate, delay, format!("edge_out.{e}"), format!("edge_out.{e}.rev"));
        net.measured.extend([edge_in, edge_out]);
        net.pace_by_default.push(edge_in);
        for h in 0..spec.hosts_per_edge {
            let host = u64::from(e * spec.hosts_per_edge + h);
            let mut rng = stream(seed, "topology.access", host);
            let rate = uniform(&mut rng, spec.access_rate);
            let delay = uniform(&mut rng, spec.access_delay);
            let (up, down) =
                duplex(&mut net, rate, delay, format!("access.{host}.up"), format!("access.{host}.down"));
            let (sink_in, sink_out) =
                duplex(&mut net, rate, delay, format!("sink.{host}.in"), format!("sink.{host}.out"));
            let fwd = net.add_route(&[up, edge_in, core, edge_out, sink_in]);
            let rev = net.add_route(&[sink_out, edge_out_rev, core_rev, edge_in_rev, down]);
            net.flows.push(FlowPath { fwd, rev });
        }
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::QueueKind;

    const MS: u64 = 1_000_000;

    fn paper(edges: u32, hosts: u32) -> Network {
        let core = Core {
            rate: 100_000_000,
            delay: 100 * MS,
            buffer: 10_000,
            buffer_packets: None,
            red: Default::default(),
            queue: QueueKind::Droptail,
        };
        let spec = EBase {
            edges,
            hosts_per_edge: hosts,
            access_rate: [8_000_000, 12_000_000],
            access_delay: [MS, 5 * MS],
            edge_rate: [100_000_000, 100_000_000],
            edge_delay: [5 * MS, 15 * MS],
        };
        let mut net = build(&spec, &core, 1);
        net.mark_cut_through();
        net
    }

    #[test]
    fn paper_size_has_1000_flows_and_rtts_in_224_280_ms() {
        let net = paper(10, 100);
        assert_eq!(net.flows.len(), 1000);
        assert_eq!(net.links.len(), 2 + 10 * 4 + 1000 * 4);
        let rtts: Vec<f64> = (0..1000).map(|f| net.base_rtt(f, 1040, 40) as f64 / 1e6).collect();
        let (lo, hi) = rtts.iter().fold((f64::MAX, 0f64), |(a, b), &r| (a.min(r), b.max(r)));
        // Propagation alone spans [224, 280] ms; serialisation adds under 3 ms.
        assert!(lo >= 224.0 && hi <= 283.0, "{lo} {hi}");
        assert!(lo < 235.0 && hi > 265.0, "draws should spread over the range: {lo} {hi}");
    }

    #[test]
    fn only_the_core_queue_can_drop_and_draws_do_not_depend_on_size() {
        let small = paper(2, 3);
        let big = paper(10, 100);
        let limited: Vec<_> = small.links.iter().filter(|l| l.queue != DropTail::unlimited()).collect();
        assert_eq!(limited.len(), 1);
        // Cut through: the sink's access link (fed by edge_out only), and on
        // the ACK path C0 -> E_S (fed by core.rev only) and E_S -> host.
        let flow = small.flows[4];
        let fwd: Vec<bool> = small.route(flow.fwd).iter().map(|&l| small.cut_through[l as usize]).collect();
        let rev: Vec<bool> = small.route(flow.rev).iter().map(|&l| small.cut_through[l as usize]).collect();
        assert_eq!(fwd, vec![false, false, false, false, true]);
        assert_eq!(rev, vec![false, false, false, true, true]);
        // Host 1 of edge 0 keeps its access link when the network grows.
        let access = |n: &Network, flow: usize| n.links[n.route(n.flows[flow].fwd)[0] as usize].rate_bps;
        assert_eq!(access(&small, 1), access(&big, 1));
    }
}
