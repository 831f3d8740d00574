//! A hint that a value will soon be read: the processor starts bringing
//! its cache line in and goes on. The engine knows its next events before
//! it handles them (the event queue's current run, [`EventQueue::ahead`]),
//! and at a hundred thousand flows and more the packets, route hops, links
//! and flows they touch are megabytes away from the caches: without the
//! hint each is a miss the processor waits for in turn. A hint changes
//! nothing the program computes.
//!
//! [`EventQueue::ahead`]: super::EventQueue::ahead

/// Start loading the cache line that holds the start of `value`.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and never faults,
    // and `value` is a live reference.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
