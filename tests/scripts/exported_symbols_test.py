"""The driver exports exactly the loader-ICD entry points and nothing else."""
import subprocess
import sys

output = subprocess.run(['nm', '-D', '--defined-only', sys.argv[1]], capture_output=True,
                        text=True, check=True).stdout
symbols = sorted(line.split()[-1] for line in output.splitlines() if line.strip())
expected = ['vk_icdGetInstanceProcAddr', 'vk_icdGetPhysicalDeviceProcAddr',
            'vk_icdNegotiateLoaderICDInterfaceVersion']
assert symbols == expected, 'exported: %s' % symbols
print('exports:', ' '.join(symbols))
