//! Packets and the arena that owns them.
//!
//! A packet carries its route (a span of the network's route table) and the
//! hop it is on, so forwarding needs no table lookup. Packets live in one arena and
//! are addressed by index; freed slots are reused, so a run in steady state
//! allocates nothing per packet.

pub type PacketId = u32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PacketKind {
    /// A TCP data segment; `seq` is its packet-counted sequence number.
    Data,
    /// A cumulative TCP ACK; `seq` is the highest in-order sequence received.
    Ack,
    /// An open-loop (real-time) UDP datagram; `flow` is its source's index.
    Udp,
}

#[derive(Debug, Clone, Copy)]
pub struct Packet {
    pub flow: u32,
    /// Position in the network's route table of the link being crossed,
    /// and one past the last link of the route.
    pub hop: u32,
    pub last_hop: u32,
    pub kind: PacketKind,
    /// TCP: which connection of the flow sent it (short-lived flows open a
    /// new one per transfer; packets of a closed one are discarded).
    pub conn: u32,
    /// Size on the wire, bytes.
    pub size: u32,
    pub seq: i64,
    /// Its ECN bits ([`ecn`]): 0 for a flow that does not use ECN. In the
    /// padding of the 32 bytes the packet takes anyway.
    pub ecn: u8,
}

/// The ECN bits a packet carries (RFC 3168 Sec 5 and 6.1), one bit each:
/// on data `ECT` (an ECN-capable transport sent it), `CE` (a queue marked
/// it: congestion experienced) and `CWR` (the sender cut its window); on
/// an ACK `ECE` (the receiver echoes congestion).
pub mod ecn {
    pub const ECT: u8 = 1;
    pub const CE: u8 = 2;
    pub const CWR: u8 = 4;
    pub const ECE: u8 = 8;
}

// Every hop touches the packet: the ECN bits must not make it larger.
const _: () = assert!(std::mem::size_of::<Packet>() == 32);

/// Most SACK blocks one ACK carries (ns-2 `maxSackBlocks_`).
pub const MAX_SACK_BLOCKS: usize = 3;

/// SACK blocks `[left, right)`, most recent first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SackBlocks {
    len: u8,
    blocks: [(i64, i64); MAX_SACK_BLOCKS],
}

impl SackBlocks {
    pub fn as_slice(&self) -> &[(i64, i64)] {
        &self.blocks[..usize::from(self.len)]
    }

    pub fn push(&mut self, block: (i64, i64)) {
        self.blocks[usize::from(self.len)] = block;
        self.len += 1;
    }

    pub fn is_full(&self) -> bool {
        usize::from(self.len) == MAX_SACK_BLOCKS
    }
}

/// TCP options a packet carries (RFC 2018 SACK, RFC 7323 timestamps as
/// ns-2 keeps them: every data packet is stamped `ts_` and the sink echoes
/// the stamp of the packet that triggered each ACK, `ts_echo_`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TcpOptions {
    /// ACKs: SACK blocks.
    pub sack: SackBlocks,
    /// Data: when sent; ACKs: the echoed send time.
    pub timestamp: crate::sim::Time,
    /// Data, when one-way delays are measured: when its sequence number was
    /// first sent (a retransmission's delay includes the wait for it).
    pub first_sent: crate::sim::Time,
}

#[derive(Default)]
pub struct PacketArena {
    slots: Vec<Packet>,
    /// TCP options, by packet id: a side table rather than a field, so
    /// that the packet every hop touches stays 32 bytes (three SACK blocks
    /// and a stamp would add 64) and runs of plain Reno never allocate it.
    /// Only senders that read options (SACK, FACK) have them written.
    options: Vec<TcpOptions>,
    free: Vec<PacketId>,
    created: u64,
}

impl PacketArena {
    pub fn alloc(&mut self, p: Packet) -> PacketId {
        self.created += 1;
        self.adopt(p)
    }

    /// Take in a packet created elsewhere (by the other half of a split
    /// run): it is not counted as created here.
    pub fn adopt(&mut self, p: Packet) -> PacketId {
        match self.free.pop() {
            Some(id) => {
                self.slots[id as usize] = p;
                id
            }
            None => {
                self.slots.push(p);
                (self.slots.len() - 1) as PacketId
            }
        }
    }

    /// Attach TCP options to packet `id`.
    pub fn set_options(&mut self, id: PacketId, options: TcpOptions) {
        let i = id as usize;
        if i >= self.options.len() {
            self.options.resize(i + 1, TcpOptions::default());
        }
        self.options[i] = options;
    }

    /// The TCP options last attached to slot `id` (meaningful only for
    /// packets of flows that attach them).
    #[inline]
    pub fn options(&self, id: PacketId) -> TcpOptions {
        self.options.get(id as usize).copied().unwrap_or_default()
    }

    /// The options of slot `id` if options were ever attached to it (to
    /// pass on with the packet).
    pub fn attached_options(&self, id: PacketId) -> Option<TcpOptions> {
        self.options.get(id as usize).copied()
    }

    pub fn release(&mut self, id: PacketId) {
        self.free.push(id);
    }

    #[inline]
    pub fn get(&self, id: PacketId) -> &Packet {
        &self.slots[id as usize]
    }

    #[inline]
    pub fn get_mut(&mut self, id: PacketId) -> &mut Packet {
        &mut self.slots[id as usize]
    }

    /// Packets ever allocated.
    pub fn created(&self) -> u64 {
        self.created
    }

    /// Packets currently alive.
    pub fn live(&self) -> u64 {
        (self.slots.len() - self.free.len()) as u64
    }
}

impl From<crate::spec::DelayClass> for PacketKind {
    fn from(class: crate::spec::DelayClass) -> Self {
        match class {
            crate::spec::DelayClass::Data => PacketKind::Data,
            crate::spec::DelayClass::Udp => PacketKind::Udp,
        }
    }
}
