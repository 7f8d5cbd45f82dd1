#include "dma_checker.h"
#include "check_failure.h"

#include <cstdarg>
#include <cstdio>

#include "hw/dma_packets.h"

namespace terakan::sim {

namespace {

namespace dma = hw::dma;

using check::Failure;

using u64 = unsigned long long;

class DmaChecker {
public:
   DmaChecker(std::span<uint32_t> ib, std::span<const CsReloc> relocs, hw::IsaClass isa)
      : ib(ib), relocs(relocs), cayman(isa == hw::IsaClass::Cayman)
   {
   }

   void run()
   {
      /* The kernel's loop is a do-while: an empty IB is refused by the first test. */
      do {
         if (idx >= ib.size())
            throw Failure{format_message("Can not parse packet at %zu after CS end %zu !", idx, ib.size())};
         packet();
      } while (idx < ib.size());
   }

private:
   std::span<uint32_t> ib;
   std::span<const CsReloc> relocs;
   bool cayman;
   size_t idx = 0;         /* start of the packet being checked */
   size_t next_reloc_index = 0; /* p->dma_reloc_idx */

   /* r600_dma_cs_next_reloc: the relocation list is consumed in order, one entry per address. */
   const CsReloc &next_reloc(const char *packet_message)
   {
      if (relocs.empty())
         throw Failure{format_message("No relocation chunk ! (%s)", packet_message)};
      if (next_reloc_index >= relocs.size())
         throw Failure{format_message("Relocs at %zu after relocations chunk end %zu ! (%s)", next_reloc_index,
                              relocs.size(), packet_message)};
      return relocs[next_reloc_index++];
   }

   /* Simulator rule: the whole packet must lie inside the IB. */
   void need_dwords(size_t dwords)
   {
      if (idx + dwords > ib.size())
         throw Failure{format_message("DMA packet at %zu (0x%08x) needs %zu dwords but the CS ends at %zu (the kernel "
                              "would read stale dwords past the IB; refused by the simulator)",
                              idx, ib[idx], dwords, ib.size())};
   }

   uint64_t linear_address(size_t low, size_t high) const { return ib[low] | uint64_t(ib[high] & 0xff) << 32; }

   void patch_linear(size_t low, size_t high, const CsReloc &reloc, uint32_t low_mask = 0xfffffffc)
   {
      ib[low] += uint32_t(reloc.gpu_address) & low_mask;
      ib[high] += uint32_t(reloc.gpu_address >> 32) & 0xff;
   }

   void need_fits(uint64_t end, const CsReloc &reloc, const char *what)
   {
      if (end > reloc.size)
         throw Failure{format_message("%s (%llu %llu)", what, u64(end), u64(reloc.size))};
   }

   void packet()
   {
      const uint32_t header = ib[idx];
      const uint32_t command = dma::command_of(header), sub = dma::sub_command_of(header);
      const uint32_t count = dma::count_of(header);
      switch (command) {
      case dma::WRITE:
         write(header, sub, count);
         break;
      case dma::COPY:
         copy(header, sub, count);
         break;
      case dma::CONSTANT_FILL: {
         const CsReloc &dst = next_reloc("bad DMA_PACKET_CONSTANT_FILL");
         need_dwords(4);
         /* The high address bits sit in [23:16] of the fourth dword. */
         const uint64_t offset = ib[idx + 1] | uint64_t(ib[idx + 3] & 0x00ff0000) << 16;
         if (offset + uint64_t(count) * 4 > dst.size)
            throw Failure{format_message("DMA constant fill buffer too small (%llu %llu)", u64(offset), u64(dst.size))};
         ib[idx + 1] += uint32_t(dst.gpu_address) & 0xfffffffc;
         ib[idx + 3] += uint32_t(dst.gpu_address >> 32) << 16 & 0x00ff0000;
         idx += 4;
         break;
      }
      case dma::NOP:
         /* The kernel steps one dword whatever the count says. */
         if (header != dma::nop)
            throw Failure{format_message("DMA NOP at %zu is 0x%08x: a NOP with a count or sub-command is passed by the "
                                 "kernel as one dword, but what the engine does with it is not documented to us "
                                 "(refused by the simulator)", idx, header)};
         idx += 1;
         break;
      default:
         throw Failure{format_message("Unknown packet type %u at %zu !", command, idx)};
      }
   }

