/* terakan-r600g-shaderdb: r600g's shader statistics for every GL shader under a folder.
 *
 *   terakan-r600g-shaderdb [--node /dev/dri/renderD128] DIR
 *
 * Opens the render node through GBM and EGL, makes a desktop GL core context (4.5, else the
 * highest of 4.3, 4.0, 3.3 the driver gives) with debug output on, and compiles and links every
 * NAME.vert + NAME.frag pair and every NAME.comp under DIR (desktop GLSL). Mesa's r600 driver
 * builds each shader at link time and reports its statistics through the GL debug output (source
 * SHADER_COMPILER, type OTHER); this program prints those lines, shader-db style:
 *
 *   NAME.vert - VS shader: 20 dw, 2 gprs, 3 alu_groups, 0 loops, 5 cf, 1 stack; link_ms: 4.2
 *   NAME.frag - refused: FIRST LINE OF THE INFO LOG
 *
 * A lone .vert or .frag has no partner to link with and is listed as skipped. It is meant to run
 * with the simulator preloaded (scripts/shaderdb-compare.py does that); on a real card it
 * reports the card's driver. Exit status: 0 when the folder was read, 1 when no GL context could
 * be made, 2 on usage errors. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <fcntl.h>
#include <gbm.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Gl {
   PFNGLCREATESHADERPROC CreateShader;
   PFNGLSHADERSOURCEPROC ShaderSource;
   PFNGLCOMPILESHADERPROC CompileShader;
   PFNGLGETSHADERIVPROC GetShaderiv;
   PFNGLGETSHADERINFOLOGPROC GetShaderInfoLog;
   PFNGLCREATEPROGRAMPROC CreateProgram;
   PFNGLATTACHSHADERPROC AttachShader;
   PFNGLLINKPROGRAMPROC LinkProgram;
   PFNGLGETPROGRAMIVPROC GetProgramiv;
   PFNGLGETPROGRAMINFOLOGPROC GetProgramInfoLog;
   PFNGLDELETESHADERPROC DeleteShader;
   PFNGLDELETEPROGRAMPROC DeleteProgram;
   PFNGLENABLEPROC Enable;
   PFNGLDEBUGMESSAGECALLBACKPROC DebugMessageCallback;
   PFNGLGETSTRINGPROC GetString;
   PFNGLFINISHPROC Finish;
};

template <typename T> bool load(T &function, const char *name)
{
   function = reinterpret_cast<T>(eglGetProcAddress(name));
   if (!function)
      std::fprintf(stderr, "terakan-r600g-shaderdb: eglGetProcAddress(%s) gave nothing\n", name);
   return function != nullptr;
}

/* The statistics lines r600g sent while the current program was linked. */
std::vector<std::string> messages;

void APIENTRY on_message(GLenum source, GLenum type, GLuint, GLenum, GLsizei length, const GLchar *text,
                           const void *)
{
   if (source != GL_DEBUG_SOURCE_SHADER_COMPILER || type != GL_DEBUG_TYPE_OTHER)
      return;
   std::string line = length >= 0 ? std::string(text, size_t(length)) : std::string(text);
   if (line.find(" shader: ") != std::string::npos)
      messages.push_back(line);
}

std::string read_text(const fs::path &path)
{
   std::ifstream file(path);
   std::stringstream text;
   text << file.rdbuf();
   return text.str();
}

std::string first_line(std::string text)
{
   for (const char *skip : {"\n", " "})
      while (text.starts_with(skip))
         text.erase(0, 1);
   const size_t end = text.find('\n');
   return end == std::string::npos ? text : text.substr(0, end);
}

int usage(const char *message)
{
   if (message)
      std::fprintf(stderr, "terakan-r600g-shaderdb: %s\n", message);
   std::fprintf(stderr, "usage: terakan-r600g-shaderdb [--node PATH] DIR\n");
   return 2;
}

} // namespace

