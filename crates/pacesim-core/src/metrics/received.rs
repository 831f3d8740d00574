//! What a receiver counts over the measurement window, as the physics lets
//! it through: a packet's bits reach the receiver over its last link's
//! serialisation, from `last_bit - tx` to `last_bit` (ns), and the packet
//! counts for the share of that interval inside the window [start, end].
//!
//! Invariant: packets that cross one link in turn have disjoint intervals,
//! so their shares inside a window of `end - start` ns sum to at most
//! `(end - start) / tx` packets of `tx` ns each: no more than the link
//! carries in the window, at either edge. A packet on the wire at an edge
//! is split between the windows on either side of it, so the count is
//! unbiased; counted whole where it ends (or begins), a flow filling its
//! last link showed up to a packet per window more than the link can carry
//! (241 segments in a 2 s window of a 1 Mb/s link that carries 240.38).

use crate::sim::Time;

/// Packets received in a window, by the share of each inside it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Received {
    /// Packets received wholly inside the window.
    whole: u64,
    /// The summed shares, each in (0, 1), of packets on the wire at an edge
    /// (at most one per edge for the packets of one link).
    part: f64,
}

impl Received {
    /// Count a packet whose last bit reaches the receiver at `last_bit`,
    /// after `tx` ns of serialisation on its last link, for its share of
    /// `window` ([start, end], ns). A packet of no serialisation time
    /// counts whole if it arrives in (start, end], as the share does in the
    /// limit of a short `tx`. Returns the share, 0 to 1.
    pub fn count(&mut self, window: [Time; 2], last_bit: Time, tx: Time) -> f64 {
        let [start, end] = window;
        let first_bit = last_bit.saturating_sub(tx);
        let inside = last_bit.min(end).saturating_sub(first_bit.max(start));
        if (tx == 0 && start < last_bit && last_bit <= end) || (tx > 0 && inside == tx) {
            self.whole += 1;
            return 1.0;
        }
        let share = if tx == 0 { 0.0 } else { inside as f64 / tx as f64 };
        self.part += share;
        share
    }

    /// Packets received in the window, shares of those at its edges included.
    pub fn packets(&self) -> f64 {
        self.whole as f64 + self.part
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Time = 1_000_000;

    /// Packets of 8 ms on the wire back to back, the k-th's last bit at
    /// `8 (k + 1)` ms: the count over `window`.
    fn train(window: [Time; 2], n: u64) -> f64 {
        let mut r = Received::default();
        for k in 0..n {
            r.count(window, 8 * (k + 1) * MS, 8 * MS);
        }
        r.packets()
    }

    #[test]
    fn a_packet_counts_for_its_share_inside_the_window() {
        // [10, 30] ms over packets on the wire over [0, 8], [8, 16], ...:
        // 6/8 of [8, 16], [16, 24] whole, 6/8 of [24, 32]: 2.5 packets,
        // the window's 20 ms of 8 ms packets.
        assert_eq!(train([10 * MS, 30 * MS], 10), 2.5);
        // Edges on packet boundaries: whole packets only.
        assert_eq!(train([8 * MS, 32 * MS], 10), 3.0);
        // A window inside one packet: its share.
        assert_eq!(train([9 * MS, 11 * MS], 10), 0.25);
        // Nothing before the window or after it.
        assert_eq!(train([100 * MS, 200 * MS], 10), 0.0);
    }

    #[test]
    fn a_packet_of_no_serialisation_counts_if_it_arrives_in_the_window_or_at_its_end() {
        let mut r = Received::default();
        for t in [10, 11, 20, 21] {
            r.count([10 * MS, 20 * MS], t * MS, 0);
        }
        assert_eq!(r.packets(), 2.0);
    }

    #[test]
    fn windows_that_tile_a_train_count_each_packet_once_and_never_more_than_fits() {
        // Windows of 5 ms at every phase over a train of 8 ms packets: each
        // counts 5/8 of a packet, and the windows sum to the whole train.
        for phase in 0..8 {
            let edges: Vec<Time> = (0..20).map(|i| phase * MS + 5 * i * MS).collect();
            let counts: Vec<f64> = edges.windows(2).map(|w| train([w[0], w[1]], 12)).collect();
            for &c in &counts[..16] {
                assert!((c - 0.625).abs() < 1e-12, "phase {phase} ms: {c}");
            }
            let total: f64 =
                counts.iter().sum::<f64>() + train([0, edges[0]], 12) + train([edges[19], 1000 * MS], 12);
            assert!((total - 12.0).abs() < 1e-12, "phase {phase} ms: {total}");
        }
    }
}
