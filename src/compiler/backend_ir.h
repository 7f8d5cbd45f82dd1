/* The backend's own IR: scalar TeraScale operations on virtual values, in program order, then
 * the same operations grouped into clauses and VLIW groups, then with registers.
 *
 * A value is one 32-bit channel of a GPR-to-be. Its channel is decided by the packer (a vector
 * slot writes the channel of its slot) or, for t-slot and Cayman replicated results and for
 * fetches, by the register allocator. */
#pragma once

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "compiler/isa/opcodes.h"
#include "hw/chips.h"

namespace terakan::compiler {

inline constexpr unsigned no_value = ~0u;


/* Descriptor: a storage-buffer binding seen through NIR's (index, offset) pair; only loads and
 * stores may consume it. */
/* LdsQueue: the value an LDS *_RET operation pushed, popped (LDS_OQ_A_POP). */
/* Param: pixel-shader input `value` (PS input n, SPI_PS_INPUT_CNTL_n), channel `bank`; only
 * INTERP_* read it. */
enum class OperandKind : uint8_t { None, Value, Literal, Kcache, Inline, Descriptor, LdsQueue, Param };

struct Operand {
   OperandKind kind = OperandKind::None;
   uint32_t value = 0;  /* value id, literal bits, kcache dword index, or inline select
                         * (isa::src_sel::zero ... half) */
   unsigned bank = 0;   /* kcache: the constant buffer (0: push constants, 1: driver
                         * constants, 2 + k: SelectedProgram::kcache_slots[k]) */
   bool neg = false, abs = false;

   static Operand of_value(unsigned id) { return {OperandKind::Value, id}; }
   static Operand literal(uint32_t bits);
   static Operand kcache(unsigned bank, unsigned dword) { return {OperandKind::Kcache, dword, bank}; }
   static Operand param(unsigned input, unsigned channel) { return {OperandKind::Param, input, channel}; }
   bool is_value() const { return kind == OperandKind::Value; }
   bool operator==(const Operand &) const = default;
};

/* An ALU operation. LDS operations (op->encoding == Lds) and GROUP_BARRIER get a group of
 * their own; an LDS *_RET operation's result reaches `dst` through a MOV from the LDS output
 * queue in the next group. dst is no_value for operations that write no GPR. */
struct AluOp {
   const isa::AluOpInfo *op = nullptr;
   unsigned dst = no_value;
   std::array<Operand, 3> src{};
   bool clamp = false;
};

/* LDS operations and GROUP_BARRIER: kept in program order, alone in their group, never
 * removed as dead. */
inline bool is_ordered_memory_op(const AluOp &op)
{
   return op.op->encoding == isa::AluEncoding::Lds || op.op->name == "GROUP_BARRIER";
}

/* A TEX instruction: reads its coordinates from one GPR and writes its results to one GPR.
 * Every coordinate and result value belongs to a GPR group (ValueInfo::gpr_group) and has the
 * channel of its position; no_value reads constant 0 / leaves that channel unwritten. */
struct TextureFetch {
   const isa::FetchOpInfo *op = nullptr;
   std::array<unsigned, 4> coords{no_value, no_value, no_value, no_value};
   std::array<unsigned, 4> results{no_value, no_value, no_value, no_value};
   unsigned resource = 0, sampler = 0;
   std::array<bool, 4> normalized{}; /* COORD_TYPE_X..W */
   std::array<int, 3> offset_halves{}; /* OFFSET_X/Y/Z: constant texel offsets, in half texels */
   int gather_component = -1;          /* GATHER4: the component, in INST_MOD; -1 otherwise */
   /* SAMPLE_G / SAMPLE_C_G: d/dx and d/dy of the coordinates (x, y, z; one GPR group each). The
    * scheduler puts a SET_GRADIENTS_H and a SET_GRADIENTS_V fetch reading them just before the
    * sample, in its clause (schedule.cpp, schedule_fetches). */
   std::array<unsigned, 4> gradients_h{no_value, no_value, no_value, no_value};
   std::array<unsigned, 4> gradients_v{no_value, no_value, no_value, no_value};
   bool has_gradients() const { return gradients_h[0] != no_value; }
   int record = -1;                  /* SamplerRecord whose patch list holds this fetch */
   /* A VFETCH of raw dwords (buffer loads of several components): result c is the dword at
    * byte coords[0] + offset + 4c, format FMT_32 x n from the first to the last result kept,
    * integer number format, no USE_CONST_FIELDS. 0: not such a fetch. */
   unsigned raw_dwords = 0;
   uint32_t offset = 0;
   /* Every result channel gets DST_SEL 4 (the constant 0.0) instead of the op's result: the
    * helper-invocation query (select_graphics.cpp) uses the write, not the op. */
   bool zero_results = false;
};

struct FetchOp {
   unsigned dst = no_value;
   unsigned address = no_value; /* byte address value */
   unsigned binding = 0;
   uint32_t offset = 0;         /* constant byte offset added by the fetch unit */
   TextureFetch texture;        /* texture.op set: a TEX instruction, not a VFETCH */
   /* Reads what a returning RAT operation wrote: its clause starts after a WAIT_ACK. */
   bool wait_ack = false;
   /* Pixel shaders: its clause sets VALID_PIXEL_MODE, so that helper and killed lanes skip it
    * (the scheduler gives such fetches clauses of their own). */
   bool valid_pixels_only = false;
   /* A reload (spill.cpp): a READ_SCRATCH of the element that a spill store wrote this value
    * to; its result and element are placed after register allocation (regalloc.cpp). */
   unsigned reload_of = no_value;

