# Set global variables, then run one of the reference scripts with its own
# arguments: the variables a script reads from a wrapper when they exist
# (ebase.tcl: core_rate, edge_rate, access_lo, access_hi in Mb/s, window in
# packets).
#
#   ns setvars.tcl NAME=VALUE ... SCRIPT ARGS...
#
# e.g. `ns setvars.tcl window=20 access_lo=100 access_hi=100 ebase.tcl 10 100
# 20000 1 200 50 flows.csv`: E-base with ns-2's default advertised window and
# paper E Fig. 5's 100 Mb/s access links. SCRIPT is relative to this
# directory (paced/ebase_edge.tcl and the like work too).
while {[string match *=* [lindex $argv 0]]} {
    set argv [lassign $argv pair]
    regexp {^([^=]+)=(.*)$} $pair -> name value
    set $name $value
}
set script [file join [file dirname [info script]] [lindex $argv 0]]
set argv [lrange $argv 1 end]
set argc [llength $argv]
source $script
