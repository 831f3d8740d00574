# Adds each sender's own counters, summed over the flows and taken over the
# measurement window, to the RESULT line of an E-base script (measure.tcl's
# result_hooks): data packets sent (ndatapack_, retransmissions included),
# retransmitted packets (nrexmitpack_), timeouts (nrexmit_) and window cuts on
# ACK arrival (ncwndcuts1_ - nrexmit_: fast retransmits).
#
#   ns shim.tcl counters.tcl SCRIPT ARGS...
#   e.g. ns shim.tcl counters.tcl ../paced/ebase_host.tcl original 1 10 10 5000 1 200 50 FLOWS.csv Fack Sack1
#
# adds " data_sent=.. rexmit=.. timeouts=.. fast_cuts=.." (PACESIM.md, FACK's goodput).

proc tcp_counters {phase} {
    global n tcp counters0
    foreach c {ndatapack_ nrexmitpack_ nrexmit_ ncwndcuts1_} { set sum($c) 0 }
    for {set i 0} {$i < $n} {incr i} {
        foreach c [array names sum] { incr sum($c) [$tcp($i) set $c] }
    }
    if {$phase eq "snapshot"} {
        array set counters0 [array get sum]
        return ""
    }
    foreach c [array names sum] { set d($c) [expr {$sum($c) - $counters0($c)}] }
    return [format " data_sent=%d rexmit=%d timeouts=%d fast_cuts=%d" $d(ndatapack_) $d(nrexmitpack_) \
        $d(nrexmit_) [expr {$d(ncwndcuts1_) - $d(nrexmit_)}]]
}

# measure.tcl empties result_hooks when it is sourced: add ours after that.
proc add_counters {args} {
    global result_hooks
    if {[lsearch -exact $result_hooks tcp_counters] < 0} { lappend result_hooks tcp_counters }
}
trace add variable ::result_hooks write add_counters

set argv [lassign $argv script]
set argc [llength $argv]
set argv0 $script
source $script
