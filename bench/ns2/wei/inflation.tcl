# One paced flow with Wei's window inflation (inflation_ratio_) on the
# Wei-patched ns-2, traced at the sender's link and the core (PACESIM.md,
# "Event by event"; inflation.py runs it):
#
#   ns inflation.tcl VARIANT RATIO DURATION TRACE_FILE [BUFFER CORE_MBPS PACE_PACKET]
#
# Agent/TCP/VARIANT (Reno, Newreno, Fack; Sack1 on build.sh --sack1-paced's
# binary) with pace_packet_ PACE_PACKET (default 1, original) and
# inflation_ratio_ RATIO; the Sack1 sink for Sack1 and Fack. s -1 Gb/s, 1 ms-
# r0 -CORE_MBPS (default 50), 48 ms, BUFFER bytes (default 30000)- r1 -1 Gb/s,
# 1 ms- d; packetSize_ 1460, window_ 100000, from time 0, DURATION s. Traces
# s->r0, r0->s and r0->r1 to TRACE_FILE and prints the sender's counters at
# the end. Adapted from the review of issue 32 (its infl5.tcl, our own Tcl,
# which began as gaps.tcl); no line of the patch is in it.

lassign $argv variant ratio duration trace buffer core mode
if {$buffer eq ""} { set buffer 30000 }
if {$core eq ""} { set core 50 }
if {$mode eq ""} { set mode 1 }
set ns [new Simulator]
Agent/TCP set packetSize_ 1460
Agent/TCP set window_ 100000
foreach node {s r0 r1 d} { set $node [$ns node] }
$ns duplex-link $s $r0 1Gb 1ms DropTail
$ns duplex-link $r0 $r1 ${core}Mb 48ms DropTail
$ns duplex-link $r1 $d 1Gb 1ms DropTail
set q [[$ns link $r0 $r1] queue]
$q set queue_in_bytes_ true
$q set mean_pktsize_ 1
$q set limit_ $buffer
set tcp [new Agent/TCP/$variant]
$tcp set pace_packet_ $mode
$tcp set inflation_ratio_ $ratio
set sink [new [expr {$variant in {Sack1 Fack} ? "Agent/TCPSink/Sack1" : "Agent/TCPSink"}]]
foreach {node agent} [list $s $tcp $d $sink] { $ns attach-agent $node $agent }
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set tf [open $trace w]
foreach {a b} [list $s $r0 $r0 $s $r0 $r1] { $ns trace-queue $a $b $tf }
proc finish {} {
    global tf tcp
    close $tf
    puts "ack [$tcp set ack_] cwnd [$tcp set cwnd_] data_packets [$tcp set ndatapack_] retransmits [$tcp set nrexmitpack_]"
    exit 0
}
$ns at 0 "$ftp start"
$ns at $duration finish
$ns run
