//! Time series (`[series]`): a flow's window against slow start worked by
//! hand, a link's queue and drops against the link's own counters, and the
//! same points on one thread and two.

use pacesim_core::report::SeriesTable;
use pacesim_core::{run_threads, Report, RunError, Scenario};

/// h1 -> a at 100 Mb/s and 1 ms, the core a -> b at 10 Mb/s and 20 ms with
/// 1 MB of drop-tail queue (nothing is dropped), b -> h2 at 100 Mb/s and
/// 1 ms; one Reno flow h1 -> h2 starting at 0.
const LINE: &str = r#"{"seed": 1, "duration": 1000000000, "warmup": 500000000,
 "topology": {"kind": "graph", "nodes": ["a", "b"], "hosts": ["h1", "h2"],
   "links": [{"from": "h1", "to": "a", "rate": [100000000, 100000000], "delay": [1000000, 1000000]},
             {"from": "a", "to": "b", "core": true},
             {"from": "b", "to": "h2", "rate": [100000000, 100000000], "delay": [1000000, 1000000]}],
   "flows": [{"from": "h1", "to": "h2"}]},
 "core": {"rate": 10000000, "delay": 20000000, "buffer": 1000000, "queue": "droptail"},
 "tcp": {"variant": "reno", "segment_size": 1000, "header_size": 40, "ack_size": 40, "window": 1000,
   "initial_window": 2, "syn": true, "tick": 10000000, "min_rto": 200000000,
   "max_rto": 60000000000, "initial_rto": 3000000000},
 "traffic": {"start": [0, 0]},
 "series": {"flows": [0], "links": ["core"]}}"#;

/// Paper E's E-base at a tenth of a tenth: 2 edges of 6 hosts, a 10 Mb/s
/// core with a 5 KB buffer, 30 s measured over [10, 30] s.
const EBASE: &str = r#"{"seed":3,"duration":30000000000,"warmup":10000000000,
 "topology":{"kind":"e-base","edges":2,"hosts_per_edge":6,"access_rate":[8000000,12000000],"access_delay":[1000000,5000000],"edge_rate":[100000000,100000000],"edge_delay":[5000000,15000000]},
 "core":{"rate":10000000,"delay":100000000,"buffer":5000,"queue":"droptail"},
 "tcp":{"variant":"reno","segment_size":1000,"header_size":40,"ack_size":40,"window":1000,"initial_window":2,"syn":true,"tick":10000000,"min_rto":200000000,"max_rto":60000000000,"initial_rto":3000000000},
 "traffic":{"start":[0,10000000000]}}"#;

/// `text` with `edit` applied to its JSON.
fn scenario(text: &str, edit: impl FnOnce(&mut serde_json::Value)) -> Scenario {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    edit(&mut v);
    Scenario::from_json(&v.to_string()).unwrap()
}

fn on(threads: usize, s: &Scenario) -> Report {
    run_threads(s, threads, &mut |_| {}).unwrap()
}

/// The points (seconds, value) of `entity`'s `series`.
fn track(t: &SeriesTable, entity: &str, series: &str) -> Vec<(f64, f64)> {
    let k = (0..t.entity.len()).find(|&k| t.entity[k] == entity && t.series[k] == series).expect("a track");
    (0..t.t_s.len()).filter(|&i| t.track[i] as usize == k).map(|i| (t.t_s[i], t.value[i])).collect()
}

#[test]
fn a_lone_reno_flow_doubles_its_window_every_round_trip_in_slow_start() {
    let r = on(1, &scenario(LINE, |_| {}));
    let table = r.series.as_ref().expect("series asked for");
    let cwnd = track(table, "flow.0", "cwnd");
    // By hand: the 40 B SYN takes 3.2 + 1000 + 32 + 20000 + 3.2 + 1000 us
    // = 22.0384 ms each way, its 40 B ACK as long back: cwnd 1 -> 2 (ns-2
    // windowInit_) at 44.0768 ms. Packets 1 and 2 (1040 B) then leave; 1
    // reaches h2 after 83.2 + 1000 + 832 + 20000 + 83.2 + 1000 us =
    // 22.9984 ms, 2 one core serialisation (832 us) later; each ACK takes
    // 22.0384 ms back, so each adds 1 (slow start) at 89.1136 and 89.9456 ms.
    let close = |got: (f64, f64), want: (f64, f64)| (got.0 - want.0).abs() < 1e-12 && got.1 == want.1;
    let want = [(0.0, 1.0), (0.0440768, 2.0), (0.0891136, 3.0), (0.0899456, 4.0)];
    for (got, want) in cwnd.iter().zip(want) {
        assert!(close(*got, want), "{got:?} != {want:?}");
    }
    // Every ACK adds one packet: the values run 1, 2, 3, ... and the ACKs
    // of one round trip (a burst of 2^k at most 32 x 832 us long, well
    // under the ~45 ms RTT) are 2^k, doubling the window: rounds of 1, 2,
    // 4, 8, 16, 32 changes ending at 2, 4, 8, 16, 32, 64.
    let upto64: Vec<_> = cwnd.iter().copied().take_while(|&(_, v)| v <= 64.0).collect();
    assert_eq!(upto64.iter().map(|p| p.1).collect::<Vec<_>>(), (1..=64).map(f64::from).collect::<Vec<_>>());
    let mut rounds: Vec<Vec<f64>> = Vec::new();
    for i in 1..upto64.len() {
        let (t, v) = upto64[i];
        if i == 1 || t - upto64[i - 1].0 > 0.010 {
            rounds.push(Vec::new());
        }
        rounds.last_mut().unwrap().push(v);
    }
    let sizes: Vec<usize> = rounds.iter().map(Vec::len).collect();
    assert_eq!(sizes, vec![1, 2, 4, 8, 16, 32]);
    let ends: Vec<f64> = rounds.iter().map(|r| *r.last().unwrap()).collect();
    assert_eq!(ends, vec![2.0, 4.0, 8.0, 16.0, 32.0, 64.0]);
    // ssthresh stays at the advertised window; the RTO starts at 3 s.
    assert_eq!(track(table, "flow.0", "ssthresh"), vec![(0.0, 1000.0)]);
    assert_eq!(track(table, "flow.0", "rto_ms")[0], (0.0, 3000.0));
    assert!(track(table, "core", "drops").is_empty(), "1 MB of buffer drops nothing");
}

