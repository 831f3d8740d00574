//! Named random streams derived from the master seed.
//!
//! Every purpose draws from its own Xoshiro256++ generator, seeded from
//! (master seed, purpose name, index) through a fixed hash. Adding a flow or
//! a new kind of draw therefore never shifts the numbers any other component
//! sees, and a stream's sequence is pinned by the generator's algorithm (not
//! by `StdRng`, which may change between rand releases).

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

pub type Stream = Xoshiro256PlusPlus;

/// SplitMix64 finaliser: a bijective 64-bit mixer.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The stream for `purpose` (e.g. "flow.start") and `index` (e.g. the flow id).
pub fn stream(master: u64, purpose: &str, index: u64) -> Stream {
    // FNV-1a over the name, then mixed with seed and index.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in purpose.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    let seed = mix(mix(master ^ h).wrapping_add(index));
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// Uniform integer in the closed range [lo, hi].
pub fn uniform(rng: &mut Stream, range: [u64; 2]) -> u64 {
    use rand::Rng;
    if range[0] == range[1] {
        range[0]
    } else {
        rng.gen_range(range[0]..=range[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngCore;

    #[test]
    fn streams_are_reproducible_and_independent() {
        let a1 = stream(7, "flow.start", 3).next_u64();
        let a2 = stream(7, "flow.start", 3).next_u64();
        assert_eq!(a1, a2);
        assert_ne!(a1, stream(7, "flow.start", 4).next_u64());
        assert_ne!(a1, stream(8, "flow.start", 3).next_u64());
        assert_ne!(a1, stream(7, "access.rate", 3).next_u64());
    }

    #[test]
    fn uniform_stays_in_range_and_reaches_both_ends() {
        let mut r = stream(1, "t", 0);
        let draws: Vec<u64> = (0..2000).map(|_| uniform(&mut r, [3, 6])).collect();
        assert!(draws.iter().all(|&d| (3..=6).contains(&d)));
        assert!(draws.contains(&3) && draws.contains(&6));
        assert_eq!(uniform(&mut r, [9, 9]), 9);
    }
}