   bool is_texture() const { return texture.op != nullptr; }
   std::vector<unsigned> sources() const
   {
      if (!is_texture())
         return {address};
      std::vector<unsigned> list;
      for (unsigned v : texture.coords)
         if (v != no_value)
            list.push_back(v);
      for (const auto &gradients : {texture.gradients_h, texture.gradients_v})
         for (unsigned v : gradients)
            if (v != no_value)
               list.push_back(v);
      return list;
   }
   std::vector<unsigned> results() const
   {
      if (!is_texture())
         return {dst};
      std::vector<unsigned> list;
      for (unsigned v : texture.results)
         if (v != no_value)
            list.push_back(v);
      return list;
   }
};

/* A RAT operation: a store, or an atomic (`atomic` names the RAT_INST). A returning atomic
 * (*_RTN) reads one GPR: data in x, the return buffer's dword index in y (`return_index`), and
 * CMPXCHG's compare value in w (`compare`) and, on Cayman, also in z (`compare_z`); these
 * values form a GPR group, each in its channel. It asks for an acknowledgement (MARK). */
struct StoreOp {
   unsigned data = no_value;  /* must end up in channel x */
   unsigned index = no_value; /* dword index; channel x */
   unsigned binding = 0;
   const char *atomic = nullptr;
   unsigned return_index = no_value, compare = no_value, compare_z = no_value;
   bool returns = false;
   /* Asks for an acknowledgement (MARK) although nothing is returned: the program waits for
    * its writes at a memory barrier (NodeKind::WaitAck). */
   bool acknowledged = false;
   /* STORE_TYPED (storage images): data and index are the x members of two GPR groups, and
    * these their y, z and w members, each in the channel of its position. */
   bool typed = false;
   std::array<unsigned, 3> data_yzw{no_value, no_value, no_value};
   std::array<unsigned, 3> index_yzw{no_value, no_value, no_value};
   /* MEM_SCRATCH (private arrays, docs/compiler.md "Scratch"): data, data_yzw are the channels
    * written (a GPR group, each in the channel of its position, no_value where not written) to
    * element scratch_element, plus index (channel x) when that is set. */
   bool scratch = false;
   unsigned scratch_element = 0;
   /* A spill store (spill.cpp): `data` is the spilled value; its channel and scratch_element
    * are only known after register allocation, which then puts it in the position of its
    * channel and gives it its element (regalloc.cpp). */
   bool spill = false;

