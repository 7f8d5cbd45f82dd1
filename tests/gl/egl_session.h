/* An EGL display and a current GLES context without a surface (pictures go to framebuffer
 * objects), on one of two devices:
 *  - gbm: the hardware driver of a DRM render node, reached through GBM (on our CI, Debian's
 *    r600 driver on the simulated card that libterakan_sim.so presents);
 *  - llvmpipe: Mesa's software rasterizer on the surfaceless platform, the reference picture.
 */
#pragma once

#include <EGL/egl.h>

#include <string>

struct gbm_device;

namespace terakan::gl_scenes {

enum class DeviceKind { gbm, llvmpipe };

class EglSession {
public:
   EglSession() = default;
   ~EglSession();
   EglSession(const EglSession &) = delete;
   EglSession &operator=(const EglSession &) = delete;

   /* Opens the display and makes a GLES 3.1 context (3.0 if 3.1 is refused) current. Throws
    * Failure naming the step that failed; the destructor releases whatever was made. For
    * llvmpipe it sets Mesa's environment variables first, so call it before any other EGL use. */
   void open(DeviceKind kind, const std::string &render_node);

   int gles_major() const { return major_; }
   int gles_minor() const { return minor_; }

private:
   int drm_fd_ = -1;
   gbm_device *gbm_ = nullptr;
   EGLDisplay display_ = EGL_NO_DISPLAY;
   EGLContext context_ = EGL_NO_CONTEXT;
   int major_ = 0, minor_ = 0;
};

} // namespace terakan::gl_scenes
