//! Video trace sources: a trace's frames (see [`super::frame_trace`]) cut into UDP
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
//! given, every frame is scaled to that mean ([`FrameTrace::scaled_to`]).

use super::frame_trace::{FrameTrace, Spacing};
use super::sizes::Sizes;
use crate::sim::rng::Stream;
use crate::sim::Time;

/// A trace played from `start`, looping, cut into packets.
pub struct VideoSource {
    trace: FrameTrace,
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
    pub fn new(trace: FrameTrace, spacing: Spacing, sizes: Sizes, rng: Stream, start: Time) -> Self {
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

    /// The queue its stream alone builds at each of `rates` (bit/s) fed directly in its run to `end`,
    /// the most bits, and all it sends, bits (`UdpSource::backlog`'s), from its frames, not its packets: a
    /// frame's bits arrive at once (`burst`) or at a steady rate over its interval (`spread`), and the
    /// packets cut from them bring at most a packet more, or leave a packet fewer, than that fluid by
    /// any time, so the packets of any window at most two more. The trace loops, bringing the same bits
    /// each period T, so a window of k + 1 whole periods and less than one more brings k T times its
    /// mean more than one of a period and less, which (shifted by whole periods) lies within the first
    /// three: a link of rate C holds at most the fluid's most over three periods and (mean - C) k T more
    /// (k + 1 at most the whole periods in the run). Issue 33 (review33g): a trace's packets
    /// were replayed one by one, 2^25 of them at most, and past that counted as queueing all it sent
    /// (600 s of a steady 20 Mb/s trace: 9.9 GB for a 46 MB peak).
    pub fn backlog(&self, end: Time, rates: &[f64]) -> (Vec<f64>, f64) {
        let (t, run) = (&self.trace, end.saturating_sub(self.start));
        // ns from the start: three periods at most. A trace's period is not bounded by the clock (a time
        // column may reach u64::MAX ns), so the periods saturate: one past u64::MAX / 3 is longer than any run.
        let horizon = run.min(t.period.saturating_mul(3));
        let mut queued = vec![0.0f64; rates.len()];
        let mut most = vec![0.0f64; rates.len()];
        for (lap, (i, f)) in (0..3u64).flat_map(|lap| std::iter::repeat(lap).zip(t.frames.iter().enumerate()))
        {
            let at = lap.saturating_mul(t.period).saturating_add(f.time);
            if at > horizon {
                break;
            }
            let (bits, whole) = (f.bytes as f64 * 8.0, t.interval(i));
            let within = whole.min(horizon - at) as f64 / 1e9; // s of its interval in the horizon
            for ((q, m), &rate) in queued.iter_mut().zip(&mut most).zip(rates) {
                if self.spacing == Spacing::Burst || whole == 0 {
                    *m = m.max(*q + bits);
                    *q = (*q + bits - rate * within).max(0.0);
                } else {
                    // the queue grows or drains steadily over the interval: most at one end
                    *q = (*q + (bits / (whole as f64 / 1e9) - rate) * within).max(0.0);
                    *m = m.max(*q);
                }
            }
        }
        // its largest packet, bits: its largest size, cut to its largest frame
        let largest = t.frames.iter().map(|f| f.bytes).max().unwrap_or(0);
        let (mean, packet) = (t.mean_rate(), self.sizes.bounds().1.min(largest) as f64 * 8.0);
        // k T, s: the whole periods in the run but one, when it runs past the three replayed
        let more = if run > horizon { (run / t.period - 1) as f64 * t.period as f64 / 1e9 } else { 0.0 };
        let bits =
            (most.iter().zip(rates)).map(|(m, &rate)| m + 2.0 * packet + (mean - rate).max(0.0) * more);
        (bits.collect(), t.bits_within(run))
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
    use crate::traffic::frame_trace::{Column, Frame};

    const MS: Time = 1_000_000;

    /// 25 frames/s: 1000 B, an empty frame, 450 B; period 120 ms.
    fn trace() -> FrameTrace {
        FrameTrace::parse("I 1000\nB 0\nP 450\n", &[Column::Type, Column::Bytes], Some(25.0)).unwrap()
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
        let t = FrameTrace::parse("0\n0\n300\n", &[Column::Bytes], Some(10.0)).unwrap();
        let mut s = VideoSource::new(t, Spacing::Burst, Sizes::Range([200, 200]), stream(1, "u", 0), 0);
        assert_eq!(s.first(), 200 * MS);
        assert_eq!(s.emit(), (200, 200 * MS));
        assert_eq!(s.emit(), (100, 500 * MS));
    }

    /// The most a link of each of `rates` holds fed by the source's packets to `end` alone, bits
    /// (Lindley's recursion over its packets, each counted whole when it arrives).
    fn queued(mut s: VideoSource, end: Time, rates: &[f64]) -> Vec<f64> {
        let (mut q, mut most, mut last) = (vec![0.0; rates.len()], vec![0.0f64; rates.len()], s.first());
        while s.first() <= end {
            let at = s.first();
            let (size, _) = s.emit();
            for ((q, m), &rate) in q.iter_mut().zip(&mut most).zip(rates) {
                *q = (*q - rate * (at - last) as f64 / 1e9).max(0.0) + f64::from(size) * 8.0;
                *m = m.max(*q);
            }
            last = at;
        }
        most
    }

    #[test]
    fn a_period_past_the_clock_bounds_as_any_period_longer_than_the_run() {
        // A time column sets any period up to u64::MAX ns (a frame at 10^11 s saturates it, see
        // frame_trace::tests): three periods overflowed past u64::MAX / 3, a panic in a debug build and in release
        // a horizon of 2 ns for u64::MAX / 3 + 1, which left the frame at 1 ms out of the bound. Frames of
        // 1000 B at 0 and 1 ms in 200 B packets, burst, for 10 s: at 1 Mb/s the second frame comes on 7000
        // bits left of the first, 15,000 and two packets (3200); at 10 kb/s on 7990, 15,990 and 3200; both
        // frames sent once (16,000 bits), whatever period longer than the run.
        let frames = vec![Frame { time: 0, bytes: 1000, line: 1 }, Frame { time: MS, bytes: 1000, line: 2 }];
        let bound = |period| {
            let t = FrameTrace { frames: frames.clone(), period };
            let s =
                VideoSource::new(t, Spacing::Burst, Sizes::Range([200, 200]), stream(1, "udp.size", 0), 0);
            s.backlog(10_000 * MS, &[1e6, 1e4])
        };
        for period in [1 << 40, 1 << 62, u64::MAX / 3 + 1, 1 << 63, u64::MAX] {
            assert_eq!(bound(period), (vec![18_200.0, 19_190.0], 16_000.0), "period {period}");
        }
    }

    #[test]
    fn the_bound_from_frames_holds_the_packets_queue_and_is_within_two_packets_of_it() {
        // The trace's mean is 96.7 Kb/s; links of 50 Kb/s (under it), 96.7 Kb/s, 150 Kb/s and 1 Mb/s, fed
        // for 10 s (83 periods), in 200 B packets and in 150-300 B ones, spread and burst.
        let rates = [trace().mean_rate(), 50e3, 150e3, 1e6];
        for spacing in [Spacing::Spread, Spacing::Burst] {
            for sizes in [Sizes::Range([200, 200]), Sizes::Range([150, 300])] {
                let source =
                    || VideoSource::new(trace(), spacing, sizes.clone(), stream(1, "udp.size", 0), MS);
                let end = MS + 10_000 * MS;
                let ((bound, sent), exact) = (source().backlog(end, &rates), queued(source(), end, &rates));
                for ((&b, &e), &rate) in bound.iter().zip(&exact).zip(&rates) {
                    assert!(b >= e, "{spacing:?} {sizes:?} at {rate} bit/s: {b} < {e}");
                    // two packets more; under the mean, what a period of 120 ms brings beyond the rate too
                    let over = 2.0 * 300.0 * 8.0 + (rates[0] - rate).max(0.0) * 0.12;
                    assert!(b <= e + over + 1e-6, "{spacing:?} {sizes:?} at {rate} bit/s: {b} vs {e}");
                }
                // 83 periods of 11,600 bits and the 84th's first frame
                assert_eq!(sent, 83.0 * 11_600.0 + 8000.0);
            }
        }
    }
}
