# One bulk TCP flow between two nodes whose link to the receiver drops the
# packets of the given numbers (ErrorModel/List, counted from 0: for the
# first window, the data packets of those sequence numbers), shared by
# reno_episode.tcl and sack_blocks.tcl. 50 ms each way at 10 Gb/s
# (serialisation under a microsecond), 1000 B segments, window_ 1000; the
# FTP starts at 0. Sets the globals ns, n0 (sender's node), n1, tcp. With
# a channel `trace`, every link is traced to it (`trace-all`).
#
#   source pair.tcl; lossy_pair Agent/TCP/Reno Agent/TCPSink {40 45}

proc lossy_pair {agent sinkclass drops {trace ""}} {
    global ns n0 n1 tcp
    set ns [new Simulator]
    if {$trace ne ""} { $ns trace-all $trace }
    Agent/TCP set packetSize_ 1000
    Agent/TCP set window_ 1000
    Queue set limit_ 100000
    set n0 [$ns node]
    set n1 [$ns node]
    $ns duplex-link $n0 $n1 10Gb 50ms DropTail
    set em [new ErrorModel/List]
    $em droplist $drops
    $ns lossmodel $em $n0 $n1
    set tcp [new $agent]
    set sink [new $sinkclass]
    $ns attach-agent $n0 $tcp
    $ns attach-agent $n1 $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    $ns at 0 "$ftp start"
}
