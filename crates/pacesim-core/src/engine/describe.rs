//! What a scenario's network looks like, for people: every node and link
//! half with its rate, delay, queue and role, and a few flows' routes with
//! their base RTT (`pacesim topology show`).

use crate::net::discipline::Discipline;
use crate::net::Queue;
use serde::{Deserialize, Serialize};

use crate::engine::build::{build_network_with, played_traces};
use crate::scenario::{InvalidField, Scenario};
use crate::traffic::frame_trace::FrameTrace;
use crate::traffic::udp::{UdpKind, UdpSource, UdpSpec};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Description {
    pub routers: Vec<String>,
    pub hosts: Vec<String>,
    pub links: Vec<LinkDescription>,
    pub flows: usize,
    /// The core link's name.
    pub core: String,
    pub routes: Vec<RouteDescription>,
    /// Every UDP source, in the scenario's order.
    pub udp: Vec<UdpDescription>,
    /// Every Tmix cloud, in the scenario's order.
    pub tmix: Vec<TmixDescription>,
}

/// The routes of a Tmix cloud's packets (the memory guard bounds what crosses a link by them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TmixDescription {
    /// The links from the initiator to the acceptor (its data, its SYNs and its sink's ACKs), in order.
    pub from_initiator: Vec<String>,
    /// The links back from the acceptor.
    pub from_acceptor: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UdpDescription {
    /// The links of its route, in order (the memory guard counts its offered load on each).
    pub route: Vec<String>,
    /// Mean wire rate, bit/s (a trace source's from its trace, as played).
    pub mean_rate_bps: f64,
    /// A Poisson, ON-OFF or trace source's packets as drawn for this run ([`UdpSource::backlog`]);
    /// none for the other kinds, or for a Poisson or ON-OFF source past its share of
    /// [`REPLAYED_STEPS`] (a trace source is bounded from its frames, in no step).
    pub replayed: Option<Replayed>,
    /// A trace source's least time between two instants where frames holding bytes start, as played ([`FrameTrace::least_gap`]), ns:
    /// the memory guard counts each frame's last packet, which may be smaller than the source's sizes, by
    /// it; none for the other kinds.
    pub frame_gap_ns: Option<u64>,
    /// The most of its frames holding bytes that start at one instant ([`FrameTrace::least_gap`]).
    pub frames_at_once: Option<u64>,
}

/// The bursts of a source's own packets in the run, bits: the most sent in any window beyond its mean
/// rate times the window (`burst_bits`) and beyond each link's rate on its route (`backlog_bits`, in
/// route order), and all it sends (`sent_bits`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replayed {
    pub burst_bits: f64,
    pub backlog_bits: Vec<f64>,
    pub sent_bits: f64,
}

