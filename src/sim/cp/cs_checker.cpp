#include "cs_checker.h"
#include "check_failure.h"

#include <algorithm>
#include <array>
#include <cstdarg>
#include <cstdio>
#include <set>

#include "hw/graphics_registers.h"
#include "hw/pm4.h"
#include "hw/registers.h"
#include "hw/streamout.h"
#include "hw/surface.h"
#include "hw/texture.h"

namespace terakan::sim {

namespace {

using namespace hw;

using check::Failure;

/* What the kernel does with a register a SET_CONFIG_REG / SET_CONTEXT_REG writes: the table
 * kernel_registers.inc (made from Linux's reg_srcs/evergreen, reg_srcs/cayman and
 * evergreen_cs_handle_reg; its header gives the sources). Safe registers pass untouched,
 * relocated and tracked ones go to handle_register, anything else is forbidden. */
enum class KernelChips { Evergreen, Cayman, Both };
enum class KernelKind { Safe, Relocated, Tracked };
struct KernelRegister {
   uint32_t first, last;
   const char *name;
   KernelChips chips;
   KernelKind kind;
};
constexpr KernelChips Evergreen = KernelChips::Evergreen, Cayman = KernelChips::Cayman, Both = KernelChips::Both;
constexpr KernelKind Safe = KernelKind::Safe, Relocated = KernelKind::Relocated, Tracked = KernelKind::Tracked;
const KernelRegister kernel_registers[] = {
#define TERAKAN_KERNEL_REG(first, last, name, chips, kind) {first, last, name, chips, kind},
#include "kernel_registers.inc"
#undef TERAKAN_KERNEL_REG
};

const KernelRegister *find_kernel_register(uint32_t reg, IsaClass isa)
{
   for (const KernelRegister &row : kernel_registers) {
      if (reg < row.first || reg > row.last)
         continue;
      if (row.chips == KernelChips::Both || (row.chips == KernelChips::Cayman) == (isa == IsaClass::Cayman))
         return &row;
   }
   return nullptr;
}

bool is_safe_register(uint32_t reg, IsaClass isa)
{
   const KernelRegister *row = find_kernel_register(reg, isa);
   return row && row->kind == KernelKind::Safe;
}

class Checker {
public:
   Checker(std::span<uint32_t> ib, std::span<const CsReloc> relocs, const CsCheckOptions &options)
      : ib(ib), relocs(relocs), options(options)
   {
      db_depth_control = db_z_info = db_s_info = 0xffffffff; /* evergreen_cs_track_init */
      cb_target_mask = 0xffffffff;
   }

   void run()
   {
      while (idx < ib.size()) {
         const uint32_t at = uint32_t(idx);
         const uint32_t header = ib[idx];
         const uint32_t type = pm4::type_of(header);
         if (type == 2) {
            idx++;
            continue;
         }
         if (type == 1)
            throw Failure{format_message("Unknown packet type %d at %d !", type, at)};
         const uint32_t count = pm4::count_of(header);
         if (uint64_t(count) + 1 + at >= ib.size())
            throw Failure{format_message("Packet (%d:%d:%d) end after CS buffer (%zu) !", at, type, count, ib.size())};
         idx += count + 2;
         if (type == 0)
            throw Failure{format_message("Forbidden register 0x%04X in cs at %d", (header & 0xffff) << 2, at)};
         packet3(at, pm4::opcode_of(header), count);
      }
   }

private:
   std::span<uint32_t> ib;
   std::span<const CsReloc> relocs;
   const CsCheckOptions &options;
   size_t idx = 0;

   uint32_t db_depth_control, db_z_info, db_s_info;
   uint32_t db_depth_view = 0, db_depth_size = 0, db_depth_slice = 0;
   /* DB_Z_READ_BASE, DB_STENCIL_READ_BASE, DB_Z_WRITE_BASE, DB_STENCIL_WRITE_BASE */
   std::array<uint32_t, 4> db_base_offset{};
   std::array<const CsReloc *, 4> db_base_bo{};
   uint32_t cb_target_mask;
   uint32_t cb_shader_mask = 0;
   uint64_t indirect_draw_buffer_size = 0; /* SET_BASE's buffer object, for DRAW_*INDIRECT */
   bool sx_misc_kill_all_prims = false;
   std::array<uint32_t, 8> cb_info{}, cb_pitch{}, cb_slice{}, cb_view{}, cb_offset{}, cb_attrib{};
   std::array<const CsReloc *, 8> cb_bo{};
   /* Streamout (evergreen_cs_track): the configs, each buffer's base offset in bytes, its
    * size in bytes and its buffer object. */
   uint32_t strmout_config = 0, strmout_buffer_config = 0;
   std::array<uint64_t, 4> strmout_offset{}, strmout_size{};
   std::array<const CsReloc *, 4> strmout_bo{};

   const CsReloc &next_reloc(uint32_t packet_at)
   {
      if (relocs.empty())
         throw Failure{"No relocation chunk !"};
      if (idx >= ib.size())
         throw Failure{format_message("Can not parse packet at %zu after CS end %zu !", idx, ib.size())};
      const uint32_t header = ib[idx];
      const uint32_t count = pm4::count_of(header);
      if (pm4::type_of(header) != 3 || pm4::opcode_of(header) != pm4::NOP)
         throw Failure{format_message("No packet3 for relocation for packet at %zu.", idx)};
      if (uint64_t(count) + 1 + idx >= ib.size())
         throw Failure{format_message("Packet (%zu:3:%d) end after CS buffer (%zu) !", idx, count, ib.size())};
      const uint32_t value = ib[idx + 1];
      idx += count + 2;
      if (value / 4 >= relocs.size())
         throw Failure{format_message("Relocs at %d after relocations chunk end %zu !", value, relocs.size() * 4)};
      (void)packet_at;
      return relocs[value / 4];
   }

   void need_count(uint32_t count, uint32_t expected, const char *message)
   {
      if (count != expected)
         throw Failure{message};
   }

