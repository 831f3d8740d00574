//! ECN and DCTCP in whole runs, against the DCTCP paper's steady state
//! (Alizadeh et al., "Data Center TCP", SIGCOMM 2010, Sec 3.3).

use pacesim_core::{run, run_split, Report, Scenario};

/// `flows` long-lived flows of `tcp` over W-dumbbell's 1 Gb/s, 1 ms host
/// links and a 10 Mb/s, 10 ms core of 100 packets' buffer (104,000 B) with
/// queue knobs `queue`; 60 s measured after 20 s.
fn dumbbell(flows: u32, tcp: &str, queue: &str) -> Scenario {
    let json = format!(
        r#"{{"seed":3,"duration":80000000000,"warmup":20000000000,
        "topology":{{"kind":"w-dumbbell","flows":{flows}}},
        "core":{{"rate":10000000,"delay":10000000,"buffer":104000,{queue}}},
        "tcp":{{{tcp}}},
        "traffic":{{"start":[0,1000000000]}}}}"#
    );
    Scenario::from_json(&json).unwrap()
}

/// The report but for its work counters (events, packet-hops), which a
/// split run counts differently.
fn without_work(r: &Report) -> serde_json::Value {
    let mut v = serde_json::to_value(r).unwrap();
    v.as_object_mut().unwrap().remove("work");
    v
}

fn conserved(r: &Report) {
    let c = &r.conservation;
    assert_eq!(c.created, c.delivered + c.dropped + c.in_flight);
}

