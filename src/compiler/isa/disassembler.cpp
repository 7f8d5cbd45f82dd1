#include "disassembler.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace terakan::isa {

namespace {

std::string printf_string(const char *format, ...) __attribute__((format(printf, 1, 2)));
std::string printf_string(const char *format, ...)
{
   char buffer[256];
   va_list args;
   va_start(args, format);
   std::vsnprintf(buffer, sizeof(buffer), format, args);
   va_end(args);
   return buffer;
}

constexpr char channel_names[] = "xyzw";
/* Destination/source selects of fetch and export words: 0-3 xyzw, 4 = 0, 5 = 1, 7 = masked. */
constexpr char select_names[] = "xyzw01?_";

std::string index_register(unsigned index_mode)
{
   switch (index_mode) {
   case 0: return "AR.x";
   case 1: return "AR.y";
   case 2: return "AR.z";
   case 3: return "AR.w";
   case 4: return "aL";
   case 5: return "GLOBAL";
   case 6: return "GLOBAL_AR.x";
   default: return "IDX?";
   }
}

std::string special_select(unsigned sel)
{
   switch (sel) {
   case src_sel::lds_oq_a: return "LDS_OQ_A";
   case src_sel::lds_oq_b: return "LDS_OQ_B";
   case src_sel::lds_oq_a_pop: return "LDS_OQ_A_POP";
   case src_sel::lds_oq_b_pop: return "LDS_OQ_B_POP";
   case src_sel::lds_direct_a: return "LDS_DIRECT_A";
   case src_sel::lds_direct_b: return "LDS_DIRECT_B";
   case src_sel::time_hi: return "TIME_HI";
   case src_sel::time_lo: return "TIME_LO";
   case src_sel::mask_hi: return "MASK_HI";
   case src_sel::mask_lo: return "MASK_LO";
   case src_sel::hw_wave_id: return "HW_WAVE_ID";
   case src_sel::simd_id: return "SIMD_ID";
   case src_sel::se_id: return "SE_ID";
   case src_sel::hw_threadgrp_id: return "HW_THREADGRP_ID";
   case src_sel::wave_id_in_grp: return "WAVE_ID_IN_GRP";
   case src_sel::num_threadgrp_waves: return "NUM_THREADGRP_WAVES";
   case src_sel::hw_alu_odd: return "HW_ALU_ODD";
   case src_sel::loop_idx: return "LOOP_IDX";
   case src_sel::param_base_addr: return "PARAM_BASE_ADDR";
   case src_sel::new_prim_mask: return "NEW_PRIM_MASK";
   case src_sel::prim_mask_hi: return "PRIM_MASK_HI";
   case src_sel::prim_mask_lo: return "PRIM_MASK_LO";
   case src_sel::one_double_lo: return "1.0_DBL_L";
   case src_sel::one_double_hi: return "1.0_DBL_M";
   case src_sel::half_double_lo: return "0.5_DBL_L";
   case src_sel::half_double_hi: return "0.5_DBL_M";
   case src_sel::zero: return "0";
   case src_sel::one: return "1.0";
   case src_sel::one_int: return "1";
   case src_sel::minus_one_int: return "-1";
   case src_sel::half: return "0.5";
   default: return printf_string("SEL%u", sel);
   }
}

std::string format_source(const AluInstruction &instruction, unsigned index,
                          std::span<const uint32_t> literals)
{
   const AluSource source = alu_source(instruction, index);
   const char chan = channel_names[source.chan];
   std::string text;
   if (source.sel < src_sel::gpr_count) {
      text = source.rel ? printf_string("R[%u+%s].%c", source.sel,
                                        index_register(instruction.get(alu::index_mode)).c_str(),
                                        chan)
                        : printf_string("R%u.%c", source.sel, chan);
   } else if (source.sel < src_sel::kcache1 + 32 ||
              (source.sel >= src_sel::kcache2 && source.sel < src_sel::kcache3 + 32)) {
      const unsigned bank = source.sel < src_sel::kcache1   ? 0
                            : source.sel < src_sel::kcache2 ? 1
                            : source.sel < src_sel::kcache3 ? 2
                                                            : 3;
      static constexpr unsigned bases[] = {src_sel::kcache0, src_sel::kcache1, src_sel::kcache2,
                                           src_sel::kcache3};
      text = printf_string("KC%u[%u%s].%c", bank, source.sel - bases[bank],
                           source.rel ? "+AR" : "", chan);
   } else if (source.sel == src_sel::literal) {
      const uint32_t value = source.chan < literals.size() ? literals[source.chan] : 0;
      float as_float;
      std::memcpy(&as_float, &value, sizeof(as_float));
      text = printf_string("literal.%c(0x%08x, %g)", chan, value, double(as_float));
   } else if (source.sel == src_sel::pv) {
      text = printf_string("PV.%c", chan);
   } else if (source.sel == src_sel::ps) {
      text = "PS";
   } else if (source.sel >= src_sel::param_base && source.sel < src_sel::param_base + 32) {
      text = printf_string("Param%u.%c", source.sel - src_sel::param_base, chan);
   } else {
      text = special_select(source.sel);
   }
   if (source.abs)
      text = "|" + text + "|";
   if (source.neg)
      text = "-" + text;
   return text;
}

const char *bank_swizzle_name(unsigned value, bool trans)
{
   static const char *vector[] = {"VEC_012", "VEC_021", "VEC_120", "VEC_102",
                                  "VEC_201", "VEC_210", "VEC_6?",  "VEC_7?"};
   static const char *scalar[] = {"SCL_210", "SCL_122", "SCL_212", "SCL_221",
                                  "SCL_4?",  "SCL_5?",  "SCL_6?",  "SCL_7?"};
   return trans ? scalar[value & 7] : vector[value & 7];
}

std::string four_selects(unsigned x, unsigned y, unsigned z, unsigned w)
{
   return {select_names[x & 7], select_names[y & 7], select_names[z & 7], select_names[w & 7]};
}

std::string kcache_text(unsigned set, unsigned bank, unsigned mode, unsigned line)
{
   if (mode == 0)
      return {};
   if (mode == 3)
      return printf_string(" KC%u[CB%u:LOOP_INDEX+%u]", set, bank, line * 16);
   return printf_string(" KC%u[CB%u:%u-%u]", set, bank, line * 16, line * 16 + mode * 16 - 1);
}

} // namespace

