//! A run's exact event sequence, recorded and replayed into event queues.
//!
//! `cargo run --release --features trace --example event_trace -- record SCENARIO.json TRACE`
//! runs an engine scenario and writes every push (time and kind of event)
//! and pop of its event queue to TRACE (little-endian u64s, see
//! `sim::event::trace`); `stats TRACE` counts events by kind with the
//! distribution of their horizon (event time - now when scheduled);
//! `replay TRACE [REPEATS]` times the queues of `candidates` on that sequence
//! (each checked to pop the same events in the same order as the engine's).

use pacesim_core::sim::event::trace::{POP, TAG_SHIFT};
use pacesim_core::sim::{EventQueue, Time};

mod candidates;
use candidates::{Quad, Queue, Radix};

const KINDS: [&str; 10] =
    ["arrive", "rto", "pace", "host-pace", "del-ack", "start", "udp", "warmup", "sample", "end"];

fn read(path: &str) -> Vec<u64> {
    let bytes = std::fs::read(path).expect("cannot read trace");
    bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect()
}

fn split(op: u64) -> (usize, Time) {
    ((op >> TAG_SHIFT) as usize - 1, op & ((1 << TAG_SHIFT) - 1))
}

fn record(scenario: &str, out: &str) {
    let text = std::fs::read_to_string(scenario).expect("cannot read scenario");
    let s = pacesim_core::Scenario::from_json(&text).expect("bad scenario");
    let report = pacesim_core::run(&s).expect("run failed");
    let ops = pacesim_core::sim::event::trace::take();
    let bytes: Vec<u8> = ops.iter().flat_map(|o| o.to_le_bytes()).collect();
    std::fs::write(out, bytes).expect("cannot write trace");
    eprintln!("{} events, {} operations written to {out}", report.work.events, ops.len());
}

fn stats(ops: &[u64]) {
    // Replay through the engine's queue to know `now` at each push.
    let mut q = EventQueue::default();
    let mut now = 0;
    let mut count = [0u64; KINDS.len()];
    let mut horizon = [[0u64; 64]; KINDS.len()];
    let (mut pending_sum, mut pending_max, mut pops) = (0u64, 0usize, 0u64);
    for &op in ops {
        if op == POP {
            let (t, _) = q.pop().expect("pop from an empty queue");
            now = t;
            pending_sum += q.len() as u64;
            pending_max = pending_max.max(q.len());
            pops += 1;
        } else {
            let (kind, t) = split(op);
            count[kind] += 1;
            let d = t - now;
            horizon[kind][if d == 0 { 0 } else { 64 - d.leading_zeros() as usize }] += 1;
            q.push(t, ());
        }
    }
    println!("{pops} pops; pending: mean {:.0}, max {pending_max}", pending_sum as f64 / pops as f64);
    let total: u64 = count.iter().sum();
    println!("pushes by kind, and the horizon (event time - now): share of the kind's events per range");
    for (k, name) in KINDS.iter().enumerate() {
        if count[k] == 0 {
            continue;
        }
        println!("{name:>10}: {:>11} ({:5.1} %)", count[k], 100.0 * count[k] as f64 / total as f64);
        let line: Vec<String> = (0..64)
            .filter(|&b| horizon[k][b] * 1000 >= count[k])
            .map(|b| {
                let lo = if b == 0 { 0 } else { 1u64 << (b - 1) };
                format!(
                    "[{}, {}) {:.1}%",
                    fmt_ns(lo),
                    fmt_ns(1 << b),
                    100.0 * horizon[k][b] as f64 / count[k] as f64
                )
            })
            .collect();
        println!("            {}", line.join("; "));
    }
}

fn fmt_ns(t: u64) -> String {
    match t {
        0..1_000 => format!("{t}ns"),
        1_000..1_000_000 => format!("{:.3}us", t as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.3}ms", t as f64 / 1e6),
        _ => format!("{:.3}s", t as f64 / 1e9),
    }
}

/// Replay `ops` into `q`; returns the wall time and an order-sensitive hash
/// of the popped events (each event is its push number).
fn replay<Q: Queue>(ops: &[u64], mut q: Q) -> (f64, u64) {
    let t0 = std::time::Instant::now();
    let (mut hash, mut pushed) = (0u64, 0u64);
    for &op in ops {
        if op == POP {
            let (t, e) = q.pop().expect("pop from an empty queue");
            hash = hash.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(u64::from(e) ^ t);
        } else {
            q.push(op & ((1 << TAG_SHIFT) - 1), pushed as u32);
            pushed += 1;
        }
    }
    (t0.elapsed().as_secs_f64(), std::hint::black_box(hash))
}

impl Queue for EventQueue<u32> {
    fn push(&mut self, at: Time, e: u32) {
        EventQueue::push(self, at, e)
    }
    fn pop(&mut self) -> Option<(Time, u32)> {
        EventQueue::pop(self)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["record", scenario, out] => record(scenario, out),
        ["stats", trace] => stats(&read(trace)),
        ["replay", trace, ..] => {
            let ops = read(trace);
            let repeats = args.get(2).map_or(3, |r| r.parse().expect("repeats"));
            let pops = ops.iter().filter(|&&o| o == POP).count();
            type Run = fn(&[u64]) -> (f64, u64);
            let queues: [(&str, Run); 3] = [
                ("calendar (engine)", |ops| replay(ops, EventQueue::default())),
                ("radix heap", |ops| replay(ops, Radix::default())),
                ("4-ary heap", |ops| replay(ops, Quad::default())),
            ];
            let t0 = std::time::Instant::now();
            let sum = ops.iter().fold(0u64, |a, &o| a.wrapping_mul(31).wrapping_add(o));
            println!(
                "reading the trace alone: {:.3} s ({})",
                t0.elapsed().as_secs_f64(),
                std::hint::black_box(sum) & 1
            );
            let mut reference = None;
            for (name, run) in queues {
                let mut times = vec![];
                for _ in 0..repeats {
                    let (wall, hash) = run(&ops);
                    assert_eq!(*reference.get_or_insert(hash), hash, "{name} pops in another order");
                    times.push(wall);
                }
                times.sort_by(f64::total_cmp);
                let median = times[times.len() / 2];
                println!(
                    "{name:>20}: median {median:.3} s of {repeats} ({:.1} ns per push+pop; min {:.3}, max {:.3})",
                    median / pops as f64 * 1e9,
                    times[0],
                    times[times.len() - 1]
                );
            }
        }
        _ => {
            eprintln!("usage: event_trace record SCENARIO.json TRACE | stats TRACE | replay TRACE [REPEATS]");
            std::process::exit(2)
        }
    }
}
