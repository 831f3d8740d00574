# A-base (paper A Sec II, Fig. 1) in ns-2 2.35, as pacesim's a-base
# topology builds it (scenarios/a-base.toml):
#
#   ns abase.tcl key value ...   (keys and defaults in `opt` below)
#
# Routers r0 -> r1 joined by the core (CORE b/s, 50 ms); HOSTS TCP senders,
# each on its own access link into r0 (ACCESS b/s, U[1, 25] ms drawn per
# host), its sink behind r1 on a link of the same rate and no delay; one
# UDP sender on its own link (UDP_ACCESS b/s, 5 ms) and its sink behind r1
# (same rate, no delay). All links duplex. Only r0 -> r1 can drop: DropTail
# in byte mode with a limit of exactly BUFFER bytes (see ebase.tcl); every
# other queue is huge. The core's monitor is a flow monitor by fid (TCP 0,
# UDP 1), so the RESULT line also has tcp_mbps, udp_loss (measure.tcl).
#
# TCP: Agent/TCP/Reno + Agent/TCPSink, packetSize_ 1000, window_ WINDOW
# (`window`, 1000 unless given; ns-2's own default, paper A's reading, is 20), other
# ns-2 defaults (1040 B data packets, 40 B ACKs); FTPs start U[0, 10] s.
# `short FRACTION,MEAN_BYTES,SHAPE,THINK_S` makes that share of the flows
# closed-loop users (users.tcl), starting at the same U[0, 10] s.
# UDP (`udp`): none; cbr (Application/Traffic/CBR at UDP_RATE b/s in
# UDP_SIZE-byte packets); or trace (Application/Traffic/Trace reading the
# binary file TRACE; flows.tcl's udp_agent and trace_app).
# `twoway 1` (A-fig23, paper A Sec VII): every host also sends to the host
# it receives from: host pair i carries flow i (s_i -> d_i) and flow
# HOSTS + i (d_i -> s_i, also Reno to a TCPSink, started U[0, 10] s), so
# data and ACKs of both directions share both core queues; r1 -> r0 gets
# the same byte limit as r0 -> r1. The RESULT line adds, per direction,
# data and ACK loss at the core (data_loss, ack_loss at r0 -> r1;
# rev_data_loss, rev_ack_loss, rev_mbps at r1 -> r0), from flow monitors
# classifying by fid: forward flows 0, reverse flows 3 (a TCPSink's ACK
# carries its data packet's fid, so at r0 -> r1 fid 0 is data and fid 3
# ACKs, and the other way round at r1 -> r0). goodput_kbps_mean is over
# all 2 HOSTS flows.
# `empty_gap S` (A-fig17): the RESULT line adds empty_prob, P(core queue
# empty) sampled at exponential gaps of mean S seconds (below).
# `hurst 1` (A-fig7, A-fig8): the RESULT line adds beta(s) and the Hurst
# parameter of the core's arrivals (below).
# `manual_routes 1`: ns-2's Manual routing with every route installed by
# hand (each host's default towards its router, each router's route to its
# own hosts, r0's and r1's defaults across the core): the same paths and
# RESULT as the default static routing, without its all-pairs route
# computation, most of the set-up of a 2000-host run (as ebase_manual.tcl).
# `cwnd_csv FILE` (A-fig4): every bulk flow's cwnd_ sampled every 50 ms over
# [WARMUP, DURATION], its mean written to FILE (flow, mean_cwnd).
# Randomness: $defaultRNG and an RNG object seeded with SEED; the RNG draws,
# in topology order, each host's delay, then each flow's start time (the
# reverse flows' after the forward ones').

array set opt {
    hosts 1000 access 10e6 core 100e6 udp_access 100e6 buffer 10000 seed 1
    duration 200 warmup 50 flows_csv /dev/null variant Reno sink ""
    udp none udp_rate 5e6 udp_size 200 trace "" short "" twoway 0 cwnd_csv "" empty_gap 0 hurst 0
    window 1000 manual_routes 0
}
array set opt $argv
foreach var {seed duration warmup flows_csv variant} { set $var $opt($var) }

source [file join [file dirname [info script]] flows.tcl]
simulator $opt(sink)
if {$opt(manual_routes)} { $ns rtproto Manual }

Agent/TCP set packetSize_ 1000
Agent/TCP set window_ $opt(window)
Queue set limit_ 10000000


set r0 [$ns node]
set r1 [$ns node]
$ns simplex-link $r0 $r1 $opt(core) 50ms DropTail
$ns simplex-link $r1 $r0 $opt(core) 50ms DropTail
byte_limit [[$ns link $r0 $r1] queue] $opt(buffer)
if {$opt(manual_routes)} {
    [$r0 get-module Manual] add-route-to-adj-node -default $r1
    [$r1 get-module Manual] add-route-to-adj-node -default $r0
}
set qmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $r0 $r1] $qmon
if {$opt(twoway)} {
    byte_limit [[$ns link $r1 $r0] queue] $opt(buffer)
    set rmon [$ns makeflowmon Fid]
    $ns attach-fmon [$ns link $r1 $r0] $rmon
}

