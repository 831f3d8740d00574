# ns-2 2.35 with ns-2.28's TCP defaults, to tell what of a 2.28 run the
# defaults explain (README.md, "ns-2.28"):
#
#   ns defaults228.tcl SCRIPT ARGS...   (chains: ns defaults228.tcl shim.tcl SCRIPT ...)
#
# Every Agent/TCP and Agent/TCPSink default whose value differs between
# 2.28's tcl/lib/ns-default.tcl (rev. 1.344, 2005/01/13) and 2.35's and that
# 2.35's code reads, set back to 2.28's: window cuts in whole packets
# (precisionReduce_), initial RTO 6 s, no 60 s cap on the backed-off RTO,
# dupack threshold max(3, cwnd/100), no fast retransmit for a lost first
# packet (bugfix_ss_, added 2006), the SYN's ACK delayed like any other
# (SYN_immediate_ack_, delayed-ACK sinks only). 2.35's updated_rttvar_ is
# set but read by no code; its other new TCP defaults (SetCWRonRetransmit_,
# max_connects_, ncwndcuts1_, print_request_) are 2.28's behaviour already.

Agent/TCP set precisionReduce_ false
Agent/TCP set rtxcur_init_ 6.0
Agent/TCP set maxrto_ 100000
Agent/TCP set numdupacksFrac_ 100
Agent/TCP set bugfix_ss_ 0
Agent/TCPSink set SYN_immediate_ack_ false

set argv [lassign $argv script]
set argc [llength $argv]
set argv0 $script
source $script
