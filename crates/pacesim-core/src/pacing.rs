//! Pacers: components that hold packets back to smooth traffic before it
//! meets a small buffer. [`edge`] is the optimal delay-bounded pacer of
//! paper E Sec 2.1 (Sivaraman et al. 2009), placed in front of a link;
//! [`host`] is TCP pacing at the sender (paper W).

pub mod edge;
pub mod host;

pub use edge::EdgePacer;
pub use host::HostPacer;