/// The most steps (packets, or an ON-OFF source's bursts) [`describe`] replays in all (2^25, about a
/// second), shared evenly among the Poisson and ON-OFF sources: 100 ON-OFF sources of 7 million packets each
/// took 21 s to describe (issue 33's seventh review).
pub const REPLAYED_STEPS: u64 = 1 << 25;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinkDescription {
    pub name: String,
    pub from: String,
    pub to: String,
    pub rate_bps: u64,
    pub delay_ns: u64,
    /// Queue limits (RED's hard limit in its unit); `None` never drops.
    pub buffer_bytes: Option<u64>,
    pub buffer_packets: Option<u64>,
    pub measured: bool,
    /// The pacer in front of it: "edge" or "qlbp".
    pub pacer: Option<String>,
    /// Its queue may drop a packet it has queued (CoDel and FQ-CoDel drop at dequeue or from the
    /// longest flow queue; a discipline written outside the crate may): each packet can then both
    /// join and leave it and be dropped (the memory guard's bound on its `[series]` points).
    pub drops_queued: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RouteDescription {
    pub flow: usize,
    pub from: String,
    pub to: String,
    /// Link names, data direction then ACK direction.
    pub data: Vec<String>,
    pub acks: Vec<String>,
    pub base_rtt_ms: f64,
}

/// Describe `s`'s network with the routes of `examples` flows spread evenly
/// over the flow list (first and last included).
pub fn describe(s: &Scenario, examples: usize) -> Result<Description, InvalidField> {
    s.validate()?;
    let (net, udp_routes, tmix_routes) = build_network_with(s, &|_| None)?;
    let traces = played_traces(s, &net, &udp_routes)?;
    let name = |l: u32| net.names.get(l as usize).to_owned();
    let node = |n: u32| net.nodes.get(n as usize).to_owned();
    let links = (0..net.links.len() as u32)
        .map(|l| {
            let link = &net.links[l as usize];
            let (a, b) = net.router.half_ends(l);
            let pacer = net.pacers.iter().find(|&&(p, _)| p == l).map(|(_, spec)| spec.kind().to_string());
            LinkDescription {
                name: name(l),
                from: node(a),
                to: node(b),
                rate_bps: link.rate_bps,
                delay_ns: link.delay,
                buffer_bytes: link.queue().and_then(|q| q.limits().bytes),
                buffer_packets: link.queue().and_then(|q| q.limits().packets),
                measured: net.measured.contains(&l),
                pacer,
                drops_queued: matches!(
                    link.queue(),
                    Some(Queue::Codel(_) | Queue::FqCodel(_) | Queue::Other(_))
                ),
            }
        })
        .collect();
    let n = net.flows.len();
    let mut picks: Vec<usize> =
        (0..examples.min(n)).map(|i| if examples > 1 { i * (n - 1) / (examples - 1) } else { 0 }).collect();
    picks.dedup();
    let data = (s.tcp.segment_size + s.tcp.header_size) as u32;
    let routes = picks
        .into_iter()
        .map(|f| {
            let p = net.flows[f];
            let fwd = net.route(p.fwd);
            let ends = |l: u32| net.router.half_ends(l);
            RouteDescription {
                flow: f,
                from: node(ends(fwd[0]).0),
                to: node(ends(*fwd.last().expect("a route has a link")).1),
                data: fwd.iter().map(|&l| name(l)).collect(),
                acks: net.route(p.rev).iter().map(|&l| name(l)).collect(),
                base_rtt_ms: net.base_rtt(f, data, s.tcp.ack_size as u32) as f64 / 1e6,
            }
        })
        .collect();
    let replays = |u: &UdpSpec| matches!(u.kind, UdpKind::Onoff | UdpKind::Poisson | UdpKind::Trace);
    let steps = |u: &&UdpSpec| matches!(u.kind, UdpKind::Onoff | UdpKind::Poisson); // a trace takes none
    let budget = REPLAYED_STEPS / (s.traffic.udp.iter().filter(steps).count() as u64).max(1);
    let udp = (s.traffic.udp.iter().zip(&udp_routes).zip(traces).enumerate())
        .map(|(i, ((u, &route), played))| {
            let links = net.route(route);
            let mean_rate_bps = u.mean_rate(played.as_ref());
            let (frame_gap_ns, frames_at_once) = played.as_ref().map(FrameTrace::least_gap).unzip();
            let replayed = if replays(u) {
                let field = format!("traffic.udp[{i}]");
                let rates: Vec<f64> = std::iter::once(mean_rate_bps)
                    .chain(links.iter().map(|&l| net.links[l as usize].rate_bps as f64))
                    .collect();
                let source = UdpSource::new(u, played, s.seed, i as u64, route, s.duration, &field)?;
                source.backlog(s.duration, &rates, budget).map(|b| Replayed {
                    burst_bits: b.bits[0],
                    backlog_bits: b.bits[1..].to_vec(),
                    sent_bits: b.sent_bits,
                })
            } else {
                None
            };
            Ok(UdpDescription {
                route: links.iter().map(|&l| name(l)).collect(),
                mean_rate_bps,
                replayed,
                frame_gap_ns,
                frames_at_once,
            })
        })
        .collect::<Result<_, InvalidField>>()?;
    let tmix = (tmix_routes.iter())
        .map(|&[there, back]| TmixDescription {
            from_initiator: net.route(there).iter().map(|&l| name(l)).collect(),
            from_acceptor: net.route(back).iter().map(|&l| name(l)).collect(),
        })
        .collect();
    Ok(Description {
        routers: net.nodes.iter().take(net.routers).map(str::to_owned).collect(),
        hosts: net.nodes.iter().skip(net.routers).map(str::to_owned).collect(),
        links,
        flows: n,
        core: name(net.core),
        routes,
        udp,
        tmix,
    })
}