   void write(uint32_t header, uint32_t sub, uint32_t count)
   {
      const CsReloc &dst = next_reloc("bad DMA_PACKET_WRITE");
      uint64_t offset = 0;
      if (sub == dma::write_tiled) {
         need_dwords(size_t(count) + 7);
         offset = uint64_t(ib[idx + 1]) << 8;
         ib[idx + 1] += uint32_t(dst.gpu_address >> 8);
         idx += size_t(count) + 7;
      } else if (sub == dma::write_linear) {
         need_dwords(size_t(count) + 3);
         offset = linear_address(idx + 1, idx + 2);
         patch_linear(idx + 1, idx + 2, dst);
         idx += size_t(count) + 3;
      } else {
         throw Failure{format_message("bad DMA_PACKET_WRITE [%6zu] 0x%08x sub cmd is not 0 or 8", idx, header)};
      }
      if (offset + uint64_t(count) * 4 > dst.size)
         throw Failure{format_message("DMA write buffer too small (%llu %llu)", u64(offset), u64(dst.size))};
   }

   /* The tiled side's offset is its base >> 8 in dw1; the linear side's is dw7 + dw8. The kernel
    * only checks that count dwords fit after each offset. */
   void tiled_copy(const CsReloc &src, const CsReloc &dst, uint32_t count, const char *src_message,
                   const char *dst_message)
   {
      need_dwords(9);
      uint64_t src_offset, dst_offset;
      if (dma::tiled::detile(ib[idx + 2])) {
         src_offset = uint64_t(ib[idx + 1]) << 8;
         ib[idx + 1] += uint32_t(src.gpu_address >> 8);
         dst_offset = linear_address(idx + 7, idx + 8);
         patch_linear(idx + 7, idx + 8, dst);
      } else {
         src_offset = linear_address(idx + 7, idx + 8);
         patch_linear(idx + 7, idx + 8, src);
         dst_offset = uint64_t(ib[idx + 1]) << 8;
         ib[idx + 1] += uint32_t(dst.gpu_address >> 8);
      }
      need_fits(src_offset + uint64_t(count) * 4, src, src_message);
      need_fits(dst_offset + uint64_t(count) * 4, dst, dst_message);
      idx += 9;
   }

   /* The L2T broadcast and frame-to-field copies: one linear source, two tiled destinations. */
   void tiled_broadcast(const CsReloc &src, const CsReloc &dst, uint32_t count, const char *bad,
                        const char *src_message, const char *dst_message, const char *dst2_message)
   {
      need_dwords(10);
      if (dma::tiled::detile(ib[idx + 2]))
         throw Failure{bad};
      const CsReloc &dst2 = next_reloc(bad);
      const uint64_t dst_offset = uint64_t(ib[idx + 1]) << 8, dst2_offset = uint64_t(ib[idx + 2]) << 8;
      const uint64_t src_offset = linear_address(idx + 8, idx + 9);
      need_fits(src_offset + uint64_t(count) * 4, src, src_message);
      need_fits(dst_offset + uint64_t(count) * 4, dst, dst_message);
      need_fits(dst2_offset + uint64_t(count) * 4, dst2, dst2_message);
      ib[idx + 1] += uint32_t(dst.gpu_address >> 8);
      ib[idx + 2] += uint32_t(dst2.gpu_address >> 8);
      patch_linear(idx + 8, idx + 9, src);
      idx += 10;
   }

   void need_cayman(const char *message)
   {
      if (!cayman)
         throw Failure{message};
   }

