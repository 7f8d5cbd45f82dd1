#!/usr/bin/env python3
"""Counts test results after `meson test`: each GoogleTest case counts on its own (from the XML
report meson has every 'gtest' protocol test write as <build>/<test name>.xml), every other
registered test counts once. A GoogleTest binary that failed without reporting a failed case
(a crash, a leak report, a bad exit) adds one failure. Prints "N passed, N failed[, N skipped]"
as the last line and exits 1 if anything failed. Takes one or more build folders."""
import json
import os
import sys
import xml.etree.ElementTree as ElementTree

passed = failed = skipped = 0

runs = []
for build_dir in sys.argv[1:]:  # several build folders (the sanitizer build) add up
    with open(os.path.join(build_dir, 'meson-logs', 'testlog.json'), encoding='utf-8') as log:
        runs += [(build_dir, json.loads(line)) for line in log if line.strip()]

for build_dir, run in runs:
    ok = run['result'] in ('OK', 'EXPECTEDFAIL')
    short_name = run['name'].split(' / ')[-1]
    report = os.path.join(build_dir, short_name + '.xml')
    if run.get('protocol') == 'gtest' or os.path.exists(report):
        cases_failed = 0
        if os.path.exists(report):
            for case in ElementTree.parse(report).getroot().iter('testcase'):
                if case.find('failure') is not None:
                    cases_failed += 1
                elif case.find('skipped') is not None or case.get('result') == 'skipped' \
                        or case.get('status') == 'notrun':
                    skipped += 1
                else:
                    passed += 1
        failed += cases_failed
        if not ok and cases_failed == 0:
            failed += 1
    elif ok:
        passed += 1
    elif run['result'] == 'SKIP':
        skipped += 1
    else:
        failed += 1

line = '%d passed, %d failed' % (passed, failed)
if skipped:
    line += ', %d skipped' % skipped
print(line)
sys.exit(1 if failed else 0)
