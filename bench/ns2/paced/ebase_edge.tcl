# E-base (../ebase.tcl) with the edge pacer (Queue/EdgePacer, paper E Sec
# 2.1) on the first PACED_EDGES ingress edge links E_S(e) -> C0, delay
# bound DELAY_MS (paper E Sec 3: 10 ms; Fig. 17: 3 of 10 edges paced).
#
#   ns ebase_edge.tcl DELAY_MS PACED_EDGES EDGES HOSTS_PER_EDGE BUFFER_BYTES SEED DURATION_S WARMUP_S FLOWS_CSV
#
# The paced edge's link is two simplex links: the pacer on E_S -> C0, a
# DropTail (ACKs) on C0 -> E_S, both at the edge rate (E-base: 100 Mb/s) with the edge's delay. Each
# pacer is pacer(edge_in.e), so measure.tcl prints its delays ("PACER
# name=edge_in.e ..."). The UDP host's link (../ebase_udp.tcl, e = udp) is
# paced whatever PACED_EDGES, as pacesim's edge_in.udp. Everything else is ebase.tcl's, with its RESULT line.

set here [file dirname [info script]]
lassign $argv delay_ms paced_edges
set argv [lrange $argv 2 end]
source [file join $here pacers.tcl]

proc ingress_link {es c0 delay e} {
    global ns pacer paced_edges delay_ms edge_rate
    if {$e ne "udp" && $e >= $paced_edges} {
        $ns duplex-link $es $c0 [mbps $edge_rate] ${delay}ms DropTail
        return
    }
    $ns simplex-link $es $c0 [mbps $edge_rate] ${delay}ms EdgePacer
    $ns simplex-link $c0 $es [mbps $edge_rate] ${delay}ms DropTail
    set q [[$ns link $es $c0] queue]
    $q set delay_ [expr {$delay_ms / 1000.0}]
    $q set link_bw_ [mbps $edge_rate]
    set pacer(edge_in.$e) $q
}

source [file join $here .. ebase.tcl]
