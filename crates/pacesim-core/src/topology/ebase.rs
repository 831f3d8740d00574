//! The E-base dumbbell (paper E Sec 3.1, Fig. 2).
//!
//! `edges` ingress edge routers `es<e>` feed the core router `c0`, each fed
//! in turn by `hosts_per_edge` access links with one TCP sender `s<h>`
//! behind each. `c0 -> c1` is the core link, the only queue that can drop.
//! On the right, `c1` feeds `edges` egress edge routers `ed<e>` and their
//! sinks `d<h>`; each right-hand link is the twin (same rate and delay) of
//! its left-hand counterpart, as in the ns-2 reference scripts. ACKs take
//! the reverse halves.
//!
//! Rates and delays are drawn per element from named streams
//! ("topology.access" by host, "topology.edge" by edge), so changing the
//! number of hosts leaves every other element's draw unchanged.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::graph::{FlowSpec, Graph, LinkSpec};
use crate::sim::rng::{stream, uniform};
use crate::spec::{ordered, InvalidField, Range, MBPS, MS};

/// Paper E Sec 3.1 (Fig. 2): `edges` ingress edge links into the core
/// node, each fed by `hosts_per_edge` access links with one long-lived TCP
/// sender behind each, mirrored towards the sinks. Rates and delays are
/// drawn per link, uniformly over the given ranges.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
#[schemars(extend("x-core" = {"rate": 100 * MBPS, "delay": 100 * MS, "buffer": 10_000}))]
#[schemars(extend("x-flows" = ["edges", "hosts_per_edge"]))]
#[schemars(extend("x-scale" = {"hosts": "hosts_per_edge", "rates": ["access_rate", "edge_rate"]}))]
pub struct EBase {
    /// Ingress edge links into the core node (paper E Sec 3.1: 10).
    #[schemars(range(min = 1))]
    pub edges: u32,
    /// TCP senders behind each edge (paper E: 100, so 1000 flows).
    #[schemars(range(min = 1))]
    pub hosts_per_edge: u32,
    /// Each host's access link rate, drawn per link (paper E Sec 3.1; E-fig5 uses 100 Mb/s).
    #[schemars(title = "Access link rate", extend("x-unit" = "bit/s"))]
    pub access_rate: Range,
    /// Each access link's delay, drawn per link (paper E Sec 3.1).
    #[schemars(extend("x-unit" = "ns"))]
    pub access_delay: Range,
    /// Each edge link's rate (paper E Sec 3.1).
    #[schemars(extend("x-unit" = "bit/s"))]
    pub edge_rate: Range,
    /// Each edge link's delay, drawn per link (paper E Sec 3.1).
    #[schemars(extend("x-unit" = "ns"))]
    pub edge_delay: Range,
    /// An aggregate UDP host (paper E Sec 5): "s-udp" on its own edge link
    /// `edge_in.udp` into the core node (paced by default like the others),
    /// receiver "d-udp" behind the far end; absent: no UDP host.
    pub udp: Option<EBaseUdp>,
}

impl Default for EBase {
    fn default() -> Self {
        EBase {
            edges: 10,
            hosts_per_edge: 100,
            access_rate: [8 * MBPS, 12 * MBPS],
            access_delay: [MS, 5 * MS],
            edge_rate: [100 * MBPS; 2],
            edge_delay: [5 * MS, 15 * MS],
            udp: None,
        }
    }
}

/// The UDP host's link `edge_in.udp` (s-udp -> C0, paced by default like
/// the other ingress edges) and its twin `edge_out.udp` (C1 -> d-udp).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct EBaseUdp {
    /// The UDP host's link rate (paper E Sec 5: 100 Mb/s).
    #[schemars(extend("x-unit" = "bit/s"))]
    pub rate: u64,
    /// Its one-way delay (not in the paper: a mean access plus edge delay, 3 + 10 ms).
    #[schemars(extend("x-unit" = "ns"))]
    pub delay: u64,
}

impl Default for EBaseUdp {
    fn default() -> Self {
        EBaseUdp { rate: 100 * MBPS, delay: 13 * MS }
    }
}

impl EBase {
    /// Check that each range's ends are in order (every rate is positive
    /// by the schema's bounds, `spec::bounds::with_limits`); the error
    /// names the field.
    pub fn validate(&self) -> Result<(), InvalidField> {
        for (name, r) in [("topology.access_rate", self.access_rate), ("topology.edge_rate", self.edge_rate)]
        {
            ordered(name, r)?;
        }
        ordered("topology.access_delay", self.access_delay)?;
        ordered("topology.edge_delay", self.edge_delay)?;
        Ok(())
    }
}

