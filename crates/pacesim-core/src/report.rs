//! What a run returns: everything in it is a pure function of the scenario
//! (wall-clock timing is the caller's business), so equal scenarios give
//! bit-identical reports.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub engine_version: String,
    /// Measurement window [warmup, duration], seconds.
    pub window_s: [f64; 2],
    pub summary: Summary,
    /// Measured links by name (`core`, `core.rev`, `edge_in.3`, ...).
    pub links: BTreeMap<String, LinkReport>,
    /// Edge pacers by the name of the link they sit in front of.
    pub pacers: BTreeMap<String, PacerReport>,
    pub flows: FlowTable,
    /// Short-lived transfers that started in the window and finished by its end.
    pub transfers: TransferTable,
    /// UDP sources in scenario order: packets sent and received over the whole run.
    pub udp: Vec<UdpReport>,
    /// Every flow's progress over the run, when the scenario asks for it.
    pub progress: Option<ProgressTable>,
    /// One-way packet delays over the window, when the scenario asks for them.
    pub delay: Option<DelayReport>,
    /// beta(s) at the measured link, when the scenario asks for it.
    pub burstiness: Option<BurstinessReport>,
    /// Time series of chosen state, when the scenario asks for them (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<SeriesTable>,
    /// Every Tmix connection, when the run replays connection vectors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tmix: Option<TmixTable>,
    pub conservation: Conservation,
    pub work: Work,
    /// What the run recorded only in part, in words: a series track or a
    /// packet trace that reached its size bound and stopped (none: absent).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// The paper-E headline numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Wire bytes leaving the core queue onto C0-C1, Mb/s.
    pub aggregate_mbps: f64,
    /// Mean over flows of `FlowTable::goodput_kbps`, Kb/s.
    pub goodput_kbps_mean: f64,
    /// Drops / arrivals at the core queue.
    pub core_loss_rate: f64,
    /// Fraction of time no packet waits in the core queue.
    pub core_empty_prob: f64,
    /// UDP drops / UDP arrivals at the core queue (paper A's anomaly; 0 without UDP).
    pub core_udp_loss_rate: f64,
    /// Short-lived transfers started in the window and finished by its end.
    pub transfers: u64,
    /// Their mean goodput, file bytes over completion time, Kb/s (paper E
    /// Fig. 6's "per-flow goodput" of short flows; 0 without any).
    pub transfer_goodput_kbps_mean: f64,
}

/// Counters of one link's output queue over the window.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LinkReport {
    pub arrivals: u64,
    pub drops: u64,
    /// Packets sent whole in the window: begun in it and their last bit
    /// sent by its end.
    pub departures: u64,
    pub departed_bytes: u64,
    /// ECN-capable arrivals marked CE instead of dropped (absent when none
    /// were: a queue that does not mark, or no ECN traffic).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub marks: u64,
    pub throughput_mbps: f64,
    pub loss_rate: f64,
    /// Time-averaged bytes and packets waiting (the packet on the wire excluded, as in ns-2).
    pub mean_queue_bytes: f64,
    pub mean_queue_packets: f64,
    /// Fraction of time with no packet waiting.
    pub empty_prob: f64,
    /// Fraction of time the link transmits nothing.
    pub idle_prob: f64,
    /// The same arrivals, drops and departures by traffic class: TCP data, ACKs, UDP.
    pub data: ClassReport,
    pub ack: ClassReport,
    pub udp: ClassReport,
}

/// Arrivals, drops and their ratio for one traffic class at one queue, and
/// its departures in packets and in bytes on the wire, each packet its own
/// size (a SYN a bare header), counted as the link's `departures` and
/// `departed_bytes` are: the classes' departures add up to the link's. An
/// older engine's report has no class departures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClassReport {
    pub arrivals: u64,
    pub drops: u64,
    pub loss_rate: f64,
    pub departures: u64,
    pub departed_bytes: u64,
}

/// Pacing delays at one edge pacer over the window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PacerReport {
    /// d for the edge pacer; Q_max / mu_max for 1500 B packets for QLBP
    /// (paper Q Theorem 1, a steady-state bound).
    pub delay_bound_ms: f64,
    pub packets: u64,
    /// Packets the pacer dropped (QLBP at its queue limit; never the edge pacer).
    pub drops: u64,
    pub mean_delay_ms: f64,
    /// To within 2 %.
    pub p99_delay_ms: f64,
    pub max_delay_ms: f64,
}

