//! Packet sizes of an open-loop source: uniform over a range or drawn
//! from a list, from the source's "udp.size" stream.

use rand::Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::sim::rng::{uniform, Stream};
use crate::spec::{InvalidField, MAX_PACKET};

/// Packet sizes on the wire, bytes, each in [1, [`MAX_PACKET`]] (an IPv4
/// packet's total length is 16 bits; a 1 GB datagram passed, issue 33):
/// the schema's bound, which `spec::bounds` checks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Sizes {
    /// Uniform over the closed range (`[s, s]`: always s).
    Range(#[schemars(extend("x-unit" = "bytes"), inner(range(min = 1, max = MAX_PACKET)))] [u64; 2]),
    /// Each packet one of these, equally likely.
    List(#[schemars(extend("x-unit" = "bytes"), inner(range(min = 1, max = MAX_PACKET)))] Vec<u64>),
}

impl Sizes {
    pub fn mean(&self) -> f64 {
        match self {
            Sizes::Range([lo, hi]) => (lo + hi) as f64 / 2.0,
            Sizes::List(l) => l.iter().sum::<u64>() as f64 / l.len() as f64,
        }
    }

    /// The smallest and the largest size drawn.
    pub fn bounds(&self) -> (u64, u64) {
        match self {
            Sizes::Range([lo, hi]) => (*lo, *hi),
            Sizes::List(l) => (l.iter().copied().min().unwrap_or(0), l.iter().copied().max().unwrap_or(0)),
        }
    }

    pub fn draw(&self, rng: &mut Stream) -> u32 {
        match self {
            Sizes::Range(r) => uniform(rng, *r) as u32,
            Sizes::List(l) => l[rng.gen_range(0..l.len())] as u32,
        }
    }

    /// A range in order, a list non-empty (each size's bounds are the
    /// schema's).
    pub fn validate(&self, field: &str) -> Result<(), InvalidField> {
        let bad = |message: String| InvalidField { field: field.into(), message };
        match self {
            Sizes::Range([lo, hi]) if lo > hi => {
                Err(bad(format!("range lower bound {lo} exceeds upper bound {hi}")))
            }
            Sizes::List(l) if l.is_empty() => Err(bad("the list of sizes is empty".into())),
            _ => Ok(()),
        }
    }
}
