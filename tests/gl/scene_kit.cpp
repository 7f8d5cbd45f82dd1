#include "scene_kit.h"

#include <cstddef>
#include <string>

#include "failure.h"

namespace terakan::gl_scenes {

namespace {

std::string shader_log(GLuint shader)
{
   GLint length = 0;
   glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
   std::string log(size_t(length > 0 ? length : 1), '\0');
   glGetShaderInfoLog(shader, GLsizei(log.size()), nullptr, log.data());
   return log.c_str();
}

std::string program_log(GLuint program)
{
   GLint length = 0;
   glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
   std::string log(size_t(length > 0 ? length : 1), '\0');
   glGetProgramInfoLog(program, GLsizei(log.size()), nullptr, log.data());
   return log.c_str();
}

GLuint compile(GLenum stage, const char *source)
{
   const GLuint shader = glCreateShader(stage);
   if (!shader)
      throw Failure("glCreateShader failed");
   glShaderSource(shader, 1, &source, nullptr);
   glCompileShader(shader);
   GLint compiled = GL_FALSE;
   glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
   if (!compiled) {
      const std::string log = shader_log(shader);
      glDeleteShader(shader);
      throw Failure(std::string(stage == GL_VERTEX_SHADER ? "vertex" : stage == GL_COMPUTE_SHADER ? "compute" : "fragment") +
                    " shader did not compile:\n" + log);
   }
   return shader;
}

const char *const coloured_vertex_source = R"(#version 300 es
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec4 a_colour;
uniform float u_depth;
@QUALIFIER@ out vec4 v_colour;
void main()
{
   /* Grid units to clip space: the 64x64 grid spans [-1, 1]. */
   gl_Position = vec4(a_position / 32.0 - 1.0, u_depth, 1.0);
@POINT_SIZE@   v_colour = a_colour;
}
)";

const char *const coloured_fragment_source = R"(#version 300 es
precision mediump float;
@QUALIFIER@ in vec4 v_colour;
out vec4 colour;
void main()
{
   colour = v_colour;
}
)";

std::string replaced(std::string text, const std::string &marker, const std::string &replacement)
{
   text.replace(text.find(marker), marker.size(), replacement);
   return text;
}

} // namespace

SceneKit::~SceneKit()
{
   /* Nothing may stay bound to the next scene, which starts from the same context. */
   glUseProgram(0);
   glBindVertexArray(0);
   glBindBuffer(GL_ARRAY_BUFFER, 0);
   for (GLuint program : programs_)
      glDeleteProgram(program);
   if (!buffers_.empty())
      glDeleteBuffers(GLsizei(buffers_.size()), buffers_.data());
   if (!vertex_arrays_.empty())
      glDeleteVertexArrays(GLsizei(vertex_arrays_.size()), vertex_arrays_.data());
   if (!textures_.empty())
      glDeleteTextures(GLsizei(textures_.size()), textures_.data());
}

GLuint SceneKit::link(std::initializer_list<GLuint> shaders, const char *what)
{
   const GLuint program = glCreateProgram();
   if (!program) {
      for (GLuint shader : shaders)
         glDeleteShader(shader);
      throw Failure("glCreateProgram failed");
   }
   programs_.push_back(program);
   for (GLuint shader : shaders)
      glAttachShader(program, shader);
   glLinkProgram(program);
   /* The program keeps the compiled stages; the shader objects are no longer needed. */
   for (GLuint shader : shaders)
      glDeleteShader(shader);
   GLint linked = GL_FALSE;
   glGetProgramiv(program, GL_LINK_STATUS, &linked);
   if (!linked)
      throw Failure(std::string(what) + " did not link:\n" + program_log(program));
   glUseProgram(program);
   return program;
}

GLuint SceneKit::compute_program(const char *source)
{
   return link({compile(GL_COMPUTE_SHADER, source)}, "compute program");
}

