//! What a scenario's network looks like, for people: every node and link
//! half with its rate, delay, queue and role, and a few flows' routes with
//! their base RTT (`pacesim topology show`).

use crate::net::discipline::Discipline;
use serde::{Deserialize, Serialize};

use crate::engine::build::{build_network, played_traces};
use crate::scenario::{InvalidField, Scenario};

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
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UdpDescription {
    /// The links of its route, in order (the memory guard counts its offered load on each).
    pub route: Vec<String>,
    /// Mean wire rate, bit/s (a trace source's from its trace, as played).
    pub mean_rate_bps: f64,
}

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
    let (net, udp_routes) = build_network(s)?;
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
    let udp = (s.traffic.udp.iter().zip(&udp_routes).zip(&traces))
        .map(|((u, &route), played)| UdpDescription {
            route: net.route(route).iter().map(|&l| name(l)).collect(),
            mean_rate_bps: u.mean_rate(played.as_ref()),
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
    })
}
