# Paper Q's Tmix experiment (Sec IV-C2, Fig. 14; Q-fig16) in ns-2 2.35 with the project's QLBP
# (bench/ns2/paced/qlbp.cc; ns-2 from bench/ns2/tmix/build.sh), pacesim's q-tmix.toml:
#
#   n0 -\                     /- n1      every link 1 Gb/s, 0.1 ms, DropTail of 500 packets;
#        r0 ---- pn ------- r1           pn -> r1's queue Queue/QLBP (mu_min 11 Mb/s, mu_max 35 Mb/s,
#   n2 -/       (QLBP)        \- n3      Q_max QMAX, Q_lim 2000, C 1 Gb/s) or, QMAX 0, DropTail
#
# r0 and r1 are lossless Tmix_DelayBoxes. Cloud 0: initiators at n0, acceptors at n1, vectors
# INBOUND; cloud 1: initiators at n3, acceptors at n2, vectors OUTBOUND. One-way TCP (Tmix
# set-agent-type one-way), Agent/TCP/Newreno to Agent/TCPSink, set-pkt-size 1460. ns-2's Tmix neither
# loops nor rescales vectors: qtmix.py writes the files with pacesim's loop (`rate`) already applied.
#
#   ns qtmix.tcl INBOUND OUTBOUND END WARMUP QMAX SEED
#
# stdout: `BINS b0 b1 ...`, the bytes leaving pn's queue towards r1 (QueueMonitor bdepartures_) in
# each 5 ms bin of [WARMUP, END].
set here [file dirname [info script]]
source [file join $here .. paced pacers.tcl]
source [file join $here clouds.tcl]
foreach {inbound outbound END WARMUP QMAX SEED} $argv break
set BIN 0.005

set ns [new Simulator]
$ns use-scheduler Heap
global defaultRNG
$defaultRNG seed $SEED
Queue set limit_ 500

set n0 [$ns node]; set n2 [$ns node]
set r0 [$ns Tmix_DelayBox]; set pn [$ns node]; set r1 [$ns Tmix_DelayBox]
set n1 [$ns node]; set n3 [$ns node]
$ns duplex-link $n0 $r0 1Gb 0.1ms DropTail
$ns duplex-link $n2 $r0 1Gb 0.1ms DropTail
$ns duplex-link $r0 $pn 1Gb 0.1ms DropTail
if {$QMAX > 0} {
    $ns simplex-link $pn $r1 1Gb 0.1ms QLBP
    set q [[$ns link $pn $r1] queue]
    $q set mu_max_ 35Mb
    $q set mu_min_ 11Mb
    $q set qmax_ $QMAX
    $q set link_bw_ 1Gb
    $q set limit_ 2000
} else {
    $ns simplex-link $pn $r1 1Gb 0.1ms DropTail
}
$ns simplex-link $r1 $pn 1Gb 0.1ms DropTail
$ns duplex-link $r1 $n1 1Gb 0.1ms DropTail
$ns duplex-link $r1 $n3 1Gb 0.1ms DropTail

tmix_clouds $ns $END 1 0 [list $n0 $n1 $inbound $r0 $n3 $n2 $outbound $r1]

set qm [$ns monitor-queue $pn $r1 [open /dev/null w]]
set bins {}
set last 0
# Called at WARMUP + k BIN (each time computed afresh, no summed rounding) with k the bins closed.
proc sample {k} {
    global ns qm bins last BIN WARMUP END
    set now [$qm set bdepartures_]
    if {$k > 0} { lappend bins [expr {$now - $last}] }
    set last $now
    set next [expr {$WARMUP + ($k + 1) * $BIN}]
    if {$next <= $END + 1e-9} { $ns at $next "sample [expr {$k + 1}]" }
}
proc report {} {
    global bins
    puts "BINS $bins"
    exit 0
}
$ns at $WARMUP "sample 0"
$ns at [expr {$END + 0.001}] "report"
$ns run
