# Paper Q's dumbbell (Sec IV-D, Fig. 17; Q-fig18) in ns-2 2.35, with QLBP
# (Queue/QLBP, paper Q Sec II-C/D) on each access link A_j -> C0.
#
#   ns qdumbbell.tcl CORE_BUFFER_PKTS SEED DURATION_S WARMUP_S FLOWS_CSV QMAX|host [DRAWS]
#
# QMAX 0: no pacing (DropTail); QMAX host: TCP (host) pacing, original
# (tcp-paced.cc, pace_mode_ 1: gap RTT / cwnd), DropTail access. Four access routers A_j, ten senders S_i
# behind each (i = 10 j + h), core C0 -> C1, ten receivers R_k behind C1;
# sender i sends to receiver i mod 10 (pacesim's q-dumbbell). All links
# 100 Mb/s, duplex; A_j - C0 and C0 - C1 20 ms; host links U[1, 10] ms,
# drawn receivers first, then per access router its senders, or, given
# DRAWS (results/draws/qdumbbell-s<seed>.tcl, from draws.py), pacesim's
# draws for the seed: rx_delay(k), host_delay(i) in ms, start(i) in s.
# Queues:
# C0 -> C1 DropTail of CORE_BUFFER_PKTS packets (drop-tail.cc drops when
# queued + 1 >= limit_); A_j -> C0 QLBP (mu_max 100 Mb/s, mu_min 1 Mb/s,
# Q_max QMAX, Q_lim 2000) or DropTail of 2000 packets; every other queue
# huge. TCP: Agent/TCP/Reno to
# Agent/TCPSink, packetSize_ 1000 (1040 B on the wire), window_ 32 (the
# paper's maximum window), ns-2 defaults otherwise; one FTP each, started
# U[0, 100] s. Metrics as ebase.tcl (measure.tcl): aggregate = C0 -> C1
# departures over [W, T] x 1040 B; pacers are pacer(access.j).

set here [file dirname [info script]]
lassign $argv buffer seed duration warmup flows_csv qmax draws
source [file join $here pacers.tcl]
source [file join $here paced.tcl]

set ns [new Simulator]
$defaultRNG seed $seed
set rng [new RNG]
$rng seed $seed
if {$draws ne ""} { source $draws }
# Link delay (ms) or start time (s) number i of kind `kind`: from DRAWS if given.
proc draw {kind i lo hi} {
    global rng rx_delay host_delay start
    if {[info exists ${kind}($i)]} { return [set ${kind}($i)] }
    return [$rng uniform $lo $hi]
}

Agent/TCP set window_ 32
Agent/TCP set packetSize_ 1000
Queue set limit_ 10000000

set c0 [$ns node]
set c1 [$ns node]
$ns simplex-link $c0 $c1 100Mb 20ms DropTail
$ns simplex-link $c1 $c0 100Mb 20ms DropTail
[[$ns link $c0 $c1] queue] set limit_ $buffer
set qmon [$ns monitor-queue $c0 $c1 0]

for {set k 0} {$k < 10} {incr k} {
    set r($k) [$ns node]
    $ns duplex-link $c1 $r($k) 100Mb [draw rx_delay $k 1 10]ms DropTail
}
set n 0
for {set j 0} {$j < 4} {incr j} {
    set a [$ns node]
    if {$qmax ne "host" && $qmax > 0} {
        $ns simplex-link $a $c0 100Mb 20ms QLBP
        set q [[$ns link $a $c0] queue]
        $q set qmax_ $qmax
        $q set link_bw_ 100Mb
        set pacer(access.$j) $q
    } else {
        $ns simplex-link $a $c0 100Mb 20ms DropTail
        set q [[$ns link $a $c0] queue]
    }
    $q set limit_ 2000
    $ns simplex-link $c0 $a 100Mb 20ms DropTail
    for {set h 0} {$h < 10} {incr h} {
        set s [$ns node]
        $ns duplex-link $s $a 100Mb [draw host_delay $n 1 10]ms DropTail
        if {$qmax eq "host"} {
            set tcp($n) [new Agent/TCP/Reno/Paced]
            $tcp($n) set pace_mode_ $pace_modes(original)
        } else {
            set tcp($n) [new Agent/TCP/Reno]
        }
        set sink [new Agent/TCPSink]
        $ns attach-agent $s $tcp($n)
        $ns attach-agent $r([expr {$n % 10}]) $sink
        $ns connect $tcp($n) $sink
        set ftp [new Application/FTP]
        $ftp attach-agent $tcp($n)
        $ns at [draw start $n 0 100] "$ftp start"
        incr n
    }
}

source [file join $here .. measure.tcl]

$ns at $warmup "snapshot"
$ns at $duration "finish"
$ns run