   void packet3(uint32_t at, uint32_t opcode, uint32_t count)
   {
      const size_t body = at + 1;
      switch (opcode) {
      case pm4::NOP:
         break;
      case pm4::CLEAR_STATE:
      case pm4::INDEX_BUFFER_SIZE:
         need_count(count, 0, "bad INDEX_TYPE/NUM_INSTANCES/CLEAR_STATE");
         break;
      case pm4::DEALLOC_STATE:
         if (options.isa != IsaClass::Cayman)
            throw Failure{"bad PACKET3_DEALLOC_STATE"};
         need_count(count, 0, "bad INDEX_TYPE/NUM_INSTANCES/CLEAR_STATE");
         break;
      case pm4::SET_PREDICATION: {
         /* Linux evergreen_cs.c: operation 0 (clear) has no address and takes no relocation;
          * 1 (ZPASS) and 2 (PRIMCOUNT) take one, added to the 16-byte aligned address. */
         need_count(count, 1, "bad SET PREDICATION");
         const uint32_t control = ib[body + 1];
         const uint32_t operation = (control >> 16) & 7;
         if (operation == 0)
            break;
         if (operation > 2)
            throw Failure{format_message("bad SET PREDICATION operation %d", operation)};
         const CsReloc &reloc = next_reloc(at);
         const uint64_t offset = reloc.gpu_address + (ib[body] & 0xfffffff0u) + (uint64_t(control & 0xff) << 32);
         ib[body] = uint32_t(offset);
         ib[body + 1] = (control & 0xffffff00u) | (uint32_t(offset >> 32) & 0xff);
         break;
      }
      case pm4::CONTEXT_CONTROL:
         need_count(count, 1, "bad CONTEXT_CONTROL");
         break;
      case pm4::PFP_SYNC_ME:
         need_count(count, 0, "bad PFP_SYNC_ME");
         break;
      case pm4::DISPATCH_DIRECT:
         need_count(count, 3, "bad DISPATCH_DIRECT");
         track_check(body);
         break;
      case pm4::DISPATCH_INDIRECT: {
         need_count(count, 1, "bad DISPATCH_INDIRECT");
         const CsReloc &reloc = next_reloc(at);
         ib[body] = ib[body] + uint32_t(reloc.gpu_address);
         track_check(body);
         break;
      }
      case pm4::SURFACE_SYNC:
         need_count(count, 3, "bad SURFACE_SYNC");
         if (ib[body + 1] != 0xffffffff || ib[body + 2] != 0) {
            const CsReloc &reloc = next_reloc(at);
            ib[body + 2] += uint32_t(reloc.gpu_address >> 8);
         }
         break;
      case pm4::EVENT_WRITE:
         if (count != 0 && count != 2)
            throw Failure{"bad EVENT_WRITE"};
         if (count == 2) {
            const CsReloc &reloc = next_reloc(at);
            const uint64_t offset = reloc.gpu_address + (ib[body + 1] & ~7u) + (uint64_t(ib[body + 2] & 0xff) << 32);
            ib[body + 1] = uint32_t(offset) & ~7u;
            ib[body + 2] = uint32_t(offset >> 32) & 0xff;
         }
         break;
      case pm4::EVENT_WRITE_EOP:
      case pm4::EVENT_WRITE_EOS: {
         need_count(count, opcode == pm4::EVENT_WRITE_EOP ? 4 : 3,
                    opcode == pm4::EVENT_WRITE_EOP ? "bad EVENT_WRITE_EOP" : "bad EVENT_WRITE_EOS");
         const CsReloc &reloc = next_reloc(at);
         const uint64_t offset = reloc.gpu_address + (ib[body + 1] & ~3u) + (uint64_t(ib[body + 2] & 0xff) << 32);
         ib[body + 1] = uint32_t(offset) & ~3u;
         ib[body + 2] = (ib[body + 2] & 0xffffff00) | (uint32_t(offset >> 32) & 0xff);
         break;
      }
      case pm4::MEM_WRITE: {
         need_count(count, 3, "bad MEM_WRITE (invalid count)");
         const CsReloc &reloc = next_reloc(at);
         const uint64_t offset = ib[body] + (uint64_t(ib[body + 1] & 0xff) << 32);
         if (offset & 7)
            throw Failure{"bad MEM_WRITE (address not qwords aligned)"};
         if (offset + 8 > reloc.size)
            throw Failure{format_message("bad MEM_WRITE bo too small: 0x%llx, 0x%llx",
                                 (unsigned long long)(offset + 8), (unsigned long long)reloc.size)};
         const uint64_t address = offset + reloc.gpu_address;
         ib[body] = uint32_t(address);
         ib[body + 1] = (ib[body + 1] & 0xffffff00) | (uint32_t(address >> 32) & 0xff);
         break;
      }
      case pm4::WAIT_REG_MEM:
         need_count(count, 5, "bad WAIT_REG_MEM");
         if (ib[body] & pm4::wait_reg_mem::MEM_SPACE) {
            const CsReloc &reloc = next_reloc(at);
            const uint64_t offset = reloc.gpu_address + (ib[body + 1] & ~3u) + (uint64_t(ib[body + 2] & 0xff) << 32);
            ib[body + 1] = (ib[body + 1] & 3) | (uint32_t(offset) & ~3u);
            ib[body + 2] = uint32_t(offset >> 32) & 0xff;
         } else if (ib[body] & 0x100) {
            throw Failure{"cannot use PFP on REG wait"};
         }
         break;
      case pm4::COND_WRITE: {
         /* Linux evergreen_cs.c: eight body dwords; a memory poll or write takes a relocation
          * and 8 bytes inside its buffer; a register one must be a safe register. */
         need_count(count, 7, "bad COND_WRITE (invalid count)");
         const uint32_t spaces = ib[body];
         auto relocate = [&](size_t low, const char *missing, const char *small) {
            const CsReloc *reloc = nullptr;
            try {
               reloc = &next_reloc(at);
            } catch (Failure &) {
               throw Failure{missing};
            }
            const uint64_t offset = ib[low] + (uint64_t(ib[low + 1] & 0xff) << 32);
            if (offset + 8 > reloc->size)
               throw Failure{format_message(small, (unsigned long long)(offset + 8),
                                            (unsigned long long)reloc->size)};
            const uint64_t address = offset + reloc->gpu_address;
            ib[low] = uint32_t(address);
            ib[low + 1] = uint32_t(address >> 32) & 0xff;
         };
         auto safe = [&](size_t word) {
            const uint32_t reg = ib[word] << 2;
            if (!is_safe_register(reg, options.isa))
               throw Failure{format_message("forbidden register 0x%08x at %d", reg, int(word - body + 1))};
         };
         if (spaces & pm4::cond_write::POLL_MEMORY)
            relocate(body + 1, "bad COND_WRITE (missing src reloc)", "bad COND_WRITE src bo too small: 0x%llx, 0x%llx");
         else
            safe(body + 1);
         if (spaces & pm4::cond_write::WRITE_MEMORY)
            relocate(body + 5, "bad COND_WRITE (missing dst reloc)", "bad COND_WRITE dst bo too small: 0x%llx, 0x%llx");
         else
            safe(body + 5);
         break;
      }
      case pm4::COPY_DW: {
         /* Linux evergreen_cs.c: five body dwords; control bit 0 says the source (dwords 1-2)
          * is memory, bit 1 the destination (dwords 3-4); memory takes a relocation and 4
          * bytes inside its buffer, a register (dword 1 or 3, in dwords) must be safe. */
         need_count(count, 4, "bad COPY_DW (invalid count)");
         auto side = [&](size_t low, bool in_memory, const char *missing, const char *small) {
            if (!in_memory) {
               const uint32_t reg = ib[low] << 2;
               if (!is_safe_register(reg, options.isa))
                  throw Failure{format_message("forbidden register 0x%08x at %d", reg, int(low - body + 1))};
               return;
            }
            const CsReloc *reloc = nullptr;
            try {
               reloc = &next_reloc(at);
            } catch (Failure &) {
               throw Failure{missing};
            }
            const uint64_t offset = ib[low] + (uint64_t(ib[low + 1] & 0xff) << 32);
            if (offset + 4 > reloc->size)
               throw Failure{format_message(small, (unsigned long long)(offset + 4), (unsigned long long)reloc->size)};
            const uint64_t address = offset + reloc->gpu_address;
            ib[low] = uint32_t(address);
            ib[low + 1] = uint32_t(address >> 32) & 0xff;
         };
         side(body + 1, ib[body] & 1, "bad COPY_DW (missing src reloc)", "bad COPY_DW src bo too small: 0x%llx, 0x%llx");
         side(body + 3, ib[body] & 2, "bad COPY_DW (missing dst reloc)", "bad COPY_DW dst bo too small: 0x%llx, 0x%llx");
         break;
      }
      case pm4::CP_DMA:
         need_count(count, 4, "bad CP DMA");
         cp_dma(at, body);
         break;
      /* Drawing: the kernel checks the counts, relocates the index addresses of DRAW_INDEX,
       * DRAW_INDEX_2 and INDEX_BASE, and runs its draw-time checks; it does not compare an
       * index count or VGT_DMA_MAX_SIZE with the index buffer's size (Linux evergreen_cs.c),
       * so reads past the buffer are the command processor's to stop. DRAW_INDEX_OFFSET and
       * DRAW_INDEX_MULTI_AUTO pass here and are refused by the command processor. */
      case pm4::INDEX_TYPE:
      case pm4::NUM_INSTANCES:
         need_count(count, 0, "bad INDEX_TYPE/NUM_INSTANCES/CLEAR_STATE");
         break;
      case pm4::DRAW_INDEX_AUTO:
         need_count(count, 1, "bad DRAW_INDEX_AUTO");
         track_check(body);
         break;
      case pm4::DRAW_INDEX_IMMD:
         if (count < 2)
            throw Failure{"bad DRAW_INDEX_IMMD"};
         track_check(body);
         break;
      case pm4::DRAW_INDEX_OFFSET:
      case pm4::DRAW_INDEX_MULTI_AUTO:
         need_count(count, 2, opcode == pm4::DRAW_INDEX_OFFSET ? "bad DRAW_INDEX_OFFSET" : "bad DRAW_INDEX_MULTI_AUTO");
         track_check(body);
         break;
      case pm4::DRAW_INDEX_OFFSET_2:
         need_count(count, 3, "bad DRAW_INDEX_OFFSET_2");
         track_check(body);
         break;
      case pm4::SET_BASE: {
         /* Linux evergreen_cs.c: only base index 1 (the draw-indirect argument buffer); the
          * relocation replaces the address, and the buffer's size bounds every later
          * DRAW_*INDIRECT. */
         need_count(count, 2, "bad SET_BASE");
         if (ib[body] != 1)
            throw Failure{"bad SET_BASE"};
         const CsReloc *reloc;
         try {
            reloc = &next_reloc(at);
         } catch (Failure &inner) {
            throw Failure{inner.message + "; bad SET_BASE"};
         }
         indirect_draw_buffer_size = reloc->size;
         ib[body + 1] = uint32_t(reloc->gpu_address);
         ib[body + 2] = uint32_t(reloc->gpu_address >> 32) & 0xff;
         break;
      }
      case pm4::INDEX_BASE: {
         need_count(count, 1, "bad INDEX_BASE");
         const CsReloc *reloc;
         try {
            reloc = &next_reloc(at);
         } catch (Failure &inner) {
            throw Failure{inner.message + "; bad INDEX_BASE"};
         }
         const uint64_t offset = reloc->gpu_address + ib[body] + (uint64_t(ib[body + 1] & 0xff) << 32);
         ib[body] = uint32_t(offset);
         ib[body + 1] = uint32_t(offset >> 32) & 0xff;
         track_check(body);
         break;
      }
      case pm4::DRAW_INDIRECT:
      case pm4::DRAW_INDEX_INDIRECT: {
         /* The arguments: 4 dwords for DRAW_INDIRECT, 5 for DRAW_INDEX_INDIRECT, from SET_BASE's
          * buffer at the packet's offset. */
         need_count(count, 1, "bad DRAW_INDIRECT");
         const uint64_t size = opcode == pm4::DRAW_INDIRECT ? 16 : 20;
         if (ib[body] + size > indirect_draw_buffer_size)
            throw Failure{format_message("DRAW_INDIRECT buffer too small %u + %llu > %llu", ib[body], (unsigned long long)size,
                                 (unsigned long long)indirect_draw_buffer_size)};
         track_check(body);
         break;
      }
      case pm4::DRAW_INDEX:
      case pm4::DRAW_INDEX_2: {
         need_count(count, opcode == pm4::DRAW_INDEX ? 3 : 4,
                    opcode == pm4::DRAW_INDEX ? "bad DRAW_INDEX" : "bad DRAW_INDEX_2");
         /* DRAW_INDEX_2's address follows VGT_DMA_MAX_SIZE. A missing relocation: the
          * relocation parser's complaint, then the packet's. */
         const size_t address = opcode == pm4::DRAW_INDEX ? body : body + 1;
         const CsReloc *found;
         try {
            found = &next_reloc(at);
         } catch (Failure &inner) {
            throw Failure{inner.message + (opcode == pm4::DRAW_INDEX ? "; bad DRAW_INDEX" : "; bad DRAW_INDEX_2")};
         }
         const CsReloc &reloc = *found;
         const uint64_t offset = reloc.gpu_address + ib[address] + (uint64_t(ib[address + 1] & 0xff) << 32);
         ib[address] = uint32_t(offset);
         ib[address + 1] = uint32_t(offset >> 32) & 0xff;
         track_check(body);
         break;
      }
      case pm4::STRMOUT_BUFFER_UPDATE:
         need_count(count, 4, "bad STRMOUT_BUFFER_UPDATE (invalid count)");
         strmout_buffer_update(at, body);
         break;
      case pm4::SET_CONFIG_REG:
         set_registers(at, count, pm4::config_window, "bad PACKET3_SET_CONFIG_REG");
         break;
      case pm4::SET_CONTEXT_REG:
         set_registers(at, count, pm4::context_window, "bad PACKET3_SET_CONTEXT_REG");
         break;
      case pm4::SET_ALU_CONST:
         break; /* the kernel does not check these (evergreen_cs.c: "XXX fix me") */
      case pm4::SET_BOOL_CONST:
         window_check(body, count, pm4::bool_const_window, "bad SET_BOOL_CONST");
         break;
      case pm4::SET_LOOP_CONST:
         window_check(body, count, pm4::loop_const_window, "bad SET_LOOP_CONST");
         break;
      case pm4::SET_CTL_CONST:
         window_check(body, count, pm4::ctl_const_window, "bad SET_CTL_CONST");
         break;
      case pm4::SET_SAMPLER:
         if (count % 3)
            throw Failure{"bad SET_SAMPLER"};
         window_check(body, count, pm4::sampler_window, "bad SET_SAMPLER");
         break;
      case pm4::SET_RESOURCE:
         if (count % 8)
            throw Failure{"bad SET_RESOURCE"};
         window_check(body, count, pm4::resource_window, "bad SET_RESOURCE");
         for (uint32_t i = 0; i < count / 8; i++)
            resource(at, body + 1 + i * 8);
         break;
      default:
         throw Failure{format_message("Packet3 opcode %x not supported", opcode)};
      }
   }

