//! The TCP sink (ns-2 `Agent/TCPSink` without delayed ACKs): every data
//! packet is answered at once by a cumulative ACK carrying the highest
//! sequence number received in order.

use std::collections::VecDeque;

#[derive(Debug, Clone, Default)]
pub struct TcpSink {
    /// Next sequence number expected in order.
    next: i64,
    /// `seen[k]`: whether `next + k` has arrived (out of order).
    seen: VecDeque<bool>,
}

impl TcpSink {
    /// A data packet `seq` arrived; returns the ACK number to send.
    pub fn on_data(&mut self, seq: i64) -> i64 {
        if seq >= self.next {
            let k = (seq - self.next) as usize;
            if self.seen.len() <= k {
                self.seen.resize(k + 1, false);
            }
            self.seen[k] = true;
            while self.seen.front() == Some(&true) {
                self.seen.pop_front();
                self.next += 1;
            }
        }
        self.next - 1
    }

    /// Packets delivered in order so far.
    pub fn delivered(&self) -> i64 {
        self.next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acks_are_cumulative_and_fill_holes() {
        let mut s = TcpSink::default();
        let acks: Vec<i64> = [0, 1, 3, 4, 2, 2, 6, 5].iter().map(|&q| s.on_data(q)).collect();
        assert_eq!(acks, vec![0, 1, 1, 1, 4, 4, 4, 6]);
        assert_eq!(s.delivered(), 7);
        // First packet lost: ACK -1 (nothing in order yet).
        assert_eq!(TcpSink::default().on_data(1), -1);
    }
}
