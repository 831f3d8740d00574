"""A dumbbell in ns-3 (PyPI `ns3` 3.44): the reference pacesim's queue disciplines are checked against (issue 37).

    python dumbbell.py JSON          # one run; JSON: the settings below, as an object; prints one JSON line

The network is pacesim's E-base shape with one edge (`scenarios/e-base.toml`, `edges = 1`): `flows` senders,
each on its own access link into an edge router `es`, one edge link into the core router `c0`, the core link
`c0 -> c1`, and the mirror image to the sinks. Every rate and delay is fixed (no draws), so both simulators
build the same links. Only the core queue can drop: its queue disc (`queue`: droptail as a byte FIFO, codel,
fq_codel, pie) holds the backlog over a device queue of one packet; every other device queue is large.

TCP is ns-3's NewReno congestion control, set as close to pacesim's as ns-3 allows: 1000 B segments, every
segment ACKed (no delayed ACKs), initial window 2, no timestamps (so 40 B of TCP/IP headers), limited
transmit off (pacesim and ns-2 2.35 have it, `singledup_`; in 3.44 it acts only without SACK, and there it
loses more and sends data twice: bench/ns3/README.md, "NewReno without SACK"; `ltx10` turns it on), minimum
RTO 200 ms, buffers large enough never to limit a window (64 MB each way, window scaling on by ns-3's default:
no flow stalls near 64 KB). Its loss recovery is the run's
`tcp` reading (`RECOVERY`): "sack", SACK with ns-3's default proportional rate reduction, beside pacesim's
`sack` (ns-2's Sack1); "newreno", no SACK and ns-3's classic (RFC 6582) recovery, beside pacesim's `newreno`;
"bbr", ns-3's `TcpBbr` (BBR v1) with SACK and pacing on, beside pacesim's `bbr`; "dctcp", ns-3's `TcpDctcp`
(ECN on, ECT(0), g 1/16, alpha from 1) with the classic recovery, beside pacesim's `dctcp` (NewReno's); "cubic",
ns-3's `TcpCubic` (HyStart on, its default) with SACK, unpaced, and "cubic-paced", the same paced at Linux's rate
(2x / 1.2x cwnd per srtt), beside pacesim's `cubic` unpaced and host-paced at `host_mode = "rate"`.
The queue `mark` is DCTCP's switch: ns-3's RED in step mode (both thresholds K - 1 packets, the newest
sample's weight 1, ECN on, no hard drop above the threshold), beside pacesim's drop-tail with
`core.droptail.mark_packets = K` (the settings' `mark_packets`): in both an ECN-capable arrival that finds
at least K packets waiting, the one on the wire not counted, is marked CE. RED counts only its own backlog,
and the core device's queue of one packet holds one more whenever RED holds any (in 47,984 of 47,995
arrivals of dctcp10 at 60 KB, seed 1): so RED's K - 1 is K waiting, and its limit is the buffer's whole
1040 B packets less that one.
A setup's `ns3_defaults` ({attribute path: value}) are set after the TCP's; its SocketType may name one of
VARIANTS, an ns-3 congestion control with one rule changed (compiled through cppyy on first use), to measure
what that rule does: TcpNewReno halving cwnd at a loss, TcpBbr without its ACK-aggregation allowance, or with
the allowance computed as Linux computes it, TcpCubic raising W_est as RFC 9438 asks. A setup's `ns3_hooks` name
HOOKS, C++ connected to each sender's socket once every flow has started, for rules of TcpSocketBase itself
(NewReno without SACK counting the three duplicate ACKs before a fast retransmit) or to count its congestion
states (fast recoveries and timeouts, then in the run's line).
What stays ns-3's own: byte-counted windows, its RTO estimator's 1 ms clock (ns-2's tick is 10 ms), PPP's
2 B of framing on every link, and the three-way handshake.

Measured over [warmup, duration] s, as pacesim measures: the core queue's bytes sent (Mb/s, IP bytes), its
drops over its arrivals, and each sink's bytes received (goodput, Kb/s, the mean over flows, and Jain's fairness
index of the flows' goodputs, (sum x)^2 / (n sum x^2)).
"""

import json
import random
import sys

from ns import ns

