//! Two-way TCP (paper A Sec VII, Fig. 23): every flow has a twin from its
//! receiver back to its sender, data and ACKs of both directions share the
//! core, and both core halves queue behind `[core]`'s buffer.

use pacesim_core::{run, Report, Scenario};

/// A-base with `hosts` host pairs, a core `buffer` (bytes) in both
/// directions, an advertised window of `window` packets, 30 s measured
/// after 10 s.
fn a_base(hosts: u32, buffer: u64, window: u64) -> Scenario {
    let text = format!(
        r#"{{"seed":5,"duration":40000000000,"warmup":10000000000,
 "topology":{{"kind":"a-base","tcp_hosts":{hosts},"access_rate":[10000000,10000000],"access_delay":[1000000,25000000],"udp_access_rate":[100000000,100000000],"udp_access_delay":[5000000,5000000]}},
 "core":{{"rate":100000000,"delay":50000000,"buffer":{buffer},"queue":"droptail"}},
 "tcp":{{"variant":"reno","segment_size":1000,"header_size":40,"ack_size":40,"window":{window},"initial_window":2,"syn":true,"tick":10000000,"min_rto":200000000,"max_rto":60000000000,"initial_rto":3000000000}},
 "traffic":{{"start":[0,5000000000],"two_way":true}}}}"#
    );
    Scenario::from_json(&text).unwrap()
}

/// Packets of `kind` ("data" or "ack") arriving at link `name`'s queue in the window, and dropped there.
fn class(r: &Report, name: &str, kind: &str) -> (u64, u64) {
    let l = &r.links[name];
    let c = if kind == "data" { &l.data } else { &l.ack };
    (c.arrivals, c.drops)
}

#[test]
fn lossless_twins_get_window_over_rtt_and_every_data_packet_crossing_the_core_is_acknowledged_back() {
    // 4 host pairs, 8 flows of 6 packets each: at most 8 x 6 x 1040 B =
    // 50 KB in flight, so a 1 MB core buffer never drops, no flow ever
    // loses a packet, and each is held by its window alone.
    let (hosts, window) = (4usize, 6u64);
    let r = run(&a_base(hosts as u32, 1_000_000, window)).unwrap();
    let f = &r.flows;
    assert_eq!(f.flow.len(), 2 * hosts);
    assert_eq!(r.conservation.dropped, 0);
    for i in 0..2 * hosts {
        // A twin's data and ACKs cross the same links as its flow's ACKs
        // and data, with the same rates and delays: the same base RTT.
        assert_eq!(f.base_rtt_ms[i], f.base_rtt_ms[i % hosts], "flow {i}");
        // Window-limited and lossless: window x segment per round trip,
        // less only what packets of the other direction sharing the access
        // links (one data packet, 0.83 ms) add to some round trips.
        let closed_form = window as f64 * 1000.0 * 8.0 / f.base_rtt_ms[i];
        let ratio = f.goodput_kbps[i] / closed_form;
        assert!(
            (0.97..=1.005).contains(&ratio),
            "flow {i}: {} kb/s against {closed_form:.1}",
            f.goodput_kbps[i]
        );
        assert_eq!(f.retransmits[i], 0);
    }
    // Every data packet reaching r0 (r1) gets one ACK back through r1 (r0);
    // the counts in the window differ by the packets whose ACK falls on the
    // other side of one of its ends, at most the flows' windows.
    let in_flight = (hosts as u64) * window;
    for (there, back) in [("core", "core.rev"), ("core.rev", "core")] {
        let ((data, _), (acks, _)) = (class(&r, there, "data"), class(&r, back, "ack"));
        assert!(data > 4_000, "{there}: {data} data packets");
        assert!(data.abs_diff(acks) <= in_flight, "{there}: {data} data, {back}: {acks} ACKs");
    }
}

#[test]
fn small_buffers_drop_data_and_acks_at_both_routers() {
    // 4,200 B: four data packets waiting (4,160 B) leave no room for an
    // ACK (4,160 + 40 >= 4,200), so an ACK arriving behind them is dropped.
    // (At 4,000 B three data packets leave room for 21 ACKs, and ACKs are
    // rarely dropped.)
    let s = a_base(200, 4_200, 1000);
    let r = run(&s).unwrap();
    for name in ["core", "core.rev"] {
        let ((data, data_drops), (acks, ack_drops)) = (class(&r, name, "data"), class(&r, name, "ack"));
        assert!(data > 0 && acks > 0, "{name}: both directions' packets queue here");
        assert!(data_drops > 0 && ack_drops > 0, "{name}: drops data and ACKs: {:?}", r.links[name]);
        // Only the two core queues drop (access links never do).
        assert_eq!(r.links[name].drops, data_drops + ack_drops);
    }
    let c = &r.conservation;
    assert_eq!(c.created, c.delivered + c.dropped + c.in_flight);
}

#[test]
fn one_way_leaves_the_core_reverse_half_unlimited() {
    let mut s = a_base(60, 4_000, 1000);
    s.traffic.two_way = false;
    let r = run(&s).unwrap();
    assert_eq!(r.flows.flow.len(), 60);
    assert_eq!(class(&r, "core.rev", "data").0, 0);
    assert_eq!(r.links["core.rev"].drops, 0);
    assert!(r.links["core"].drops > 0);
}

#[test]
fn a_queue_given_for_the_core_reverse_half_conflicts_with_two_way() {
    let text = r#"{"seed":1,"duration":10000000000,"warmup":1000000000,
 "topology":{"kind":"graph","nodes":["r0","r1"],"hosts":["a","b"],
   "links":[{"from":"a","to":"r0","rate":[10000000,10000000],"delay":[1000000,1000000]},
            {"from":"r0","to":"r1","core":true,"reverse":{"buffer":9000}},
            {"from":"r1","to":"b","rate":[10000000,10000000],"delay":[1000000,1000000]}],
   "flows":[{"from":"a","to":"b"}]},
 "core":{"rate":10000000,"delay":10000000,"buffer":5000,"queue":"droptail"},
 "tcp":{"variant":"reno","segment_size":1000,"header_size":40,"ack_size":40,"window":1000,"initial_window":2,"syn":true,"tick":10000000,"min_rto":200000000,"max_rto":60000000000,"initial_rto":3000000000},
 "traffic":{"start":[0,1000000000],"two_way":true}}"#;
    let s = Scenario::from_json(text).unwrap();
    let err = run(&s).unwrap_err().to_string();
    assert!(err.contains("topology.links[1].reverse.buffer"), "{err}");
    let one_way = Scenario::from_json(&text.replace("\"two_way\":true", "\"two_way\":false")).unwrap();
    assert_eq!(run(&one_way).unwrap().flows.flow.len(), 1);
}
