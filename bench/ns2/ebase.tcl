# E-base (paper E Sec 3.1) in ns-2 2.35: the reference pacesim is checked against.
#
#   ns ebase.tcl EDGES HOSTS_PER_EDGE BUFFER_BYTES SEED DURATION_S WARMUP_S FLOWS_CSV [VARIANT] [SINK] [QUEUE] [SCALE] [SHORT]
#
# VARIANT is the Agent/TCP class suffix (Reno by default; Newreno, Sack1,
# Fack, ...), SINK the Agent/TCPSink class suffix ("" for the plain sink,
# Sack1 for the SACK sink), QUEUE the core queue: DropTail (default) or RED.
# RED (paper E Fig. 9): byte mode with mean_pktsize_ 1000, so thresholds and
# limit are in KB: limit_ = BUFFER, maxthresh_ = BUFFER, thresh_ = 0.4 BUFFER,
# linterm_ 10 (max_p 0.1), q_weight_ 0.002; every other parameter is ns-2
# 2.35's default (bytes_, queue_in_bytes_, gentle_, wait_, use_mark_p_ true).
# SCALE (default 1) multiplies every link rate (pacesim's `scaled`, the
# sweeps' quick versions: each flow keeps its share of the core); the
# random draws are the same. SHORT = FRACTION,MEAN_BYTES,SHAPE,THINK_S makes
# that share of the flows closed-loop users (users.tcl; paper E Sec 3.4),
# opening their first connection at the flow's start time.
#
# Dumbbell: EDGES ingress edge nodes feed core node c0, each with
# HOSTS_PER_EDGE access links (one TCP/Reno sender each); c0-c1 is the core
# link (100 Mb/s, 100 ms); the sinks mirror the senders behind c1, each
# right-hand link a twin (same rate and delay) of its left-hand one.
# Access links U[8,12] Mb/s, U[1,5] ms; edge links 100 Mb/s, U[5,15] ms.
# A wrapper may set core_rate, edge_rate (Mb/s) and access_lo, access_hi
# (the access rates' range, Mb/s) before sourcing this script (paper E
# Fig. 8's non-bottleneck core: bench/ns2/efig8.tcl), and core_delay,
# edge_delay_lo/hi, access_delay_lo/hi (ms; bench/ns3's dumbbells, every
# delay fixed); unset, they are E-base's (the draws are the same either way).
# A wrapper may define proc udp_host (bench/ns2/ebase_udp.tcl: paper E
# Sec 5's UDP host), called after the TCP hosts are built; the core's
# monitor is then a flow monitor by fid (TCP 0, UDP 1), and the RESULT line
# adds tcp_mbps, udp_loss (measure.tcl's classes_result).
# Only the c0->c1 queue can drop: DropTail in byte mode with a limit of
# exactly BUFFER_BYTES (mean_pktsize_ 1, limit_ = bytes; drop-tail.cc drops
# when bytes queued + packet size >= the limit). Every other queue is huge.
# TCP: Agent/TCP/Reno + Agent/TCPSink, packetSize_ 1000, window_ 1000 (a
# wrapper may set `window`: bench/ns2/setvars.tcl; ns-2's own default, paper
# E's reading, is 20), all other ns-2 defaults (so data packets are 1040 B on the wire, ACKs 40 B).
# Flows start U[0,10] s. Counters only, no trace files:
#   aggregate = c0->c1 departures over [W,T] x 1040 B (packet counters: the
#               QueueMonitor byte counters are 32-bit and wrap);
#   goodput   = growth of each sender's ack_ over [W,T] x 1000 B;
#   loss      = drops / arrivals at c0->c1 over [W,T].
# Prints one line "RESULT key=value ..." and writes per-flow goodputs.

lassign $argv edges hosts buffer seed duration warmup flows_csv variant sinktype qtype scale short
if {$variant eq ""} { set variant Reno }
if {$qtype eq ""} { set qtype DropTail }
if {$scale eq ""} { set scale 1 }
# Mb/s after scaling.
foreach {var default} {core_rate 100 edge_rate 100 access_lo 8 access_hi 12 window 1000 core_delay 100
        edge_delay_lo 5 edge_delay_hi 15 access_delay_lo 1 access_delay_hi 5} {
    if {![info exists $var]} { set $var $default }
}
proc mbps {rate} {
    return [expr {$rate * $::scale}]Mb
}
set sinkclass [expr {$sinktype eq "" ? "Agent/TCPSink" : "Agent/TCPSink/$sinktype"}]

