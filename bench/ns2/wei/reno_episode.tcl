# One Reno flow through a fast retransmit and a timeout, on ns-2 2.35 with
# Wei's patch (window cuts from packets in flight) or stock: the reference
# for crates/pacesim-core/src/tcp/sender.rs's test
# `reno_cuts_follow_ns2_through_a_fast_retransmit_and_a_timeout`.
#
#   NS reno_episode.tcl > results/reno_episode_BUILD.txt
#
# Two nodes, 50 ms each way, 10 Gb/s (serialisation under a microsecond),
# TCP Reno with 1000 B segments, window_ 1000, to a TCPSink; the link from
# the sender drops its 41st and 46th packet (the SYN is the first: data
# packets 40 and 45, both sent at 0.5 s). Every 50 ms from 0.1 ms: "W time
# cwnd_ ssthresh_ t_seqno_" for 3 s.

source [file join [file dirname [info script]] pair.tcl]
lossy_pair Agent/TCP/Reno Agent/TCPSink {40 45}
proc sample {} {
    global ns tcp
    puts [format "W %.6f %s %s %s" [$ns now] [$tcp set cwnd_] [$tcp set ssthresh_] [$tcp set t_seqno_]]
    $ns at [expr {[$ns now] + 0.05}] sample
}
$ns at 0.0001 sample
$ns at 3.0 "exit 0"
$ns run
