#!/bin/sh
# Puts Mesa 22.3.6 from Debian bookworm's `mesa` source package into subprojects/mesa, or, with
# MESA_SOURCE=/path/to/mesa-22.3.6 in the environment, links that tree there instead.
#
# The source entries are derived from this machine's own configured Debian sources (deb822
# files or sources.list lines of type "deb"), so no host name is written into the project.
# apt verifies the downloaded files against the signed Sources index. Does nothing when
# subprojects/mesa already holds 22.3.6.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
target="$root/subprojects/mesa"
wanted_version=22.3.6

if [ -f "$target/VERSION" ] && [ "$(cat "$target/VERSION")" = "$wanted_version" ]; then
    exit 0
fi

# An already unpacked tree elsewhere (another distribution's Mesa 22.3.6 source, say).
if [ -n "${MESA_SOURCE:-}" ]; then
    if [ "$(cat "$MESA_SOURCE/VERSION" 2>/dev/null)" != "$wanted_version" ]; then
        echo "terakan: MESA_SOURCE=$MESA_SOURCE is not a Mesa $wanted_version tree" >&2
        exit 1
    fi
    rm -f "$target"
    ln -s "$(cd "$MESA_SOURCE" && pwd)" "$target"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "terakan: subprojects/mesa is missing; run scripts/fetch-mesa.sh as root, or configure" \
         "with -Dmesa_source=/path/to/mesa-$wanted_version" >&2
    exit 1
fi

source_list=/etc/apt/sources.list.d/terakan-deb-src.sources
if [ ! -f "$source_list" ]; then
    tmp=$(mktemp)
    # deb822 files: keep each stanza that names Debian and turn its type into deb-src.
    for file in /etc/apt/sources.list.d/*.sources; do
        [ -f "$file" ] || continue
        [ "$file" = "$source_list" ] && continue
        awk 'BEGIN { RS = ""; ORS = "\n\n" }
             /Types:[^\n]*deb/ && /debian/ { sub(/Types:[^\n]*/, "Types: deb-src"); print }' \
            "$file" >> "$tmp"
    done
    # One-line sources.list entries.
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$file" ] || continue
        grep -E '^deb[[:space:]]' "$file" | grep debian | while read -r _type rest; do
            options=""
            case "$rest" in "["*) options="${rest%%]*}]"; rest="${rest#*] }";; esac
            set -- $rest
            uri=$1; suite=$2; shift 2
            printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: %s\n' "$uri" "$suite" "$*"
            case "$options" in *signed-by=*)
                key=${options#*signed-by=}; key=${key%%[] ]*}
                printf 'Signed-By: %s\n' "$key";;
            esac
            printf '\n'
        done >> "$tmp"
    done
    if [ ! -s "$tmp" ]; then
        echo "terakan: no Debian package sources are configured on this machine; unpack Mesa" \
             "$wanted_version yourself and configure with -Dmesa_source=PATH" >&2
        rm -f "$tmp"
        exit 1
    fi
    install -m 644 "$tmp" "$source_list"
    rm -f "$tmp"
    apt-get update -q
fi

work=$(mktemp -d "$root/subprojects/.mesa-download.XXXXXX")
chmod 755 "$work" # apt's unprivileged download user must be able to write here
trap 'rm -rf "$work"' EXIT
cd "$work"
# apt checks sizes and hashes against the signed index; dpkg-source unpacks and applies
# Debian's patches. The orig tarball version is what we need; the Debian revision may vary.
apt-get source -q "mesa=$wanted_version-*" || apt-get source -q mesa
unpacked=$(find . -mindepth 1 -maxdepth 1 -type d -name "mesa-$wanted_version" | head -n 1)
if [ -z "$unpacked" ] || [ "$(cat "$unpacked/VERSION")" != "$wanted_version" ]; then
    echo "terakan: apt did not provide mesa $wanted_version" >&2
    exit 1
fi
rm -rf "$target"
mv "$unpacked" "$target"
echo "terakan: Mesa $wanted_version unpacked into subprojects/mesa"
