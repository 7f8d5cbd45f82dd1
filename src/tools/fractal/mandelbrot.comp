#version 450
// The main job's picture: a Mandelbrot set, 8-bit RGBA packed in one word per pixel.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) writeonly buffer Image { uint pixels[]; };
layout(push_constant) uniform View { uint width; uint height; float center_x; float center_y; float scale; uint max_iterations; };
void main()
{
   uvec2 p = gl_GlobalInvocationID.xy;
   if (p.x >= width || p.y >= height)
      return;
   // precise: no fused multiply-add anywhere, so that every driver computes the same bits.
   precise float cx = center_x + (float(p.x) - float(width) * 0.5) * scale;
   precise float cy = center_y + (float(p.y) - float(height) * 0.5) * scale;
   precise float x = 0.0, y = 0.0;
   uint n = 0u;
   while (n < max_iterations && x * x + y * y <= 4.0) {
      precise float t = x * x - y * y + cx;
      y = 2.0 * x * y + cy;
      x = t;
      n++;
   }
   uint r = 0u, g = 0u, b = 0u;
   if (n < max_iterations) {
      r = (n * 9u) & 255u;
      g = (n * 5u + 64u) & 255u;
      b = (255u - n * 3u) & 255u;
   }
   pixels[p.y * width + p.x] = r | (g << 8) | (b << 16) | (255u << 24);
}
