#version 450
// A private array of 256 floats indexed at run time (scratch: the VS ring), filled from the
// quad's number and read at three run-time places; four quads, one per quadrant, each passing
// its number and flat values (the same from all its vertices).
layout(location = 0) flat out vec4 vertex_value;
layout(location = 1) flat out int seed;
const vec2 corners[6] = vec2[6](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0), vec2(1.0, 0.0), vec2(1.0, 1.0),
                                vec2(0.0, 1.0));
void main()
{
   int v = gl_VertexIndex;
   int quad = v / 6;
   float table[256];
   for (int k = 0; k < 256; k++)
      table[k] = float((k * 13 + quad * 7) % 256);
   int i = (quad * 101 + 17) % 256;
   vertex_value = vec4(table[i], table[(i + 50) % 256], table[(i * 3) % 256], 255.0) / 255.0;
   seed = quad;
   gl_Position = vec4(corners[v % 6] + vec2(float(quad & 1), float(quad >> 1)) - 1.0, 0.0, 1.0);
}