/// The integral over [a, b) of the step function through `points`.
fn integral(points: &[(f64, f64)], a: f64, b: f64) -> f64 {
    let mut sum = 0.0;
    for (i, &(t, v)) in points.iter().enumerate() {
        let next = points.get(i + 1).map_or(b, |p| p.0);
        let (from, to) = (t.max(a), next.min(b));
        if to > from {
            sum += v * (to - from);
        }
    }
    sum
}

#[test]
fn the_queue_series_integrates_to_the_links_time_averages_and_its_drops_sum_to_the_drop_count() {
    let every = on(1, &scenario(EBASE, |v| v["series"] = serde_json::json!({"links": ["core"]})));
    let core = &every.links["core"];
    assert!(core.drops > 100, "a 5 KB core drops");
    let table = every.series.as_ref().unwrap();
    let (a, b) = (every.window_s[0], every.window_s[1]);
    let window = b - a;
    let bytes = track(table, "core", "queue_bytes");
    let packets = track(table, "core", "queue_packets");
    let rel = |x: f64, y: f64| (x - y).abs() <= 1e-9 * y.abs().max(1.0);
    assert!(rel(integral(&bytes, a, b) / window, core.mean_queue_bytes), "{}", core.mean_queue_bytes);
    assert!(rel(integral(&packets, a, b) / window, core.mean_queue_packets));
    let empty: Vec<(f64, f64)> = packets.iter().map(|&(t, v)| (t, f64::from(u8::from(v == 0.0)))).collect();
    assert!(rel(integral(&empty, a, b) / window, core.empty_prob));
    let drops = track(table, "core", "drops");
    let in_window: f64 = drops.iter().filter(|&&(t, _)| t >= a && t < b).map(|p| p.1).sum();
    assert_eq!(in_window, core.drops as f64);
    // Arrivals, one per packet offered (dropped or not), sum to the link's
    // own count over the window, which is its data, ACKs and UDP.
    let arrivals = track(table, "core", "arrivals");
    let in_window: f64 = arrivals.iter().filter(|&&(t, _)| t >= a && t < b).map(|p| p.1).sum();
    assert_eq!(in_window, core.arrivals as f64);
    assert_eq!(core.arrivals, core.data.arrivals + core.ack.arrivals + core.udp.arrivals);

    // Sampled every 100 ms: each sample of the queue is the step
    // function's value at its time, and the drops of the samples in
    // (warmup, end], each counting the 100 ms before it, sum to the count.
    let sampled = on(
        1,
        &scenario(EBASE, |v| v["series"] = serde_json::json!({"links": ["core"], "interval": 100_000_000})),
    );
    assert_eq!(sampled.links, every.links, "recording changes nothing");
    let table = sampled.series.as_ref().unwrap();
    let samples = track(table, "core", "queue_bytes");
    assert_eq!(samples.len(), 301, "0, 0.1, ..., 30 s");
    for &(t, v) in &samples {
        let held = bytes.iter().take_while(|p| p.0 <= t + 1e-12).last().unwrap().1;
        assert_eq!(v, held, "at {t} s");
    }
    let drops = track(table, "core", "drops");
    let in_window: f64 = drops.iter().filter(|&&(t, _)| t > a + 1e-9).map(|p| p.1).sum();
    assert_eq!(in_window, core.drops as f64);
    let arrivals = track(table, "core", "arrivals");
    let in_window: f64 = arrivals.iter().filter(|&&(t, _)| t > a + 1e-9).map(|p| p.1).sum();
    assert_eq!(in_window, core.arrivals as f64);
}