std::string format_cf(const CfInstruction &instruction, IsaClass isa)
{
   const CfOpInfo &op = *instruction.op;
   std::string text(op.name);
   switch (instruction.format) {
   case WordFormat::CfAlu:
      text += printf_string(" @%u count:%u", instruction.get(cf_alu::addr),
                            instruction.get(cf_alu::count) + 1);
      text += kcache_text(0, instruction.get(cf_alu::kcache_bank0),
                          instruction.get(cf_alu::kcache_mode0),
                          instruction.get(cf_alu::kcache_addr0));
      text += kcache_text(1, instruction.get(cf_alu::kcache_bank1),
                          instruction.get(cf_alu::kcache_mode1),
                          instruction.get(cf_alu::kcache_addr1));
      if (instruction.get(cf_alu::alt_const))
         text += " ALT_CONST";
      if (instruction.get(cf_alu::whole_quad_mode))
         text += " WQM";
      break;
   case WordFormat::CfAluExtended:
      text += kcache_text(2, instruction.get(cf_alu_ext::kcache_bank2),
                          instruction.get(cf_alu_ext::kcache_mode2),
                          instruction.get(cf_alu_ext::kcache_addr2));
      text += kcache_text(3, instruction.get(cf_alu_ext::kcache_bank3),
                          instruction.get(cf_alu_ext::kcache_mode3),
                          instruction.get(cf_alu_ext::kcache_addr3));
      text += printf_string(" INDEX_MODES:%u,%u,%u,%u",
                            instruction.get(cf_alu_ext::kcache_bank_index_mode0),
                            instruction.get(cf_alu_ext::kcache_bank_index_mode1),
                            instruction.get(cf_alu_ext::kcache_bank_index_mode2),
                            instruction.get(cf_alu_ext::kcache_bank_index_mode3));
      break;
   case WordFormat::CfPlain:
      if (op.has(CfFlag::FetchClause))
         text += printf_string(" @%u count:%u", instruction.get(cf::addr),
                               instruction.get(cf::count) + 1);
      else if (op.has(CfFlag::TargetAddress))
         text += printf_string(" @%u", instruction.get(cf::addr));
      else if (instruction.get(cf::addr))
         text += printf_string(" ADDR:%u", instruction.get(cf::addr));
      if (instruction.get(cf::pop_count))
         text += printf_string(" POP:%u", instruction.get(cf::pop_count));
      if (instruction.get(cf::cond))
         text += printf_string(" COND:%u", instruction.get(cf::cond));
      if (instruction.get(cf::cf_const))
         text += printf_string(" CF_CONST:%u", instruction.get(cf::cf_const));
      if (!op.has(CfFlag::FetchClause) && instruction.get(cf::count))
         text += printf_string(" COUNT:%u", instruction.get(cf::count));
      if (instruction.get(cf::jumptable_sel))
         text += printf_string(" JUMPTABLE_SEL:%u", instruction.get(cf::jumptable_sel));
      if (instruction.get(cf::valid_pixel_mode))
         text += " VPM";
      if (isa == IsaClass::Evergreen && instruction.get(cf::whole_quad_mode))
         text += " WQM";
      if (isa == IsaClass::Evergreen && instruction.get(cf::end_of_program))
         text += " END_OF_PROGRAM";
      break;
   case WordFormat::CfExportSwizzle:
   case WordFormat::CfExportBuffer:
   case WordFormat::CfRat: {
      if (instruction.format == WordFormat::CfRat) {
         const RatOpInfo *rat = find_rat_op(instruction.get(cf_export::rat_inst));
         text += rat ? " " + std::string(rat->name)
                     : printf_string(" RAT_INST%u", instruction.get(cf_export::rat_inst));
         text += printf_string(" RAT%u", instruction.get(cf_export::rat_id));
         if (instruction.get(cf_export::rat_index_mode))
            text += printf_string("[CF_IDX%u]", instruction.get(cf_export::rat_index_mode) - 1);
      }
      if (instruction.format == WordFormat::CfExportSwizzle) {
         static const char *types[] = {"PIXEL", "POS", "PARAM", "TYPE3"};
         text += printf_string(" %s %u R%u.%s", types[instruction.get(cf_export::type)],
                               instruction.get(cf_export::array_base),
                               instruction.get(cf_export::rw_gpr),
                               four_selects(instruction.get(cf_export::sel_x),
                                            instruction.get(cf_export::sel_y),
                                            instruction.get(cf_export::sel_z),
                                            instruction.get(cf_export::sel_w)).c_str());
      } else {
         const unsigned mask = instruction.get(cf_export::comp_mask);
         std::string channels;
         for (unsigned c = 0; c < 4; c++)
            channels += (mask >> c & 1) ? channel_names[c] : '_';
         text += printf_string(" R%u.%s", instruction.get(cf_export::rw_gpr), channels.c_str());
         const unsigned type = instruction.get(cf_export::type);
         if (type & 1)
            text += printf_string(", R%u", instruction.get(cf_export::index_gpr));
         if (instruction.format == WordFormat::CfExportBuffer)
            text += printf_string(" ARRAY_BASE:%u", instruction.get(cf_export::array_base));
         text += printf_string(" ARRAY_SIZE:%u", instruction.get(cf_export::array_size));
         if (type & 2)
            text += " ACK";
      }
      text += printf_string(" ES:%u", instruction.get(cf_export::elem_size));
      if (instruction.get(cf_export::burst_count))
         text += printf_string(" BURST:%u", instruction.get(cf_export::burst_count) + 1);
      if (instruction.get(cf_export::rw_rel))
         text += " RW_REL";
      if (instruction.get(cf_export::valid_pixel_mode))
         text += " VPM";
      if (instruction.get(cf_export::mark))
         text += " MARK";
      if (instruction.get(cf_export::end_of_program))
         text += " END_OF_PROGRAM";
      break;
   }
   default:
      break;
   }
   if (!instruction.get(cf::barrier))
      text += " NO_BARRIER";
   return text;
}