QUEUES = {
    # pacesim's [core.codel], [core.fq_codel], [core.pie] defaults (RFC 8289, 8290, 8033; Linux's), as ns-3
    # attributes; each disc's byte limit is the core buffer.
    "droptail": ("ns3::FifoQueueDisc", {}),
    "codel": ("ns3::CoDelQueueDisc", {"Target": "5ms", "Interval": "100ms", "MinBytes": "1514"}),
    "fq_codel": ("ns3::FqCoDelQueueDisc", {"Target": "5ms", "Interval": "100ms", "Flows": "1024",
                                           "DropBatchSize": "64", "UseEcn": "false"}),
    # DCTCP's step marking: MinTh = MaxTh (packets) set per run from `mark_packets`.
    "mark": ("ns3::RedQueueDisc", {"QW": "1", "UseEcn": "true", "UseHardDrop": "false", "Gentle": "false",
                                   "MeanPktSize": "1040"}),
    "pie": ("ns3::PieQueueDisc", {"QueueDelayReference": "15ms", "Tupdate": "15ms", "A": "0.125", "B": "1.25",
                                  "MaxBurstAllowance": "150ms", "DequeueThreshold": "16384",
                                  "UseDequeueRateEstimator": "false"}),
}


RECOVERY = {
    "sack": {"ns3::TcpSocketBase::Sack": "true", "ns3::TcpL4Protocol::RecoveryType": "ns3::TcpPrrRecovery"},
    "newreno": {"ns3::TcpSocketBase::Sack": "false", "ns3::TcpL4Protocol::RecoveryType": "ns3::TcpClassicRecovery"},
    # BBR sets cwnd and the pacing rate on every ACK (its CongControl), over SACK; ns-3 paces only with
    # pacing enabled, and BBR's rate applies to the initial window too, as Linux's does.
    "bbr": {"ns3::TcpSocketBase::Sack": "true", "ns3::TcpL4Protocol::RecoveryType": "ns3::TcpPrrRecovery",
            "ns3::TcpSocketState::EnablePacing": "true", "ns3::TcpSocketState::PaceInitialWindow": "true"},
    # DCTCP needs ECN; TcpDctcp sets its own ECN mode and codepoint.
    "dctcp": {"ns3::TcpSocketBase::Sack": "false", "ns3::TcpL4Protocol::RecoveryType": "ns3::TcpClassicRecovery",
              "ns3::TcpSocketBase::UseEcn": "On"},
    # CUBIC with SACK, unpaced, beside pacesim's `cubic` (Sack1's recovery); TcpCubic's defaults are Linux's
    # (C 0.4, beta 0.7, fast convergence, TCP friendliness, HyStart with both detections from 16 segments).
    "cubic": {"ns3::TcpSocketBase::Sack": "true", "ns3::TcpL4Protocol::RecoveryType": "ns3::TcpPrrRecovery"},
    # The same, paced as Linux paces (tcp_update_pacing_rate): 2 x max(cwnd, in flight) / srtt while cwnd <
    # ssthresh / 2, 1.2 x after; the initial window unpaced (Linux has no RTT for it), beside pacesim's
    # `pacing.host_mode = "rate"` (X-transports' "CUBIC, Linux-paced").
    "cubic-paced": {"ns3::TcpSocketBase::Sack": "true", "ns3::TcpL4Protocol::RecoveryType": "ns3::TcpPrrRecovery",
                    "ns3::TcpSocketState::EnablePacing": "true", "ns3::TcpSocketState::PaceInitialWindow": "false",
                    "ns3::TcpSocketState::PacingSsRatio": "200", "ns3::TcpSocketState::PacingCaRatio": "120"},
}
# The congestion control of each reading: NewReno's window for the two recoveries, or BBR v1.
CONGESTION = {"sack": "ns3::TcpNewReno", "newreno": "ns3::TcpNewReno", "bbr": "ns3::TcpBbr", "dctcp": "ns3::TcpDctcp",
              "cubic": "ns3::TcpCubic", "cubic-paced": "ns3::TcpCubic"}


