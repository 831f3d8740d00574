//! The core link's spec (E-base's C0 -> C1; the bottleneck of every named
//! topology; a graph's link with core = true): its rate, delay, buffer and
//! queue discipline, as a scenario's `[core]` gives them. `Queue::core`
//! builds its queue. The disciplines' knobs are declared once, in
//! [`QueueKnobs`], which `[core]` and a graph link's half both hold.

use schemars::JsonSchema;
use serde::de::MapAccess;
use serde::{Deserialize, Serialize};

use super::codel::CodelParams;
use super::fq_codel::FqCodelParams;
use super::pie::PieParams;
use super::red::RedParams;
use super::threshold::DropTailParams;
use super::DropTail;
use crate::spec::flat::{self, Group};
use crate::spec::InvalidField;

/// The core link (E-base's C0 -> C1; the bottleneck of every named
/// topology; a graph's link with core = true) and its queue: drop-tail
/// (marking at a threshold with `droptail`), RED with `red`, CoDel with `codel`, FQ-CoDel with `fq_codel` (and
/// `codel`), or PIE with `pie`. A scenario leaving out its rate, delay or buffer takes
/// its topology's (the topology spec's `x-core`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, remote = "Self")]
#[schemars(rename = "Core")]
pub struct Core {
    /// The core link's rate, bit/s; absent: the topology's (E-base: 100 Mb/s, paper E Sec 3.1).
    #[schemars(extend("x-unit" = "bit/s"))]
    pub rate: u64,
    /// The core link's one-way propagation delay, ns; absent: the topology's (E-base: 100 ms).
    #[schemars(extend("x-unit" = "ns", "x-no-build" = true))]
    pub delay: u64,
    /// Drop-tail limit in bytes (ns-2 DropTail byte mode: a packet is dropped
    /// when bytes waiting + its size >= it); absent: the topology's (E-base: 10 KB).
    #[schemars(title = "Core link buffer", extend("x-unit" = "bytes", "x-no-build" = true))]
    pub buffer: u64,
    /// Drop-tail limit in packets, alone or with `buffer` (paper Q counts its
    /// core buffer in packets); drop-tail only.
    #[serde(default)]
    #[schemars(title = "Core link buffer (packets)", extend("x-unit" = "packets", "x-no-build" = true))]
    #[schemars(range(min = 1, max = u32::MAX))]
    pub buffer_packets: Option<u64>,
    /// The core queue's discipline: drop-tail, RED with `[core.red]` (paper
    /// E Fig. 9), CoDel with `[core.codel]` (RFC 8289), FQ-CoDel with
    /// `[core.fq_codel]` and `[core.codel]` (RFC 8290), or PIE with
    /// `[core.pie]` (RFC 8033).
    #[serde(default)]
    pub queue: QueueKind,
    /// RED's parameters, used when `queue` is `red`.
    #[serde(default)]
    pub red: RedParams,
    /// The other disciplines' knobs (`[core.codel]`, ...), read by `spec::flat`.
    #[serde(flatten, skip_deserializing)]
    #[schemars(!skip_deserializing)]
    pub knobs: QueueKnobs,
}

flat::flattened!(Core, knobs);

