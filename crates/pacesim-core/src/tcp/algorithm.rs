//! What a TCP variant's knobs make of a flow: its congestion control and its
//! loss recovery. A variant with knobs implements [`Algorithm`] for its spec
//! beside its congestion control (`FastSpec` in `fast.rs`), and its line in
//! the registry of variants (`tcp_variants!`, `tcp/spec.rs`) calls it.

use super::cc::CongestionControl;
use super::recovery::Recovery;
use crate::sim::rng::Stream;
use crate::spec::InvalidField;

/// The common `[tcp]` keys a variant's algorithm may read.
#[derive(Debug, Clone, Copy)]
pub struct Common {
    /// Payload per data segment, bytes (`tcp.segment_size`).
    pub segment_size: u64,
    /// Congestion window once the SYN is acknowledged, packets (`tcp.initial_window`).
    pub initial_window: u64,
    /// Whether a SYN opens the flow (`tcp.syn`): then the first ACK is the
    /// handshake's, not data's.
    pub syn: bool,
    /// Whether Linux would count the flow as paced (`sk_pacing_status` not
    /// `SK_PACING_NONE`, which CUBIC's HyStart reads): its host paces it at
    /// Linux's pacing rate (`pacing.scheme = "host"` with `host_mode =
    /// "rate"`, the flow among the paced ones). Linux sets that status only
    /// for its own pacing (fq's or TCP's internal), which paces at that
    /// rate; a flow paced by another rule (`host_mode` "original" or
    /// "modified", Wei's pacer, an edge pacer) is unpaced to Linux's TCP.
    pub linux_paced: bool,
}

/// A variant's spec (its knobs, as the scenario gives them) as the parts of
/// a flow's sender.
pub trait Algorithm {
    /// A flow's congestion control and loss recovery; `rng`, the flow's
    /// stream ("tcp.bbr"), is drawn from only by an algorithm that draws.
    fn build(&self, common: Common, rng: impl FnOnce() -> Stream) -> (Box<dyn CongestionControl>, Recovery);

    /// Check the knobs' rules across keys, which the schema's bounds cannot
    /// say (each knob's bounds are its spec's schema attributes, held by
    /// `spec::bounds`); the error names the field (`tcp.fast_alpha`).
    fn validate(&self) -> Result<(), InvalidField> {
        Ok(())
    }
}