GLuint SceneKit::program(const char *vertex_source, const char *fragment_source)
{
   const GLuint vertex = compile(GL_VERTEX_SHADER, vertex_source);
   GLuint fragment = 0;
   try {
      fragment = compile(GL_FRAGMENT_SHADER, fragment_source);
   } catch (...) {
      glDeleteShader(vertex);
      throw;
   }
   return link({vertex, fragment}, "program");
}

GLuint SceneKit::coloured_program(Shading shading, float point_size)
{
   const char *qualifier = shading == Shading::flat ? "flat" : "smooth";
   /* Only programs that draw points write gl_PointSize, so that the other scenes' vertex
    * shaders export nothing they do not need. */
   const std::string point_size_line =
      point_size > 0 ? "   gl_PointSize = " + std::to_string(point_size) + ";\n" : "";
   const std::string vertex_source =
      replaced(replaced(coloured_vertex_source, "@QUALIFIER@", qualifier), "@POINT_SIZE@", point_size_line);
   const std::string fragment_source = replaced(coloured_fragment_source, "@QUALIFIER@", qualifier);
   return program(vertex_source.c_str(), fragment_source.c_str());
}

const char *flat_colour_fragment_source()
{
   static const std::string source = replaced(coloured_fragment_source, "@QUALIFIER@", "flat");
   return source.c_str();
}

GLuint SceneKit::buffer(GLenum target, const void *data, size_t size)
{
   GLuint name = 0;
   glGenBuffers(1, &name);
   buffers_.push_back(name);
   glBindBuffer(target, name);
   glBufferData(target, GLsizeiptr(size), data, GL_STATIC_DRAW);
   return name;
}

GLuint SceneKit::vertex_array()
{
   GLuint name = 0;
   glGenVertexArrays(1, &name);
   vertex_arrays_.push_back(name);
   glBindVertexArray(name);
   return name;
}

GLuint SceneKit::texture(GLenum target)
{
   GLuint name = 0;
   glGenTextures(1, &name);
   textures_.push_back(name);
   glBindTexture(target, name);
   return name;
}

GLuint SceneKit::coloured_vertices(std::span<const ColouredVertex> vertices)
{
   const GLuint array = vertex_array();
   buffer(GL_ARRAY_BUFFER, vertices.data(), vertices.size_bytes());
   glEnableVertexAttribArray(0);
   glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(ColouredVertex),
                         reinterpret_cast<const void *>(offsetof(ColouredVertex, x)));
   glEnableVertexAttribArray(1);
   glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(ColouredVertex),
                         reinterpret_cast<const void *>(offsetof(ColouredVertex, colour)));
   return array;
}

GLuint SceneKit::position_vertices(std::span<const float> positions)
{
   const GLuint array = vertex_array();
   buffer(GL_ARRAY_BUFFER, positions.data(), positions.size_bytes());
   glEnableVertexAttribArray(0);
   glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
   return array;
}

void SceneKit::scissor(int x, int y, int width, int height) const
{
   /* Grid edges map to pixel edges as the viewport maps vertices, rounded down. */
   auto to_pixels_x = [&](int grid) { return grid * width_ / grid_size; };
   auto to_pixels_y = [&](int grid) { return grid * height_ / grid_size; };
   glScissor(to_pixels_x(x), to_pixels_y(y), to_pixels_x(x + width) - to_pixels_x(x),
             to_pixels_y(y + height) - to_pixels_y(y));
}

void SceneKit::clear_colour(Rgba8 colour)
{
   float channels[4];
   to_floats(colour, channels);
   glClearColor(channels[0], channels[1], channels[2], channels[3]);
}

void to_floats(Rgba8 colour, float out[4])
{
   /* k / 255 in float is within half an ulp of the exact value, so k / 255 * 255 rounds back
    * to k whatever conversion rounding a driver uses. */
   out[0] = float(colour.r) / 255.0f;
   out[1] = float(colour.g) / 255.0f;
   out[2] = float(colour.b) / 255.0f;
   out[3] = float(colour.a) / 255.0f;
}

} // namespace terakan::gl_scenes
