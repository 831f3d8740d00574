//! Run a scenario given as engine JSON and print the report as JSON:
//! `cargo run --release --example run_json -- scenario.json [THREADS]`.
//! Used by the benchmarks to time the engine without Python in the way.

fn main() {
    let path = std::env::args().nth(1).expect("usage: run_json SCENARIO.json");
    let text = std::fs::read_to_string(&path).expect("cannot read scenario");
    let scenario = pacesim_core::Scenario::from_json(&text).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let threads = std::env::args().nth(2).map_or(1, |t| t.parse().expect("THREADS is a number"));
    let t0 = std::time::Instant::now();
    let report = pacesim_core::run_threads(&scenario, threads, &mut |_| {}).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let wall = t0.elapsed().as_secs_f64();
    eprintln!(
        "wall {wall:.3} s, {} events ({:.1} M/s), {} packet-hops ({:.1} M/s)",
        report.work.events,
        report.work.events as f64 / wall / 1e6,
        report.work.packet_hops,
        report.work.packet_hops as f64 / wall / 1e6
    );
    println!("{}", serde_json::to_string(&report).unwrap());
}