/// Links are named `core`, `core.rev`, `edge_in.E`, `edge_out.E` (each with
/// a `.rev` half carrying ACKs), `access.H.up`/`.down` and
/// `sink.H.in`/`.out`; the core and edge links are measured, and the
/// ingress edges are where pacing goes by default.
pub fn graph(spec: &EBase, seed: u64) -> Graph {
    let hosts = (spec.edges * spec.hosts_per_edge) as usize;
    let udp = usize::from(spec.udp.is_some());
    // Room for exactly what follows (a link's spec is hundreds of bytes,
    // and doubling made this graph the peak of a large run's memory).
    let mut nodes = Vec::with_capacity(2 + 2 * spec.edges as usize);
    nodes.extend(["c0", "c1"].map(String::from));
    let mut links = Vec::with_capacity(1 + 2 * (spec.edges as usize + hosts + udp));
    links.push(LinkSpec::core("c0", "c1"));
    let mut g = Graph {
        nodes,
        hosts: Vec::with_capacity(2 * (hosts + udp)),
        links,
        flows: Vec::with_capacity(hosts),
    };
    for e in 0..spec.edges {
        let mut rng = stream(seed, "topology.edge", u64::from(e));
        let rate = uniform(&mut rng, spec.edge_rate);
        let delay = uniform(&mut rng, spec.edge_delay);
        let (es, ed) = (format!("es{e}"), format!("ed{e}"));
        let mut edge_in = LinkSpec::fixed(
            es.clone(),
            "c0".into(),
            rate,
            delay,
            format!("edge_in.{e}"),
            format!("edge_in.{e}.rev"),
        );
        edge_in.forward.measure = true;
        edge_in.forward.pace = true;
        let mut edge_out = LinkSpec::fixed(
            "c1".into(),
            ed.clone(),
            rate,
            delay,
            format!("edge_out.{e}"),
            format!("edge_out.{e}.rev"),
        );
        edge_out.forward.measure = true;
        g.links.extend([edge_in, edge_out]);
        for h in 0..spec.hosts_per_edge {
            let host = u64::from(e * spec.hosts_per_edge + h);
            let mut rng = stream(seed, "topology.access", host);
            let rate = uniform(&mut rng, spec.access_rate);
            let delay = uniform(&mut rng, spec.access_delay);
            let (s, d) = (format!("s{host}"), format!("d{host}"));
            g.links.push(LinkSpec::fixed(
                s.clone(),
                es.clone(),
                rate,
                delay,
                format!("access.{host}.up"),
                format!("access.{host}.down"),
            ));
            g.links.push(LinkSpec::fixed(
                ed.clone(),
                d.clone(),
                rate,
                delay,
                format!("sink.{host}.in"),
                format!("sink.{host}.out"),
            ));
            g.flows.push(FlowSpec { from: s.clone(), to: d.clone() });
            g.hosts.extend([s, d]);
        }
        g.nodes.extend([es, ed]);
    }
    if let Some(u) = &spec.udp {
        let (s, d) = ("s-udp".to_string(), "d-udp".to_string());
        let mut edge_in = LinkSpec::fixed(
            s.clone(),
            "c0".into(),
            u.rate,
            u.delay,
            "edge_in.udp".into(),
            "edge_in.udp.rev".into(),
        );
        edge_in.forward.measure = true;
        edge_in.forward.pace = true;
        let edge_out = LinkSpec::fixed(
            "c1".into(),
            d.clone(),
            u.rate,
            u.delay,
            "edge_out.udp".into(),
            "edge_out.udp.rev".into(),
        );
        g.links.extend([edge_in, edge_out]);
        g.hosts.extend([s, d]);
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::core_link::Core;
    use crate::net::DropTail;
    use crate::topology::testing::rtt_range_ms;
    use crate::topology::Network;

    const MS: u64 = 1_000_000;

    fn paper(edges: u32, hosts: u32) -> Network {
        let spec = EBase {
            edges,
            hosts_per_edge: hosts,
            access_rate: [8_000_000, 12_000_000],
            access_delay: [MS, 5 * MS],
            edge_rate: [100_000_000, 100_000_000],
            edge_delay: [5 * MS, 15 * MS],
            udp: None,
        };
        let mut net =
            graph(&spec, 1).build(&Core::droptail(100_000_000, 100 * MS, 10_000), 1, false).unwrap();
        net.mark_cut_through();
        net
    }

    #[test]
    fn paper_size_has_1000_flows_and_rtts_in_224_280_ms() {
        let net = paper(10, 100);
        assert_eq!(net.flows.len(), 1000);
        assert_eq!(net.links.len(), 2 + 10 * 4 + 1000 * 4);
        assert_eq!(net.nodes.len(), 2 + 20 + 2000);
        // Propagation alone spans [224, 280] ms; serialisation adds under 3 ms.
        let (lo, hi) = rtt_range_ms(&net);
        assert!(lo >= 224.0 && hi <= 283.0, "{lo} {hi}");
        assert!(lo < 235.0 && hi > 265.0, "draws should spread over the range: {lo} {hi}");
    }

    #[test]
    fn only_the_core_queue_can_drop_and_draws_do_not_depend_on_size() {
        let small = paper(2, 3);
        let big = paper(10, 100);
        let limited: Vec<_> =
            small.links.iter().filter(|l| l.queue().is_some_and(|q| *q != DropTail::unlimited())).collect();
        assert_eq!(limited.len(), 1);
        // The paper's paths: up, edge_in, core, edge_out, sink.in and back.
        let names = |n: &Network, r: u32| {
            n.route(r).iter().map(|&l| n.names.get(l as usize).to_owned()).collect::<Vec<_>>()
        };
        let flow = small.flows[4];
        assert_eq!(names(&small, flow.fwd), ["access.4.up", "edge_in.1", "core", "edge_out.1", "sink.4.in"]);
        assert_eq!(
            names(&small, flow.rev),
            ["sink.4.out", "edge_out.1.rev", "core.rev", "edge_in.1.rev", "access.4.down"]
        );
        // Cut through: the egress edge (fed by the core only) and the sink's
        // access link (fed by edge_out only), and on the ACK path C0 -> E_S
        // (fed by core.rev only) and E_S -> host.
        let fwd: Vec<bool> = small.route(flow.fwd).iter().map(|&l| small.cut_through[l as usize]).collect();
        let rev: Vec<bool> = small.route(flow.rev).iter().map(|&l| small.cut_through[l as usize]).collect();
        assert_eq!(fwd, vec![false, false, false, true, true]);
        assert_eq!(rev, vec![false, false, false, true, true]);
        // Host 1 of edge 0 keeps its access link when the network grows.
        let access = |n: &Network, flow: usize| n.links[n.route(n.flows[flow].fwd)[0] as usize].rate_bps;
        assert_eq!(access(&small, 1), access(&big, 1));
    }
}
