/* The one error type of terakan-gl-scenes: a failed EGL, GL, file or PNG step, with a message
 * that names the step. Thrown so that a scene can stop at its first failure and the program can
 * report it and go on with the next scene (or stop, when the context itself failed). */
#pragma once

#include <stdexcept>
#include <string>

namespace terakan::gl_scenes {

struct Failure : std::runtime_error {
   using std::runtime_error::runtime_error;
};

} // namespace terakan::gl_scenes
