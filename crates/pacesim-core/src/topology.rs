//! Networks as the engine runs them: links, the routes flows take over
//! them, and names for the links a run measures.
//!
//! A scenario's topology is either written out as a general [`graph::Graph`]
//! or named, and each named topology is a short builder beside this file
//! producing a `Graph` with its paper's layout: [`ebase`], [`abase`],
//! [`q_line`], [`q_tandem`], [`q_dumbbell`], [`w_dumbbell`]. [`Graph::build`]
//! turns a graph into a [`Network`], routing flows by shortest path
//! ([`route`]).
//!
//! What the front asks of a kind without building it is in its schema,
//! beside its keys: `x-core`, its core link's defaults; `x-flows`, the keys
//! whose product is its TCP flow count (a list's length for a list; none for
//! a kind without TCP flows), the last the one that sets it; `x-hosts`, the
//! keys counting hosts that are no flow's own (Q's receivers); `x-scale`,
//! the key of its TCP hosts and the rates a paper-size run made small by k
//! multiplies by k (`python/pacesim/sweep.py`, `scaled`).

pub mod graph;
pub mod names;
pub mod network;
pub mod route;
pub mod routes;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

pub use graph::Graph;
pub use names::Names;
pub use network::{FlowPath, Network};
pub use routes::Routes;

use crate::net::core_link::Core;
use crate::spec::tagged::{self, Tagged};
use crate::spec::InvalidField;

/// The registry of named topologies, one line each: `"kind" =>
/// Variant(module::Spec)`, where `module` is the builder's file beside this
/// one (declared here), `Spec` its spec (the kind's keys, its `validate`),
/// `module::graph(&Spec, seed)` its builder and `Variant` its name in
/// `Topology`. (The spec's path is written out: `scripts/imports.py` reads
/// it as this file's arrow to the module.) The line is all a new kind needs outside its file: it makes
/// the `Topology` variant (its wire name the literal), its name among the
/// choices, and its arms of [`Topology::graph`] and [`Topology::validate`].
/// A general graph (`kind = "graph"`) is the last choice.
macro_rules! named_topologies {
    ($($kind:literal => $variant:ident($module:ident::$spec:ident)),* $(,)?) => {
        $(pub mod $module;)*

        /// The network a scenario describes: named, or a general graph.
        #[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
        #[serde(tag = "kind")]
        pub enum Topology {
            $(#[serde(rename = $kind)] $variant($module::$spec),)*
            #[serde(rename = "graph")]
            Graph(Graph),
        }

        impl Tagged for Topology {
            const TAG: &'static str = "kind";
            const VARIANTS: &'static [&'static str] = &[$($kind,)* "graph"];

            fn variant<'de, D: Deserializer<'de>>(name: &str, rest: D) -> Result<Self, D::Error> {
                Ok(match name {
                    $($kind => Topology::$variant(Deserialize::deserialize(rest)?),)*
                    "graph" => Topology::Graph(Deserialize::deserialize(rest)?),
                    other => return Err(serde::de::Error::unknown_variant(other, Self::VARIANTS)),
                })
            }
        }

        impl Topology {
            /// The general form of this topology (rates and delays of the named
            /// ones drawn from `seed`'s streams).
            pub fn graph(&self, seed: u64) -> std::borrow::Cow<'_, Graph> {
                use std::borrow::Cow::{Borrowed, Owned};
                match self {
                    $(Topology::$variant(t) => Owned($module::graph(t, seed)),)*
                    Topology::Graph(g) => Borrowed(g),
                }
            }

            /// Check the kind's rules across its keys (each range [low, high], and
            /// E-base's rates positive); the error names the key. A graph's links
            /// are checked as it is built ([`Graph::build`]).
            pub fn validate(&self) -> Result<(), InvalidField> {
                match self {
                    $(Topology::$variant(t) => t.validate(),)*
                    Topology::Graph(_) => Ok(()),
                }
            }
        }
    };
}

