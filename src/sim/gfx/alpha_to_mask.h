/* Alpha to coverage in the DB (DB_ALPHA_TO_MASK): the alpha of colour export 0 turned into a
 * mask of covered samples, ANDed with the rasterizer's coverage before the depth and stencil
 * tests. docs/sim-semantics.md ("Alpha to coverage") has the rule and what is derived. */
#pragma once

#include <cstdint>
#include <string>

#include "gfx/draw.h"

namespace terakan::sim {

struct AlphaToMask {
   bool enabled = false;
   unsigned samples = 1;      /* the mask's sample count */
   unsigned offsets[4] = {};  /* ALPHA_TO_MASK_OFFSET0-3, by quad pixel (X0Y0, X1Y0, X0Y1, X1Y1) */
   bool round = false;        /* OFFSET_ROUND */
};

/* Reads DB_ALPHA_TO_MASK (and DB_SHADER_CONTROL.ALPHA_TO_MASK_DISABLE, Cayman's
 * DB_EQAA.ALPHA_TO_MASK_NUM_SAMPLES) for a draw rasterized with `samples` samples. False with
 * a message for what is not simulated. */
bool decode_alpha_to_mask(const PipelineState &state, unsigned samples, AlphaToMask &out, std::string &error);

/* The samples `alpha` covers at quad pixel `quad_pixel` (0-3). */
uint16_t alpha_to_mask(const AlphaToMask &rule, float alpha, unsigned quad_pixel);

} // namespace terakan::sim
