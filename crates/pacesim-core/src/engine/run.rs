//! One run: build the world a scenario describes, run it, report.

use std::collections::BTreeMap;

use super::parallel::run_halves;
use super::partition::Cut;
use super::world::{Event, Flow, Sizes, World};
use crate::metrics::burstiness::{hurst, Burstiness};
use crate::pacing::{Pacing, PacingScheme};
use crate::report::{
    BurstinessReport, Conservation, DelayReport, FlowTable, PacerReport, Report, Summary, TransferTable,
    UdpReport, Work,
};
use crate::scenario::Scenario;
use crate::sim::time::secs;
use crate::sim::time::Time;
use crate::spec::{evenly, DelayClass, InvalidField, MAX_TIME};
use crate::tcp::TcpSetup;
use crate::topology::Network;
use crate::traffic::bulk_start;
use crate::traffic::short::User;
use crate::traffic::udp::UdpSource;

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Invalid(#[from] crate::scenario::InvalidField),
    #[error(
        "packet conservation violated: created {created} != delivered {delivered} + dropped {dropped} \
         + in flight {in_flight} (the event queue carries {carried})"
    )]
    Conservation { created: u64, delivered: u64, dropped: u64, in_flight: u64, carried: u64 },
}

/// The network with its pacers and a route for each UDP source (returned
/// in the sources' order), and its cut-through links marked.
pub fn build_network(s: &Scenario) -> Result<(Network, Vec<u32>), InvalidField> {
    let mut net = s.topology.build(&s.core, s.seed, s.traffic.two_way)?;
    if let Some(l) = net.links.iter().position(|l| l.delay > MAX_TIME) {
        let message = format!("link {}'s delay is more than the engine allows ({MAX_TIME} ns)", net.names[l]);
        return Err(InvalidField { field: "topology".into(), message });
    }
    let udp_routes = s
        .traffic
        .udp
        .iter()
        .enumerate()
        .map(|(i, u)| {
            net.connect(&u.from, &u.to).ok_or_else(|| InvalidField {
                field: format!("traffic.udp[{i}]"),
                message: format!(
                    "no route from host {:?} to host {:?} (unknown or not connected)",
                    u.from, u.to
                ),
            })
        })
        .collect::<Result<_, _>>()?;
    net.place_pacers(&s.pacing)?;
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
        net.links[link as usize].output.burstiness =
            Some(Box::new(if b.series { recorder.keep_series() } else { recorder }));
    }
    net.mark_cut_through();
    Ok((net, udp_routes))
}

/// Whether host `i` paces: a share `fraction` of hosts, spread evenly.
fn paces_host(p: &Pacing, i: usize) -> bool {
    p.scheme == PacingScheme::Host && evenly(i, p.fraction)
}

pub(crate) fn build_world(s: &Scenario) -> Result<World, InvalidField> {
    let (net, udp_routes) = build_network(s)?;
    let sources = (s.traffic.udp.iter().zip(udp_routes).enumerate())
        .map(|(i, (u, route))| UdpSource::new(u, s.seed, i as u64, route, &format!("traffic.udp[{i}]")))
        .collect::<Result<_, _>>()?;
    let t = &s.tcp;
    let mut setup = TcpSetup::new(t, s.seed, s.pacing.host_mode);
    setup.first_sends = s.delay.as_ref().is_some_and(|d| d.class == DelayClass::Data);
    let flows = (0..net.flows.len())
        .map(|i| {
            let sender = setup.sender(i, paces_host(&s.pacing, i));
            let user = (s.traffic.short.as_ref())
                .filter(|short| short.is_user(i))
                .map(|short| User::new(short, s.seed, i as u64));
            let start = bulk_start(s.seed, i as u64, s.traffic.start);
            let sink = setup.sink(&sender);
            Flow::new(sender, sink, net.flows[i], start, user)
        })
        .collect();
    let sizes = Sizes {
        data: (t.segment_size + t.header_size) as u32,
        syn: t.syn.then_some(t.header_size as u32),
        ack: t.ack_size as u32,
    };
    Ok(World::new(net, flows, sources, setup, sizes))
}

/// Run a scenario to completion.
pub fn run(s: &Scenario) -> Result<Report, RunError> {
    run_observed(s, &mut |_| {})
}