   std::vector<unsigned> sources() const
   {
      std::vector<unsigned> list;
      for (unsigned v : {data, index, return_index, compare, compare_z, data_yzw[0], data_yzw[1], data_yzw[2],
                         index_yzw[0], index_yzw[1], index_yzw[2]})
         if (v != no_value)
            list.push_back(v);
      return list;
   }
};

/* An EXPORT (vertex and pixel shaders): four components from one GPR (values of one GPR
 * group, each in the channel of its position) to (type, base); a component without a value
 * exports `select` (4 = 0.0, 5 = 1.0, 7 = nothing). `done`: EXPORT_DONE, the last export of
 * its type. */
struct ExportOp {
   unsigned type = 0, base = 0;
   std::array<unsigned, 4> values{no_value, no_value, no_value, no_value};
   std::array<uint8_t, 4> select{7, 7, 7, 7};
   bool done = false;
   /* MEM_STREAM0_BUFn (n = stream_buffer) instead of EXPORT: all four values (no selects) in
    * one GPR, the channels of stream_mask written to dwords base + channel of the vertex's
    * record in buffer n (CompileOptions::capture_outputs, transform feedback). */
   bool stream = false;
   uint8_t stream_buffer = 0, stream_mask = 0xf;
};

/* Export types of the CF export word (docs/sim-semantics.md, "Drawing"). */
inline constexpr unsigned export_pixel = 0, export_position = 1, export_parameter = 2;

/* Alu, Fetch, Store and Export are operations; the others mark structured control flow and
 * become CF instructions. Operations are only reordered between two markers. */
/* WaitAck: a memory barrier over storage buffers and images, a WAIT_ACK CF instruction that
 * waits for the acknowledgement of every RAT write before it (each then asks for one: MARK). */
enum class NodeKind : uint8_t { Alu, Fetch, Store, Export, If, Else, EndIf, LoopBegin, LoopEnd, Break, Continue, WaitAck };

inline bool is_marker(NodeKind kind) { return kind >= NodeKind::If; }

struct Node {
   NodeKind kind = NodeKind::Alu;
   AluOp alu;
   FetchOp fetch;
   StoreOp store;
   ExportOp exported;
   /* If: lanes where it is non-zero take the then side. no_value once branch_predicates.cpp
    * has run: the If's predicate is then the PRED_SET* operation just before it. */
   unsigned condition = no_value;
   bool invert = false;           /* If: ... or where it is zero */
   /* Nodes that must be placed in an earlier group or clause: the order of reads and writes of
    * one NIR register (values that live in a fixed place across control flow). */
   std::vector<unsigned> after;
   /* ALU operations that must share one group, each in its slot (SlotRule::Four: CUBE):
    * the same bundle id (>= 0) on each; the slot is the dst value's required channel. */
   int bundle = -1;
   /* A bundle member whose result is not written (INTERP_XY's z and w slots): its slot. */
   int bundle_slot = -1;
};

/* Calls read(v) once per value operand of `node` (a value read twice is visited twice): ALU
 * sources, fetch coordinates and addresses, RAT data and indices, exported components and an
 * If's condition (the only marker that reads a value); never with no_value. The one
 * definition of "what a node reads" for the passes that count reads (dead-operation removal,
 * clamp folding). */
template <typename Visit> void for_each_value_read(const Node &node, Visit &&read)
{
   auto visit = [&](unsigned v) {
      if (v != no_value)
         read(v);
   };
   switch (node.kind) {
   case NodeKind::Alu:
      for (unsigned s = 0; s < node.alu.op->sources; s++)
         if (node.alu.src[s].is_value())
            visit(node.alu.src[s].value);
      break;
   case NodeKind::Fetch:
      for (unsigned v : node.fetch.sources())
         visit(v);
      break;
   case NodeKind::Store:
      for (unsigned v : node.store.sources())
         visit(v);
      break;
   case NodeKind::Export:
      for (unsigned v : node.exported.values)
         visit(v);
      break;
   case NodeKind::If: visit(node.condition); break;
   default: break;
   }
}

struct ValueInfo {
   int fixed_gpr = -1;    /* preloaded values (thread and group ids, what the SPI loads) */
   int fixed_chan = -1;
   int required_chan = -1;
   /* A NIR register or loop flag: written in several places (and possibly read before a write
    * in program order); required_chan set. The allocator places it over its live range. */
   bool whole_program = false;
   int gpr_group = -1;         /* values of one group share a GPR (TEX sources and results) */
};

/* What instruction selection produces. */
struct SelectedProgram {
   hw::IsaClass isa = hw::IsaClass::Evergreen;
   std::vector<ValueInfo> values;
   std::vector<Node> nodes;
   bool uses_push_constants = false, uses_driver_constants = false;
   bool push_constants_fetched = false; /* fetch resource 16 must hold the push constants */
   std::vector<unsigned> rat_slots; /* written through RATs (stores, atomics) */
   std::vector<unsigned> sized_slots; /* storage buffers whose size it reads (OpArrayLength) */
   std::vector<unsigned> resource_size_slots; /* texel buffers and cube arrays whose size it reads */
   std::vector<unsigned> image_rats;  /* RATs written by typed stores (storage images) */
   bool rat_returns = false; /* returning RAT operations (ShaderBinary::rat_returns) */
   /* Pixel shaders that write memory: RAT ids start at rat_base (the colour targets hold
    * CB_COLOR0..rat_base-1) and every MEM_RAT sets VALID_PIXEL_MODE, so that helper and
    * killed pixels write nothing (compiler.cpp, place_pixel_shader_rats). */
   unsigned rat_base = 0;
   bool valid_pixels_only = false;
   /* Uniform buffers read through the constant cache: constant buffer 2 + k is the buffer at
    * fetch slot kcache_slots[k]. */
   std::vector<unsigned> kcache_slots;
   std::vector<SamplerRecord> sampler_records; /* dword offsets filled in by the emitter */
   std::vector<unsigned> texture_resources, samplers;
   unsigned gpr_groups = 0;
   /* Scratch elements (16 bytes) each invocation uses: private arrays placed in the scratch
    * ring (MEM_SCRATCH stores, READ_SCRATCH fetches). */
   unsigned scratch_elements = 0;
   GraphicsInterface graphics; /* vertex and pixel shaders: what the driver programs */

