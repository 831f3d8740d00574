# Paper W scenario 5 (Sec III-B) in ns-2 2.35 with host pacing (tcp-paced.cc):
# paced and unpaced flows share one bottleneck, every second flow paced.
#
#   ns ws5.tcl FLOWS RATE_MBPS CORE_DELAY_MS BUFFER_BYTES PACKET_BYTES SEED DURATION_S WARMUP_S FLOWS_CSV VARIANT MODE
#              [START_S [CROSS_MBPS [FRACTION]]]
#
# pacesim's w-dumbbell (crates/pacesim-core/src/topology/w_dumbbell.rs):
# FLOWS senders s_i -> r0 over 1 Gb/s, 1 ms links, the core r0 -> r1
# (RATE_MBPS, CORE_DELAY_MS), r1 -> d_i over 1 Gb/s, 1 ms; RTT 2 (1 + delay
# + 1) ms. Only the core can drop: DropTail in byte mode, limit BUFFER_BYTES
# (as in bench/ns2/ebase.tcl); every other queue is huge. VARIANT Reno
# (TCPSink) or Sack1 (TCPSink/Sack1), packetSize_ PACKET_BYTES - 40,
# window_ 100000, other ns-2 defaults; flow i paced with MODE (original or
# modified) when paced.tcl's `evenly i FRACTION` (default 0.5: the odd i;
# 1: every flow, paper W scenario 4); starts U[0, START_S]
# s (default 0.1). CROSS_MBPS > 0 (default 0): a pair x-src -> r0, r1 ->
# x-dst (1 Gb/s, 1 ms) with exponential on-off UDP, CROSS_MBPS while on,
# mean on and off 0.5 s, 210 B packets (pacesim's `onoff` cross traffic).
#
# Over [WARMUP, DURATION]: core departures, arrivals and drops and the mean
# core queueing delay (queue bytes averaged over time / core rate), and per
# flow goodput (growth of ack_), data packets sent (ndatapack_),
# retransmitted packets (nrexmitpack_), timeouts (nrexmit_), fast
# retransmits (fast_cuts_) and its packets dropped at the core (a flow
# monitor by fid: flow i has fid i + 1, the cross traffic 0), written to
# FLOWS_CSV; one "RESULT ..." line.

lassign $argv flows rate delay buffer pktbytes seed duration warmup flows_csv variant mode start cross fraction
if {$start eq ""} { set start 0.1 }
if {$cross eq ""} { set cross 0 }
if {$fraction eq ""} { set fraction 0.5 }
source [file join [file dirname [info script]] paced.tcl]

set ns [new Simulator]
$defaultRNG seed $seed
set rng [new RNG]
$rng seed $seed

set payload [expr {$pktbytes - 40}]
Agent/TCP set packetSize_ $payload
Agent/TCP set window_ 100000
Queue set limit_ 10000000
set sinkclass [expr {$variant eq "Sack1" ? "Agent/TCPSink/Sack1" : "Agent/TCPSink"}]
pace_share Agent/TCP/$variant/Paced $mode $fraction

set r0 [$ns node]
set r1 [$ns node]
$ns simplex-link $r0 $r1 ${rate}Mb ${delay}ms DropTail
$ns simplex-link $r1 $r0 ${rate}Mb ${delay}ms DropTail
set q [[$ns link $r0 $r1] queue]
$q set queue_in_bytes_ true
$q set mean_pktsize_ 1
$q set limit_ $buffer
set qmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $r0 $r1] $qmon
set qbytes [new Integrator]
$qmon set-bytes-integrator $qbytes

for {set i 0} {$i < $flows} {incr i} {
    set s [$ns node]
    set d [$ns node]
    $ns duplex-link $s $r0 1Gb 1ms DropTail
    $ns duplex-link $r1 $d 1Gb 1ms DropTail
    set tcp($i) [new Agent/TCP/$variant/Paced]
    $tcp($i) set fid_ [expr {$i + 1}]
    set sink [new $sinkclass]
    $ns attach-agent $s $tcp($i)
    $ns attach-agent $d $sink
    $ns connect $tcp($i) $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp($i)
    $ns at [$rng uniform 0 $start] "$ftp start"
}

if {$cross > 0} {
    onoff_cross $r0 $r1 1 $cross
}

set counters {ack_ ndatapack_ nrexmitpack_ nrexmit_ fast_cuts_}

# Each flow's core drops so far, by fid - 1 (0 before its first packet).
proc core_drops {} {
    global qmon flows
    for {set i 0} {$i < $flows} {incr i} { set out($i) 0 }
    foreach fl [$qmon flows] {
        set i [expr {[$fl set flowid_] - 1}]
        if {$i >= 0} { set out($i) [$fl set pdrops_] }
    }
    return [array get out]
}

proc snapshot {} {
    global qmon qbytes tcp flows counters arr0 dep0 drop0 c0 cdrop0 qsum0
    set arr0 [$qmon set parrivals_]
    set dep0 [$qmon set pdepartures_]
    set drop0 [$qmon set pdrops_]
    set qsum0 [$qbytes set sum_]
    array set cdrop0 [core_drops]
    for {set i 0} {$i < $flows} {incr i} {
        foreach c $counters { set c0($i,$c) [$tcp($i) set $c] }
    }
}

proc finish {} {
    global qmon qbytes tcp flows counters arr0 dep0 drop0 c0 cdrop0 qsum0 duration warmup flows_csv payload pktbytes rate
    set span [expr {$duration - $warmup}]
    set arr [expr {[$qmon set parrivals_] - $arr0}]
    set dep [expr {[$qmon set pdepartures_] - $dep0}]
    set drop [expr {[$qmon set pdrops_] - $drop0}]
    set f [open $flows_csv w]
    array set cdrop [core_drops]
    puts $f "flow,paced,goodput_kbps,data_packets_sent,retransmits,timeouts,fast_retransmits,core_drops"
    for {set i 0} {$i < $flows} {incr i} {
        foreach c $counters { set d($c) [expr {[$tcp($i) set $c] - $c0($i,$c)}] }
        set paced [expr {[$tcp($i) set pace_mode_] != 0}]
        set g [expr {$d(ack_) * $payload * 8.0 / $span / 1000.0}]
        puts $f "$i,$paced,$g,$d(ndatapack_),$d(nrexmitpack_),$d(nrexmit_),$d(fast_cuts_),[expr {$cdrop($i) - $cdrop0($i)}]"
    }
    close $f
    set qdelay [expr {([$qbytes set sum_] - $qsum0) / $span * 8.0 / ($rate * 1e6)}]
    puts [format "RESULT aggregate_mbps=%.4f core_loss=%.6f core_arrivals=%d core_drops=%d core_departures=%d core_qdelay_ms=%.4f" \
        [expr {$dep * $pktbytes * 8.0 / $span / 1e6}] [expr {$arr > 0 ? double($drop) / $arr : 0.0}] $arr $drop $dep \
        [expr {1e3 * $qdelay}]]
    exit 0
}

$ns at $warmup "snapshot"
$ns at $duration "finish"
$ns run