named_topologies! {
    "e-base" => EBase(ebase::EBase),
    "a-base" => ABase(abase::ABase),
    "q-line" => QLine(q_line::QLine),
    "q-tandem" => QTandem(q_tandem::QTandem),
    "q-dumbbell" => QDumbbell(q_dumbbell::QDumbbell),
    "w-dumbbell" => WDumbbell(w_dumbbell::WDumbbell),
}

/// Read with [`tagged`], so an error inside names its path (`topology.links[3].rate`).
impl<'de> Deserialize<'de> for Topology {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        tagged::deserialize(d)
    }
}

impl Topology {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::core_link::Core;
    use serde_json::{json, Value};

    /// Each kind's `x-flows` counts the flows its network routes, at its
    /// defaults (a graph of two flows) and with the key that sets it doubled.
    #[test]
    fn each_kind_declares_its_flow_count() {
        let schema = schemars::schema_for!(Topology).to_value();
        let graph = json!({"kind": "graph", "nodes": ["a", "b"], "hosts": ["h", "g"],
            "links": [{"from": "h", "to": "a", "rate": [1000000, 1000000], "delay": [0, 0]}, {"from": "a", "to": "b", "core": true},
                {"from": "b", "to": "g", "rate": [1000000, 1000000], "delay": [0, 0]}],
            "flows": [{"from": "h", "to": "g"}, {"from": "g", "to": "h"}]});
        let named = Topology::VARIANTS.iter().filter(|k| **k != "graph");
        let mut wires: Vec<Value> =
            named.map(|k| wire(serde_json::from_value(json!({"kind": k})).unwrap())).collect();
        wires.push(graph);
        for mut w in wires {
            let kind = w["kind"].as_str().unwrap().to_string();
            let branches = schema["oneOf"].as_array().unwrap();
            let branch = branches.iter().find(|b| b["properties"]["kind"]["const"] == kind.as_str()).unwrap();
            let keys: Vec<String> = serde_json::from_value(branch["x-flows"].clone()).expect(&kind);
            let declared = |w: &Value| -> usize {
                let count =
                    |k: &String| w[k].as_array().map_or_else(|| w[k].as_u64().unwrap() as usize, Vec::len);
                if keys.is_empty() {
                    0
                } else {
                    keys.iter().map(count).product()
                }
            };
            let built = |w: &Value| {
                let t: Topology = serde_json::from_value(w.clone()).unwrap();
                t.build(&Core::droptail(100_000_000, 10_000_000, 100_000), 1, false).unwrap().flows.len()
            };
            assert_eq!(declared(&w), built(&w), "{kind}");
            if let Some(last) = keys.last() {
                w[last] = match &w[last] {
                    Value::Array(l) => Value::Array([l.clone(), l.clone()].concat()),
                    n => (2 * n.as_u64().unwrap()).into(),
                };
                assert_eq!(declared(&w), built(&w), "{kind}, {last} doubled");
            }
        }
    }

    /// Each named kind holds every range of its (a key with a unit given as
    /// [low, high]) in order, naming the key; reversed, the draw had no
    /// range and panicked (only E-base had its rules before).
    #[test]
    fn each_kind_refuses_a_range_out_of_order_naming_it() {
        let schema = schemars::schema_for!(Topology).to_value();
        for branch in schema["oneOf"].as_array().unwrap() {
            let kind = branch["properties"]["kind"]["const"].as_str().unwrap();
            if kind == "graph" {
                continue; // its links' ranges are checked as it is built (tests/run.rs)
            }
            let keys = branch["properties"].as_object().unwrap();
            let ranges: Vec<&String> = keys
                .iter()
                .filter(|(_, k)| k["type"] == "array" && k.get("x-unit").is_some())
                .map(|(n, _)| n)
                .collect();
            assert!(ranges.len() >= 2, "{kind}: {ranges:?}");
            for key in ranges {
                let t: Topology = serde_json::from_value(json!({"kind": kind, key: [2, 1]})).unwrap();
                let e = t.validate().expect_err(key);
                assert_eq!(
                    e.to_string(),
                    format!("topology.{key}: range lower bound 2 exceeds upper bound 1")
                );
            }
        }
    }

    fn wire(t: Topology) -> Value {
        serde_json::to_value(t).unwrap()
    }
}
