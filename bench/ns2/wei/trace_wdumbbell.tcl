# Paper W's dumbbell (W-s6's or W-s1's) without its cross traffic, traced
# at the core in ns-2's trace format, on the build of build.sh (Wei's
# patch; SACK from build.sh --sack1-paced): the ns-2 half of
# trace_wdumbbell.py.
#
#   ns trace_wdumbbell.tcl PARAMS TRACE_FILE
#
# PARAMS (a Tcl file, written by trace_wdumbbell.py from pacesim's draws)
# sets flows, rate (core b/s), core_delay (s), access_rate (b/s),
# access_delay (s), buffer (bytes), payload (bytes), tick (s), duration (s),
# mode (pace_packet_: 0 none, 1 original, 2 modified), variant (the
# Agent/TCP class), sinkclass, paced_every (every how many flows one is
# paced) and start(i) (s).
# Network as ../paced/ws5.tcl builds it: r0 = 0, r1 = 1, then s<i> =
# 2 + 2i, d<i> = 3 + 2i (pacesim's w-dumbbell numbering); the core r0 -> r1
# a byte-mode DropTail of exactly BUFFER bytes, every other queue
# unlimited; Agent/TCP/VARIANT to SINKCLASS, window_ 100000, fid_ i, flow i
# paced with MODE when i + 1 is a multiple of PACED_EVERY.

lassign $argv params trace_file
source $params

set ns [new Simulator]
Agent/TCP set packetSize_ $payload
Agent/TCP set window_ 100000
Agent/TCP set tcpTick_ $tick
Queue set limit_ 10000000
set seed 1
source [file join [file dirname [info script]] .. flows.tcl]

set r0 [$ns node]
set r1 [$ns node]
$ns simplex-link $r0 $r1 $rate $core_delay DropTail
$ns simplex-link $r1 $r0 $rate $core_delay DropTail
byte_limit [[$ns link $r0 $r1] queue] $buffer
for {set i 0} {$i < $flows} {incr i} {
    set s($i) [$ns node]
    set d($i) [$ns node]
    $ns duplex-link $s($i) $r0 $access_rate $access_delay DropTail
    $ns duplex-link $r1 $d($i) $access_rate $access_delay DropTail
}

set f [open $trace_file w]
$ns trace-queue $r0 $r1 $f

for {set i 0} {$i < $flows} {incr i} {
    set ftp [bulk_flow $i $s($i) $d($i) $i]
    if {($i + 1) % $paced_every == 0} { $tcp($i) set pace_packet_ $mode }
    $ns at $start($i) "$ftp start"
}

$ns at $duration {$ns flush-trace; close $f; exit 0}
$ns run