/// Run a scenario, calling `progress` now and then with the fraction of
/// simulated time done (for progress bars; it does not affect the run).
pub fn run_observed(s: &Scenario, progress: &mut dyn FnMut(f64)) -> Result<Report, RunError> {
    run_threads(s, 1, progress)
}

/// Run a scenario on up to `threads` threads. A network that splits at
/// its core link runs as two halves ([`partition`]), in parallel given two
/// threads; the report is the same for any number of threads.
pub fn run_threads(s: &Scenario, threads: usize, progress: &mut dyn FnMut(f64)) -> Result<Report, RunError> {
    s.validate()?;
    let end = s.duration as f64;
    let progress = &mut |t: Time| progress(t as f64 / end);
    let mut w = build_world(s)?;
    let totals = match Cut::of(s, &w.net) {
        Some(cut) if threads >= 2 => {
            let mut b = build_world(s)?;
            (w.cut, b.cut) = (Some(cut.clone()), Some(cut));
            w.split(0);
            b.split(1);
            start(&mut w, s)?;
            start(&mut b, s)?;
            run_halves(&mut w, &mut b, s.duration, progress);
            let totals = Totals::of(&w).and(&Totals::of(&b));
            w.join(&mut b);
            totals
        }
        cut => {
            w.cut = cut;
            start(&mut w, s)?;
            w.run(progress);
            Totals::of(&w)
        }
    };
    for l in &mut w.net.links {
        l.close_window(s.duration);
    }
    totals.check()?;
    Ok(report(s, &w, &totals))
}

/// Open the links' measurement windows and schedule the run's first
/// events: those of the half `w` simulates, if it is one.
pub(crate) fn start(w: &mut World, s: &Scenario) -> Result<(), RunError> {
    for l in &mut w.net.links {
        l.set_window(s.warmup, s.duration);
    }
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
    w.schedule(s.warmup, Event::Warmup);
    w.schedule(s.duration, Event::End);
    if let Some(d) = &s.delay {
        w.delay = Some((d.class.into(), Default::default()));
    }
    if let Some(p) = &s.progress {
        p.check(s.duration, w.flows.len())?;
        w.progress = Some((p.interval, Default::default()));
        w.schedule(0, Event::Sample);
    }
    Ok(())
}

/// Packet counts and work of a world, or of both halves of a split run.
#[derive(Debug, Clone, Copy)]
struct Totals {
    created: u64,
    delivered: u64,
    dropped: u64,
    /// Packets alive, and those the event queues, pacers and outboxes hold.
    in_flight: u64,
    carried: u64,
    events: u64,
    hops: u64,
}

impl Totals {
    fn of(w: &World) -> Totals {
        let across = w.outbox.len() as u64 + w.unreceived;
        Totals {
            created: w.packets.created(),
            delivered: w.delivered,
            dropped: w.dropped,
            in_flight: w.packets.live() + across,
            carried: w.packets_in_queue() + across,
            events: w.queue.popped(),
            hops: w.hops,
        }
    }

    fn and(&self, o: &Totals) -> Totals {
        Totals {
            created: self.created + o.created,
            delivered: self.delivered + o.delivered,
            dropped: self.dropped + o.dropped,
            in_flight: self.in_flight + o.in_flight,
            carried: self.carried + o.carried,
            events: self.events + o.events,
            hops: self.hops + o.hops,
        }
    }

    /// Packet conservation: every packet created was delivered, dropped,
    /// or is still somewhere the run can see it.
    fn check(&self) -> Result<(), RunError> {
        let t = *self;
        if t.created != t.delivered + t.dropped + t.in_flight || t.carried != t.in_flight {
            return Err(RunError::Conservation {
                created: t.created,
                delivered: t.delivered,
                dropped: t.dropped,
                in_flight: t.in_flight,
                carried: t.carried,
            });
        }
        Ok(())
    }
}

