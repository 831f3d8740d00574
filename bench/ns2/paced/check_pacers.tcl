# Hand-computed checks of Queue/EdgePacer and Queue/QLBP (run with the ns
# built with them: `ns check_pacers.tcl`). Each case sends 1000 B UDP
# packets at given times through one pacer on a 100 Mb/s link and compares
# the pacer's packet count, delay sum and largest delay (ms) with the
# values worked out from the papers' rules (edge_pacer.cc, qlbp.cc):
#
# edge, d = 10 ms, three packets at 0: one deadline (10 ms) for 3000 B, the
#   hull's slope 3000 B / 10 ms; releases at 3.333, 6.667, 10 ms.
# edge, d = 10 ms, packets at 0 and 5 ms: rate 1000 B / 10 ms until 5 ms
#   (500 B planned), then max(500 / 5 ms, 1500 / 10 ms) = 150 B/ms: the
#   first goes at 5 + 500/150 = 8.333 ms, the second at its deadline, 15 ms.
# edge, d = 10 ms, packets at 0 and 30 ms: each alone, each held 10 ms.
# QLBP, Q_max 10, mu 1-100 Mb/s, three packets at 0 (three events): the
#   first leaves alone (q = 1 counting itself: mu = 10.9 Mb/s, gap 8000 b /
#   mu = 0.7339 ms); the second then leaves with q = 2 (20.8 Mb/s, 0.3846
#   ms): delays 0, 0.7339, 1.1186 ms.
# QLBP, Q_max 1: q >= Q_max sends at C: 0, 0.08, 0.16 ms.
# QLBP, Q_max 10, packets at 0 and 0.5 ms: the second waits for the first's
#   gap, 0.7339 ms: delay 0.2339 ms.
# QLBP, packets at 0 and 10 ms: slower than mu_min, neither is delayed.
source [file join [file dirname [info script]] pacers.tcl]

set cases {
    {edge  {delay_ 10ms}         {0 0 0}  3 20.0   10.0}
    {edge  {delay_ 10ms}         {0 0.005} 2 18.3333 10.0}
    {edge  {delay_ 10ms}         {0 0.030} 2 20.0   10.0}
    {qlbp  {qmax_ 10}            {0 0 0}  3 1.85249 1.11856}
    {qlbp  {qmax_ 1}             {0 0 0}  3 0.24   0.16}
    {qlbp  {qmax_ 10}            {0 0.0005} 2 0.23394 0.23394}
    {qlbp  {qmax_ 10}            {0 0.010} 2 0.0    0.0}
}

set ns [new Simulator]
Agent/UDP set packetSize_ 1000
set i 0
foreach c $cases {
    lassign $c kind params times n sum max
    set a [$ns node]
    set b [$ns node]
    $ns simplex-link $a $b 100Mb 1ms [expr {$kind eq "edge" ? "EdgePacer" : "QLBP"}]
    set q($i) [[$ns link $a $b] queue]
    foreach {k v} $params { $q($i) set $k $v }
    set udp [new Agent/UDP]
    set sink [new Agent/Null]
    $ns attach-agent $a $udp
    $ns attach-agent $b $sink
    $ns connect $udp $sink
    foreach t $times { $ns at $t "$udp send 1000" }
    incr i
}

proc report {} {
    global cases q
    set bad 0
    set i 0
    foreach c $cases {
        lassign $c kind params times n sum max
        set got [list [$q($i) set packets_] [expr {1e3 * [$q($i) set delay_sum_]}] [expr {1e3 * [$q($i) set delay_max_]}]]
        set ok [expr {[lindex $got 0] == $n && abs([lindex $got 1] - $sum) < 1e-3 && abs([lindex $got 2] - $max) < 1e-3}]
        if {!$ok} { incr bad }
        puts [format "%s %s %s times %s: packets %d delay sum %.5f ms max %.5f ms (expected %d %.5f %.5f)" \
            [expr {$ok ? "ok  " : "FAIL"}] $kind $params $times {*}$got $n $sum $max]
        incr i
    }
    exit [expr {$bad > 0}]
}
$ns at 1.0 report
$ns run
