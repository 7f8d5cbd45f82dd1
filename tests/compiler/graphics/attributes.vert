#version 450
// Vertex input formats: a float position, a UNORM colour, 32-bit unsigned and signed integers,
// and a per-instance float. Every value reaches the pixel shader unchanged (flat).
layout(location = 0) in vec4 position;          // R32G32B32A32_SFLOAT
layout(location = 1) in vec4 colour;            // R8G8B8A8_UNORM
layout(location = 2) in uint count;             // R32_UINT
layout(location = 3) in ivec2 offsets;          // R32G32_SINT
layout(location = 4) in float instance_value;   // R32_SFLOAT, per instance
layout(location = 5) in vec2 pair;              // R32G32_SFLOAT (z, w from the format: 0, 1)
layout(location = 0) flat out vec4 v_colour;
layout(location = 1) flat out uvec4 v_integers;
layout(location = 2) flat out vec4 v_floats;
void main()
{
    gl_Position = position;
    v_colour = colour;
    v_integers = uvec4(count, uint(offsets.x + 1000), uint(offsets.y + 1000), 0u);
    v_floats = vec4(instance_value, pair.x, pair.y + 0.25, pair.x * 0.0 + 0.5);
}
