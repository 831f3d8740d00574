# One Sack1 flow whose advertised window (4) binds, through a fast
# retransmit, on ns-2 2.35 with Wei's patch (window cuts from packets in
# flight) or stock: the reference for crates/pacesim-core/src/tcp/sender.rs's
# test `a_fast_retransmit_halves_a_pipe_of_one_to_half_a_packet`.
#
#   NS sack_episode.tcl > results/sack_episode_BUILD.txt
#
# pair.tcl's two nodes (50 ms each way, 10 Gb/s), Sack1 with 1000 B segments
# and window_ 4, to a Sack1 sink; data packet 20 is lost. With 4 packets
# outstanding at the third duplicate ACK, Sack1's pipe is 4 - 3 = 1: the
# patched build halves it to cwnd_ 0.5 (slowdown's CLOSE_CWND_HALF has no
# floor), which lets nothing go until the timer (newtimer keeps it running
# while cwnd_ < 1); stock ns-2 halves the window in use, min(cwnd_, 4), to 2.
# Every 50 ms from 0.1 ms: "W time cwnd_ ssthresh_ t_seqno_ ack_" for 2 s.

source [file join [file dirname [info script]] pair.tcl]
lossy_pair Agent/TCP/Sack1 Agent/TCPSink/Sack1 {20}
$tcp set window_ 4
proc sample {} {
    global ns tcp
    puts [format "W %.6f %s %s %s %s" [$ns now] [$tcp set cwnd_] [$tcp set ssthresh_] [$tcp set t_seqno_] [$tcp set ack_]]
    $ns at [expr {[$ns now] + 0.05}] sample
}
$ns at 0.0001 sample
$ns at 2.0 "exit 0"
$ns run
