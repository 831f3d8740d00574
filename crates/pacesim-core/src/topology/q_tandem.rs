//! Paper Q's tandem of pacer nodes (Sec IV-C, Fig. 13; Q-fig15): host
//! `src` sends through routers `p1 .. pK` to host `dst`, each `pJ` pacing
//! its outgoing link. All links 10 Mb/s and 2 ms in the paper; the last
//! one (`pK -> dst`, where the paper counts arriving bytes) is the core.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::graph::{Graph, LinkSpec};
use crate::sim::rng::{stream, uniform};
use crate::spec::{ordered, InvalidField, Range, MBPS, MS};

/// Paper Q Sec IV-C (Fig. 13, Q-fig15): host src -> p1 .. pK -> host dst,
/// each pacer node pacing its outgoing link; all 10 Mb/s and 2 ms; the last
/// link (where the paper counts arriving bytes) is the core.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
#[schemars(extend("x-core" = {"rate": 10 * MBPS, "delay": 2 * MS, "buffer": 10_000_000}))]
#[schemars(extend("x-flows" = []))]
pub struct QTandem {
    /// Pacer nodes in a row (paper Q Fig. 15: 1-3).
    #[schemars(title = "QLBP pacers in tandem", range(min = 1))]
    pub pacers: u32,
    /// Every link's rate but the core's (paper Q Sec IV-C: 10 Mb/s).
    #[schemars(extend("x-unit" = "bit/s"))]
    pub link_rate: Range,
    /// Every link's delay but the core's (paper Q Sec IV-C: 2 ms).
    #[schemars(extend("x-unit" = "ns"))]
    pub link_delay: Range,
}

impl Default for QTandem {
    fn default() -> Self {
        QTandem { pacers: 1, link_rate: [10 * MBPS; 2], link_delay: [2 * MS; 2] }
    }
}

impl QTandem {
    /// Each range is [low, high]; the error names the key.
    pub fn validate(&self) -> Result<(), InvalidField> {
        ordered("topology.link_rate", self.link_rate)?;
        ordered("topology.link_delay", self.link_delay)
    }
}

/// Links `hop.0` (`src -> p1`), `hop.J` (`pJ -> pJ+1`), and `core`
/// (`pK -> dst`), each with a `.rev` half; every link leaving a pacer node
/// is paced by default.
pub fn graph(spec: &QTandem, seed: u64) -> Graph {
    let routers: Vec<String> = (1..=spec.pacers).map(|j| format!("p{j}")).collect();
    let mut g = Graph {
        nodes: routers.clone(),
        hosts: vec!["src".into(), "dst".into()],
        links: Vec::new(),
        flows: Vec::new(),
    };
    let mut from = "src".to_string();
    for (j, to) in routers.iter().enumerate() {
        let mut rng = stream(seed, "topology.link", j as u64);
        let (rate, delay) = (uniform(&mut rng, spec.link_rate), uniform(&mut rng, spec.link_delay));
        let mut l =
            LinkSpec::fixed(from, to.clone(), rate, delay, format!("hop.{j}"), format!("hop.{j}.rev"));
        l.forward.pace = j > 0;
        g.links.push(l);
        from = to.clone();
    }
    let mut last = LinkSpec::core(&from, "dst");
    last.forward.pace = true;
    g.links.push(last);
    g
}
