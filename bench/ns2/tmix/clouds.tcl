# Tmix clouds as bench/ns2/tmix's scripts build them (sourced by tmix.tcl and qtmix.tcl):
#
#   tmix_clouds NS END LOSSLESS DEBUG {INIT ACC CVEC DELAYBOX ...}
#
# For each cloud (four items: initiator node, acceptor node, vectors file, its Tmix_DelayBox node) the
# DelayBox reads the vectors for the two nodes (set-lossless when LOSSLESS) and a Tmix (IDs 7, 8, ...)
# replays them from 0 to END over one-way TCP (set-agent-type one-way: Agent/TCP/Newreno to
# Agent/TCPSink, set-pkt-size 1460), at Tmix debug level DEBUG; every other setting ns-2 2.35's default.
proc tmix_clouds {ns end lossless debug clouds} {
    set i 0
    foreach {init acc cvec box} $clouds {
        $box set-cvfile $cvec [$init id] [$acc id]
        if {$lossless} { $box set-lossless }
        set t [new Tmix]
        $t set-init $init
        $t set-acc $acc
        $t set-ID [expr 7 + $i]
        $t set-cvfile $cvec
        $t set-agent-type one-way
        $t set-TCP Newreno
        $t set-pkt-size 1460
        $t set-debug $debug
        $ns at 0.0 "$t start"
        $ns at $end "$t stop"
        incr i
    }
}
