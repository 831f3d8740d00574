"""The numbers derived from one run's report: those the results store keeps per
run (`run_metrics`, the `metrics` column) and `Result.metrics` gives for a live
run, for sweeps' plots and the papers' claims.

Each is a function of the report alone (and of the core's rate and a data
packet's size, from the scenario), so a live run and its stored copy give the
same numbers. The engine's summary comes through unchanged; what is derived
here is what the engine does not report: TCP's share of the core, goodput by
group, retransmission and loss-event rates (paper W Table I), pacer delay,
cwnd percentiles, and the Hurst parameter from 1 ms on (`hurst_from`, this
package's one fit; the engine's `hurst` fits beta over all scales,
crates/pacesim-core/src/metrics/burstiness.rs).
"""

from __future__ import annotations

from typing import Optional

import numpy as np
import pandas as pd

from .report_tables import rows


def data_packet_bytes(scenario: dict) -> int:
    """A TCP data packet's size on the wire, bytes (segment + header), from a scenario in human units."""
    from .units import parse_size

    tcp = scenario.get("tcp", {})
    return parse_size(tcp.get("segment_size", "1000B")) + parse_size(tcp.get("header_size", "40B"))


def tcp_core_mbps(report: dict, data_bytes: int) -> Optional[float]:
    """TCP data leaving the core over the window, Mb/s on the wire (headers
    included, as ns-2 counts a link's bytes; UDP and ACKs excluded): the
    bytes of the core's data packets sent whole in the window (its data
    class's `departed_bytes`, counted as the link's own `departed_bytes`),
    each packet its own size (a SYN is a bare header, a Tmix segment may be
    short). So it is at most what the core sent in the window, whatever its
    queue holds at the window's ends. None when the report has no core link.

    A report of an older engine has no class departures. Where its core
    carried TCP data alone in the window (no ACK or UDP arrivals) the link's
    `departed_bytes` is the same number; otherwise this falls back to the
    data packets admitted times `data_bytes`, the old engines' number, which
    counts a SYN as a full segment and a queue filling (or emptying) in the
    window as sent (or not): it may exceed the core's rate."""
    core = report["links"].get("core")
    if core is None:
        return None
    window = report["window_s"][1] - report["window_s"][0]
    data = core["data"]
    if "departed_bytes" in data:
        sent = data["departed_bytes"]
    elif core["ack"]["arrivals"] == core["udp"]["arrivals"] == 0:
        sent = core["departed_bytes"]
    else:
        sent = (data["arrivals"] - data["drops"]) * data_bytes
    return sent * 8 / window / 1e6


