#version 450
// 2D interface: pixel positions scaled and translated by push constants, packed colour.
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 uv;
layout(location = 2) in vec4 colour;
layout(push_constant) uniform Transform { vec2 scale; vec2 translate; } pc;
layout(location = 0) out vec2 out_uv;
layout(location = 1) out vec4 out_colour;
void main() {
   out_uv = uv;
   out_colour = colour;
   gl_Position = vec4(position * pc.scale + pc.translate, 0.0, 1.0);
}
