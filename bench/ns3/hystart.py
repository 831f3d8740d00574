"""One CUBIC flow in ns-3 (PyPI `ns3` 3.44) on pacesim's HyStart path (issue 37): where slow start ends.

    python hystart.py [--no-hystart]      # prints one JSON line

The path of `crates/pacesim-core/tests/hystart.rs`: h1 -> a at 100 Mb/s and 1 ms, a -> b at 50 Mb/s and 48 ms
with a 625,000 B drop-tail FIFO (one bandwidth-delay product), b -> h2 at 100 Mb/s and 1 ms; one bulk flow of
ns-3's `TcpCubic` (HyStart on, its default, or off) set up as `dumbbell.py`'s "cubic" (SACK with PRR, 1000 B
segments, every segment ACKed, initial window 2, no timestamps, no limited transmit, 64 MB socket buffers), from
0 for 6 s. Prints the flow's first ssthresh below its
initial one (time, segments), its largest cwnd (segments), the first core drop's time and the core's drops.
"""

import json
import sys

import cppyy
from dumbbell import _tcp_defaults
from ns import ns

cppyy.cppdef("""
#include <utility>
#include <vector>
namespace hystart_ref {
std::vector<std::pair<double, double>> ssthresh, cwnd;
std::vector<double> drops;
void OnSsthresh(uint32_t, uint32_t v) { ssthresh.emplace_back(ns3::Simulator::Now().GetSeconds(), v / 1000.0); }
void OnCwnd(uint32_t, uint32_t v) { cwnd.emplace_back(ns3::Simulator::Now().GetSeconds(), v / 1000.0); }
void OnDrop(ns3::Ptr<const ns3::QueueDiscItem>) { drops.push_back(ns3::Simulator::Now().GetSeconds()); }
ns3::Callback<void, uint32_t, uint32_t> Ssthresh() { return ns3::MakeCallback(&OnSsthresh); }
ns3::Callback<void, uint32_t, uint32_t> Cwnd() { return ns3::MakeCallback(&OnCwnd); }
ns3::Callback<void, ns3::Ptr<const ns3::QueueDiscItem>> Drop() { return ns3::MakeCallback(&OnDrop); }
}
""")
ref = cppyy.gbl.hystart_ref


def main(hystart: bool) -> dict:
    _tcp_defaults("cubic")
    ns.Config.SetDefault("ns3::TcpCubic::HyStart", ns.StringValue("true" if hystart else "false"))
    nodes = ns.NodeContainer()
    nodes.Create(4)
    ns.InternetStackHelper().Install(nodes)

    def link(i, rate, delay, queue):
        p2p = ns.PointToPointHelper()
        p2p.SetDeviceAttribute("DataRate", ns.StringValue(rate))
        p2p.SetChannelAttribute("Delay", ns.StringValue(delay))
        p2p.SetQueue("ns3::DropTailQueue", "MaxSize", ns.StringValue(queue))
        return p2p.Install(nodes.Get(i), nodes.Get(i + 1))

    devices = [link(0, "100Mbps", "1ms", "100000p"), link(1, "50Mbps", "48ms", "1p"), link(2, "100Mbps", "1ms", "100000p")]
    tch = ns.TrafficControlHelper()
    tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", ns.StringValue("625000B"))
    disc = tch.Install(devices[1].Get(0)).Get(0)
    address = ns.Ipv4AddressHelper()
    sink_address = None
    for i, d in enumerate(devices):
        address.SetBase(ns.Ipv4Address(f"10.0.{i}.0"), ns.Ipv4Mask("255.255.255.0"))
        sink_address = address.Assign(d).GetAddress(1)
    for d in (devices[0], devices[2]):
        ns.TrafficControlHelper().Uninstall(d)
    ns.TrafficControlHelper().Uninstall(devices[1].Get(1))
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
    sink = ns.PacketSinkHelper("ns3::TcpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 9000).ConvertTo())
    sink.Install(nodes.Get(3)).Start(ns.Seconds(0))
    bulk = ns.BulkSendHelper("ns3::TcpSocketFactory", ns.InetSocketAddress(sink_address, 9000).ConvertTo())
    bulk.SetAttribute("MaxBytes", ns.UintegerValue(0))
    bulk.SetAttribute("SendSize", ns.UintegerValue(1000))
    bulk.Install(nodes.Get(0)).Start(ns.Seconds(0))
    disc.TraceConnectWithoutContext("Drop", ref.Drop())
    # The sender's socket exists once the application starts: connect its traces then.
    ns.Simulator.Stop(ns.Seconds(0.001))
    ns.Simulator.Run()
    path = "/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/"
    ns.Config.ConnectWithoutContext(path + "SlowStartThreshold", ref.Ssthresh())
    ns.Config.ConnectWithoutContext(path + "CongestionWindow", ref.Cwnd())
    ns.Simulator.Stop(ns.Seconds(6 - 0.001))
    ns.Simulator.Run()
    ns.Simulator.Destroy()
    first = next(((t, v) for t, v in ref.ssthresh if v < 1e6), None)
    return {"hystart": hystart, "first_ssthresh": first, "peak_cwnd": max(v for _, v in ref.cwnd),
            "first_drop_s": ref.drops[0] if ref.drops.size() else None, "drops": ref.drops.size()}


if __name__ == "__main__":
    print(json.dumps(main("--no-hystart" not in sys.argv[1:])), flush=True)