int main(int argc, char **argv)
{
   std::string node = "/dev/dri/renderD128", folder;
   for (int i = 1; i < argc; i++) {
      const std::string arg = argv[i];
      if (arg == "--node" && i + 1 < argc)
         node = argv[++i];
      else if (!arg.empty() && arg[0] == '-')
         return usage(("unknown option " + arg).c_str());
      else
         folder = arg;
   }
   if (folder.empty() || !fs::is_directory(folder))
      return usage("no folder");

   const int fd = open(node.c_str(), O_RDWR | O_CLOEXEC);
   if (fd < 0)
      return std::fprintf(stderr, "terakan-r600g-shaderdb: cannot open %s\n", node.c_str()), 1;
   gbm_device *gbm = gbm_create_device(fd);
   auto get_platform_display =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
   EGLDisplay display = gbm && get_platform_display ? get_platform_display(EGL_PLATFORM_GBM_MESA, gbm, nullptr)
                                                    : EGL_NO_DISPLAY;
   EGLint egl_major = 0, egl_minor = 0;
   if (display == EGL_NO_DISPLAY || !eglInitialize(display, &egl_major, &egl_minor) || !eglBindAPI(EGL_OPENGL_API))
      return std::fprintf(stderr, "terakan-r600g-shaderdb: no EGL display on %s\n", node.c_str()), 1;
   EGLContext context = EGL_NO_CONTEXT;
   int gl_major = 0, gl_minor = 0;
   for (const auto [major, minor] : {std::pair{4, 5}, {4, 3}, {4, 0}, {3, 3}}) {
      const EGLint attributes[] = {
         EGL_CONTEXT_MAJOR_VERSION, major,
         EGL_CONTEXT_MINOR_VERSION, minor,
         EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
         EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE,
         EGL_NONE,
      };
      context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
      if (context != EGL_NO_CONTEXT) {
         gl_major = major, gl_minor = minor;
         break;
      }
   }
   if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context))
      return std::fprintf(stderr, "terakan-r600g-shaderdb: no desktop GL core context (4.5 to 3.3)\n"), 1;

   Gl gl{};
   if (!load(gl.CreateShader, "glCreateShader") || !load(gl.ShaderSource, "glShaderSource") ||
       !load(gl.CompileShader, "glCompileShader") || !load(gl.GetShaderiv, "glGetShaderiv") ||
       !load(gl.GetShaderInfoLog, "glGetShaderInfoLog") || !load(gl.CreateProgram, "glCreateProgram") ||
       !load(gl.AttachShader, "glAttachShader") || !load(gl.LinkProgram, "glLinkProgram") ||
       !load(gl.GetProgramiv, "glGetProgramiv") || !load(gl.GetProgramInfoLog, "glGetProgramInfoLog") ||
       !load(gl.DeleteShader, "glDeleteShader") || !load(gl.DeleteProgram, "glDeleteProgram") ||
       !load(gl.Enable, "glEnable") || !load(gl.DebugMessageCallback, "glDebugMessageCallback") ||
       !load(gl.GetString, "glGetString") || !load(gl.Finish, "glFinish"))
      return 1;
   gl.Enable(GL_DEBUG_OUTPUT);
   gl.Enable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
   gl.DebugMessageCallback(on_message, nullptr);
   std::printf("# %s, %s, desktop GL %d.%d core\n", reinterpret_cast<const char *>(gl.GetString(GL_RENDERER)),
               reinterpret_cast<const char *>(gl.GetString(GL_VERSION)), gl_major, gl_minor);

   std::map<std::string, std::map<std::string, fs::path>> programs; /* name -> "vert" -> file */
   for (const auto &entry : fs::recursive_directory_iterator(folder)) {
      if (!entry.is_regular_file())
         continue;
      const std::string extension = entry.path().extension().string();
      if (extension != ".vert" && extension != ".frag" && extension != ".comp")
         continue;
      fs::path name = fs::relative(entry.path(), folder);
      name.replace_extension();
      programs[name.string()][extension.substr(1)] = entry.path();
   }

   const std::map<std::string, GLenum> types = {
      {"vert", GL_VERTEX_SHADER}, {"frag", GL_FRAGMENT_SHADER}, {"comp", GL_COMPUTE_SHADER}};
   const std::map<std::string, std::string> abbreviations = {{"vert", "VS"}, {"frag", "FS"}, {"comp", "CS"}};
   for (const auto &[name, files] : programs) {
      std::vector<std::vector<std::string>> groups;
      if (files.count("comp"))
         groups.push_back({"comp"});
      if (files.count("vert") && files.count("frag"))
         groups.push_back({"vert", "frag"});
      else
         for (const char *lone : {"vert", "frag"})
            if (files.count(lone))
               std::printf("%s.%s - skipped: no partner stage to link with\n", name.c_str(), lone);
      for (const auto &group : groups) {
         messages.clear();
         const auto start = std::chrono::steady_clock::now();
         const GLuint program = gl.CreateProgram();
         std::vector<GLuint> shaders;
         std::string failure;
         for (const std::string &stage : group) {
            const std::string source = read_text(files.at(stage));
            const char *text = source.c_str();
            const GLuint shader = gl.CreateShader(types.at(stage));
            gl.ShaderSource(shader, 1, &text, nullptr);
            gl.CompileShader(shader);
            GLint ok = 0;
            gl.GetShaderiv(shader, GL_COMPILE_STATUS, &ok);
            if (!ok && failure.empty()) {
               char log[4096] = {};
               gl.GetShaderInfoLog(shader, sizeof(log), nullptr, log);
               failure = stage + ": " + first_line(log);
            }
            gl.AttachShader(program, shader);
            shaders.push_back(shader);
         }
         if (failure.empty()) {
            gl.LinkProgram(program);
            GLint ok = 0;
            gl.GetProgramiv(program, GL_LINK_STATUS, &ok);
            if (!ok) {
               char log[4096] = {};
               gl.GetProgramInfoLog(program, sizeof(log), nullptr, log);
               failure = "link: " + first_line(log);
            }
         }
         const double link_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
         for (const GLuint shader : shaders)
            gl.DeleteShader(shader);
         gl.DeleteProgram(program);
         for (const std::string &stage : group) {
            const std::string shown = name + "." + stage;
            if (!failure.empty()) {
               std::printf("%s - refused: %s\n", shown.c_str(), failure.c_str());
               continue;
            }
            /* The first line for this stage (r600g may build more than one variant). */
            const std::string prefix = abbreviations.at(stage) + " shader: ";
            std::string found;
            for (const std::string &message : messages)
               if (message.starts_with(prefix) && found.empty())
                  found = message;
            if (found.empty())
               std::printf("%s - refused: r600g reported no statistics\n", shown.c_str());
            else
               std::printf("%s - %s; link_ms: %.3f\n", shown.c_str(), found.c_str(), link_ms);
         }
         std::fflush(stdout);
      }
   }
   gl.Finish();
   eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
   eglDestroyContext(display, context);
   eglTerminate(display);
   gbm_device_destroy(gbm);
   close(fd);
   return 0;
}
