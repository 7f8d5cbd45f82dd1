#version 450
#extension GL_ARB_shader_viewport_layer_array : require
// gl_Layer from the vertex shader (shaderOutputLayer): with per_triangle 0 one triangle per
// instance, the instance choosing the layer and the depth (0.2, 0.4, 0.6, 0.8); with 1 four
// small triangles in one draw at depth 0.5, triangle t to layer 3 - t. Positions come from the
// vertex index. The layer goes to the fragment shader at location 1 too (layer_output_read).
layout(push_constant) uniform Push { int per_triangle; };
layout(location = 0) flat out vec4 colour;
layout(location = 1) flat out int layer_passed; // what the fragment shader's Layer must read
const vec2 corners[3] = vec2[3](vec2(-0.84, -0.78), vec2(0.84, -0.59), vec2(-0.34, 0.78));
const vec4 palette[4] = vec4[4](vec4(0.8, 0.6, 0.2, 1.0), vec4(0.2, 0.6, 0.6, 1.0),
                                vec4(0.6, 0.2, 0.8, 1.0), vec4(0.2, 0.8, 0.2, 1.0));
void main()
{
   int triangle = gl_VertexIndex / 3;
   int layer = per_triangle != 0 ? 3 - triangle : gl_InstanceIndex;
   vec2 p = corners[gl_VertexIndex % 3];
   float z = 0.2 + 0.2 * float(layer);
   if (per_triangle != 0) {
      p = p * 0.5 + vec2(float(triangle & 1) - 0.5, float(triangle >> 1) - 0.5);
      z = 0.5;
   }
   gl_Layer = layer;
   layer_passed = layer;
   gl_Position = vec4(p, z, 1.0);
   colour = per_triangle != 0 ? vec4(1.0 - palette[layer].rgb, 1.0) : palette[layer];
}