   /* STRMOUT_BUFFER_UPDATE: with STORE_BUFFER_FILLED_SIZE a relocated destination (dwords 1-2)
    * with room for 4 bytes; with the offset from memory (source 2) a relocated source (dwords
    * 3-4), the same. */
   void strmout_buffer_update(uint32_t at, size_t body)
   {
      auto relocate = [&](size_t word, const char *direction) {
         const CsReloc *reloc;
         try {
            reloc = &next_reloc(at);
         } catch (Failure &inner) {
            throw Failure{inner.message + "; " + format_message("bad STRMOUT_BUFFER_UPDATE (missing %s reloc)", direction)};
         }
         const uint64_t offset = ib[word] + (uint64_t(ib[word + 1] & 0xff) << 32);
         if (offset + 4 > reloc->size)
            throw Failure{format_message("bad STRMOUT_BUFFER_UPDATE %s bo too small: 0x%llx, 0x%llx", direction,
                                 (unsigned long long)(offset + 4), (unsigned long long)reloc->size)};
         const uint64_t address = offset + reloc->gpu_address;
         ib[word] = uint32_t(address);
         ib[word + 1] = uint32_t(address >> 32) & 0xff;
      };
      const uint32_t control = ib[body];
      if (control & hw::streamout::update_store_filled_size)
         relocate(body + 1, "dst");
      if (hw::streamout::update_offset_source(control) == hw::streamout::from_memory)
         relocate(body + 3, "src");
   }

