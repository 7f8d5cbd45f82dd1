#version 450
// A private array of 256 vec4s indexed at run time (scratch: the PS ring), filled from the
// flat seed and read at a place that depends on the pixel.
layout(location = 0) flat in vec4 vertex_value;
layout(location = 1) flat in int seed;
layout(location = 0) out vec4 target;
void main()
{
   ivec2 p = ivec2(gl_FragCoord.xy);
   vec4 table[256];
   for (int k = 0; k < 256; k++)
      table[k] = vec4(float((k * 5 + seed) % 256), float((k * 11) % 256), float(k), 0.0);
   vec4 t = table[(p.x * 8 + p.y * 31 + seed) % 256];
   target = vec4(t.x / 255.0, t.y / 255.0, vertex_value.x, vertex_value.y);
}
