//! The network: packets, links and the queues in front of them.

pub mod codel;
pub mod core_link;
pub mod discipline;
pub mod droptail;
pub mod fq_codel;
pub mod link;
pub mod packet;
pub mod packet_trace;
pub mod pie;
pub mod queue;
pub mod red;
pub mod threshold;

pub use codel::Codel;
pub use droptail::DropTail;
pub use fq_codel::FqCodel;
pub use link::{Link, LinkId, Passage};
pub use packet::{Packet, PacketArena, PacketId, PacketKind, TcpOptions};
pub use pie::Pie;
pub use queue::Queue;
pub use red::Red;
