# Counters shared by the reference scripts (ebase.tcl, wan.tcl): at the
# warm-up, `snapshot` reads the core QueueMonitor $qmon and every sender's
# ack_ ($tcp(0..n-1)); at the end, `finish` writes per-flow goodput to
# $flows_csv and prints one "RESULT key=value ..." line for the window
# [warmup, duration]. Data packets are 1040 B on the wire, payload 1000 B.
# Pacers (bench/ns2/paced/): the array pacer(NAME) of Queue/EdgePacer or
# Queue/QLBP objects, if the script made one; `snapshot` resets their
# delay counters and `finish` prints one "PACER name=NAME ..." line each
# (packets handed to the link, drops, mean and max delay through it).

proc snapshot {} {
    global qmon tcp n arr0 dep0 drop0 ack0
    set arr0 [$qmon set parrivals_]
    set dep0 [$qmon set pdepartures_]
    set drop0 [$qmon set pdrops_]
    for {set i 0} {$i < $n} {incr i} { set ack0($i) [$tcp($i) set ack_] }
    global pacer
    foreach name [array names pacer] { $pacer($name) reset-stats }
}

proc finish {} {
    global qmon tcp n arr0 dep0 drop0 ack0 duration warmup flows_csv
    set span [expr {$duration - $warmup}]
    set arr [expr {[$qmon set parrivals_] - $arr0}]
    set dep [expr {[$qmon set pdepartures_] - $dep0}]
    set drop [expr {[$qmon set pdrops_] - $drop0}]
    set f [open $flows_csv w]
    puts $f "flow,goodput_kbps"
    set sum 0.0
    for {set i 0} {$i < $n} {incr i} {
        set g [expr {([$tcp($i) set ack_] - $ack0($i)) * 1000 * 8.0 / $span / 1000.0}]
        puts $f "$i,$g"
        set sum [expr {$sum + $g}]
    }
    close $f
    puts [format "RESULT aggregate_mbps=%.4f goodput_kbps_mean=%.4f core_loss=%.6f core_arrivals=%d core_drops=%d core_departures=%d" \
        [expr {$dep * 1040 * 8.0 / $span / 1e6}] [expr {$sum / $n}] \
        [expr {$arr > 0 ? double($drop) / $arr : 0.0}] $arr $drop $dep]
    global pacer
    foreach name [lsort -dictionary [array names pacer]] {
        set q $pacer($name)
        set k [$q set packets_]
        puts [format "PACER name=%s packets=%d drops=%d mean_delay_ms=%.6f max_delay_ms=%.6f" $name $k \
            [$q set drops_] [expr {$k > 0 ? 1e3 * [$q set delay_sum_] / $k : 0.0}] [expr {1e3 * [$q set delay_max_]}]]
    }
    exit 0
}