source [file join [file dirname [info script]] measure.tcl]
lappend result_hooks classes_result
if {$opt(short) ne ""} {
    source [file join [file dirname [info script]] users.tcl]
    users_setup {*}[split $opt(short) ,]
}

# A host pair behind r0 and r1 (sender link RATE, DELAY; sink link RATE, 0).
proc host_pair {rate delay} {
    global ns r0 r1 opt
    set s [$ns node]
    set d [$ns node]
    $ns duplex-link $s $r0 $rate ${delay}ms DropTail
    $ns duplex-link $r1 $d $rate 0ms DropTail
    if {$opt(manual_routes)} {
        foreach {host router} [list $s $r0 $d $r1] {
            [$host get-module Manual] add-route-to-adj-node -default $router
            [$router get-module Manual] add-route-to-adj-node $host
        }
    }
    return [list $s $d]
}

set n $opt(hosts)
for {set i 0} {$i < $n} {incr i} {
    lassign [host_pair $opt(access) [$rng uniform 1 25]] src($i) dst($i)
}
# Flow I from FROM to TO with fid FID, started U[0, 10] s.
proc bulk {i from to fid} {
    global ns rng
    $ns at [$rng uniform 0 10] "[bulk_flow $i $from $to $fid] start"
}
for {set i 0} {$i < $n} {incr i} {
    if {[is_user $i]} {
        $ns at [$rng uniform 0 10] "user_open $i"
    } else {
        bulk $i $src($i) $dst($i) 0
    }
}
if {$opt(twoway)} {
    for {set i 0} {$i < $opt(hosts)} {incr i} { bulk [expr {$n + $i}] $dst($i) $src($i) 3 }
    set n [expr {2 * $n}]
    lappend result_hooks twoway_result
}

# Data and ACK loss at each core queue, and the reverse direction's wire Mb/s.
proc twoway_result {phase} {
    global qmon rmon two0 duration warmup
    set now {}
    foreach {dir mon} [list fwd $qmon rev $rmon] {
        dict set now $dir mbps [$mon set bdepartures_]
        foreach fid {0 3} { dict set now $dir $fid {0 0} }
        foreach fl [$mon flows] {
            dict set now $dir [$fl set flowid_] [list [$fl set parrivals_] [$fl set pdrops_]]
        }
    }
    if {$phase eq "snapshot"} {
        set two0 $now
        return ""
    }
    set out ""
    foreach {dir prefix data ack} {fwd "" 0 3 rev rev_ 3 0} {
        foreach {class fid} [list data $data ack $ack] {
            lassign [dict get $now $dir $fid] a d
            lassign [dict get $two0 $dir $fid] a0 d0
            set a [expr {$a - $a0}]
            append out [format " %s%s_loss=%.6f" $prefix $class [expr {$a > 0 ? double($d - $d0) / $a : 0.0}]]
        }
    }
    set b [expr {([dict get $now rev mbps] - [dict get $two0 rev mbps]) % 4294967296}]
    return [append out [format " rev_mbps=%.4f" [expr {$b * 8.0 / ($duration - $warmup) / 1e6}]]]
}

if {$opt(udp) ne "none"} {
    lassign [host_pair $opt(udp_access) 5] us ud
    set udp [udp_agent $us $ud]
    if {$opt(udp) eq "cbr"} {
        set app [new Application/Traffic/CBR]
        $app set packetSize_ $opt(udp_size)
        $app set rate_ $opt(udp_rate)
    } else {
        set app [trace_app $opt(trace)]
    }
    $app attach-agent $udp
    $ns at 0 "$app start"
}

# A-fig4: each bulk flow's cwnd_, sampled every 50 ms from the warmup on; the means at the end.
proc cwnd_sample {} {
    global ns tcp n cwnd_sum cwnd_count
    for {set i 0} {$i < $n} {incr i} {
        if {[info exists tcp($i)]} { set cwnd_sum($i) [expr {$cwnd_sum($i) + [$tcp($i) set cwnd_]}] }
    }
    incr cwnd_count
    $ns at [expr {[$ns now] + 0.05}] "cwnd_sample"
}
proc cwnd_write {} {
    global tcp n cwnd_sum cwnd_count opt
    set f [open $opt(cwnd_csv) w]
    puts $f "flow,mean_cwnd"
    for {set i 0} {$i < $n} {incr i} {
        if {[info exists tcp($i)]} { puts $f "$i,[expr {$cwnd_sum($i) / $cwnd_count}]" }
    }
    close $f
}
if {$opt(cwnd_csv) ne ""} {
    for {set i 0} {$i < $n} {incr i} { set cwnd_sum($i) 0.0 }
    set cwnd_count 0
    $ns at $warmup "cwnd_sample"
    $ns at [expr {$duration - 1e-9}] "cwnd_write"
}

