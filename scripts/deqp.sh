#!/bin/sh
# Runs dEQP-VK cases on the simulated card and/or lavapipe and tabulates the results.
#   scripts/deqp.sh --chips cayman,barts --lavapipe 'dEQP-VK.compute.*'
#   scripts/deqp.sh --caselist tests/deqp/ci-cases.txt --expectations tests/deqp
#   scripts/deqp.sh --summary deqp-results/cayman.csv deqp-results/barts.csv
# deqp-vk comes from DEQP_VK, else from ../shared/deqp. `scripts/deqp.sh --help` lists options;
# docs/deqp.md describes the workflow.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
exec /usr/bin/python3 "$root/scripts/deqp_runner.py" "$@"