/// Per-flow measurements over the measurement window, one column per
/// metric (a DataFrame in Python). With ns-3's FlowMonitor (src/flow-monitor,
/// `FlowStats`) on the flow's data packets: `throughput_kbps` is its
/// `txBytes`, `data_packets_sent` its `txPackets`, `lost_packets` its
/// `lostPackets` (drops only: a packet still on its way at the end is not
/// lost), the `transit_*` columns and `jitter_ms` its `delaySum`,
/// `delayHistogram` and `jitterSum`, each over the window instead of the
/// whole run; `goodput_kbps` counts unique payload, which FlowMonitor does
/// not. The flow's ACKs (FlowMonitor's reverse flow) are not counted.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FlowTable {
    pub flow: Vec<u32>,
    pub start_s: Vec<f64>,
    /// Whether the flow's packets are paced (by its host or its edge).
    pub paced: Vec<bool>,
    /// Round-trip propagation plus serialisation of one data packet and its ACK, ms.
    pub base_rtt_ms: Vec<f64>,
    /// Unique payload bytes delivered in order by the window's end, x 8 /
    /// window, Kb/s: each segment for the share of its bits that reached the
    /// sink inside the window (`engine::world::flow::Goodput`), so no window
    /// shows more than the flow's last link carries.
    pub goodput_kbps: Vec<f64>,
    /// Wire bytes (headers included) of its data packets sent, retransmissions
    /// and SYNs included, x 8 / window, Kb/s.
    pub throughput_kbps: Vec<f64>,
    /// Data packets sent, retransmissions and SYNs included.
    pub data_packets_sent: Vec<u64>,
    /// Its data packets dropped, counted at the drop, wherever on its route
    /// (any queue, pacer or link).
    pub lost_packets: Vec<u64>,
    /// lost_packets / data_packets_sent; None if it sent none. (Both are
    /// counted in the window, the loss at the drop and the packet when
    /// sent, so one sent just before the window and dropped in it counts
    /// in the first only.)
    pub loss_rate: Vec<Option<f64>>,
    pub retransmits: Vec<u64>,
    pub fast_retransmits: Vec<u64>,
    pub timeouts: Vec<u64>,
    /// Window cuts by ECN echoes (empty when the flows do not use ECN).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ecn_cuts: Vec<u64>,
    pub final_cwnd: Vec<f64>,
    /// Congestion window averaged over the window's time with a connection
    /// open, packets (paper A Fig. 4); None if never open in the window.
    pub mean_cwnd: Vec<Option<f64>>,
    /// Whether the flow is a closed-loop user of short transfers.
    pub short: Vec<bool>,
    /// Mean one-way delay of its data packets delivered in the window, ms,
    /// when data delays are measured (`[delay]`) and it delivered any.
    pub mean_delay_ms: Vec<Option<f64>>,
    /// Transit delay of its data packets delivered in the window, ms, each
    /// from the transmission of that very packet (`[transit]`; empty when
    /// not measured, None for a flow that delivered nothing): the mean, and
    /// the 50th, 95th and 99th percentiles as nearest ranks (the least delay
    /// with at least that share at or below it), each at most 2.1 % above
    /// the true one (the histogram's log-spaced bins) and never below.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transit_mean_ms: Vec<Option<f64>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transit_p50_ms: Vec<Option<f64>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transit_p95_ms: Vec<Option<f64>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transit_p99_ms: Vec<Option<f64>>,
    /// Mean jitter, ms: |d_i - d_(i-1)| over consecutive deliveries in the
    /// window, i = 2..n, averaged over the n - 1 pairs (`[transit]`; None
    /// below two deliveries).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub jitter_ms: Vec<Option<f64>>,
}

/// One-way delays of the delivered packets of one class over the window, ms;
/// quantiles to within 2 %, and the CDF at the edges of a 2 %-wide histogram.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DelayReport {
    pub class: crate::spec::DelayClass,
    pub packets: u64,
    pub mean_ms: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub cdf_ms: Vec<f64>,
    pub cdf: Vec<f64>,
}

