//! The engine: the only place that turns a scenario into components. It
//! builds the world a scenario describes (([`run::build_world`])), runs it on the kernel's
//! event queue ([`world`]), on one thread or split in two halves on two
//! ([`partition`], [`parallel`]), and assembles the report ([`run`]);
//! [`describe`] shows the network it would build.

pub mod describe;
pub mod parallel;
pub mod partition;
pub mod run;
pub mod world;
