# Run one of bench/ns2/paced's scripts on the ns-2 built by build.sh (Wei's
# pacing patch) instead of the one built with tcp-paced.cc:
#
#   ns shim.tcl SCRIPT ARGS...      (e.g. ns shim.tcl ../paced/ws5.tcl 40 57 ...)
#
# Those scripts create Agent/TCP/VARIANT/Paced agents (VARIANT Reno, Newreno,
# Sack1 or Fack: the patch gates Fack's send_much as TcpAgent's) and set or
# read three of their variables. Here each such class
# is an OTcl subclass of the patched binary's own Agent/TCP/VARIANT, with
#   pace_mode_          -> the patch's pace_packet_ (0 none, 1 original,
#                          2 modified: the same numbering);
#   fast_cuts_ (read)   -> ncwndcuts1_ - nrexmit_: window cuts other than
#                          idle or no-outstanding-data ones, less the
#                          timeouts, i.e. the cuts on ACK arrival (fast
#                          retransmits), as tcp-paced.cc counts them;
#   pace_srtt_          -> a plain variable (the patch binds no pacing RTT).
# Everything else, scenario and measurement, is the script's own.

foreach v {Reno Newreno Sack1 Fack} {
    Class Agent/TCP/$v/Paced -superclass Agent/TCP/$v
    Agent/TCP/$v/Paced instproc set {var args} {
        if {$var eq "pace_mode_"} {
            return [eval $self next pace_packet_ $args]
        } elseif {$var eq "fast_cuts_" && [llength $args] == 0} {
            return [expr {[$self next ncwndcuts1_] - [$self next nrexmit_]}]
        }
        eval $self next [list $var] $args
    }
}

set argv [lassign $argv script]
set argc [llength $argv]
set argv0 $script
source $script
