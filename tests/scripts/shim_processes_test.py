"""Ordinary programs keep working with the simulator preloaded: pipelines, redirections,
command substitution, background jobs and descriptor juggling, in dash, bash and python.

Until src/sim/shim_fd_table.cpp, `sh -c 'echo x | cat'` aborted in drm-shim (dash closes
descriptor -1, and drm-shim's table of simulated descriptors asserted on the key that makes),
and a descriptor number that dup2() reused kept pointing at the simulated render node.

  shim_processes_test.py SHIM CHIP"""
import os
import subprocess
import sys

shim, chip = sys.argv[1:3]
environment = {key: value for key, value in os.environ.items() if key != 'LD_PRELOAD'}
environment.update(LD_PRELOAD=shim, TERAKAN_SIM_CHIP=chip)

# The render node's descriptor replaced by a pipe (dup2), duplicated with dup2 and dup3, and a
# duplicate closed by os.closerange (close_range) before pipe() reuses its number: fstat must
# tell the simulated node (a character device of DRM's major, 226) from everything else.
FD_JUGGLING = r'''
import os, stat
def kind(fd):
    st = os.fstat(fd)
    if stat.S_ISFIFO(st.st_mode):
        return 'pipe'
    return 'drm' if stat.S_ISCHR(st.st_mode) and os.major(st.st_rdev) == 226 else 'other'
node = os.open('/dev/dri/renderD128', os.O_RDWR)
print('opened', kind(node))
r, w = os.pipe()
os.dup2(r, node)
print('pipe over it', kind(node))
node = os.open('/dev/dri/renderD128', os.O_RDWR)
os.dup2(node, 50)
print('dup2 copy', kind(50))
os.dup2(node, 51, inheritable=False)
print('dup3 copy', kind(51))
copy = os.dup(node)
os.closerange(copy, copy + 1)
r, w = os.pipe()
print('number reused', kind(copy) if copy in (r, w) else 'not reused')
'''

CASES = [
    # name, command, expected stdout, expected exit status
    ('pipeline', ['sh', '-c', 'echo x | cat'], 'x\n', 0),
    ('three stages and exit status', ['sh', '-c', 'echo abc | tr a-c A-C | cat; exit 3'], 'ABC\n', 3),
    ('command substitution', ['sh', '-c', 'v=$(echo inner | cat); echo "got $v"'], 'got inner\n', 0),
    ('redirections', ['sh', '-c', 'exec 3>&1; echo three >&3; exec 3>&-; echo done 2>/dev/null'],
     'three\ndone\n', 0),
    ('background job', ['sh', '-c', 'echo bg > /dev/null & wait; echo waited'], 'waited\n', 0),
    ('subshell into a pipe', ['sh', '-c', '(echo a; echo b) | wc -l'], '2\n', 0),
    ('bash process substitution', ['bash', '-c', 'cat <(echo sub) | cat'], 'sub\n', 0),
    ('python subprocess', [sys.executable, '-c',
                           'import subprocess; print(subprocess.run(["sh", "-c", "echo py | cat"], '
                           'capture_output=True, text=True).stdout.strip())'], 'py\n', 0),
    ('descriptor juggling', [sys.executable, '-c', FD_JUGGLING],
     'opened drm\npipe over it pipe\ndup2 copy drm\ndup3 copy drm\nnumber reused pipe\n', 0),
]

failures = []
for name, command, expected_output, expected_status in CASES:
    result = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=60)
    problems = []
    if result.returncode < 0:
        problems.append('killed by signal %d' % -result.returncode)
    elif result.returncode != expected_status:
        problems.append('exit status %d, expected %d' % (result.returncode, expected_status))
    if result.stdout != expected_output:
        problems.append('output %r, expected %r' % (result.stdout, expected_output))
    if 'Assertion' in result.stderr:
        problems.append('an assertion failed')
    if problems:
        failures.append('%s (%s): %s\nstderr:\n%s' % (name, ' '.join(command)[:60], '; '.join(problems),
                                                      result.stderr))
    else:
        print('ok: %s' % name)

if failures:
    sys.exit('\n'.join(failures))
print('%d process shapes behave with the simulator preloaded for %s' % (len(CASES), chip))
