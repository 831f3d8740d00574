//! The A-base dumbbell (paper A Sec II, Fig. 1): routers `r0 -> r1` joined
//! by the core (bottleneck) link; each TCP sender `s-tcp<i>` on its own
//! access link into `r0`, its receiver `d-tcp<i>` behind `r1`; one
//! aggregate UDP sender `s-udp` on its own access link, its receiver
//! `d-udp` behind `r1`.
//!
//! The paper gives the sender-side delays only (TCP access U[1, 25] ms, UDP
//! 5 ms, core 50 ms) and RTTs of 102-150 ms, so the receivers' links have
//! no propagation delay and mirror their sender's rate. Rates and delays
//! are drawn per host from the "topology.access" stream.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::graph::{FlowSpec, Graph, LinkSpec};
use crate::sim::rng::{stream, uniform};
use crate::spec::{ordered, InvalidField, Range, MBPS, MS};

/// Paper A Sec II (Fig. 1): routers r0 -> r1 (the core, 50 ms); each of
/// `tcp_hosts` TCP senders on its own access link into r0, one aggregate
/// UDP sender (host "s-udp", receiver "d-udp") on its own. The paper gives
/// sender-side delays only and RTTs of 102-150 ms, so receivers' links have
/// no delay. Access rate 10 Mb/s as in A-fig11 (A-fig2 uses 1 Mb/s).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
#[schemars(extend("x-core" = {"rate": 100 * MBPS, "delay": 50 * MS, "buffer": 10_000}))]
#[schemars(extend("x-flows" = ["tcp_hosts"]))]
#[schemars(extend("x-scale" = {"hosts": "tcp_hosts", "rates": ["access_rate", "udp_access_rate"]}))]
pub struct ABase {
    /// TCP senders, one flow each (paper A Sec II: 1000); 0 leaves the UDP host alone on the core.
    #[schemars(title = "TCP flows")]
    pub tcp_hosts: u32,
    /// Each TCP host's access link rate (A-fig11: 10 Mb/s; A-fig2: 1 Mb/s).
    #[schemars(title = "Access link rate", extend("x-unit" = "bit/s"))]
    pub access_rate: Range,
    /// Each TCP host's access link delay, drawn per link (RTTs of 102-150 ms, paper A Sec II).
    #[schemars(extend("x-unit" = "ns"))]
    pub access_delay: Range,
    /// The UDP host's access link rate.
    #[schemars(extend("x-unit" = "bit/s"))]
    pub udp_access_rate: Range,
    /// The UDP host's access link delay.
    #[schemars(extend("x-unit" = "ns"))]
    pub udp_access_delay: Range,
}

impl Default for ABase {
    fn default() -> Self {
        ABase {
            tcp_hosts: 1000,
            access_rate: [10 * MBPS; 2],
            access_delay: [MS, 25 * MS],
            udp_access_rate: [100 * MBPS; 2],
            udp_access_delay: [5 * MS; 2],
        }
    }
}

impl ABase {
    /// Each range is [low, high]; the error names the key.
    pub fn validate(&self) -> Result<(), InvalidField> {
        ordered("topology.access_rate", self.access_rate)?;
        ordered("topology.access_delay", self.access_delay)?;
        ordered("topology.udp_access_rate", self.udp_access_rate)?;
        ordered("topology.udp_access_delay", self.udp_access_delay)
    }
}

/// Links: `core`/`core.rev`, `access.I.up`/`.down`, `sink.I.in`/`.out`,
/// `udp.up`/`.down`, `udp.sink.in`/`.out`; hosts `s-tcp<i>`, `d-tcp<i>`,
/// `s-udp`, `d-udp` (the paper's names).
pub fn graph(spec: &ABase, seed: u64) -> Graph {
    let mut g = Graph {
        nodes: vec!["r0".into(), "r1".into()],
        hosts: Vec::new(),
        links: vec![LinkSpec::core("r0", "r1")],
        flows: Vec::new(),
    };
    // Host pair `s-<name>` -> `d-<name>`: links `<up>.up`/`.down` and `<sink>.in`/`.out`.
    let attach = |g: &mut Graph, name: &str, up: &str, sink: &str, rate: Range, delay: Range, index: u64| {
        let mut rng = stream(seed, "topology.access", index);
        let (rate, delay) = (uniform(&mut rng, rate), uniform(&mut rng, delay));
        let (s, d) = (format!("s-{name}"), format!("d-{name}"));
        g.links.push(LinkSpec::fixed(
            s.clone(),
            "r0".into(),
            rate,
            delay,
            format!("{up}.up"),
            format!("{up}.down"),
        ));
        g.links.push(LinkSpec::fixed(
            "r1".into(),
            d.clone(),
            rate,
            0,
            format!("{sink}.in"),
            format!("{sink}.out"),
        ));
        g.hosts.extend([s.clone(), d.clone()]);
        (s, d)
    };
    for i in 0..spec.tcp_hosts {
        let (up, sink) = (format!("access.{i}"), format!("sink.{i}"));
        let (s, d) =
            attach(&mut g, &format!("tcp{i}"), &up, &sink, spec.access_rate, spec.access_delay, i.into());
        g.flows.push(FlowSpec { from: s, to: d });
    }
    let (rate, delay) = (spec.udp_access_rate, spec.udp_access_delay);
    attach(&mut g, "udp", "udp", "udp.sink", rate, delay, spec.tcp_hosts.into());
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::core_link::Core;
    use crate::topology::testing::rtt_range_ms;

    const MS: u64 = 1_000_000;

    #[test]
    fn paper_size_has_1000_tcp_flows_a_udp_host_and_rtts_of_102_150_ms() {
        let spec = ABase {
            tcp_hosts: 1000,
            access_rate: [10_000_000; 2],
            access_delay: [MS, 25 * MS],
            udp_access_rate: [100_000_000; 2],
            udp_access_delay: [5 * MS; 2],
        };
        let g = graph(&spec, 1);
        assert_eq!((g.nodes.len(), g.hosts.len(), g.links.len(), g.flows.len()), (2, 2002, 2003, 1000));
        assert!(g.hosts.contains(&"s-udp".to_string()) && g.hosts.contains(&"d-udp".to_string()));
        let net = g.build(&Core::droptail(100_000_000, 50 * MS, 10_000), 1, false).unwrap();
        // Propagation 2 (d + 50 ms), d in [1, 25] ms; serialisation adds
        // 2 x 0.83 ms on the 10 Mb/s access links and 0.09 ms at the core.
        let (lo, hi) = rtt_range_ms(&net);
        assert!(lo >= 102.0 && hi <= 150.0 + 1.8, "{lo} {hi}");
        assert!(lo < 106.0 && hi > 145.0, "{lo} {hi}");
    }
}
