# E-base (bench/ns2/ebase.tcl) with host pacing on a share of the senders.
#
#   ns ebase_host.tcl MODE FRACTION EDGES HOSTS_PER_EDGE BUFFER_BYTES SEED DURATION_S WARMUP_S FLOWS_CSV [VARIANT] [SINK] [QUEUE]
#
# MODE is original or modified (tcp-paced.cc), FRACTION the share of
# senders that pace, chosen as pacesim chooses them (paced.tcl `evenly`,
# flow i in ebase.tcl's order). Every sender is an Agent/TCP/VARIANT/Paced
# (VARIANT Reno by default); the unpaced ones have pace_mode_ 0, which is
# VARIANT itself. The rest is ebase.tcl's, run as it is.

set dir [file dirname [info script]]
source [file join $dir paced.tcl]
lassign $argv mode fraction
set argv [lrange $argv 2 end]
while {[llength $argv] < 8} { lappend argv "" }
set variant [lindex $argv 7]
if {$variant eq ""} { set variant Reno }
set argv [lreplace $argv 7 7 $variant/Paced]
pace_share Agent/TCP/$variant/Paced $mode $fraction
source [file join $dir .. ebase.tcl]
