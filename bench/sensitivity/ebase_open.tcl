# bench/ns2/ebase.tcl (paper E's E-base in stock ns-2 2.35) under two settings paper E leaves open:
#
#   ns ebase_open.tcl OVERHEAD_S EDGES HOSTS_PER_EDGE BUFFER_BYTES SEED DURATION_S WARMUP_S FLOWS_CSV [VARIANT] [SINK]
#
# OVERHEAD_S is ns-2's Agent/TCP overhead_: each send is delayed by a random
# U[0, OVERHEAD_S] s (tcp.cc send_much), the jitter Floyd and Jacobson add
# against phase effects; 0 sends at once (ns-2's default). VARIANT "Tahoe" is
# ns-2's plain Agent/TCP (Tahoe: fast retransmit, then slow start from
# cwnd 1), which ebase.tcl's Agent/TCP/<VARIANT> cannot name: here it is an
# OTcl subclass of Agent/TCP that adds nothing. Every other argument and
# setting is ebase.tcl's, which this script runs unchanged.
#
# With the environment variable EBASE_TCL set, that script runs instead of
# ebase.tcl, with the same arguments after OVERHEAD_S (bench/ns2/paced/
# ebase_host.tcl: E-base with host pacing, which sources ebase.tcl itself).
# With the environment variable ACCESS_MBPS set, every access link runs at
# that rate instead of ebase.tcl's U[8, 12] Mb/s draw (paper E Fig. 5: 100
# Mb/s): a write trace on the global `rate` ebase.tcl draws each link's rate
# into replaces the value, so every random draw (delays, starts) is unchanged.

set overhead [lindex $argv 0]
set argv [lrange $argv 1 end]
Agent/TCP set overhead_ $overhead
Class Agent/TCP/Tahoe -superclass Agent/TCP
if {[info exists env(ACCESS_MBPS)]} {
    trace add variable ::rate write {apply {{name index op} { set ::rate $::env(ACCESS_MBPS) }}}
}
# With WINDOW set, every sender's advertised window_ is that many packets
# (ebase.tcl sets 1000; ns-2's default is 20): a write trace on the global
# array `tcp` ebase.tcl keeps its senders in sets it on each new agent.
if {[info exists env(WINDOW)]} {
    trace add variable ::tcp write {apply {{name index op} { $::tcp($index) set window_ $::env(WINDOW) }}}
}
if {[info exists env(EBASE_TCL)]} {
    source $env(EBASE_TCL)
} else {
    source [file join [file dirname [info script]] .. ns2 ebase.tcl]
}
