#version 450
// One combined image-sampler bound normally: rebinding it between dispatches to a normalized
// or an unnormalized sampler picks the program variant (or the sampler word on Cayman).
// Results are rounded to 8 bits so that filtering order of operations cannot matter.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
layout(set = 0, binding = 1) uniform sampler2D bound;
layout(push_constant) uniform P { vec2 scale; vec2 offset; uint slot; };
void main()
{
   uvec2 id = gl_GlobalInvocationID.xy;
   vec2 c = vec2(id) * scale + offset;
   o[slot * 64u + id.y * 8u + id.x] = uvec4(round(textureLod(bound, c, 0.0) * 255.0));
}
