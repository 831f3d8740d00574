//! Networks as the engine runs them: links, the routes flows take over
//! them, and names for the links a run measures.
//!
//! A scenario's topology is either written out as a general [`graph::Graph`]
//! or named, and each named topology is a short builder beside this file
//! producing a `Graph` with its paper's layout: [`ebase`], [`abase`],
//! [`q_line`], [`q_tandem`], [`q_dumbbell`], [`w_dumbbell`]. [`Graph::build`]
//! turns a graph into a [`Network`], routing flows by shortest path
//! ([`route`]).

pub mod abase;
pub mod ebase;
pub mod graph;
pub mod network;
pub mod q_dumbbell;
pub mod q_line;
pub mod q_tandem;
pub mod route;
pub mod w_dumbbell;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

pub use graph::Graph;
pub use network::{FlowPath, Network};

use crate::net::core_link::Core;
use crate::spec::tagged::{self, Tagged};
use crate::spec::{InvalidField, Range};

/// The network a scenario describes: named, or a general graph.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Topology {
    EBase(ebase::EBase),
    ABase(abase::ABase),
    QLine(q_line::QLine),
    QTandem(q_tandem::QTandem),
    QDumbbell(q_dumbbell::QDumbbell),
    WDumbbell(w_dumbbell::WDumbbell),
    Graph(Graph),
}

impl Tagged for Topology {
    const TAG: &'static str = "kind";
    const VARIANTS: &'static [&'static str] =
        &["e-base", "a-base", "q-line", "q-tandem", "q-dumbbell", "w-dumbbell", "graph"];

    fn variant<'de, D: Deserializer<'de>>(name: &str, rest: D) -> Result<Self, D::Error> {
        Ok(match name {
            "e-base" => Topology::EBase(Deserialize::deserialize(rest)?),
            "a-base" => Topology::ABase(Deserialize::deserialize(rest)?),
            "q-line" => Topology::QLine(Deserialize::deserialize(rest)?),
            "q-tandem" => Topology::QTandem(Deserialize::deserialize(rest)?),
            "q-dumbbell" => Topology::QDumbbell(Deserialize::deserialize(rest)?),
            "w-dumbbell" => Topology::WDumbbell(Deserialize::deserialize(rest)?),
            "graph" => Topology::Graph(Deserialize::deserialize(rest)?),
            other => return Err(serde::de::Error::unknown_variant(other, Self::VARIANTS)),
        })
    }
}

/// Read with [`tagged`], so an error inside names its path (`topology.links[3].rate`).
impl<'de> Deserialize<'de> for Topology {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        tagged::deserialize(d)
    }
}

impl Topology {
    /// The general form of this topology (rates and delays of the named
    /// ones drawn from `seed`'s streams).
    pub fn graph(&self, seed: u64) -> std::borrow::Cow<'_, Graph> {
        use std::borrow::Cow::{Borrowed, Owned};
        match self {
            Topology::EBase(t) => Owned(ebase::graph(t, seed)),
            Topology::ABase(t) => Owned(abase::graph(t, seed)),
            Topology::QLine(t) => Owned(q_line::graph(t, seed)),
            Topology::QTandem(t) => Owned(q_tandem::graph(t, seed)),
            Topology::QDumbbell(t) => Owned(q_dumbbell::graph(t, seed)),
            Topology::WDumbbell(t) => Owned(w_dumbbell::graph(t, seed)),
            Topology::Graph(g) => Borrowed(g),
        }
    }

    /// Every link delay the topology's spec gives, as (its field, its largest
    /// value in ns), so that one past the engine's clock is refused naming
    /// the field (`topology.links[3].delay`) before a link is built.
    pub fn delays(&self) -> Vec<(String, u64)> {
        let most = |field: &str, r: Range| (format!("topology.{field}"), r[0].max(r[1]));
        match self {
            Topology::EBase(t) => {
                let mut out = vec![most("access_delay", t.access_delay), most("edge_delay", t.edge_delay)];
                out.extend(t.udp.as_ref().map(|u| ("topology.udp.delay".to_string(), u.delay)));
                out
            }
            Topology::ABase(t) => {
                vec![most("access_delay", t.access_delay), most("udp_access_delay", t.udp_access_delay)]
            }
            Topology::QLine(t) => vec![most("access_delay", t.access_delay)],
            Topology::QTandem(t) => vec![most("link_delay", t.link_delay)],
            Topology::QDumbbell(t) => {
                vec![most("host_delay", t.host_delay), most("access_delay", t.access_delay)]
            }
            Topology::WDumbbell(t) => vec![most("access_delay", t.access_delay)],
            Topology::Graph(g) => g
                .links
                .iter()
                .enumerate()
                .filter_map(|(i, l)| l.delay.map(|d| most(&format!("links[{i}].delay"), d)))
                .collect(),
        }
    }

    /// The network, with every flow routed (and, `two_way`, its twin).
    pub fn build(&self, core: &Core, seed: u64, two_way: bool) -> Result<Network, InvalidField> {
        self.graph(seed).build(core, seed, two_way)
    }
}

/// Helpers for the builders' tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::Network;

    /// Smallest and largest base RTT over the flows, ms (1040 B out, 40 B back).
    pub fn rtt_range_ms(net: &Network) -> (f64, f64) {
        (0..net.flows.len())
            .map(|f| net.base_rtt(f, 1040, 40) as f64 / 1e6)
            .fold((f64::MAX, 0f64), |(a, b), r| (a.min(r), b.max(r)))
    }
}
