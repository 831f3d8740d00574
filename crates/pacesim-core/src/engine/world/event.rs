//! The events of a world, and their 32-bit form in the event queue.

use crate::net::PacketId;

#[derive(Debug, Clone, Copy)]
pub enum Event {
    /// The packet's last bit reached the far end of the link it was crossing.
    Arrive(PacketId),
    /// The retransmission timer of a flow may expire.
    Rto(u32),
    /// A pacer in front of a link may release packets.
    Pace(u32),
    /// A paced sender may send again.
    HostPace(u32),
    /// A sink's delayed ACK may be due.
    DelAck(u32),
    /// A flow's application starts (a short-lived flow's next transfer).
    Start(u32),
    /// A UDP source's next packet is due.
    Udp(u32),
    /// The measurement window opens.
    Warmup,
    /// Every flow's progress is sampled (`ProgressSpec`).
    Sample,
    /// The run ends.
    End,
    /// A link whose queue holds its packets may start the next.
    Transmit(u32),
    /// A Tmix cloud's next connection starts.
    TmixStart(u32),
    /// The timer of the Tmix application sending on a flow may fire.
    TmixApp(u32),
    /// The packet leaves a Tmix DelayBox.
    Delayed(PacketId),
}

impl Event {
    /// The kind of event, numbered in declaration order from 0, and its index.
    fn parts(self) -> (u8, u32) {
        match self {
            Event::Arrive(i) => (0, i),
            Event::Rto(i) => (1, i),
            Event::Pace(i) => (2, i),
            Event::HostPace(i) => (3, i),
            Event::DelAck(i) => (4, i),
            Event::Start(i) => (5, i),
            Event::Udp(i) => (6, i),
            Event::Warmup => (7, 0),
            Event::Sample => (8, 0),
            Event::End => (9, 0),
            Event::Transmit(i) => (10, i),
            Event::TmixStart(i) => (11, i),
            Event::TmixApp(i) => (12, i),
            Event::Delayed(i) => (13, i),
        }
    }

    /// The kind of event, numbered in declaration order from 0.
    #[cfg(feature = "trace")]
    pub fn tag(&self) -> u8 {
        self.parts().0
    }
}

/// An [`Event`] in 32 bits, its kind in the top 4 and its index below, so
/// that an entry of the event queue (time, tie, event) takes 16 bytes, not
/// the 24 the 8-byte enum would take (bench/speed/README.md: what that costs).
#[derive(Debug, Clone, Copy)]
pub struct Packed(u32);

const INDEX_BITS: u32 = 28;

impl From<Event> for Packed {
    #[inline]
    fn from(e: Event) -> Packed {
        let (kind, index) = e.parts();
        assert!(index < 1 << INDEX_BITS, "event index {index} needs more than {INDEX_BITS} bits");
        Packed(u32::from(kind) << INDEX_BITS | index)
    }
}

impl From<Packed> for Event {
    #[inline]
    fn from(p: Packed) -> Event {
        let index = p.0 & ((1 << INDEX_BITS) - 1);
        match p.0 >> INDEX_BITS {
            0 => Event::Arrive(index),
            1 => Event::Rto(index),
            2 => Event::Pace(index),
            3 => Event::HostPace(index),
            4 => Event::DelAck(index),
            5 => Event::Start(index),
            6 => Event::Udp(index),
            7 => Event::Warmup,
            8 => Event::Sample,
            9 => Event::End,
            10 => Event::Transmit(index),
            11 => Event::TmixStart(index),
            12 => Event::TmixApp(index),
            _ => Event::Delayed(index),
        }
    }
}
