//! Drop-tail with a marking threshold K, as DCTCP's switches mark
//! (Alizadeh et al., "Data Center TCP", SIGCOMM 2010, Sec 3.1: "mark
//! arriving packets with the CE codepoint if the queue occupancy is greater
//! than K upon its arrival"; RFC 8257 Sec 3.1). An ECN-capable arrival
//! that finds at least K waiting (bytes or packets, counted as drop-tail
//! counts them: the packet on the wire not counted) joins the queue marked
//! CE; one that is not ECN-capable is dropped there instead (RFC 3168 Sec
//! 5: a queue that would mark a packet that cannot carry the mark drops
//! it). The buffer's limit drops as drop-tail does, marking or not.
//!
//! "At least K" is ns-3's and Linux's step marking (RED with both
//! thresholds K and the newest sample's weight 1 marks an arrival whose
//! queue is at or above the maximum threshold); the paper's "greater than"
//! is one packet (or byte) higher.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::discipline::{Arrival, Discipline, Limits, Verdict};
use super::DropTail;
use crate::spec::human::size;
use crate::spec::{bad, InvalidField};

/// Drop-tail's marking threshold K (DCTCP's switches, RFC 8257 Sec 3.1),
/// used when the queue is `droptail`: with `mark_bytes` (or `mark_share`)
/// or `mark_packets` set, ECN-capable arrivals that find at least that much
/// waiting are marked CE, others dropped; left out, drop-tail never marks.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct DropTailParams {
    /// K in bytes waiting (the packet on the wire not counted).
    #[schemars(extend("x-unit" = "bytes"), range(min = 1))]
    pub mark_bytes: Option<u64>,
    /// K in packets waiting (the packet on the wire not counted).
    #[schemars(extend("x-unit" = "packets"), range(min = 1, max = u32::MAX))]
    pub mark_packets: Option<u64>,
    /// K in bytes as a share of the buffer's byte limit, strictly between
    /// 0 and 1: K = floor(share x limit), so a sweep over buffers keeps K
    /// at one share of each (the X-transports experiment marks from a
    /// third); instead of `mark_bytes`. Not 0 (K = 0 marks every arrival,
    /// to an empty queue too: `mark_bytes` is at least 1) nor 1 (K at the
    /// limit is never reached).
    #[schemars(extend("exclusiveMinimum" = 0.0, "exclusiveMaximum" = 1.0))]
    pub mark_share: Option<f64>,
}

impl DropTailParams {
    /// Whether drop-tail marks.
    pub fn marks(&self) -> bool {
        self.mark_bytes.is_some() || self.mark_share.is_some() || self.mark_packets.is_some()
    }

    /// K in bytes under a queue of `limit`: `mark_bytes`, or `mark_share`
    /// of its byte limit (rounded down; none without a byte limit, which
    /// `validate` refuses).
    fn k_bytes(&self, limit: &DropTail) -> Option<u64> {
        let share = |s: f64| limit.limit_bytes.map(|l| (s * l as f64).floor() as u64);
        self.mark_bytes.or_else(|| self.mark_share.and_then(share))
    }

    /// Check the threshold against the queue's `limit`, given in the table
    /// at `at` (`core.droptail`): a threshold the buffer never lets the
    /// queue reach would never mark (`mark_share`'s bounds, (0, 1), are its
    /// schema's, `spec::bounds`). The error names the field.
    pub fn validate(&self, limit: &DropTail, at: &str) -> Result<(), InvalidField> {
        if let Some(share) = self.mark_share {
            let key = format!("{at}.mark_share");
            if self.mark_bytes.is_some() {
                return Err(bad(&key, "give K as mark_bytes or as mark_share, not both"));
            }
            let Some(l) = limit.limit_bytes else {
                return Err(bad(&key, "the buffer has no limit in bytes to take a share of"));
            };
            if self.k_bytes(limit) == Some(0) {
                return Err(bad(&key, format!("{share} of the buffer's {} is under one byte", size(l))));
            }
        }
        let key = if self.mark_share.is_some() { "mark_share" } else { "mark_bytes" };
        // `spell` writes a count in its key's unit, as the scenario does.
        let check = |k: Option<u64>, limit: Option<u64>, key: &str, spell: fn(u64) -> String| match (k, limit)
        {
            (Some(k), Some(l)) if k + 1 >= l => Err(bad(
                &format!("{at}.{key}"),
                format!("{} is not below the buffer's limit ({}) less one", spell(k), spell(l)),
            )),
            _ => Ok(()),
        };
        check(self.k_bytes(limit), limit.limit_bytes, key, size)?;
        check(self.mark_packets, limit.limit_packets, "mark_packets", |n| format!("{n} packets"))
    }
}