/// Every connection of the run's Tmix clouds (`traffic::tmix`), one row
/// each in the order they started: its cloud and vector id, its start, how
/// many times one of its ends received an ADU and when last, when its data
/// completed (neither end with data to send nor expecting more; none if not
/// by the end), and the ADU bytes its initiator and its acceptor send
/// (FINs excluded).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TmixTable {
    pub cloud: Vec<u32>,
    pub id: Vec<u64>,
    pub start_s: Vec<f64>,
    pub receipts: Vec<u32>,
    pub last_s: Vec<Option<f64>>,
    pub done_s: Vec<Option<f64>>,
    pub init_bytes: Vec<u64>,
    pub acc_bytes: Vec<u64>,
}

/// Samples of every TCP flow's progress: at `t_s`, flow `flow` had delivered
/// `bytes` of payload in order (over all its connections; SYNs not counted).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProgressTable {
    pub t_s: Vec<f64>,
    pub flow: Vec<u32>,
    pub bytes: Vec<u64>,
}

impl ProgressTable {
    /// Add `other`'s rows (other flows at the same times), keeping the rows
    /// by time, then flow.
    pub fn merge(&mut self, other: &ProgressTable) {
        let rows = |t: &ProgressTable| {
            (0..t.flow.len()).map(|i| (t.t_s[i], t.flow[i], t.bytes[i])).collect::<Vec<_>>()
        };
        let mut all = rows(self);
        all.extend(rows(other));
        all.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        *self = ProgressTable::default();
        for (t, f, b) in all {
            self.t_s.push(t);
            self.flow.push(f);
            self.bytes.push(b);
        }
    }
}

/// Time series of chosen state (`[series]`, see `metrics::series`) in long
/// form: track k is quantity `series[k]` (`cwnd`, `queue_bytes`, ...) of
/// entity `entity[k]` (`flow.5`, a link's or a pacer's link's name), and
/// point i says that track `track[i]` was `value[i]` at `t_s[i]` seconds.
/// Points are in the order of time, then of track.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SeriesTable {
    pub entity: Vec<String>,
    pub series: Vec<String>,
    pub t_s: Vec<f64>,
    pub track: Vec<u32>,
    pub value: Vec<f64>,
    /// Every-change tracks that reached their share of the points a run may
    /// hold (`metrics::series`) and stopped recording: track `stopped_track[i]`
    /// kept nothing from `stopped_s[i]` seconds on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stopped_track: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stopped_s: Vec<f64>,
}

/// Finished short-lived transfers, one row each: the flow, when its
/// connection opened, the file size and the completion time (connection
/// opened to last ACK received).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TransferTable {
    pub flow: Vec<u32>,
    pub start_s: Vec<f64>,
    pub bytes: Vec<u64>,
    pub fct_s: Vec<f64>,
}

impl TransferTable {
    /// Mean over transfers of bytes x 8 / completion time, Kb/s (0 if none).
    pub fn goodput_kbps_mean(&self) -> f64 {
        let n = self.flow.len();
        let sum: f64 = self.bytes.iter().zip(&self.fct_s).map(|(&b, &t)| b as f64 * 8.0 / t / 1e3).sum();
        if n == 0 {
            0.0
        } else {
            sum / n as f64
        }
    }
}

/// Coefficient of variation of bytes per interval at each time scale
/// with at least two intervals in the window, and the Hurst parameter from
/// the slope over all of them (beta ~ s^(H-1)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BurstinessReport {
    pub link: String,
    pub scale_us: Vec<f64>,
    pub beta: Vec<f64>,
    pub hurst: f64,
    /// Bytes arriving in each finest bin over the window, when asked for
    /// (`burstiness.series`); bin i covers [warmup + i bin, warmup + (i+1) bin).
    pub series_bytes: Option<Vec<u64>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UdpReport {
    pub sent: u64,
    pub received: u64,
}

/// Packet conservation over the whole run: created = delivered + dropped + in_flight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conservation {
    pub created: u64,
    pub delivered: u64,
    pub dropped: u64,
    pub in_flight: u64,
}

/// How much the engine did (deterministic; divide by wall time for rates).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Work {
    pub events: u64,
    /// Packets that crossed one link.
    pub packet_hops: u64,
}

/// Whether a count is zero: a count left out of the report when it is
/// (`LinkReport::marks`), so that runs without it report as before.
fn is_zero(n: &u64) -> bool {
    *n == 0
}
