# Paper W scenario 4 in ns-2 2.35: FLOWS long-lived flows through a 1 Gb/s
# bottleneck, RTT 120 ms, with ns-2's Agent/TCP/Linux running Linux
# 2.6.22's congestion control modules (BIC, CUBIC) and the SACK sink.
#
#   ns wan.tcl FLOWS BUFFER_BYTES SEED DURATION_S WARMUP_S FLOWS_CSV CA [BETA]
#
# CA is the Linux module (`select_ca bic` / `cubic`); BETA, if given, its
# beta parameter out of 1024 (`set_ca_default_param CA beta BETA`).
#
# Dumbbell, every link duplex: sender i --10 Gb/s, 1 ms-- e --100 Gb/s, 4 ms--
# c0 --1 Gb/s, 50 ms-- c1 --100 Gb/s, 4 ms-- e' --10 Gb/s, 1 ms-- sink i
# (one-way 60 ms). Access links are 10 Gb/s, not the paper's 1 Gb/s: with
# access and core at the same rate a sender's back-to-back packets reach the
# core exactly as its packets leave, and which of two simultaneous events
# comes first (ns-2: the arrival; pacesim: the departure) then decides who
# finds the queue full: a tie artefact, not TCP behaviour. Only the c0->c1 queue can drop: DropTail in byte mode,
# limit BUFFER_BYTES (as in ebase.tcl); every other queue is huge.
# TCP: packetSize_ 1000 (1040 B on the wire), window_ 100000, other ns-2
# defaults (no timestamps). Flows start U[0, 1] s (seeded RNG).
# Prints "RESULT ..." and writes per-flow goodputs as ebase.tcl (measure.tcl).

lassign $argv n buffer seed duration warmup flows_csv ca beta

set ns [new Simulator]
$defaultRNG seed $seed
set rng [new RNG]
$rng seed $seed

Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 100000
Queue set limit_ 10000000

set c0 [$ns node]
set c1 [$ns node]
set e0 [$ns node]
set e1 [$ns node]
$ns simplex-link $c0 $c1 1Gb 50ms DropTail
$ns simplex-link $c1 $c0 1Gb 50ms DropTail
set q [[$ns link $c0 $c1] queue]
$q set queue_in_bytes_ true
$q set mean_pktsize_ 1
$q set limit_ $buffer
set qmon [$ns monitor-queue $c0 $c1 0]
$ns duplex-link $e0 $c0 100Gb 4ms DropTail
$ns duplex-link $c1 $e1 100Gb 4ms DropTail

for {set i 0} {$i < $n} {incr i} {
    set s [$ns node]
    set d [$ns node]
    $ns duplex-link $s $e0 10Gb 1ms DropTail
    $ns duplex-link $e1 $d 10Gb 1ms DropTail
    set tcp($i) [new Agent/TCP/Linux]
    set sink [new Agent/TCPSink/Sack1]
    $ns attach-agent $s $tcp($i)
    $ns attach-agent $d $sink
    $ns connect $tcp($i) $sink
    $ns at 0 "$tcp($i) select_ca $ca"
    if {$beta ne ""} { $ns at 0 "$tcp($i) set_ca_default_param $ca beta $beta" }
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp($i)
    $ns at [$rng uniform 0 1] "$ftp start"
}

source [file join [file dirname [info script]] measure.tcl]

$ns at $warmup "snapshot"
$ns at $duration "finish"
$ns run