   unsigned new_value(int required_chan = -1)
   {
      values.push_back({});
      values.back().required_chan = required_chan;
      return unsigned(values.size() - 1);
   }
};

/* ---- after scheduling ---- */

struct ScheduledAlu {
   AluOp op;
   int slot = -1;     /* 0-3 vector x..w, 4 t; for Cayman replicated ops: the first copy's slot */
   unsigned copies = 1; /* Cayman replicated: 3 or 4 */
};

struct ScheduledGroup {
   std::vector<ScheduledAlu> ops;
   std::vector<uint32_t> literals; /* distinct literal values, in channel order */
};

enum class ClauseKind : uint8_t { Alu, Fetch, Store, Export, Marker };

/* A kcache set of an ALU clause: constant buffer `bank`, lines `line` and `line + 1` (16
 * constants = 64 dwords each; KCACHE_MODE LOCK_2, KCACHE_ADDR = line). */
struct KcacheSet {
   unsigned bank = 0, line = 0;
   bool operator==(const KcacheSet &) const = default;
};
inline constexpr unsigned kcache_line_dwords = 64;
inline constexpr unsigned max_kcache_sets = 2; /* without ALU_EXTENDED */

/* The sets that lock every (bank, line) of `lines`: per bank, from the lowest line up, a set
 * covers that line and the next. False if more than max_kcache_sets are needed. */
inline bool cover_kcache_lines(const std::set<std::pair<unsigned, unsigned>> &lines, std::vector<KcacheSet> &sets)
{
   sets.clear();
   for (const auto &[bank, line] : lines) {
      if (!sets.empty() && sets.back().bank == bank && line <= sets.back().line + 1)
         continue;
      sets.push_back({bank, line});
   }
   return sets.size() <= max_kcache_sets;
}

struct Clause {
   ClauseKind kind = ClauseKind::Alu;
   NodeKind marker = NodeKind::Alu;    /* Marker */
   unsigned condition = no_value;      /* Marker If; no_value: its predicate ends the ALU clause before it */
   bool invert = false;
   std::vector<ScheduledGroup> groups; /* Alu */
   std::vector<FetchOp> fetches;       /* Fetch */
   StoreOp store;                      /* Store: one CF instruction */
   ExportOp exported;                  /* Export: one CF instruction */
   std::vector<KcacheSet> kcache; /* Alu: the kcache sets its CF_ALU locks (at most two) */
};

struct ScheduledProgram {
   hw::IsaClass isa = hw::IsaClass::Evergreen;
   std::vector<Clause> clauses;
};

/* ---- after register allocation ---- */

struct Location {
   unsigned gpr = 0, chan = 0;
};

struct Allocation {
   std::vector<Location> location; /* per value */
   unsigned gprs = 0;
   /* Scratch elements (16 bytes) per invocation: the program's private arrays, then the
    * spilled values' elements (spill.cpp); ARRAY_SIZE and the ring's ITEMSIZE. */
   unsigned scratch_elements = 0;
   unsigned spilled_values = 0;
};

bool schedule_program(const SelectedProgram &selected, ScheduledProgram &scheduled,
                      std::string &error);
bool allocate_registers(const SelectedProgram &selected, ScheduledProgram &scheduled,
                        Allocation &allocation, std::string &error);

} // namespace terakan::compiler