set ns [new Simulator]
# bench/ns2/ebase_manual.tcl sets manual_routes: ns-2's Manual routing, every
# route installed by hand below (route_host), as an expert would to skip the
# all-pairs route computation that is most of ns-2's set-up here.
if {[info exists manual_routes]} { $ns rtproto Manual }
$defaultRNG seed $seed
set rng [new RNG]
$rng seed $seed
proc uniform {lo hi} {
    global rng
    return [$rng uniform $lo $hi]
}

Agent/TCP set packetSize_ 1000
Agent/TCP set window_ $window
Queue set limit_ 10000000

source [file join [file dirname [info script]] flows.tcl]

set c0 [$ns node]
set c1 [$ns node]
$ns simplex-link $c0 $c1 [mbps $core_rate] ${core_delay}ms $qtype
$ns simplex-link $c1 $c0 [mbps $core_rate] ${core_delay}ms DropTail
set q [[$ns link $c0 $c1] queue]
if {$qtype eq "RED"} {
    set kb [expr {$buffer / 1000.0}]
    $q set mean_pktsize_ 1000
    $q set limit_ [expr {$buffer / 1000}]
    $q set maxthresh_ $kb
    $q set thresh_ [expr {0.4 * $kb}]
    $q set linterm_ 10
    $q set q_weight_ 0.002
} else {
    byte_limit $q $buffer
}
if {[info procs udp_host] eq ""} {
    set qmon [$ns monitor-queue $c0 $c1 0]
} else {
    set qmon [$ns makeflowmon Fid]
    $ns attach-fmon [$ns link $c0 $c1] $qmon
}

# The ingress edge link E_S(e) <-> C0 with its delay in ms. A wrapper script
# may define ingress_link before sourcing this one to put another queue
# there (bench/ns2/paced/ebase_edge.tcl puts the edge pacer on E_S -> C0).
if {[info procs ingress_link] eq ""} {
    proc ingress_link {es c0 delay e} {
        global ns edge_rate
        $ns duplex-link $es $c0 [mbps $edge_rate] ${delay}ms DropTail
    }
}

source [file join [file dirname [info script]] measure.tcl]
if {$short ne ""} {
    source [file join [file dirname [info script]] users.tcl]
    users_setup {*}[split $short ,]
    lappend result_hooks classes_result
}

# Manual routes for sender s behind edge es and its sink d behind edge ed:
# each host and edge sends everything it does not deliver towards the core,
# the core nodes send everything across the core link but the packets for
# the hosts behind their own edges.
proc route_host {s es d ed} {
    global ns c0 c1
    foreach {host edge core} [list $s $es $c0 $d $ed $c1] {
        [$host get-module Manual] add-route-to-adj-node -default $edge
        [$edge get-module Manual] add-route-to-adj-node $host
        [$edge get-module Manual] add-route-to-adj-node -default $core
        [$core get-module Manual] add-route [$host set address_] [[$ns link $core $edge] head]
    }
}
if {[info exists manual_routes]} {
    [$c0 get-module Manual] add-route-to-adj-node -default $c1
    [$c1 get-module Manual] add-route-to-adj-node -default $c0
}

set n 0
for {set e 0} {$e < $edges} {incr e} {
    set es [$ns node]
    set ed [$ns node]
    set edelay [uniform $edge_delay_lo $edge_delay_hi]
    ingress_link $es $c0 $edelay $e
    $ns duplex-link $c1 $ed [mbps $edge_rate] ${edelay}ms DropTail
    for {set h 0} {$h < $hosts} {incr h} {
        set s [$ns node]
        set d [$ns node]
        set rate [uniform $access_lo $access_hi]
        set delay [uniform $access_delay_lo $access_delay_hi]
        $ns duplex-link $s $es [mbps $rate] ${delay}ms DropTail
        $ns duplex-link $ed $d [mbps $rate] ${delay}ms DropTail
        if {[info exists manual_routes]} { route_host $s $es $d $ed }
        if {[is_user $n]} {
            set src($n) $s
            set dst($n) $d
            $ns at [uniform 0 10] "user_open $n"
            incr n
            continue
        }
        set ftp [bulk_flow $n $s $d]
        $ns at [uniform 0 10] "$ftp start"
        incr n
    }
}

if {[info procs udp_host] ne ""} {
    udp_host
    lappend result_hooks classes_result
}

$ns at $warmup "snapshot"
$ns at $duration "finish"
$ns run
