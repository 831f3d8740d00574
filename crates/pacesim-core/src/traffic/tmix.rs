//! Tmix: TCP connections replayed from connection vectors (Weigle et al.,
//! CCR 36(3) 2006; paper Q Sec IV-C2 replays a campus trace with it), as
//! ns-2 2.35 runs them with one-way TCP agents (`Tmix set-agent-type
//! one-way`): every vector ([`cvec`]) becomes a connection between the
//! cloud's initiator and acceptor hosts, started at the vector's start
//! time, its two ends sending their ADUs as [`app`] says, each over a TCP
//! sender and sink of its own with the vector's window; and a Tmix
//! DelayBox router on the way delays each connection's packets by half its
//! vector's round trip each way and drops them at its loss rates (ns-2
//! `Tmix_DelayBox`).
//!
//! ns-2's DelayBox, as it reads the vectors (`tmix/tmix_delaybox.cc`), keeps
//! a connection only when its vector has an `l` line, and takes the round
//! trip of the last `r` line read so far (which may be an earlier
//! vector's); a connection without an entry crosses it without delay. So
//! does ours. Its draws come from the "tmix.loss" stream of the cloud.
//!
//! Every connection uses the run's TCP (`[tcp]`: variant, segment size as
//! ns-2's `set-pkt-size`, initial window; the initial slow-start threshold
//! is `tcp.window`, as ns-2 gives a new agent `window_`'s default 20 before
//! Tmix sets its window), with the vector's window (`w`, bytes, in whole
//! segments; a window below one segment is an error naming its line: ns-2
//! gives that connection a window of 0 and it never sends) or else
//! `tcp.window`. An `m` line (each end's segment size) equal to
//! `tcp.segment_size` at both ends is what ns-2 does without it; any other
//! is an error naming its line (every connection sends `tcp.segment_size`).

pub mod app;
pub mod cvec;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::sim::time::NS_PER_SEC;
use crate::sim::Time;
use crate::spec::human::{self, time};
use crate::spec::{bad, InvalidField};
pub use app::{Action, Connection};
pub use cvec::{ConnVector, End, ACC, INIT};

/// A Tmix cloud, `[[traffic.tmix]]` (the ns-2 manual's Tmix chapter):
/// connections replayed from the connection vectors of file `vectors`,
/// each between host `initiator` and host `acceptor`, through the Tmix
/// DelayBox router `delaybox` if given. Connections start at the
/// vectors' times multiplied by `scale`; or, with `rate`, the vectors are
/// played over and over,
/// their start times scaled so that their ADUs (both directions, in whole
/// segments with their headers) average `rate`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TmixSpec {
    /// The connection vectors, a text file in either Tmix format (a
    /// scenario file's relative name is from its directory; a `.gz` file
    /// is read decompressed) (required). A run's key holds its content, not its name.
    #[schemars(extend("x-file" = true))]
    pub vectors: String,
    /// The host every connection's initiator runs on (required).
    pub initiator: String,
    /// The host every connection's acceptor runs on (required).
    pub acceptor: String,
    /// A router on the way that delays each connection's packets by half
    /// its vector's round trip `r` each way and drops them at its loss
    /// rates `l` (ns-2 `Tmix_DelayBox`); absent: none.
    #[serde(default)]
    pub delaybox: Option<String>,
    /// The DelayBox drops nothing (ns-2 `set-lossless`).
    #[serde(default)]
    pub lossless: bool,
    /// Multiply the vectors' start times (ns-2 `set-scale`).
    #[serde(default = "TmixSpec::default_scale")]
    #[schemars(extend("exclusiveMinimum" = 0.0))]
    pub scale: f64,
    /// Play the vectors over and over, their start times scaled so that
    /// their ADUs average this rate, bit/s; instead of `scale`.
    #[serde(default)]
    #[schemars(extend("x-unit" = "bit/s"))]
    pub rate: Option<u64>,
    /// The wait before the FIN added to a vector that ends without one, ns
    /// (ns-2 `set-fin-time`: 1 s).
    #[serde(default = "TmixSpec::default_fin_time")]
    #[schemars(extend("x-unit" = "ns"))]
    pub fin_time: Time,
}

/// Tmix's sample vectors, which Debian's `ns2-examples` installs.
const SAMPLES: [&str; 2] = ["sample-orig.cvec.gz", "sample-alt.cvec.gz"];

impl TmixSpec {
    fn default_scale() -> f64 {
        1.0
    }

    fn default_fin_time() -> Time {
        NS_PER_SEC
    }

