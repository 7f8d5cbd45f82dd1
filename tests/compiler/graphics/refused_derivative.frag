#version 450
// Explicit gradients on a depth-comparison cube are not compiled yet: textureGrad on cubes
// becomes textureLod at a computed level (nir_lower_tex lower_txd_cube_map), and a comparison
// at an explicit level on a cube would need the reference and the face in one channel
// (r600g's SAMPLE_C_G route is not done). Plain cubes and 2D images are compiled.
layout(set = 0, binding = 0) uniform samplerCubeShadow image;
layout(location = 0) in vec4 v_colour;
layout(location = 0) out vec4 out_colour;
void main()
{
    out_colour = vec4(textureGrad(image, vec4(v_colour.xyz, 0.5), vec3(0.125, 0.0, 0.0), vec3(0.0, 0.125, 0.0)));
}
