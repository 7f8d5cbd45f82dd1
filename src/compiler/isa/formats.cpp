#include "formats.h"

#include "words.h"

namespace terakan::isa {

namespace {

#define FIELD(ns, name, text) NamedField{text, ns::name}

constexpr NamedField cf_plain_evergreen[] = {
   FIELD(cf, addr, "ADDR"), FIELD(cf, jumptable_sel, "JUMPTABLE_SEL"),
   FIELD(cf, pop_count, "POP_COUNT"), FIELD(cf, cf_const, "CF_CONST"), FIELD(cf, cond, "COND"),
   FIELD(cf, count, "COUNT"), FIELD(cf, valid_pixel_mode, "VALID_PIXEL_MODE"),
   FIELD(cf, end_of_program, "END_OF_PROGRAM"), FIELD(cf, inst, "CF_INST"),
   FIELD(cf, whole_quad_mode, "WHOLE_QUAD_MODE"), FIELD(cf, barrier, "BARRIER"),
};
/* Cayman: no END_OF_PROGRAM (CF_END ends a program) and no WHOLE_QUAD_MODE. */
constexpr NamedField cf_plain_cayman[] = {
   FIELD(cf, addr, "ADDR"), FIELD(cf, jumptable_sel, "JUMPTABLE_SEL"),
   FIELD(cf, pop_count, "POP_COUNT"), FIELD(cf, cf_const, "CF_CONST"), FIELD(cf, cond, "COND"),
   FIELD(cf, count, "COUNT"), FIELD(cf, valid_pixel_mode, "VALID_PIXEL_MODE"),
   FIELD(cf, inst, "CF_INST"), FIELD(cf, barrier, "BARRIER"),
};
constexpr NamedField cf_alu_fields[] = {
   FIELD(cf_alu, addr, "ADDR"), FIELD(cf_alu, kcache_bank0, "KCACHE_BANK0"),
   FIELD(cf_alu, kcache_bank1, "KCACHE_BANK1"), FIELD(cf_alu, kcache_mode0, "KCACHE_MODE0"),
   FIELD(cf_alu, kcache_mode1, "KCACHE_MODE1"), FIELD(cf_alu, kcache_addr0, "KCACHE_ADDR0"),
   FIELD(cf_alu, kcache_addr1, "KCACHE_ADDR1"), FIELD(cf_alu, count, "COUNT"),
   FIELD(cf_alu, alt_const, "ALT_CONST"), FIELD(cf_alu, inst, "CF_INST"),
   FIELD(cf_alu, whole_quad_mode, "WHOLE_QUAD_MODE"), FIELD(cf_alu, barrier, "BARRIER"),
};
constexpr NamedField cf_alu_extended_fields[] = {
   FIELD(cf_alu_ext, kcache_bank_index_mode0, "KCACHE_BANK_INDEX_MODE0"),
   FIELD(cf_alu_ext, kcache_bank_index_mode1, "KCACHE_BANK_INDEX_MODE1"),
   FIELD(cf_alu_ext, kcache_bank_index_mode2, "KCACHE_BANK_INDEX_MODE2"),
   FIELD(cf_alu_ext, kcache_bank_index_mode3, "KCACHE_BANK_INDEX_MODE3"),
   FIELD(cf_alu_ext, kcache_bank2, "KCACHE_BANK2"), FIELD(cf_alu_ext, kcache_bank3, "KCACHE_BANK3"),
   FIELD(cf_alu_ext, kcache_mode2, "KCACHE_MODE2"), FIELD(cf_alu_ext, kcache_mode3, "KCACHE_MODE3"),
   FIELD(cf_alu_ext, kcache_addr2, "KCACHE_ADDR2"), FIELD(cf_alu_ext, kcache_addr3, "KCACHE_ADDR3"),
   FIELD(cf_alu_ext, inst, "CF_INST"), FIELD(cf_alu_ext, barrier, "BARRIER"),
};

#define EXPORT_WORD1_COMMON                                                                    \
   FIELD(cf_export, burst_count, "BURST_COUNT"),                                               \
      FIELD(cf_export, valid_pixel_mode, "VALID_PIXEL_MODE"),                                  \
      FIELD(cf_export, end_of_program, "END_OF_PROGRAM"), FIELD(cf_export, inst, "CF_INST"),   \
      FIELD(cf_export, mark, "MARK"), FIELD(cf_export, barrier, "BARRIER")

#define EXPORT_WORD0_COMMON                                                                    \
   FIELD(cf_export, type, "TYPE"), FIELD(cf_export, rw_gpr, "RW_GPR"),                         \
      FIELD(cf_export, rw_rel, "RW_REL"), FIELD(cf_export, index_gpr, "INDEX_GPR"),            \
      FIELD(cf_export, elem_size, "ELEM_SIZE")

constexpr NamedField cf_export_swizzle_fields[] = {
   FIELD(cf_export, array_base, "ARRAY_BASE"), EXPORT_WORD0_COMMON,
   FIELD(cf_export, sel_x, "SEL_X"), FIELD(cf_export, sel_y, "SEL_Y"),
   FIELD(cf_export, sel_z, "SEL_Z"), FIELD(cf_export, sel_w, "SEL_W"), EXPORT_WORD1_COMMON,
};
constexpr NamedField cf_export_buffer_fields[] = {
   FIELD(cf_export, array_base, "ARRAY_BASE"), EXPORT_WORD0_COMMON,
   FIELD(cf_export, array_size, "ARRAY_SIZE"), FIELD(cf_export, comp_mask, "COMP_MASK"),
   EXPORT_WORD1_COMMON,
};
constexpr NamedField cf_rat_fields[] = {
   FIELD(cf_export, rat_id, "RAT_ID"), FIELD(cf_export, rat_inst, "RAT_INST"),
   FIELD(cf_export, rat_index_mode, "RAT_INDEX_MODE"), EXPORT_WORD0_COMMON,
   FIELD(cf_export, array_size, "ARRAY_SIZE"), FIELD(cf_export, comp_mask, "COMP_MASK"),
   EXPORT_WORD1_COMMON,
};

#define ALU_WORD0_COMMON                                                                       \
   FIELD(alu, src0_sel, "SRC0_SEL"), FIELD(alu, src0_rel, "SRC0_REL"),                         \
      FIELD(alu, src0_chan, "SRC0_CHAN"), FIELD(alu, src1_sel, "SRC1_SEL"),                    \
      FIELD(alu, src1_rel, "SRC1_REL"), FIELD(alu, src1_chan, "SRC1_CHAN"),                    \
      FIELD(alu, index_mode, "INDEX_MODE"), FIELD(alu, pred_sel, "PRED_SEL"),                  \
      FIELD(alu, last, "LAST")

constexpr NamedField alu_op2_fields[] = {
   ALU_WORD0_COMMON, FIELD(alu, src0_neg, "SRC0_NEG"), FIELD(alu, src1_neg, "SRC1_NEG"),
   FIELD(alu, src0_abs, "SRC0_ABS"), FIELD(alu, src1_abs, "SRC1_ABS"),
   FIELD(alu, update_exec_mask, "UPDATE_EXEC_MASK"), FIELD(alu, update_pred, "UPDATE_PRED"),
   FIELD(alu, write_mask, "WRITE_MASK"), FIELD(alu, omod, "OMOD"),
   FIELD(alu, op2_inst, "ALU_INST"), FIELD(alu, bank_swizzle, "BANK_SWIZZLE"),
   FIELD(alu, dst_gpr, "DST_GPR"), FIELD(alu, dst_rel, "DST_REL"),
   FIELD(alu, dst_chan, "DST_CHAN"), FIELD(alu, clamp, "CLAMP"),
};
constexpr NamedField alu_op3_fields[] = {
   ALU_WORD0_COMMON, FIELD(alu, src0_neg, "SRC0_NEG"), FIELD(alu, src1_neg, "SRC1_NEG"),
   FIELD(alu, src2_sel, "SRC2_SEL"), FIELD(alu, src2_rel, "SRC2_REL"),
   FIELD(alu, src2_chan, "SRC2_CHAN"), FIELD(alu, src2_neg, "SRC2_NEG"),
   FIELD(alu, op3_inst, "ALU_INST"), FIELD(alu, bank_swizzle, "BANK_SWIZZLE"),
   FIELD(alu, dst_gpr, "DST_GPR"), FIELD(alu, dst_rel, "DST_REL"),
   FIELD(alu, dst_chan, "DST_CHAN"), FIELD(alu, clamp, "CLAMP"),
};
constexpr NamedField alu_lds_fields[] = {
   ALU_WORD0_COMMON, FIELD(alu, lds_idx_offset_4, "IDX_OFFSET_4"),
   FIELD(alu, lds_idx_offset_5, "IDX_OFFSET_5"), FIELD(alu, src2_sel, "SRC2_SEL"),
   FIELD(alu, src2_rel, "SRC2_REL"), FIELD(alu, src2_chan, "SRC2_CHAN"),
   FIELD(alu, lds_idx_offset_1, "IDX_OFFSET_1"), FIELD(alu, op3_inst, "ALU_INST"),
   FIELD(alu, bank_swizzle, "BANK_SWIZZLE"), FIELD(alu, lds_op, "LDS_OP"),
   FIELD(alu, lds_idx_offset_0, "IDX_OFFSET_0"), FIELD(alu, lds_idx_offset_2, "IDX_OFFSET_2"),
   FIELD(alu, dst_chan, "DST_CHAN"), FIELD(alu, lds_idx_offset_3, "IDX_OFFSET_3"),
};

constexpr NamedField tex_fields[] = {
   FIELD(tex, inst, "TEX_INST"), FIELD(tex, inst_mod, "INST_MOD"),
   FIELD(tex, fetch_whole_quad, "FETCH_WHOLE_QUAD"), FIELD(tex, resource_id, "RESOURCE_ID"),
   FIELD(tex, src_gpr, "SRC_GPR"), FIELD(tex, src_rel, "SRC_REL"),
   FIELD(tex, alt_const, "ALT_CONST"), FIELD(tex, resource_index_mode, "RESOURCE_INDEX_MODE"),
   FIELD(tex, sampler_index_mode, "SAMPLER_INDEX_MODE"), FIELD(tex, dst_gpr, "DST_GPR"),
   FIELD(tex, dst_rel, "DST_REL"), FIELD(tex, dst_sel_x, "DST_SEL_X"),
   FIELD(tex, dst_sel_y, "DST_SEL_Y"), FIELD(tex, dst_sel_z, "DST_SEL_Z"),
   FIELD(tex, dst_sel_w, "DST_SEL_W"), FIELD(tex, lod_bias, "LOD_BIAS"),
   FIELD(tex, coord_type_x, "COORD_TYPE_X"), FIELD(tex, coord_type_y, "COORD_TYPE_Y"),
   FIELD(tex, coord_type_z, "COORD_TYPE_Z"), FIELD(tex, coord_type_w, "COORD_TYPE_W"),
   FIELD(tex, offset_x, "OFFSET_X"), FIELD(tex, offset_y, "OFFSET_Y"),
   FIELD(tex, offset_z, "OFFSET_Z"), FIELD(tex, sampler_id, "SAMPLER_ID"),
   FIELD(tex, src_sel_x, "SRC_SEL_X"), FIELD(tex, src_sel_y, "SRC_SEL_Y"),
   FIELD(tex, src_sel_z, "SRC_SEL_Z"), FIELD(tex, src_sel_w, "SRC_SEL_W"),
};

#define VTX_COMMON                                                                             \
   FIELD(vtx, inst, "VC_INST"), FIELD(vtx, fetch_type, "FETCH_TYPE"),                          \
      FIELD(vtx, fetch_whole_quad, "FETCH_WHOLE_QUAD"), FIELD(vtx, buffer_id, "BUFFER_ID"),    \
      FIELD(vtx, src_gpr, "SRC_GPR"), FIELD(vtx, src_rel, "SRC_REL"),                          \
      FIELD(vtx, src_sel_x, "SRC_SEL_X"), FIELD(vtx, dst_sel_x, "DST_SEL_X"),                  \
      FIELD(vtx, dst_sel_y, "DST_SEL_Y"), FIELD(vtx, dst_sel_z, "DST_SEL_Z"),                  \
      FIELD(vtx, dst_sel_w, "DST_SEL_W"), FIELD(vtx, use_const_fields, "USE_CONST_FIELDS"),    \
      FIELD(vtx, data_format, "DATA_FORMAT"), FIELD(vtx, num_format_all, "NUM_FORMAT_ALL"),    \
      FIELD(vtx, format_comp_all, "FORMAT_COMP_ALL"), FIELD(vtx, srf_mode_all, "SRF_MODE_ALL"), \
      FIELD(vtx, offset, "OFFSET"), FIELD(vtx, endian_swap, "ENDIAN_SWAP"),                    \
      FIELD(vtx, const_buf_no_stride, "CONST_BUF_NO_STRIDE"),                                  \
      FIELD(vtx, alt_const, "ALT_CONST"), FIELD(vtx, buffer_index_mode, "BUFFER_INDEX_MODE")

#define VTX_EVERGREEN_ONLY                                                                     \
   FIELD(vtx, mega_fetch_count, "MEGA_FETCH_COUNT"), FIELD(vtx, mega_fetch, "MEGA_FETCH")
#define VTX_CAYMAN_ONLY                                                                        \
   FIELD(vtx, src_sel_y, "SRC_SEL_Y"), FIELD(vtx, structured_read, "STRUCTURED_READ"),         \
      FIELD(vtx, lds_req, "LDS_REQ"), FIELD(vtx, coalesced_read, "COALESCED_READ")

constexpr NamedField vtx_evergreen[] = {
   VTX_COMMON, FIELD(vtx, dst_gpr, "DST_GPR"), FIELD(vtx, dst_rel, "DST_REL"),
   VTX_EVERGREEN_ONLY,
};
constexpr NamedField vtx_cayman[] = {
   VTX_COMMON, FIELD(vtx, dst_gpr, "DST_GPR"), FIELD(vtx, dst_rel, "DST_REL"), VTX_CAYMAN_ONLY,
};
constexpr NamedField vtx_semantic_evergreen[] = {
   VTX_COMMON, FIELD(vtx, semantic_id, "SEMANTIC_ID"), VTX_EVERGREEN_ONLY,
};
constexpr NamedField vtx_semantic_cayman[] = {
   VTX_COMMON, FIELD(vtx, semantic_id, "SEMANTIC_ID"), VTX_CAYMAN_ONLY,
};

constexpr NamedField mem_read_fields[] = {
   FIELD(mem_rd, inst, "MEM_INST"), FIELD(mem_rd, elem_size, "ELEM_SIZE"),
   FIELD(mem_rd, fetch_whole_quad, "FETCH_WHOLE_QUAD"), FIELD(mem_rd, mem_op, "MEM_OP"),
   FIELD(mem_rd, uncached, "UNCACHED"), FIELD(mem_rd, indexed, "INDEXED"),
   FIELD(mem_rd, src_sel_y, "SRC_SEL_Y"), FIELD(mem_rd, src_gpr, "SRC_GPR"),
   FIELD(mem_rd, src_rel, "SRC_REL"), FIELD(mem_rd, src_sel_x, "SRC_SEL_X"),
   FIELD(mem_rd, burst_count, "BURST_COUNT"), FIELD(mem_rd, lds_req, "LDS_REQ"),
   FIELD(mem_rd, coalesced_read, "COALESCED_READ"), FIELD(mem_rd, dst_gpr, "DST_GPR"),
   FIELD(mem_rd, dst_rel, "DST_REL"), FIELD(mem_rd, dst_sel_x, "DST_SEL_X"),
   FIELD(mem_rd, dst_sel_y, "DST_SEL_Y"), FIELD(mem_rd, dst_sel_z, "DST_SEL_Z"),
   FIELD(mem_rd, dst_sel_w, "DST_SEL_W"), FIELD(mem_rd, data_format, "DATA_FORMAT"),
   FIELD(mem_rd, num_format_all, "NUM_FORMAT_ALL"),
   FIELD(mem_rd, format_comp_all, "FORMAT_COMP_ALL"),
   FIELD(mem_rd, srf_mode_all, "SRF_MODE_ALL"), FIELD(mem_rd, array_base, "ARRAY_BASE"),
   FIELD(mem_rd, endian_swap, "ENDIAN_SWAP"), FIELD(mem_rd, array_size, "ARRAY_SIZE"),
};

constexpr NamedField gds_fields[] = {
   FIELD(gds, inst, "MEM_INST"), FIELD(gds, mem_op, "MEM_OP"), FIELD(gds, src_gpr, "SRC_GPR"),
   FIELD(gds, src_rel_mode, "SRC_REL_MODE"), FIELD(gds, src_sel_x, "SRC_SEL_X"),
   FIELD(gds, src_sel_y, "SRC_SEL_Y"), FIELD(gds, src_sel_z, "SRC_SEL_Z"),
   FIELD(gds, dst_gpr, "DST_GPR"), FIELD(gds, dst_rel_mode, "DST_REL_MODE"),
   FIELD(gds, gds_op, "GDS_OP"), FIELD(gds, src_gpr2, "SRC_GPR2"),
   FIELD(gds, uav_index_mode, "UAV_INDEX_MODE"), FIELD(gds, uav_id, "UAV_ID"),
   FIELD(gds, alloc_consume, "ALLOC_CONSUME"), FIELD(gds, bcast_first_req, "BCAST_FIRST_REQ"),
   FIELD(gds, dst_sel_x, "DST_SEL_X"), FIELD(gds, dst_sel_y, "DST_SEL_Y"),
   FIELD(gds, dst_sel_z, "DST_SEL_Z"), FIELD(gds, dst_sel_w, "DST_SEL_W"),
};

#undef FIELD

} // namespace

std::string_view word_format_name(WordFormat format)
{
   switch (format) {
   case WordFormat::CfPlain: return "CF_WORD";
   case WordFormat::CfAlu: return "CF_ALU_WORD";
   case WordFormat::CfAluExtended: return "CF_ALU_WORD_EXT";
   case WordFormat::CfExportSwizzle: return "CF_ALLOC_EXPORT_WORD_SWIZ";
   case WordFormat::CfExportBuffer: return "CF_ALLOC_EXPORT_WORD_BUF";
   case WordFormat::CfRat: return "CF_ALLOC_EXPORT_WORD_RAT";
   case WordFormat::AluOp2: return "ALU_WORD_OP2";
   case WordFormat::AluOp3: return "ALU_WORD_OP3";
   case WordFormat::AluLds: return "ALU_WORD_LDS_IDX_OP";
   case WordFormat::Tex: return "TEX_WORD";
   case WordFormat::Vtx: return "VTX_WORD";
   case WordFormat::VtxSemantic: return "VTX_WORD_SEM";
   case WordFormat::MemRead: return "MEM_RD_WORD";
   case WordFormat::Gds: return "MEM_GDS_WORD";
   }
   return "?";
}

std::span<const NamedField> word_format_fields(WordFormat format, IsaClass isa)
{
   const bool cayman = isa == IsaClass::Cayman;
   switch (format) {
   case WordFormat::CfPlain:
      return cayman ? std::span<const NamedField>(cf_plain_cayman) : cf_plain_evergreen;
   case WordFormat::CfAlu: return cf_alu_fields;
   case WordFormat::CfAluExtended: return cf_alu_extended_fields;
   case WordFormat::CfExportSwizzle: return cf_export_swizzle_fields;
   case WordFormat::CfExportBuffer: return cf_export_buffer_fields;
   case WordFormat::CfRat: return cf_rat_fields;
   case WordFormat::AluOp2: return alu_op2_fields;
   case WordFormat::AluOp3: return alu_op3_fields;
   case WordFormat::AluLds: return alu_lds_fields;
   case WordFormat::Tex: return tex_fields;
   case WordFormat::Vtx:
      return cayman ? std::span<const NamedField>(vtx_cayman) : vtx_evergreen;
   case WordFormat::VtxSemantic:
      return cayman ? std::span<const NamedField>(vtx_semantic_cayman) : vtx_semantic_evergreen;
   case WordFormat::MemRead: return mem_read_fields;
   case WordFormat::Gds: return gds_fields;
   }
   return {};
}

} // namespace terakan::isa
