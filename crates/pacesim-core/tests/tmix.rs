//! Tmix replay on an idle line worked by hand: one connection's two ADUs,
//! through a DelayBox and without, its loss and `lossless`, and a bad
//! vectors file naming its field and line.

use pacesim_core::{run_threads, Report, RunError, Scenario};

/// Host a -> router r (10 Mb/s, 1 ms) -> host b (the core: 10 Mb/s, 1 ms,
/// 10 MB of queue); 1460 B segments, 40 B headers and ACKs, SYNs,
/// initial window 2, no delayed ACKs; one Tmix cloud a -> b with the
/// vectors in `file`, its DelayBox at r when `delaybox`.
fn scenario(file: &str, delaybox: bool, lossless: bool) -> Scenario {
    let tmix = serde_json::json!({"vectors": file, "initiator": "a", "acceptor": "b",
        "delaybox": if delaybox { Some("r") } else { None }, "lossless": lossless});
    let json = serde_json::json!({"seed": 1, "duration": 3_000_000_000u64, "warmup": 1_000_000_000u64,
        "topology": {"kind": "graph", "nodes": ["r"], "hosts": ["a", "b"],
            "links": [{"from": "a", "to": "r", "rate": [10_000_000, 10_000_000], "delay": [1_000_000, 1_000_000]},
                      {"from": "r", "to": "b", "core": true}]},
        "core": {"rate": 10_000_000, "delay": 1_000_000, "buffer": 10_000_000, "queue": "droptail"},
        "tcp": {"variant": "newreno", "segment_size": 1460, "header_size": 40, "ack_size": 40, "window": 20,
            "initial_window": 2, "syn": true, "tick": 10_000_000, "min_rto": 200_000_000,
            "max_rto": 60_000_000_000u64, "initial_rto": 3_000_000_000u64},
        "traffic": {"start": [0, 0], "tmix": [tmix]}});
    Scenario::from_json(&json.to_string()).unwrap()
}

/// Write `text` to a file of its own (tests run in parallel: several wrote "one.cvec" at once, one reading
/// it while another rewrote it) and give its path.
fn vectors(name: &str, text: &str) -> String {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("pacesim-tmix-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{call}-{name}"));
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn run(s: &Scenario) -> Report {
    run_threads(s, 2, &mut |_| {}).unwrap()
}

/// The initiator sends 1000 B at 0; the acceptor answers 2000 B 5 ms after
/// receiving them; RTT 20 ms for the DelayBox, no loss.
const ONE: &str = "S 0 1 0 7\nw 65535 65535\nr 20000\nl 0.000000 0.000000\nI 0 0 1000\nA 0 5000 2000\n";

#[test]
fn one_connection_completes_when_worked_by_hand() {
    // By hand, every crossing of r adding the DelayBox's 10 ms: the
    // initiator's SYN (40 B: 32 us a link) reaches b at 2 (32 us + 1 ms)
    // + 10 = 12.064 ms, its ACK is back at 24.128 ms; its one segment
    // (1500 B: 1.2 ms a link) reaches b at 24.128 + 2 x 2.2 + 10 = 38.528
    // ms: 1460 payload bytes, all the acceptor expects, an ADU. The
    // acceptor waits 5 ms, 43.528 ms, and sends its SYN (back at 67.656 ms)
    // and two segments back to back: the first at a at 67.656 + 2.2 + 10 +
    // 2.2 = 82.056 ms, the second 1.2 ms behind it, 83.256 ms: 2920 bytes,
    // the initiator's ADU, and the data are done.
    let r = run(&scenario(&vectors("one.cvec", ONE), true, false));
    let t = r.tmix.as_ref().expect("a Tmix table");
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    assert_eq!((t.cloud.clone(), t.id.clone(), t.start_s.clone()), (vec![0], vec![7], vec![0.0]));
    assert_eq!(t.receipts, vec![2]);
    assert!(close(t.last_s[0].unwrap(), 0.083256), "{:?}", t.last_s);
    assert!(close(t.done_s[0].unwrap(), 0.083256), "{:?}", t.done_s);
    assert_eq!((t.init_bytes.clone(), t.acc_bytes.clone()), (vec![1000], vec![2000]));
    let c = &r.conservation;
    assert_eq!(c.created, c.delivered + c.dropped + c.in_flight);
    assert_eq!((c.dropped, c.in_flight), (0, 0), "every packet delivered");
    assert!(r.flows.flow.is_empty(), "the Tmix ends are not the topology's flows");

    // Without the DelayBox each of the six crossings of r is 10 ms sooner.
    let r = run(&scenario(&vectors("one.cvec", ONE), false, false));
    let t = r.tmix.as_ref().unwrap();
    assert!(close(t.done_s[0].unwrap(), 0.083256 - 0.060), "{:?}", t.done_s);
}

