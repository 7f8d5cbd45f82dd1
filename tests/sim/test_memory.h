/* Tests use the simulator's host-buffer address space. */
#pragma once

#include "core/host_memory.h"

namespace terakan::test {
using TestMemory = sim::HostMemory;
}
