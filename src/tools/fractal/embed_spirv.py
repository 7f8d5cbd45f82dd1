#!/usr/bin/env python3
"""Writes a SPIR-V module as a C++ header: `constexpr uint32_t NAME[] = {...};`."""
import struct
import sys

source, output, name = sys.argv[1:4]
data = open(source, 'rb').read()
words = struct.unpack('<%dI' % (len(data) // 4), data)
with open(output, 'w') as out:
    out.write('#pragma once\n#include <cstdint>\n')
    out.write('inline constexpr uint32_t %s[] = {\n' % name)
    for i in range(0, len(words), 8):
        out.write('   ' + ', '.join('0x%08x' % w for w in words[i:i + 8]) + ',\n')
    out.write('};\n')
