//! How a scenario becomes a world: the network with its pacers, measured
//! links and UDP and Tmix routes, a sender and sink for every flow (paced
//! or not, long-lived or a short-lived user's), the UDP sources, the Tmix
//! clouds, and the first events.

use std::ops::Range;

use super::partition::Cut;
use super::world::{
    attach_links, connect_tmix, Ends, Event, Flow, SenderEnd, Series, SinkEnd, Sizes, Tmix, World,
};
use crate::metrics::burstiness::Burstiness;
use crate::net::{LinkId, Queue};
use crate::pacing::Pacing;
use crate::scenario::Scenario;
use crate::spec::{evenly, DelayClass, InvalidField};
use crate::tcp::TcpSetup;
use crate::topology::Network;
use crate::traffic::bulk_start;
use crate::traffic::frame_trace::FrameTrace;
use crate::traffic::short::User;
use crate::traffic::udp::UdpSource;

/// Queue disciplines in place of the scenario's on the links they name
/// (`Some` for a link's name): how a discipline that a scenario cannot
/// name, one written outside the crate (`net::Queue::Other`), takes a
/// link in a run (`engine::run::run_with`).
pub type Queues<'a> = &'a dyn Fn(&str) -> Option<Queue>;

/// The network with its pacers and a route for each UDP source (returned
/// in the sources' order), and its cut-through links marked.
pub fn build_network(s: &Scenario) -> Result<(Network, Vec<u32>), InvalidField> {
    build_network_with(s, &|_| None).map(|(net, udp, _)| (net, udp))
}

/// A network built for a scenario, with each UDP source's route and the
/// routes between each Tmix cloud's hosts (initiator's and acceptor's).
pub type Built = (Network, Vec<u32>, Vec<[u32; 2]>);

/// [`build_network`] with the disciplines `queues` names; also the Tmix
/// clouds' routes.
pub fn build_network_with(s: &Scenario, queues: Queues) -> Result<Built, InvalidField> {
    // Every link's delay is within the engine's clock: `Scenario::validate` checked each delay field.
    let mut net = s.topology.build(&s.core, s.seed, s.traffic.two_way)?;
    for (link, name) in net.links.iter_mut().zip(net.names.iter()) {
        if let Some(q) = queues(name) {
            link.set_queue(q);
        }
    }
    let udp_routes = s
        .traffic
        .udp
        .iter()
        .enumerate()
        .map(|(i, u)| {
            for (key, name) in [("from", &u.from), ("to", &u.to)] {
                if let Some(message) = net.not_a_host(name) {
                    return Err(InvalidField { field: format!("traffic.udp[{i}].{key}"), message });
                }
            }
            net.connect(&u.from, &u.to).ok_or_else(|| InvalidField {
                field: format!("traffic.udp[{i}]"),
                message: format!("no route from host {:?} to host {:?}", u.from, u.to),
            })
        })
        .collect::<Result<_, _>>()?;
    let tmix_routes = connect_tmix(s, &mut net)?;
    net.place_pacers(&s.pacing)?;
    if let Some(&(l, _)) = net.pacers.iter().find(|&&(l, _)| net.links[l as usize].holds()) {
        let message =
            format!("a pacer in front of link {}, whose queue holds its packets", net.names.get(l as usize));
        return Err(InvalidField { field: "pacing".into(), message });
    }
    if let Some(b) = &s.burstiness {
        let link = net.link_named(&b.link).ok_or_else(|| InvalidField {
            field: "burstiness.link".into(),
            message: format!("no link named {:?}", b.link),
        })?;
        // Measured, so its queue is tracked (see `mark_cut_through`).
        if !net.measured.contains(&link) {
            net.measured.push(link);
        }
        let recorder = Burstiness::new(b.bin, s.warmup, b.scales as usize);
        net.links[link as usize].output_mut().burstiness =
            Some(Box::new(if b.series { recorder.keep_series() } else { recorder }));
    }
    if let Some(spec) = &s.series {
        attach_links(&mut net, spec)?;
    }
    net.mark_cut_through();
    net.settle();
    Ok((net, udp_routes, tmix_routes))
}

/// Whether host `i` paces: a share `fraction` of hosts, spread evenly.
fn paces_host(p: &Pacing, i: usize) -> bool {
    p.host_mode().is_some() && evenly(i, p.fraction)
}

/// Each UDP source's trace as it plays ([`UdpSpec::played_trace`]; None
/// but for a trace source), checked against the first link on its route.
pub fn played_traces(
    s: &Scenario,
    net: &Network,
    routes: &[u32],
) -> Result<Vec<Option<FrameTrace>>, InvalidField> {
    (s.traffic.udp.iter().zip(routes).enumerate())
        .map(|(i, (u, &route))| {
            let field = format!("traffic.udp[{i}]");
            let played = u.played_trace(&field)?;
            if let (Some(trace), Some(spec)) = (&played, &u.trace) {
                let first = net.route(route)[0] as usize;
                (trace.check_link(u.start, s.duration, net.names.get(first), net.links[first].rate_bps))
                    .map_err(|e| spec.error(&format!("{field}.trace"), e))?;
            }
            Ok(played)
        })
        .collect()
}

