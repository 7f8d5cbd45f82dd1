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

# The API tests again in an AddressSanitizer/LeakSanitizer + UndefinedBehaviorSanitizer build
# of Terakan's code (a second build folder, BUILD_DIR-sanitizers, where only what the api suite
# runs is built; Mesa's libraries, uninstrumented, are copied from the main folder, not
# compiled again). Its results count in the summary like the others.
# TERAKAN_SKIP_SANITIZERS=1 leaves it (and the ThreadSanitizer stage below) out while
# iterating; so do extra meson test arguments.
summary_dirs="$build_dir"
if [ "${TERAKAN_SKIP_SANITIZERS:-0}" != 1 ] && [ $# -eq 0 ]; then
    sanitizer_dir="$build_dir-sanitizers"
    if TERAKAN_MESON_OPTIONS="-Dsanitize=address,undefined" TERAKAN_BUILD_SUITE=api \
        TERAKAN_REUSE_MESA_FROM="$build_dir" \
        "$root/scripts/build.sh" "$sanitizer_dir" >"$sanitizer_dir-build.log" 2>&1; then
        rm -f "$sanitizer_dir"/*.xml
        meson test -C "$sanitizer_dir" --no-rebuild --print-errorlogs --suite api || status=$?
        summary_dirs="$summary_dirs $sanitizer_dir"
    else
        cat "$sanitizer_dir-build.log" >&2
        echo "terakan: the sanitizer build failed (log above)" >&2
        status=1
    fi
    # The tsan suite (threads racing on the shader variant cache and the queue) in a
    # ThreadSanitizer build of Terakan's code, BUILD_DIR-tsan.
    tsan_dir="$build_dir-tsan"
    if TERAKAN_MESON_OPTIONS="-Dsanitize=thread" TERAKAN_BUILD_SUITE=tsan \
        TERAKAN_REUSE_MESA_FROM="$build_dir" \
        "$root/scripts/build.sh" "$tsan_dir" >"$tsan_dir-build.log" 2>&1; then
        rm -f "$tsan_dir"/*.xml
        meson test -C "$tsan_dir" --no-rebuild --print-errorlogs --suite tsan || status=$?
        summary_dirs="$summary_dirs $tsan_dir"
    else
        cat "$tsan_dir-build.log" >&2
        echo "terakan: the ThreadSanitizer build failed (log above)" >&2
        status=1
    fi
fi
# shellcheck disable=SC2086
/usr/bin/python3 "$root/scripts/test_summary.py" $summary_dirs || status=1
exit $status
