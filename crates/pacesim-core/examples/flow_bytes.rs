//! What a flow costs in memory: the size of each per-flow structure, and the
//! heap a run holds, counted by a global allocator of this binary's own (the
//! library allocates as usual).
//!
//! `cargo run --release --example flow_bytes -- SCENARIO.json [THREADS]`
//! prints `std::mem::size_of` of the structures the engine keeps per flow,
//! per link and per packet or event, then runs the scenario (engine JSON, as
//! `run_json` takes) and prints the live heap after the network is built
//! (`build_network`, dropped before the run), the most live while it was
//! built (the same build the run makes, a split run once), at the run's peak, the most
//! seen while events run (sampled every 2^18 events) and after the run,
//! divided by the scenario's flows. bench/speed/README.md has the table it
//! gave.

use std::alloc::{GlobalAlloc, Layout, System};
use std::mem::size_of;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use pacesim_core::engine::world::{Flow, SenderEnd, SenderMeasured, SinkEnd, SinkMeasured};
use pacesim_core::metrics::{Received, TimeAverage};
use pacesim_core::net::link::Output;
use pacesim_core::net::{Link, Packet, TcpOptions};
use pacesim_core::sim::timer::Timer;
use pacesim_core::tcp::rtt::RttEstimator;
use pacesim_core::tcp::sender::SenderStats;
use pacesim_core::tcp::state::SendState;
use pacesim_core::tcp::{Recovery, TcpSender, TcpSink};
use pacesim_core::topology::graph::LinkSpec;
use pacesim_core::topology::FlowPath;

/// Counts the bytes live on the heap and the most ever live.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(live, Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, size) };
        if !q.is_null() {
            let live = LIVE.fetch_add(size, Relaxed) + size - layout.size();
            LIVE.fetch_sub(layout.size(), Relaxed);
            PEAK.fetch_max(live, Relaxed);
        }
        q
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

macro_rules! sizes {
    ($($t:ty),* $(,)?) => {
        $(println!("{:>6} B  {}", size_of::<$t>(), stringify!($t));)*
    };
}

fn main() {
    sizes!(
        Flow,
        SenderEnd,
        SinkEnd,
        SenderMeasured,
        SinkMeasured,
        TcpSender,
        SendState,
        Recovery,
        RttEstimator,
        Timer,
        SenderStats,
        TcpSink,
        TcpOptions,
        TimeAverage,
        Received,
        FlowPath,
        Link,
        Output,
        Packet,
        LinkSpec,
    );
    let Some(path) = std::env::args().nth(1) else { return };
    let text = std::fs::read_to_string(&path).expect("cannot read scenario");
    let scenario = pacesim_core::Scenario::from_json(&text).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let threads = std::env::args().nth(2).map_or(1, |t| t.parse().expect("THREADS is a number"));
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let (net, _) = pacesim_core::engine::build::build_network(&scenario).expect("a network");
    let flows = net.flows.len().max(1);
    let (network, build) = (LIVE.load(Relaxed) - before, PEAK.load(Relaxed) - before);
    let per_flow = |b: usize| b as f64 / flows as f64;
    let parts = [
        ("links", (net.links.capacity() * size_of::<Link>(), net.links.len())),
        ("link names", (net.names.heap_bytes(), net.names.len())),
        ("node names", (net.nodes.heap_bytes(), net.nodes.len())),
        ("route hops", (net.routes.heap_bytes().0, net.routes.hops().len())),
        ("route spans", (net.routes.heap_bytes().1, net.routes.len())),
        ("flow paths", (net.flows.capacity() * size_of::<FlowPath>(), net.flows.len())),
        ("cut-through marks", (net.cut_through.capacity(), net.cut_through.len())),
    ];
    let listed: usize = parts.iter().map(|(_, (b, _))| b).sum();
    for (name, (bytes, n)) in parts {
        println!("network: {name:18} {n:>8} of them, {:>6.0} B a flow", per_flow(bytes));
    }
    println!(
        "network: {:18} {:>8}          {:>6.0} B a flow",
        "router and the rest",
        "",
        per_flow(network - listed)
    );
    drop(net);
    PEAK.store(LIVE.load(Relaxed), Relaxed);
    // The most live while events run, sampled every 2^18 events.
    let mut running = 0;
    let mut sample = |_| running = running.max(LIVE.load(Relaxed) - before);
    let report = pacesim_core::run_threads(&scenario, threads, &mut sample).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let (peak, after) = (PEAK.load(Relaxed) - before, LIVE.load(Relaxed) - before);
    let kb = |b: usize| format!("{:.1} MB, {:.0} B a flow", b as f64 / 1e6, b as f64 / flows as f64);
    println!("flows {flows}, threads {threads}, {} events", report.work.events);
    println!("heap: network built {}", kb(network));
    println!("heap: build's peak  {}", kb(build));
    println!("heap: run's peak    {}", kb(peak));
    println!("heap: while running {}", kb(running));
    println!("heap: with report   {}", kb(after));
}
