# ns-2's delayed send for every TCP agent, then a script through shim.tcl:
#
#   ns overhead.tcl OVERHEAD_S SCRIPT ARGS...    (e.g. ns overhead.tcl 12e-6 ../paced/ws5.tcl 5 1000 ...)
#
# Agent/TCP overhead_ (tcp.cc, tcp-sack1.cc `send_much`; 0 by default): a
# send_much that is not the delayed-send timer's waits a uniform draw in
# [0, OVERHEAD_S) s, then sends all the window allows. ns-2 has it to break
# the phase effects of a deterministic run; pacesim's is `tcp.overhead`.
# ws3_ties.py runs W-s3 with it in both simulators.

set argv [lassign $argv overhead]
Agent/TCP set overhead_ $overhead
source [file join [file dirname [info script]] shim.tcl]
