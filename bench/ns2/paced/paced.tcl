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
