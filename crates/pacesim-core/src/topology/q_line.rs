//! Paper Q's three-node line (Sec IV-B, Fig. 8; Q-tab2): host `n0` sends
//! to host `n2` through router `n1`, whose link towards `n2` carries the
//! QLBP pacer. Both links 15 Mb/s and 10 ms in the paper; the second is
//! the core link (rate, delay and queue from `[core]`), paced by default.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::graph::{Graph, LinkSpec};
use crate::sim::rng::{stream, uniform};
use crate::spec::{ordered, InvalidField, Range, MBPS, MS};

/// Paper Q Sec IV-B (Fig. 8, Q-tab2): host n0 -> router n1 -> host n2, the
/// link n1 -> n2 the core, paced by default; 15 Mb/s and 10 ms each. No TCP
/// flows. The core queue is effectively unlimited (the pacer's q_lim
/// bounds the queue in the paper's experiment).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
#[schemars(extend("x-core" = {"rate": 15 * MBPS, "delay": 10 * MS, "buffer": 10_000_000}))]
#[schemars(extend("x-flows" = []))]
pub struct QLine {
    /// The n0 -> n1 link's rate (paper Q Sec IV-B: 15 Mb/s).
    #[schemars(title = "Access link rate", extend("x-unit" = "bit/s"))]
    pub access_rate: Range,
    /// The n0 -> n1 link's delay (paper Q Sec IV-B: 10 ms).
    #[schemars(extend("x-unit" = "ns"))]
    pub access_delay: Range,
}

impl Default for QLine {
    fn default() -> Self {
        QLine { access_rate: [15 * MBPS; 2], access_delay: [10 * MS; 2] }
    }
}

impl QLine {
    /// Each range is [low, high]; the error names the key.
    pub fn validate(&self) -> Result<(), InvalidField> {
        ordered("topology.access_rate", self.access_rate)?;
        ordered("topology.access_delay", self.access_delay)
    }
}

/// Links `in`/`in.rev` and `core`/`core.rev`; no TCP flows (the traffic
/// section adds the CBR source).
pub fn graph(spec: &QLine, seed: u64) -> Graph {
    let mut rng = stream(seed, "topology.access", 0);
    let (rate, delay) = (uniform(&mut rng, spec.access_rate), uniform(&mut rng, spec.access_delay));
    let mut out = LinkSpec::core("n1", "n2");
    out.forward.pace = true;
    Graph {
        nodes: vec!["n1".into()],
        hosts: vec!["n0".into(), "n2".into()],
        links: vec![
            LinkSpec::fixed("n0".into(), "n1".into(), rate, delay, "in".into(), "in.rev".into()),
            out,
        ],
        flows: Vec::new(),
    }
}