/// One DCTCP flow through a drop-tail queue marking from K = 20 packets.
/// The paper's sawtooth (Sec 3.3): the window reaches W* = C x RTT + K
/// when the queue reaches K, one RTT of growth later the queue peaks at
/// Q_max = K + N (N = 1 flow), and the share of packets marked in a cycle
/// is alpha with alpha^2 (1 - alpha / 4) = (2 W* + 1) / (W* + 1)^2 (eq.
/// 5-6: "alpha ~ sqrt(2 / W*)"); the window then drops by D = W* alpha /
/// 2, and so does the queue: the amplitude A = N D (eq. 8), Q_min = Q_max
/// - A. Here C = 10 Mb/s of 1040 B packets and RTT the flow's base RTT
/// (24.9 ms): C x RTT = 29.9, W* = 49.9, alpha = 0.202, A = 5.0, the queue
/// between 16 and 21 packets.
///
/// Checked: the share of data marked at the core within 25 % of alpha; the
/// mean queue between Q_min - 1 and Q_max (the queue near K, the 100
/// packets of buffer never reached: no drop); the link never idle (Q_min
/// > 0: the core carries 10 Mb/s to within 1 %); every cut an echo's; the
/// same report on two threads.
#[test]
fn one_dctcp_flow_holds_the_queue_near_k_as_the_paper_s_sawtooth() {
    let s = dumbbell(1, r#""variant":"dctcp""#, r#""queue":"droptail","droptail":{"mark_packets":20}"#);
    let r = run(&s).unwrap();
    conserved(&r);
    let core = &r.links["core"];
    assert_eq!(core.drops, 0);
    let c_rtt = r.flows.base_rtt_ms[0] / 1e3 * 10e6 / (1040.0 * 8.0);
    let w_star = c_rtt + 20.0;
    // alpha^2 (1 - alpha/4) = (2 W* + 1) / (W* + 1)^2, by fixed-point iteration.
    let rhs = (2.0 * w_star + 1.0) / (w_star + 1.0).powi(2);
    let alpha = (0..50).fold(rhs.sqrt(), |a: f64, _| (rhs / (1.0 - a / 4.0)).sqrt());
    let (q_max, amplitude) = (20.0 + 1.0, w_star * alpha / 2.0);
    let marked = core.marks as f64 / core.data.arrivals as f64;
    assert!((marked - alpha).abs() / alpha < 0.25, "marked {marked:.3} against alpha {alpha:.3}");
    let q = core.mean_queue_packets;
    assert!(q >= q_max - amplitude - 1.0 && q <= q_max, "mean queue {q:.2}, Q_min {:.1}", q_max - amplitude);
    assert!(core.throughput_mbps > 9.9, "{}", core.throughput_mbps);
    assert!(r.flows.ecn_cuts[0] > 0);
    assert_eq!((r.flows.fast_retransmits[0], r.flows.timeouts[0]), (0, 0));
    let split = run_split(&s, 2, &mut |_| {}).unwrap();
    assert_eq!(without_work(&split), without_work(&r));
}

/// Ten Reno flows through RED in byte mode (min_th 30 KB, max_th 90 KB of
/// the 104 KB buffer, w_q 0.002, gentle). With `red.ecn` and `tcp.ecn`
/// (RFC 3168) RED's early drops become marks: the flows lose only what
/// the hard limit drops, every mark answered by at most one cut a window,
/// and the link is as full as with drops (ECN changes how the signal
/// arrives, not the rate RED holds the queue at). Without ECN at the
/// sender, RED with `ecn` drops as plain RED (non-ECT arrivals are dropped
/// where they would be marked): the same report but for the marks.
#[test]
fn red_marks_ecn_capable_reno_instead_of_dropping_it() {
    let red = r#""queue":"red","red":{"min_th":30000,"max_th":90000,"ecn":true}"#;
    let plain = r#""queue":"red","red":{"min_th":30000,"max_th":90000}"#;
    let ecn = run(&dumbbell(10, r#""variant":"reno","ecn":true"#, red)).unwrap();
    let drops = run(&dumbbell(10, r#""variant":"reno""#, red)).unwrap();
    let reference = run(&dumbbell(10, r#""variant":"reno""#, plain)).unwrap();
    conserved(&ecn);
    let (e, d) = (&ecn.links["core"], &drops.links["core"]);
    assert!(e.marks > 100, "{}", e.marks);
    assert!(e.drops * 10 < d.drops, "ECN: {} drops, without: {}", e.drops, d.drops);
    assert_eq!(d.marks, 0);
    assert_eq!(without_work(&drops), without_work(&reference));
    let cuts: u64 = ecn.flows.ecn_cuts.iter().sum();
    assert!(cuts > 0 && cuts <= e.marks, "{cuts} cuts for {} marks", e.marks);
    assert!(ecn.flows.ecn_cuts.len() == 10 && drops.flows.ecn_cuts.is_empty());
    assert!(
        (e.throughput_mbps - d.throughput_mbps).abs() < 0.3,
        "{} against {}",
        e.throughput_mbps,
        d.throughput_mbps
    );
}

#[test]
fn bad_ecn_knobs_are_refused_naming_the_field() {
    let cases = [
        (r#""variant":"dctcp","dctcp_g":0.0"#, r#""queue":"droptail""#, "tcp.dctcp_g"),
        (r#""variant":"dctcp","dctcp_alpha_init":2.0"#, r#""queue":"droptail""#, "tcp.dctcp_alpha_init"),
        (r#""variant":"reno","ecn":1"#, r#""queue":"droptail""#, "tcp.ecn"),
        (
            r#""variant":"reno""#,
            r#""queue":"droptail","droptail":{"mark_packets":0}"#,
            "core.droptail.mark_packets",
        ),
        (
            r#""variant":"reno""#,
            r#""queue":"droptail","droptail":{"mark_bytes":200000}"#,
            "core.droptail.mark_bytes",
        ),
        (r#""variant":"reno""#, r#""queue":"red","red":{"ecn":"yes"}"#, "core.red.ecn"),
    ];
    for (tcp, queue, field) in cases {
        let json = format!(
            r#"{{"seed":3,"duration":1000000000,"warmup":0,"topology":{{"kind":"w-dumbbell","flows":1}},
            "core":{{"rate":10000000,"delay":10000000,"buffer":104000,{queue}}},"tcp":{{{tcp}}},"traffic":{{"start":[0,0]}}}}"#
        );
        let err = Scenario::from_json(&json).expect_err(field).to_string();
        assert!(err.starts_with(field), "{field}: {err}");
    }
}
