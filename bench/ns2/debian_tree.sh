#!/bin/sh
# Unpack ns-2 2.35 from Debian's source into DIR/ns-2.35 and configure it
# with every fix gcc 12 / Debian 12 needs; or, with `make`, build its `ns`.
# Shared by bench/ns2/paced/build.sh and bench/ns2/wei/build.sh. For a
# Debian 12 (bookworm) machine, run as root.
#
#   bench/ns2/debian_tree.sh DIR          # unpack, fix, configure (once)
#   bench/ns2/debian_tree.sh DIR make     # make -j2 ns; DIR/make.log
#   NS2_SRC=TREE bench/ns2/debian_tree.sh DIR   # another ns-2 source tree
#
# A tree already configured (DIR/ns-2.*/Makefile exists) is left as is.
# NS2_SRC: an unpacked ns-2 source directory (its VERSION file names it; 2.35
# and 2.28 are known) copied to DIR/ns-VERSION instead of Debian's 2.35
# (bench/ns2/wei/build228.sh: ns-2.28 from a public mirror). 2.28 needs, on
# top of steps 3, 4 and 4b: configure looks for tcl2c++ in $d only (add
# $d/bin); forward declarations gcc 12 no longer infers from friend
# declarations (queue/cbq.cc CBQueue, tora/tora_neighbor.h toraAgent,
# diffusion3/filter_core/filter_core.hh DiffRoutingAgent, and the transmit-
# failure callbacks of dsr/dsragent.cc, diffusion/diffusion.cc and
# diffusion/omni_mcast.cc); the max(maxseq_, highest_ack_) fix of step 5;
# and C++98 with -fpermissive -w (its code predates C++11).
#
# Steps, and every fix (see bench/ns2/paced/README.md):
#  1. deb-src: a deb-src twin of each Debian deb entry (same URIs, suites,
#     components), so that `apt-get source ns2` finds the source package.
#  2. `apt-get source --download-only ns2`: the orig tarball arrives; the
#     packaging tarball ns2_2.35+dfsg-5.debian.tar.xz is gone from the
#     mirror (404). If it does arrive, its quilt patches are applied.
#     Debian builds with cmake from its packaging, which we lack, so we use
#     the upstream autoconf build.
#  3. Build dependencies from Debian: tcl-dev tk-dev libotcl1-dev
#     libtclcl1-dev tclcl libx11-dev libxext-dev libxt-dev libpcap0.8-dev.
#  4. configure fixes (its search lists for --with-X=/usr miss Debian's
#     layout): Tcl/Tk script libraries in /usr/share/tcltk/tcl8.6 and tk8.6;
#     libraries in /usr/lib/<multiarch>; tclInt.h in
#     /usr/include/tcl8.6/tcl-private/generic; tk.h in /usr/include/tcl8.6;
#     tclcl.h in /usr/include/tclcl.
#  5. Compiler fixes (gcc 12, C++17 by default):
#     - -DUSE_INTERP_RESULT: Tcl 8.6 hides Tcl_Interp::result, which
#       tclcl.h reads;
#     - tcp-fack.cc, tcp-linux.cc, tcp-fs.cc: max(maxseq_, highest_ack_) on
#       two TracedInts no longer matches std::max; compare their ints;
#     - webcache/pagepool.cc: Tcl_GetHashKey's void* needs a cast to char*;
#     - mdart/mdart_adp.cc: hash(...) is ambiguous with std::hash; ::hash;
#     - pushback/ident-tree.h: the same Tcl_GetHashKey cast;
#     - linkstate/ls.h: erase(...) in a class template needs baseMap::erase
#       (two-phase lookup);
#     - only the `ns` target is built (nse, nstk and indep-utils need more
#       fixes and are not used).
#     HAVE_INT64 off (4b below): Debian's libtclcl lacks the 64-bit bind;
#     so packmime/packmime_OL.h's int64_t maxpkts_ (bound) becomes an int.
#     -O2 (configure sets no optimisation level).
set -eu

DIR=$1
if [ -n "${NS2_SRC:-}" ]; then
    VER=$(cat "$NS2_SRC/VERSION")
