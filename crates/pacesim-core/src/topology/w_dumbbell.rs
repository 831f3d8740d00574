//! Paper W's dumbbell (Sec III; W-s1 .. W-s7): `flows` senders `s<i>` into
//! router `r0`, the core (bottleneck) link `r0 -> r1`, receivers `d<i>`
//! behind `r1`, every flow with the same RTT; plus a host pair `x-src` ->
//! `x-dst` for the exponential on-off cross traffic. Access links are fast
//! (1 Gb/s in the paper) with unlimited queues.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::graph::{FlowSpec, Graph, LinkSpec};
use crate::sim::rng::{stream, uniform};
use crate::spec::{ordered, InvalidField, Range, MBPS, MS};

/// Paper W Sec III: `flows` senders s<i> into r0, the core r0 -> r1,
/// receivers d<i> behind r1, all with one RTT (1 + 58 + 1 ms each way:
/// 120 ms, W's WAN scenarios); a host pair x-src -> x-dst for cross traffic.
/// Core buffer = the bandwidth-delay product of 1 Gb/s x 120 ms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
#[schemars(extend("x-core" = {"rate": 1000 * MBPS, "delay": 58 * MS, "buffer": 15_000_000}))]
#[schemars(extend("x-flows" = ["flows"]))]
pub struct WDumbbell {
    /// Sender-receiver pairs, one TCP flow each.
    #[schemars(range(min = 1))]
    pub flows: u32,
    /// Every host link's rate (paper W Sec III: 1 Gb/s); one draw serves
    /// all hosts so that every flow has the same RTT, as in the paper.
    #[schemars(title = "Access link rate", extend("x-unit" = "bit/s"))]
    pub access_rate: Range,
    /// Every host link's delay (paper W Sec III: 1 ms).
    #[schemars(extend("x-unit" = "ns"))]
    pub access_delay: Range,
}

impl Default for WDumbbell {
    fn default() -> Self {
        WDumbbell { flows: 16, access_rate: [1000 * MBPS; 2], access_delay: [MS; 2] }
    }
}

impl WDumbbell {
    /// Each range is [low, high]; the error names the key.
    pub fn validate(&self) -> Result<(), InvalidField> {
        ordered("topology.access_rate", self.access_rate)?;
        ordered("topology.access_delay", self.access_delay)
    }
}

/// Links `core`, `access.I`/`sink.I` and `cross`/`cross.sink`, each with a
/// `.rev` half.
pub fn graph(spec: &WDumbbell, seed: u64) -> Graph {
    let mut rng = stream(seed, "topology.access", 0);
    let (rate, delay) = (uniform(&mut rng, spec.access_rate), uniform(&mut rng, spec.access_delay));
    let mut g = Graph {
        nodes: vec!["r0".into(), "r1".into()],
        hosts: Vec::new(),
        links: vec![LinkSpec::core("r0", "r1")],
        flows: Vec::new(),
    };
    let pairs = (0..spec.flows)
        .map(|i| (format!("s{i}"), format!("d{i}"), format!("access.{i}"), format!("sink.{i}")));
    let cross = std::iter::once((
        "x-src".to_string(),
        "x-dst".to_string(),
        "cross".to_string(),
        "cross.sink".to_string(),
    ));
    for (i, (s, d, up, down)) in pairs.chain(cross).enumerate() {
        g.links.push(LinkSpec::fixed(s.clone(), "r0".into(), rate, delay, up.clone(), format!("{up}.rev")));
        g.links.push(LinkSpec::fixed(
            "r1".into(),
            d.clone(),
            rate,
            delay,
            down.clone(),
            format!("{down}.rev"),
        ));
        if i < spec.flows as usize {
            g.flows.push(FlowSpec { from: s.clone(), to: d.clone() });
        }
        g.hosts.extend([s, d]);
    }
    g
}
