# The pacing-timer storm of FACK with Wei's pure rate control (issue 33's
# hostile.py "hang", /work/res/hang-pacer-4605.toml) in ns-2 2.35 built with
# Wei's patch (build.sh): how often the pacing timer finds nothing to send.
#
#   ns storm.tcl DURATION_S VARIANT RATES_MBPS_CSV PACE ACK_COUNTING LOSS_FILTER INFLATION PURE OVERHEAD_S \
#                [BUFFER_BYTES] [SEED] [SAMPLE_S] [CORE_MBPS]
#
# E-base as pacesim builds hang-pacer-4605.toml: one sender per rate in
# RATES_MBPS_CSV (pacesim's draws, from `topology describe`), two to an
# edge, each on an access link of its rate and 1 us to its edge; the edges
# on 100 Mb/s, 1 us links to c0; the core c0 -> c1 of CORE_MBPS (default
# 100) Mb/s, 0 ms, a byte-limited drop-tail queue of BUFFER_BYTES (default
# 2000); the sinks mirror the senders behind c1, each link a twin of its
# left-hand one. Every sender an Agent/TCP/VARIANT (Fack, Reno, ...) with
# Wei's options: pace_packet_ PACE (1 original, 2 modified), ack_counting_,
# pace_loss_filter_, inflation_ratio_, pure_rate_control_ and overhead_
# (s); window_ 1000, packetSize_ 1000, Fack's rampdown_ on, the SACK sink
# for Fack and Sack1; every flow starts at 0; SEED (default 1) seeds the
# jitter. Prints one line per flow and a total:
#
#   FLOW i ack=.. cwnd=.. ssthresh=.. send_blocked=.. rexmit=.. cuts=..
#   RESULT duration=.. blocked=.. acks=.. core_arrivals=.. core_drops=.. wall_s=..
#
# and with SAMPLE_S, every SAMPLE_S of simulated time, one line per flow:
#
#   SAMPLE t i ack=.. t_seqno=.. cwnd=.. send_blocked=..
#
# send_blocked_ (the patch's own counter) counts the calls of send_much that
# sent nothing: in the storm, the pacing timer's expiries that find the
# window full (an ACK's call while the timer is pending returns before it),
# but not those while FACK's timeout_ (a retransmission lost again) holds
# sending. PACESIM.md counts every expiry with a copy of the binary.

lassign $argv duration variant rates pace counting filter inflation pure overhead buffer seed sample core
if {$buffer eq ""} { set buffer 2000 }
if {$seed eq ""} { set seed 1 }
if {$core eq ""} { set core 100 }
set t0 [clock milliseconds]

source [file join [file dirname [info script]] .. flows.tcl]
simulator [expr {$variant in {Fack Sack1} ? "Sack1" : ""}]

Agent/TCP set packetSize_ 1000
Agent/TCP set window_ 1000
Agent/TCP/Fack set rampdown_ true
Queue set limit_ 10000000

set c0 [$ns node]
set c1 [$ns node]
$ns simplex-link $c0 $c1 ${core}Mb 0ms DropTail
$ns simplex-link $c1 $c0 ${core}Mb 0ms DropTail
set q [[$ns link $c0 $c1] queue]
byte_limit $q $buffer
set qmon [$ns monitor-queue $c0 $c1 0]

set rates [split $rates ,]
set n 0
foreach rate $rates {
    if {$n % 2 == 0} {
        set es [$ns node]
        set ed [$ns node]
        $ns duplex-link $es $c0 100Mb 0.001ms DropTail
        $ns duplex-link $c1 $ed 100Mb 0.001ms DropTail
    }
    set s [$ns node]
    set d [$ns node]
    $ns duplex-link $s $es ${rate}Mb 0.001ms DropTail
    $ns duplex-link $ed $d ${rate}Mb 0.001ms DropTail
    set ftp [bulk_flow $n $s $d]
    foreach {var value} [list pace_packet_ $pace ack_counting_ $counting pace_loss_filter_ $filter \
                             inflation_ratio_ $inflation pure_rate_control_ $pure overhead_ $overhead] {
        $tcp($n) set $var $value
    }
    $ns at 0 "$ftp start"
    incr n
}

proc finish {} {
    global tcp n qmon duration t0
    set blocked 0
    set acks 0
    for {set i 0} {$i < $n} {incr i} {
        set t $tcp($i)
        puts [format "FLOW %d ack=%d cwnd=%.2f ssthresh=%d send_blocked=%d rexmit=%d cuts=%d" $i \
                  [$t set ack_] [$t set cwnd_] [$t set ssthresh_] [$t set send_blocked_] [$t set nrexmitpack_] \
                  [$t set ncwndcuts_]]
        incr blocked [$t set send_blocked_]
        incr acks [$t set ack_]
    }
    puts [format "RESULT duration=%s blocked=%d acks=%d core_arrivals=%d core_drops=%d wall_s=%.1f" $duration \
              $blocked $acks [$qmon set parrivals_] [$qmon set pdrops_] [expr {([clock milliseconds] - $t0) / 1000.0}]]
    exit 0
}
proc sample {every} {
    global ns tcp n
    set now [$ns now]
    for {set i 0} {$i < $n} {incr i} {
        set t $tcp($i)
        puts [format "SAMPLE %.6f %d ack=%d t_seqno=%d cwnd=%.2f send_blocked=%d" $now $i [$t set ack_] \
                  [$t set t_seqno_] [$t set cwnd_] [$t set send_blocked_]]
    }
    $ns at [expr {$now + $every}] "sample $every"
}
if {$sample ne ""} { $ns at $sample "sample $sample" }
$ns at $duration "finish"
$ns run
