#version 450
// Soft particle: texture times tint, faded where it meets the scene's depth.
layout(location = 0) in vec2 uv;
layout(location = 1) in vec4 tint;
layout(set = 0, binding = 2) uniform sampler2D sprite;
layout(set = 0, binding = 3) uniform sampler2D scene_depth;
layout(set = 0, binding = 4) uniform Soft { vec4 viewport_fade; } soft;  // 1/width, 1/height, fade distance
layout(location = 0) out vec4 colour;
void main() {
   vec4 texel = texture(sprite, uv) * tint;
   float scene = texture(scene_depth, gl_FragCoord.xy * soft.viewport_fade.xy).r;
   float fade = clamp((scene - gl_FragCoord.z) * soft.viewport_fade.z, 0.0, 1.0);
   colour = vec4(texel.rgb, texel.a * fade);
}
