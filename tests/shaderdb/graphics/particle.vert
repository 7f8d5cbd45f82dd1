#version 450
// Camera-facing particles: one quad corner per vertex, particle state per instance, size and
// colour over the particle's life.
layout(location = 0) in vec2 corner;
layout(location = 1) in vec4 centre_birth;   // per instance: xyz, birth time
layout(location = 2) in vec4 velocity_life;  // per instance: xyz, life span
layout(set = 0, binding = 0) uniform Camera { mat4 view_projection; vec4 eye; vec4 right; vec4 up; } camera;
layout(set = 0, binding = 1) uniform Emitter { vec4 gravity_time; vec4 start_colour; vec4 end_colour; vec4 sizes; } emitter;
layout(location = 0) out vec2 uv;
layout(location = 1) out vec4 tint;
void main() {
   float age = emitter.gravity_time.w - centre_birth.w;
   float t = clamp(age / velocity_life.w, 0.0, 1.0);
   vec3 centre = centre_birth.xyz + velocity_life.xyz * age + 0.5 * emitter.gravity_time.xyz * age * age;
   float size = mix(emitter.sizes.x, emitter.sizes.y, t);
   vec3 world = centre + (camera.right.xyz * corner.x + camera.up.xyz * corner.y) * size;
   uv = corner * 0.5 + 0.5;
   tint = mix(emitter.start_colour, emitter.end_colour, t) * (1.0 - t * t);
   gl_Position = camera.view_projection * vec4(world, 1.0);
}
