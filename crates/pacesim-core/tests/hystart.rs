//! CUBIC's HyStart on a long fat path (`tcp.cubic_hystart`): one flow, a
//! buffer of one bandwidth-delay product; HyStart ends the first slow start
//! before the buffer overflows, where slow start alone overshoots and loses;
//! against ns-3 3.44's `TcpCubic` on the same path (`bench/ns3/hystart.py`,
//! its output committed in `bench/ns3/results/hystart.json`).

use pacesim_core::report::SeriesTable;
use pacesim_core::{run, Scenario};

/// h1 -> a at 100 Mb/s and 1 ms, the core a -> b at 50 Mb/s and 48 ms with
/// 625,000 B of drop-tail queue, b -> h2 at 100 Mb/s and 1 ms: base RTT 100
/// ms plus serialisation, one BDP 625 KB (601 packets of 1040 B). One CUBIC
/// flow from 0 with initial window 2 and a SYN, the receiver's window never
/// binding; 6 s.
fn path(hystart: bool) -> Scenario {
    path_with(hystart, 2, true, "")
}

/// [`path`] with initial window `iw`, a SYN or not, and `pacing` (a JSON
/// member, `, "pacing": {...}`, or nothing).
fn path_with(hystart: bool, iw: u64, syn: bool, pacing: &str) -> Scenario {
    scenario([100_000_000, 50_000_000], [1_000_000, 48_000_000], (hystart, iw, syn), 6_000_000_000, pacing)
}

/// h1 -> a -> b -> h2 with the access links (h1 -> a, b -> h2) at `rate[0]`
/// b/s and `delay[0]` ns, the core at `rate[1]` and `delay[1]` with 625,000
/// B of drop-tail queue; one CUBIC flow from 0, HyStart on or not, with
/// initial window `iw` and a SYN or not (`tcp`), for `duration` ns, paced as
/// `pacing` says (see [`path_with`]).
fn scenario(
    rate: [u64; 2],
    delay: [u64; 2],
    tcp: (bool, u64, bool),
    duration: u64,
    pacing: &str,
) -> Scenario {
    let (hystart, iw, syn) = tcp;
    let ([access, core], [adelay, cdelay]) = (rate, delay);
    let json = format!(
        r#"{{"seed": 1, "duration": {duration}, "warmup": 1000000000,
        "topology": {{"kind": "graph", "nodes": ["a", "b"], "hosts": ["h1", "h2"],
          "links": [{{"from": "h1", "to": "a", "rate": [{access}, {access}], "delay": [{adelay}, {adelay}]}},
                    {{"from": "a", "to": "b", "core": true}},
                    {{"from": "b", "to": "h2", "rate": [{access}, {access}], "delay": [{adelay}, {adelay}]}}],
          "flows": [{{"from": "h1", "to": "h2"}}]}},
        "core": {{"rate": {core}, "delay": {cdelay}, "buffer": 625000, "queue": "droptail"}},
        "tcp": {{"variant": "cubic", "cubic_hystart": {hystart}, "segment_size": 1000, "header_size": 40,
          "ack_size": 40, "window": 100000, "initial_window": {iw}, "syn": {syn}, "tick": 10000000,
          "min_rto": 200000000, "max_rto": 60000000000, "initial_rto": 3000000000}},
        "traffic": {{"start": [0, 0]}},
        "series": {{"flows": [0], "links": ["core"]}}{pacing}}}"#
    );
    Scenario::from_json(&json).expect("a valid scenario")
}

/// The points (seconds, value) of `entity`'s `series`.
fn track(t: &SeriesTable, entity: &str, series: &str) -> Vec<(f64, f64)> {
    let k = (0..t.entity.len()).find(|&k| t.entity[k] == entity && t.series[k] == series).expect("a track");
    (0..t.t_s.len()).filter(|&i| t.track[i] as usize == k).map(|i| (t.t_s[i], t.value[i])).collect()
}

/// The first cut of ssthresh (s, cwnd) of a run's flow.
fn first_cut(t: &SeriesTable) -> Option<(f64, f64)> {
    track(t, "flow.0", "ssthresh").get(1).copied()
}

/// An unpaced flow's ACK train ends once it passes (delay_min + 1 ms) / 2
/// past its round's start: delay_min is a data packet's RTT (the SYN's is
/// no sample, with a SYN or without), 100 ms of propagation, 1040 B at 100,
/// 50 and 100 Mb/s (332.8 us) and the 40 B ACK back (12.8 us), so 100.3456
/// ms, and Linux's cushion is 1 ms here (the pacing rate stays far below 2.1
/// Gb/s): 50.6728 ms, which ACKs back at the core's pace (1040 B at 50
/// Mb/s, 166.4 us apart) pass at the 305th after the round's first (304.5).
/// The exit is at the round's first window + 305.
const TRAIN: f64 = 305.0;

