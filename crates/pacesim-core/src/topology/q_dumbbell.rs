//! Paper Q's dumbbell (Sec IV-D, Fig. 17; Q-fig18, Q-tab3): core routers
//! `c0 -> c1`; four access routers `a<j>` into `c0`, ten senders `s<i>`
//! behind each; `c1` feeds ten receivers `r<k>`, and sender `i` sends to
//! receiver `i mod receivers`. All links 100 Mb/s; `a<j> -> c0` and the
//! core 20 ms; host links U[1, 10] ms (RTT about 100 ms). The access
//! routers' queues hold 2000 packets and their links to `c0` carry the
//! QLBP pacers by default.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::graph::{FlowSpec, Graph, LinkSpec};
use crate::sim::rng::{stream, uniform};
use crate::spec::{ordered, InvalidField, Range, MBPS, MS};

/// Paper Q Sec IV-D (Fig. 17, Q-fig18): 4 access routers x 10 senders into
/// c0, core c0 -> c1, 10 receivers (sender i sends to receiver i mod 10);
/// all links 100 Mb/s, a -> c0 and the core 20 ms, host links U[1, 10] ms;
/// the access routers' queues hold 2000 packets and carry the pacers. The
/// core buffer is in packets (core.buffer_packets, 1-100 in the paper).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
#[schemars(extend("x-core" = {"rate": 100 * MBPS, "delay": 20 * MS, "buffer": 100_000_000, "buffer_packets": 20}))]
#[schemars(extend("x-flows" = ["access_routers", "senders_per_router"]))]
#[schemars(extend("x-hosts" = ["receivers"]))]
pub struct QDumbbell {
    /// Access routers feeding c0 (paper Q Sec IV-D: 4).
    #[schemars(range(min = 1))]
    pub access_routers: u32,
    /// TCP senders behind each access router (paper Q: 10).
    #[schemars(range(min = 1))]
    pub senders_per_router: u32,
    /// Receivers behind c1; sender i sends to receiver i mod receivers (paper Q: 10).
    #[schemars(range(min = 1))]
    pub receivers: u32,
    /// Every host link's rate (paper Q: 100 Mb/s).
    #[schemars(extend("x-unit" = "bit/s"))]
    pub host_rate: Range,
    /// Every host link's delay, drawn per link (paper Q: U[1, 10] ms).
    #[schemars(extend("x-unit" = "ns"))]
    pub host_delay: Range,
    /// Each access router's link into c0 (paper Q: 100 Mb/s).
    #[schemars(title = "Access link rate", extend("x-unit" = "bit/s"))]
    pub access_rate: Range,
    /// Its delay (paper Q: 20 ms).
    #[schemars(extend("x-unit" = "ns"))]
    pub access_delay: Range,
    /// The access routers' queue limit; the pacers sit there (paper Q: 2000).
    #[schemars(extend("x-unit" = "packets"), range(min = 1, max = u32::MAX))]
    pub access_buffer_packets: u64,
}

impl Default for QDumbbell {
    fn default() -> Self {
        QDumbbell {
            access_routers: 4,
            senders_per_router: 10,
            receivers: 10,
            host_rate: [100 * MBPS; 2],
            host_delay: [MS, 10 * MS],
            access_rate: [100 * MBPS; 2],
            access_delay: [20 * MS; 2],
            access_buffer_packets: 2000,
        }
    }
}

impl QDumbbell {
    /// Each range is [low, high]; the error names the key.
    pub fn validate(&self) -> Result<(), InvalidField> {
        ordered("topology.host_rate", self.host_rate)?;
        ordered("topology.host_delay", self.host_delay)?;
        ordered("topology.access_rate", self.access_rate)?;
        ordered("topology.access_delay", self.access_delay)
    }
}

/// Links `core`, `access.J` (`a<j> -> c0`), `host.I` (`s<i> -> a<j>`) and
/// `rx.K` (`c1 -> r<k>`), each with a `.rev` half.
pub fn graph(spec: &QDumbbell, seed: u64) -> Graph {
    let mut g = Graph {
        nodes: vec!["c0".into(), "c1".into()],
        hosts: Vec::new(),
        links: vec![LinkSpec::core("c0", "c1")],
        flows: Vec::new(),
    };
    let draw = |purpose: &str, i: u32, rate: Range, delay: Range| {
        let mut rng = stream(seed, purpose, i.into());
        (uniform(&mut rng, rate), uniform(&mut rng, delay))
    };
    for k in 0..spec.receivers {
        let (rate, delay) = draw("topology.receiver", k, spec.host_rate, spec.host_delay);
        g.links.push(LinkSpec::fixed(
            "c1".into(),
            format!("r{k}"),
            rate,
            delay,
            format!("rx.{k}"),
            format!("rx.{k}.rev"),
        ));
        g.hosts.push(format!("r{k}"));
    }
    for j in 0..spec.access_routers {
        let a = format!("a{j}");
        let (rate, delay) = draw("topology.edge", j, spec.access_rate, spec.access_delay);
        let mut up = LinkSpec::fixed(
            a.clone(),
            "c0".into(),
            rate,
            delay,
            format!("access.{j}"),
            format!("access.{j}.rev"),
        );
        up.forward.buffer_packets = Some(spec.access_buffer_packets);
        up.forward.measure = true;
        up.forward.pace = true;
        g.links.push(up);
        for h in 0..spec.senders_per_router {
            let i = j * spec.senders_per_router + h;
            let (rate, delay) = draw("topology.access", i, spec.host_rate, spec.host_delay);
            g.links.push(LinkSpec::fixed(
                format!("s{i}"),
                a.clone(),
                rate,
                delay,
                format!("host.{i}"),
                format!("host.{i}.rev"),
            ));
            g.hosts.push(format!("s{i}"));
            g.flows.push(FlowSpec { from: format!("s{i}"), to: format!("r{}", i % spec.receivers) });
        }
        g.nodes.push(a);
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::core_link::Core;
    use crate::topology::testing::rtt_range_ms;

    const MS: u64 = 1_000_000;

    #[test]
    fn forty_senders_ten_receivers_and_rtts_near_100_ms() {
        let spec = QDumbbell {
            access_routers: 4,
            senders_per_router: 10,
            receivers: 10,
            host_rate: [100_000_000; 2],
            host_delay: [MS, 10 * MS],
            access_rate: [100_000_000; 2],
            access_delay: [20 * MS; 2],
            access_buffer_packets: 2000,
        };
        let g = graph(&spec, 1);
        assert_eq!(
            (g.nodes.len(), g.hosts.len(), g.links.len(), g.flows.len()),
            (6, 50, 1 + 10 + 4 + 40, 40)
        );
        let net = g.build(&Core::droptail(100_000_000, 20 * MS, 1_000_000), 1, false).unwrap();
        // 2 (h + 20 + 20 + h') ms with h, h' in [1, 10]: 84-120 ms, about 100.
        let (lo, hi) = rtt_range_ms(&net);
        assert!(lo >= 84.0 && hi <= 121.0, "{lo} {hi}");
        let mean: f64 = (0..40).map(|f| net.base_rtt(f, 1040, 40) as f64 / 1e6).sum::<f64>() / 40.0;
        assert!((mean - 102.0).abs() < 8.0, "{mean}");
        assert_eq!(net.pace_by_default.len(), 4);
    }
}
