//! The report of a finished run: each measured link, pacer, flow, transfer
//! and source, the measurements the scenario asked for, and the packet
//! totals of its conservation check.

use crate::pacing::LinkPacer;
use std::collections::BTreeMap;

use super::conservation::Totals;
use super::world::World;
use crate::metrics::burstiness::hurst;
use crate::metrics::series::SeriesSpec;
use crate::report::{
    BurstinessReport, Conservation, DelayReport, FlowTable, PacerReport, Report, SeriesTable, Summary,
    TransferTable, UdpReport, Work,
};
use crate::scenario::Scenario;
use crate::sim::time::secs;
use crate::tcp::ecn::EcnMode;

/// The report of `s`'s run in world `w` (both halves joined into it), with
/// the packet `totals` of every world that ran.
pub(super) fn report(s: &Scenario, w: &World, totals: &Totals) -> Report {
    let window = secs(s.duration - s.warmup);
    let net = &w.net;
    let links: BTreeMap<_, _> = net
        .measured
        .iter()
        .map(|&l| (net.names.get(l as usize).to_owned(), net.links[l as usize].output().stats.report()))
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
            (net.names.get(link as usize).to_owned(), report)
        })
        .collect();
    let paced_links: Vec<_> = w.net.pacers.iter().map(|&(l, _)| l).collect();
    let data = (s.tcp.segment_size + s.tcp.header_size) as u32;
    let mut flows = FlowTable::default();
    // The topology's flows: a Tmix cloud's are in its own table.
    for (i, f) in w.flows.iter().take(net.flows.len().min(w.tmix_flows_from())).enumerate() {
        let (sender, sent) = (&w.senders[i], &w.measured_senders[i]);
        let m = &w.measured_sinks[i];
        let st = sender.state.stats;
        let st0 = sent.stats_at_warmup;
        let unique = f.goodput_packets(&w.sinks[i], m) * s.tcp.segment_size as f64;
        flows.flow.push(i as u32);
        flows.start_s.push(secs(f.start));
        flows
            .paced
            .push(sender.is_paced() || w.net.route(f.path.fwd).iter().any(|l| paced_links.contains(l)));
        flows.base_rtt_ms.push(w.net.base_rtt(i, data, s.tcp.ack_size as u32) as f64 / 1e6);
        flows.goodput_kbps.push(unique * 8.0 / window / 1e3);
        let data_sent = st.data_sent - st0.data_sent;
        let syn = w.sizes.syn.map_or(0, u64::from);
        let wire = (data_sent - sent.syns_sent) * u64::from(w.sizes.data) + sent.syns_sent * syn;
        flows.throughput_kbps.push(wire as f64 * 8.0 / window / 1e3);
        flows.data_packets_sent.push(data_sent);
        flows.lost_packets.push(f.lost);
        flows.loss_rate.push((data_sent > 0).then(|| f.lost as f64 / data_sent as f64));
        flows.retransmits.push(st.retransmits - st0.retransmits);
        flows.fast_retransmits.push(st.fast_retransmits - st0.fast_retransmits);
        flows.timeouts.push(st.timeouts - st0.timeouts);
        if sender.ecn_mode() != EcnMode::Off {
            flows.ecn_cuts.push(st.ecn_cuts - st0.ecn_cuts);
        }
        flows.final_cwnd.push(sender.state.w.cwnd);
        flows.mean_cwnd.push(sender.cwnd.mean(s.duration));
        flows.short.push(f.user.is_some());
        let (n, sum) = m.delays;
        flows.mean_delay_ms.push((n > 0).then(|| sum as f64 / n as f64 / 1e6));
        if let Some(t) = &m.transit {
            let ms = |ns: f64| ns / 1e6;
            flows.transit_mean_ms.push(t.mean().map(ms));
            for (column, q) in [
                (&mut flows.transit_p50_ms, 0.5),
                (&mut flows.transit_p95_ms, 0.95),
                (&mut flows.transit_p99_ms, 0.99),
            ] {
                column.push(t.quantile(q).map(|ns| ms(ns as f64)));
            }
            flows.jitter_ms.push(t.jitter().map(ms));
        }
    }
    let transfers = TransferTable::window(&w.transfers, s.warmup);
    let core = &links[net.names.get(net.core as usize)];
    let summary = Summary {
        aggregate_mbps: core.throughput_mbps,
        goodput_kbps_mean: flows.goodput_kbps.iter().sum::<f64>() / flows.goodput_kbps.len().max(1) as f64,
        core_loss_rate: core.loss_rate,
        core_empty_prob: core.empty_prob,
        core_udp_loss_rate: core.udp.loss_rate,
        transfers: transfers.flow.len() as u64,
        transfer_goodput_kbps_mean: transfers.goodput_kbps_mean(),
    };
    let series = s.series.as_ref().map(|spec| w.series_table(spec, s.duration));
    let warnings =
        s.series.as_ref().zip(series.as_ref()).map_or_else(Vec::new, |(spec, t)| series_warnings(t, spec));
    Report {
        engine_version: super::ENGINE_VERSION.to_string(),
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
            let recorder = net.links[link as usize].output().burstiness.as_ref().expect("set when built");
            let beta = recorder.beta(s.duration);
            BurstinessReport {
                link: spec.link.clone(),
                scale_us: beta.iter().map(|&(k, _)| (k * spec.bin) as f64 / 1e3).collect(),
                beta: beta.iter().map(|&(_, b)| b).collect(),
                hurst: hurst(&beta),
                series_bytes: recorder.series(s.duration),
            }
        }),
        series,
        tmix: w.tmix_table(),
        conservation: Conservation {
            created: totals.created,
            delivered: totals.delivered,
            dropped: totals.dropped,
            in_flight: totals.in_flight,
        },
        work: Work { events: totals.events, packet_hops: totals.hops },
        warnings,
    }
}

/// In words, each series track that stopped at its share of the points a run may hold.
fn series_warnings(table: &SeriesTable, spec: &SeriesSpec) -> Vec<String> {
    table
        .stopped_track
        .iter()
        .zip(&table.stopped_s)
        .map(|(&i, t)| {
            let (entity, series) = (&table.entity[i as usize], &table.series[i as usize]);
            format!(
                "series: {entity} {series} stopped recording at {t} s, after {} points (every change of \
                 {} tracks is capped at {} points in all, series.max_points): set series.interval to sample",
                spec.track_limit(),
                spec.tracks(),
                spec.most_points()
            )
        })
        .collect()
}
