# Shared by the paced scenarios: class defaults for the paced agents of
# tcp-paced.cc (every bound variable needs one), and which hosts pace.

foreach v {Reno Newreno Sack1} {
    Agent/TCP/$v/Paced set pace_mode_ 0
    Agent/TCP/$v/Paced set pace_srtt_ 0
    Agent/TCP/$v/Paced set fast_cuts_ 0
}

# pace_mode_ for "none", "original" and "modified" pacing.
array set pace_modes {none 0 original 1 modified 2}

# Whether host i is among a share f of hosts spread evenly, as pacesim picks
# them (crates/pacesim-core/src/scenario.rs `evenly`): floor((i+1) f) > floor(i f).
proc evenly {i f} {
    expr {floor(($i + 1) * $f) > floor($i * $f)}
}

# Make every agent of class `cls` created from now on pace with `mode` if
# it is among a share `fraction` of them (counted in order of creation).
proc pace_share {cls mode fraction} {
    global pace_modes paced_n paced_mode paced_fraction
    set paced_n 0
    set paced_mode $pace_modes($mode)
    set paced_fraction $fraction
    $cls instproc init args {
        global paced_n paced_mode paced_fraction
        eval $self next $args
        if {[evenly $paced_n $paced_fraction]} { $self set pace_mode_ $paced_mode }
        incr paced_n
    }
}

# Exponential on-off UDP cross traffic through the bottleneck R0 -> R1 (pacesim's `onoff`):
# a pair x-src -> R0, R1 -> x-dst on 1 Gb/s links of DELAY_MS, RATE_MBPS while on,
# mean on and off 0.5 s, 210 B packets, from time 0.
proc onoff_cross {r0 r1 delay_ms rate_mbps} {
    global ns
    set xs [$ns node]
    set xd [$ns node]
    $ns duplex-link $xs $r0 1Gb ${delay_ms}ms DropTail
    $ns duplex-link $r1 $xd 1Gb ${delay_ms}ms DropTail
    set udp [new Agent/UDP]
    set null [new Agent/Null]
    $ns attach-agent $xs $udp
    $ns attach-agent $xd $null
    $ns connect $udp $null
    set onoff [new Application/Traffic/Exponential]
    $onoff set packetSize_ 210
    $onoff set burst_time_ 0.5
    $onoff set idle_time_ 0.5
    $onoff set rate_ ${rate_mbps}Mb
    $onoff attach-agent $udp
    $ns at 0 "$onoff start"
}
