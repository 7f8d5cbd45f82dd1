#include "egl_session.h"

#include <EGL/eglext.h>
#include <fcntl.h>
#include <gbm.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "failure.h"

namespace terakan::gl_scenes {

namespace {

const char *egl_error_name(EGLint error)
{
   switch (error) {
   case EGL_SUCCESS: return "EGL_SUCCESS";
   case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
   case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
   case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
   case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
   case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
   case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
   case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE";
   case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
   case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
   case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP";
   case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW";
   case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
   case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
   case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST";
   default: return "an unknown EGL error";
   }
}

[[noreturn]] void egl_failed(const std::string &what)
{
   throw Failure(what + " failed: " + egl_error_name(eglGetError()));
}

/* Extension strings are space-separated names; a plain strstr would also match prefixes
 * (EGL_KHR_platform_gbm inside EGL_KHR_platform_gbm_foo). */
bool has_extension(const char *list, const char *name)
{
   if (!list)
      return false;
   const size_t length = std::strlen(name);
   for (const char *at = list; (at = std::strstr(at, name)); at += length) {
      const bool starts = at == list || at[-1] == ' ';
      const bool ends = at[length] == ' ' || at[length] == '\0';
      if (starts && ends)
         return true;
   }
   return false;
}

} // namespace

void EglSession::open(DeviceKind kind, const std::string &render_node)
{
   if (kind == DeviceKind::llvmpipe) {
      /* Mesa's surfaceless platform tries the render nodes' hardware drivers first; these make
       * it take the software path, and llvmpipe rather than softpipe there. Set before the
       * first EGL call, which loads Mesa. The caller checks GL_RENDERER afterwards, since
       * another Mesa version could ignore a variable. */
      setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
      setenv("GALLIUM_DRIVER", "llvmpipe", 1);
   }

   /* Client extensions (queried without a display) name the platforms EGL can open. */
   const char *client_extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
   if (!has_extension(client_extensions, "EGL_EXT_platform_base"))
      throw Failure("EGL lacks EGL_EXT_platform_base (client extensions: " +
                    std::string(client_extensions ? client_extensions : "none") + ")");
   auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
   if (!get_platform_display)
      throw Failure("eglGetProcAddress(eglGetPlatformDisplayEXT) returned nothing");

   if (kind == DeviceKind::gbm) {
      if (!has_extension(client_extensions, "EGL_MESA_platform_gbm") &&
          !has_extension(client_extensions, "EGL_KHR_platform_gbm"))
         throw Failure("EGL has no GBM platform (EGL_MESA_platform_gbm)");
      drm_fd_ = ::open(render_node.c_str(), O_RDWR | O_CLOEXEC);
      if (drm_fd_ < 0)
         throw Failure("opening " + render_node + ": " + std::strerror(errno));
      gbm_ = gbm_create_device(drm_fd_);
      if (!gbm_)
         throw Failure("gbm_create_device on " + render_node + " failed (no GBM backend for its driver?)");
      display_ = get_platform_display(EGL_PLATFORM_GBM_MESA, gbm_, nullptr);
   } else {
      if (!has_extension(client_extensions, "EGL_MESA_platform_surfaceless"))
         throw Failure("EGL has no surfaceless platform (EGL_MESA_platform_surfaceless)");
      display_ = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
   }
   if (display_ == EGL_NO_DISPLAY)
      egl_failed("eglGetPlatformDisplayEXT");

   EGLint egl_major = 0, egl_minor = 0;
   if (!eglInitialize(display_, &egl_major, &egl_minor)) {
      display_ = EGL_NO_DISPLAY; /* nothing to terminate */
      egl_failed("eglInitialize");
   }

   /* No surface and no config: the context renders only into framebuffer objects. */
   const char *display_extensions = eglQueryString(display_, EGL_EXTENSIONS);
   if (!has_extension(display_extensions, "EGL_KHR_surfaceless_context"))
      throw Failure("the EGL display lacks EGL_KHR_surfaceless_context");
   if (!has_extension(display_extensions, "EGL_KHR_no_config_context") &&
       !has_extension(display_extensions, "EGL_MESA_configless_context"))
      throw Failure("the EGL display lacks EGL_KHR_no_config_context");
   const bool egl_1_5 = egl_major > 1 || (egl_major == 1 && egl_minor >= 5);
   if (!egl_1_5 && !has_extension(display_extensions, "EGL_KHR_create_context"))
      throw Failure("the EGL display cannot ask for a GLES minor version (no EGL_KHR_create_context)");

   if (!eglBindAPI(EGL_OPENGL_ES_API))
      egl_failed("eglBindAPI(EGL_OPENGL_ES_API)");

   /* GLES 3.1 is what r600 reports on Evergreen and Cayman; every scene so far needs only
    * 3.0, so a driver that refuses 3.1 still runs them. */
   for (const int minor : {1, 0}) {
      const EGLint attributes[] = {
         EGL_CONTEXT_MAJOR_VERSION, 3,
         EGL_CONTEXT_MINOR_VERSION, minor,
         EGL_NONE,
      };
      context_ = eglCreateContext(display_, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
      if (context_ != EGL_NO_CONTEXT) {
         major_ = 3;
         minor_ = minor;
         break;
      }
   }
   if (context_ == EGL_NO_CONTEXT)
      egl_failed("eglCreateContext (GLES 3.1 and 3.0, no config)");
   if (!eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_))
      egl_failed("eglMakeCurrent (surfaceless)");
}

EglSession::~EglSession()
{
   if (display_ != EGL_NO_DISPLAY) {
      eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      if (context_ != EGL_NO_CONTEXT)
         eglDestroyContext(display_, context_);
      eglTerminate(display_);
      eglReleaseThread();
   }
   if (gbm_)
      gbm_device_destroy(gbm_);
   if (drm_fd_ >= 0)
      close(drm_fd_);
}

} // namespace terakan::gl_scenes