    /// What the schema's bounds (a positive scale, finite: NaN or an
    /// infinity is null on the wire) cannot say: not both a scale and a
    /// rate, and two hosts.
    pub fn validate(&self, at: &str) -> Result<(), InvalidField> {
        if self.rate.is_some() && self.scale != 1.0 {
            return Err(bad(&format!("{at}.rate"), "give a rate or a scale, not both"));
        }
        // One host at both ends has no path: its connections' packets would cross no link (issue 33).
        if self.initiator == self.acceptor {
            return Err(bad(
                &format!("{at}.acceptor"),
                "is the initiating host: a cloud needs a path to cross",
            ));
        }
        Ok(())
    }

    /// Read the vectors and make the cloud's schedule for segments of `mss`
    /// bytes under `header`-byte headers in a run ending at `end`; errors
    /// name `{at}.vectors` (and the file's line), `{at}.scale` or `{at}.rate`.
    pub fn load(&self, at: &str, mss: u64, header: u64, end: Time) -> Result<Cloud, InvalidField> {
        let field = format!("{at}.vectors");
        let path = std::path::Path::new(&self.vectors);
        let vectors = cvec::read(path, self.fin_time / 1_000).map_err(|e| {
            // Tmix's own samples are not ours to ship: say where they come from.
            let sample = path.file_name().and_then(|n| n.to_str()).filter(|n| SAMPLES.contains(n));
            match sample {
                Some(name) if !path.exists() => bad(
                    &field,
                    format!(
                    "{name}, Tmix's sample vectors, is not installed (Debian: apt-get install ns2-examples)"
                ),
                ),
                _ => bad(&field, e.to_string()),
            }
        })?;
        let at_line =
            |line: usize, message: String| bad(&field, format!("{}:{line}: {message}", self.vectors));
        for cv in &vectors {
            if let Some((a, b)) = cv.mss.filter(|&(a, b)| a != mss || b != mss) {
                return Err(at_line(cv.mss_line, format!(
                    "\"m\": segment sizes {a} and {b} bytes: every connection sends tcp.segment_size ({mss} bytes); \
                     per-connection segment sizes are not supported"
                )));
            }
            if let Some((a, b)) = cv.window.filter(|&(a, b)| a.min(b) < mss) {
                return Err(at_line(cv.window_line, format!(
                    "\"w\": windows {a} and {b} bytes: each must be at least one segment (tcp.segment_size, {mss} bytes)"
                )));
            }
        }
        let delays = delaybox_entries(&vectors);
        let (first, last) = (vectors[0].start, vectors[vectors.len() - 1].start);
        let n = vectors.len() as f64;
        let (scale, period) = match self.rate {
            None => (self.scale, None),
            Some(rate) => {
                if last == first {
                    return Err(bad(&format!("{at}.rate"), "needs vectors that start at different times"));
                }
                let bits: f64 = vectors.iter().map(|cv| adu_wire_bytes(cv, mss, header) as f64 * 8.0).sum();
                // One loop spans the vectors' starts plus one mean gap between them.
                let span_s = (last - first) as f64 * 1e-6 * n / (n - 1.0);
                let scale = bits / rate as f64 / span_s;
                let period = (span_s * scale * 1e9).round() as Time;
                // A period of 0 ns would start every play of the vectors at once, without end.
                if period == 0 {
                    return Err(bad(&format!("{at}.rate"), format!(
                        "replays the vectors every 0s: their {bits} bits take under a nanosecond at {}; give a lower rate",
                        human::rate(rate)
                    )));
                }
                (scale, Some(period))
            }
        };
        let cloud = Cloud { vectors, delays, scale, period };
        let (_, first_start) = cloud.connection(0).expect("a cloud has a vector");
        if first_start >= end {
            let field = if self.rate.is_some() { "rate" } else { "scale" };
            return Err(bad(
                &format!("{at}.{field}"),
                format!(
                    "the first connection would start {} (scale {}), not before the end of the run ({})",
                    // Its start saturates at the clock's end (u64 ns) past it.
                    if first_start == Time::MAX {
                        "past the engine's clock".into()
                    } else {
                        format!("at {}", time(first_start))
                    },
                    // A scale of 10^308 in full decimal is 309 digits.
                    if cloud.scale < 1e6 { cloud.scale.to_string() } else { format!("{:e}", cloud.scale) },
                    time(end)
                ),
            ));
        }
        Ok(cloud)
    }
}

/// The wire bytes of a vector's ADUs, both ends, each ADU in whole
/// segments of `mss` with their `header`.
fn adu_wire_bytes(cv: &ConnVector, mss: u64, header: u64) -> u64 {
    cv.init.iter().chain(&cv.acc).map(|a| a.bytes.div_ceil(mss) * (mss + header)).sum()
}

