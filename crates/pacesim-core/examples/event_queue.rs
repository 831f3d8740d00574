//! The practical ceiling: the event queue alone, on the event count and
//! horizon of a simulation. Keeps `pending` events in flight and pops and
//! re-pushes `events` times, each new event due a random delay ahead, drawn
//! from a mix like E-base's (propagation of 1-100 ms plus serialisation).
//! `cargo run --release --example event_queue -- 22000000 8000`

use pacesim_core::sim::rng::{stream, uniform};
use pacesim_core::sim::EventQueue;

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u64>().expect("integer argument"));
    let events = args.next().unwrap_or(22_000_000);
    let pending = args.next().unwrap_or(8_000);
    let mut rng = stream(1, "bench.queue", 0);
    let mut q = EventQueue::default();
    for i in 0..pending {
        q.push(uniform(&mut rng, [0, 100_000_000]), i as u32);
    }
    let t0 = std::time::Instant::now();
    let mut sum = 0u64;
    for _ in 0..events {
        let (now, e) = q.pop().expect("queue never empties");
        sum = sum.wrapping_add(u64::from(e));
        q.push(now + uniform(&mut rng, [1_000_000, 100_000_000]), e);
    }
    let wall = t0.elapsed().as_secs_f64();
    println!(
        "{events} pop+push pairs with {pending} pending: {wall:.3} s, {:.1} M events/s (checksum {sum})",
        events as f64 / wall / 1e6
    );
}
