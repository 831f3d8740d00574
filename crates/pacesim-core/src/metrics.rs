//! What a run measures: per-link counters and time averages, per-flow
//! progress, packets received in the window and transit delays, time series of chosen state, and the
//! report assembled from them.

pub mod burstiness;
pub mod delay;
pub mod link_stats;
pub mod received;
pub mod series;
pub mod time_average;
pub mod transit;

pub use burstiness::Burstiness;
pub use delay::DelayStats;
pub use link_stats::{ClassCounts, LinkStats};
pub use received::Received;
pub use series::{QueueTracks, SeriesSpec, Track};
pub use time_average::TimeAverage;
pub use transit::Transit;