   void copy(uint32_t header, uint32_t sub, uint32_t count)
   {
      const CsReloc &src = next_reloc("bad DMA_PACKET_COPY");
      const CsReloc &dst = next_reloc("bad DMA_PACKET_COPY");
      switch (sub) {
      case dma::COPY_LINEAR_DWORDS:
      case dma::COPY_LINEAR_BYTES: {
         need_dwords(5);
         const bool bytes = sub == dma::COPY_LINEAR_BYTES;
         const uint64_t size = bytes ? count : uint64_t(count) * 4;
         const uint64_t src_offset = linear_address(idx + 2, idx + 4), dst_offset = linear_address(idx + 1, idx + 3);
         need_fits(src_offset + size, src, bytes ? "DMA L2L, byte src buffer too small" : "DMA L2L, dw src buffer too small");
         need_fits(dst_offset + size, dst, bytes ? "DMA L2L, byte dst buffer too small" : "DMA L2L, dw dst buffer too small");
         /* The byte copy keeps the low address bits of the buffers' addresses. */
         const uint32_t mask = bytes ? 0xffffffff : 0xfffffffc;
         ib[idx + 1] += uint32_t(dst.gpu_address) & mask;
         ib[idx + 2] += uint32_t(src.gpu_address) & mask;
         ib[idx + 3] += uint32_t(dst.gpu_address >> 32) & 0xff;
         ib[idx + 4] += uint32_t(src.gpu_address >> 32) & 0xff;
         idx += 5;
         return;
      }
      case dma::COPY_TILED:
         tiled_copy(src, dst, count, "DMA L2T, src buffer too small", "DMA L2T, dst buffer too small");
         return;
      case dma::COPY_TILED_TILE_UNITS:
         tiled_copy(src, dst, count, "DMA L2T, T2L src buffer too small", "DMA L2T, T2L dst buffer too small");
         return;
      case dma::COPY_LINEAR_PARTIAL:
         need_cayman("L2L Partial is cayman only !");
         need_dwords(9);
         patch_linear(idx + 1, idx + 2, src, 0xffffffff);
         patch_linear(idx + 4, idx + 5, dst, 0xffffffff);
         idx += 9;
         return;
      case dma::COPY_LINEAR_BROADCAST: {
         const CsReloc &dst2 = next_reloc("bad L2L, dw, broadcast DMA_PACKET_COPY");
         need_dwords(7);
         const uint64_t dst_offset = linear_address(idx + 1, idx + 4), dst2_offset = linear_address(idx + 2, idx + 5);
         const uint64_t src_offset = linear_address(idx + 3, idx + 6);
         need_fits(src_offset + uint64_t(count) * 4, src, "DMA L2L, dw, broadcast src buffer too small");
         need_fits(dst_offset + uint64_t(count) * 4, dst, "DMA L2L, dw, broadcast dst buffer too small");
         need_fits(dst2_offset + uint64_t(count) * 4, dst2, "DMA L2L, dw, broadcast dst2 buffer too small");
         patch_linear(idx + 1, idx + 4, dst);
         patch_linear(idx + 2, idx + 5, dst2);
         patch_linear(idx + 3, idx + 6, src);
         idx += 7;
         return;
      }
      case dma::COPY_TILED_FRAME_TO_FIELD:
         tiled_broadcast(src, dst, count, "bad L2T, frame to fields DMA_PACKET_COPY",
                         "DMA L2T, frame to fields src buffer too small", "DMA L2T, frame to fields buffer too small",
                         "DMA L2T, frame to fields buffer too small");
         return;
      case dma::COPY_TILED_BROADCAST:
      case dma::COPY_TILED_BROADCAST_TILE_UNITS:
         tiled_broadcast(src, dst, count, "bad L2T, broadcast DMA_PACKET_COPY", "DMA L2T, broadcast src buffer too small",
                         "DMA L2T, broadcast dst buffer too small", "DMA L2T, broadcast dst2 buffer too small");
         return;
      case dma::COPY_TILED_PARTIAL:
         need_cayman("L2T, T2L Partial is cayman only !");
         need_dwords(12);
         if (dma::tiled::detile(ib[idx + 2])) {
            ib[idx + 1] += uint32_t(src.gpu_address >> 8);
            patch_linear(idx + 7, idx + 8, dst);
         } else {
            patch_linear(idx + 7, idx + 8, src);
            ib[idx + 1] += uint32_t(dst.gpu_address >> 8);
         }
         idx += 12;
         return;
      case dma::COPY_TILED_TO_TILED_PARTIAL:
         /* The kernel prints the L2T/T2L message for this one too. */
         need_cayman("L2T, T2L Partial is cayman only !");
         need_dwords(13);
         ib[idx + 1] += uint32_t(src.gpu_address >> 8);
         ib[idx + 4] += uint32_t(dst.gpu_address >> 8);
         idx += 13;
         return;
      default:
         throw Failure{format_message("bad DMA_PACKET_COPY [%6zu] 0x%08x invalid sub cmd", idx, header)};
      }
   }
};

} // namespace

std::string check_and_patch_dma(std::span<uint32_t> ib, std::span<const CsReloc> relocs, hw::IsaClass isa)
{
   try {
      DmaChecker(ib, relocs, isa).run();
   } catch (const Failure &failure) {
      return failure.message;
   }
   return {};
}

} // namespace terakan::sim