std::string format_alu(const AluInstruction &instruction, std::span<const uint32_t> literals,
                       IsaClass isa)
{
   const AluOpInfo &op = *instruction.op;
   std::string text = printf_string("%c: %-16s", slot_name(instruction.slot),
                                    std::string(op.name).c_str());
   const char chan = channel_names[instruction.get(alu::dst_chan)];
   if (instruction.is_lds()) {
      text += printf_string(" offset:%u", instruction.lds_offset());
   } else if (op.encoding == AluEncoding::Op2 && !instruction.get(alu::write_mask)) {
      text += printf_string(" ____.%c", chan);
   } else if (instruction.get(alu::dst_rel)) {
      text += printf_string(" R[%u+%s].%c", instruction.get(alu::dst_gpr),
                            index_register(instruction.get(alu::index_mode)).c_str(), chan);
   } else {
      text += printf_string(" R%u.%c", instruction.get(alu::dst_gpr), chan);
   }
   const unsigned source_fields = instruction.is_op3() ? 3 : 2;
   const unsigned shown = std::min<unsigned>(std::max<unsigned>(op.sources, 0), source_fields);
   for (unsigned i = 0; i < shown; i++)
      text += (i || !instruction.is_lds() ? ", " : " ") + format_source(instruction, i, literals);
   /* Fields an opcode does not read still matter to the hardware (literal fetches, read ports),
    * so unusual values in them are shown. */
   for (unsigned i = shown; i < source_fields; i++) {
      const AluSource source = alu_source(instruction, i);
      if (source.sel || source.chan || source.rel || source.neg || source.abs)
         text += printf_string(" (src%u: %s)", i, format_source(instruction, i, literals).c_str());
   }
   if (!instruction.is_op3()) {
      static const char *omods[] = {"", " *2", " *4", " /2"};
      text += omods[instruction.get(alu::omod)];
      if (instruction.get(alu::update_exec_mask))
         text += " UPDATE_EXEC_MASK";
      if (instruction.get(alu::update_pred))
         text += " UPDATE_PRED";
   }
   if (!instruction.is_lds() && instruction.get(alu::clamp))
      text += " CLAMP";
   if (const unsigned pred = instruction.get(alu::pred_sel))
      text += pred == 2 ? " PRED_SEL_ZERO" : pred == 3 ? " PRED_SEL_ONE" : " PRED_SEL_1?";
   if (const unsigned swizzle = instruction.get(alu::bank_swizzle))
      text += printf_string(" BS:%s", bank_swizzle_name(swizzle, instruction.slot == Slot::T));
   if (instruction.get(alu::index_mode) && !instruction.get(alu::dst_rel) &&
       !alu_source(instruction, 0).rel && !alu_source(instruction, 1).rel &&
       !alu_source(instruction, 2).rel)
      text += printf_string(" INDEX:%s", index_register(instruction.get(alu::index_mode)).c_str());
   (void)isa;
   return text;
}