/// Without HyStart slow start runs until the buffer overflows: the first
/// drop comes while ssthresh is still the receiver's window (at 1.13 s;
/// cwnd peaks past 2,400 packets, twice the 1,202 that one BDP in flight
/// and one in the buffer hold). With it the ACK train ends slow start in
/// the round that begins at cwnd 512 (its ACKs at the core's pace): ssthresh
/// = cwnd = 512 + 305 = 817 (initial window 2, a SYN; 817 without one too),
/// below the 1,202 that overflow, and CUBIC's growth from there (K = 0)
/// drops nothing in the 6 s.
#[test]
fn hystart_ends_the_first_slow_start_before_the_buffer_overflows() {
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
    assert_eq!(exit_cwnd, 512.0 + TRAIN, "exit at {exit_at} s");
    assert!(track(t, "core", "drops").is_empty(), "no drop in 6 s");
    assert_eq!((r.flows.retransmits[0], r.flows.timeouts[0]), (0, 0));
}

/// Linux's CUBIC starts once the handshake is over (`cubictcp_init` from
/// `tcp_finish_connect`, after the SYN-ACK's RTT sample went to no one), so
/// delay_min comes from data ACKs only, with a SYN or without. A slow path
/// shows it: every link at 2 Mb/s, 1 + 8 + 1 ms each way, initial window
/// 16, a SYN. A 1040 B packet takes 4.16 ms a link, a 40 B one 0.16 ms: the
/// SYN's RTT is 20 + 6 x 0.16 = 20.96 ms, a data packet's on the empty path
/// 20 + 3 x 4.16 + 3 x 0.16 = 32.96 ms. ACKs come back 4.16 ms apart (no
/// ACK train: more than 2 ms), so the delay detector decides. From data
/// ACKs, delay_min is the first data packet's 32.96 ms and the threshold
/// 32.96 + 32.96 / 8 = 37.08 ms; the first round (the window of 16, which
/// h1's link sends 4.16 ms apart, so RTTs rise 4.16 ms a packet) keeps its
/// first sample, 32.96 ms, as its least and never exits; the second begins
/// at the ACK of the 17th packet (cwnd 32), whose packets left behind the
/// first window's queue (RTTs from 66.56 ms), and exits at its ninth sample:
/// cwnd 32 + 8 = 40. Taking the SYN's RTT as delay_min (threshold 20.96 + 4
/// ms) every data RTT is past it and the first round exits at its ninth
/// sample, cwnd 16 + 8 = 24. Without a SYN the exit is 40 too.
#[test]
fn hystart_takes_no_sample_from_the_syn() {
    for syn in [true, false] {
        let s = scenario([2_000_000, 2_000_000], [1_000_000, 8_000_000], (true, 16, syn), 2_000_000_000, "");
        let r = run(&s).unwrap();
        let (exit_at, exit_cwnd) = first_cut(r.series.as_ref().unwrap()).expect("HyStart's exit");
        assert_eq!(exit_cwnd, 40.0, "syn {syn}: exit at {exit_at} s");
    }
}

/// Rounds start at every window (Linux 6.14), so each begins with a flight
/// of the slow start: with initial window `iw` the flights are iw x 2^k, and
/// the train ends in the first flight longer than 305 ACKs, at its size +
/// 305, with a SYN or without: initial window 10 (Linux's): flights of 10
/// ... 320 -> 625; 3: 384 -> 689; 20: 320 -> 625; 24: 384 -> 689. Nothing
/// drops. Had rounds waited for cwnd 16 (Linux 5.16-6.13) the first would
/// begin mid-flight for an initial window below 16: 10 then exits at 520, 3
/// at 1032, with a SYN or without (measured with the round test moved back
/// behind the low window); 20 and 24 start their first round at the first
/// ACK either way.
#[test]
fn hystart_rounds_follow_the_flights_whatever_the_initial_window() {
    for syn in [true, false] {
        for (iw, flight) in [(10, 320.0), (3, 384.0), (20, 320.0), (24, 384.0)] {
            let r = run(&path_with(true, iw, syn, "")).unwrap();
            let t = r.series.as_ref().unwrap();
            let (exit_at, exit_cwnd) = first_cut(t).expect("HyStart's exit");
            assert_eq!(exit_cwnd, flight + TRAIN, "iw {iw}, syn {syn}: exit at {exit_at} s");
            assert!(track(t, "core", "drops").is_empty(), "iw {iw}, syn {syn}: no drop in 6 s");
        }
    }
}

