# ns trace_start.tcl SEED SKIP: the uniform on [0, 1) that $defaultRNG,
# seeded as flows.tcl's `simulator` seeds it, gives after SKIP draws, to 17
# digits (bench/ns2/refs.py's ns2_trace_start: the record at which
# abase.tcl's Application/Traffic/Trace starts its UDP trace).
lassign $argv seed skip
set ns [new Simulator]
$defaultRNG seed $seed
set rng [new RNG]
$rng seed $seed
for {set i 0} {$i < $skip} {incr i} { $defaultRNG uniform 0 1 }
puts [format %.17g [$defaultRNG uniform 0 1]]