# A-fig17: P(core queue empty), the share of time r0 -> r1 holds no packet
# waiting (the one in transmission is not in ns-2's queue), as pacesim's
# core_empty_prob: sampled at exponential gaps of mean EMPTY_GAP s over
# [WARMUP, DURATION] (Poisson sampling sees the time average), from an RNG
# of its own so the topology's and users' draws stay as they are.
proc empty_sample {} {
    global ns qmon erng opt empty_n empty_hits
    incr empty_n
    if {[$qmon set pkts_] == 0} { incr empty_hits }
    $ns at [expr {[$ns now] + [$erng exponential $opt(empty_gap)]}] "empty_sample"
}
proc empty_result {phase} {
    global empty_n empty_hits
    if {$phase eq "snapshot"} {
        empty_sample
        return ""
    }
    return [format " empty_prob=%.6f empty_samples=%d" [expr {double($empty_hits) / $empty_n}] $empty_n]
}
if {$opt(empty_gap) > 0} {
    set erng [new RNG]
    $erng seed $seed
    $erng next-substream
    $erng next-substream
    set empty_n 0
    set empty_hits 0
    lappend result_hooks empty_result
}

# A-fig7, A-fig8: beta(s), the CoV of the bytes arriving at r0 -> r1 (dropped
# ones too) per interval s, for s = 2^k us, k = 10..23 (1 ms to 8.4 s), over
# [WARMUP, DURATION]; bins of 1024 us read off the monitor's byte counter
# (32-bit: differences mod 2^32) and summed upward by powers of two, as
# pacesim's metrics/burstiness.rs. The RESULT line adds hurst = 1 + the
# least-squares slope of ln beta on ln s (beta(s) ~ s^(H-1); pacesim's
# hurst_1ms) and beta_<k>=... per scale.
set bin_s 0.001024
set scales 14
proc bin_sample {} {
    global ns qmon bin_prev bin_n bin_open bin_sum bin_sq bin_count scales bin_s warmup
    set b [$qmon set barrivals_]
    set x [expr {double(($b - $bin_prev) % 4294967296)}]
    set bin_prev $b
    incr bin_n
    for {set k 0} {$k < $scales} {incr k} {
        set bin_open($k) [expr {$bin_open($k) + $x}]
        if {$bin_n % (1 << $k) == 0} {
            set bin_sum($k) [expr {$bin_sum($k) + $bin_open($k)}]
            set bin_sq($k) [expr {$bin_sq($k) + $bin_open($k) * $bin_open($k)}]
            incr bin_count($k)
            set bin_open($k) 0.0
        }
    }
    $ns at [expr {$warmup + ($bin_n + 1) * $bin_s}] "bin_sample"
}
proc hurst_result {phase} {
    global qmon bin_prev bin_n bin_open bin_sum bin_sq bin_count scales bin_s ns warmup
    if {$phase eq "snapshot"} {
        set bin_prev [$qmon set barrivals_]
        set bin_n 0
        for {set k 0} {$k < $scales} {incr k} { lassign {0.0 0.0 0.0 0} bin_open($k) bin_sum($k) bin_sq($k) bin_count($k) }
        $ns at [expr {$warmup + $bin_s}] "bin_sample"
        return ""
    }
    set out ""
    set xs {}
    set ys {}
    for {set k 0} {$k < $scales} {incr k} {
        set n $bin_count($k)
        if {$n < 2} { continue }
        set mean [expr {$bin_sum($k) / $n}]
        set var [expr {$bin_sq($k) / $n - $mean * $mean}]
        set beta [expr {$var > 0 ? sqrt($var) / $mean : 0.0}]
        append out [format " beta_%d=%.6f" [expr {10 + $k}] $beta]
        if {$beta > 0} {
            lappend xs [expr {log($bin_s * 1e6 * (1 << $k))}]
            lappend ys [expr {log($beta)}]
        }
    }
    set m [llength $xs]
    set sx 0.0; set sy 0.0; set sxx 0.0; set sxy 0.0
    foreach x $xs y $ys {
        set sx [expr {$sx + $x}]; set sy [expr {$sy + $y}]
        set sxx [expr {$sxx + $x * $x}]; set sxy [expr {$sxy + $x * $y}]
    }
    set slope [expr {($m * $sxy - $sx * $sy) / ($m * $sxx - $sx * $sx)}]
    return [format " hurst=%.4f%s" [expr {1 + $slope}] $out]
}
if {$opt(hurst)} { lappend result_hooks hurst_result }

$ns at $warmup "snapshot"
$ns at $duration "finish"
$ns run
