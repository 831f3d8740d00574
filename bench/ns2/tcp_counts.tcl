# Add the TCP senders' retransmissions and timeouts in the measurement
# window to a reference script's RESULT line (measure.tcl), then run it:
#
#   ns setvars.tcl NAME=VALUE ... tcp_counts.tcl SCRIPT ARGS...
#
# e.g. `ns setvars.tcl window=100000 tcp_counts.tcl ebase.tcl 1 100 5000 1 60
# 20 flows.csv Sack1 Sack1`. The RESULT line gains retransmits= (Agent/TCP's
# nrexmitpack_: packets sent again) and timeouts= (nrexmit_: retransmission
# timeouts that cut the window), each summed over every sender tcp(I) and
# taken over [warmup, duration] as the script's other counters are. The
# hook joins measure.tcl's result_hooks when that file creates the list.

proc tcp_counts {phase} {
    global n tcp tcp_counts0
    set now [list 0 0]
    for {set i 0} {$i < $n} {incr i} {
        lassign $now r t
        set now [list [expr {$r + [$tcp($i) set nrexmitpack_]}] [expr {$t + [$tcp($i) set nrexmit_]}]]
    }
    if {$phase eq "snapshot"} {
        set tcp_counts0 $now
        return ""
    }
    lassign $now r t
    lassign $tcp_counts0 r0 t0
    return [format " retransmits=%d timeouts=%d" [expr {$r - $r0}] [expr {$t - $t0}]]
}

proc tcp_counts_join {args} {
    global result_hooks
    if {[lsearch -exact $result_hooks tcp_counts] < 0} { lappend result_hooks tcp_counts }
}
trace add variable ::result_hooks write tcp_counts_join

set script [file join [file dirname [info script]] [lindex $argv 0]]
set argv [lrange $argv 1 end]
set argc [llength $argv]
source $script