/// Each vector's DelayBox entry as ns-2 builds its table: for a vector with
/// an `l` line, the one-way delay (half the last round trip read so far,
/// ns) and the loss rates; none for a vector without.
fn delaybox_entries(vectors: &[ConnVector]) -> Vec<Option<(Time, (f64, f64))>> {
    let mut rtt = 0;
    vectors
        .iter()
        .map(|cv| {
            rtt = cv.rtt.unwrap_or(rtt);
            cv.loss.map(|loss| (rtt * 1_000 / 2, loss))
        })
        .collect()
}

/// A cloud's vectors and when each connection starts.
#[derive(Debug, Clone)]
pub struct Cloud {
    pub vectors: Vec<ConnVector>,
    /// Per vector, its DelayBox delay (ns, each way) and loss rates (initiator to acceptor, back).
    pub delays: Vec<Option<(Time, (f64, f64))>>,
    pub scale: f64,
    /// With a rate: the time between one play of the vectors and the next.
    pub period: Option<Time>,
}

impl Cloud {
    /// The `k`-th connection (counting every play): its vector and start time, ns;
    /// none past the vectors when they are not replayed.
    pub fn connection(&self, k: u64) -> Option<(usize, Time)> {
        let n = self.vectors.len() as u64;
        let (play, j) = (k / n, (k % n) as usize);
        if play > 0 && self.period.is_none() {
            return None;
        }
        let start = (self.vectors[j].start as f64 * 1_000.0 * self.scale).round() as Time;
        Some((j, start.saturating_add(play.saturating_mul(self.period.unwrap_or(0)))))
    }

