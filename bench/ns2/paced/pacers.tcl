# Class defaults of the pacer queues built from this directory's C++
# (edge_pacer.cc, qlbp.cc, paced_queue.cc); scripts source this before
# creating one, so no ns-default.tcl entry is needed. Rates are bits/s
# (ns-2 bandwidth strings), delays seconds (or time strings).
foreach cls {Queue/EdgePacer Queue/QLBP} {
    $cls set packets_ 0
    $cls set drops_ 0
    $cls set delay_sum_ 0
    $cls set delay_max_ 0
    $cls set link_bw_ 100Mb
}
Queue/EdgePacer set delay_ 10ms
Queue/QLBP set mu_max_ 100Mb
Queue/QLBP set mu_min_ 1Mb
Queue/QLBP set qmax_ 40
