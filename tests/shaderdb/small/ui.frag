#version 450
// 2D interface: glyph atlas (alpha in red) or image, tinted, with an alpha test.
layout(location = 0) in vec2 uv;
layout(location = 1) in vec4 colour;
layout(set = 0, binding = 0) uniform sampler2D atlas;
layout(set = 0, binding = 1) uniform Mode { vec4 alpha_ref_text; } mode;
layout(location = 0) out vec4 result;
void main() {
   vec4 texel = texture(atlas, uv);
   vec4 c = mode.alpha_ref_text.y > 0.5 ? vec4(colour.rgb, colour.a * texel.r) : texel * colour;
   if (c.a < mode.alpha_ref_text.x)
      discard;
   result = c;
}
