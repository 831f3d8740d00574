# abase.tcl with the core's drops and each bulk flow's loss counters written
# out (A-fig8.1, issue 31 Sec 4: where ns-2 2.35 and pacesim part at 100
# flows under window_ 20):
#
#   ns ns2_drops.tcl DROPS COUNTS abase.tcl-arguments ...
#
# DROPS: one line per packet dropped at r0 -> r1 (ns-2's queue trace, "d"
# events only: time s, from, to, type, size B, flags, fid, src, dst, seq,
# uid). COUNTS: CSV flow,timeouts,rexmit_packets,cwnd_cuts and the final
# cwnd_ (packets, unbounded past window_), ssthresh_ (packets) at the end.
# Both cover the whole run, warm-up included.

set drops_file [lindex $argv 0]
set counts_file [lindex $argv 1]
set argv [lrange $argv 2 end]

# Run abase.tcl with a queue trace on the core, piped through grep so that
# only its drops reach the disk, and the counters written at the end.
Simulator instproc run_abase {} [Simulator info instbody run]
Simulator instproc run {} {
    global r0 r1 drops_file
    $self trace-queue $r0 $r1 [open "|grep {^d} > $drops_file" w]
    $self at [expr {$::duration - 1e-9}] "write_counts"
    $self run_abase
}
proc write_counts {} {
    global tcp n counts_file
    set f [open $counts_file w]
    puts $f "flow,timeouts,rexmit_packets,cwnd_cuts,cwnd,ssthresh"
    for {set i 0} {$i < $n} {incr i} {
        if {![info exists tcp($i)]} { continue }
        set t $tcp($i)
        puts $f [join [list $i [$t set nrexmit_] [$t set nrexmitpack_] [$t set ncwndcuts_] \
                                [$t set cwnd_] [$t set ssthresh_]] ,]
    }
    close $f
}
source [file join [file dirname [info script]] abase.tcl]
