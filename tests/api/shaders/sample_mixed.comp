#version 450
// Every way a sampler's coordinate type reaches a TeraScale program, in one shader, all on the
// same image: a sampler bound normally (patched variant), immutable unnormalized and
// normalized samplers (fixed at compile time), and a dynamically indexed sampler array (a
// branch on the driver's mask).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
layout(set = 0, binding = 1) uniform texture2D img;
layout(set = 0, binding = 2) uniform sampler plain;
layout(set = 0, binding = 3) uniform sampler fixed_unnormalized;
layout(set = 0, binding = 4) uniform sampler fixed_normalized;
layout(set = 0, binding = 5) uniform sampler many[3];
layout(push_constant) uniform P { vec2 scale; vec2 offset; uint slot; uint which; };
uvec4 bytes(vec4 v) { return uvec4(round(v * 255.0)); }
void main()
{
   uvec2 id = gl_GlobalInvocationID.xy;
   vec2 c = vec2(id) * scale + offset;
   uint base = slot * 256u + (id.y * 8u + id.x) * 4u;
   o[base + 0u] = bytes(textureLod(sampler2D(img, plain), c, 0.0));
   o[base + 1u] = bytes(textureLod(sampler2D(img, fixed_unnormalized), c, 0.0));
   o[base + 2u] = bytes(textureLod(sampler2D(img, fixed_normalized), c, 0.0));
   o[base + 3u] = bytes(textureLod(sampler2D(img, many[which]), c, 0.0));
}
