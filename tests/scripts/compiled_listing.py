"""One shader through terakan-compile with TERAKAN_DEBUG=shaders, for the code-quality guards
(code_quality_test.py, alu_selection_test.py): the tool's standard output (the listing and the
statistics), its standard error (TERAKAN_DEBUG's dumps) and the match of `stats` (a regular
expression over r600g's statistics line) in the output."""
import os
import subprocess


def compile_listing(tool, chip, path, stats):
    env = dict(os.environ, TERAKAN_DEBUG='shaders')
    result = subprocess.run([tool, '--chip', chip, path], capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, (chip, path, result.stderr)
    found = stats.search(result.stdout)
    assert found, result.stdout
    return result.stdout, result.stderr, found
