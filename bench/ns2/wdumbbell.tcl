# Paper W's dumbbell (Sec III; W-s5's network) unpaced in ns-2 2.35, as
# pacesim's w-dumbbell topology builds it (scenarios/w-dumbbell.toml):
#
#   ns wdumbbell.tcl key value ...   (keys and defaults in `opt` below)
#
# FLOWS senders into r0 and their receivers behind r1, every host link
# ACCESS b/s and ACCESS_DELAY ms (so every flow has the same RTT); the
# core r0 -> r1 (CORE b/s, CORE_DELAY ms) is DropTail in byte mode with a
# limit of exactly BUFFER bytes (see ebase.tcl); every other queue is huge.
# Defaults are W-s5's: 40 flows, 57 Mb/s, 2 (1 + 48 + 1) ms = 100 ms RTT.
# TCP: Agent/TCP/VARIANT + Agent/TCPSink[/SINK], packetSize_ 1460, so data
# packets are paper W's 1500 B on the wire (with ns-2's 40 B header);
# window_ 100000, other ns-2 defaults; FTPs start U[0, START] s. The RESULT
# line's core_mbps counts bytes (its aggregate_mbps assumes 1040 B packets).
# Randomness: $defaultRNG and an RNG object seeded with SEED (start times).

array set opt {
    flows 40 access 1e9 access_delay 1 core 57e6 core_delay 48 buffer 712000 seed 1
    duration 100 warmup 20 flows_csv /dev/null variant Reno sink "" start 0.1 packet 1460
}
array set opt $argv
foreach var {seed duration warmup flows_csv variant} { set $var $opt($var) }

source [file join [file dirname [info script]] flows.tcl]
simulator $opt(sink)

Agent/TCP set packetSize_ $opt(packet)
Agent/TCP set window_ 100000
Queue set limit_ 10000000


set r0 [$ns node]
set r1 [$ns node]
$ns simplex-link $r0 $r1 $opt(core) $opt(core_delay)ms DropTail
$ns simplex-link $r1 $r0 $opt(core) $opt(core_delay)ms DropTail
byte_limit [[$ns link $r0 $r1] queue] $opt(buffer)
set qmon [$ns monitor-queue $r0 $r1 0]

source [file join [file dirname [info script]] measure.tcl]
lappend result_hooks classes_result

set n $opt(flows)
for {set i 0} {$i < $n} {incr i} {
    set s [$ns node]
    set d [$ns node]
    $ns duplex-link $s $r0 $opt(access) $opt(access_delay)ms DropTail
    $ns duplex-link $r1 $d $opt(access) $opt(access_delay)ms DropTail
    $ns at [$rng uniform 0 $opt(start)] "[bulk_flow $i $s $d] start"
}

$ns at $warmup "snapshot"
$ns at $duration "finish"
$ns run
