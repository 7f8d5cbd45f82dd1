/* The microcode word formats of the Evergreen and Cayman classes, as data.
 *
 * Field positions: Mesa 22.3.6 src/gallium/drivers/r600/eg_sq.h, r700_sq.h (MEM_RD) and
 * sb/sb_bc_fmt_def.inc (per-class field tables); LLVM's R600InstrFormats.td and
 * R600Instructions.td; each checked against llc-14 output for cypress, barts and cayman
 * (tests/isa). Dword 0 is the first (low-address) dword of an instruction.
 *
 * Where Evergreen and Cayman differ, the difference is a separate field list (see formats.cpp).
 */
#pragma once

#include "fields.h"

namespace terakan::isa {

/* CF_WORD0 / CF_WORD1: jumps, loops, fetch clauses, NOP, CF_END, ... */
namespace cf {
inline constexpr Field addr{0, 0, 24};            /* 64-bit units */
inline constexpr Field jumptable_sel{0, 24, 3};
inline constexpr Field pop_count{1, 0, 3};
inline constexpr Field cf_const{1, 3, 5};
inline constexpr Field cond{1, 8, 2};
inline constexpr Field count{1, 10, 6};           /* fetch instructions - 1 */
inline constexpr Field valid_pixel_mode{1, 20, 1};
inline constexpr Field end_of_program{1, 21, 1};  /* Evergreen only */
inline constexpr Field inst{1, 22, 8};
inline constexpr Field whole_quad_mode{1, 30, 1}; /* Evergreen only */
inline constexpr Field barrier{1, 31, 1};
/* Bit 29 of dword 1 tells the ALU formats (CF_INST 8-15 in bits 29:26) from the others. */
inline constexpr Field is_alu_format{1, 29, 1};
} // namespace cf

/* CF_ALU_WORD0 / CF_ALU_WORD1 */
namespace cf_alu {
inline constexpr Field addr{0, 0, 22};
inline constexpr Field kcache_bank0{0, 22, 4};
inline constexpr Field kcache_bank1{0, 26, 4};
inline constexpr Field kcache_mode0{0, 30, 2};
inline constexpr Field kcache_mode1{1, 0, 2};
inline constexpr Field kcache_addr0{1, 2, 8};     /* lines of 16 constants */
inline constexpr Field kcache_addr1{1, 10, 8};
inline constexpr Field count{1, 18, 7};           /* slots (instructions + literal slots) - 1 */
inline constexpr Field alt_const{1, 25, 1};
inline constexpr Field inst{1, 26, 4};
inline constexpr Field whole_quad_mode{1, 30, 1};
inline constexpr Field barrier{1, 31, 1};
} // namespace cf_alu

/* CF_ALU_WORD0_EXT / CF_ALU_WORD1_EXT (ALU_EXTENDED, placed just before its CF_ALU) */
namespace cf_alu_ext {
inline constexpr Field kcache_bank_index_mode0{0, 4, 2};
inline constexpr Field kcache_bank_index_mode1{0, 6, 2};
inline constexpr Field kcache_bank_index_mode2{0, 8, 2};
inline constexpr Field kcache_bank_index_mode3{0, 10, 2};
inline constexpr Field kcache_bank2{0, 22, 4};
inline constexpr Field kcache_bank3{0, 26, 4};
inline constexpr Field kcache_mode2{0, 30, 2};
inline constexpr Field kcache_mode3{1, 0, 2};
inline constexpr Field kcache_addr2{1, 2, 8};
inline constexpr Field kcache_addr3{1, 10, 8};
inline constexpr Field inst{1, 26, 4};
inline constexpr Field barrier{1, 31, 1};
} // namespace cf_alu_ext

/* CF_ALLOC_EXPORT_WORD0 (+ _RAT) and CF_ALLOC_EXPORT_WORD1_BUF / _SWIZ */
namespace cf_export {
inline constexpr Field array_base{0, 0, 13};
inline constexpr Field rat_id{0, 0, 4};
inline constexpr Field rat_inst{0, 4, 6};
inline constexpr Field rat_index_mode{0, 11, 2};
inline constexpr Field type{0, 13, 2};
inline constexpr Field rw_gpr{0, 15, 7};
inline constexpr Field rw_rel{0, 22, 1};
inline constexpr Field index_gpr{0, 23, 7};
inline constexpr Field elem_size{0, 30, 2};
inline constexpr Field array_size{1, 0, 12};
inline constexpr Field comp_mask{1, 12, 4};
inline constexpr Field sel_x{1, 0, 3};
inline constexpr Field sel_y{1, 3, 3};
inline constexpr Field sel_z{1, 6, 3};
inline constexpr Field sel_w{1, 9, 3};
inline constexpr Field burst_count{1, 16, 4};
inline constexpr Field valid_pixel_mode{1, 20, 1};
/* Reserved on Cayman, where CF_END ends a program; LLVM 14 still sets it on Cayman exports,
 * so the decoder keeps it and the program checker reports it (see checker rules). */
inline constexpr Field end_of_program{1, 21, 1};
inline constexpr Field inst{1, 22, 8};
inline constexpr Field mark{1, 30, 1};
inline constexpr Field barrier{1, 31, 1};
} // namespace cf_export

/* ALU_WORD0 and ALU_WORD1_OP2 / _OP3, and the LDS_IDX_OP variants */
namespace alu {
inline constexpr Field src0_sel{0, 0, 9};
inline constexpr Field src0_rel{0, 9, 1};
inline constexpr Field src0_chan{0, 10, 2};
inline constexpr Field src0_neg{0, 12, 1};
inline constexpr Field src1_sel{0, 13, 9};
inline constexpr Field src1_rel{0, 22, 1};
inline constexpr Field src1_chan{0, 23, 2};
inline constexpr Field src1_neg{0, 25, 1};
inline constexpr Field index_mode{0, 26, 3};
inline constexpr Field pred_sel{0, 29, 2};
inline constexpr Field last{0, 31, 1};
/* OP2 */
inline constexpr Field src0_abs{1, 0, 1};
inline constexpr Field src1_abs{1, 1, 1};
inline constexpr Field update_exec_mask{1, 2, 1};
inline constexpr Field update_pred{1, 3, 1};
inline constexpr Field write_mask{1, 4, 1};
inline constexpr Field omod{1, 5, 2};
inline constexpr Field op2_inst{1, 7, 11};
/* OP3 */
inline constexpr Field src2_sel{1, 0, 9};
inline constexpr Field src2_rel{1, 9, 1};
inline constexpr Field src2_chan{1, 10, 2};
inline constexpr Field src2_neg{1, 12, 1};
inline constexpr Field op3_inst{1, 13, 5};
/* both */
inline constexpr Field encoding{1, 15, 3}; /* 0: OP2 (opcodes < 0x100), else OP3 */
inline constexpr Field bank_swizzle{1, 18, 3};
inline constexpr Field dst_gpr{1, 21, 7};
inline constexpr Field dst_rel{1, 28, 1};
inline constexpr Field dst_chan{1, 29, 2};
inline constexpr Field clamp{1, 31, 1};
/* LDS_IDX_OP (OP3 0x11): the six offset bits replace the NEG, DST_REL and CLAMP bits, the
 * LDS opcode replaces DST_GPR. */
inline constexpr Field lds_idx_offset_4{0, 12, 1};
inline constexpr Field lds_idx_offset_5{0, 25, 1};
inline constexpr Field lds_idx_offset_1{1, 12, 1};
inline constexpr Field lds_op{1, 21, 6};
inline constexpr Field lds_idx_offset_0{1, 27, 1};
inline constexpr Field lds_idx_offset_2{1, 28, 1};
inline constexpr Field lds_idx_offset_3{1, 31, 1};
inline constexpr unsigned lds_idx_op_opcode = 0x11;
} // namespace alu

/* TEX_WORD0/1/2 */
namespace tex {
inline constexpr Field inst{0, 0, 5};
inline constexpr Field inst_mod{0, 5, 2};
inline constexpr Field fetch_whole_quad{0, 7, 1};
inline constexpr Field resource_id{0, 8, 8};
inline constexpr Field src_gpr{0, 16, 7};
inline constexpr Field src_rel{0, 23, 1};
inline constexpr Field alt_const{0, 24, 1};
inline constexpr Field resource_index_mode{0, 25, 2};
inline constexpr Field sampler_index_mode{0, 27, 2};
inline constexpr Field dst_gpr{1, 0, 7};
inline constexpr Field dst_rel{1, 7, 1};
inline constexpr Field dst_sel_x{1, 9, 3};
inline constexpr Field dst_sel_y{1, 12, 3};
inline constexpr Field dst_sel_z{1, 15, 3};
inline constexpr Field dst_sel_w{1, 18, 3};
inline constexpr Field lod_bias{1, 21, 7};
/* 1 = normalized, 0 = unnormalized: the bits the unnormalized-coordinate variants flip. */
inline constexpr Field coord_type_x{1, 28, 1};
inline constexpr Field coord_type_y{1, 29, 1};
inline constexpr Field coord_type_z{1, 30, 1};
inline constexpr Field coord_type_w{1, 31, 1};
inline constexpr Field offset_x{2, 0, 5};
inline constexpr Field offset_y{2, 5, 5};
inline constexpr Field offset_z{2, 10, 5};
inline constexpr Field sampler_id{2, 15, 5};
inline constexpr Field src_sel_x{2, 20, 3};
inline constexpr Field src_sel_y{2, 23, 3};
inline constexpr Field src_sel_z{2, 26, 3};
inline constexpr Field src_sel_w{2, 29, 3};
} // namespace tex

/* VTX_WORD0/1/2 */
namespace vtx {
inline constexpr Field inst{0, 0, 5};
inline constexpr Field fetch_type{0, 5, 2};
inline constexpr Field fetch_whole_quad{0, 7, 1};
inline constexpr Field buffer_id{0, 8, 8};
inline constexpr Field src_gpr{0, 16, 7};
inline constexpr Field src_rel{0, 23, 1};
inline constexpr Field src_sel_x{0, 24, 2};
inline constexpr Field mega_fetch_count{0, 26, 6};   /* Evergreen */
inline constexpr Field src_sel_y{0, 26, 2};          /* Cayman */
inline constexpr Field structured_read{0, 28, 2};    /* Cayman */
inline constexpr Field lds_req{0, 30, 1};            /* Cayman */
inline constexpr Field coalesced_read{0, 31, 1};     /* Cayman */
inline constexpr Field dst_gpr{1, 0, 7};
inline constexpr Field dst_rel{1, 7, 1};
inline constexpr Field semantic_id{1, 0, 8};         /* SEMFETCH */
inline constexpr Field dst_sel_x{1, 9, 3};
inline constexpr Field dst_sel_y{1, 12, 3};
inline constexpr Field dst_sel_z{1, 15, 3};
inline constexpr Field dst_sel_w{1, 18, 3};
inline constexpr Field use_const_fields{1, 21, 1};
inline constexpr Field data_format{1, 22, 6};
inline constexpr Field num_format_all{1, 28, 2};
inline constexpr Field format_comp_all{1, 30, 1};
inline constexpr Field srf_mode_all{1, 31, 1};
inline constexpr Field offset{2, 0, 16};
inline constexpr Field endian_swap{2, 16, 2};
inline constexpr Field const_buf_no_stride{2, 18, 1};
inline constexpr Field mega_fetch{2, 19, 1};         /* Evergreen */
inline constexpr Field alt_const{2, 20, 1};
inline constexpr Field buffer_index_mode{2, 21, 2};
} // namespace vtx

/* MEM_RD_WORD0/1/2 (fetch opcode 2 with MEM_OP READ_SCRATCH or READ_MEM) */
namespace mem_rd {
inline constexpr Field inst{0, 0, 5};
inline constexpr Field elem_size{0, 5, 2};
inline constexpr Field fetch_whole_quad{0, 7, 1};
inline constexpr Field mem_op{0, 8, 3};
inline constexpr Field uncached{0, 11, 1};
inline constexpr Field indexed{0, 12, 1};
inline constexpr Field src_sel_y{0, 13, 2};
inline constexpr Field src_gpr{0, 16, 7};
inline constexpr Field src_rel{0, 23, 1};
inline constexpr Field src_sel_x{0, 24, 2};
inline constexpr Field burst_count{0, 26, 4};
inline constexpr Field lds_req{0, 30, 1};
inline constexpr Field coalesced_read{0, 31, 1};
inline constexpr Field dst_gpr{1, 0, 7};
inline constexpr Field dst_rel{1, 7, 1};
inline constexpr Field dst_sel_x{1, 9, 3};
inline constexpr Field dst_sel_y{1, 12, 3};
inline constexpr Field dst_sel_z{1, 15, 3};
inline constexpr Field dst_sel_w{1, 18, 3};
inline constexpr Field data_format{1, 22, 6};
inline constexpr Field num_format_all{1, 28, 2};
inline constexpr Field format_comp_all{1, 30, 1};
inline constexpr Field srf_mode_all{1, 31, 1};
inline constexpr Field array_base{2, 0, 13};
inline constexpr Field endian_swap{2, 16, 2};
inline constexpr Field array_size{2, 20, 12};
} // namespace mem_rd

/* MEM_GDS_WORD0/1/2 (fetch opcode 2 with MEM_OP GDS or TF_WRITE) */
namespace gds {
inline constexpr Field inst{0, 0, 5};
inline constexpr Field mem_op{0, 8, 3};
inline constexpr Field src_gpr{0, 11, 7};
inline constexpr Field src_rel_mode{0, 18, 2};
inline constexpr Field src_sel_x{0, 20, 3};
inline constexpr Field src_sel_y{0, 23, 3};
inline constexpr Field src_sel_z{0, 26, 3};
inline constexpr Field dst_gpr{1, 0, 7};
inline constexpr Field dst_rel_mode{1, 7, 2};
inline constexpr Field gds_op{1, 9, 6};
inline constexpr Field src_gpr2{1, 16, 7};
inline constexpr Field uav_index_mode{1, 24, 2};
inline constexpr Field uav_id{1, 26, 4};
inline constexpr Field alloc_consume{1, 30, 1};
inline constexpr Field bcast_first_req{1, 31, 1};
inline constexpr Field dst_sel_x{2, 0, 3};
inline constexpr Field dst_sel_y{2, 3, 3};
inline constexpr Field dst_sel_z{2, 6, 3};
inline constexpr Field dst_sel_w{2, 9, 3};
} // namespace gds

/* Fetch opcode 2 ("MEM") sub-operations (MEM_OP). */
enum class MemOp : uint8_t {
   ReadScratch = 0,
   ReadMem = 2,
   Gds = 4,
   TfWrite = 5,
};

/* ALU source operand selects (SRCn_SEL), from eg_sq.h / r600_sq.h, sb_bc.h and LLVM's
 * R600RegisterInfo.td. */
namespace src_sel {
inline constexpr unsigned gpr_count = 128;
inline constexpr unsigned kcache0 = 128, kcache1 = 160; /* 32 constants each */
inline constexpr unsigned kcache2 = 256, kcache3 = 288; /* with ALU_EXTENDED */
inline constexpr unsigned lds_oq_a = 219, lds_oq_b = 220;
inline constexpr unsigned lds_oq_a_pop = 221, lds_oq_b_pop = 222;
inline constexpr unsigned lds_direct_a = 223, lds_direct_b = 224;
inline constexpr unsigned time_hi = 227, time_lo = 228;
inline constexpr unsigned mask_hi = 229, mask_lo = 230;
inline constexpr unsigned hw_wave_id = 231, simd_id = 232, se_id = 233;
inline constexpr unsigned hw_threadgrp_id = 234, wave_id_in_grp = 235;
inline constexpr unsigned num_threadgrp_waves = 236, hw_alu_odd = 237, loop_idx = 238;
inline constexpr unsigned param_base_addr = 240, new_prim_mask = 241;
inline constexpr unsigned prim_mask_hi = 242, prim_mask_lo = 243;
inline constexpr unsigned one_double_lo = 244, one_double_hi = 245;
inline constexpr unsigned half_double_lo = 246, half_double_hi = 247;
inline constexpr unsigned zero = 248, one = 249, one_int = 250, minus_one_int = 251, half = 252;
inline constexpr unsigned literal = 253, pv = 254, ps = 255;
inline constexpr unsigned param_base = 448; /* interpolation parameters, 448 + n, n < 32 */
} // namespace src_sel

} // namespace terakan::isa