    /// Vector `j`'s receive windows (initiator, acceptor) in whole segments
    /// of `mss` (`load` checked that each is at least one); `default`
    /// packets where it gives none.
    pub fn windows(&self, j: usize, mss: u64, default: u64) -> (u64, u64) {
        match self.vectors[j].window {
            Some((a, b)) => (a / mss, b / mss),
            None => (default, default),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cloud(text: &str, spec: TmixSpec) -> Cloud {
        // A file a call: tests run in parallel, and two texts of one length shared a name, one test
        // reading the file while another rewrote it ("no connection vector").
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("pacesim-tmix-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{call}.cvec"));
        std::fs::write(&path, text).unwrap();
        TmixSpec { vectors: path.display().to_string(), ..spec }
            .load("traffic.tmix[0]", 1460, 40, END)
            .unwrap()
    }

    fn spec() -> TmixSpec {
        TmixSpec {
            vectors: String::new(),
            initiator: "a".into(),
            acceptor: "b".into(),
            delaybox: None,
            lossless: false,
            scale: 1.0,
            rate: None,
            fin_time: NS_PER_SEC,
        }
    }

    /// The end of the runs of these tests, ns.
    const END: Time = 100 * NS_PER_SEC;

    const TWO: &str =
        "S 1000 1 2 7\nr 20000\nl 0.1 0.2\nI 0 0 1460\nA 0 5 2921\nC 3000 1 1 0 8\nl 0 0\nI 0 0 1\n";

    #[test]
    fn one_host_at_both_ends_is_refused_naming_the_acceptor() {
        let same = TmixSpec { acceptor: "a".into(), ..spec() };
        let e = same.validate("traffic.tmix[0]").unwrap_err();
        assert_eq!(e.field, "traffic.tmix[0].acceptor");
        assert!(spec().validate("traffic.tmix[0]").is_ok());
    }

    #[test]
    fn starts_are_scaled_and_a_rate_replays_the_vectors() {
        let c = cloud(TWO, TmixSpec { scale: 2.0, ..spec() });
        assert_eq!(c.connection(0), Some((0, 2_000_000)));
        assert_eq!(c.connection(1), Some((1, 6_000_000)));
        assert_eq!(c.connection(2), None, "played once");
        // ADUs: 1460 B is 1 segment, 2921 B 3, 1 B 1: 5 x 1500 B = 60,000 bits a play. Starts 2 ms apart, two
        // vectors: a play spans 4 ms at scale 1; at 7.5 Mb/s it must last 8 ms, so scale 2.
        let c = cloud(TWO, TmixSpec { rate: Some(7_500_000), ..spec() });
        assert!((c.scale - 2.0).abs() < 1e-12, "{}", c.scale);
        assert_eq!(c.period, Some(8_000_000));
        assert_eq!(c.connection(2), Some((0, 2_000_000 + 8_000_000)));
        assert_eq!(c.connection(5), Some((1, 6_000_000 + 16_000_000)));
    }

    #[test]
    fn the_delaybox_takes_half_the_last_round_trip_of_vectors_with_a_loss_line() {
        // The second vector has no "r": ns-2 keeps the first's 20 ms.
        let c = cloud(TWO, spec());
        assert_eq!(c.delays, vec![Some((10_000_000, (0.1, 0.2))), Some((10_000_000, (0.0, 0.0)))]);
        let c = cloud("S 0 1 2 3\nr 4000\nI 0 0 5\n", spec());
        assert_eq!(c.delays, vec![None], "no l line: no entry");
        assert_eq!(c.windows(0, 1460, 20), (20, 20));
        let c = cloud("S 0 1 2 3\nw 64800 1460\nm 1460 1460\nI 0 0 5\n", spec());
        assert_eq!(c.windows(0, 1460, 20), (44, 1), "whole segments; an m line of the run's segment size");
    }

    #[test]
    fn bad_specs_and_files_name_their_field() {
        let err = |text: &str, s: TmixSpec| {
            let dir = std::env::temp_dir().join(format!("pacesim-tmix-bad-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join("v.cvec");
            std::fs::write(&path, text).unwrap();
            let s = TmixSpec { vectors: path.display().to_string(), ..s };
            s.validate("traffic.tmix[0]")
                .and_then(|_| s.load("traffic.tmix[0]", 1460, 40, END).map(|_| ()))
                .unwrap_err()
        };
        let e = err("S 0 1 2 3\nI 0 0 x\n", spec());
        assert_eq!(e.field, "traffic.tmix[0].vectors");
        assert!(e
            .message
            .ends_with("v.cvec:2: \"I\": \"x\" is not send wait us, receive wait us, bytes: whole numbers"));
        let missing = TmixSpec { vectors: "/nonexistent/sample-alt.cvec.gz".into(), ..spec() };
        let e = missing.load("traffic.tmix[0]", 1460, 40, END).unwrap_err();
        assert_eq!(
            e.message,
            "sample-alt.cvec.gz, Tmix's sample vectors, is not installed (Debian: apt-get install ns2-examples)"
        );
        // The m or w line's own line is named.
        let e = err("S 0 1 2 3\nm 536 1460\nI 0 0 5\n", spec());
        assert!(e.message.contains("v.cvec:2: \"m\": segment sizes 536 and 1460 bytes"), "{}", e.message);
        let e = err("S 0 1 2 3\nI 0 0 5\nS 1 1 2 4\nr 5\nm 0 0\nI 0 0 5\n", spec());
        assert!(e.message.contains("v.cvec:5: \"m\""), "{}", e.message);
        let e = err("S 0 1 2 3\nr 5\nw 0 0\nI 0 0 5\n", spec());
        assert!(
            e.message.contains("v.cvec:3: \"w\": windows 0 and 0 bytes: each must be at least one segment"),
            "{}",
            e.message
        );
        let e = err("S 0 1 2 3\nw 64800 1459\nI 0 0 5\n", spec());
        assert!(e.message.contains("v.cvec:2: \"w\""), "{}", e.message);
        // A scale or a rate that starts the first connection past the run's end.
        let e = err(TWO, TmixSpec { scale: 1e300, ..spec() });
        assert_eq!(e.field, "traffic.tmix[0].scale");
        assert!(e.message.contains("not before the end of the run (100s)"), "{}", e.message);
        // Its start past the clock is not the clock's last nanosecond, and the scale is not 301 digits
        // (review36c D1).
        assert!(
            e.message.starts_with("the first connection would start past the engine's clock (scale 1e300)"),
            "{}",
            e.message
        );
        let e = err("S 100000000 1 2 3\nI 0 0 5\n", spec());
        assert_eq!(e.field, "traffic.tmix[0].scale", "the vector's own start at 100 s");
        assert!(
            e.message.starts_with("the first connection would start at 100s (scale 1),"),
            "{}",
            e.message
        );
        assert_eq!(err(TWO, TmixSpec { rate: Some(1), ..spec() }).field, "traffic.tmix[0].rate");
        // TWO's 36 kb at 10^15 b/s: a play of 0.04 ns (issue 35 review: every play then started at once,
        // until memory ran out).
        let e = err(TWO, TmixSpec { rate: Some(1_000_000_000_000_000), ..spec() });
        assert_eq!(e.field, "traffic.tmix[0].rate");
        assert!(e.message.starts_with("replays the vectors every 0s"), "{}", e.message);
        assert!(
            e.message.contains("at 1000000Gbps; give a lower rate"),
            "the rate as written (review36c D2): {}",
            e.message
        );
        assert_eq!(err(TWO, TmixSpec { scale: 2.0, rate: Some(1), ..spec() }).field, "traffic.tmix[0].rate");
        // A scale that is NaN is null on the wire, past the schema's bound (`spec::bounds`).
        let nan = TmixSpec { scale: f64::NAN, ..spec() };
        assert_eq!(crate::spec::bounds::past_bound(&nan).as_deref(), Some("scale"));
        assert_eq!(
            err("S 5 1 2 3\nI 0 0 5\n", TmixSpec { rate: Some(1), ..spec() }).field,
            "traffic.tmix[0].rate"
        );
    }
}
