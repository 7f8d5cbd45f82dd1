#!/usr/bin/env python3
"""Runs dEQP-VK cases on the simulated TeraScale card (and on lavapipe), in chunks of cases per
process, and writes one results file per device plus a summary table per group.

A process that crashes or outlives its time limit loses only the case it was running: the
cases of its chunk that had not started are run again in a new process. Results files are CSV
(case,status,reason), where status is dEQP's (Pass, Fail, NotSupported, QualityWarning,
CompatibilityWarning, ResourceError, InternalError) or the runner's own Crash and Timeout, and
reason is the first line of dEQP's result text.

The same module also compares a run with an expectations list (tests/deqp/) and prints the
share of lavapipe's passes that each device passes, per group (--summary). See
scripts/deqp.sh for the command-line entry and docs/deqp.md for the workflow."""
import argparse
import collections
import csv
import gzip
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ElementTree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Simulated boards by the names people use; TERAKAN_SIM_CHIP takes the family name.
CHIPS = {'cayman': 'CAYMAN', 'barts': 'BARTS', 'cypress': 'CYPRESS', 'juniper': 'JUNIPER',
         'turks': 'TURKS', 'caicos': 'CAICOS', 'cedar': 'CEDAR', 'redwood': 'REDWOOD',
         'aruba': 'ARUBA', 'palm': 'PALM', 'sumo': 'SUMO', 'sumo2': 'SUMO2',
         'hemlock': 'HEMLOCK'}

PASS_LIKE = ('Pass', 'QualityWarning', 'CompatibilityWarning')
STATUS_ORDER = ('Pass', 'Fail', 'Crash', 'Timeout', 'NotSupported', 'QualityWarning',
                'CompatibilityWarning', 'ResourceError', 'InternalError')


def find_deqp():
    """deqp-vk from DEQP_VK (a user's own CTS build), else the reduced build in ../shared."""
    explicit = os.environ.get('DEQP_VK')
    if explicit:
        return explicit
    for folder in (os.path.join(ROOT, '..', 'shared', 'deqp'), '/work/shared/deqp'):
        candidate = os.path.join(folder, 'deqp-vk')
        if os.path.exists(candidate):
            return os.path.realpath(candidate)
    return None


def archive_dir(deqp):
    """The folder with dEQP's data (vulkan/); DEQP_ARCHIVE_DIR overrides."""
    return os.environ.get('DEQP_ARCHIVE_DIR', os.path.dirname(deqp))


def lavapipe_icd():
    machine = os.uname().machine
    return '/usr/share/vulkan/icd.d/lvp_icd.%s.json' % machine


def device_environment(device, build_dir, compute_only):
    """The environment a deqp-vk process needs to run on DEVICE ('lavapipe' or a chip)."""
    env = dict(os.environ)
    env['VK_LOADER_LAYERS_DISABLE'] = 'VK_LAYER_MESA_device_select'
    env['NODEVICE_SELECT'] = '1'
    # Every process compiles for itself: no answers from an earlier build's disk cache.
    env['MESA_SHADER_CACHE_DISABLE'] = 'true'
    if compute_only:
        env['DEQP_COMPUTE_ONLY'] = '1'
    else:
        env.pop('DEQP_COMPUTE_ONLY', None)
    if device == 'lavapipe':
        icd = lavapipe_icd()
        env.pop('LD_PRELOAD', None)
    else:
        icd = os.path.join(build_dir, 'src', 'terakan', 'terakan_devenv_icd.%s.json' % os.uname().machine)
        env['LD_PRELOAD'] = os.path.join(build_dir, 'src', 'sim', 'libterakan_sim.so')
        env['TERAKAN_SIM_CHIP'] = CHIPS.get(device, device.upper())
        # The driver's own reason for a failure (a shader refused, a feature missing) goes to
        # stderr and into the results next to dEQP's.
        flags = [flag for flag in env.get('TERAKAN_DEBUG', '').split(',') if flag]
        env['TERAKAN_DEBUG'] = ','.join(flags + ['errors'])
    env['VK_DRIVER_FILES'] = icd
    env['VK_ICD_FILENAMES'] = icd
    return env


