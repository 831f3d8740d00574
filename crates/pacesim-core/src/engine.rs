//! The engine: the only place that turns a scenario into components. It
//! builds the world a scenario describes ([`build`]), runs it on the
//! kernel's event queue ([`world`], [`run`]), on one thread or split in two
//! halves on two ([`partition`], [`parallel`]), checks packet conservation
//! ([`conservation`]) and assembles the report ([`assemble`]);
//! [`describe`] shows the network it would build.

mod assemble;
pub mod build;
mod conservation;
pub mod describe;
pub mod parallel;
pub mod partition;
pub mod run;
pub mod world;

/// Version of the engine; part of every result's identity (the report's
/// `engine_version`, `assemble`).
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
