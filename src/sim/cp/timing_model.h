/* A model of how long the simulated card takes, for its GPU timestamps (EVENT_WRITE_EOP with
 * the timestamp data selector) and so for vkCmdWriteTimestamp and timer queries. It is not a
 * measurement: no TeraScale card has been timed for it. Each dispatch or draw takes as long as
 * its slowest part on an idle card, counted in engine clocks from the board's published
 * figures and the work the simulator counted:
 *  - ALU: a wavefront issues one VLIW instruction group over 4 clocks on one SIMD of 16 stream
 *    cores (AMD's Evergreen and Cayman ISA guides); the waves are shared out over the SIMDs,
 *    so fewer waves than SIMDs leave some idle;
 *  - fetches: a SIMD's texture unit takes 4 addresses a clock (AMD's OpenCL programming guide
 *    for Evergreen), so a fetch instruction of a full wavefront 16 clocks;
 *  - pixels: each render backend writes 4 pixels a clock (Cypress: 32 ROPs in 8 backends);
 *  - primitives: one a clock, two on Cayman (its two graphics engines).
 * Latency, caches, memory bandwidth and overlap between dispatches are not modelled. */
#pragma once

#include <cstdint>


namespace terakan::sim {

struct TimingModel {
   unsigned simds = 1, render_backends = 1, primitives_per_clock = 1;
   uint32_t engine_clock_khz = 0, crystal_clock_khz = 0; /* 0: no model (the counter steps) */
};

/* What one dispatch or draw did, as the simulator counted it. */
struct WorkDone {
   uint64_t wavefronts = 0;
   uint64_t alu_groups = 0; /* instruction groups issued, summed over wavefronts */
   uint64_t lane_fetches = 0; /* fetched addresses: active lanes of every fetch instruction */
   uint64_t pixels_written = 0, primitives = 0;
};

/* The engine clocks the work takes in the model. */
uint64_t modelled_engine_clocks(const TimingModel &model, const WorkDone &work);

} // namespace terakan::sim
