"""The outcome of one run: the engine's report, with its scenario and wall time.

Everything in the report is a pure function of the scenario (equal scenarios
give identical reports) but its work counters (`work`), which also depend
on whether the run was split over two threads (README, "Speed"); `wall_s`,
measured around the engine call, is not either. Its tables come as pandas
DataFrames, the same frames the results store loads back for the run
(`report_tables`); its derived numbers are `metrics` (`pacesim.metrics`).
"""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Union

from .scenario import Scenario

if TYPE_CHECKING:  # pandas is imported on first use: it is most of pacesim's start-up time
    import pandas as pd


class Result:
    """One run's report (see crates/pacesim-core/src/report.rs for every field)."""

    def __init__(self, report: dict, scenario: Scenario, wall_s: float):
        self.report = report
        self.scenario = scenario
        self.wall_s = wall_s

    @property
    def seed(self) -> int:
        return self.scenario.seed

    @property
    def engine_version(self) -> str:
        return self.report["engine_version"]

    @cached_property
    def summary(self) -> dict:
        """Paper E's headline numbers as the engine reports them (as --json writes them): aggregate_mbps,
        goodput_kbps_mean, core_loss_rate, core_empty_prob, core_udp_loss_rate, transfers,
        transfer_goodput_kbps_mean (the report as `pacesim.run` reads it: no -0.0). A mean over nothing is the
        engine's 0 here; `metrics` has None there (`metrics.measured`)."""
        return dict(self.report["summary"])

    @property
    def conservation(self) -> dict:
        """Packets created, delivered, dropped and in flight over the whole run."""
        return self.report["conservation"]

    @property
    def work(self) -> dict:
        """Events processed and packet-hops: divide by `wall_s` for rates."""
        return self.report["work"]

    @cached_property
    def human_scenario(self) -> dict:
        """The scenario in human units, as written to JSON and the store."""
        return self.scenario.model_dump(mode="json", exclude_none=True)

    @cached_property
    def metrics(self) -> dict:
        """The numbers a sweep stores per run (`metrics.run_metrics`: the summary, TCP's share of the
        core, goodput by group, loss rates, percentiles, hurst_1ms, ...)."""
        from .metrics import data_packet_bytes, run_metrics

        return run_metrics(self.report, self.scenario.core_values().rate, data_packet_bytes(self.human_scenario))

    def rows(self, name: str) -> pd.DataFrame:
        """Table `name` (one of `report_tables.TABLES`) in the engine's columns, as the store writes it."""
        from .report_tables import rows

        return rows(self.report, name)

    @cached_property
    def links(self) -> pd.DataFrame:
        """One row per measured link (`core`, `core.rev`, `edge_in.3`, ...), over the
        window; arrivals, drops and loss rate per traffic class in columns
        `data_*`, `ack_*`, `udp_*`."""
        from .report_tables import links

        return links(self.report)

    @cached_property
    def flows(self) -> pd.DataFrame:
        """One row per TCP flow, indexed by flow id, over the window (`short`:
        a closed-loop user; `mean_cwnd`: window averaged over open connections).

        Per-flow statistics as ns-3's FlowMonitor gives them (its `FlowStats`
        of the flow's data packets, taken over the window, not the whole run;
        the flow's ACKs are not counted):

        - `throughput_kbps`: wire bytes (headers included) of the data packets
          sent, retransmissions and SYNs included, x 8 / window, Kb/s
          (FlowMonitor's `txBytes`); `data_packets_sent` (`txPackets`).
        - `goodput_kbps`: unique payload bytes delivered in order by the window's end, each segment for the
          share of its bits that reached the receiver inside the window, x 8 / window.
        - `lost_packets`: its data packets dropped anywhere on its route (a
          queue, a pacer), counted at the drop (`lostPackets`, drops only);
          `loss_rate` = lost_packets / data_packets_sent (None if it sent none).
        - With `[transit]` in the scenario (`--set transit={}`; off by default: it
          adds 3 % of the engine's instructions on paper-size E-base,
          docs/guide/runs.md): `transit_mean_ms`,
          `transit_p50_ms`, `transit_p95_ms`, `transit_p99_ms`, the one-way delay
          of each data packet delivered, from the transmission of that very
          packet to its last bit received (FlowMonitor's `delaySum / rxPackets`
          and `delayHistogram`); the percentiles are nearest ranks, at most
          2.1 % above the true value and never below (log-spaced bins); and
          `jitter_ms`, the mean of |d_i - d_(i-1)| over consecutive deliveries
          (`jitterSum / (rxPackets - 1)`). None for a flow that delivered
          nothing (jitter: fewer than two).
        - `mean_delay_ms` (with `[delay]`, class "data") differs from
          `transit_mean_ms`: it runs from a sequence number's first
          transmission, so a retransmission's includes the wait for it."""
        return self._table("flows")

    @cached_property
    def transfers(self) -> pd.DataFrame:
        """Short-lived transfers that started in the window and finished by its
        end: flow, start_s, bytes, fct_s (completion time) and goodput_kbps."""
        return self._table("transfers")

    @cached_property
    def progress(self) -> Optional[pd.DataFrame]:
        """Every flow's payload bytes delivered in order at each sample time
        (columns t_s, flow, bytes), when the scenario asked for `progress`."""
        return self._table("progress")

    @cached_property
    def delay(self) -> Optional[pd.DataFrame]:
        """The CDF of one-way packet delays (columns delay_ms, fraction), when the
        scenario asked for `delay`; mean and quantiles are in `report["delay"]`."""
        return self._table("delay")

    @cached_property
    def series(self) -> Optional[pd.DataFrame]:
        """The recorded time series in long form, when the scenario asked for
        `[series]`: columns time_s, entity (`flow.5`, a link's name, a pacer's
        link's name), series (`cwnd`, `ssthresh`, `srtt_ms`, `rto_ms`,
        `queue_bytes`, `queue_packets`, `drops`, `arrivals`, `backlog_packets`, `rate_mbps`)
        and value; rows in the order of time. One quantity of one entity:
        `r.series.query("entity == 'flow.0' and series == 'cwnd'")`."""
        return self._table("series")

    @cached_property
    def tmix(self) -> Optional[pd.DataFrame]:
        """Every Tmix connection, when the scenario has `[[traffic.tmix]]` clouds, in the order they started:
        cloud, id (its vector's), start_s, receipts (ADUs either end received), last_s (the last receipt),
        done_s (its data complete: NaN if not by the end), init_bytes and acc_bytes (the ADU bytes each end
        sends). The report keeps it (not a stored table: `Store.report(key)["tmix"]`)."""
        return self._table("tmix")

    @cached_property
    def burstiness(self) -> Optional[pd.DataFrame]:
        """beta(s) against the time scale in us (index), when the scenario asked
        for it (its Hurst estimate is `report["burstiness"]["hurst"]`)."""
        return self._table("burstiness")

    @cached_property
    def bin_series(self) -> Optional[pd.Series]:
        """Bytes arriving at the burstiness link per bin (`burstiness.bin`) over
        the window, indexed by the bin's start in seconds, when the scenario
        asked for it with `burstiness.series`."""
        from .report_tables import bins

        return bins(self.report, self.scenario.burstiness.bin) if self.scenario.burstiness else None

    def _table(self, name: str) -> Optional[pd.DataFrame]:
        """The view of table `name` (`report_tables.table`), the frame the store loads back for this run."""
        from .report_tables import table

        return table(self.report, name)

    def to_json(self, path: Union[str, Path]) -> None:
        """Write the report, with the scenario (human units) and wall time, as JSON (`json_text`)."""
        Path(path).write_text(self.json_text(), encoding="utf-8")

    def json_text(self) -> str:
        """The report, with the scenario (human units) and wall time, as one line of JSON."""
        return json.dumps({"scenario": self.human_scenario, "wall_s": self.wall_s, **self.report}) + "\n"

    def __repr__(self) -> str:
        s = self.summary
        return (
            f"<Result seed={self.seed} aggregate={s['aggregate_mbps']:.2f} Mb/s "
            f"loss={s['core_loss_rate']:.2%} flows={len(self.report['flows']['flow'])} "
            f"wall={self.wall_s:.2f} s>"
        )
