# Counters shared by the reference scripts (ebase.tcl, wan.tcl, abase.tcl,
# qdumbbell.tcl, wdumbbell.tcl): at the warm-up, `snapshot` reads the core
# QueueMonitor $qmon and every flow's `acked` count; at the end, `finish`
# writes per-flow goodput to $flows_csv and prints one "RESULT key=value
# ..." line for the window [warmup, duration]. Goodput counts Agent/TCP's
# packetSize_ (1000 B but in wdumbbell.tcl) of payload per packet;
# aggregate_mbps assumes 1040 B data packets (core_mbps from
# classes_result counts the bytes).
#
# `acked I` is flow I's highest cumulative ACK (sender's ack_, packets);
# users.tcl redefines it for short-lived flows. Every proc in
# $result_hooks is called as `HOOK snapshot` and `HOOK finish`; what the
# latter returns is appended to the RESULT line.
#
# Pacers (bench/ns2/paced/): the array pacer(NAME) of Queue/EdgePacer or
# Queue/QLBP objects, if the script made one; `snapshot` resets their
# delay counters and `finish` prints one "PACER name=NAME ..." line each
# (packets handed to the link, drops, mean and max delay through it).

set result_hooks {}

proc acked {i} {
    global tcp
    return [$tcp($i) set ack_]
}

# Whether flow I is a closed-loop user (users.tcl redefines it): none here.
proc is_user {i} {
    return 0
}

proc snapshot {} {
    global qmon n arr0 dep0 drop0 ack0 result_hooks
    set arr0 [$qmon set parrivals_]
    set dep0 [$qmon set pdepartures_]
    set drop0 [$qmon set pdrops_]
    for {set i 0} {$i < $n} {incr i} { set ack0($i) [acked $i] }
    foreach hook $result_hooks { $hook snapshot }
    global pacer
    foreach name [array names pacer] { $pacer($name) reset-stats }
}

proc finish {} {
    global qmon n arr0 dep0 drop0 ack0 duration warmup flows_csv result_hooks
    set span [expr {$duration - $warmup}]
    set payload [Agent/TCP set packetSize_]
    set arr [expr {[$qmon set parrivals_] - $arr0}]
    set dep [expr {[$qmon set pdepartures_] - $dep0}]
    set drop [expr {[$qmon set pdrops_] - $drop0}]
    set f [open $flows_csv w]
    puts $f "flow,goodput_kbps"
    set sum 0.0
    for {set i 0} {$i < $n} {incr i} {
        set g [expr {([acked $i] - $ack0($i)) * $payload * 8.0 / $span / 1000.0}]
        puts $f "$i,$g"
        set sum [expr {$sum + $g}]
    }
    close $f
    set extra ""
    foreach hook $result_hooks { append extra [$hook finish] }
    puts [format "RESULT aggregate_mbps=%.4f goodput_kbps_mean=%.4f core_loss=%.6f core_arrivals=%d core_drops=%d core_departures=%d%s" \
        [expr {$dep * 1040 * 8.0 / $span / 1e6}] [expr {$sum / $n}] \
        [expr {$arr > 0 ? double($drop) / $arr : 0.0}] $arr $drop $dep $extra]
    global pacer
    foreach name [lsort -dictionary [array names pacer]] {
        set q $pacer($name)
        set k [$q set packets_]
        puts [format "PACER name=%s packets=%d drops=%d mean_delay_ms=%.6f max_delay_ms=%.6f" $name $k \
            [$q set drops_] [expr {$k > 0 ? 1e3 * [$q set delay_sum_] / $k : 0.0}] [expr {1e3 * [$q set delay_max_]}]]
    }
    exit 0
}

# Wire Mb/s leaving the core, from $qmon's byte counter, and, when $qmon is
# a flow monitor classifying by fid (abase.tcl: TCP fid 0, UDP fid 1), the
# same per class (TCP: data and SYNs) with UDP arrivals and loss. Byte
# counters are 32-bit: differences are taken mod 2^32, exact while a window
# carries under 4 GB.
proc classes_result {phase} {
    global qmon class0 duration warmup
    set now [dict create core [list [$qmon set bdepartures_] 0 0]]
    if {[catch {$qmon flows} flows]} { set flows {} }
    foreach fl $flows {
        dict set now [$fl set flowid_] [list [$fl set bdepartures_] [$fl set parrivals_] [$fl set pdrops_]]
    }
    if {$phase eq "snapshot"} {
        set class0 $now
        return ""
    }
    set span [expr {$duration - $warmup}]
    set out ""
    foreach {key name} {core core 0 tcp 1 udp} {
        if {$key ne "core" && $flows eq ""} { continue }
        lassign [class_counters $now $key] b a d
        lassign [class_counters $class0 $key] b0 a0 d0
        append out [format " %s_mbps=%.4f" $name [expr {(($b - $b0) % 4294967296) * 8.0 / $span / 1e6}]]
        if {$name eq "udp"} {
            set a [expr {$a - $a0}]
            set d [expr {$d - $d0}]
            append out [format " udp_arrivals=%d udp_drops=%d udp_loss=%.6f" $a $d [expr {$a > 0 ? double($d) / $a : 0.0}]]
        }
    }
    return $out
}

# A class's {bytes departed, packets arrived, packets dropped}; zeros before its first packet.
proc class_counters {counts key} {
    if {[dict exists $counts $key]} { return [dict get $counts $key] }
    return {0 0 0}
}