std::string format_fetch(const FetchInstruction &instruction, IsaClass isa)
{
   const FetchOpInfo &op = *instruction.op;
   std::string text = printf_string("%-20s", std::string(op.name).c_str());
   switch (instruction.format) {
   case WordFormat::Tex:
      text += printf_string(
         " R%u.%s, R%u.%s RID:%u SID:%u CT:%c%c%c%c", instruction.get(tex::dst_gpr),
         four_selects(instruction.get(tex::dst_sel_x), instruction.get(tex::dst_sel_y),
                      instruction.get(tex::dst_sel_z), instruction.get(tex::dst_sel_w)).c_str(),
         instruction.get(tex::src_gpr),
         four_selects(instruction.get(tex::src_sel_x), instruction.get(tex::src_sel_y),
                      instruction.get(tex::src_sel_z), instruction.get(tex::src_sel_w)).c_str(),
         instruction.get(tex::resource_id), instruction.get(tex::sampler_id),
         instruction.get(tex::coord_type_x) ? 'N' : 'U',
         instruction.get(tex::coord_type_y) ? 'N' : 'U',
         instruction.get(tex::coord_type_z) ? 'N' : 'U',
         instruction.get(tex::coord_type_w) ? 'N' : 'U');
      if (instruction.get(tex::offset_x) || instruction.get(tex::offset_y) ||
          instruction.get(tex::offset_z)) {
         auto signed5 = [](uint32_t v) { return int(v & 0x10 ? v - 32 : v); };
         text += printf_string(" OFFSET:%d,%d,%d", signed5(instruction.get(tex::offset_x)),
                               signed5(instruction.get(tex::offset_y)),
                               signed5(instruction.get(tex::offset_z)));
      }
      if (instruction.get(tex::lod_bias))
         text += printf_string(" LOD_BIAS:%u", instruction.get(tex::lod_bias));
      if (instruction.get(tex::resource_index_mode))
         text += printf_string(" RIM:%u", instruction.get(tex::resource_index_mode));
      if (instruction.get(tex::sampler_index_mode))
         text += printf_string(" SIM:%u", instruction.get(tex::sampler_index_mode));
      break;
   case WordFormat::Vtx:
   case WordFormat::VtxSemantic:
      if (instruction.format == WordFormat::VtxSemantic)
         text += printf_string(" SEMANTIC:%u", instruction.get(vtx::semantic_id));
      else
         text += printf_string(" R%u", instruction.get(vtx::dst_gpr));
      text += printf_string(
         ".%s, R%u.%c BUFFER:%u OFFSET:%u FMT:%u", 
         four_selects(instruction.get(vtx::dst_sel_x), instruction.get(vtx::dst_sel_y),
                      instruction.get(vtx::dst_sel_z), instruction.get(vtx::dst_sel_w)).c_str(),
         instruction.get(vtx::src_gpr), channel_names[instruction.get(vtx::src_sel_x)],
         instruction.get(vtx::buffer_id), instruction.get(vtx::offset),
         instruction.get(vtx::data_format));
      text += printf_string(" NUM:%u SIGNED:%u SRF:%u FETCH_TYPE:%u",
                            instruction.get(vtx::num_format_all),
                            instruction.get(vtx::format_comp_all),
                            instruction.get(vtx::srf_mode_all), instruction.get(vtx::fetch_type));
      if (isa == IsaClass::Evergreen)
         text += printf_string(" MFC:%u%s", instruction.get(vtx::mega_fetch_count),
                               instruction.get(vtx::mega_fetch) ? " MEGA" : "");
      if (instruction.get(vtx::use_const_fields))
         text += " USE_CONST_FIELDS";
      if (instruction.get(vtx::endian_swap))
         text += printf_string(" ENDIAN:%u", instruction.get(vtx::endian_swap));
      if (instruction.get(vtx::buffer_index_mode))
         text += printf_string(" BIM:%u", instruction.get(vtx::buffer_index_mode));
      break;
   case WordFormat::MemRead:
   case WordFormat::Gds:
      text += " " + format_fields(std::span<const uint32_t>(instruction.words.data(), 3),
                                  instruction.format, isa);
      break;
   default:
      break;
   }
   return text;
}

