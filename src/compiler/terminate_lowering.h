/* OpTerminateInvocation and OpKill (discard) in pixel shaders (docs/compiler.md, "Pixel-shader
 * outputs and discard"). TeraScale's KILL makes a lane invalid but leaves it running as a helper
 * for its quad's derivatives, which is demote, not terminate: a lane that terminates inside a
 * loop whose only way out was the terminate would run the loop for ever. */
#pragma once

#include "compiler/nir/nir.h"

namespace terakan::compiler {

/* Fragment shaders, on variables, after inlining and before the outputs become temporaries:
 * each discard or terminate that is inside a loop, or followed by a loop later in the program,
 * becomes `if (condition) { demote; return; }` and nir_lower_returns turns the return into
 * breaks out of every enclosing loop and a guard around the rest of the program, so that the
 * lane leaves its loops and runs no further code. The others stay as they are (a KILL; the
 * lane runs on as a helper through straight-line code whose writes and exports it cannot
 * make), which keeps derivatives after a discard defined. */
bool lower_terminate_before_loops(nir_shader *shader);

} // namespace terakan::compiler