/// A drop-tail queue that marks at a threshold.
#[derive(Debug, Clone, PartialEq)]
pub struct Threshold {
    pub limit: DropTail,
    /// K in bytes, in packets (either or both; with both, reaching either marks).
    pub bytes: Option<u64>,
    pub packets: Option<u64>,
}

impl Threshold {
    pub fn new(limit: DropTail, params: &DropTailParams) -> Self {
        Threshold { bytes: params.k_bytes(&limit), packets: params.mark_packets, limit }
    }
}

impl Discipline for Threshold {
    fn marks(&self) -> bool {
        true
    }

    fn verdict(&mut self, a: &Arrival) -> Verdict {
        if self.limit.verdict(a) == Verdict::DropArrival {
            return Verdict::DropArrival;
        }
        let over = self.bytes.is_some_and(|k| a.queued_bytes >= k)
            || self.packets.is_some_and(|k| a.queued_packets >= k);
        match (over, a.ect) {
            (false, _) => Verdict::Admit,
            (true, true) => Verdict::Mark,
            (true, false) => Verdict::DropArrival,
        }
    }

    fn limits(&self) -> Limits {
        self.limit.limits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrival(queued_packets: u64, ect: bool) -> Arrival {
        let queued_bytes = queued_packets * 1040;
        Arrival { now: 0, idle_since: None, queued_bytes, queued_packets, size: 1040, ect }
    }

    /// K = 20 packets in a 100-packet buffer: 19 waiting, the arrival
    /// joins unmarked; 20 waiting, marked if ECN-capable, else dropped;
    /// 99 waiting (the limit less one), dropped whatever it is. K in bytes
    /// (20,800 B, twenty 1040 B packets) marks at the same arrival.
    #[test]
    fn marks_ecn_capable_arrivals_from_k_and_drops_the_others() {
        let limit = DropTail { limit_bytes: None, limit_packets: Some(100) };
        let mut q = Threshold::new(limit, &DropTailParams { mark_packets: Some(20), ..Default::default() });
        assert_eq!(q.verdict(&arrival(19, true)), Verdict::Admit);
        assert_eq!(q.verdict(&arrival(20, true)), Verdict::Mark);
        assert_eq!(q.verdict(&arrival(20, false)), Verdict::DropArrival);
        assert_eq!(q.verdict(&arrival(98, true)), Verdict::Mark);
        assert_eq!(q.verdict(&arrival(99, true)), Verdict::DropArrival);
        let mut b = Threshold::new(limit, &DropTailParams { mark_bytes: Some(20_800), ..Default::default() });
        assert_eq!(b.verdict(&arrival(19, true)), Verdict::Admit);
        assert_eq!(b.verdict(&arrival(20, true)), Verdict::Mark);
    }

    /// Thirty 1040 B ECN-capable packets at once onto an idle 10 Mb/s
    /// link marking from K = 20: the first goes on the wire, packet i
    /// (from 0) finds i - 1 waiting, so the first 21 pass unmarked and the
    /// last 9 are marked, and counted; not ECN-capable, those 9 are dropped.
    #[test]
    fn a_link_marks_from_the_arrival_that_finds_k_waiting() {
        use crate::net::packet::ecn;
        use crate::net::{Link, PacketKind, Queue};
        let queue = || {
            let k = DropTailParams { mark_packets: Some(20), ..Default::default() };
            Queue::Threshold(Threshold::new(DropTail::bytes(104_000), &k))
        };
        let mut link = Link::new(10_000_000, 0, queue());
        assert!(link.marks());
        link.set_window(0, u64::MAX);
        let bits: Vec<u8> = (0..30)
            .map(|_| {
                let mut b = ecn::ECT;
                link.offer_marking(0, 1040, PacketKind::Data, &mut b).expect("admitted");
                b
            })
            .collect();
        assert!(bits[..21].iter().all(|&b| b == ecn::ECT));
        assert!(bits[21..].iter().all(|&b| b == ecn::ECT | ecn::CE));
        assert_eq!(link.output().stats.marks, 9);
        let mut plain = Link::new(10_000_000, 0, queue());
        let admitted =
            (0..30).filter(|_| plain.offer_marking(0, 1040, PacketKind::Data, &mut 0).is_some()).count();
        assert_eq!(admitted, 21);
    }

    #[test]
    fn a_threshold_the_buffer_never_reaches_is_refused_naming_it() {
        let limit = DropTail::bytes(10_000);
        let k = |b| DropTailParams { mark_bytes: Some(b), ..Default::default() };
        assert!(k(9_998).validate(&limit, "core.droptail").is_ok());
        let e = k(9_999).validate(&limit, "core.droptail").unwrap_err();
        assert_eq!(
            e.to_string(),
            "core.droptail.mark_bytes: 9999B is not below the buffer's limit (10KB) less one"
        );
        let p = DropTailParams { mark_packets: Some(49), ..Default::default() };
        assert_eq!(
            p.validate(&DropTail { limit_bytes: None, limit_packets: Some(50) }, "x")
                .unwrap_err()
                .to_string(),
            "x.mark_packets: 49 packets is not below the buffer's limit (50 packets) less one"
        );
        let p = DropTailParams { mark_packets: Some(50), ..Default::default() };
        assert!(p.validate(&DropTail::bytes(10_000), "x").is_ok(), "no packet limit");
    }

    /// A third of a 10,000 B buffer: K = 3,333 B, so the arrival that
    /// finds four 1040 B packets (4,160 B) waiting is the first marked,
    /// three (3,120 B) pass; each way of giving the share wrongly is
    /// refused naming `mark_share`.
    #[test]
    fn k_as_a_share_of_the_buffer() {
        let share = |s| DropTailParams { mark_share: Some(s), ..Default::default() };
        let limit = DropTail::bytes(10_000);
        let mut q = Threshold::new(limit, &share(1.0 / 3.0));
        assert_eq!(q.bytes, Some(3_333));
        assert_eq!(q.verdict(&arrival(3, true)), Verdict::Admit);
        assert_eq!(q.verdict(&arrival(4, true)), Verdict::Mark);
        assert!(share(1.0 / 3.0).validate(&limit, "core.droptail").is_ok());
        let refused =
            |p: DropTailParams, limit: &DropTail| p.validate(limit, "core.droptail").unwrap_err().to_string();
        // Past (0, 1), the schema's bounds (`spec::bounds`), NaN too (`bounds::wire`).
        for s in [0.0, 1.0, -0.5, 1.5, f64::NAN, f64::INFINITY] {
            assert_eq!(crate::spec::bounds::past_bound(&share(s)).as_deref(), Some("mark_share"), "{s}");
        }
        assert_eq!(crate::spec::bounds::past_bound(&share(0.5)), None);
        let both = DropTailParams { mark_bytes: Some(100), ..share(0.5) };
        assert!(refused(both, &limit).contains("not both"));
        let packets_only = DropTail { limit_bytes: None, limit_packets: Some(10) };
        assert!(refused(share(0.5), &packets_only).contains("no limit in bytes"));
        assert!(refused(share(1e-5), &limit).contains("under one byte"));
        assert!(refused(share(0.9999), &limit).starts_with("core.droptail.mark_share: 9999B is not below"));
    }
}
