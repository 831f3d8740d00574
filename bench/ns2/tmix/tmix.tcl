# ns-2 Tmix on the topology of ns-2's own Tmix test suite (tcl/test/test-suite-tmix.tcl):
#
#   s1 -\                 /- k1        every link 100 Mb/s, 1 ms, DropTail of 50 packets
#        r1 ------------ r2            (ns-2's default queue limit)
#   s2 -/                 \- k2
#
# Cloud 0 (the "inbound" one): initiators at s1, acceptors at k1, its DelayBox at r1; cloud 1:
# initiators at k2, acceptors at s2, its DelayBox at r2; both replay the vectors file CVEC (the test
# suite's INBOUND = OUTBOUND). One-way TCP agents (Tmix set-agent-type one-way), Agent/TCP/Newreno to
# Agent/TCPSink, set-pkt-size 1460; every other setting ns-2 2.35's default. LOSSLESS 1 makes both
# DelayBoxes set-lossless. Packet headers are left as ns-2 makes them: with
# remove-all-packet-headers, as the test suite does, Debian's ns-2 2.35 sends one-way Tmix packets of
# 0 and 16777256 bytes.
#
#   ns tmix.tcl CVEC END WARMUP LOSSLESS SEED 2> debug.txt
#
# stdout: `LINK name bytes_departed` for r1->r2 and r2->r1 over [WARMUP, END] (QueueMonitor bdepartures_).
# stderr: Tmix's debug level 4, whose "recv ADU" lines give every ADU's arrival (compare.py reads them).
set cvec [lindex $argv 0]
set END [lindex $argv 1]
set WARMUP [lindex $argv 2]
set LOSSLESS [lindex $argv 3]
set SEED [lindex $argv 4]
source [file join [file dirname [info script]] clouds.tcl]

set ns [new Simulator]
$ns use-scheduler Heap
global defaultRNG
$defaultRNG seed $SEED

set s1 [$ns node]; set s2 [$ns node]
set r1 [$ns Tmix_DelayBox]; set r2 [$ns Tmix_DelayBox]
set k1 [$ns node]; set k2 [$ns node]
$ns duplex-link $s1 $r1 100Mb 1ms DropTail
$ns duplex-link $s2 $r1 100Mb 1ms DropTail
$ns duplex-link $r1 $r2 100Mb 1ms DropTail
$ns duplex-link $k1 $r2 100Mb 1ms DropTail
$ns duplex-link $k2 $r2 100Mb 1ms DropTail

tmix_clouds $ns $END $LOSSLESS 4 [list $s1 $k1 $cvec $r1 $k2 $s2 $cvec $r2]

set q(r1-r2) [$ns monitor-queue $r1 $r2 [open /dev/null w]]
set q(r2-r1) [$ns monitor-queue $r2 $r1 [open /dev/null w]]
proc mark {} {
    global q start
    foreach l [array names q] { set start($l) [$q($l) set bdepartures_] }
}
proc report {} {
    global q start
    foreach l [lsort [array names q]] {
        puts "LINK $l [expr [$q($l) set bdepartures_] - $start($l)]"
    }
    exit 0
}
$ns at $WARMUP "mark"
$ns at $END "report"
$ns run