def run_metrics(report: dict, core_rate_bps: int, data_bytes: int) -> dict:
    """The numbers stored per run for plots and claims (JSON values: floats, ints and None).

    The engine summary (aggregate_mbps, goodput_kbps_mean, core_loss_rate,
    core_empty_prob, core_udp_loss_rate), plus: core_utilisation (aggregate /
    core rate), tcp_throughput_mbps and tcp_utilisation (the TCP data the core
    sends in the window, each packet its own size, over the core's rate:
    `tcp_core_mbps`; `data_bytes`, a data packet's size, serves only reports
    of older engines, without class departures), tcp_goodput_mbps (all flows' goodput), mean
    goodput of paced and of unpaced flows (paper E Fig. 17; None when a group
    is empty), the slowest paced flow's, their retransmissions per packet sent
    and loss events per round trip (paper W Table I, footnote 10: per RTT of the
    flow's, measured with `[delay]`), the packet-weighted mean pacer delay, the flow count, the
    slowest and fastest flow's goodput (paper W's worst flow), Jain's fairness index over the flows' goodputs
    (`jain`), the 5th,
    50th and 95th percentiles over flows of the time-averaged cwnd (paper A
    Fig. 4), the median transfer completion time of short flows, and the CoV
    of bytes per bin at the burstiness link (its finest scale; paper Q Fig. 15)
    with the Hurst parameter from beta's slope, over all scales and from 1 ms;
    the one-way packet delay's mean, median, 99th percentile and maximum; the
    ACK loss rate at the core's two queues, `core` and `core.rev` (paper A
    Fig. 23: r0 and r1; None for a topology without a link of that name).
    """
    flows = rows(report, "flows")
    is_paced = flows["paced"].astype(bool)  # an empty column (no TCP flows) is of object dtype
    paced = flows[is_paced]["goodput_kbps"]
    unpaced = flows[~is_paced]["goodput_kbps"]
    pacers = list(report["pacers"].values())
    window = report["window_s"][1] - report["window_s"][0]
    packets = sum(p["packets"] for p in pacers)
    out = dict(report["summary"])
    tcp = tcp_core_mbps(report, data_bytes)
    out.update(
        core_utilisation=out["aggregate_mbps"] * 1e6 / core_rate_bps,
        tcp_throughput_mbps=tcp,
        tcp_utilisation=None if tcp is None else tcp * 1e6 / core_rate_bps,
        tcp_goodput_mbps=float(flows["goodput_kbps"].sum()) / 1e3,
        goodput_kbps_paced=float(paced.mean()) if len(paced) else None,
        goodput_kbps_unpaced=float(unpaced.mean()) if len(unpaced) else None,
        retransmit_rate_paced=_retransmit_rate(flows[is_paced]),
        retransmit_rate_unpaced=_retransmit_rate(flows[~is_paced]),
        loss_event_rate_paced=_loss_event_rate(flows[is_paced], window),
        loss_event_rate_unpaced=_loss_event_rate(flows[~is_paced], window),
        goodput_kbps_min_paced=float(paced.min()) if len(paced) else None,
        pacer_delay_ms_mean=sum(p["mean_delay_ms"] * p["packets"] for p in pacers) / packets if packets else None,
        pacer_delay_ms_max=max(p["max_delay_ms"] for p in pacers) if pacers else None,
        # Little's law over the window: packets held per pacer, on average.
        pacer_packets_mean=sum(p["mean_delay_ms"] / 1e3 * p["packets"] for p in pacers) / window / len(pacers)
        if pacers else None,
        flows=len(flows),
        goodput_kbps_min=float(flows["goodput_kbps"].min()) if len(flows) else None,
        goodput_kbps_max=float(flows["goodput_kbps"].max()) if len(flows) else None,
        goodput_jain=jain(flows["goodput_kbps"]),
        fct_s_median=float(pd.Series(report["transfers"]["fct_s"], dtype=float).median()) if out["transfers"] else None,
    )
    b = report.get("burstiness")
    out["burstiness_cov"] = b["beta"][0] if b and b["beta"] else None
    out["hurst"] = b["hurst"] if b else None
    out["hurst_1ms"] = hurst_from(b, 1000.0) if b else None
    d = report.get("delay")
    for key in ("mean_ms", "p50_ms", "p99_ms", "max_ms"):
        out[f"delay_{key}"] = d[key] if d else None
    links = report["links"]
    for name, key in (("core", "core_ack_loss_rate"), ("core.rev", "core_rev_ack_loss_rate")):
        out[key] = links[name]["ack"]["loss_rate"] if name in links else None
    cwnd = pd.Series(flows["mean_cwnd"] if len(flows) else [], dtype=float).dropna()
    for q in (5, 50, 95):
        out[f"mean_cwnd_p{q:02d}"] = float(cwnd.quantile(q / 100)) if len(cwnd) else None
    return measured(out, report)


def jain(goodputs: pd.Series) -> Optional[float]:
    """Jain's fairness index of the flows' goodputs, (sum x)^2 / (n sum x^2) (Jain, Chiu and Hawe, DEC-TR-301,
    1984): 1 when every flow has the same, 1/n when one flow has it all; None without flows or goodput."""
    x = goodputs.astype(float)
    square = float((x * x).sum())
    return float(x.sum()) ** 2 / (len(x) * square) if square > 0 else None


OVER_NONE = ("goodput_kbps_mean", "transfer_goodput_kbps_mean", "core_loss_rate", "core_udp_loss_rate",
             "core_ack_loss_rate", "core_rev_ack_loss_rate", "delay_mean_ms", "delay_p50_ms", "delay_p99_ms",
             "delay_max_ms", "pacer_delay_ms_max")
"""The metrics that are a mean, ratio or extreme over a set the run may leave empty, which the engine's
report then gives as 0 (crates/pacesim-core/src/report.rs: "0 if none", "0 without UDP"): over flows, short
transfers, the core's arrivals (all, UDP, ACKs; `core.rev`'s ACKs), the delay class's packets, the pacers'
packets. `measured` makes each None where its set is empty."""