fn report(s: &Scenario, w: &World, totals: &Totals) -> Report {
    let window = secs(s.duration - s.warmup);
    let net = &w.net;
    let links: BTreeMap<_, _> = net
        .measured
        .iter()
        .map(|&l| (net.names[l as usize].clone(), net.links[l as usize].output.stats.report()))
        .collect();
    let pacers = w
        .net
        .pacers
        .iter()
        .zip(&w.pacers)
        .map(|(&(link, spec), p)| {
            let mut p = p.clone();
            let drops = p.drops();
            let d = p.delays();
            let ms = |t: f64| t / 1e6;
            let report = PacerReport {
                delay_bound_ms: ms(spec.delay_bound() as f64),
                packets: d.count,
                drops,
                mean_delay_ms: ms(d.mean()),
                p99_delay_ms: ms(d.p99() as f64),
                max_delay_ms: ms(d.max as f64),
            };
            (net.names[link as usize].clone(), report)
        })
        .collect();
    let paced_links: Vec<_> = w.net.pacers.iter().map(|&(l, _)| l).collect();
    let data = (s.tcp.segment_size + s.tcp.header_size) as u32;
    let first = w.setup.first_data();
    let mut flows = FlowTable::default();
    for (i, f) in w.flows.iter().enumerate() {
        let st = f.sender.stats;
        let st0 = f.stats_at_warmup;
        let unique = (f.delivered(first) - f.delivered_at_warmup) as f64 * s.tcp.segment_size as f64;
        flows.flow.push(i as u32);
        flows.start_s.push(secs(f.start));
        flows
            .paced
            .push(f.sender.is_paced() || w.net.route(f.path.fwd).iter().any(|l| paced_links.contains(l)));
        flows.base_rtt_ms.push(w.net.base_rtt(i, data, s.tcp.ack_size as u32) as f64 / 1e6);
        flows.goodput_kbps.push(unique * 8.0 / window / 1e3);
        flows.data_packets_sent.push(st.data_sent - st0.data_sent);
        flows.retransmits.push(st.retransmits - st0.retransmits);
        flows.fast_retransmits.push(st.fast_retransmits - st0.fast_retransmits);
        flows.timeouts.push(st.timeouts - st0.timeouts);
        flows.final_cwnd.push(f.sender.w.cwnd);
        flows.mean_cwnd.push(f.cwnd.mean(s.duration));
        flows.short.push(f.user.is_some());
        let (n, sum) = f.delays;
        flows.mean_delay_ms.push((n > 0).then(|| sum as f64 / n as f64 / 1e6));
    }
    let transfers = TransferTable::window(&w.transfers, s.warmup);
    let core = &links[&net.names[net.core as usize]];
    let summary = Summary {
        aggregate_mbps: core.throughput_mbps,
        goodput_kbps_mean: flows.goodput_kbps.iter().sum::<f64>() / flows.goodput_kbps.len().max(1) as f64,
        core_loss_rate: core.loss_rate,
        core_empty_prob: core.empty_prob,
        core_udp_loss_rate: core.udp.loss_rate,
        transfers: transfers.flow.len() as u64,
        transfer_goodput_kbps_mean: transfers.goodput_kbps_mean(),
    };
    Report {
        engine_version: crate::ENGINE_VERSION.to_string(),
        window_s: [secs(s.warmup), secs(s.duration)],
        summary,
        links,
        pacers,
        flows,
        transfers,
        udp: w.sources.iter().map(|u| UdpReport { sent: u.sent, received: u.received }).collect(),
        progress: w.progress.as_ref().map(|(_, table)| table.clone()),
        delay: s.delay.as_ref().zip(w.delay.as_ref()).map(|(spec, (_, d))| DelayReport::new(spec.class, d)),
        burstiness: s.burstiness.as_ref().map(|spec| {
            let link = net.link_named(&spec.link).expect("checked when built");
            let recorder = net.links[link as usize].output.burstiness.as_ref().expect("set when built");
            let beta = recorder.beta(s.duration);
            BurstinessReport {
                link: spec.link.clone(),
                scale_us: beta.iter().map(|&(k, _)| (k * spec.bin) as f64 / 1e3).collect(),
                beta: beta.iter().map(|&(_, b)| b).collect(),
                hurst: hurst(&beta),
                series_bytes: recorder.series(s.duration),
            }
        }),
        conservation: Conservation {
            created: totals.created,
            delivered: totals.delivered,
            dropped: totals.dropped,
            in_flight: totals.in_flight,
        },
        work: Work { events: totals.events, packet_hops: totals.hops },
    }
}
