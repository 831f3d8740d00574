#!/bin/sh
# ns-2 2.35 for qtmix.py: bench/ns2/paced/build.sh's tree (the project's
# Queue/QLBP compiled in) with one fix to Tmix's one-way agents.
#
#   bench/ns2/tmix/build.sh [DIR]     # DIR defaults to /work/ns2-tmix; prints DIR/ns-2.35/ns
#
# The fix. When a one-way connection ends, ns-2 2.35's Tmix puts its agents
# back in a pool and gives them to a later connection (after 1 s), calling
# TmixOneWayAgent::reset() (tmix/tmixAgent.cc), which resets the TCP sender
# but not its TCPSink: it casts the sink to TcpAgent, which a TcpSink is not,
# so the cast is null and TcpSink::reset() never runs. The recycled sink
# keeps the old connection's next expected sequence number; the new sender,
# reset to 0, reads the sink's ACK of the old sequence as covering its first
# ADU, sends nothing more, and the connection never delivers that ADU
# (Debian's /usr/bin/ns does the same: 3,171,720 bytes leave PN over [20,
# 30] s of qtmix.tcl's no-pacing run with either binary, against 5,568,280
# with the fix and in pacesim). The fix casts to TcpSink, whose reset() also
# marks older packets as a previous incarnation's; pacesim's Tmix does the
# same (a recycled flow gets a fresh sender and sink, and the old
# connection's packets are discarded on arrival). Short runs that recycle
# no agent (bench/ns2/tmix/tmix.tcl's 60 s on the samples, compare.py) give
# the same results with either.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:-/work/ns2-tmix}
NS=$DIR/ns-2.35
sh "$HERE/../paced/build.sh" "$DIR" > /dev/null
OLD='if(TcpAgent\* s = dynamic_cast<TcpAgent\*>(sink))'
if grep -q "$OLD" "$NS/tmix/tmixAgent.cc"; then
    sed -i "s/$OLD/if(TcpSink* s = dynamic_cast<TcpSink*>(sink))/" "$NS/tmix/tmixAgent.cc"
    sed -i 's/^#include "tcp-full.h"$/#include "tcp-full.h"\n#include "tcp-sink.h"/' "$NS/tmix/tmixAgent.cc"
    rm -f "$NS/tmix/tmixAgent.o" "$NS/ns"
    sh "$HERE/../debian_tree.sh" "$DIR" make
fi
echo "$NS/ns"