   void window_check(size_t body, uint32_t count, pm4::RegisterWindow window, const char *message)
   {
      const uint32_t start = (ib[body] << 2) + window.start;
      const uint32_t end = 4 * count + start - 4;
      if (start < window.start || start >= window.end || end >= window.end)
         throw Failure{message};
   }

   void set_registers(uint32_t at, uint32_t count, pm4::RegisterWindow window, const char *message)
   {
      const size_t body = at + 1;
      window_check(body, count, window, message);
      const uint32_t start = (ib[body] << 2) + window.start;
      for (uint32_t i = 0; i < count; i++) {
         const uint32_t reg = start + 4 * i;
         const size_t value = body + 1 + i;
         if (!is_safe_register(reg, options.isa))
            handle_register(at, reg, value);
      }
   }

   void handle_register(uint32_t at, uint32_t reg, size_t value)
   {
      auto relocate_256 = [&](const char *missing) {
         try {
            const CsReloc &reloc = next_reloc(at);
            ib[value] += uint32_t(reloc.gpu_address >> 8);
            return &reloc;
         } catch (Failure &inner) {
            /* The kernel prints the relocation problem, then the caller's complaint. */
            throw Failure{inner.message + "; " + format_message(missing, reg)};
         }
      };
      if (reg == reg::CP_COHER_BASE) {
         relocate_256("missing reloc for CP_COHER_BASE 0x%04X");
         return;
      }
      for (unsigned n = 0; n < 8; n++) {
         const uint32_t base = reg::CB_COLOR0_BASE + n * reg::CB_COLOR_STRIDE;
         if (reg < base || reg >= base + reg::CB_COLOR_STRIDE)
            continue;
         switch (reg - base) {
         case reg::Base:
            cb_offset[n] = ib[value];
            cb_bo[n] = relocate_256("bad SET_CONTEXT_REG 0x%04X");
            return;
         case reg::Pitch: cb_pitch[n] = ib[value]; return;
         case reg::Slice: cb_slice[n] = ib[value]; return;
         case reg::View: cb_view[n] = ib[value]; return;
         case reg::Info:
            if (!options.keep_tiling_flags) {
               /* Without KEEP_TILING_FLAGS the kernel ORs the buffer's array mode in:
                * RADEON_TILING_MACRO (1) -> 2D (4), RADEON_TILING_MICRO (2) -> 1D (2). */
               const CsReloc &reloc = next_reloc(at);
               const uint32_t mode = reloc.tiling_flags & 1 ? 4 : reloc.tiling_flags & 2 ? 2 : 0;
               ib[value] |= mode << 8;
            }
            cb_info[n] = ib[value];
            return;
         case reg::Attrib:
            /* A relocation is always required; it patches nothing for linear buffers (the
             * kernel ORs bank and tile-split fields in for macro-tiled ones, which needs the
             * buffer's tiling flags: KEEP_TILING_FLAGS streams carry them themselves). */
            try {
               const CsReloc &reloc = next_reloc(at);
               if (!options.keep_tiling_flags && (reloc.tiling_flags & 1))
                  throw Failure{"CB_COLOR_ATTRIB: macro-tiled buffers without KEEP_TILING_FLAGS are not simulated"};
            } catch (Failure &inner) {
               throw Failure{inner.message + "; " + format_message("bad SET_CONTEXT_REG 0x%04X", reg)};
            }
            cb_attrib[n] = ib[value];
            return;
         default:
            break;
         }
      }
      if (reg == reg::CB_TARGET_MASK) {
         cb_target_mask = ib[value];
         return;
      }
      if (reg == reg::CB_SHADER_MASK) {
         cb_shader_mask = ib[value];
         return;
      }
      if (reg == reg::DB_DEPTH_CONTROL) {
         db_depth_control = ib[value];
         return;
      }
      if (reg == reg::DB_Z_INFO) {
         if (!options.keep_tiling_flags) {
            /* The kernel replaces ARRAY_MODE with the buffer's tiling (and ORs 2D bank
             * fields in, which the simulator does not take). */
            const CsReloc &reloc = next_reloc(at);
            const uint32_t mode = reloc.tiling_flags & 1 ? 4 : reloc.tiling_flags & 2 ? 2 : 0;
            ib[value] = (ib[value] & ~(0xfu << 4)) | (mode << 4);
            if (reloc.tiling_flags & 1)
               throw Failure{"DB_Z_INFO: macro-tiled depth buffers (RADEON_TILING_MACRO) are not simulated"};
         }
         db_z_info = ib[value];
         return;
      }
      if (reg == reg::DB_STENCIL_INFO) {
         db_s_info = ib[value];
         return;
      }
      switch (reg) {
      case gfx::DB_DEPTH_VIEW: db_depth_view = ib[value]; return;
      case gfx::DB_DEPTH_SIZE: db_depth_size = ib[value]; return;
      case gfx::DB_DEPTH_SLICE: db_depth_slice = ib[value]; return;
      case gfx::DB_Z_READ_BASE:
      case gfx::DB_Z_WRITE_BASE:
      case gfx::DB_STENCIL_READ_BASE:
      case gfx::DB_STENCIL_WRITE_BASE: {
         const unsigned slot = (reg - gfx::DB_Z_READ_BASE) / 4; /* z read, s read, z write, s write */
         db_base_offset[slot] = ib[value];
         db_base_bo[slot] = relocate_256("bad SET_CONTEXT_REG 0x%04X");
         return;
      }
      default:
         break;
      }
      if (reg == reg::SX_MISC) {
         sx_misc_kill_all_prims = ib[value] & 1;
         return;
      }
      if (streamout_register(reg, value, relocate_256))
         return;
      /* Everything else the table decides: program starts, constant caches, rings, CMASK and
       * the other bases take their relocation; the rest the kernel stores for its draw-time
       * checks or passes through. */
      const KernelRegister *row = find_kernel_register(reg, options.isa);
      if (!row)
         throw Failure{format_message("forbidden register 0x%08x at %zu", reg, value)};
      if (row->kind == KernelKind::Relocated)
         relocate_256("bad SET_CONTEXT_REG 0x%04X");
   }

