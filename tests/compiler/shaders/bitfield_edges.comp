// groups: 2
#version 450
// bitfieldInsert and bitfieldExtract at the edges of the field: bits = 0 (the insert returns
// the base, the extract 0) at every offset from 0 to 32, bits = 32 at offset 0 (the whole
// word), and fields that end at bit 31 (offset + bits = 32). Offsets and widths come from the
// buffer (ints.v[0] is 0), so nothing folds; a constant width of 0 and of 32 with a run-time
// offset too.
layout(local_size_x = 64, local_size_y = 1) in;
layout(set = 0, binding = 0) readonly buffer Ints { uint v[]; } ints;
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;
layout(set = 0, binding = 2) readonly buffer Floats { float v[]; } floats;
void main() {
   uint i = gl_GlobalInvocationID.x;
   uint base = ints.v[i + 8u], insert = ints.v[i + 200u];
   int zero = int(ints.v[0]);
   int offset = int(i % 33u) + zero;          /* 0 .. 32 */
   int high = int(ints.v[i + 400u] % 33u);    /* 0 .. 32 */
   uint o = i * 8u;
   result.v[o + 0u] = bitfieldInsert(base, insert, offset, zero);
   result.v[o + 1u] = bitfieldInsert(base, insert, zero, zero + 32);
   result.v[o + 2u] = bitfieldInsert(base, insert, high, 32 - high);
   result.v[o + 3u] = bitfieldExtract(base, offset, zero) | bitfieldExtract(base, zero, zero + 32) ^ 0x5a5a5a5au;
   result.v[o + 4u] = bitfieldExtract(base, high, 32 - high);
   result.v[o + 5u] = uint(bitfieldExtract(int(base), high, 32 - high));
   result.v[o + 6u] = uint(bitfieldExtract(int(base), offset, zero)) + uint(bitfieldExtract(int(base), zero, zero + 32));
   result.v[o + 7u] = bitfieldInsert(base, insert, offset, 0) ^ bitfieldInsert(base, insert, 32 - offset, 0) ^
                      bitfieldExtract(insert, offset, 0) ^ bitfieldInsert(insert, base, 0, 32 + zero);
}
