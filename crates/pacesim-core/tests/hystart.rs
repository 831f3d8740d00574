//! CUBIC's HyStart on a long fat path (`tcp.cubic_hystart`): one flow, a
//! buffer of one bandwidth-delay product; HyStart ends the first slow start
//! before the buffer overflows, where slow start alone overshoots and loses;
//! against ns-3 3.44's `TcpCubic` on the same path (`bench/ns3/hystart.py`,
//! its output committed in `bench/ns3/results/hystart.json`).

use pacesim_core::report::SeriesTable;
use pacesim_core::{run, Scenario};

/// h1 -> a at 100 Mb/s and 1 ms, the core a -> b at 50 Mb/s and 48 ms with
/// `buffer` bytes of drop-tail queue, b -> h2 at 100 Mb/s and 1 ms: base RTT
/// 100 ms plus serialisation, one BDP 625 KB (601 packets of 1040 B). One
/// CUBIC flow from 0, the receiver's window never binding; 6 s.
fn path(hystart: bool) -> Scenario {
    let json = format!(
        r#"{{"seed": 1, "duration": 6000000000, "warmup": 1000000000,
        "topology": {{"kind": "graph", "nodes": ["a", "b"], "hosts": ["h1", "h2"],
          "links": [{{"from": "h1", "to": "a", "rate": [100000000, 100000000], "delay": [1000000, 1000000]}},
                    {{"from": "a", "to": "b", "core": true}},
                    {{"from": "b", "to": "h2", "rate": [100000000, 100000000], "delay": [1000000, 1000000]}}],
          "flows": [{{"from": "h1", "to": "h2"}}]}},
        "core": {{"rate": 50000000, "delay": 48000000, "buffer": 625000, "queue": "droptail"}},
        "tcp": {{"variant": "cubic", "cubic_hystart": {hystart}, "segment_size": 1000, "header_size": 40,
          "ack_size": 40, "window": 100000, "initial_window": 2, "syn": true, "tick": 10000000,
          "min_rto": 200000000, "max_rto": 60000000000, "initial_rto": 3000000000}},
        "traffic": {{"start": [0, 0]}},
        "series": {{"flows": [0], "links": ["core"]}}}}"#
    );
    Scenario::from_json(&json).expect("a valid scenario")
}

/// The points (seconds, value) of `entity`'s `series`.
fn track(t: &SeriesTable, entity: &str, series: &str) -> Vec<(f64, f64)> {
    let k = (0..t.entity.len()).find(|&k| t.entity[k] == entity && t.series[k] == series).expect("a track");
    (0..t.t_s.len()).filter(|&i| t.track[i] as usize == k).map(|i| (t.t_s[i], t.value[i])).collect()
}

/// Without HyStart slow start runs until the buffer overflows: the first
/// drop comes while ssthresh is still the receiver's window (at 1.13 s;
/// cwnd peaks past 2,400 packets, twice the 1,202 that one BDP in flight
/// and one in the buffer hold). With it the ACK train ends slow start: the
/// round that begins at cwnd 512 has its ACKs back at the core's pace,
/// 1040 B at 50 Mb/s = 166.4 us apart, and passes delay_min / 2 (the base
/// RTT, 100.02-100.35 ms, halved) after about 301 of them: ssthresh = cwnd
/// near 512 + 301 = 813, below the 1,202 that overflow, and CUBIC's
/// growth from there (K = 0) drops nothing in the 6 s.
#[test]
fn hystart_ends_the_first_slow_start_before_the_buffer_overflows() {
    let first_cut = |t: &SeriesTable| track(t, "flow.0", "ssthresh").get(1).copied();
    let r = run(&path(false)).unwrap();
    let t = r.series.as_ref().unwrap();
    let (drop_at, _) = track(t, "core", "drops")[0];
    let (cut_at, _) = first_cut(t).expect("a cut");
    assert!(drop_at < cut_at, "the first drop ({drop_at} s) comes in slow start (first cut {cut_at} s)");
    let peak = track(t, "flow.0", "cwnd").iter().map(|p| p.1).fold(0.0, f64::max);
    assert!(peak > 1202.0, "slow start overshoots: cwnd {peak}");

    let r = run(&path(true)).unwrap();
    let t = r.series.as_ref().unwrap();
    let (exit_at, exit_cwnd) = first_cut(t).expect("HyStart's exit");
    assert!((805.0..=820.0).contains(&exit_cwnd), "exit at cwnd {exit_cwnd}, {exit_at} s");
    assert!(track(t, "core", "drops").is_empty(), "no drop in 6 s");
    assert_eq!((r.flows.retransmits[0], r.flows.timeouts[0]), (0, 0));
}

/// ns-3's run of the same path (`bench/ns3/results/hystart.json`): `hystart` false or true.
fn ns3(hystart: bool) -> serde_json::Value {
    let all: serde_json::Value =
        serde_json::from_str(include_str!("../../../bench/ns3/results/hystart.json")).unwrap();
    all["runs"].as_array().unwrap().iter().find(|r| r["hystart"] == hystart).unwrap().clone()
}

/// Without HyStart the path is the same in both: ns-3's first drop (1.13443
/// s), its first cut (1.3343 s, ssthresh 1684) and its peak cwnd (2406)
/// are pacesim's within 0.01 ms, 1 ms and 1 %. With it ns-3 3.44 waits a
/// train of delay_min, not Linux's delay_min / 2 (`tcp-cubic.cc`,
/// `HystartUpdate`: `now - m_roundStart > m_delayMin`): its train runs
/// twice as many ACKs past the start of its round, 1625 - 1024 = 601
/// against pacesim's 813 - 512 = 301 (within one ACK), so it exits a round
/// later, after the buffer overflowed (1.2037 s, against the first drop at
/// 1.1344 s), and loses.
#[test]
fn the_path_agrees_with_ns3_and_ns3s_ack_train_waits_twice_as_long() {
    let first_cut = |t: &SeriesTable| track(t, "flow.0", "ssthresh")[1];
    let off = ns3(false);
    let r = run(&path(false)).unwrap();
    let t = r.series.as_ref().unwrap();
    let (drop_at, cut, peak) = (
        track(t, "core", "drops")[0].0,
        first_cut(t),
        track(t, "flow.0", "cwnd").iter().map(|p| p.1).fold(0.0, f64::max),
    );
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    assert!((drop_at - f(&off["first_drop_s"])).abs() < 1e-5, "first drop {drop_at} s");
    assert!((cut.0 - f(&off["first_ssthresh"][0])).abs() < 1e-3, "first cut {cut:?}");
    assert!((cut.1 / f(&off["first_ssthresh"][1]) - 1.0).abs() < 0.01, "first cut {cut:?}");
    assert!((peak / f(&off["peak_cwnd"]) - 1.0).abs() < 0.01, "peak cwnd {peak}");

    let on = ns3(true);
    let ours = first_cut(run(&path(true)).unwrap().series.as_ref().unwrap()).1;
    let theirs = f(&on["first_ssthresh"][1]);
    assert!(
        ((theirs - 1024.0) - 2.0 * (ours - 512.0)).abs() <= 2.0,
        "train {ours} - 512 against {theirs} - 1024"
    );
    assert!(f(&on["first_ssthresh"][0]) > f(&on["first_drop_s"]) && f(&on["drops"]) > 0.0);
}
