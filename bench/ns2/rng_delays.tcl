# The access delays abase.tcl draws for each seed: its RNG object seeded
# with SEED (flows.tcl's `$rng seed $seed`), HOSTS draws U[1, 25] ms in host
# order, as abase.tcl makes its host pairs. One line per seed: the seed, the
# mean delay (ms) and the first SHOW delays (ms).
#
#   ns rng_delays.tcl FIRST LAST [HOSTS 100] [SHOW 6]
#
# ns-2's RNG seeded with a small integer does not draw independent streams:
# host 0 gets 1.0-1.1 ms at every seed 1-24, host 2 about 1 + 0.34 SEED ms,
# and the mean over hosts 0-99 is 12.78 ms over seeds 1-400 (12.54 over
# 1-24), not U[1, 25]'s 13 (A-fig8.1: ns-2's core rate 0.7 % above
# pacesim's at 100 window-limited flows, whose rate is 20 packets per RTT).

lassign $argv first last hosts show
if {$hosts eq ""} { set hosts 100 }
if {$show eq ""} { set show 6 }
set ns [new Simulator]
for {set s $first} {$s <= $last} {incr s} {
    set rng [new RNG]
    $rng seed $s
    set d {}
    for {set i 0} {$i < $hosts} {incr i} { lappend d [$rng uniform 1 25] }
    set mean [expr {[tcl::mathop::+ {*}$d] / $hosts}]
    puts [format "%d %.3f %s" $s $mean [join [lmap x [lrange $d 0 [expr {$show - 1}]] {format %.2f $x}]]]
}
