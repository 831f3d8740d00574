# E-base (ebase.tcl) with every route installed by hand: `$ns rtproto
# Manual` and, per host, a default route towards the core and the core's
# route back to it (ebase.tcl's route_host). The same network and the same
# RESULT as ebase.tcl, for timing ns-2 as an expert would set it up: its
# default static routing spends most of its set-up computing all-pairs
# routes for 2,022 nodes. Bulk TCP only (no UDP host, no short-lived users).
#
#   ns ebase_manual.tcl EDGES HOSTS_PER_EDGE BUFFER_BYTES SEED DURATION_S WARMUP_S FLOWS_CSV [VARIANT] ...

set manual_routes 1
source [file join [file dirname [info script]] ebase.tcl]