#[test]
fn series_are_the_same_on_one_thread_and_two_and_change_nothing_else() {
    for interval in [None, Some(10_000_000u64)] {
        let s = scenario(EBASE, |v| {
            v["pacing"] = serde_json::json!({"scheme": "edge", "delay": 10_000_000, "fraction": 1.0});
            v["series"] = serde_json::json!({"flows": [0, 7], "links": ["core", "edge_in.1"],
                                             "pacers": ["edge_in.0"], "interval": interval});
        });
        let (one, mut two) = (on(1, &s), on(2, &s));
        assert!(one.work.events != two.work.events, "the second run was split");
        two.work = one.work.clone();
        assert_eq!(one, two, "interval {interval:?}");
        let table = one.series.as_ref().unwrap();
        // Each entity's tracks moved: the flows' windows, the pacer's
        // backlog and both links' queues.
        for (entity, series) in [
            ("flow.0", "cwnd"),
            ("flow.7", "srtt_ms"),
            ("core", "queue_bytes"),
            ("edge_in.0", "backlog_packets"),
            ("edge_in.0", "rate_mbps"),
        ] {
            let values: Vec<f64> = track(table, entity, series).iter().map(|p| p.1).collect();
            assert!(values.iter().any(|&v| v != values[0]), "{entity} {series} never changes");
        }
        let mut plain = s.clone();
        plain.series = None;
        let mut off = on(2, &plain);
        assert!(!serde_json::to_string(&off).unwrap().contains("\"series\""));
        off.work = one.work.clone();
        off.series = one.series.clone();
        off.links.remove("edge_in.1"); // a link with series is reported
        let mut one = one;
        one.links.remove("edge_in.1");
        assert_eq!(one, off, "recording changes no other number");
    }
}

#[test]
fn a_series_of_something_that_is_not_there_names_the_field() {
    let cases = [
        (serde_json::json!({"flows": [12]}), "series.flows[0]"),
        (serde_json::json!({"flows": [0], "links": ["core", "nowhere"]}), "series.links[1]"),
        (serde_json::json!({"pacers": ["edge_in.0"]}), "series.pacers[0]"),
        (serde_json::json!({"flows": [0], "interval": 0}), "series.interval"),
        (serde_json::json!({"flows": [0], "every": true}), "series.every"),
        (serde_json::json!({}), "series"),
    ];
    for (spec, field) in cases {
        let mut v: serde_json::Value = serde_json::from_str(EBASE).unwrap();
        v["series"] = spec;
        let err = match Scenario::from_json(&v.to_string()) {
            Err(e) => e.to_string(),
            Ok(s) => match run_threads(&s, 1, &mut |_| {}) {
                Err(RunError::Invalid(e)) => e.to_string(),
                other => panic!("{field}: expected an error naming it, got {:?}", other.map(|_| ())),
            },
        };
        assert!(err.starts_with(field), "error {err:?} should name {field}");
    }
}

/// Every-change tracks past their share of `max_points` keep exactly the
/// first points the uncapped run records, stop at the time of the next one,
/// and the report warns of each; the same on one thread and two.
#[test]
fn every_change_tracks_stop_at_their_share_of_max_points_and_the_report_says_when() {
    let spec = serde_json::json!({"flows": [0, 7], "links": ["core"]});
    let free = scenario(EBASE, |v| v["series"] = spec.clone());
    let capped = scenario(EBASE, |v| {
        v["series"] = spec.clone();
        v["series"]["max_points"] = serde_json::json!(1200);
    });
    let limit = 1200 / (2 * 4 + 4); // 12 tracks: 100 points each
    let all = on(1, &free);
    assert!(all.warnings.is_empty());
    let (one, mut two) = (on(1, &capped), on(2, &capped));
    two.work = one.work.clone();
    assert_eq!(one, two, "a split run stops each track at the same point");
    let (full, cut) = (all.series.as_ref().unwrap(), one.series.as_ref().unwrap());
    let mut stopped = 0;
    for (k, (entity, series)) in full.entity.iter().zip(&full.series).enumerate() {
        let (whole, kept) = (track(full, entity, series), track(cut, entity, series));
        let n = whole.len().min(limit);
        assert_eq!(kept, whole[..n], "{entity} {series}: the first points, as recorded without the cap");
        let at = cut.stopped_track.iter().position(|&i| i as usize == k);
        assert_eq!(at.is_some(), whole.len() > limit, "{entity} {series} stops only past its share");
        if let Some(i) = at {
            stopped += 1;
            assert_eq!(cut.stopped_s[i], whole[limit].0, "{entity} {series} stops at its next change");
            let said = format!(
                "series: {entity} {series} stopped recording at {} s, after {limit} points",
                whole[limit].0
            );
            assert!(one.warnings.iter().any(|w| w.starts_with(&said)), "{said:?} in {:?}", one.warnings);
        }
    }
    assert!(
        stopped > 0 && one.warnings.len() == stopped,
        "some tracks pass 100 changes in 30 s, each warned once"
    );
    let (mut a, mut b) = (all.clone(), one.clone());
    (a.series, b.series, a.work, b.warnings) = (None, None, b.work.clone(), vec![]);
    assert_eq!(a, b, "the cap changes no other number");
}
