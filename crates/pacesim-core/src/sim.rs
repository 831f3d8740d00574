//! The simulation kernel: integer time, the event queue, timers and named
//! random streams. It knows nothing of packets, TCP or scenarios; the
//! engine (`crate::engine`) builds a world on it and runs it.

pub mod event;
pub mod prefetch;
pub mod rng;
pub mod time;
pub mod timer;

pub use event::EventQueue;
pub use time::Time;