/// A flow its host paces at Linux's rate (`host_mode = "rate"`: 2 x cwnd /
/// srtt in slow start) is paced to Linux and takes its paced threshold,
/// delay_min + 1 ms (101.3456 ms), not half of it. From the round of 512
/// the pacer sends faster than the core drains (2 x 512 packets a 100 ms
/// against 601), so a round's ACKs come back at the core's pace, 166.4 us
/// apart, and a round from cwnd c lasts c of them: the round from 512
/// (85.2 ms) never passes the threshold, the round from 1024 does at its
/// 610th ACK (609.05): exit at 1024 + 610 = 1634, with a SYN or without,
/// after the window outgrew the 1,202 packets the path holds and the first
/// drop (1.134 s with a SYN).
#[test]
fn hystart_linux_paced_flow_waits_a_whole_delay_min() {
    for syn in [true, false] {
        let r =
            run(&path_with(true, 2, syn, r#", "pacing": {"scheme": "host", "host_mode": "rate"}"#)).unwrap();
        let t = r.series.as_ref().unwrap();
        let (exit_at, exit_cwnd) = first_cut(t).expect("HyStart's exit");
        assert_eq!(exit_cwnd, 1024.0 + 610.0, "syn {syn}: exit at {exit_at} s");
        let (drop_at, _) = track(t, "core", "drops")[0];
        assert!(drop_at < exit_at, "syn {syn}: the first drop ({drop_at} s) before the exit ({exit_at} s)");
    }
}

/// Host pacing by any other rule (`host_mode` "original", RTT / cwnd, or
/// "modified", paper W eq. 7, by paper W's pacer or Wei's) is not Linux's,
/// which alone marks a flow paced (`sk_pacing_status`), so HyStart takes
/// the unpaced threshold, (delay_min + 1 ms) / 2 = 50.67 ms. These pacers
/// spread a round's packets over about the RTT, so its ACKs come back about
/// RTT / cwnd apart: within 2 ms of each other (the train's gap) once the
/// window passes 50, and the round then passes half the RTT halfway
/// through. With initial window 2 the rounds are the flights 64 -> 128 and
/// 128 -> 256, so the exit lies in [64, 256], far below the 601 packets of
/// one BDP: nothing drops. Judged paced (delay_min + 1 ms), a train of a
/// round that lasts about the RTT passes only once the queue adds a ms:
/// these flows then exited past what the path holds, after 208-456 drops,
/// at 1413 ("original"; 1411 without a SYN), 1441 (Wei's "original"; 1509)
/// and 1634 ("modified", both pacers, with a SYN or without: in slow start
/// eq. 7 paces the next RTT's window, 2 cwnd, as Linux's rate does).
#[test]
fn hystart_flow_paced_by_another_rule_is_unpaced_to_linux() {
    for pacing in [
        r#"{"scheme": "host"}"#,
        r#"{"scheme": "host", "host_mode": "modified"}"#,
        r#"{"scheme": "host", "host_pacer": "wei"}"#,
        r#"{"scheme": "host", "host_mode": "modified", "host_pacer": "wei"}"#,
    ] {
        for syn in [true, false] {
            let r = run(&path_with(true, 2, syn, &format!(r#", "pacing": {pacing}"#))).unwrap();
            let t = r.series.as_ref().unwrap();
            let (exit_at, exit_cwnd) = first_cut(t).expect("HyStart's exit");
            assert!(
                (64.0..=256.0).contains(&exit_cwnd),
                "{pacing}, syn {syn}: exit at cwnd {exit_cwnd}, {exit_at} s"
            );
            assert!(track(t, "core", "drops").is_empty(), "{pacing}, syn {syn}: no drop in 6 s");
        }
    }
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
/// train of delay_min, with no cushion, where Linux waits (delay_min + 1
/// ms) / 2 for an unpaced flow (`tcp-cubic.cc`, `HystartUpdate`: `now -
/// m_roundStart > m_delayMin`): 601 ACKs past the start of its round
/// (1625 less 1024), which is delay_min / 166.4 us within two (601.1 ACKs
/// from the SYN's RTT, 100.0256 ms; 603.0 from a data packet's, 100.3456
/// ms: which of them ns-3 takes was not checked), about twice pacesim's 305
/// (817 less 512), so it exits a round later, after the buffer overflowed
/// (1.2037 s, against the first drop at 1.1344 s), and loses.
#[test]
fn the_path_agrees_with_ns3_and_ns3s_ack_train_waits_twice_as_long() {
    let off = ns3(false);
    let r = run(&path(false)).unwrap();
    let t = r.series.as_ref().unwrap();
    let (drop_at, cut, peak) = (
        track(t, "core", "drops")[0].0,
        first_cut(t).expect("a cut"),
        track(t, "flow.0", "cwnd").iter().map(|p| p.1).fold(0.0, f64::max),
    );
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    assert!((drop_at - f(&off["first_drop_s"])).abs() < 1e-5, "first drop {drop_at} s");
    assert!((cut.0 - f(&off["first_ssthresh"][0])).abs() < 1e-3, "first cut {cut:?}");
    assert!((cut.1 / f(&off["first_ssthresh"][1]) - 1.0).abs() < 0.01, "first cut {cut:?}");
    assert!((peak / f(&off["peak_cwnd"]) - 1.0).abs() < 0.01, "peak cwnd {peak}");

    let on = ns3(true);
    let ours = first_cut(run(&path(true)).unwrap().series.as_ref().unwrap()).expect("HyStart's exit").1;
    let theirs = f(&on["first_ssthresh"][1]);
    assert!(((theirs - 1024.0) - 601.0).abs() <= 1.0, "ns-3's train {theirs} - 1024");
    assert_eq!(ours, 512.0 + TRAIN);
    assert!(f(&on["first_ssthresh"][0]) > f(&on["first_drop_s"]) && f(&on["drops"]) > 0.0);
}
