#include "scene_tools.h"

#include <cstddef>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <string>

#include "failure.h"

namespace terakan::gl_scenes {

std::vector<ColouredVertex> square(float x, float y, float size, Rgba8 colour)
{
   return {{x, y, colour},        {x + size, y, colour}, {x + size, y + size, colour},
           {x, y, colour},        {x + size, y + size, colour}, {x, y + size, colour}};
}

std::vector<ColouredVertex> whole_picture(Rgba8 colour)
{
   return square(0, 0, grid_size, colour);
}

void draw_at(SceneKit &kit, GLuint program, const std::vector<ColouredVertex> &vertices, float z)
{
   glUniform1f(glGetUniformLocation(program, "u_depth"), z);
   kit.coloured_vertices(std::span<const ColouredVertex>(vertices));
   glDrawArrays(GL_TRIANGLES, 0, GLsizei(vertices.size()));
}

GLuint bound_framebuffer()
{
   GLint framebuffer = 0;
   glGetIntegerv(GL_FRAMEBUFFER_BINDING, &framebuffer);
   return GLuint(framebuffer);
}

void show(SceneKit &kit, GLuint framebuffer, const Bytes &bytes)
{
   glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
   glViewport(0, 0, kit.width(), kit.height());
   glDisable(GL_BLEND);
   kit.texture(GL_TEXTURE_2D);
   glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, kit.width(), kit.height());
   glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
   glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kit.width(), kit.height(), GL_RGBA, GL_UNSIGNED_BYTE, bytes.data());
   glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
   glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
   /* A triangle covering the whole picture, from gl_VertexID alone. */
   const GLuint program = kit.program(R"(#version 300 es
void main()
{
   vec2 corner = vec2(float((gl_VertexID & 1) * 4) - 1.0, float((gl_VertexID & 2) * 2) - 1.0);
   gl_Position = vec4(corner, 0.0, 1.0);
}
)",
                                      R"(#version 300 es
precision highp float;
uniform highp sampler2D u_picture;
out vec4 o_colour;
void main()
{
   o_colour = texelFetch(u_picture, ivec2(gl_FragCoord.xy), 0);
}
)");
   glUniform1i(glGetUniformLocation(program, "u_picture"), 0);
   kit.vertex_array();
   glDrawArrays(GL_TRIANGLES, 0, 3);
}

Bytes draw_in_desktop_gl(const SceneKit &kit, int major, int minor, bool depth_stencil,
                         const std::function<void(SceneKit &)> &draw, bool compatibility)
{
   const EGLDisplay display = eglGetCurrentDisplay();
   const EGLContext gles_context = eglGetCurrentContext();
   if (display == EGL_NO_DISPLAY || gles_context == EGL_NO_CONTEXT)
      throw Failure("no current EGL context to return to");
   if (!eglBindAPI(EGL_OPENGL_API))
      throw Failure("eglBindAPI(EGL_OPENGL_API) failed");
   const EGLint attributes[] = {
      EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, minor,
      EGL_CONTEXT_OPENGL_PROFILE_MASK,
      compatibility ? EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT : EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE,
   };
   const EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
   eglBindAPI(EGL_OPENGL_ES_API);
   if (context == EGL_NO_CONTEXT)
      throw Failure("eglCreateContext (desktop GL " + std::to_string(major) + "." + std::to_string(minor) +
                    (compatibility ? " compatibility" : " core") + ") failed");
   Bytes pixels(size_t(kit.width()) * size_t(kit.height()) * 4);
   std::string failure;
   if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
      try {
         GLuint framebuffer = 0, renderbuffers[2] = {};
         const GLsizei renderbuffer_count = depth_stencil ? 2 : 1;
         glGenFramebuffers(1, &framebuffer);
         glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
         glGenRenderbuffers(renderbuffer_count, renderbuffers);
         glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[0]);
         glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kit.width(), kit.height());
         glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, renderbuffers[0]);
         if (depth_stencil) {
            glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[1]);
            glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, kit.width(), kit.height());
            glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, renderbuffers[1]);
         }
         glViewport(0, 0, kit.width(), kit.height());
         {
            SceneKit desktop_kit(kit.width(), kit.height());
            draw(desktop_kit);
         }
         glPixelStorei(GL_PACK_ALIGNMENT, 1);
         glReadPixels(0, 0, kit.width(), kit.height(), GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
         if (const GLenum error = glGetError(); error != GL_NO_ERROR)
            failure = "desktop GL error 0x" + std::to_string(error);
         glDeleteFramebuffers(1, &framebuffer);
         glDeleteRenderbuffers(renderbuffer_count, renderbuffers);
      } catch (const Failure &caught) {
         failure = caught.what();
      }
   } else {
      failure = "eglMakeCurrent (desktop GL context) failed";
   }
   eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, gles_context);
   eglDestroyContext(display, context);
   if (!failure.empty())
      throw Failure(failure);
   return pixels;
}

void depth_vertices_program(SceneKit &kit, std::span<const DepthVertex> vertices)
{
   kit.program(R"(#version 300 es
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_colour;
flat out vec4 v_colour;
void main()
{
   gl_Position = vec4(a_position.xy / 32.0 - 1.0, a_position.z, 1.0);
   v_colour = a_colour;
}
)",
               flat_colour_fragment_source());
   kit.vertex_array();
   kit.buffer(GL_ARRAY_BUFFER, vertices.data(), vertices.size_bytes());
   glEnableVertexAttribArray(0);
   glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(DepthVertex), nullptr);
   glEnableVertexAttribArray(1);
   glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(DepthVertex),
                         reinterpret_cast<const void *>(offsetof(DepthVertex, colour)));
}

} // namespace terakan::gl_scenes
