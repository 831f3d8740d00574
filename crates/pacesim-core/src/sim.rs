//! The simulation kernel: integer time, the event queue, random streams,
//! the run loop that dispatches events to the network and the agents, and
//! the split of a network into two halves run in parallel ([`partition`]).

pub mod event;
pub mod parallel;
pub mod partition;
pub mod rng;
pub mod run;
pub mod time;
pub mod timer;
pub mod world;

pub use event::EventQueue;
pub use time::Time;