else
    # The version of the tree already in DIR, else Debian's 2.35.
    VER=2.35
    for d in "$DIR"/ns-2.*; do
        [ -d "$d" ] && VER=${d##*/ns-}
    done
fi
NS=$DIR/ns-$VER
case $VER in
    2.35) CCOPT="-O2 -Wall -Wno-write-strings -DUSE_INTERP_RESULT" ;;
    2.28) CCOPT="-O2 -std=gnu++98 -fpermissive -w -DUSE_INTERP_RESULT" ;;
    *) echo "ns-$VER: no known fixes" >&2; exit 2 ;;
esac

if [ "${2:-}" = make ]; then
    cd "$NS"
    make -j2 ns CCOPT="$CCOPT" > "$DIR/make.log" 2>&1 \
        || { grep -E 'error|Error' "$DIR/make.log" | head -n 30; exit 1; }
    exit 0
fi

export DEBIAN_FRONTEND=noninteractive
mkdir -p "$DIR"

if [ ! -f "$NS/Makefile" ]; then
    # 1. deb-src entries mirroring the Debian deb ones.
    if ! apt-get source --print-uris ns2 >/dev/null 2>&1; then
        for f in /etc/apt/sources.list.d/*.sources; do
            [ -f "$f" ] || continue
            # deb822 stanzas whose Types has "deb" and whose URIs are Debian's.
            awk 'BEGIN { RS = ""; ORS = "\n\n" }
                 /Types:[^\n]*deb/ && /URIs:[^\n]*debian/ && !/Types:[^\n]*deb-src/ {
                     sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f"
        done > /etc/apt/sources.list.d/ns2-deb-src.sources
        if [ -f /etc/apt/sources.list ]; then
            sed -n 's/^deb \(.*debian.*\)$/deb-src \1/p' /etc/apt/sources.list \
                > /etc/apt/sources.list.d/ns2-deb-src.list
        fi
        apt-get update
    fi
    # 3. Build dependencies.
    apt-get install -y --no-install-recommends build-essential tcl-dev tk-dev libotcl1-dev \
        libtclcl1-dev tclcl libx11-dev libxext-dev libxt-dev libpcap0.8-dev xz-utils patch python3 perl
    MULTIARCH=$(gcc -print-multiarch)  # after build-essential: a bare machine has no gcc before it
    if [ -n "${NS2_SRC:-}" ]; then
        cp -a "$NS2_SRC" "$NS"
        chmod +x "$NS/configure" "$NS/config.guess" "$NS/config.sub" "$NS/install-sh"
    else
    # 2. Source: the orig tarball, and Debian's patches if they come too.
    mkdir -p "$DIR/src"
    (cd "$DIR/src" && apt-get source --download-only ns2 || true)
    orig=$(ls "$DIR"/src/ns2_2.35*.orig.tar.* | head -n 1)
    tar xf "$orig" -C "$DIR"
    deb=$(ls "$DIR"/src/ns2_2.35*.debian.tar.* 2>/dev/null | head -n 1 || true)
    if [ -n "$deb" ]; then
        tar xf "$deb" -C "$NS"
        if [ -f "$NS/debian/patches/series" ]; then
            grep -v '^#' "$NS/debian/patches/series" | while read -r p _; do
                [ -n "$p" ] && patch -d "$NS" -p1 -N < "$NS/debian/patches/$p"
            done
        fi
    fi
    fi
    cd "$NS"
    # 4. configure's search lists, extended with Debian's places.
    perl -0pi -e '
        s|^(TCL_TCL_PLACES_D=")\$d |$1\$d \$d/share/tcltk/tcl\$TCL_HI_VERS |m;
        s|^(TK_TCL_PLACES_D=")\$d |$1\$d \$d/share/tcltk/tk\$TK_HI_VERS |m;
        s|^((?:TCL\|TK\|OTCL)_LIB_PLACES_D=")\$d |$1\$d \$d/lib/'"$MULTIARCH"' |mg;
        s|^(TCLCL_LIB_PLACES_D=")\\|$1\$d/lib/'"$MULTIARCH"' \\|m;
        s|^(TCL_H_PLACES_D=")\$d/generic |$1\$d/generic \$d/include/tcl\$TCL_HI_VERS \$d/include/tcl\$TCL_HI_VERS/tcl-private/generic |m;
        s|^(TK_H_PLACES_D=")\$d |$1\$d \$d/include/tcl\$TK_HI_VERS |m;
        s|^(TCLCL_H_PLACES_D=")\$d |$1\$d \$d/include/tclcl |m;
        s|^TCLCL_PROG_PLACES_D="\$d"$|TCLCL_PROG_PLACES_D="\$d \$d/bin"|m;
    ' configure
    # 5. Sources that gcc 12 rejects.
    sed -i 's/maxseq_ = max(maxseq_, highest_ack_);/maxseq_ = max(int(maxseq_), int(highest_ack_));/' \
        tcp/tcp-fack.cc tcp/tcp-fs.cc
    if [ "$VER" = 2.28 ]; then
        # Forward declarations (see above), each checked.
        perl -0pi -e 's/\nclass CBQClass /\nclass CBQueue;\nclass CBQClass /' queue/cbq.cc
        perl -0pi -e 's/\nclass (\w+)/\nclass toraAgent;\nclass $1/' tora/tora_neighbor.h
        perl -0pi -e 's/\nclass DiffusionCoreAgent/\nclass DiffRoutingAgent;\nclass DiffusionCoreAgent/' \
            diffusion3/filter_core/filter_core.hh
        for f in dsr/dsragent.cc:XmitFailureCallback,XmitFlowFailureCallback \
                 diffusion/diffusion.cc:XmitFailedCallback diffusion/omni_mcast.cc:OmniMcastXmitFailedCallback; do
            for fn in $(echo "${f#*:}" | tr , ' '); do
                perl -0pi -e 's/^(#include[^\n]*\n)(?!.*^#include)/$1void '"$fn"'(Packet *pkt, void *data);\n/ms' "${f%%:*}"
                grep -q "^void $fn(Packet \*pkt, void \*data);" "${f%%:*}"
            done
        done
        grep -q '^class CBQueue;' queue/cbq.cc
        grep -q '^class toraAgent;' tora/tora_neighbor.h
        grep -q '^class DiffRoutingAgent;' diffusion3/filter_core/filter_core.hh
    else
    sed -i 's/maxseq_ = max(maxseq_, highest_ack_);/maxseq_ = max(int(maxseq_), int(highest_ack_));/' \
        tcp/tcp-linux.cc
    sed -i 's/char\* retVal = Tcl_GetHashKey(namemap_, he);/char* retVal = (char*)Tcl_GetHashKey(namemap_, he);/' \
        webcache/pagepool.cc
    sed -i 's/= hash(reqId);/= ::hash(reqId);/; s/= hash(mdart_->id_);/= ::hash(mdart_->id_);/' mdart/mdart_adp.cc
    sed -i 's/char \* key = Tcl_GetHashKey(hashTable_, he);/char * key = (char *)Tcl_GetHashKey(hashTable_, he);/' \
        pushback/ident-tree.h
    sed -i 's/void eraseAll() { erase(baseMap::begin(), baseMap::end()); }/void eraseAll() { baseMap::erase(baseMap::begin(), baseMap::end()); }/' \
        linkstate/ls.h
    fi
    ./configure --with-tcl=/usr --with-tcl-ver=8.6 --with-tk=/usr --with-tk-ver=8.6 \
        --with-otcl=/usr --with-tclcl=/usr > "$DIR/configure.log" 2>&1 \
        || { tail -n 20 "$DIR/configure.log"; exit 1; }
    # 4b. Debian's libtclcl is built without HAVE_INT64 (it has no
    # TclObject::bind(const char*, int64_t*)), so ns-2 must not use it
    # either: 32-bit QueueMonitor counters and event ids, as in Debian's ns.
    sed -i 's|^#define HAVE_INT64 1$|/* #undef HAVE_INT64 (as Debian libtclcl) */|' autoconf.h
    grep -q 'undef HAVE_INT64 (as Debian' autoconf.h
    # ... and 2.35's PackMimeOpenLoop binds an int64_t regardless: an int then.
    if [ "$VER" = 2.35 ]; then
        sed -i 's/^\tint64_t maxpkts_;/\tint maxpkts_;/' packmime/packmime_OL.h
        grep -q '^.int maxpkts_;' packmime/packmime_OL.h
    fi
fi