# Congestion controls that differ from ns-3 3.44's own in one rule each, to measure what that rule does
# (bench/ns3/README.md): a setup names one as its `ns3::TcpL4Protocol::SocketType` in `ns3_defaults`, and the
# class is compiled (cppyy) before the first run uses it. Each is the ns-3 class (`parent`) with the C++ `body`
# added, after `init` in its constructors, and what its body needs (`needs`, a key of PRELUDES) compiled first.
PRELUDES = {
    # TcpBbr's state is private and mostly without attributes: reached through explicit instantiations of a
    # template on pointers to its members, which access control does not check. BBR(m_x) is this TcpBbr's m_x.
    "bbr": r"""
        template <typename Tag, typename Tag::type M> struct BbrState {
            friend typename Tag::type state(Tag) { return M; }
        };
        #define BBR_STATE(NAME, TYPE) \
            struct Bbr_##NAME { typedef TYPE TcpBbr::*type; friend type state(Bbr_##NAME); }; \
            template struct BbrState<Bbr_##NAME, &TcpBbr::NAME>;
        typedef uint32_t ExtraAcked[2];
        BBR_STATE(m_delivered, uint64_t)
        BBR_STATE(m_roundStart, bool)
        BBR_STATE(m_extraAckedGain, uint32_t)
        BBR_STATE(m_extraAckedWinRtt, uint32_t)
        BBR_STATE(m_extraAckedWinRttLength, uint32_t)
        BBR_STATE(m_extraAckedIdx, uint32_t)
        BBR_STATE(m_ackEpochTime, Time)
        BBR_STATE(m_ackEpochAcked, uint32_t)
        BBR_STATE(m_maxBwFilter, TcpBbr::MaxBandwidthFilter_t)
        BBR_STATE(m_extraAcked, ExtraAcked)
        #define BBR(NAME) (this->*state(Bbr_##NAME()))""",
    # TcpCubic's private state, reached the same way: CUBIC(m_x) is this TcpCubic's m_x.
    "cubic": r"""
        template <typename Tag, typename Tag::type M> struct CubicState {
            friend typename Tag::type state(Tag) { return M; }
        };
        #define CUBIC_STATE(NAME, TYPE) \
            struct Cubic_##NAME { typedef TYPE TcpCubic::*type; friend type state(Cubic_##NAME); }; \
            template struct CubicState<Cubic_##NAME, &TcpCubic::NAME>;
        CUBIC_STATE(m_beta, double)
        CUBIC_STATE(m_epochStart, Time)
        CUBIC_STATE(m_tcpCwnd, uint32_t)
        #define CUBIC(NAME) (this->*state(Cubic_##NAME()))""",
}
VARIANTS = {
    # TcpNewReno with Linux's and RFC 5681's ssthresh on a loss, half the window (Linux `tcp_reno_ssthresh`:
    # max(snd_cwnd >> 1, 2); RFC 5681 Eq 4: FlightSize / 2, FlightSize the data sent and not cumulatively
    # ACKed), where 3.44's `TcpNewReno::GetSsThresh` halves `BytesInFlight()`, RFC 6675's pipe, which leaves out
    # what is SACKed and the head just marked lost (`TcpSocketBase::EnterRecovery`).
    "ns3::TcpNewRenoHalfCwnd": dict(parent="TcpNewReno", body=r"""
            uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t) override {
                return std::max<uint32_t>(2 * tcb->m_segmentSize, tcb->m_cWnd.Get() / 2);
            }"""),
    # TcpBbr without its ACK-aggregation allowance (`TcpBbr::AckAggregationCwnd`, Linux 5.1's
    # `bbr_ack_aggregation_cwnd`), which 3.44 measures over an epoch whose length it truncates to whole seconds
    # (`UpdateAckAggregation`: `uint32_t epochProp`), so expecting nothing delivered and counting every byte of
    # an epoch (reset at `AckEpochAckedResetThresh`, 4096 B) as extra: cwnd's target is 4 segments of 1000 B
    # above Linux's. Its gain has no attribute.
    "ns3::TcpBbrNoAggregation": dict(parent="TcpBbr", needs="bbr", init="BBR(m_extraAckedGain) = 0;", body=""),
    # TcpBbr with its ACK-aggregation allowance measured as Linux 5.1+ measures it (`bbr_update_ack_aggregation`):
    # the epoch's expected delivery is BtlBw times the epoch's length in full, an ACK with no delivery interval
    # does not count, and the epoch restarts after 2^20 packets (here segments of the run's size), not 4096 B.
    # The rest of `TcpBbr::CongControl` is 3.44's own, step by step (`UpdateModelAndState` with this update in
    # place of `UpdateAckAggregation`, then `UpdateControlParameters`).
    "ns3::TcpBbrLinuxAggregation": dict(parent="TcpBbr", needs="bbr", body=r"""
            void CongControl(Ptr<TcpSocketState> tcb, const TcpRateOps::TcpRateConnection& rc,
                             const TcpRateOps::TcpRateSample& rs) override {
                BBR(m_delivered) = rc.m_delivered;
                UpdateBottleneckBandwidth(tcb, rs);
                LinuxAckAggregation(tcb, rs);
                CheckCyclePhase(tcb, rs);
                CheckFullPipe(rs);
                CheckDrain(tcb);
                UpdateRTprop(tcb);
                CheckProbeRTT(tcb, rs);
                UpdateControlParameters(tcb, rs);
            }
            void LinuxAckAggregation(Ptr<TcpSocketState> tcb, const TcpRateOps::TcpRateSample& rs) {
                if (!BBR(m_extraAckedGain) || rs.m_ackedSacked <= 0 || rs.m_delivered < 0 ||
                    !rs.m_interval.IsStrictlyPositive()) {
                    return;
                }
                if (BBR(m_roundStart)) {
                    BBR(m_extraAckedWinRtt) = std::min<uint32_t>(31, BBR(m_extraAckedWinRtt) + 1);
                    if (BBR(m_extraAckedWinRtt) >= BBR(m_extraAckedWinRttLength)) {
                        BBR(m_extraAckedWinRtt) = 0;
                        BBR(m_extraAckedIdx) = BBR(m_extraAckedIdx) ? 0 : 1;
                        BBR(m_extraAcked)[BBR(m_extraAckedIdx)] = 0;
                    }
                }
                double epoch = (Simulator::Now() - BBR(m_ackEpochTime)).GetSeconds();
                double expected = BBR(m_maxBwFilter).GetBest().GetBitRate() * epoch / 8;
                uint64_t reset = (uint64_t{1} << 20) * tcb->m_segmentSize;
                if (BBR(m_ackEpochAcked) <= expected ||
                    uint64_t{BBR(m_ackEpochAcked)} + rs.m_ackedSacked >= reset) {
                    BBR(m_ackEpochAcked) = 0;
                    BBR(m_ackEpochTime) = Simulator::Now();
                    expected = 0;
                }
                BBR(m_ackEpochAcked) += rs.m_ackedSacked;
                uint32_t extra = static_cast<uint32_t>(BBR(m_ackEpochAcked) - expected);
                extra = std::min(extra, tcb->m_cWnd.Get());
                if (extra > BBR(m_extraAcked)[BBR(m_extraAckedIdx)]) {
                    BBR(m_extraAcked)[BBR(m_extraAckedIdx)] = extra;
                }
            }"""),
    # TcpCubic with RFC 9438 Sec 4.3's Reno-friendly rate: "Once W_est has grown to reach the cwnd at the time
    # of most recently setting ssthresh -- that is, W_est >= cwnd_prior -- the sender SHOULD set alpha_cubic to
    # 1", where 3.44 (as Linux's `tcp_cubic.c`) keeps 3 (1 - beta) / (1 + beta), 0.53, throughout. TcpCubic's
    # W_est is `m_tcpCwnd` (segments, from the epoch's window), raised by one every `(cwnd * scale) >> 3` ACKs
    # with scale 8 (1 + beta) / 3 / (1 - beta), 15 at beta 0.7; at beta 0.5 scale is 8, one segment every cwnd
    # ACKs: alpha 1. So beta reads 0.5 while `TcpCubic::IncreaseWindow` runs once W_est has reached cwnd_prior
    # (the window in segments when ssthresh was last set, `GetSsThresh`), and 0.7 otherwise; the cut and
    # W_max are 3.44's own.
    "ns3::TcpCubicRfcAlpha": dict(parent="TcpCubic", needs="cubic", body=r"""
            uint32_t m_cwndPrior = 0;
            uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override {
                m_cwndPrior = tcb->GetCwndInSegments();
                return TcpCubic::GetSsThresh(tcb, bytesInFlight);
            }
            void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override {
                double beta = CUBIC(m_beta);
                if (CUBIC(m_epochStart) != Time::Min() && CUBIC(m_tcpCwnd) >= m_cwndPrior) {
                    CUBIC(m_beta) = 0.5;
                }
                TcpCubic::IncreaseWindow(tcb, segmentsAcked);
                CUBIC(m_beta) = beta;
            }"""),
}