/// The world of `s`, its network built for it (the tests' one step).
#[cfg(test)]
pub(crate) fn build_world(s: &Scenario, queues: Queues) -> Result<World, InvalidField> {
    world_on(s, build_network_with(s, queues)?, None)
}

/// The flows from the first to the last of those whose end leaving by
/// link `end(f)` is in the `half` of a split network, or every flow.
fn span(flows: usize, half: Option<&(Cut, u8)>, end: impl Fn(usize) -> LinkId) -> Range<usize> {
    let Some((cut, side)) = half else { return 0..flows };
    let own = |f: &usize| cut.side(end(*f)) == *side;
    match ((0..flows).find(own), (0..flows).rev().find(own)) {
        (Some(first), Some(last)) => first..last + 1,
        _ => 0..0,
    }
}

/// The world of `s` on a network built for it ([`build_network_with`]):
/// each flow's sender and sink, the UDP sources, the Tmix clouds and what
/// is measured; if `half`, one half of the network split at that cut,
/// holding the senders and sinks of its span of flows only ([`Ends`]).
pub(crate) fn world_on(
    s: &Scenario,
    (net, udp_routes, tmix_routes): Built,
    half: Option<(Cut, u8)>,
) -> Result<World, InvalidField> {
    let traces = played_traces(s, &net, &udp_routes)?;
    let sources = (s.traffic.udp.iter().zip(udp_routes).zip(traces).enumerate())
        .map(|(i, ((u, route), played))| {
            UdpSource::new(u, played, s.seed, i as u64, route, s.duration, &format!("traffic.udp[{i}]"))
        })
        .collect::<Result<_, _>>()?;
    let t = &s.tcp;
    let host = s.pacing.host();
    let mut setup = TcpSetup::new(t, s.seed, host.cloned().unwrap_or_default(), host.is_some());
    setup.first_sends = s.delay.as_ref().is_some_and(|d| d.class == DelayClass::Data);
    let n = net.flows.len();
    let flows = (0..n)
        .map(|i| {
            let user = (s.traffic.short.as_ref())
                .filter(|short| short.is_user(i))
                .map(|short| User::new(short, s.seed, i as u64));
            let start = bulk_start(s.seed, i as u64, s.traffic.start);
            Flow::new(net.flows[i], start, user)
        })
        .collect();
    let sender = |i| setup.sender(i, paces_host(&s.pacing, i));
    // A sink is made for its sender (whether it reports SACK blocks, how it
    // echoes ECN): a half that holds a flow's sink and not its sender makes
    // the sender only for that.
    let sinks =
        Ends::of(span(n, half.as_ref(), |f| net.sink_link(f)), |i| SinkEnd::new(setup.sink(&sender(i))));
    let senders = Ends::of(span(n, half.as_ref(), |f| net.sender_link(f)), |i| SenderEnd::new(sender(i)));
    let sizes = Sizes {
        data: (t.segment_size + t.header_size) as u32,
        syn: t.syn.then_some(t.header_size as u32),
        ack: t.ack_size as u32,
    };
    let mut world = World::new(net, (flows, senders, sinks), sources, setup, sizes);
    if let Some((cut, side)) = half {
        world.cut = Some(cut);
        world.split(side);
    }
    if !s.traffic.tmix.is_empty() {
        world.set_tmix(Tmix::new(s, &tmix_routes, world.flows.len())?);
    }
    if s.transit.is_some() {
        world.measures_transit = true;
        for f in world.measured_sinks.span() {
            world.measured_sinks[f].transit = Some(Box::default());
        }
    }
    if let Some(spec) = &s.series {
        world.series = Some(Box::new(Series::new(spec, &world)?));
    }
    Ok(world)
}

/// Open the links' measurement windows and schedule the run's first
/// events: those of the half `w` simulates, if it is one.
pub(crate) fn start(w: &mut World, s: &Scenario) -> Result<(), InvalidField> {
    for l in &mut w.net.links {
        l.set_window(s.warmup, s.duration);
    }
    w.window = [s.warmup, s.duration];
    // First in the queue, so the window opens before any event of its instant
    // (ties pop in the order they were scheduled): the sends of flows starting
    // at the warmup's instant, at 0 s with no warmup, count as sent in it.
    w.schedule(s.warmup, Event::Warmup);
    for i in 0..w.flows.len() {
        if w.owns_sender(i) {
            w.schedule(w.flows[i].start, Event::Start(i as u32));
        }
    }
    for i in 0..w.sources.len() {
        if w.owns(w.net.route(w.sources[i].route)[0]) {
            w.schedule(w.sources[i].first(), Event::Udp(i as u32));
        }
    }
    w.start_tmix(s)?;
    w.schedule(s.duration, Event::End);
    if let Some(d) = &s.delay {
        w.delay = Some((d.class.into(), Default::default()));
    }
    if let Some(t) = &s.trace {
        w.start_trace(t)?;
    }
    if let Some(p) = &s.progress {
        p.check(s.duration, w.flows.len())?;
        w.progress = Some((p.interval, Default::default()));
        w.schedule(0, Event::Sample);
    }
    Ok(())
}
