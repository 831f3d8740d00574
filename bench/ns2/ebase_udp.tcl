# E-base with paper E Sec 5's aggregate UDP source (E-fig13, E-fig14,
# E-fig15), through any of the E-base scripts with their own arguments:
#
#   ns ebase_udp.tcl TRACE ebase.tcl|paced/ebase_host.tcl|paced/ebase_edge.tcl ARGS...
#
# As pacesim's `topology.udp` (scenarios/E-fig13.toml): a sender s-udp on
# its own link into c0 and its sink d-udp behind c1, both links 100 Mb/s
# (paper E Sec 5) with 13 ms delay (the paper gives none: pacesim's default,
# a mean access plus edge delay). The source is an Application/Traffic/Trace
# reading TRACE (flows.tcl's trace_app; bench/ns2/causes_e.py writes it:
# Poisson or fBm arrivals, sizes U[100, 300] B), started at 0. Built through
# the script's ingress_link as edge `udp`, so ebase_edge.tcl paces it as
# pacesim's edge pacer does (edge_in.udp), ebase_host.tcl does not (host
# pacing is TCP's). The core's monitor is a flow monitor by fid; the RESULT
# line adds tcp_mbps (TCP wire bytes leaving the core), udp_loss.
set udp_trace [lindex $argv 0]
set script [file join [file dirname [info script]] [lindex $argv 1]]
set argv [lrange $argv 2 end]

proc udp_host {} {
    global ns c0 c1 edge_rate udp_trace
    set s [$ns node]
    set d [$ns node]
    ingress_link $s $c0 13 udp
    $ns duplex-link $c1 $d [mbps $edge_rate] 13ms DropTail
    set app [trace_app $udp_trace]
    $app attach-agent [udp_agent $s $d]
    $ns at 0 "$app start"
}

source $script
