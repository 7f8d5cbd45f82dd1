/* Unnormalized-coordinate variants of one compute program (seed 004; docs/architecture.md).
 *
 * Vulkan chooses normalized or unnormalized coordinates per sampler; TeraScale before Cayman
 * chooses them per TEX instruction (COORD_TYPE_X/Y). A program is compiled with every sample
 * normalized, and the compiler lists, per sampler element whose coordinate type is only known
 * at bind time, the TEX instructions that use it. At dispatch the driver computes the mask of
 * those elements whose bound sampler is unnormalized and asks for the program variant with the
 * COORD_TYPE bits of their instructions cleared.
 *
 * The unpatched microcode stays in CPU memory. Variants are made on first use and kept until
 * the program is destroyed: a read-locked lookup on the hot path; on a miss, the write lock, a
 * second lookup (another thread may have made it meanwhile), then copy, patch, upload and
 * insert. Never a recompile. Mask 0 is the program itself and is never looked up. */
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "util/rwlock.h"

namespace terakan {

/* Where variant code lives: GPU memory in the driver, host memory in the benchmark. */
class VariantCodeStore {
public:
   virtual ~VariantCodeStore() = default;
   /* Returns an opaque handle for the uploaded code, or nullptr with `error` set. */
   virtual void *upload(std::span<const uint32_t> code, std::string &error) = 0;
   virtual void release(void *handle) = 0;
};

class ShaderVariants {
public:
   /* `patch_sites[bit]`: dword offsets of the TEX instructions (their first word) that use the
    * sampler element of key bit `bit`. */
   ShaderVariants(VariantCodeStore &store, std::vector<uint32_t> code,
                  std::vector<std::vector<uint32_t>> patch_sites);
   ~ShaderVariants();
   ShaderVariants(const ShaderVariants &) = delete;
   ShaderVariants &operator=(const ShaderVariants &) = delete;

   /* The variant for `mask` (non-zero), made if needed; nullptr with `error` set if the upload
    * failed. Thread-safe. */
   void *get(uint32_t mask, std::string &error);
   /* Only the read-locked lookup: nullptr if the variant does not exist yet. */
   void *find(uint32_t mask);

   /* The key bits that matter: bits without a patch site are dropped from masks. */
   uint32_t relevant_bits() const { return relevant; }
   uint64_t variants_made() const { return made.load(std::memory_order_relaxed); }

   /* The patched copy of the code for `mask` (what an upload receives). */
   std::vector<uint32_t> patched(uint32_t mask) const;

private:
   VariantCodeStore &store;
   const std::vector<uint32_t> code;
   const std::vector<std::vector<uint32_t>> sites;
   uint32_t relevant = 0;
   struct u_rwlock lock;
   std::unordered_map<uint32_t, void *> variants;
   std::atomic<uint64_t> made{0};
};

/* TEX_WORD1 COORD_TYPE_X and COORD_TYPE_Y (1 = normalized): what a variant clears. The
 * fields are defined in the instruction-set library (isa/words.h, tex::coord_type_x/y). */
uint32_t unnormalized_coordinate_clear_mask();

} // namespace terakan
