#!/bin/sh
# The README's test command: sets up, builds, runs every registered test, and ends with
# "N passed, N failed[, N skipped]". Exits non-zero if anything failed.
# Usage: scripts/test.sh [BUILD_DIR] [meson test arguments...]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-"$root/build"}
[ $# -gt 0 ] && shift

"$root/scripts/build.sh" "$build_dir" >"$build_dir-build.log" 2>&1 || {
    # The folder may not exist yet if set-up failed; the log sits next to it.
    cat "$build_dir-build.log" >&2
    echo "0 passed, 1 failed (the build failed; log above)"
    exit 1
}

# Reports of an earlier run must not be counted again.
rm -f "$build_dir"/*.xml
status=0
meson test -C "$build_dir" --no-rebuild --print-errorlogs "$@" || status=$?
/usr/bin/python3 "$root/scripts/test_summary.py" "$build_dir" || status=1
exit $status