_PRELUDES_COMPILED = set()

# Hooks on each sender's socket, set by a setup's `ns3_hooks` (names of HOOKS), for rules of TcpSocketBase itself,
# which no attribute or congestion control reaches. Each is C++ compiled (cppyy) on first use; `Hook<Name>(socket)`
# connects it once the socket exists (every flow's start, before the warm-up ends).
HOOKS = {
    # Without SACK, 3.44 counts a duplicate ACK as a segment that left the network by marking one more segment
    # SACKed (`TcpTxBuffer::AddRenoSack`, its "SACK emulation"), which its pipe (`BytesInFlight`: sent, less
    # SACKed and lost, plus retransmitted) then leaves out; but of the DupThresh (3) duplicate ACKs that lead to a
    # fast retransmit it marks only the last (`TcpSocketBase::EnterRecovery`), the first two only under limited
    # transmit (`DupAck` in CA_DISORDER: `if (!m_sackEnabled && m_limitedTx)`). RFC 5681 Sec 3.2 step 4 (and RFC
    # 6582's NewReno over it) inflates cwnd by all three (ssthresh + 3 SMSS, "the number of segments that have
    # left the network and which the receiver has buffered"); RFC 6675's pipe leaves out all three SACKed
    # segments. `RenoDupThresh` marks the other DupThresh - 1 when the socket enters CA_RECOVERY (its CongState
    # trace fires at `m_tcb->m_congState = CA_RECOVERY`, before the cut and before the first transmission), so
    # that the pipe counts the three as gone, and changes nothing else (no segment is sent on the first two).
    "RenoDupThresh": r"""
        void RenoDupThreshOnState(TcpSocketBase* s, TcpSocketState::TcpCongState_t,
                                  TcpSocketState::TcpCongState_t now) {
            if (now == TcpSocketState::CA_RECOVERY && !s->GetTxBuffer()->IsSackEnabled()) {
                UintegerValue thresh;
                s->GetAttribute("ReTxThreshold", thresh);
                for (uint64_t i = 1; i < thresh.Get(); ++i) {
                    s->GetTxBuffer()->AddRenoSack();
                }
            }
        }
        void HookRenoDupThresh(Ptr<Socket> socket) {
            Ptr<TcpSocketBase> s = DynamicCast<TcpSocketBase>(socket);
            s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&RenoDupThreshOnState, PeekPointer(s)));
        }""",
    # Counts, over every sender, the entries into fast recovery (CA_RECOVERY) and into loss recovery after a
    # timeout (CA_LOSS), which `run` reports over the window as `fast_recoveries` and `timeouts`.
    "CountStates": r"""
        uint64_t g_countStates[2] = {0, 0};
        void CountStatesOnState(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now) {
            g_countStates[0] += now == TcpSocketState::CA_RECOVERY;
            g_countStates[1] += now == TcpSocketState::CA_LOSS;
        }
        void HookCountStates(Ptr<Socket> socket) {
            socket->TraceConnectWithoutContext("CongState", MakeCallback(&CountStatesOnState));
        }""",
}


