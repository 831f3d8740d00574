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
    /// Size on the wire, bytes.
    pub size: u32,
    pub seq: i64,
}

#[derive(Default)]
pub struct PacketArena {
    slots: Vec<Packet>,
    free: Vec<PacketId>,
    created: u64,
}

impl PacketArena {
    pub fn alloc(&mut self, p: Packet) -> PacketId {
        self.created += 1;
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