#[test]
fn the_delaybox_drops_at_the_vectors_loss_rate_unless_lossless() {
    // Every packet from the initiator to the acceptor lost: its SYN never arrives, nothing completes.
    let lossy = vectors("lossy.cvec", &ONE.replace("l 0.000000 0.000000", "l 1.0 0.0"));
    let r = run(&scenario(&lossy, true, false));
    let t = r.tmix.as_ref().unwrap();
    assert_eq!((t.receipts.clone(), t.done_s.clone()), (vec![0], vec![None]));
    assert_eq!(r.conservation.dropped, 1, "the SYN (its retransmission would come at 3 s, the end)");
    let r = run(&scenario(&lossy, true, true));
    assert!((r.tmix.as_ref().unwrap().done_s[0].unwrap() - 0.083256).abs() < 1e-9);
}

#[test]
fn a_hundred_connections_all_complete_the_same_every_time() {
    // 100 connections of 3 exchanges (36.6 KB of ADUs), 50 ms apart: 5.9
    // Mb/s on the 10 Mb/s line; their flows taken back and reused once
    // each is over.
    let mut text = String::new();
    for i in 0..100u64 {
        text += &format!("S {} 3 0 {i}\nw 65535 65535\nr 20000\nl 0 0\n", i * 50_000);
        text += "I 0 0 300\nA 0 1000 5000\nI 0 2000 300\nA 0 1000 5000\nI 0 2000 300\nA 0 1000 20000\nA 1000 0 0\n";
    }
    let mut s = scenario(&vectors("many.cvec", &text), true, false);
    s.duration = 8_000_000_000;
    let (a, b) = (run(&s), run(&s));
    assert_eq!(a, b);
    let t = a.tmix.as_ref().unwrap();
    assert_eq!(t.id, (0..100).collect::<Vec<_>>(), "in the order they started");
    let late: Vec<_> =
        (0..100).filter(|&i| t.done_s[i].is_none()).map(|i| (i, t.receipts[i], t.last_s[i])).collect();
    assert!(late.is_empty(), "every connection completes: {late:?}");
    assert!(t.receipts.iter().all(|&n| n == 6));
}

#[test]
fn a_bad_vectors_file_names_its_field_and_line() {
    let bad = vectors("bad.cvec", "S 0 1 0 7\nI 0 0 1000\nA 0 x 2000\n");
    match run_threads(&scenario(&bad, true, false), 1, &mut |_| {}) {
        Err(RunError::Invalid(e)) => {
            assert_eq!(e.field, "traffic.tmix[0].vectors");
            assert!(
                e.message.ends_with(
                    "bad.cvec:3: \"A\": \"x\" is not send wait us, receive wait us, bytes: whole numbers"
                ),
                "{}",
                e.message
            );
        }
        other => panic!("{other:?}"),
    }
    let mut s = scenario(&vectors("one.cvec", ONE), true, false);
    s.traffic.tmix[0].delaybox = Some("b".into());
    match run_threads(&s, 1, &mut |_| {}) {
        Err(RunError::Invalid(e)) => assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            ("traffic.tmix[0].delaybox", "no router named \"b\"")
        ),
        other => panic!("{other:?}"),
    }
    let mut s = scenario(&vectors("one.cvec", ONE), true, false);
    s.traffic.tmix[0].acceptor = "z".into();
    match run_threads(&s, 1, &mut |_| {}) {
        Err(RunError::Invalid(e)) => assert_eq!(e.field, "traffic.tmix[0].acceptor"),
        other => panic!("{other:?}"),
    }
}
