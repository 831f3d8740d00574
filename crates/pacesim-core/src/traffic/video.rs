//! Video trace sources: a trace's frames (see [`super::trace`]) cut into UDP
//! packets, as paper A Sec II sends its movie traces (A-fig2: fixed 200 B
//! packets; A-fig3: sizes uniform over [150, 300] B).
//!
//! A frame's bytes are cut into packets whose sizes are drawn from the
//! source's `size` ("udp.size" stream); the last packet carries what is
//! left, so the source sends exactly the trace's bytes (as ns-3's
//! `UdpTraceClient` cuts frames). A frame's bytes count as wire bytes: the
//! trace's mean rate is the source's wire rate, as paper A counts its
//! 374.4 kb/s trace as 3.75 % of a 10 Mb/s link.
//!
//! `send = "spread"` (the default) sends a frame's packets at the frame's own
//! bit rate over its interval: packet k leaves at
//! `t_f + (t_{f+1} - t_f) x (bytes of packets 0..k) / (frame bytes)`, so the
//! source's peak rate is the trace's frame-level peak, the one paper A
//! quotes (4.446 Mb/s). `send = "burst"` sends them all at `t_f`, leaving
//! the access link to space them. Frames of 0 bytes send nothing.
//!
//! Paper A plays each trace as recorded and picks the link rates so that
//! video is 3-10 % of the core (Sec II), so a source's `rate` is optional:
//! given, every frame is scaled to that mean ([`Trace::scaled_to`]).

use super::sizes::Sizes;
use super::trace::{Spacing, Trace};
use crate::sim::rng::Stream;
use crate::sim::Time;

/// A trace played from `start`, looping, cut into packets.
pub struct VideoSource {
    trace: Trace,
    spacing: Spacing,
    sizes: Sizes,
    rng: Stream,
    start: Time,
    /// The frame being cut (loop count and index) and its bytes already in packets.
    lap: u64,
    frame: usize,
    cut: u64,
    /// The packet due next: when, and its size.
    next: (Time, u32),
}

impl VideoSource {
    pub fn new(trace: Trace, spacing: Spacing, sizes: Sizes, rng: Stream, start: Time) -> Self {
        let mut s = VideoSource { trace, spacing, sizes, rng, start, lap: 0, frame: 0, cut: 0, next: (0, 0) };
        s.next = s.cut_packet();
        s
    }

    /// When the first packet is due.
    pub fn first(&self) -> Time {
        self.next.0
    }

    /// The packet due now: its size, and when the next one is due.
    pub fn emit(&mut self) -> (u32, Time) {
        let size = self.next.1;
        self.next = self.cut_packet();
        (size, self.next.0)
    }

    /// The next packet of the trace (which holds at least one byte, so the
    /// search for a frame with bytes left ends within a loop).
    fn cut_packet(&mut self) -> (Time, u32) {
        let frames = &self.trace.frames;
        while self.cut == frames[self.frame].bytes {
            self.cut = 0;
            self.frame += 1;
            if self.frame == frames.len() {
                self.frame = 0;
                self.lap += 1;
            }
        }
        let f = frames[self.frame];
        let size = u64::from(self.sizes.draw(&mut self.rng)).min(f.bytes - self.cut);
        let offset = match self.spacing {
            Spacing::Burst => 0,
            Spacing::Spread => {
                let interval = u128::from(self.trace.interval(self.frame));
                (interval * u128::from(self.cut) / u128::from(f.bytes)) as Time
            }
        };
        self.cut += size;
        let lap_start = self.start.saturating_add(self.lap.saturating_mul(self.trace.period));
        (lap_start.saturating_add(f.time + offset), size as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::stream;
    use crate::traffic::trace::Column;

    const MS: Time = 1_000_000;

    /// 25 frames/s: 1000 B, an empty frame, 450 B; period 120 ms.
    fn trace() -> Trace {
        Trace::parse("I 1000\nB 0\nP 450\n", &[Column::Type, Column::Bytes], Some(25.0)).unwrap()
    }

    /// The first `n` packets (time, size) of a source started at 1 ms.
    fn packets(spacing: Spacing, sizes: Sizes, n: usize) -> Vec<(Time, u32)> {
        let mut s = VideoSource::new(trace(), spacing, sizes, stream(1, "udp.size", 0), MS);
        let mut t = s.first();
        (0..n)
            .map(|_| {
                let (size, next) = s.emit();
                let p = (t, size);
                t = next;
                p
            })
            .collect()
    }

    #[test]
    fn fixed_sizes_spread_over_the_frame_interval() {
        // 1000 B in five 200 B packets over 40 ms: one every 8 ms. 450 B is
        // 200 + 200 + 50 over 40 ms at 80 ms: 200/450 of 40 ms = 17.78 ms apart.
        // Then the trace loops, 120 ms later.
        let p = packets(Spacing::Spread, Sizes::Range([200, 200]), 9);
        let at = |ms: Time, extra: Time| MS + ms * MS + extra;
        assert_eq!(
            p,
            [
                (at(0, 0), 200),
                (at(8, 0), 200),
                (at(16, 0), 200),
                (at(24, 0), 200),
                (at(32, 0), 200),
                (at(80, 0), 200),
                (at(80, 17_777_777), 200),
                (at(80, 35_555_555), 50),
                (at(120, 0), 200),
            ]
        );
    }

    #[test]
    fn fixed_sizes_in_a_burst_leave_at_the_frame_time() {
        let p = packets(Spacing::Burst, Sizes::Range([200, 200]), 9);
        let times: Vec<Time> = p.iter().map(|x| x.0).collect();
        assert_eq!(times, [MS, MS, MS, MS, MS, 81 * MS, 81 * MS, 81 * MS, 121 * MS]);
        assert_eq!(p.iter().map(|x| x.1).sum::<u32>(), 1650);
    }

    #[test]
    fn uniform_sizes_cut_each_frame_exactly() {
        // U[150, 300] B: 1000 B takes 4 to 7 packets, 450 B 2 or 3, all but
        // each frame's last in [150, 300]; packet k of a frame leaves at
        // t_f + 40 ms x (bytes before k) / (frame bytes). Over 100 loops (at
        // most 10 packets each).
        let p = packets(Spacing::Spread, Sizes::Range([150, 300]), 1000);
        let mut i = 0;
        for lap in 0..100 {
            for (t_f, bytes, counts) in [(0, 1000u64, 4..=7), (80 * MS, 450, 2..=3)] {
                let (mut before, start) = (0u64, i);
                while before < bytes {
                    let (t, size) = p[i];
                    let want = MS + lap * 120 * MS + t_f + 40 * MS * before / bytes;
                    assert_eq!(t, want, "lap {lap} frame at {t_f}: packet {}", i - start);
                    before += u64::from(size);
                    assert!(size <= 300 && (size >= 150 || before == bytes), "{size}");
                    i += 1;
                }
                assert_eq!(before, bytes);
                assert!(counts.contains(&(i - start)), "{} packets", i - start);
            }
        }
    }

    #[test]
    fn an_empty_first_frame_delays_the_first_packet() {
        let t = Trace::parse("0\n0\n300\n", &[Column::Bytes], Some(10.0)).unwrap();
        let mut s = VideoSource::new(t, Spacing::Burst, Sizes::Range([200, 200]), stream(1, "u", 0), 0);
        assert_eq!(s.first(), 200 * MS);
        assert_eq!(s.emit(), (200, 200 * MS));
        assert_eq!(s.emit(), (100, 500 * MS));
    }
}