def _hook(name: str):
    """The C++ function that connects hook `name` of HOOKS to a socket (compiled once a process)."""
    import cppyy

    if not hasattr(ns, f"Hook{name}"):
        cppyy.cppdef(f"namespace ns3 {{\n{HOOKS[name]}\n}}")
    return getattr(ns, f"Hook{name}")


def _variant(name: str) -> None:
    """Compile and register congestion control `name` of VARIANTS (once a process)."""
    import cppyy

    short = name.removeprefix("ns3::")
    if not hasattr(ns, short):
        v = VARIANTS[name]
        parent, init = v["parent"], v.get("init", "")
        if "needs" in v and v["needs"] not in _PRELUDES_COMPILED:
            cppyy.cppdef(f"namespace ns3 {{\n{PRELUDES[v['needs']]}\n}}")
            _PRELUDES_COMPILED.add(v["needs"])
        cppyy.cppdef(f"""namespace ns3 {{
            class {short} : public {parent} {{
              public:
                static TypeId GetTypeId() {{
                    static TypeId tid = TypeId("{name}").SetParent<{parent}>().SetGroupName("Internet")
                        .AddConstructor<{short}>();
                    return tid;
                }}
                {short}() : {parent}() {{ {init} }}
                {short}(const {short}& s) : {parent}(s) {{ {init} }}
                std::string GetName() const override {{ return "{short}"; }}
                Ptr<TcpCongestionOps> Fork() override {{ return CopyObject<{short}>(this); }}
                {v["body"]}
            }};
        }}""")
    getattr(ns, short).GetTypeId()