   void resource(uint32_t at, size_t words)
   {
      const uint32_t type = reg::resource_type(ib[words + 7]);
      if (type == 3) { /* VALID_BUFFER */
         const CsReloc &reloc = next_reloc(at);
         const uint64_t offset = ib[words];
         if (uint64_t(ib[words + 1]) + offset > reloc.size) {
            /* The kernel warns ("vbo resource seems too big for the bo") and clips. */
            std::fprintf(stderr, "terakan-sim: vbo resource seems too big for the bo\n");
            ib[words + 1] = uint32_t(reloc.size - offset);
         }
         const uint64_t address = reloc.gpu_address + offset;
         ib[words] = uint32_t(address);
         ib[words + 2] = (ib[words + 2] & 0xffffff00) | (uint32_t(address >> 32) & 0xff);
      } else if (type == texture_resource_type_valid_texture) {
         texture_resource(at, words);
      } else {
         throw Failure{"bad SET_RESOURCE"};
      }
   }

   /* A texture resource: two relocations (base, then mip) and evergreen_cs_track_validate_texture. */
   void texture_resource(uint32_t at, size_t words)
   {
      const CsReloc *base_reloc;
      try {
         base_reloc = &next_reloc(at);
      } catch (Failure &inner) {
         throw Failure{inner.message + "; bad SET_RESOURCE (tex)"};
      }
      if (!options.keep_tiling_flags) {
         /* The buffer's tiling flags are ORed into ARRAY_MODE (MACRO -> 2D, MICRO -> 1D). */
         const uint32_t mode = base_reloc->tiling_flags & 1 ? 4 : base_reloc->tiling_flags & 2 ? 2 : 0;
         ib[words + 1] |= mode << 28;
         if (base_reloc->tiling_flags & 1)
            throw Failure{"SET_RESOURCE (tex): macro-tiled buffers (RADEON_TILING_MACRO) are not simulated"};
      }
      const uint32_t dim = ib[words] & 7;
      const CsReloc *mip_reloc = nullptr;
      const bool msaa = dim == unsigned(TextureDim::Dim2DMsaa) || dim == unsigned(TextureDim::Dim2DArrayMsaa);
      if (msaa && ib[words + 3] == 0 && !next_is_nop()) {
         mip_reloc = nullptr; /* MSAA without FMASK: no mip relocation */
      } else {
         try {
            mip_reloc = &next_reloc(at);
         } catch (Failure &inner) {
            throw Failure{inner.message + "; bad SET_RESOURCE (tex)"};
         }
      }
      validate_texture(words, *base_reloc, mip_reloc);
      ib[words + 2] += uint32_t(base_reloc->gpu_address >> 8);
      if (mip_reloc)
         ib[words + 3] += uint32_t(mip_reloc->gpu_address >> 8);
   }

   bool next_is_nop() const
   {
      return idx < ib.size() && pm4::type_of(ib[idx]) == 3 && pm4::opcode_of(ib[idx]) == pm4::NOP;
   }

