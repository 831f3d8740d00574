# A small E-base written out link by link, traced at the core in ns-2's
# trace format: the ns-2 half of `pacesim trace diff` (bench/ns2/trace_ebase.py,
# bench/ns2/TRACE_DIFF.md).
#
#   ns trace_ebase.tcl PARAMS TRACE_FILE
#
# PARAMS is a Tcl file (trace_ebase.py writes it from pacesim's own draws,
# `pacesim topology show`, and its flows' start times) setting: duration (s),
# tick (TCP's clock tick, s), buffer (bytes), core_rate (b/s), core_delay (s), edges, hosts (per edge),
# edge_rate(e), edge_delay(e), access_rate(h), access_delay(h), start(h) for
# edge e and host h = e * hosts + i. Rates in b/s, delays and times in
# seconds, so both simulators see the same numbers.
#
# Nodes are created in pacesim's order, so their ids are pacesim's node
# numbers: routers first (c0 = 0, c1 = 1, then es<e> = 2 + 2e and
# ed<e> = 3 + 2e), then hosts (s<h> = 2 + 2E + 2h, d<h> = 3 + 2E + 2h).
# (bench/ns2/ebase.tcl creates them edge by edge instead: c0 = 0, c1 = 1,
# es<e> = 2 + e(2 + 2H), ed<e> = that + 1, and host i of edge e at
# s = es<e> + 2 + 2i, d = s + 1.)
#
# PARAMS also sets the TCP: variant and sinktype (Agent/TCP/$variant to
# Agent/TCPSink/$sinktype, "" the plain sink), window (window_, packets) and
# minrto (minrto_, s).
#
# Everything else is ebase.tcl's: packetSize_ 1000, the core c0 -> c1 a
# byte-mode DropTail of exactly BUFFER bytes, every other queue unlimited; each flow's fid_ is
# its index h, so the trace's flow ids are pacesim's. `$ns trace-queue`
# traces c0 -> c1 (`core`); ns-2 stops at `finish`, at DURATION.

lassign $argv params trace_file
source $params

set ns [new Simulator]
Agent/TCP set packetSize_ 1000
Agent/TCP set window_ $window
Agent/TCP set tcpTick_ $tick
Agent/TCP set minrto_ $minrto
Queue set limit_ 10000000
source [file join [file dirname [info script]] flows.tcl]
set sinkclass [expr {$sinktype eq "" ? "Agent/TCPSink" : "Agent/TCPSink/$sinktype"}]

set c0 [$ns node]
set c1 [$ns node]
for {set e 0} {$e < $edges} {incr e} {
    set es($e) [$ns node]
    set ed($e) [$ns node]
}
for {set h 0} {$h < $edges * $hosts} {incr h} {
    set s($h) [$ns node]
    set d($h) [$ns node]
}

$ns simplex-link $c0 $c1 $core_rate $core_delay DropTail
$ns simplex-link $c1 $c0 $core_rate $core_delay DropTail
byte_limit [[$ns link $c0 $c1] queue] $buffer
for {set e 0} {$e < $edges} {incr e} {
    $ns duplex-link $es($e) $c0 $edge_rate($e) $edge_delay($e) DropTail
    $ns duplex-link $c1 $ed($e) $edge_rate($e) $edge_delay($e) DropTail
    for {set i 0} {$i < $hosts} {incr i} {
        set h [expr {$e * $hosts + $i}]
        $ns duplex-link $s($h) $es($e) $access_rate($h) $access_delay($h) DropTail
        $ns duplex-link $ed($e) $d($h) $access_rate($h) $access_delay($h) DropTail
    }
}

set f [open $trace_file w]
$ns trace-queue $c0 $c1 $f

for {set h 0} {$h < $edges * $hosts} {incr h} {
    set ftp [bulk_flow $h $s($h) $d($h) $h]
    $ns at $start($h) "$ftp start"
}

proc finish {} {
    global ns f
    $ns flush-trace
    close $f
    exit 0
}
$ns at $duration "finish"
$ns run
