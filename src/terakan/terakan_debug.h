/* TERAKAN_DEBUG=flag,flag: debug switches, parsed once with Mesa's parse_debug_string. */
#pragma once

#include <cstdint>

#include "util/log.h"

enum terakan_debug_flag : uint64_t {
   /* Explain device enumeration: every DRM node looked at, and why it was taken or skipped. */
   TERAKAN_DEBUG_STARTUP = 1ull << 0,
   /* Report every unnormalized-coordinate program variant made (terakan_shader_variants.h). */
   TERAKAN_DEBUG_VARIANTS = 1ull << 1,
   /* Print every error the driver reports (the message of terakan_errorf) on stderr too: the
    * messages otherwise reach only debug messengers (Mesa's vk_errorf logs in debug builds). */
   TERAKAN_DEBUG_ERRORS = 1ull << 2,
   /* 1 << 3 was "conservative", which offered VK_EXT_conservative_rasterization before it was
    * offered by default. */
   /* Image copies by CP DMA runs only, never by the copy shader (terakan_meta_copy.cpp): to
    * compare the two paths and to measure the old one. */
   TERAKAN_DEBUG_DMA_COPIES = 1ull << 4,
   /* Print on stderr how each image copy region was done ("terakan: copy: shader" or
    * "terakan: copy: cp-dma, N packets"): the copy tests check the path taken. */
   TERAKAN_DEBUG_COPIES = 1ull << 5,
   /* Print at vkEndCommandBuffer how many command streams and dwords the command buffer holds
    * ("terakan: command buffer: N streams, M dwords"): terakan-bench-copy reads it. */
   TERAKAN_DEBUG_STREAMS = 1ull << 6,
};

uint64_t terakan_debug_flags();

static inline bool terakan_debug(terakan_debug_flag flag)
{
   return (terakan_debug_flags() & flag) != 0;
}

/* vk_errorf, and with TERAKAN_DEBUG=errors the same message on stderr (dEQP runs and users
 * without a debug messenger see why a command failed). The format begins "terakan: ". */
#define terakan_errorf(object, result, ...)                                                    \
   ((terakan_debug(TERAKAN_DEBUG_ERRORS) ? mesa_loge(__VA_ARGS__) : (void)0),                  \
    vk_errorf(object, result, __VA_ARGS__))