   /* The kernel's evergreen_cs_track_validate_texture, on the words before relocation. */
   void validate_texture(size_t words, const CsReloc &texture, const CsReloc *mipmap)
   {
      std::array<uint32_t, 8> w;
      for (unsigned i = 0; i < 8; i++)
         w[i] = ib[words + i];
      const TextureResource r = decode_texture_resource(w);
      unsigned llevel = r.last_level;
      const unsigned mslice = r.last_array + 1;
      unsigned depth = r.depth;
      unsigned nsamples = 1;
      const unsigned bpe = format_bytes_per_element(r.format);
      const unsigned block = format_block_dimension(r.format);
      if (!format_is_valid_texture(r.format, Family::Cayman))
         throw Failure{format_message("evergreen_cs_track_validate_texture: texture invalid format %u", unsigned(r.format))};
      switch (r.dim) {
      case TextureDim::Dim1D: case TextureDim::Dim2D: case TextureDim::Cube:
      case TextureDim::Dim1DArray: case TextureDim::Dim2DArray:
         depth = 1;
         break;
      case TextureDim::Dim2DMsaa: case TextureDim::Dim2DArrayMsaa:
         nsamples = 1u << llevel;
         llevel = 0;
         depth = 1;
         break;
      case TextureDim::Dim3D:
         break;
      }
      ArrayMode mode = r.array_mode;
      /* evergreen_surface_value_conv_check: only 2D surfaces have their tiling codes decoded;
       * TILE_SPLIT 7 has no value. NUM_BANKS comes from the words, pipes and group size from
       * the kernel's own tiling configuration. */
      MacroTiling macro;
      if (mode == ArrayMode::Tiled2DThin1) {
         if (r.tile_split > 6)
            throw Failure{format_message("evergreen_surface_value_conv_check: texture invalid tile split %u", r.tile_split)};
         macro = macro_tiling_from_resource(r);
      }
      /* evergreen_surface_check for one level in `m`: pitch/height alignment and base alignment. */
      auto alignment_of = [&](ArrayMode m) {
         if (m == ArrayMode::Tiled2DThin1)
            return surface_alignment_2d(options.tiling, macro, bpe * nsamples); /* tileb = 64 x bpe x nsamples */
         SurfaceAlignment a;
         std::string error;
         if (!surface_alignment(m, bpe * nsamples, a, error)) /* 1D: pitch alignment over bpe x nsamples */
            throw Failure{format_message("evergreen_surface_value_conv_check: texture invalid array mode %u", unsigned(m))};
         return a;
      };
      SurfaceAlignment align = alignment_of(mode);

      const uint64_t nbx = ((uint64_t(r.pitch)) + block - 1) / block; /* (PITCH + 1) * 8 texels, in blocks */
      uint64_t nby = (uint64_t(r.height) + block - 1) / block;
      nby = (nby + align.height - 1) / align.height * align.height;
      /* The kernel tests these with a mask: a 2D pitch alignment is a power of two. */
      if (nbx % align.pitch)
         throw Failure{format_message("evergreen_surface_check: texture pitch %llu invalid must be aligned with %u "
                              "(texture invalid 0x%08x 0x%08x 0x%08x 0x%08x 0x%08x 0x%08x)",
                              (unsigned long long)nbx, align.pitch, w[0], w[1], w[4], w[5], w[6], w[7])};
      uint64_t layer_size = nbx * nby * bpe * nsamples;
      uint64_t toffset = uint64_t(w[2]) << 8, moffset = uint64_t(w[3]) << 8;
      if (toffset % align.base)
         throw Failure{format_message("evergreen_cs_track_validate_texture: texture bo base %llu not aligned with %llu",
                              (unsigned long long)toffset, (unsigned long long)align.base)};
      /* The mip base of a multisampled texture is its FMASK: the kernel checks no alignment. */
      if (nsamples <= 1 && moffset % align.base)
         throw Failure{format_message("evergreen_cs_track_validate_texture: mipmap bo base %llu not aligned with %llu",
                              (unsigned long long)moffset, (unsigned long long)align.base)};
      toffset += layer_size * (r.dim == TextureDim::Dim3D ? depth : mslice);
      if (toffset > texture.size)
         throw Failure{format_message("evergreen_cs_track_validate_texture: texture bo too small (layer size %llu, "
                              "offset %llu, max layer %u, depth %u, bo size %llu) (%llu %llu)",
                              (unsigned long long)layer_size, (unsigned long long)(uint64_t(w[2]) << 8), mslice,
                              depth, (unsigned long long)texture.size, (unsigned long long)nbx,
                              (unsigned long long)nby)};
      if (!mipmap) {
         if (llevel)
            throw Failure{"evergreen_cs_track_validate_texture: got NULL MIP_ADDRESS relocation"};
         return;
      }
      for (unsigned i = 1; i <= llevel; i++) {
         /* r600_mip_minify: levels after the first round up to a power of two. */
         auto minify = [i](unsigned size) {
            uint64_t value = std::max(1u, size >> i), pow2 = 1;
            while (pow2 < value)
               pow2 <<= 1;
            return pow2;
         };
         const uint64_t wl = minify(r.width), hl = minify(r.height), dl = minify(depth);
         uint64_t bx = (wl + block - 1) / block, by = (hl + block - 1) / block;
         /* A 2D level narrower or shorter than one macro tile, and every level after it, is
          * checked as 1D tiled (the previous level's alignment is the macro tile). */
         if (mode == ArrayMode::Tiled2DThin1 && (bx < align.pitch || by < align.height)) {
            mode = ArrayMode::Tiled1DThin1;
            align = alignment_of(mode);
         }
         bx = (bx + align.pitch - 1) / align.pitch * align.pitch;
         by = (by + align.height - 1) / align.height * align.height;
         layer_size = bx * by * bpe * nsamples;
         moffset += layer_size * (r.dim == TextureDim::Dim3D ? dl : mslice);
         if (moffset > mipmap->size)
            throw Failure{format_message("evergreen_cs_track_validate_texture: mipmap [%u] bo too small (layer size "
                                 "%llu, offset %llu, coffset %llu, max layer %u, depth %llu, bo size %llu) "
                                 "level0 (%u %u %u)",
                                 i, (unsigned long long)layer_size, (unsigned long long)(uint64_t(w[3]) << 8),
                                 (unsigned long long)moffset, mslice, (unsigned long long)dl,
                                 (unsigned long long)mipmap->size, r.width, r.height, depth)};
      }
   }

   void cp_dma(uint32_t at, size_t body)
   {
      const uint32_t info = ib[body + 1], command = ib[body + 4];
      const uint32_t src_sel = pm4::cp_dma::src_sel_of(info), dst_sel = pm4::cp_dma::dst_sel_of(info);
      const uint32_t size = pm4::cp_dma::byte_count_of(command);
      const bool sas = command & pm4::cp_dma::SAS, das = command & pm4::cp_dma::DAS,
                 saic = command & pm4::cp_dma::SAIC, daic = command & pm4::cp_dma::DAIC;
      if ((src_sel != 0 || dst_sel != 0 || (das && dst_sel == 0) || (sas && src_sel == 0)) && size % 4)
         throw Failure{"CP DMA command requires dw count alignment"};
      if (sas || das || saic || daic)
         throw Failure{"CP DMA to or from registers is not simulated"};
      if (src_sel == 0) {
         const CsReloc &reloc = next_reloc(at);
         const uint64_t offset = ib[body] + (uint64_t(ib[body + 1] & 0xff) << 32);
         if (offset + size > reloc.size)
            throw Failure{format_message("CP DMA src buffer too small (%llu %llu)",
                                 (unsigned long long)(offset + size), (unsigned long long)reloc.size)};
         const uint64_t address = offset + reloc.gpu_address;
         ib[body] = uint32_t(address);
         ib[body + 1] = (ib[body + 1] & 0xffffff00) | (uint32_t(address >> 32) & 0xff);
      } else if (src_sel != 2) {
         throw Failure{"bad CP DMA SRC_SEL"};
      }
      if (dst_sel == 0) {
         const CsReloc &reloc = next_reloc(at);
         const uint64_t offset = ib[body + 2] + (uint64_t(ib[body + 3] & 0xff) << 32);
         if (offset + size > reloc.size)
            throw Failure{format_message("CP DMA dst buffer too small (%llu %llu)",
                                 (unsigned long long)(offset + size), (unsigned long long)reloc.size)};
         const uint64_t address = offset + reloc.gpu_address;
         ib[body + 2] = uint32_t(address);
         ib[body + 3] = (ib[body + 3] & 0xffffff00) | (uint32_t(address >> 32) & 0xff);
      } else {
         throw Failure{"bad CP DMA DST_SEL"};
      }
   }

