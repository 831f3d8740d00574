# Paper Q Table II (Sec IV-B) with Queue/QLBP: CBR of RATE_MBPS through a
# QLBP pacer at node 1 (n0 -> n1 -> n2, 15 Mb/s, 10 ms each; mu_max 10 Mb/s,
# mu_min 2 Mb/s, Q_max 10, Q_lim 1000; UDP packets of 1000 B). Prints the
# time-average pacing queue length and the mean and largest pacing delay
# over [5, 20] s:
#
#   ns qtab2.tcl RATE_MBPS     ->  "QTAB2 rate_mbps=... queue=... delay_ms=... max_delay_ms=..."
source [file join [file dirname [info script]] pacers.tcl]
lassign $argv rate
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 15Mb 10ms DropTail
$ns simplex-link $n1 $n2 15Mb 10ms QLBP
$ns simplex-link $n2 $n1 15Mb 10ms DropTail
set q [[$ns link $n1 $n2] queue]
$q set mu_max_ 10Mb
$q set mu_min_ 2Mb
$q set qmax_ 10
$q set limit_ 1000
$q set link_bw_ 15Mb
set udp [new Agent/UDP]
$udp set packetSize_ 1000
set sink [new Agent/Null]
$ns attach-agent $n0 $udp
$ns attach-agent $n2 $sink
$ns connect $udp $sink
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set rate_ ${rate}Mb
$cbr attach-agent $udp
$ns at 0 "$cbr start"
# Little's law over the window: packets held = arrivals' mean delay x rate.
$ns at 5 "$q reset-stats"
proc report {} {
    global q rate
    set k [$q set packets_]
    set d [expr {[$q set delay_sum_] / $k}]
    puts [format "QTAB2 rate_mbps=%s queue=%.2f delay_ms=%.3f max_delay_ms=%.3f" $rate \
        [expr {$k / 15.0 * $d}] [expr {1e3 * $d}] [expr {1e3 * [$q set delay_max_]}]]
    exit 0
}
$ns at 20 report
$ns run
