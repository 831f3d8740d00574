# Building blocks shared by the reference scripts: the simulator and its
# random streams, a long-lived TCP flow and a byte-limited drop-tail queue.

# The simulator $ns; $defaultRNG and the script's own RNG object $rng (its
# topology and start-time draws) seeded with $seed; $sinkclass the sink of
# suffix SINK ("" for the plain Agent/TCPSink).
proc simulator {sink} {
    global ns rng sinkclass defaultRNG seed
    set ns [new Simulator]
    $defaultRNG seed $seed
    set rng [new RNG]
    $rng seed $seed
    set sinkclass [expr {$sink eq "" ? "Agent/TCPSink" : "Agent/TCPSink/$sink"}]
}

# Long-lived flow I from node FROM to node TO: Agent/TCP/$variant to a
# $sinkclass sink, its packets (and, TCPSink copying it, its ACKs) with fid
# FID, driven by an FTP; sets tcp(I) and returns the FTP, not started.
proc bulk_flow {i from to {fid 0}} {
    global ns tcp variant sinkclass
    set tcp($i) [new Agent/TCP/$variant]
    set sink [new $sinkclass]
    $tcp($i) set fid_ $fid
    $ns attach-agent $from $tcp($i)
    $ns attach-agent $to $sink
    $ns connect $tcp($i) $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp($i)
    return $ftp
}

# DropTail queue Q in byte mode with a limit of exactly BYTES: drop-tail.cc
# drops an arriving packet when bytes queued + its size >= the limit.
proc byte_limit {q bytes} {
    $q set queue_in_bytes_ true
    $q set mean_pktsize_ 1
    $q set limit_ $bytes
}

# The aggregate UDP source (papers A Sec V-A, E Sec 5) from node FROM to a
# LossMonitor on node TO: an Agent/UDP with fid 1 (TCP flows have 0) and
# packetSize_ 1500, so each packet its application hands it is sent whole
# at the size it is given. Returns the agent.
proc udp_agent {from to} {
    global ns
    set udp [new Agent/UDP]
    $udp set fid_ 1
    $udp set packetSize_ 1500
    set lm [new Agent/LossMonitor]
    $ns attach-agent $from $udp
    $ns attach-agent $to $lm
    $ns connect $udp $lm
    return $udp
}

# Application/Traffic/Trace reading the binary file TRACE (per packet the
# gap to the next in us and its size in bytes, two big-endian 32-bit words;
# ns-2 starts it at a random record and loops), not started.
proc trace_app {trace} {
    set tfile [new Tracefile]
    $tfile filename $trace
    set app [new Application/Traffic/Trace]
    $app attach-tracefile $tfile
    return $app
}
