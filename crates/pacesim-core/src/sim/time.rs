//! Simulated time: integer nanoseconds since the start of the run.
//!
//! Integer time makes runs exact and reproducible: no two machines disagree
//! on an event's time, and ties are broken by the order events were
//! scheduled (`sim::event`).

/// Nanoseconds since the start of the run.
pub type Time = u64;

pub const NS_PER_SEC: u64 = 1_000_000_000;

/// Serialisation time of `bytes` at `rate_bps`, rounded to the nearest nanosecond.
/// (Exact in u64 for packets below 2 GB.)
#[inline]
pub fn tx_time(bytes: u64, rate_bps: u64) -> Time {
    (bytes * 8 * NS_PER_SEC + rate_bps / 2) / rate_bps
}

/// A byte's time on a link of 1 bit/s, ns: a byte takes this / rate ns.
pub const BITS_NS_PER_BYTE: u64 = 8 * NS_PER_SEC;

/// A time at a rate, split exactly: `whole` ns and `frac / rate_bps` ns
/// (`frac < rate_bps`), so exact at every rate a u64 holds.
///
/// How a clock at a rate keeps exact time in whole ns (a link's
/// transmitter, `net::link`; QLBP's pacer, `pacing::qlbp`): the exact end
/// of the last interval is `t - slack / rate_bps` ns, `t` the whole ns it
/// was timed at (its ceiling) and `slack < rate_bps` the fraction rounded
/// up. An interval following it back to back ([`Serial::after`]) starts at
/// that exact end, so a run of them never drifts from the rate; one that
/// starts afresh at a whole ns carries a slack of 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Serial {
    pub whole: Time,
    pub frac: u64,
}

impl Serial {
    /// The time `bytes` take at `rate_bps` (out of line: a 128-bit division).
    #[inline(never)]
    pub fn of(bytes: u64, rate_bps: u64) -> Serial {
        let rate = u128::from(rate_bps);
        let exact = u128::from(bytes) * u128::from(BITS_NS_PER_BYTE);
        let whole = Time::try_from(exact / rate).expect("a serialisation time below 584 years");
        Serial { whole, frac: (exact % rate) as u64 }
    }

    /// This interval after one whose exact end is `slack / rate_bps` ns
    /// before its whole ns `t`: whether it ends at `t + whole + 1` (else at
    /// `t + whole`), its end rounded up, and the slack that end leaves.
    #[inline]
    pub fn after(self, slack: u64, rate_bps: u64) -> (bool, u64) {
        // When `frac` exceeds the slack the interval takes one ns more and
        // leaves `rate_bps - (frac - slack)`: a select, not a branch (which
        // way it goes follows the fractions, in no pattern to predict).
        let (left, late) = slack.overflowing_sub(self.frac);
        (late, if late { left.wrapping_add(rate_bps) } else { left })
    }
}

/// `x` ns to the nearest nanosecond, halves away from zero, saturated to
/// [0, `Time::MAX`] and NaN to 0: exactly `x.round() as Time`, without the
/// call to libm's `round` that baseline x86-64 makes for it (host pacing
/// does this once per packet sent).
#[inline]
pub fn round_ns(x: f64) -> Time {
    // Toward zero, saturated. x - whole is then x's fraction, exactly:
    // whole is x's integer part below 2^53, and x is an integer above.
    let whole = x as Time;
    if x - whole as f64 >= 0.5 {
        whole.saturating_add(1)
    } else {
        whole
    }
}

pub fn secs(t: Time) -> f64 {
    t as f64 / NS_PER_SEC as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialisation_of_a_1040_byte_packet_at_100mbps_is_83_2_us() {
        assert_eq!(tx_time(1040, 100_000_000), 83_200);
        assert_eq!(tx_time(40, 10_000_000), 32_000);
        // 1000 B at 9 Mb/s = 888.888.. us, rounded to the nearest ns.
        assert_eq!(tx_time(1000, 9_000_000), 888_889);
    }

    #[test]
    fn round_ns_is_round_then_cast() {
        let half_below = 0.5 - f64::EPSILON / 4.0; // 0.49999999999999994
        let halves = [0.5, 1.5, 2.5, -0.5, half_below, 2f64.powi(52) + 0.5];
        let large = [2f64.powi(53) + 1.0, 2f64.powi(64), 1e300, f64::INFINITY];
        let odd = [0.0, -0.0, -0.7, -f64::INFINITY, f64::NAN];
        for x in halves.into_iter().chain(large).chain(odd) {
            assert_eq!(round_ns(x), x.round() as Time, "{x}");
        }
    }

    proptest::proptest! {
        #[test]
        fn round_ns_matches_round_on_any_bits(bits: u64) {
            let x = f64::from_bits(bits);
            proptest::prop_assert_eq!(round_ns(x), x.round() as Time);
        }

        #[test]
        fn round_ns_matches_round_on_gaps(x in 0.0..1e10f64) {
            proptest::prop_assert_eq!(round_ns(x), x.round() as Time);
        }
    }
}
