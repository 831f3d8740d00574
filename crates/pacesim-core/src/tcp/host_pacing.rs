//! Host (TCP) pacing: the sender spaces its transmissions instead of
//! sending a window's worth back to back (paper W Sec IV; paper E Sec 3).
//!
//! Two pacers, chosen by `pacing.host_pacer`:
//!
//! - [`wei`]: David X. Wei's ns-2 pacing patch ("A TCP Pacing
//!   Implementation for NS2", 2006), which papers E and W ran (paper E Sec
//!   3.1: "The patch for end-host TCP pacing was obtained from [21]");
//! - [`paper_w`]: paper W's prose (Sec IV), pacesim's first reading, a
//!   scenario's default (runs stored before Wei's patch was modelled used
//!   it; the record's paced figures set `wei`).
//!
//! A sender asks its pacer at four points of its `send_much` (see
//! `tcp::state`): before it (`begin`: may it send now, and how many
//! packets), before each packet (`holds`), after each new packet and after
//! the loop (`end`: re-arm the timer). Each pacer answers the questions its
//! reading has and lets the others pass. ns-2's delayed send ([`delayed`],
//! `tcp.overhead`), which holds an unpaced sender's bursts, asks two.

pub mod delayed;
pub mod paper_w;
pub mod wei;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use delayed::{BurstHold, DelayedSend};
pub use paper_w::PaperW;
pub use wei::{Wei, WeiSpec};

use crate::sim::rng::Stream;
use crate::spec::{bad, InvalidField};

/// Host pacing rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum HostPacingMode {
    /// RTT / cwnd (Wei's ns-2 patch, `pace_packet_ 1`).
    #[default]
    Original,
    /// Pace with the window of the next RTT (paper W eq. 7; Wei's `pace_packet_ 2`).
    Modified,
    /// Linux / ns-3 pacing rate: 2 or 1.2 times max(cwnd, in flight) per RTT
    /// (the paper-w pacer only).
    Rate,
}

/// Which host pacer paces (`pacing.host_pacer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum HostPacerKind {
    /// Paper W's prose (Sec IV) as pacesim first read it: the gap fixed as a
    /// packet leaves, RTT a 1/8-gain mean; the runs stored before Wei's
    /// patch was modelled.
    #[default]
    PaperW,
    /// Wei's ns-2 pacing patch, which papers E and W ran: its own RTT mean,
    /// the least RTT in recovery, the gap re-evaluated on every ACK, one
    /// packet per send (see `[pacing.wei]` for its options).
    Wei,
}

/// How paced hosts pace: the pacer, its rule and Wei's options, as a
/// scenario gives them in `[pacing]` with `scheme = "host"`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HostPacing {
    /// How paced hosts space their packets (host scheme): RTT/cwnd, paper W
    /// eq. 7, or the Linux rate (the paper-w pacer only).
    #[serde(rename = "host_mode", default)]
    pub mode: HostPacingMode,
    /// Which host pacer (host scheme): Wei's ns-2 pacing patch, which papers
    /// E and W ran (paper E Sec 3.1, its [21]), or paper W's prose as
    /// pacesim first read it (Sec IV; the default, which runs stored before
    /// Wei's patch was modelled used).
    #[serde(rename = "host_pacer", default)]
    pub pacer: HostPacerKind,
    /// Options of Wei's pacer (host scheme, `host_pacer = "wei"`).
    #[serde(default)]
    pub wei: WeiSpec,
}

impl HostPacing {
    /// Whether this is Linux's own pacing, fq's or TCP's internal, which
    /// pace at `tcp_update_pacing_rate`'s rate and set the flow's
    /// `sk_pacing_status`: `host_mode = "rate"` only (the other rules are
    /// ns-2-era pacers that Linux's TCP would not know of).
    pub fn is_linux(&self) -> bool {
        self.mode == HostPacingMode::Rate
    }

    /// Check that the rule and options are the pacer's; the error names the
    /// field under `prefix` (`pacing`).
    pub fn validate(&self, prefix: &str) -> Result<(), InvalidField> {
        match self.pacer {
            HostPacerKind::Wei if self.mode == HostPacingMode::Rate => Err(bad(
                &format!("{prefix}.host_mode"),
                "\"rate\" is the paper-w pacer's; Wei's patch paces \"original\" or \"modified\"",
            )),
            HostPacerKind::PaperW => match self.wei.first_set() {
                Some(option) => Err(bad(
                    &format!("{prefix}.wei.{option}"),
                    format!("an option of Wei's pacer: set {prefix}.host_pacer = \"wei\""),
                )),
                None => Ok(()),
            },
            HostPacerKind::Wei => self.wei.validate(&format!("{prefix}.wei")),
        }
    }
}

/// What holds a sender's `send_much`: a paced sender's pacer, or an
/// unpaced one's delayed send (`tcp.overhead`, [`delayed`]).
#[derive(Debug, Clone)]
pub enum HostPacer {
    PaperW(PaperW),
    Wei(Wei),
    Delayed(DelayedSend),
}

impl HostPacer {
    /// The pacer `spec` describes; `rng` is the sender's stream for
    /// Wei's jitter (`pacing.wei.overhead`), drawn from only if it is on.
    pub fn new(spec: &HostPacing, rng: impl FnOnce() -> Stream) -> Self {
        match spec.pacer {
            HostPacerKind::PaperW => HostPacer::PaperW(PaperW::new(spec.mode)),
            HostPacerKind::Wei => {
                let rng = (spec.wei.overhead > 0).then(rng);
                HostPacer::Wei(Wei::new(spec.mode == HostPacingMode::Modified, &spec.wei, rng))
            }
        }
    }
}