def _tcp_defaults(tcp: str) -> None:
    def set_default(name: str, value: str) -> None:
        ns.Config.SetDefault(name, ns.StringValue(value))

    set_default("ns3::TcpL4Protocol::SocketType", CONGESTION[tcp])
    for name, value in RECOVERY[tcp].items():
        set_default(name, value)
    set_default("ns3::TcpSocket::SegmentSize", "1000")
    set_default("ns3::TcpSocket::DelAckCount", "1")
    set_default("ns3::TcpSocket::InitialCwnd", "2")
    set_default("ns3::TcpSocket::SndBufSize", str(1 << 26))
    set_default("ns3::TcpSocket::RcvBufSize", str(1 << 26))
    set_default("ns3::TcpSocketBase::Timestamp", "false")
    set_default("ns3::TcpSocketBase::LimitedTransmit", "false")
    set_default("ns3::TcpSocketBase::MinRto", "200ms")


def _link(a, b, rate: str, delay: str, device_queue: str):
    p2p = ns.PointToPointHelper()
    p2p.SetDeviceAttribute("DataRate", ns.StringValue(rate))
    p2p.SetChannelAttribute("Delay", ns.StringValue(delay))
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", ns.StringValue(device_queue))
    return p2p.Install(a, b)


def run(s: dict) -> dict:
    """One run of settings `s` (flows, access_rate, access_delay, edge_rate, edge_delay, core_rate, core_delay,
    buffer_bytes, queue, tcp, seed, duration_s, warmup_s, start_s; optionally ns3_defaults, {attribute path:
    value}): the window's numbers."""
    ns.RngSeedManager.SetSeed(1)
    ns.RngSeedManager.SetRun(s["seed"])
    _tcp_defaults(s["tcp"])
    # A setup's own ns-3 defaults, after the TCP's (which they may replace): cubic10's Linux RTO floor and recovery.
    for name, value in s.get("ns3_defaults", {}).items():
        if value in VARIANTS:
            _variant(value)
        ns.Config.SetDefault(name, ns.StringValue(value))
    n = s["flows"]
    senders, sinks, routers = ns.NodeContainer(), ns.NodeContainer(), ns.NodeContainer()
    senders.Create(n)
    sinks.Create(n)
    routers.Create(4)  # es, c0, c1, ed
    stack = ns.InternetStackHelper()
    for c in (senders, sinks, routers):
        stack.Install(c)
    es, c0, c1, ed = (routers.Get(i) for i in range(4))
    big = "100000p"
    pairs = [(es, c0, s["edge_rate"], s["edge_delay"], big), (c1, ed, s["edge_rate"], s["edge_delay"], big)]
    # An access delay given as [low, high] (ms strings) is drawn per link, uniformly, senders' links first: the
    # slightly unequal delays that keep equal flows from tying (bench/ns2/TIES.md).
    delays = random.Random(f"access delays {s['seed']}")

    def access_delay() -> str:
        d = s["access_delay"]
        return d if isinstance(d, str) else f"{delays.uniform(*(float(x.removesuffix('ms')) for x in d)):.6f}ms"

    pairs += [(senders.Get(i), es, s["access_rate"], access_delay(), big) for i in range(n)]
    pairs += [(ed, sinks.Get(i), s["access_rate"], access_delay(), big) for i in range(n)]
    core = _link(c0, c1, s["core_rate"], s["core_delay"], "1p")
    devices = [core] + [_link(*p) for p in pairs]
    # Only the core's forward device gets a queue disc; Ipv4AddressHelper would put FQ-CoDel on every device.
    kind, attrs = QUEUES[s["queue"]]
    tch = ns.TrafficControlHelper()
    # ns-3's FQ-CoDel counts its limit in packets only, and RED its thresholds in its limit's unit: the core
    # buffer in whole 1040 B data packets, K in packets; for `mark`, and for FQ-CoDel where the setup says
    # `device_packet` (buffers of a few packets, aqm100), both less the device queue's one packet, which holds
    # one more whenever the disc holds any.
    device = 1 if s["queue"] == "mark" or (s["queue"] == "fq_codel" and s.get("device_packet")) else 0
    in_packets = s["queue"] in ("fq_codel", "mark")
    limit = f"{s['buffer_bytes'] // 1040 - device}p" if in_packets else f"{s['buffer_bytes']}B"
    tch.SetRootQueueDisc(kind, "MaxSize", ns.StringValue(limit))
    discs = tch.Install(core.Get(0))
    disc = discs.Get(0)
    if s["queue"] == "mark":
        k = str(s["mark_packets"] - device)
        attrs = dict(attrs, MinTh=k, MaxTh=k, LinkBandwidth=s["core_rate"], LinkDelay=s["core_delay"])
    for name, value in attrs.items():
        disc.SetAttribute(name, ns.StringValue(value))
    address = ns.Ipv4AddressHelper()
    sink_addresses = []
    for i, d in enumerate(devices):
        address.SetBase(ns.Ipv4Address(f"10.{i // 250}.{i % 250}.0"), ns.Ipv4Mask("255.255.255.0"))
        interfaces = address.Assign(d)
        if i >= 3 + n:  # the sinks' access links (after the core, two edge links and n senders' links)
            sink_addresses.append(interfaces.GetAddress(1))
    ns.TrafficControlHelper().Uninstall(core.Get(1))
    for d in devices[1:]:
        ns.TrafficControlHelper().Uninstall(d)
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()

    draw = random.Random(s["seed"])
    port = 9000
    sink_apps, sender_apps = [], []
    for i in range(n):
        helper = ns.PacketSinkHelper("ns3::TcpSocketFactory",
                                     ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo())
        app = helper.Install(sinks.Get(i))
        app.Start(ns.Seconds(0))
        sink_apps.append(app.Get(0))
        bulk = ns.BulkSendHelper("ns3::TcpSocketFactory",
                                 ns.InetSocketAddress(sink_addresses[i], port).ConvertTo())
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(0))
        bulk.SetAttribute("SendSize", ns.UintegerValue(1000))
        sender = bulk.Install(senders.Get(i))
        sender.Start(ns.Seconds(draw.uniform(*s["start_s"])))
        sender_apps.append(sender.Get(0))

    def counters():
        st = disc.GetStats()
        received = [ns.DynamicCast[ns.PacketSink](a).GetTotalRx() for a in sink_apps]
        marks = st.nTotalMarkedPackets
        states = tuple(ns.g_countStates) if "CountStates" in s.get("ns3_hooks", ()) else (0, 0)
        return st.nTotalReceivedPackets, st.nTotalDroppedPackets, st.nTotalSentBytes, received, (marks, *states)

    hooks = [_hook(h) for h in s.get("ns3_hooks", ())]
    hooked_at = s["start_s"][1] + 0.001 if hooks else 0.0  # every sender's socket exists by then
    if hooks:
        ns.Simulator.Stop(ns.Seconds(hooked_at))
        ns.Simulator.Run()
        for app in sender_apps:
            socket = ns.DynamicCast[ns.BulkSendApplication](app).GetSocket()
            for hook in hooks:
                hook(socket)
    ns.Simulator.Stop(ns.Seconds(s["warmup_s"] - hooked_at))
    ns.Simulator.Run()
    a0, d0, b0, r0, m0 = counters()
    ns.Simulator.Stop(ns.Seconds(s["duration_s"] - s["warmup_s"]))
    ns.Simulator.Run()
    a1, d1, b1, r1, m1 = counters()
    ns.Simulator.Destroy()
    window = s["duration_s"] - s["warmup_s"]
    goodput = [(y - x) * 8 / window / 1e3 for x, y in zip(r0, r1)]
    square = sum(g * g for g in goodput)
    marks, fast_recoveries, timeouts = (y - x for x, y in zip(m0, m1))
    counting = "CountStates" in s.get("ns3_hooks", ())
    counted = dict(fast_recoveries=fast_recoveries, timeouts=timeouts) if counting else {}
    return dict(s, aggregate_mbps=(b1 - b0) * 8 / window / 1e6, goodput_kbps_mean=sum(goodput) / n,
                goodput_jain=sum(goodput) ** 2 / (n * square) if square else None,
                core_loss_rate=(d1 - d0) / (a1 - a0) if a1 > a0 else 0.0, core_arrivals=a1 - a0, core_drops=d1 - d0,
                core_marks=marks, **counted)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print(json.dumps(run(json.loads(sys.argv[1]))), flush=True)
