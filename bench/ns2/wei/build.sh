#!/bin/sh
# Build ns-2 2.35 from Debian's source with Wei's TCP pacing patch applied:
# the diff published in github.com/maesoser/ns2_bbr (drafts/add_pacing.md),
# read from a local copy of that repository. For a Debian 12 (bookworm)
# machine, run as root.
#
#   git clone https://github.com/maesoser/ns2_bbr /tmp/ns2_bbr
#   bench/ns2/wei/build.sh /tmp/ns2_bbr [DIR]     # DIR defaults to /work/ns2-wei
#   bench/ns2/wei/build.sh --sack1-paced /tmp/ns2_bbr [DIR]   # DIR defaults to /work/ns2-wei-sack
#
# --sack1-paced: our completion, not in the published patch: Sack1's own
# send_much, which the patch leaves ungated (so SACK is not paced), goes
# through the same pacing gate as TcpAgent's and Fack's (one call of the
# patch's setup_maxburst at its top). Built in a DIR of its own (run_wei.py
# --sack1-paced looks in /work/ns2-wei-sack unless given --build DIR).
#
# Source tree DIR/ns-2.35, binary DIR/ns-2.35/ns (printed at the end and
# written to DIR/READY). Steps (see README.md):
#  1. bench/ns2/debian_tree.sh: Debian's source unpacked, fixed for gcc 12
#     and configured, as for bench/ns2/paced/build.sh (a tree already
#     configured is kept).
#  2. apply_wei.py: the markdown diff applied hunk by hunk, once (a tree
#     marked DIR/WEI_APPLIED is not patched again).
#  3. (--sack1-paced: the gate into tcp-sack1.cc.)
#     gcc 12 fix of the patched sources: pace_gap's debug print casts `this`
#     to int, an error on 64-bit; cast through long.
#  4. make -j2 ns, with debian_tree.sh's flags.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
FLAVOUR=as-published
if [ "${1:-}" = --sack1-paced ]; then
    FLAVOUR=sack1-paced
    shift
fi
[ $# -ge 1 ] || { echo "usage: $0 [--sack1-paced] NS2_BBR_REPO [DIR]" >&2; exit 2; }
REPO=$(cd "$1" && pwd)
[ -f "$REPO/drafts/add_pacing.md" ] || { echo "$REPO/drafts/add_pacing.md: not found" >&2; exit 2; }
if [ "$FLAVOUR" = sack1-paced ]; then DIR=${2:-/work/ns2-wei-sack}; else DIR=${2:-/work/ns2-wei}; fi
NS=$DIR/ns-2.35

sh "$HERE/../debian_tree.sh" "$DIR"
if [ ! -f "$DIR/WEI_APPLIED" ]; then
    python3 "$HERE/apply_wei.py" "$REPO" "$NS"
    sed -i 's/(int) this, delay, pace_rtt_, cwnd, ss);/(int)(long) this, delay, pace_rtt_, cwnd, ss);/' \
        "$NS/tcp/tcp.cc"
    grep -q '(int)(long) this, delay' "$NS/tcp/tcp.cc"
    if [ "$FLAVOUR" = sack1-paced ]; then
        perl -0pi -e 's/(void Sack1TcpAgent::send_much\(int force, int reason, int maxburst\)\n\{.*?\n\tif \(!force && delsnd_timer_\.status\(\) == TIMER_PENDING\)\n\t\treturn;\n)/$1\t\/\/ --sack1-paced (bench\/ns2\/wei\/build.sh): the pacing gate\n\tif (pace_packet_ && !setup_maxburst(&force, &maxburst))\n\t\treturn;\n/s' \
            "$NS/tcp/tcp-sack1.cc"
        grep -q -- '--sack1-paced' "$NS/tcp/tcp-sack1.cc"
    fi
    echo "$FLAVOUR" > "$DIR/WEI_APPLIED"
fi
[ "$(cat "$DIR/WEI_APPLIED")" = "$FLAVOUR" ] \
    || { echo "$DIR holds the $(cat "$DIR/WEI_APPLIED") build, not $FLAVOUR: use another DIR" >&2; exit 2; }
sh "$HERE/../debian_tree.sh" "$DIR" make
echo "$NS/ns" > "$DIR/READY"
echo "$NS/ns"
