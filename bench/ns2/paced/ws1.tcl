# Paper W scenario 1 (Sec III-A, W-s1) in ns-2 2.35, every flow paced
# (tcp-paced.cc) or none: 16 SACK flows in a LAN, each flow's latency to its
# first 1 MB (725 packets of 1460 B payload, 1500 B on the wire).
#
#   ns ws1.tcl MODE SEED DURATION_S FLOWS_CSV PROGRESS_CSV
#
# pacesim's W-s1 sweep (scenarios/W-s1.toml) on its w-dumbbell: 16 senders
# s_i -> r0 over 1 Gb/s, 0.1 ms; the core r0 -> r1 1 Gb/s, 1.05 ms, DropTail
# in byte mode with a limit of 375 KB (3 ms; as bench/ns2/ebase.tcl); r1 ->
# d_i 1 Gb/s, 0.1 ms (RTT 2.5 ms); a cross-traffic pair x-src -> r0, r1 ->
# x-dst on the same links with exponential on-off UDP (10 Mb/s while on, mean
# on and off 0.5 s, 210 B packets); every other queue huge.
# Agent/TCP/Sack1/Paced with pace_mode_ MODE (none, original) to
# Agent/TCPSink/Sack1, packetSize_ 1460, window_ 100000, other ns-2
# defaults; starts U[0, 0.5 ms].
#
# FLOWS_CSV: flow, latency_s (first time its cumulative ACK covers 725
# packets, ack_ + 1 >= 725, checked every 1 ms; empty if never).
# PROGRESS_CSV: t_s, flow, packets (acknowledged, ack_ + 1) every 100 ms.
# One "RESULT ..." line: core loss over the run.

lassign $argv mode seed duration flows_csv progress_csv
source [file join [file dirname [info script]] paced.tcl]

set ns [new Simulator]
$defaultRNG seed $seed
set rng [new RNG]
$rng seed $seed

set flows 16
set target 725
Agent/TCP set packetSize_ 1460
Agent/TCP set window_ 100000
Queue set limit_ 10000000

set r0 [$ns node]
set r1 [$ns node]
$ns simplex-link $r0 $r1 1Gb 1.05ms DropTail
$ns simplex-link $r1 $r0 1Gb 1.05ms DropTail
set q [[$ns link $r0 $r1] queue]
$q set queue_in_bytes_ true
$q set mean_pktsize_ 1
$q set limit_ 375000
set qmon [$ns monitor-queue $r0 $r1 0]

for {set i 0} {$i < $flows} {incr i} {
    set s [$ns node]
    set d [$ns node]
    $ns duplex-link $s $r0 1Gb 0.1ms DropTail
    $ns duplex-link $r1 $d 1Gb 0.1ms DropTail
    set tcp($i) [new Agent/TCP/Sack1/Paced]
    $tcp($i) set pace_mode_ $pace_modes($mode)
    set sink [new Agent/TCPSink/Sack1]
    $ns attach-agent $s $tcp($i)
    $ns attach-agent $d $sink
    $ns connect $tcp($i) $sink
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [$rng uniform 0 0.0005] "$ftp($i) start"
}

onoff_cross $r0 $r1 0.1 10

# Every 1 ms: the first time each flow's ACKs cover $target packets.
proc watch {} {
    global ns tcp flows target latency
    set now [$ns now]
    for {set i 0} {$i < $flows} {incr i} {
        if {![info exists latency($i)] && [$tcp($i) set ack_] + 1 >= $target} { set latency($i) [format "%.3f" $now] }
    }
    $ns at [expr {$now + 0.001}] "watch"
}

set progress [open $progress_csv w]
puts $progress "t_s,flow,packets"
proc sample {} {
    global ns tcp flows progress
    set now [$ns now]
    for {set i 0} {$i < $flows} {incr i} {
        puts $progress [format "%.1f,%d,%d" $now $i [expr {[$tcp($i) set ack_] + 1}]]
    }
    $ns at [expr {$now + 0.1}] "sample"
}

proc finish {} {
    global flows latency flows_csv progress qmon
    close $progress
    set f [open $flows_csv w]
    puts $f "flow,latency_s"
    for {set i 0} {$i < $flows} {incr i} {
        puts $f "$i,[expr {[info exists latency($i)] ? $latency($i) : ""}]"
    }
    close $f
    set arr [$qmon set parrivals_]
    set drop [$qmon set pdrops_]
    puts [format "RESULT core_loss=%.6f core_arrivals=%d core_drops=%d" \
        [expr {$arr > 0 ? double($drop) / $arr : 0.0}] $arr $drop]
    exit 0
}

$ns at 0.001 "watch"
$ns at 0.0 "sample"
$ns at $duration "finish"
$ns run
