#!/bin/sh
# Build stock ns-2.28 (the version paper E names for its host-pacing runs),
# unpatched, from a public copy of its source, with bench/ns2/debian_tree.sh's
# fixes for gcc 12 and Debian 12's Tcl 8.6, otcl and tclcl. As root.
#
#   bench/ns2/wei/build228.sh NS228_SRC [DIR]     # DIR defaults to /work/ns2-228
#
# NS228_SRC is an ns-2.28 source directory, e.g. ns-allinone-2.28/ns-2.28
# of a clone of github.com/NICEkumar/temp (its files agree with the ns-2.28
# of github.com/soohyunc/USN apart from the CVS $Header$ lines). Binary
# DIR/ns-2.28/ns (printed, and written to DIR/READY).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 NS228_SRC [DIR]" >&2; exit 2; }
SRC=$(cd "$1" && pwd)
[ "$(cat "$SRC/VERSION")" = 2.28 ] || { echo "$SRC: not an ns-2.28 source tree" >&2; exit 2; }
DIR=${2:-/work/ns2-228}
NS2_SRC=$SRC sh "$HERE/../debian_tree.sh" "$DIR"
sh "$HERE/../debian_tree.sh" "$DIR" make
echo "$DIR/ns-2.28/ns" > "$DIR/READY"
echo "$DIR/ns-2.28/ns"