   /* A surface as the kernel's evergreen_surface_value_conv_check and evergreen_surface_check
    * see it: the tiling codes as the registers hold them, then the alignment each array mode
    * demands, the layer size and the base alignment. */
   struct KernelSurface {
      unsigned mode = 0, bpe = 1;
      uint64_t nbx = 0, nby = 0;
      gfx::TilingCodes codes{};
      uint64_t layer_size = 0, base_align = 1;
   };

   std::string surface_check(KernelSurface &s, const char *prefix) const
   {
      const uint64_t group = options.tiling.group_bytes;
      switch (s.mode) {
      case 0: /* linear general */
         s.layer_size = s.nbx * s.nby * s.bpe;
         s.base_align = s.bpe;
         return {};
      case 1: { /* linear aligned */
         const uint64_t pitch_align = std::max<uint64_t>(64, group / s.bpe);
         s.layer_size = s.nbx * s.nby * s.bpe;
         s.base_align = group;
         if (s.nbx % pitch_align)
            return format_message("evergreen_surface_check_linear_aligned: %s pitch %llu invalid must be aligned with %llu",
                          prefix, (unsigned long long)s.nbx, (unsigned long long)pitch_align);
         return {};
      }
      case 2: { /* 1D tiled thin */
         const uint64_t pitch_align = std::max<uint64_t>(8, group / (8 * s.bpe));
         s.layer_size = s.nbx * s.nby * s.bpe;
         s.base_align = group;
         if (s.nbx % pitch_align)
            return format_message("evergreen_surface_check_1d: %s pitch %llu invalid must be aligned with %llu", prefix,
                          (unsigned long long)s.nbx, (unsigned long long)pitch_align);
         if (s.nby % 8)
            return format_message("evergreen_surface_check_1d: %s height %llu invalid must be aligned with 8", prefix,
                          (unsigned long long)s.nby);
         return {};
      }
      case 4: { /* 2D tiled thin */
         if (s.codes.tile_split > 6)
            return format_message("evergreen_surface_value_conv_check: %s invalid tile split %u", prefix,
                                  s.codes.tile_split);
         const MacroTiling macro = macro_tiling_from_codes(s.codes.tile_split, s.codes.banks, s.codes.bank_width,
                                                           s.codes.bank_height, s.codes.macro_tile_aspect);
         const uint64_t banks = macro.banks, bank_width = macro.bank_width;
         const uint64_t bank_height = macro.bank_height, aspect = macro.macro_tile_aspect;
         const uint64_t tile_split = macro.tile_split_bytes;
         uint64_t tile_bytes = 64 * s.bpe;
         const uint64_t slices_per_tile = tile_bytes > tile_split ? tile_bytes / tile_split : 1;
         tile_bytes /= slices_per_tile;
         const uint64_t pitch_align = 8 * bank_width * options.tiling.pipes * aspect;
         const uint64_t height_align = 8 * bank_height * banks / aspect;
         const uint64_t macro_tile_bytes = (pitch_align / 8) * (height_align / 8) * tile_bytes;
         const uint64_t macro_tiles_per_slice = (s.nbx / pitch_align) * s.nby / height_align;
         s.layer_size = macro_tiles_per_slice * macro_tile_bytes * slices_per_tile;
         s.base_align = macro_tile_bytes;
         if (s.nbx % pitch_align)
            return format_message("evergreen_surface_check_2d: %s pitch %llu invalid must be aligned with %llu", prefix,
                          (unsigned long long)s.nbx, (unsigned long long)pitch_align);
         if (s.nby % height_align)
            return format_message("evergreen_surface_check_2d: %s height %llu invalid must be aligned with %llu", prefix,
                          (unsigned long long)s.nby, (unsigned long long)height_align);
         return {};
      }
      default:
         return format_message("evergreen_surface_value_conv_check: %s invalid array mode %u", prefix, s.mode);
      }
   }

   /* The streamout registers the kernel tracks: the two configs, each buffer's size (dwords,
    * kept in bytes) and base (relocated, its offset kept in bytes). */
   template <typename Relocate>
   bool streamout_register(uint32_t reg, size_t value, Relocate &relocate_256)
   {
      using namespace hw::streamout;
      if (reg == VGT_STRMOUT_CONFIG) {
         strmout_config = ib[value];
         return true;
      }
      if (reg == VGT_STRMOUT_BUFFER_CONFIG) {
         strmout_buffer_config = ib[value];
         return true;
      }
      if (reg < VGT_STRMOUT_BUFFER_SIZE_0 || reg >= VGT_STRMOUT_BUFFER_SIZE_0 + buffer_count * buffer_register_stride)
         return false;
      const unsigned n = (reg - VGT_STRMOUT_BUFFER_SIZE_0) / buffer_register_stride;
      const uint32_t field = reg - n * buffer_register_stride;
      if (field == VGT_STRMOUT_BUFFER_SIZE_0) {
         strmout_size[n] = uint64_t(ib[value]) * 4;
         return true;
      }
      if (field == VGT_STRMOUT_BUFFER_BASE_0) {
         strmout_offset[n] = uint64_t(ib[value]) << 8;
         strmout_bo[n] = relocate_256("bad SET_CONTEXT_REG 0x%04X");
         return true;
      }
      return false;
   }

   /* evergreen_cs_track_check's streamout part, before everything else (and before the
    * SX_MISC kill-all-primitives shortcut): every buffer an enabled stream writes must exist
    * and hold its base offset plus its size. */
   void check_streamout()
   {
      if (!strmout_config)
         return;
      uint32_t buffers = 0;
      for (unsigned stream = 0; stream < 4; stream++)
         if ((strmout_config >> stream) & 1)
            buffers |= (strmout_buffer_config >> (4 * stream)) & 0xf;
      for (unsigned n = 0; n < 4; n++) {
         if (!((buffers >> n) & 1))
            continue;
         if (!strmout_bo[n])
            throw Failure{format_message("No buffer for streamout %d", n)};
         const uint64_t end = strmout_offset[n] + strmout_size[n];
         if (end > strmout_bo[n]->size)
            throw Failure{format_message("streamout %d bo too small: 0x%llx, 0x%llx", n, (unsigned long long)end,
                                 (unsigned long long)strmout_bo[n]->size)};
      }
   }

