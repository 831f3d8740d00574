# Paper E Fig. 8 (Sec 3.6): the small-buffer core is not the bottleneck.
# E-base's shape with a 200 Mb/s core, 40 Mb/s edge links and access links
# U[1,2] Mb/s (10 edges x 10 hosts = 100 flows), run through one of the
# E-base scripts with their own arguments:
#
#   ns efig8.tcl ebase.tcl|paced/ebase_host.tcl|paced/ebase_edge.tcl ARGS...
#
# ebase.tcl reads the rates from core_rate, edge_rate, access_lo, access_hi.
set core_rate 200
set edge_rate 40
set access_lo 1
set access_hi 2
set script [file join [file dirname [info script]] [lindex $argv 0]]
set argv [lrange $argv 1 end]
source $script
