# Closed-loop users of short-lived TCP (paper E Sec 3.4, paper A Sec VI),
# as pacesim's [traffic.short] models them: a user transfers a file of
# Pareto size (mean MEAN bytes, shape ALPHA), and when the sender has the
# ACK of its last packet, thinks for an exponential time (mean THINK s),
# then opens a new connection for the next file.
#
# Each file is a NEW agent pair (Agent/TCP/<variant> + sink): SYN, initial
# window, slow start, fresh RTT estimator and timers. A file of s bytes is
# ceil(s / 1000) packets (`advanceby`). When the transfer is done, both
# agents are detached onto a per-host hole agent: packets of the closed
# connection still in flight are discarded at their endpoint, and the
# port is never reused (Classifier alloc-port only reuses free slots).
# A transfer's completion time runs from `advanceby` (the SYN leaves) to
# the sender's `done` callback (the ACK of its last packet arrives).
#
# Sizes and think times come from one RNG object of their own, so the
# topology's draws are those of the script without users.
#
# The script sourcing this file sets: ns, seed, warmup, variant, sinkclass,
# src(i), dst(i) (host nodes of flow i), and calls `users_setup` after
# measure.tcl; `user_open I` starts user I at its flow's start time.
# It overrides `acked` (measure.tcl) for users and adds " transfers=N
# transfer_goodput_kbps_mean=G" to the RESULT line; each of those transfers
# is a line "flow,start_s,bytes,fct_s" of $flows_csv.transfers.

proc users_setup {fraction mean shape think} {
    global urng ushape uxm uthink ntransfers gsum nusers ufrac
    set urng [new RNG]
    $urng seed $::seed
    $urng next-substream
    set ufrac $fraction
    set ushape $shape
    set uxm [expr {$mean * ($shape - 1.0) / $shape}]
    set uthink $think
    set ntransfers 0
    set gsum 0.0
    set ::transfers_out [open $::flows_csv.transfers w]
    puts $::transfers_out "flow,start_s,bytes,fct_s"
    lappend ::result_hooks users_result
}

# Flow i is a user when floor((i+1) f) > floor(i f): users spread evenly.
proc is_user {i} {
    global ufrac
    return [expr {floor(($i + 1) * $ufrac) > floor($i * $ufrac)}]
}

proc user_open {i} {
    global ns urng ushape uxm tcp usink ustart ubytes upk uopen cum hole variant sinkclass src dst
    # Pareto by inversion: x_m (1 - U)^(-1/alpha), whole bytes rounded up.
    set bytes [expr {int(ceil($uxm * pow(1.0 - [$urng uniform 0 1], -1.0 / $ushape)))}]
    set t [new Agent/TCP/$variant]
    set k [new $sinkclass]
    $ns attach-agent $src($i) $t
    $ns attach-agent $dst($i) $k
    $ns connect $t $k
    $t proc done {} "user_done $i"
    if {![info exists cum($i)]} { set cum($i) 0 }
    set tcp($i) $t
    set usink($i) $k
    set ustart($i) [$ns now]
    set ubytes($i) $bytes
    set upk($i) [expr {($bytes + 999) / 1000}]
    set uopen($i) 1
    $t advanceby $upk($i)
}

proc user_done {i} {
    global ns urng uthink tcp usink ustart ubytes upk uopen cum hole src dst warmup ntransfers gsum
    set now [$ns now]
    if {$ustart($i) >= $warmup} {
        incr ntransfers
        set gsum [expr {$gsum + $ubytes($i) * 8.0 / ($now - $ustart($i)) / 1000.0}]
        puts $::transfers_out "$i,$ustart($i),$ubytes($i),[expr {$now - $ustart($i)}]"
    }
    incr cum($i) $upk($i)
    set uopen($i) 0
    foreach {node agent} [list $src($i) $tcp($i) $dst($i) $usink($i)] {
        if {![info exists hole($node)]} { set hole($node) [new Agent/Null] }
        $node detach $agent $hole($node)
    }
    set wait [expr {-$uthink * log(1.0 - [$urng uniform 0 1])}]
    $ns at [expr {$now + $wait}] "user_open $i"
}

# Data packets acknowledged so far: closed connections' files plus the open
# one's cumulative ACK (its SYN is sequence number 0, data 1..N).
rename acked bulk_acked
proc acked {i} {
    global tcp uopen cum
    if {![is_user $i]} { return [bulk_acked $i] }
    if {![info exists cum($i)]} { return 0 }
    set open [expr {$uopen($i) ? max(0, [$tcp($i) set ack_]) : 0}]
    return [expr {$cum($i) + $open}]
}

proc users_result {phase} {
    global ntransfers gsum
    if {$phase ne "finish"} { return "" }
    close $::transfers_out
    return [format " transfers=%d transfer_goodput_kbps_mean=%.4f" $ntransfers \
        [expr {$ntransfers > 0 ? $gsum / $ntransfers : 0.0}]]
}
