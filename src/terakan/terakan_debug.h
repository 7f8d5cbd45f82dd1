/* TERAKAN_DEBUG=flag,flag: debug switches, parsed once with Mesa's parse_debug_string. */
#pragma once

#include <cstdint>

enum terakan_debug_flag : uint64_t {
   /* Explain device enumeration: every DRM node looked at, and why it was taken or skipped. */
   TERAKAN_DEBUG_STARTUP = 1ull << 0,
   /* Report every unnormalized-coordinate program variant made (terakan_shader_variants.h). */
   TERAKAN_DEBUG_VARIANTS = 1ull << 1,
};

uint64_t terakan_debug_flags();

static inline bool terakan_debug(terakan_debug_flag flag)
{
   return (terakan_debug_flags() & flag) != 0;
}
