//! Drop-tail admission, as ns-2 2.35's `Queue/DropTail` decides it.
//!
//! ns-2 (`queue/drop-tail.cc`, `DropTail::enque`) drops an arriving packet
//! when, in byte mode, `bytes_queued + size >= limit`, and in packet mode when
//! `packets_queued + 1 >= limit`. The packet being transmitted has already
//! left the queue (the link holds it), so it does not count. The limit is
//! therefore never reached exactly: a 2000-byte buffer holds one 1040-byte
//! packet waiting (plus one on the wire), a 5000-byte buffer four, and a
//! buffer smaller than a packet drops every packet that finds the link busy.
//! (An arrival at an idle link is enqueued and dequeued at once in ns-2, but
//! the check runs first, so it too is dropped if `size >= limit`.)

use super::discipline::{Arrival, Discipline, Limits, Verdict};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DropTail {
    /// Byte limit; `None` never drops on bytes.
    pub limit_bytes: Option<u64>,
    /// Packet limit; `None` never drops on packets.
    pub limit_packets: Option<u64>,
}

impl DropTail {
    /// A queue that never drops.
    pub fn unlimited() -> Self {
        Self::default()
    }

    pub fn bytes(limit: u64) -> Self {
        Self { limit_bytes: Some(limit), limit_packets: None }
    }

    /// Whether an arriving packet of `size` bytes is accepted into a queue
    /// already holding `queued_packets` packets and `queued_bytes` bytes.
    #[inline]
    pub fn fits(&self, queued_bytes: u64, queued_packets: u64, size: u64) -> bool {
        let over_bytes = self.limit_bytes.is_some_and(|l| queued_bytes + size >= l);
        let over_packets = self.limit_packets.is_some_and(|l| queued_packets + 1 >= l);
        !(over_bytes || over_packets)
    }
}

impl Discipline for DropTail {
    #[inline]
    fn verdict(&mut self, a: &Arrival) -> Verdict {
        if self.fits(a.queued_bytes, a.queued_packets, u64::from(a.size)) {
            Verdict::Admit
        } else {
            Verdict::DropArrival
        }
    }

    fn limits(&self) -> Limits {
        Limits { bytes: self.limit_bytes, packets: self.limit_packets }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many `size`-byte packets fit while the link is busy.
    fn capacity(q: DropTail, size: u64) -> u64 {
        let mut n = 0;
        while q.fits(n * size, n, size) {
            n += 1;
        }
        n
    }

    #[test]
    fn byte_limit_is_strict_as_in_ns2() {
        assert_eq!(capacity(DropTail::bytes(2000), 1040), 1);
        assert_eq!(capacity(DropTail::bytes(2000), 1000), 1);
        assert_eq!(capacity(DropTail::bytes(5000), 1040), 4);
        assert_eq!(capacity(DropTail::bytes(5000), 1000), 4);
        assert_eq!(capacity(DropTail::bytes(10_000), 1040), 9);
        assert_eq!(capacity(DropTail::bytes(30_000), 1040), 28);
        assert_eq!(capacity(DropTail::bytes(50_000), 1040), 48);
        assert_eq!(capacity(DropTail::bytes(1000), 1040), 0);
    }

    #[test]
    fn packet_limit_holds_one_less_than_the_limit() {
        let q = DropTail { limit_bytes: None, limit_packets: Some(50) };
        assert_eq!(capacity(q, 1040), 49);
        let both = DropTail { limit_bytes: Some(100_000), limit_packets: Some(5) };
        assert_eq!(capacity(both, 40), 4);
        assert!(DropTail::unlimited().fits(u64::MAX / 2, u64::MAX / 2, 1500));
    }
}