def measured(metrics: dict, report: dict) -> dict:
    """`metrics` (a run's, as `run_metrics` gives them or the store kept them) with each of `OVER_NONE` whose
    set is empty in this run None (unmeasured: NaN in a sweep's points, no point in a plot; a 0 there drew
    a measured-looking line at 0 Kb/s), and -0.0 (the engine's sum over no flows) as 0.0. `report` is the
    run's engine report, whole or as stored (without its tables): the counts come from `metrics` (`flows`,
    `transfers`) and from the report's links and pacers; a stored run's delay class has no packet count, and
    a one-way delay is never 0, so a largest delay of 0 means no packet was measured."""
    out = {k: 0.0 if isinstance(v, float) and v == 0 else v for k, v in metrics.items()}
    links = report.get("links") or {}
    none = {"goodput_kbps_mean": out.get("flows") == 0, "transfer_goodput_kbps_mean": out.get("transfers") == 0}
    if "core" in links:
        core = links["core"]
        none.update(core_loss_rate=core["arrivals"] == 0, core_udp_loss_rate=core["udp"]["arrivals"] == 0,
                    core_ack_loss_rate=core["ack"]["arrivals"] == 0)
    if "core.rev" in links:
        none["core_rev_ack_loss_rate"] = links["core.rev"]["ack"]["arrivals"] == 0
    delay = report.get("delay")
    if delay is not None or out.get("delay_max_ms") is not None:
        empty = delay["packets"] == 0 if delay is not None else out["delay_max_ms"] == 0
        none.update({f"delay_{k}": empty for k in ("mean_ms", "p50_ms", "p99_ms", "max_ms")})
    pacers = (report.get("pacers") or {}).values()
    none["pacer_delay_ms_max"] = bool(pacers) and sum(p["packets"] for p in pacers) == 0
    out.update({k: None for k, empty in none.items() if empty and k in out})
    return out


def hurst_from(burstiness: dict, scale_us: float) -> Optional[float]:
    """The Hurst parameter from beta(s) ~ s^(H-1): 1 + the least-squares slope of
    log beta on log s over the scales from `scale_us` on (paper A Fig. 7: where
    TCP's burstiness flattens, so the fit leaves out the packet-scale end the
    engine's `hurst` includes); None with under 3 of them. The stored
    metric `hurst_1ms` is this fit from 1 ms; this package fits nothing else."""
    s = np.asarray(burstiness["scale_us"], dtype=float)
    beta = np.asarray(burstiness["beta"], dtype=float)
    keep = (s >= scale_us) & (beta > 0)
    if keep.sum() < 3:
        return None
    return float(1 + np.polyfit(np.log(s[keep]), np.log(beta[keep]), 1)[0])


def _retransmit_rate(flows: pd.DataFrame) -> Optional[float]:
    """Retransmissions per data packet sent, over a group of flows (paper W
    Table I's per-packet loss rate, as the sender sees it); None if it sent nothing."""
    sent = flows["data_packets_sent"].sum() if len(flows) else 0
    return float(flows["retransmits"].sum() / sent) if sent else None


def _loss_event_rate(flows: pd.DataFrame, window_s: float) -> Optional[float]:
    """Paper W Table I's loss-event rate over a group of flows, as its footnote 10 defines it: "the number of RTTs
    experiencing loss over the number of RTTs in the life of a flow". Loss events (fast retransmits and timeouts,
    each a window cut: a round trip with loss) over the round trips of the flows' time in the window, a round trip
    being the flow's mean RTT: its data's mean one-way delay (measured with `[delay]`) and its ACKs' way back, half
    its base RTT (no queue on the way back; the serialisation of data and ACK differs by under 0.3 ms on paper W's
    links). None without flows, or without a measured delay (no `[delay]`, or nothing delivered)."""
    delay = pd.to_numeric(flows["mean_delay_ms"], errors="coerce") if len(flows) else pd.Series(dtype=float)
    timed = flows[delay.notna()]
    if not len(timed):
        return None
    rtt_s = (delay[delay.notna()] + timed["base_rtt_ms"].astype(float) / 2) / 1e3
    return float((timed["fast_retransmits"] + timed["timeouts"]).sum() / (window_s / rtt_s).sum())


def tcp_metrics_of_old(report: dict, found: dict) -> dict:
    """tcp_throughput_mbps and tcp_utilisation of a run stored before `run_metrics` had them, from its
    stored report (with its scenario) and its stored metrics `found`."""
    tcp = tcp_core_mbps(report, data_packet_bytes(report["scenario"]))
    util = found["core_utilisation"] / found["aggregate_mbps"] if found.get("aggregate_mbps") else None
    return {"tcp_throughput_mbps": tcp, "tcp_utilisation": None if tcp is None or util is None else tcp * util}
