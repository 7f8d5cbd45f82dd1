/* The unnormalized-coordinate variants (terakan_shader_variants.h). */
#include "terakan_shader_variants.h"

#include <new>

#include "compiler/isa/words.h"

namespace terakan {

uint32_t unnormalized_coordinate_clear_mask()
{
   return isa::tex::coord_type_x.mask() | isa::tex::coord_type_y.mask(); /* both in dword 1 */
}

ShaderVariants::ShaderVariants(VariantCodeStore &store, std::vector<uint32_t> code,
                               std::vector<std::vector<uint32_t>> patch_sites)
   : store(store), code(std::move(code)), sites(std::move(patch_sites))
{
   for (size_t bit = 0; bit < sites.size() && bit < 32; bit++)
      if (!sites[bit].empty())
         relevant |= 1u << bit;
   u_rwlock_init(&lock);
}

ShaderVariants::~ShaderVariants()
{
   for (auto &[mask, handle] : variants)
      store.release(handle);
   u_rwlock_destroy(&lock);
}

std::vector<uint32_t> ShaderVariants::patched(uint32_t mask) const
{
   static const uint32_t clear = unnormalized_coordinate_clear_mask();
   std::vector<uint32_t> copy = code;
   for (size_t bit = 0; bit < sites.size() && bit < 32; bit++) {
      if (!(mask >> bit & 1))
         continue;
      for (uint32_t dword : sites[bit])
         copy[dword + 1] &= ~clear; /* TEX_WORD1 */
   }
   return copy;
}

void *ShaderVariants::find(uint32_t mask)
{
   u_rwlock_rdlock(&lock);
   const auto found = variants.find(mask);
   void *handle = found == variants.end() ? nullptr : found->second;
   u_rwlock_rdunlock(&lock);
   return handle;
}

void *ShaderVariants::get(uint32_t mask, std::string &error)
{
   if (void *handle = find(mask))
      return handle;
   u_rwlock_wrlock(&lock);
   void *handle = nullptr;
   const auto found = variants.find(mask);
   if (found != variants.end()) {
      handle = found->second;
   } else {
      handle = store.upload(patched(mask), error);
      if (handle) {
         try {
            variants.emplace(mask, handle);
            made.fetch_add(1, std::memory_order_relaxed);
         } catch (const std::bad_alloc &) {
            store.release(handle);
            handle = nullptr;
            error = "out of host memory for a shader variant";
         }
      }
   }
   u_rwlock_wrunlock(&lock);
   return handle;
}

} // namespace terakan