impl Core {
    /// A drop-tail core of `rate` bit/s, `delay` ns and `buffer` bytes,
    /// every other discipline's parameters at their defaults.
    pub fn droptail(rate: u64, delay: u64, buffer: u64) -> Self {
        Core {
            rate,
            delay,
            buffer,
            buffer_packets: None,
            queue: QueueKind::Droptail,
            red: RedParams::default(),
            knobs: QueueKnobs::default(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum QueueKind {
    /// ns-2 `Queue/DropTail` in byte mode, limit `buffer`; with
    /// `[core.droptail]`'s threshold it marks ECN-capable arrivals CE from
    /// K on (DCTCP's switches, see `net::threshold`).
    #[default]
    Droptail,
    /// Floyd-Jacobson RED as ns-2 `Queue/RED` (see `net::red`), hard limit `buffer`.
    Red,
    /// CoDel (RFC 8289, see `net::codel`): drops at dequeue once packets
    /// have waited above `target` for an `interval`; hard limit `buffer`
    /// (and `buffer_packets`) at arrival.
    Codel,
    /// FQ-CoDel (RFC 8290, see `net::fq_codel`): flows hashed into queues
    /// served by deficit round robin, each with its own CoDel; an overflow
    /// of `buffer` (or `buffer_packets`, or its `limit`) drops from the
    /// largest queue.
    #[serde(rename = "fq_codel")]
    FqCodel,
    /// PIE (RFC 8033, see `net::pie`): arrivals dropped at random with a
    /// probability updated every `t_update` from the queue delay; hard
    /// limit `buffer` (and `buffer_packets`, and its `limit`) at arrival.
    Pie,
}

impl Core {
    /// Check the core link and its queue; the error names the field.
    pub fn validate(&self) -> Result<(), InvalidField> {
        match self.queue {
            QueueKind::Red => self.red.validate(self.buffer, self.buffer_packets),
            kind => {
                let limit = DropTail { limit_bytes: Some(self.buffer), limit_packets: self.buffer_packets };
                self.knobs.validate(kind, &limit, "core")
            }
        }
    }
}

/// The knobs of the disciplines a link's queue may take, each a table of
/// its own read when the queue is of its kind, declared once here and
/// flattened into every table a queue is given in (`[core]`, a graph
/// link's half): a discipline with knobs adds its line here.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct QueueKnobs {
    /// Drop-tail's marking threshold, used when `queue` is `droptail`.
    #[serde(default)]
    pub droptail: DropTailParams,
    /// CoDel's parameters, used when `queue` is `codel`, and by each flow
    /// queue when it is `fq_codel`.
    #[serde(default)]
    pub codel: CodelParams,
    /// FQ-CoDel's parameters, used when `queue` is `fq_codel`.
    #[serde(default)]
    pub fq_codel: FqCodelParams,
    /// PIE's parameters, used when `queue` is `pie`.
    #[serde(default)]
    pub pie: PieParams,
}

impl Group for QueueKnobs {
    fn read<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "droptail" => self.droptail = map.next_value()?,
            "codel" => self.codel = map.next_value()?,
            "fq_codel" => self.fq_codel = map.next_value()?,
            "pie" => self.pie = map.next_value()?,
            // `spec::flat` hands it only the keys above.
            other => return Err(serde::de::Error::custom(format_args!("{other} is not a queue's knob"))),
        }
        Ok(())
    }
}

impl QueueKnobs {
    /// Check the knobs a queue of `kind` with the hard limit `limit` uses,
    /// given in the table at `at` (`core`); the error names the field.
    /// RED's are the core's own.
    pub fn validate(&self, kind: QueueKind, limit: &DropTail, at: &str) -> Result<(), InvalidField> {
        match kind {
            QueueKind::Droptail => self.droptail.validate(limit, &format!("{at}.droptail")),
            // PIE's knobs, and FQ-CoDel's own, have only the schema's bounds.
            QueueKind::Red | QueueKind::Pie => Ok(()),
            // FQ-CoDel's flow queues each run CoDel with `codel`.
            QueueKind::Codel | QueueKind::FqCodel => self.codel.validate(&format!("{at}.codel")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OWN: &str = r#""rate": 1000000, "delay": 2, "buffer": 3000"#;

    /// Where reading `[core]` from `json` fails (the path inside it), and why.
    fn error(json: &str) -> (String, String) {
        let e = serde_path_to_error::deserialize::<_, Core>(&mut serde_json::Deserializer::from_str(json))
            .expect_err(json);
        (e.path().to_string(), e.into_inner().to_string())
    }

    #[test]
    fn knobs_are_read_beside_the_core_s_own_keys_and_written_back_in_place() {
        let json = format!(r#"{{{OWN}, "queue": "pie", "pie": {{"target": 7}}, "codel": {{"mtu": 9}}}}"#);
        let core: Core = serde_json::from_str(&json).unwrap();
        assert_eq!((core.rate, core.queue, core.knobs.pie.target), (1_000_000, QueueKind::Pie, 7));
        assert_eq!((core.knobs.codel.mtu, &core.knobs.fq_codel), (9, &FqCodelParams::default()));
        let written = serde_json::to_value(&core).unwrap();
        let keys: Vec<&str> = written.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "rate",
                "delay",
                "buffer",
                "buffer_packets",
                "queue",
                "red",
                "droptail",
                "codel",
                "fq_codel",
                "pie"
            ]
        );
        assert_eq!(serde_json::from_value::<Core>(written).unwrap(), core);
    }

    #[test]
    fn an_error_in_a_knob_names_its_path_and_an_unknown_key_every_key() {
        let (path, message) = error(&format!(r#"{{{OWN}, "codel": {{"target": "5ms"}}}}"#));
        assert_eq!(path, "codel.target");
        assert!(message.starts_with(r#"invalid type: string "5ms", expected u64"#), "{message}");
        let (path, message) = error(&format!(r#"{{{OWN}, "pie": {{"estimator": "queue"}}}}"#));
        assert_eq!(path, "pie.estimator", "{message}");
        let (path, message) = error(&format!(r#"{{{OWN}, "codle": {{}}}}"#));
        assert_eq!(path, "codle");
        let all = "`rate`, `delay`, `buffer`, `buffer_packets`, `queue`, `red`, `droptail`, `codel`, `fq_codel`, `pie`";
        assert!(message.starts_with(&format!("unknown field `codle`, expected one of {all}")), "{message}");
        let (_, message) = error(&format!(r#"{{{OWN}, "codel": {{}}, "codel": {{}}}}"#));
        assert!(message.starts_with("duplicate field `codel`"), "{message}");
    }

    /// `[core]` is keyed only: a list, which its derived reader alone would
    /// take by position, is refused.
    #[test]
    fn a_list_is_refused() {
        let (path, message) = error(r#"[1000000, 2, 3000, null, "droptail"]"#);
        assert_eq!(path, ".");
        assert!(message.starts_with("invalid type: sequence, expected struct Core"), "{message}");
    }
}
