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
}