std::string format_fields(std::span<const uint32_t> words, WordFormat format, IsaClass isa)
{
   std::string text;
   for (const NamedField &named : word_format_fields(format, isa)) {
      const uint32_t value = named.field.get(words);
      if (value)
         text += printf_string("%s%.*s:%u", text.empty() ? "" : " ",
                               int(named.name.size()), named.name.data(), value);
   }
   return text;
}

std::string disassemble(const Program &program, const DisassemblyOptions &options)
{
   const IsaClass isa = program.isa;
   std::string out = printf_string("; %s class program, %u dwords\n",
                                   isa == IsaClass::Cayman ? "Cayman" : "Evergreen",
                                   program.size_dwords);
   auto words_text = [&](std::span<const uint32_t> words) {
      std::string text = "  ;";
      for (uint32_t word : words)
         text += printf_string(" %08x", word);
      return text;
   };
   auto line = [&](uint32_t slot, const std::string &body, std::span<const uint32_t> words,
                   WordFormat format) {
      std::string text = printf_string("%04u  %s", slot, body.c_str());
      if (options.show_words) {
         if (text.size() < 72)
            text.resize(72, ' ');
         text += words_text(words);
      }
      out += text + "\n";
      if (options.show_fields)
         out += "      [" + format_fields(words, format, isa) + "]\n";
   };

   for (const CfInstruction &instruction : program.cf) {
      line(instruction.index, format_cf(instruction, isa), instruction.words, instruction.format);
   }
   for (const FetchClause &clause : program.fetch_clauses) {
      out += printf_string("%s clause @%u, %zu instructions\n",
                           clause.kind == FetchClauseKind::Gds   ? "GDS"
                           : clause.kind == FetchClauseKind::Vtx ? "VTX"
                                                                 : "TEX",
                           clause.address, clause.instructions.size());
      uint32_t slot = clause.address;
      for (const FetchInstruction &instruction : clause.instructions) {
         line(slot, "   " + format_fetch(instruction, isa),
              std::span<const uint32_t>(instruction.words.data(), 3), instruction.format);
         slot += 2;
      }
   }
   for (const AluClause &clause : program.alu_clauses) {
      out += printf_string("ALU clause @%u, %u slots\n", clause.address, clause.slot_count);
      for (const AluGroup &group : clause.groups) {
         uint32_t slot = group.index;
         for (const AluInstruction &instruction : group.instructions) {
            line(slot, "   " + format_alu(instruction, group.literals, isa), instruction.words,
                 instruction.format);
            slot++;
         }
         for (size_t i = 0; i < group.literals.size(); i += 2) {
            line(slot, printf_string("   literals 0x%08x 0x%08x", group.literals[i],
                                     group.literals[i + 1]),
                 std::span<const uint32_t>(group.literals.data() + i, 2), WordFormat::CfPlain);
            slot++;
         }
      }
   }
   return out;
}

} // namespace terakan::isa
