#!/usr/bin/python3
"""Lets a freshly configured build folder reuse the Mesa libraries another folder compiled.

scripts/test.sh builds Terakan three times (plain, ASan/UBSan, TSan). The sanitizers are
applied to Terakan's code only, so Mesa's objects are the same in the three folders, and
compiling them again costs minutes of CI. Ninja rebuilds an output when it is missing, when
its command's hash in .ninja_log differs from the command it would run now, or when an
input is newer than the time the log recorded. So, for every Mesa output the source folder
built, this copies the file (with its modification time) and writes a log entry that carries
the target folder's own command hash; the dependency log (.ninja_deps, header lists keyed by
relative paths) is copied whole. An output is reused only when the two folders would run the
same command for it, or commands that differ only by the folder's absolute path and the
file does not contain that path. Everything else (all of Terakan) is left for ninja to build.

Usage: reuse_mesa_objects.py SOURCE_BUILD_DIR TARGET_BUILD_DIR
Does nothing (and says why) unless the target folder has no .ninja_log yet.
"""
import json
import os
import shutil
import subprocess
import sys

MESA_PREFIX = "subprojects/"


def ninja_command_hash(command: str) -> int:
    """Ninja's build-log hash of a command line: MurmurHash64A with seed 0xDECAFBADDECAFBAD
    (ninja's src/build_log.cc; a fact about the log format)."""
    data = command.encode()
    mask = (1 << 64) - 1
    m, r = 0xC6A4A7935BD1E995, 47
    h = (0xDECAFBADDECAFBAD ^ (len(data) * m)) & mask
    whole = len(data) - len(data) % 8
    for i in range(0, whole, 8):
        k = int.from_bytes(data[i:i + 8], "little")
        k = (k * m) & mask
        k ^= k >> r
        k = (k * m) & mask
        h ^= k
        h = (h * m) & mask
    tail = data[whole:]
    if tail:
        h ^= int.from_bytes(tail, "little")
        h = (h * m) & mask
    h ^= h >> r
    h = (h * m) & mask
    h ^= h >> r
    return h


def commands_by_first_output(build_dir: str) -> dict:
    entries = json.loads(subprocess.run(["ninja", "-C", build_dir, "-t", "compdb"], check=True,
                                        capture_output=True, text=True).stdout)
    return {entry["output"]: entry["command"] for entry in entries}


def main() -> int:
    source, target = (os.path.realpath(path) for path in sys.argv[1:3])
    if os.path.exists(os.path.join(target, ".ninja_log")):
        print(f"reuse_mesa_objects: {target} has built before; left to ninja")
        return 0
    source_log = os.path.join(source, ".ninja_log")
    if not os.path.exists(source_log):
        print(f"reuse_mesa_objects: {source} has not built anything; nothing to reuse")
        return 0

    source_commands = commands_by_first_output(source)
    target_commands = commands_by_first_output(target)
    # Every output of one edge shares its hash in the log; map each source edge's hash to the
    # target's hash for the same edge, if the two commands are equivalent.
    hash_map = {}
    path_dependent = set()
    for output, command in source_commands.items():
        if not output.startswith(MESA_PREFIX) or output not in target_commands:
            continue
        target_command = target_commands[output]
        source_hash = ninja_command_hash(command)
        if target_command == command:
            hash_map[source_hash] = ninja_command_hash(target_command)
        elif command.replace(source, target) == target_command:
            hash_map[source_hash] = ninja_command_hash(target_command)
            path_dependent.add(source_hash)

    lines = ["# ninja log v5\n"]
    reused = skipped = 0
    newest = {}
    with open(source_log) as log:
        for line in log:
            if line.startswith("#"):
                continue
            start, end, mtime, output, hash_hex = line.rstrip("\n").split("\t")
            newest[output] = (start, end, mtime, hash_hex)  # later lines win, as in ninja
    for output, (start, end, mtime, hash_hex) in newest.items():
        if not output.startswith(MESA_PREFIX):
            continue
        source_hash = int(hash_hex, 16)
        source_file = os.path.join(source, output)
        if source_hash not in hash_map or not os.path.isfile(source_file):
            skipped += 1
            continue
        if source_hash in path_dependent:
            with open(source_file, "rb") as content:
                if source.encode() in content.read():
                    skipped += 1
                    continue
        target_file = os.path.join(target, output)
        os.makedirs(os.path.dirname(target_file), exist_ok=True)
        shutil.copy2(source_file, target_file)  # keeps the nanosecond modification time
        lines.append(f"{start}\t{end}\t{mtime}\t{output}\t{hash_map[source_hash]:x}\n")
        reused += 1

    shutil.copy2(os.path.join(source, ".ninja_deps"), os.path.join(target, ".ninja_deps"))
    with open(os.path.join(target, ".ninja_log"), "w") as log:
        log.writelines(lines)
    print(f"reuse_mesa_objects: {reused} Mesa outputs reused from {source}, {skipped} left to ninja")
    return 0


if __name__ == "__main__":
    sys.exit(main())
