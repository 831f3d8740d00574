#!/bin/sh
# Build ns-2 2.35 from Debian's source with this directory's C++ files
# (bench/ns2/paced/*.cc, *.h: host pacing, and whatever else is put here)
# compiled in. For a Debian 12 (bookworm) machine, run as root.
#
#   bench/ns2/paced/build.sh [DIR]      # DIR defaults to /work/ns2
#
# Source tree DIR/ns-2.35, binary DIR/ns-2.35/ns (printed at the end and
# written to DIR/READY). Rerunning it is cheap: it copies changed files,
# refreshes the Makefile's object list and runs make again; it unpacks and
# configures only a tree it has not configured yet. Another helper's copy
# of the tree (cp -a DIR/ns-2.35 ELSEWHERE) builds the same way with
# DIR = ELSEWHERE's parent.
#
# Steps 1-5 (source, dependencies, configure and compiler fixes) are
# bench/ns2/debian_tree.sh's; then:
#  6. tcp/tcp-sack1.h: Sack1TcpAgent is declared inside tcp-sack1.cc; the
#     paced subclass needs the declaration, so we copy it, token for token,
#     into a header.
#  7. Every bench/ns2/paced/*.cc and *.h goes to DIR/ns-2.35/paced/, each
#     .cc's object into the Makefile's OBJ_CC list; make -j2.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:-/work/ns2}
NS=$DIR/ns-2.35
sh "$HERE/../debian_tree.sh" "$DIR"

if [ ! -f "$NS/tcp/tcp-sack1.h" ]; then
    cd "$NS"
    # 6. Sack1TcpAgent's declaration as a header.
    { echo '#ifndef ns_tcp_sack1_h'; echo '#define ns_tcp_sack1_h'
      echo '#include "tcp.h"'; echo '#include "scoreboard.h"'
      sed -n '/^class Sack1TcpAgent : public TcpAgent {/,/^};/p' tcp/tcp-sack1.cc
      echo '#endif'; } > tcp/tcp-sack1.h
fi

# 7. This directory's files into the tree (a changed file rebuilds them all,
# since make knows no header dependencies), their objects into OBJ_CC.
cd "$NS"
mkdir -p paced
changed=0
for f in "$HERE"/*.cc "$HERE"/*.h; do
    [ -f "$f" ] || continue
    if ! cmp -s "$f" "paced/$(basename "$f")"; then
        cp "$f" paced/
        changed=1
    fi
done
if [ "$changed" = 1 ]; then
    rm -f paced/*.o ns
fi
objs=$(cd paced && ls *.cc 2>/dev/null | sed 's|^\(.*\)\.cc$|paced/\1.o|' | tr '\n' ' ')
sed -i '/^\tpaced\/.* \\$/d' Makefile
if [ -n "$objs" ]; then
    sed -i "s|^OBJ_CC = \\\\\$|OBJ_CC = \\\\\n\t$objs \\\\|" Makefile
fi
sh "$HERE/../debian_tree.sh" "$DIR" make
echo "$NS/ns" > "$DIR/READY"
echo "$NS/ns"
