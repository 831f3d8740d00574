# The SACK blocks ns-2's Sack1 sink (Agent/TCPSink/Sack1, tcp/tcp-sink.cc's
# Sacker::append_ack) puts on each ACK, seen through the ACK's size (40 B
# plus 8 B a block): the reference for crates/pacesim-core/src/tcp/sink.rs's
# test `sack_blocks_match_ns2_sack1_ack_by_ack`.
#
#   ns sack_blocks.tcl TRACE           (Debian's /usr/bin/ns: the sink is stock)
#   awk '$1 == "r" && $4 == 1 && $5 == "tcp" { s = $11 }
#        $1 == "+" && $3 == 1 && $5 == "ack" { print s, $11, ($6 - 40) / 8 }' TRACE
#
# prints, for each data packet reaching the sink, "seqno ackno blocks"
# (results/sack_blocks.txt).
# pair.tcl's two nodes (50 ms each way, 10 Gb/s), Agent/TCP/Fack with 1000 B
# segments, window_ 1000; the link to the sink drops its packets number 40, 41, 43,
# 46, 48 and 50 (counted from 0: data packets of those numbers, all sent at
# 0.5 s); 1.2 s.
source [file join [file dirname [info script]] pair.tcl]
set tf [open [lindex $argv 0] w]
lossy_pair Agent/TCP/Fack Agent/TCPSink/Sack1 {40 41 43 46 48 50} $tf
$ns at 1.2 "close $tf; exit 0"
$ns run
