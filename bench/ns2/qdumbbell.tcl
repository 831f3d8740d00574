# Paper Q's dumbbell (Sec IV-D, Fig. 17; Q-fig18) unpaced in ns-2 2.35, as
# pacesim's q-dumbbell topology builds it (scenarios/q-dumbbell.toml):
#
#   ns qdumbbell.tcl key value ...   (keys and defaults in `opt` below)
#
# Core c0 -> c1 (100 Mb/s, 20 ms); four access routers a_j -> c0 (100 Mb/s,
# 20 ms, queue 2000 packets), ten senders behind each on host links
# (100 Mb/s, U[1, 10] ms); ten receivers behind c1 (100 Mb/s, U[1, 10] ms);
# sender i sends to receiver i mod 10. All links duplex. The core queue is
# DropTail in packets with limit_ BUFFER_PACKETS (ns-2 drops when the
# queue's length + 1 >= limit_, so BUFFER_PACKETS - 1 wait); every queue but
# the core's and the access routers' is huge.
# TCP: Agent/TCP/Reno + Agent/TCPSink, packetSize_ 1000, window_ 32 (paper Q:
# "maximum congestion window is set 32 packets"), other ns-2 defaults;
# FTPs start U[0, 100] s. Randomness: $defaultRNG and an RNG object seeded
# with SEED, drawing the receivers' delays, then per access router its
# senders' delays, then the start times.

array set opt {
    buffer_packets 20 seed 1 duration 300 warmup 120 flows_csv /dev/null buffer 0
}
array set opt $argv
foreach var {seed duration warmup flows_csv} { set $var $opt($var) }

source [file join [file dirname [info script]] flows.tcl]
simulator ""

Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 32
Queue set limit_ 10000000

set variant Reno

set c0 [$ns node]
set c1 [$ns node]
$ns simplex-link $c0 $c1 100Mb 20ms DropTail
$ns simplex-link $c1 $c0 100Mb 20ms DropTail
[[$ns link $c0 $c1] queue] set limit_ $opt(buffer_packets)
set qmon [$ns monitor-queue $c0 $c1 0]

source [file join [file dirname [info script]] measure.tcl]
lappend result_hooks classes_result

for {set k 0} {$k < 10} {incr k} {
    set r($k) [$ns node]
    $ns duplex-link $c1 $r($k) 100Mb [$rng uniform 1 10]ms DropTail
}
set n 0
for {set j 0} {$j < 4} {incr j} {
    set a [$ns node]
    $ns duplex-link $a $c0 100Mb 20ms DropTail
    [[$ns link $a $c0] queue] set limit_ 2000
    for {set h 0} {$h < 10} {incr h} {
        set s [$ns node]
        $ns duplex-link $s $a 100Mb [$rng uniform 1 10]ms DropTail
        set ftp($n) [bulk_flow $n $s $r([expr {$n % 10}])]
        incr n
    }
}
for {set i 0} {$i < $n} {incr i} { $ns at [$rng uniform 0 100] "$ftp($i) start" }

$ns at $warmup "snapshot"
$ns at $duration "finish"
$ns run
