# The send times of one flow's first packets on the Wei-patched ns-2, to
# check the pacing gaps by hand (README.md, "Check"):
#
#   ns gaps.tcl PACE_PACKET VARIANT TRACE_FILE [N]
#
# One Agent/TCP/VARIANT (Reno, Newreno, Sack1) with pace_packet_
# PACE_PACKET (0, 1, 2) on paper W's W-s5 path: 1 Gb/s, 1 ms access links,
# a 57 Mb/s, 48 ms core, RTT 100 ms plus transmission; packetSize_ 1460,
# window_ 100000, no loss, from time 0. Prints "seqno time" for the first N
# (default 20) data packets entering the sender's access link.

lassign $argv mode variant trace n
if {$n eq ""} { set n 20 }
set ns [new Simulator]
Agent/TCP set packetSize_ 1460
Agent/TCP set window_ 100000
foreach node {s r0 r1 d} { set $node [$ns node] }
foreach {a b rate delay} [list $s $r0 1Gb 1ms $r0 $r1 57Mb 48ms $r1 $d 1Gb 1ms] {
    $ns duplex-link $a $b $rate $delay DropTail
}
set tcp [new Agent/TCP/$variant]
$tcp set pace_packet_ $mode
set sink [new [expr {$variant eq "Sack1" ? "Agent/TCPSink/Sack1" : "Agent/TCPSink"}]]
$ns attach-agent $s $tcp
$ns attach-agent $d $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set tf [open $trace w]
$ns trace-queue $s $r0 $tf

proc finish {} {
    global tf trace n
    close $tf
    set f [open $trace]
    set k 0
    while {$k < $n && [gets $f line] >= 0} {
        lassign $line ev t from to type size flags fid src dst seq
        if {$ev eq "+" && $type eq "tcp"} {
            puts [format "%d %.6f" $seq $t]
            incr k
        }
    }
    close $f
    exit 0
}
$ns at 0 "$ftp start"
$ns at 1.0 "finish"
$ns run