def list_cases(deqp, patterns):
    """Expands dEQP case patterns (dEQP-VK.compute.*) to case names, in dEQP's order."""
    cases = []
    with tempfile.TemporaryDirectory() as work:
        for pattern in patterns:
            subprocess.run([deqp, '--deqp-runmode=txt-caselist', '--deqp-case=' + pattern,
                            '--deqp-archive-dir=' + archive_dir(deqp)],
                           cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            with open(os.path.join(work, 'dEQP-VK-cases.txt'), encoding='utf-8') as listing:
                cases += [line[6:].strip() for line in listing if line.startswith('TEST: ')]
    return cases


def read_case_file(path):
    """A case list: one case per line; '#' starts a comment."""
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8') as listing:
        return [line.split('#', 1)[0].split(',')[0].strip() for line in listing
                if line.split('#', 1)[0].strip()]


CASE_LINE_RE = re.compile(r"^Test case '([^']+)'\.\.")


def driver_messages(path):
    """{case: the first 'terakan: ...' message printed while the case ran} from a process's
    output (deqp-vk names each case on stdout before running it)."""
    messages = {}
    current = None
    try:
        output = open(path, encoding='utf-8', errors='replace')
    except FileNotFoundError:
        return messages
    with output:
        for line in output:
            match = CASE_LINE_RE.match(line)
            if match:
                current = match.group(1)
            elif current and 'terakan: ' in line and current not in messages:
                messages[current] = line[line.index('terakan: '):].strip()
    return messages


RESULT_RE = re.compile(r'<Result StatusCode="([^"]+)"[^>]*>(.*?)</Result>', re.S)


def parse_qpa(path):
    """Returns ({case: (status, reason)}, case begun but never ended or None)."""
    results = {}
    open_case = None
    body = []
    try:
        log = open(path, encoding='utf-8', errors='replace')
    except FileNotFoundError:
        return results, None
    with log:
        for line in log:
            if line.startswith('#beginTestCaseResult '):
                open_case = line.split(' ', 1)[1].strip()
                body = []
            elif line.startswith('#endTestCaseResult') and open_case:
                match = RESULT_RE.search(''.join(body))
                if match:
                    reason = match.group(2).strip().splitlines()
                    reason = reason[0].strip() if reason else ''
                    results[open_case] = (match.group(1), unescape(reason))
                else:
                    results[open_case] = ('InternalError', 'no <Result> in the log')
                open_case = None
            elif line.startswith('#terminateTestCaseResult') and open_case:
                results[open_case] = ('Crash', 'terminated: ' + line.split(' ', 1)[-1].strip())
                open_case = None
            elif open_case:
                body.append(line)
    return results, open_case


def unescape(text):
    return (text.replace('&lt;', '<').replace('&gt;', '>').replace('&quot;', '"')
            .replace('&apos;', "'").replace('&amp;', '&'))


class DeviceRun:
    """Runs a case list on one device with a pool of worker processes."""

    def __init__(self, device, deqp, build_dir, out_dir, args):
        self.device = device
        self.deqp = deqp
        self.env = device_environment(device, build_dir, args.compute_only)
        # A folder of this run's own: two runs given the same --out (two people running the
        # same meson test at once) must not delete or overwrite each other's case lists and
        # logs, which made whole chunks look like crashes.
        os.makedirs(out_dir, exist_ok=True)
        self.out_dir = tempfile.mkdtemp(prefix=device + '-', dir=out_dir)
        self.args = args
        self.results = {}
        self.lock = threading.Lock()
        self.pending = queue.Queue()
        self.done_cases = 0
        self.total = 0
        self.started = time.monotonic()

    def run(self, cases):
        self.total = len(cases)
        chunk = self.args.chunk
        chunks = [cases[i:i + chunk] for i in range(0, len(cases), chunk)]
        for part in chunks:
            self.pending.put(part)
        self.outstanding = len(chunks)
        self.outstanding_lock = threading.Condition()
        workers = [threading.Thread(target=self.worker, args=(slot,), daemon=True)
                   for slot in range(self.args.jobs)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        return self.results

    def worker(self, slot):
        # Each slot has its own folder: deqp-vk writes its log and a shader cache there.
        work = os.path.join(self.out_dir, 'work%d' % slot)
        os.makedirs(work, exist_ok=True)
        while True:
            with self.outstanding_lock:
                while self.pending.empty() and self.outstanding > 0:
                    self.outstanding_lock.wait()
                if self.outstanding == 0:
                    self.outstanding_lock.notify_all()
                    return
                part = self.pending.get()
            leftover = self.run_chunk(work, part)
            with self.outstanding_lock:
                if leftover:
                    self.pending.put(leftover)
                else:
                    self.outstanding -= 1
                self.outstanding_lock.notify_all()

    def run_chunk(self, work, part):
        """Runs PART in one process; returns the cases that did not start (to run again)."""
        caselist = os.path.join(work, 'cases.txt')
        with open(caselist, 'w', encoding='utf-8') as listing:
            listing.write('\n'.join(part) + '\n')
        log = os.path.join(work, 'results.qpa')
        if os.path.exists(log):
            os.remove(log)
        command = [self.deqp, '--deqp-archive-dir=' + archive_dir(self.deqp),
                   '--deqp-caselist-file=' + caselist, '--deqp-log-filename=' + log,
                   '--deqp-log-images=disable', '--deqp-log-shader-sources=disable',
                   '--deqp-shadercache-filename=' + os.path.join(work, 'shadercache.bin'),
                   '--deqp-log-flush=enable']
        if self.args.validation:
            command.append('--deqp-validation=enable')
        timed_out = False
        with open(os.path.join(work, 'output.txt'), 'wb') as output:
            process = subprocess.Popen(command, cwd=work, env=self.env, stdout=output,
                                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                       start_new_session=True)
            try:
                process.wait(timeout=self.args.timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        results, open_case = parse_qpa(log)
        if open_case:
            if timed_out:
                results[open_case] = ('Timeout', 'the chunk ran past %d s in this case' % self.args.timeout)
            else:
                results[open_case] = ('Crash', 'the process ended (exit status %d) in this case'
                                      % process.returncode)
        elif not timed_out and process.returncode != 0 and not results:
            # Died before any case began (start-up failure): charge it to the chunk's first case
            # so that the loop always makes progress. dEQP runs a list in its own tree order, so
            # that case is not necessarily the one it was about to run.
            results[part[0]] = ('Crash', 'the process ended (exit status %d) before any case began '
                                '(charged to the first case of its chunk)' % process.returncode)
        elif timed_out and not results:
            results[part[0]] = ('Timeout', 'no case started within %d s' % self.args.timeout)
        messages = driver_messages(os.path.join(work, 'output.txt'))
        for case, (status, reason) in list(results.items()):
            if status not in PASS_LIKE and case in messages:
                results[case] = (status, '%s [%s]' % (reason, messages[case]))
        leftover = [case for case in part if case not in results]
        with self.lock:
            self.results.update((case, result) for case, result in results.items() if case in part)
            self.done_cases += len([case for case in part if case in results])
            if self.args.progress:
                elapsed = time.monotonic() - self.started
                sys.stderr.write('\r%s: %d/%d cases, %.0f s' % (self.device, self.done_cases,
                                                                 self.total, elapsed))
                sys.stderr.flush()
        return leftover


def write_results(path, cases, results):
    with open(path, 'w', encoding='utf-8', newline='') as output:
        writer = csv.writer(output)
        for case in cases:
            status, reason = results.get(case, ('InternalError', 'not run'))
            writer.writerow([case, status, reason])


def read_results(path):
    results = collections.OrderedDict()
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8', newline='') as source:
        for row in csv.reader(source):
            if not row or row[0] == 'case':
                continue
            results[row[0]] = (row[1], row[2] if len(row) > 2 else '')
    return results


def group_of(case, depth):
    parts = case.split('.')
    return '.'.join(parts[1:1 + depth]) if len(parts) > depth + 1 else '.'.join(parts[1:-1])


def count_table(named_results, depth):
    """Rows of (group, {device: Counter}) plus a total row."""
    groups = collections.OrderedDict()
    for device, results in named_results:
        for case, (status, _) in results.items():
            groups.setdefault(group_of(case, depth), {}).setdefault(device, collections.Counter())[status] += 1
    total = {}
    for per_device in groups.values():
        for device, counts in per_device.items():
            total.setdefault(device, collections.Counter()).update(counts)
    return list(groups.items()), total


def print_counts(named_results, depth, stream=sys.stdout):
    """pass / fail / crash / timeout / not supported per group, devices side by side."""
    rows, total = count_table(named_results, depth)
    devices = [device for device, _ in named_results]
    columns = ('pass', 'fail', 'crash', 'timeout', 'n/s', 'other')

    def cells(counts):
        counts = counts or collections.Counter()
        passed = sum(counts[s] for s in PASS_LIKE)
        other = sum(counts.values()) - passed - counts['Fail'] - counts['Crash'] - \
            counts['Timeout'] - counts['NotSupported']
        return [passed, counts['Fail'], counts['Crash'], counts['Timeout'], counts['NotSupported'], other]

    header = '| group | ' + ' | '.join('%s %s' % (d, c) for d in devices for c in columns) + ' |'
    stream.write(header + '\n')
    stream.write('|' + '---|' * (1 + len(devices) * len(columns)) + '\n')
    for group, per_device in rows + [('**total**', total)]:
        values = []
        for device in devices:
            values += ['{:,}'.format(v) for v in cells(per_device.get(device))]
        stream.write('| %s | %s |\n' % (group, ' | '.join(values)))


def print_share(named_results, lavapipe, depth, stream=sys.stdout):
    """Per group: each device's passes as a share of lavapipe's passes on the same cases."""
    devices = [device for device, _ in named_results]
    stream.write('| group | lavapipe passes | ' + ' | '.join(
        '%s passes | %s share' % (d, d) for d in devices) + ' |\n')
    stream.write('|' + '---|' * (2 + 2 * len(devices)) + '\n')
    groups = collections.OrderedDict()
    for device, results in named_results:
        for case, (status, _) in results.items():
            if case not in lavapipe:
                continue
            row = groups.setdefault(group_of(case, depth), {'lavapipe': set()})
            if lavapipe[case][0] in PASS_LIKE:
                row['lavapipe'].add(case)
            row.setdefault(device, 0)
            if status in PASS_LIKE:
                row[device] += 1
    totals = collections.Counter()
    total_lavapipe = set()
    for group, row in list(groups.items()):
        total_lavapipe |= row['lavapipe']
        cells = ['{:,}'.format(len(row['lavapipe']))]
        for device in devices:
            passed = row.get(device, 0)
            totals[device] += passed
            cells += ['{:,}'.format(passed), share(passed, len(row['lavapipe']))]
        stream.write('| %s | %s |\n' % (group, ' | '.join(cells)))
    cells = ['{:,}'.format(len(total_lavapipe))]
    for device in devices:
        cells += ['{:,}'.format(totals[device]), share(totals[device], len(total_lavapipe))]
    stream.write('| **total** | %s |\n' % ' | '.join(cells))


def share(passed, reference):
    return '%.1f%%' % (100.0 * passed / reference) if reference else '-'


def read_expectations(paths):
    """Expectation lists: 'CASE,STATUS  # reason' per line (Mesa's *-fails.txt habit, with the
    reason required). Later files override earlier ones (a chip's list over the common one)."""
    expected = {}
    problems = []
    for path in paths:
        if not os.path.exists(path):
            continue
        with open(path, encoding='utf-8') as listing:
            for number, line in enumerate(listing, 1):
                text, _, reason = line.partition('#')
                text = text.strip()
                if not text:
                    continue
                fields = [field.strip() for field in text.split(',')]
                if len(fields) != 2 or fields[1] not in STATUS_ORDER:
                    problems.append('%s:%d: expected "CASE,STATUS # reason"' % (path, number))
                    continue
                if not reason.strip():
                    problems.append('%s:%d: %s has no reason' % (path, number, fields[0]))
                expected[fields[0]] = fields[1]
    return expected, problems


def normalize(status):
    return 'Pass' if status in PASS_LIKE else status


def compare(results, expected, run_cases):
    """Lines describing every result that differs from the expectations (Pass unless listed)."""
    differences = []
    for case in run_cases:
        status, reason = results.get(case, ('InternalError', 'not run'))
        want = expected.get(case, 'Pass')
        if normalize(status) != normalize(want):
            kind = 'unexpected pass' if normalize(status) == 'Pass' else 'unexpected result'
            differences.append('%s: %s: expected %s, got %s%s' % (kind, case, want, status,
                                                                 (' (%s)' % reason) if reason else ''))
    run_set = set(run_cases)
    for case in expected:
        if case not in run_set:
            differences.append('stale expectation: %s is listed but not in the case list' % case)
    return differences


def write_junit(path, device, results, expected, run_cases):
    """A JUnit-style report (scripts/test_summary.py counts its test cases): a case that gives
    its expected Pass passes, one that gives its expected other status is skipped with that
    status, and any other outcome is a failure."""
    suite = ElementTree.Element('testsuite', name='deqp-' + device)
    for case in run_cases:
        status, reason = results.get(case, ('InternalError', 'not run'))
        want = expected.get(case, 'Pass')
        element = ElementTree.SubElement(suite, 'testcase', classname='deqp-' + device, name=case)
        if normalize(status) != normalize(want):
            failure = ElementTree.SubElement(element, 'failure', message='expected %s, got %s' % (want, status))
            failure.text = reason
        elif normalize(status) != 'Pass':
            ElementTree.SubElement(element, 'skipped', message='%s as expected' % status)
    root = ElementTree.Element('testsuites')
    root.append(suite)
    ElementTree.ElementTree(root).write(path, encoding='utf-8', xml_declaration=True)


def expectation_files(directory, device):
    return [os.path.join(directory, 'expectations.txt'),
            os.path.join(directory, '%s-expectations.txt' % device)]


def command_run(args):
    deqp = args.deqp or find_deqp()
    if not deqp or not os.path.exists(deqp):
        sys.exit('deqp.sh: no deqp-vk found (set DEQP_VK, or put the reduced build in ../shared/deqp)')
    build_dir = os.path.abspath(args.build)
    cases = []
    for listing in args.caselist:
        cases += read_case_file(listing)
    if args.patterns:
        cases += list_cases(deqp, args.patterns)
    if not cases:
        sys.exit('deqp.sh: no cases (give a pattern or --caselist FILE)')
    seen = set()
    cases = [case for case in cases if not (case in seen or seen.add(case))]
    devices = [chip.strip().lower() for chip in args.chips.split(',') if chip.strip()]
    if args.lavapipe:
        devices.append('lavapipe')
    for device in devices:
        if device != 'lavapipe' and device not in CHIPS:
            sys.exit('deqp.sh: unknown chip %s (one of %s)' % (device, ', '.join(sorted(CHIPS))))
    if any(device != 'lavapipe' for device in devices):
        for needed in (os.path.join(build_dir, 'src', 'sim', 'libterakan_sim.so'),
                       os.path.join(build_dir, 'src', 'terakan', 'libvulkan_terakan.so')):
            if not os.path.exists(needed):
                sys.exit('deqp.sh: %s is missing; build first (scripts/build.sh %s)' % (needed, args.build))
    out_dir = os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)
    named = []
    status = 0
    work_folders = []
    for device in devices:
        started = time.monotonic()
        run = DeviceRun(device, deqp, build_dir, out_dir, args)
        work_folders.append(run.out_dir)
        results = run.run(cases)
        elapsed = time.monotonic() - started
        if args.progress:
            sys.stderr.write('\n')
        write_results(os.path.join(out_dir, '%s.csv' % device), cases, results)
        ordered = collections.OrderedDict((case, results.get(case, ('InternalError', 'not run'))) for case in cases)
        named.append((device, ordered))
        print('%s: %d cases in %.0f s' % (device, len(cases), elapsed))
        if args.expectations and device != 'lavapipe':
            expected, problems = read_expectations(expectation_files(args.expectations, device))
            differences = problems + compare(ordered, expected, cases)
            for line in differences:
                print('%s: %s' % (device, line))
            print('%s: %d results differ from the expectations in %s' % (device, len(differences), args.expectations))
            if args.junit:
                write_junit(args.junit, device, ordered, expected, cases)
            if differences:
                status = 1
    if not args.keep_work:
        for folder in work_folders:
            shutil.rmtree(folder, ignore_errors=True)
    else:
        print('work folders (output.txt, results.qpa per process): %s' % ', '.join(work_folders))
    with open(os.path.join(out_dir, 'summary.md'), 'w', encoding='utf-8') as summary:
        print_counts(named, args.depth, summary)
    print_counts(named, args.depth)
    return status


def load_lavapipe_reference(args, named):
    """lavapipe's results: a lavapipe.csv beside the first results file if there is one, else
    the recorded results shipped with the reduced dEQP build."""
    if args.lavapipe_results:
        return read_results(args.lavapipe_results)
    beside = os.path.join(os.path.dirname(os.path.abspath(args.results[0])), 'lavapipe.csv')
    if os.path.exists(beside):
        return read_results(beside)
    deqp = args.deqp or find_deqp()
    recorded = os.path.join(os.path.dirname(deqp), 'lavapipe-results.csv.gz') if deqp else None
    if recorded and os.path.exists(recorded):
        return read_results(recorded)
    sys.exit('deqp.sh --summary: no lavapipe results (run with --lavapipe or give --lavapipe-results)')


def command_summary(args):
    named = []
    for path in args.results:
        results = read_results(path)
        name = os.path.basename(path).split('.')[0]
        if name != 'lavapipe':
            named.append((name, results))
    lavapipe = load_lavapipe_reference(args, named)
    print_share(named, lavapipe, args.depth)
    print()
    print_counts(named + [('lavapipe', collections.OrderedDict(
        (case, lavapipe[case]) for case in named[0][1] if case in lavapipe))], args.depth)
    return 0


def main():
    parser = argparse.ArgumentParser(prog='deqp.sh', description=__doc__.split('\n\n')[0])
    parser.add_argument('patterns', nargs='*', help='dEQP case patterns, e.g. dEQP-VK.compute.*')
    parser.add_argument('--caselist', action='append', default=[], help='a file of cases (repeatable)')
    parser.add_argument('--chips', default='cayman', help='simulated chips, comma-separated (default cayman)')
    parser.add_argument('--lavapipe', action='store_true', help='also run lavapipe on the same cases')
    parser.add_argument('--build', default=os.path.join(ROOT, 'build'), help='Terakan build folder')
    parser.add_argument('--out', default='deqp-results', help='results folder (default deqp-results)')
    parser.add_argument('--chunk', type=int, default=300, help='cases per process (default 300)')
    parser.add_argument('--timeout', type=int, default=1800, help='seconds per process (default 1800)')
    parser.add_argument('--jobs', type=int, default=os.cpu_count() or 1, help='processes at once')
    parser.add_argument('--compute-only', dest='compute_only', action='store_true', default=False,
                        help='set DEQP_COMPUTE_ONLY=1 (the default device without graphics: how '
                        'runs before the graphics queue were made)')
    parser.add_argument('--graphics', dest='compute_only', action='store_false',
                        help='run without DEQP_COMPUTE_ONLY (the default)')
    parser.add_argument('--validation', action='store_true', help="dEQP's --deqp-validation=enable")
    parser.add_argument('--expectations', help='folder with expectations.txt and CHIP-expectations.txt; '
                        'exit 1 on any result that differs')
    parser.add_argument('--junit', help='with --expectations: write a JUnit-style report there (one chip)')
    parser.add_argument('--depth', type=int, default=2, help='group depth of the tables (default 2)')
    parser.add_argument('--keep-work', action='store_true', help="keep each process's folder and log")
    parser.add_argument('--progress', action='store_true', help='print progress on stderr')
    parser.add_argument('--deqp', help='deqp-vk binary (default DEQP_VK or ../shared/deqp/deqp-vk)')
    parser.add_argument('--summary', dest='results', nargs='+', metavar='RESULTS.csv',
                        help="print each results file's passes per group as a share of lavapipe's")
    parser.add_argument('--lavapipe-results', help='lavapipe results for --summary (CSV, may be .gz)')
    args = parser.parse_args()
    if args.results:
        return command_summary(args)
    return command_run(args)


if __name__ == '__main__':
    sys.exit(main())