   void track_check(size_t body)
   {
      check_streamout();
      if (sx_misc_kill_all_prims)
         return;
      for (unsigned n = 0; n < 8; n++) {
         const uint32_t format_value = reg::cb_color_info_format(cb_info[n]);
         if (!format_value || !((cb_target_mask >> (4 * n)) & 0xf))
            continue;
         if (!cb_bo[n])
            throw Failure{format_message("evergreen_cs_track_check: mask 0x%08X | 0x%08X no cb for %d",
                                 cb_target_mask, cb_shader_mask, n)};
         /* COLOR_* and FMT_* share their numbers (the kernel's one format table). */
         const uint32_t bytes = format_bytes_per_element(TextureFormat(format_value));
         if (!bytes)
            throw Failure{format_message("evergreen_cs_track_validate_cb: cb invalid format %d for %d (0x%08x)",
                                 format_value, n, cb_info[n])};
         KernelSurface surface;
         surface.mode = (cb_info[n] >> 8) & 0xf;
         surface.bpe = bytes;
         surface.nbx = (uint64_t(cb_pitch[n] & 0x7ff) + 1) * 8;
         surface.nby = ((uint64_t(cb_slice[n] & 0x3fffff) + 1) * 64) / surface.nbx;
         /* CB_COLORn_ATTRIB: TILE_SPLIT [8:5], NUM_BANKS [11:10], BANK_WIDTH [14:13],
          * BANK_HEIGHT [17:16], MACRO_TILE_ASPECT [20:19]. */
         surface.codes = gfx::cb_attrib_tiling(cb_attrib[n]);
         const std::string problem = surface_check(surface, "cb");
         if (!problem.empty())
            throw Failure{problem + format_message(" (evergreen_cs_track_validate_cb: cb[%d] invalid 0x%08x 0x%08x 0x%08x "
                                           "0x%08x)",
                                           n, cb_pitch[n], cb_slice[n], cb_attrib[n], cb_info[n])};
         const uint64_t offset = uint64_t(cb_offset[n]) << 8;
         if (offset % surface.base_align)
            throw Failure{format_message("evergreen_cs_track_validate_cb: cb[%d] bo base %llu not aligned with %llu", n,
                                 (unsigned long long)offset, (unsigned long long)surface.base_align)};
         const uint64_t mslice = ((cb_view[n] >> 13) & 0x7ff) + 1;
         const uint64_t layer = surface.layer_size;
         if (offset + layer * mslice > cb_bo[n]->size)
            throw Failure{format_message("evergreen_cs_track_validate_cb: cb[%d] bo too small (layer size "
                                 "%llu, offset %llu, max layer %llu, bo size %llu)",
                                 n, (unsigned long long)layer, (unsigned long long)offset,
                                 (unsigned long long)mslice, (unsigned long long)cb_bo[n]->size)};
      }
      if (gfx::db_stencil_info_valid(db_s_info) && gfx::db_stencil_enable(db_depth_control))
         validate_depth_stencil(true);
      if (gfx::db_z_info_format(db_z_info) && gfx::db_z_enable(db_depth_control))
         validate_depth_stencil(false);
      (void)body;
   }

   /* The kernel's evergreen_cs_track_validate_depth and _stencil. Both surfaces share the
    * depth buffer's pitch, slice and view; the stencil is checked as an 8-bit surface, and
    * (for old userspace) again as a 32-bit one before it is refused. */
   void validate_depth_stencil(bool stencil)
   {
      const char *what = stencil ? "stencil" : "depth";
      const char *function = stencil ? "evergreen_cs_track_validate_stencil" : "evergreen_cs_track_validate_depth";
      const uint64_t mslice = uint64_t(gfx::db_depth_view_slice_max(db_depth_view)) + 1;
      const uint64_t nbx = (uint64_t(gfx::db_depth_size_pitch_tile_max(db_depth_size)) + 1) * 8;
      /* The kernel takes the whole DB_DEPTH_SLICE value here, reserved bits included. */
      const uint64_t nby = ((uint64_t(db_depth_slice) + 1) * 64) / nbx;
      const uint32_t z_format = gfx::db_z_info_format(db_z_info);
      if (stencil ? (db_s_info & 1) != 1 : z_format == 0)
         throw Failure{format_message("%s: %s invalid format %u", function, what, stencil ? db_s_info & 1 : z_format)};
      /* DB_Z_INFO: TILE_SPLIT [10:8], NUM_BANKS [13:12], BANK_WIDTH [17:16], BANK_HEIGHT
       * [21:20], MACRO_TILE_ASPECT [25:24]; the stencil's own TILE_SPLIT is DB_STENCIL_INFO
       * [10:8]. */
      KernelSurface surface;
      surface.mode = gfx::db_z_info_array_mode(db_z_info);
      surface.nbx = nbx, surface.nby = nby;
      surface.codes = gfx::db_info_tiling(db_z_info, stencil ? db_s_info : db_z_info);
      surface.bpe = stencil ? 1 : z_format == 1 ? 2 : 4;
      std::string problem = surface_check(surface, what);
      if (!problem.empty() && stencil) {
         surface.bpe = 4;
         problem = surface_check(surface, what);
      }
      if (!problem.empty())
         throw Failure{problem + format_message(" (%s invalid 0x%08x 0x%08x 0x%08x 0x%08x)", what, db_depth_size,
                                        db_depth_slice, db_s_info, db_z_info)};
      const uint64_t layer_size = surface.layer_size;
      for (bool write : {false, true}) {
         const unsigned slot = (write ? 2 : 0) + (stencil ? 1 : 0);
         const char *direction = write ? "write" : "read";
         if (!db_base_bo[slot])
            throw Failure{format_message("%s: no %s %s buffer (DB_%s_%s_BASE was never written)", function, what,
                                 direction, stencil ? "STENCIL" : "Z", write ? "WRITE" : "READ")};
         const uint64_t offset = uint64_t(db_base_offset[slot]) << 8;
         /* The kernel names the stencil in the depth function's alignment message too. */
         if (offset % surface.base_align)
            throw Failure{format_message("%s: stencil %s bo base %llu not aligned with %llu", function, direction,
                                 (unsigned long long)offset, (unsigned long long)surface.base_align)};
         if (offset + layer_size * mslice > db_base_bo[slot]->size)
            throw Failure{format_message("%s: %s %s bo too small (layer size %llu, offset %llu, max layer %llu, bo size "
                                 "%llu)",
                                 function, what, direction, (unsigned long long)layer_size,
                                 (unsigned long long)offset, (unsigned long long)mslice,
                                 (unsigned long long)db_base_bo[slot]->size)};
      }
      /* The kernel checks the HTILE buffer last (evergreen_cs_track_validate_htile). */
      if (gfx::db_z_info_tile_surface_enable(db_z_info))
         throw Failure{format_message("%s: HTILE (DB_Z_INFO.TILE_SURFACE_ENABLE) is not simulated yet", function)};
   }
};

} // namespace

std::string check_and_patch(std::span<uint32_t> ib, std::span<const CsReloc> relocs,
                            const CsCheckOptions &options)
{
   try {
      Checker(ib, relocs, options).run();
   } catch (const Failure &failure) {
      return failure.message;
   }
   return {};
}

} // namespace terakan::sim
