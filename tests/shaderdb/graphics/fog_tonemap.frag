#version 450
// Post-processing: exponential height fog from linearized depth, exposure, filmic tone curve,
// vignette and gamma.
layout(location = 0) in vec2 uv;
layout(set = 0, binding = 0) uniform sampler2D hdr;
layout(set = 0, binding = 1) uniform sampler2D depth;
layout(set = 0, binding = 2) uniform Post {
   vec4 fog_colour;       // rgb, density
   vec4 clip;             // near, far, exposure, vignette
   vec4 height_fog;       // camera height, falloff, unused, unused
} post;
layout(location = 0) out vec4 colour;
vec3 filmic(vec3 x) {
   const float a = 2.51, b = 0.03, c = 2.43, d = 0.59, e = 0.14;
   return clamp((x * (a * x + b)) / (x * (c * x + d) + e), 0.0, 1.0);
}
void main() {
   vec3 scene = texture(hdr, uv).rgb;
   float z = texture(depth, uv).r;
   float near = post.clip.x, far = post.clip.y;
   float linear_depth = near * far / (far - z * (far - near));
   float height = post.height_fog.x * exp(-post.height_fog.y * linear_depth);
   float fog = 1.0 - exp(-linear_depth * post.fog_colour.w * (1.0 + height));
   scene = mix(scene, post.fog_colour.rgb, clamp(fog, 0.0, 1.0));
   vec3 mapped = filmic(scene * post.clip.z);
   vec2 centred = uv - 0.5;
   mapped *= 1.0 - dot(centred, centred) * post.clip.w;
   colour = vec4(pow(mapped, vec3(1.0 / 2.2)), 1.0);
}
