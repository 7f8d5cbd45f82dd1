/* Instruction selection: scalar NIR (nir_frontend.cpp) -> the backend IR (backend_ir.h).
 * Every NIR operation this file does not know is refused with its name; nothing is guessed. */
#include "select.h"
#include "branch_predicates.h"
#include "clamp_folding.h"
#include "select_graphics.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <string_view>
#include <tuple>
#include <memory>
#include <set>
#include <numbers>

#include "compiler/isa/words.h"
#include "compiler/nir/nir.h"
#include <vulkan/vulkan_core.h>

namespace terakan::compiler {

Operand Operand::literal(uint32_t bits)
{
   switch (bits) {
   case 0: return {OperandKind::Inline, isa::src_sel::zero};
   case 0x3f800000: return {OperandKind::Inline, isa::src_sel::one};
   case 1: return {OperandKind::Inline, isa::src_sel::one_int};
   case 0xffffffff: return {OperandKind::Inline, isa::src_sel::minus_one_int};
   case 0x3f000000: return {OperandKind::Inline, isa::src_sel::half};
   default: return {OperandKind::Literal, bits};
   }
}

namespace {

/* After nodes were dropped or reordered: `moved[old index]` is the new index (-1: gone). */
void renumber_order(std::vector<Node> &nodes, const std::vector<int> &moved)
{
   for (Node &node : nodes) {
      std::vector<unsigned> after;
      for (unsigned before : node.after)
         if (moved[before] >= 0)
            after.push_back(unsigned(moved[before]));
      node.after = std::move(after);
   }
}

uint32_t float_bits(float x)
{
   uint32_t v;
   std::memcpy(&v, &x, 4);
   return v;
}

const isa::AluOpInfo &op_named(const char *name)
{
   const isa::AluOpInfo *op = isa::find_alu_op(name);
   if (!op)
      std::abort(); /* a typo in this file's tables, caught by every test */
   return *op;
}

/* Workgroups per dispatch dimension at most: the driver's maxComputeWorkGroupCount (the Vulkan
 * minimum, 65535), so workgroup ids are below it. Used only to bound address arithmetic. */
constexpr uint64_t max_workgroup_count = 65535;

/* NIR ALU operations that map to one TeraScale instruction. `swap`: operands reversed (the
 * hardware only has greater-than comparisons). */
struct DirectOp {
   nir_op nir;
   const char *name;
   bool swap = false;
};

constexpr DirectOp direct_ops[] = {
   {nir_op_fadd, "ADD"},           {nir_op_fmul, "MUL_IEEE"},
   {nir_op_ffma, "MULADD_IEEE"},   /* only from nir_opt_algebraic_late's fusion (fuse_ffma32) */
   {nir_op_fmin, "MIN_DX10"},      {nir_op_fmax, "MAX_DX10"},
   {nir_op_ffloor, "FLOOR"},       {nir_op_fceil, "CEIL"},
   {nir_op_ftrunc, "TRUNC"},       {nir_op_ffract, "FRACT"},
   {nir_op_fround_even, "RNDNE"},  {nir_op_frcp, "RECIP_IEEE"},
   {nir_op_frsq, "RECIPSQRT_IEEE"}, {nir_op_fsqrt, "SQRT_IEEE"},
   {nir_op_fexp2, "EXP_IEEE"},     {nir_op_flog2, "LOG_IEEE"},
   {nir_op_feq32, "SETE_DX10"},    {nir_op_fneu32, "SETNE_DX10"},
   {nir_op_flt32, "SETGT_DX10", true}, {nir_op_fge32, "SETGE_DX10"},
   {nir_op_ieq32, "SETE_INT"},     {nir_op_ine32, "SETNE_INT"},
   {nir_op_ilt32, "SETGT_INT", true}, {nir_op_ige32, "SETGE_INT"},
   {nir_op_ult32, "SETGT_UINT", true}, {nir_op_uge32, "SETGE_UINT"},
   {nir_op_iadd, "ADD_INT"},       {nir_op_isub, "SUB_INT"},
   {nir_op_imul, "MULLO_INT"},     {nir_op_umul_high, "MULHI_UINT"},
   {nir_op_imul_high, "MULHI_INT"},
   {nir_op_iand, "AND_INT"},       {nir_op_ior, "OR_INT"},
   {nir_op_ixor, "XOR_INT"},       {nir_op_inot, "NOT_INT"},
   {nir_op_ishl, "LSHL_INT"},      {nir_op_ishr, "ASHR_INT"},
   {nir_op_ushr, "LSHR_INT"},      {nir_op_imin, "MIN_INT"},
   {nir_op_imax, "MAX_INT"},       {nir_op_umin, "MIN_UINT"},
   {nir_op_umax, "MAX_UINT"},      {nir_op_bit_count, "BCNT_INT"},
   {nir_op_bitfield_reverse, "BFREV_INT"},
   {nir_op_find_lsb, "FFBL_INT"},   {nir_op_bitfield_select, "BFI_INT"},
   {nir_op_ubfe, "BFE_UINT"},      {nir_op_ibfe, "BFE_INT"},
   {nir_op_bfm, "BFM_INT"},
   {nir_op_f2i32, "FLT_TO_INT"},   {nir_op_f2u32, "FLT_TO_UINT"},
   {nir_op_i2f32, "INT_TO_FLT"},   {nir_op_u2f32, "UINT_TO_FLT"},
};

class Selector : public SelectionContext {
public:
   Selector(nir_shader *shader, hw::IsaClass isa, const CompileOptions &options, SelectedProgram &out,
            std::string &error)
      : shader(shader), buffer_bindings(options.buffer_bindings),
        robust_buffer_access(options.robust_buffer_access), out(out), error(error)
   {
      out.isa = isa;
      if (shader->info.stage != MESA_SHADER_COMPUTE)
         graphics = std::make_unique<GraphicsSelector>(shader, options, out, *this);
   }

   bool run()
   {
      if (graphics) {
         if (!graphics->begin())
            return false;
      } else {
         /* The thread ids arrive in R0.xyz, the group ids in R1.xyz (SPI_COMPUTE_INPUT_CNTL). */
         for (unsigned c = 0; c < 3; c++) {
            local_id[c] = preloaded(0, c);
            group_id[c] = preloaded(1, c);
         }
      }
      nir_function_impl *impl = nir_shader_get_entrypoint(shader);
      if (!impl) {
         error = "the module has no entry point body";
         return false;
      }
      if (!size_scratch())
         return false;
      /* The return index of RAT returns is computed once, at the top, as r600g does: it then
       * dominates every returning operation, in branches and loops alike. */
      const bool returns_allowed = !graphics || shader->info.stage == MESA_SHADER_FRAGMENT;
      if (returns_allowed && has_returning_atomics(impl) && !compute_rat_return_index())
         return false;
      if (!select_cf_list(&impl->body))
         return false;
      /* The exports go at the end, before the loop lowering renumbers the nodes. */
      if (graphics && !graphics->finish())
         return false;
      return true;
   }

   /* SelectionContext, for the graphics selection. */
   bool context_operand(const nir_src &src, unsigned component, Operand &result) override
   {
      return operand(src, component, result);
   }
   unsigned context_emit(const char *name, std::initializer_list<Operand> sources, int chan) override
   {
      return emit(name, sources, chan);
   }
   unsigned context_add_node(const Node &node) override
   {
      out.nodes.push_back(node);
      note_accesses(unsigned(out.nodes.size() - 1));
      return unsigned(out.nodes.size() - 1);
   }
   bool context_fail(const std::string &message) override { return fail(message); }
   unsigned context_depth() const override { return depth; }
   unsigned context_preloaded(unsigned gpr, unsigned chan) override { return preloaded(gpr, chan); }
   bool context_is_register(unsigned value) const override { return is_register(value); }
   unsigned context_new_register() override { return new_register(); }

private:
   std::unique_ptr<GraphicsSelector> graphics;
   bool started = false; /* the function body's list was entered */
   unsigned depth = 0; /* if/loop levels around the instruction being selected */

   bool select_cf_list(exec_list *list)
   {
      /* Only called for the bodies of ifs and loops, and for the function body (depth 0). */
      struct Level {
         unsigned &depth;
         bool counted;
         Level(unsigned &d, bool c) : depth(d), counted(c) { depth += counted; }
         ~Level() { depth -= counted; }
      } level(depth, started);
      started = true;
      return select_cf_range(exec_list_is_empty(list) ? nullptr
                                                      : exec_node_data(nir_cf_node, exec_list_get_head(list), node));
   }

   /* Selects `first` and the nodes after it in its list.
    *
    * A break or continue becomes a LOOP_BREAK or LOOP_CONTINUE where it stands, with the rest
    * of the loop body after its branch, as r600g compiles `if (c) break;` (ALU_PUSH_BEFORE,
    * JUMP, LOOP_BREAK, POP, then the body goes on): the lanes that did not take the branch run
    * the rest of their iteration (docs/sim-semantics.md, LOOP_BREAK; r600g's
    * `loop_divergent_breaks` GL scene checks the simulator on it). */
   bool select_cf_range(nir_cf_node *first)
   {
      for (nir_cf_node *node = first; node; node = nir_cf_node_next(node)) {
         switch (node->type) {
         case nir_cf_node_block:
            nir_foreach_instr(instr, nir_cf_node_as_block(node)) {
               if (!select_instr(instr))
                  return false;
            }
            break;
         case nir_cf_node_if: {
            nir_if *branch = nir_cf_node_as_if(node);
            unsigned condition;
            if (!value_operand(branch->condition, 0, condition))
               return false;
            marker(NodeKind::If).condition = condition;
            note_accesses(unsigned(out.nodes.size() - 1));
            if (!select_cf_list(&branch->then_list))
               return false;
            const bool has_else = !(exec_list_is_singular(&branch->else_list) &&
                                    exec_list_is_empty(&nir_if_first_else_block(branch)->instr_list));
            if (has_else) {
               marker(NodeKind::Else);
               if (!select_cf_list(&branch->else_list))
                  return false;
            }
            marker(NodeKind::EndIf);
            break;
         }
         case nir_cf_node_loop:
            marker(NodeKind::LoopBegin);
            if (!select_cf_list(&nir_cf_node_as_loop(node)->body))
               return false;
            marker(NodeKind::LoopEnd);
            break;
         default:
            return fail("unexpected NIR control-flow node");
         }
      }
      return true;
   }

   /* A WAIT_ACK, unless one ends the program so far (SPIR-V barriers often arrive as several
    * NIR memory barriers in a row). */
   void wait_for_acknowledgements()
   {
      if (out.nodes.empty() || out.nodes.back().kind != NodeKind::WaitAck)
         marker(NodeKind::WaitAck);
   }

   Node &marker(NodeKind kind)
   {
      Node node;
      node.kind = kind;
      out.nodes.push_back(node);
      return out.nodes.back();
   }

   /* NIR registers (phis after nir_convert_from_ssa) and loop flags: values written in several
    * places, each with a fixed channel (x, y, z, w in turn); the allocator gives each a GPR
    * over its live range (regalloc.cpp). */
   std::map<unsigned, unsigned> registers;
   struct RegisterAccess {
      int last_write = -1;
      std::vector<unsigned> reads_since;
   };
   std::map<unsigned, RegisterAccess> register_access; /* by value id */

   unsigned register_value(const nir_register *reg)
   {
      const auto found = registers.find(reg->index);
      if (found != registers.end())
         return found->second;
      const unsigned slot = unsigned(registers.size());
      const unsigned id = out.new_value(int(slot % 4));
      out.values[id].whole_program = true;
      registers[reg->index] = id;
      return id;
   }

   bool is_register(unsigned value) const { return out.values[value].whole_program; }

   /* A register of the selection's own (not a NIR register), written in several places: the
    * graphics selection's helper-invocation flag. */
   unsigned new_register()
   {
      const unsigned slot = unsigned(registers.size());
      registers[0x40000000u + slot] = 0;
      const unsigned id = out.new_value(int(slot % 4));
      out.values[id].whole_program = true;
      registers[0x40000000u + slot] = id;
      return id;
   }


   /* Orders node `index` after the accesses of the registers it reads or writes. */
   void note_accesses(unsigned index)
   {
      Node &node = out.nodes[index];
      std::vector<unsigned> reads, writes;
      auto read = [&](unsigned v) { if (v != no_value && is_register(v)) reads.push_back(v); };
      switch (node.kind) {
      case NodeKind::Alu:
         for (unsigned i = 0; i < node.alu.op->sources; i++)
            if (node.alu.src[i].is_value())
               read(node.alu.src[i].value);
         if (node.alu.dst != no_value && is_register(node.alu.dst))
            writes.push_back(node.alu.dst);
         break;
      case NodeKind::Fetch:
         for (unsigned v : node.fetch.sources())
            read(v);
         break;
      case NodeKind::Store:
         for (unsigned v : node.store.sources())
            read(v);
         /* A pixel shader's memory write comes after every KILL before it: killed lanes must
          * not write (VALID_PIXEL_MODE drops them only once the KILL has run). */
         if (graphics)
            node.after.insert(node.after.end(), graphics->kill_nodes().begin(), graphics->kill_nodes().end());
         break;
      case NodeKind::If: read(node.condition); break;
      default: break;
      }
      for (unsigned v : reads) {
         RegisterAccess &access = register_access[v];
         if (access.last_write >= 0)
            node.after.push_back(unsigned(access.last_write));
         access.reads_since.push_back(index);
      }
      for (unsigned v : writes) {
         RegisterAccess &access = register_access[v];
         if (access.last_write >= 0)
            node.after.push_back(unsigned(access.last_write));
         for (unsigned r : access.reads_since)
            if (r != index)
               node.after.push_back(r);
         access.reads_since.clear();
         access.last_write = int(index);
      }
   }

   nir_shader *shader;
   const std::vector<BufferBinding> &buffer_bindings;
   const bool robust_buffer_access;
   SelectedProgram &out;
   std::string &error;
   std::array<unsigned, 3> local_id{}, group_id{};
   int last_return_fetch = -1; /* the node fetching the latest RAT return */
   /* Per SSA def: one operand per component. */
   std::map<unsigned, std::vector<Operand>> defs;
   /* quarter_offset's results: (block, SSA index, component) -> the value / 4. */
   std::map<std::tuple<const nir_block *, unsigned, unsigned>, Operand> quarters;
   /* constant_address: (block, address bits) -> (value, index of its MOV node) */
   std::map<std::pair<const nir_block *, uint32_t>, std::pair<unsigned, size_t>> constant_addresses;

   bool fail(const std::string &message)
   {
      error = message;
      return false;
   }

   unsigned preloaded(unsigned gpr, unsigned chan)
   {
      const unsigned id = out.new_value();
      out.values[id].fixed_gpr = int(gpr);
      out.values[id].fixed_chan = int(chan);
      return id;
   }

   /* Shared-memory operations and barriers keep their program order. */
   int last_ordered_memory = -1;

   unsigned emit_ordered(const char *name, std::initializer_list<Operand> sources, bool returns)
   {
      Node node;
      node.kind = NodeKind::Alu;
      node.alu.op = &op_named(name);
      node.alu.dst = returns ? out.new_value() : no_value;
      unsigned i = 0;
      for (Operand s : sources) {
         if (s.neg || s.abs)
            s = Operand::of_value(emit("MOV", {s}));
         node.alu.src[i++] = s;
      }
      if (last_ordered_memory >= 0)
         node.after.push_back(unsigned(last_ordered_memory));
      out.nodes.push_back(node);
      last_ordered_memory = int(out.nodes.size() - 1);
      note_accesses(unsigned(out.nodes.size() - 1));
      return node.alu.dst;
   }

   /* Operations whose operands may carry the float negate and absolute-value modifiers (sign
    * bit operations; OP3 encodings have no absolute value). Integer operations get a MOV that
    * applies the modifier first. */
   static bool takes_float_modifiers(const isa::AluOpInfo &op, unsigned source, bool abs)
   {
      static const std::set<std::string_view> float_ops = {
         "ADD", "MUL", "MUL_IEEE", "MAX", "MIN", "MAX_DX10", "MIN_DX10", "SETE_DX10",
         "SETGT_DX10", "SETGE_DX10", "SETNE_DX10", "FRACT", "TRUNC", "CEIL", "RNDNE", "FLOOR",
         "MOV", "EXP_IEEE", "LOG_IEEE", "RECIP_IEEE", "RECIPSQRT_IEEE", "SQRT_IEEE", "SIN", "COS",
         "FLT_TO_INT", "FLT_TO_UINT", "DOT4_IEEE", "MULADD_IEEE", /* OP3: negate only */
      };
      return float_ops.count(op.name) && !(abs && (source >= 2 || op.encoding != isa::AluEncoding::Op2));
   }

   unsigned emit(const char *name, std::initializer_list<Operand> sources, int chan = -1)
   {
      Node node;
      node.kind = NodeKind::Alu;
      node.alu.op = &op_named(name);
      unsigned i = 0;
      /* A group reads at most two kcache (constant, half) pairs, and a clause locks two sets:
       * kcache operands beyond those are moved into registers first. */
      std::set<std::pair<unsigned, unsigned>> pairs, lines;
      for (Operand s : sources) {
         if ((s.neg || s.abs) && !takes_float_modifiers(*node.alu.op, i, s.abs))
            s = Operand::of_value(emit("MOV", {s}));
         if (s.kind == OperandKind::Kcache) {
            auto more_pairs = pairs, more_lines = lines;
            more_pairs.insert({s.bank * 4096 + s.value / 4, (s.value % 4) / 2});
            more_lines.insert({s.bank, s.value / kcache_line_dwords});
            std::vector<KcacheSet> sets;
            if (more_pairs.size() > 2 || !cover_kcache_lines(more_lines, sets)) {
               Operand plain = s;
               plain.neg = plain.abs = false;
               Operand moved = Operand::of_value(emit("MOV", {plain}));
               moved.neg = s.neg;
               moved.abs = s.abs;
               s = moved;
            } else {
               pairs = more_pairs;
               lines = more_lines;
            }
         }
         node.alu.src[i++] = s;
      }
      node.alu.dst = out.new_value(chan);
      out.nodes.push_back(node);
      note_accesses(unsigned(out.nodes.size() - 1));
      return node.alu.dst;
   }

   bool operand(const nir_src &src, unsigned component, Operand &result)
   {
      if (!src.is_ssa) {
         if (src.reg.indirect || src.reg.reg->num_components != 1 || src.reg.reg->bit_size != 32 ||
             src.reg.reg->num_array_elems)
            return fail("only scalar 32-bit NIR registers are supported");
         result = Operand::of_value(register_value(src.reg.reg));
         return true;
      }
      const auto found = defs.find(src.ssa->index);
      if (found == defs.end() || component >= found->second.size())
         return fail("internal: an SSA value is used before the compiler gave it a register");
      result = found->second[component];
      return true;
   }

   /* An operand as a value (constants are moved into a register first). */
   bool value_operand(const nir_src &src, unsigned component, unsigned &value)
   {
      Operand o;
      if (!operand(src, component, o))
         return false;
      value = o.is_value() && !o.neg && !o.abs ? o.value : emit("MOV", {o});
      return true;
   }

   bool check_def(const nir_ssa_def &def)
   {
      if (def.bit_size != 32)
         return fail("only 32-bit values are supported; the shader uses a " +
                     std::to_string(def.bit_size) + "-bit value");
      return true;
   }

   bool select_instr(nir_instr *instr)
   {
      switch (instr->type) {
      case nir_instr_type_alu:
         return select_alu(nir_instr_as_alu(instr));
      case nir_instr_type_load_const: {
         nir_load_const_instr *load = nir_instr_as_load_const(instr);
         if (!check_def(load->def))
            return false;
         auto &ops = defs[load->def.index];
         for (unsigned c = 0; c < load->def.num_components; c++)
            ops.push_back(Operand::literal(load->value[c].u32));
         return true;
      }
      case nir_instr_type_ssa_undef: {
         nir_ssa_undef_instr *undef = nir_instr_as_ssa_undef(instr);
         auto &ops = defs[undef->def.index];
         for (unsigned c = 0; c < undef->def.num_components; c++)
            ops.push_back(Operand::literal(0));
         return true;
      }
      case nir_instr_type_intrinsic:
         return select_intrinsic(nir_instr_as_intrinsic(instr));
      case nir_instr_type_jump:
         switch (nir_instr_as_jump(instr)->type) {
         case nir_jump_break: marker(NodeKind::Break); return true;
         case nir_jump_continue: marker(NodeKind::Continue); return true;
         default:
            return fail("this kind of jump (return or halt left after nir_lower_returns) is not "
                        "supported by the compiler");
         }
      case nir_instr_type_phi:
         return fail("internal: phi left after leaving SSA");
      case nir_instr_type_deref: {
         const nir_deref_instr *deref = nir_instr_as_deref(instr);
         if (deref->modes & nir_var_image)
            return fail("storage images are not supported by the compiler yet");
         if (deref->modes & nir_var_uniform)
            return fail("internal: an image or sampler left after texture lowering");
         return fail("local arrays indexed at run time (variables that stay in memory) are not "
                     "supported by the compiler yet");
      }
      case nir_instr_type_tex:
         return select_tex(nir_instr_as_tex(instr));
      default:
         return fail(std::string("NIR instruction type ") + std::to_string(instr->type) +
                     " is not supported by the compiler yet");
      }
   }

   /* A sample, texel load or size query: one TEX instruction reading its coordinates from one
    * GPR (x, y, z as the dimension needs; the array layer after the coordinates; the LOD in w)
    * and writing its results to one GPR. texture_lowering.cpp named the slots and chose the
    * coordinate type (the backend1 source). */
   bool select_tex(nir_tex_instr *tex)
   {
      if (!tex->dest.is_ssa)
         return fail("internal: a texture result in a NIR register");
      if (!check_def(tex->dest.ssa))
         return false;
      const char *name = nullptr;
      switch (tex->op) {
      case nir_texop_txl: name = "SAMPLE_L"; break;
      case nir_texop_txf: name = "LD"; break;
      case nir_texop_txs:
      case nir_texop_query_levels: name = "GET_TEXTURE_RESINFO"; break;
      /* Multisampled images (texelFetch of a sampler2DMS, textureSamples): nir_lower_tex made a
       * txf_ms the FMASK fetch (LDFPTR, LD with INST_MOD 1: each sample's fragment in a
       * nibble) and an LD of the fragment the sample's nibble names, in w, as Mesa's r600
       * reads them (r600_shader.c tgsi_tex, sfn lower_txf_ms); textureSamples is
       * GET_NUMBER_OF_SAMPLES, the count in w (r600g's TXQS). */
      case nir_texop_fragment_fetch_amd: name = "LD"; break;
      case nir_texop_fragment_mask_fetch_amd: name = "LDFPTR"; break;
      case nir_texop_texture_samples: name = "GET_NUMBER_OF_SAMPLES"; break;
      case nir_texop_tex:
      case nir_texop_txb:
         /* Implicit level of detail: the texture unit takes it from the quad's coordinates. */
         if (shader->info.stage != MESA_SHADER_FRAGMENT)
            return fail("sampling with an implicit level of detail needs derivatives, which only "
                        "pixel shaders have");
         name = tex->op == nir_texop_tex ? "SAMPLE" : "SAMPLE_LB";
         break;
      case nir_texop_tg4:
         /* textureGather: the four texels of the bilinear footprint at the base level;
          * texture_unit.cpp (run_gather) has the rules and sources. */
         name = "GATHER4";
         break;
      case nir_texop_txd:
         /* textureGrad: SAMPLE_G, its gradients set by SET_GRADIENTS_H/V just before it (the
          * scheduler places them); any stage, since no quad is needed. */
         name = "SAMPLE_G";
         break;
      case nir_texop_lod:
         /* textureQueryLod: GET_LOD, the level of detail the texture unit takes from the quad's
          * coordinates; the accessed level arrives in y, the computed one in x (r600g's
          * swizzle; texture_unit.cpp, run_get_lod). Needs the quad, like texture(). */
         if (shader->info.stage != MESA_SHADER_FRAGMENT)
            return fail("textureQueryLod needs derivatives, which only pixel shaders have");
         name = "GET_LOD";
         break;
      default:
         return fail("texture operation " + std::to_string(tex->op) +
                     " (nir_texop) is not supported by the compiler yet");
      }
      if (tex->op == nir_texop_txd && tex->sampler_dim == GLSL_SAMPLER_DIM_CUBE)
         return fail("internal: textureGrad on a cube left after nir_lower_tex (lower_txd_cube_map)");
      if (tex->op == nir_texop_tg4 && tex->sampler_dim != GLSL_SAMPLER_DIM_2D &&
          tex->sampler_dim != GLSL_SAMPLER_DIM_CUBE)
         return fail("textureGather is supported on 2D, 2D array, cube and cube array images only");
      /* r600g gathers from cubes with the face coordinates (sfn r600_nir_lower_cube_to_2darray)
       * but never moves integer cube gathers by the half texel 2D ones need
       * (gather_lowering.cpp), so where the texture unit puts their footprint is not known. */
      if (tex->op == nir_texop_tg4 && tex->sampler_dim == GLSL_SAMPLER_DIM_CUBE &&
          nir_alu_type_get_base_type(tex->dest_type) != nir_type_float)
         return fail("textureGather of integer cube images is not supported (the texture unit's footprint "
                     "there is not known)");
      switch (tex->sampler_dim) {
      case GLSL_SAMPLER_DIM_1D:
      case GLSL_SAMPLER_DIM_2D:
      case GLSL_SAMPLER_DIM_3D:
         break;
      case GLSL_SAMPLER_DIM_CUBE:
         /* texture() and its biased form: SAMPLE/SAMPLE_LB with the face coordinates, the texture
          * unit taking the LOD from their differences across the quad, as Mesa's r600 feeds
          * cubes (sfn r600_nir_lower_cube_to_2darray keeps tex and txb). */
         if (tex->op != nir_texop_txl && tex->op != nir_texop_txs && tex->op != nir_texop_query_levels &&
             tex->op != nir_texop_tex && tex->op != nir_texop_txb && tex->op != nir_texop_lod &&
             tex->op != nir_texop_tg4)
            return fail("only texture, textureLod, textureGrad, textureGather, textureSize, textureQueryLevels "
                        "and textureQueryLod are supported on cube images");
         break;
      case GLSL_SAMPLER_DIM_BUF:
         if (tex->op == nir_texop_txs)
            return select_texel_buffer_size(tex);
         if (tex->op != nir_texop_txf)
            return fail("only texelFetch and textureSize are supported on texel buffers");
         break;
      case GLSL_SAMPLER_DIM_MS:
         if (tex->op != nir_texop_fragment_fetch_amd && tex->op != nir_texop_fragment_mask_fetch_amd &&
             tex->op != nir_texop_txs && tex->op != nir_texop_texture_samples)
            return fail("only texelFetch, textureSize and textureSamples are supported on multisampled images");
         break;
      default:
         return fail("this image dimension is not supported by the compiler yet");
      }

      unsigned mode = 0;
      int coord = -1, lod = -1, comparator = -1, offset = -1, ms_index = -1, ddx = -1, ddy = -1;
      for (unsigned i = 0; i < tex->num_srcs; i++) {
         switch (tex->src[i].src_type) {
         case nir_tex_src_coord: coord = int(i); break;
         case nir_tex_src_comparator: comparator = int(i); break;
         case nir_tex_src_lod:
         case nir_tex_src_bias: lod = int(i); break;
         case nir_tex_src_ms_index: ms_index = int(i); break;
         case nir_tex_src_ddx: ddx = int(i); break;
         case nir_tex_src_ddy: ddy = int(i); break;
         case nir_tex_src_backend1:
            if (!nir_src_is_const(tex->src[i].src))
               return fail("internal: a run-time coordinate choice");
            mode = unsigned(nir_src_as_uint(tex->src[i].src));
            break;
         case nir_tex_src_offset:
            /* textureOffset, texelFetchOffset and friends: constant offsets only (SPIR-V's
             * ConstOffset; run-time offsets would need the _O instructions). */
            if (!nir_src_is_const(tex->src[i].src))
               return fail("texel offsets that are not constants are not supported by the compiler");
            offset = int(i);
            break;
         default:
            return fail(std::string("a texture operation source of type ") +
                        std::to_string(tex->src[i].src_type) + " is not supported by the compiler yet");
         }
      }

      /* Depth comparison: the SAMPLE_C forms, the reference in w, or in z when w holds the LOD
       * or bias (SAMPLE_C_L, SAMPLE_C_LB). */
      int reference_channel = -1;
      bool lod_given = lod >= 0; /* false for SAMPLE_C_LZ, whose constant 0 is implied */
      /* Size and level-of-detail queries of a depth-comparison image compare nothing. */
      if (tex->is_shadow && tex->op != nir_texop_lod && tex->op != nir_texop_txs &&
          tex->op != nir_texop_query_levels) {
         if (comparator < 0)
            return fail("internal: a depth-comparison sample without its reference");
         if (!select_comparison(tex, lod, name, reference_channel, lod_given))
            return false;
      }

      TextureFetch fetch;
      /* A texel buffer is a VFETCH of element `coordinate` through the resource's format
       * (USE_CONST_FIELDS): the driver binds a fetch resource with the view's format. */
      if (tex->sampler_dim == GLSL_SAMPLER_DIM_BUF)
         name = "VFETCH";
      fetch.op = isa::find_fetch_op(name);
      fetch.resource = tex->texture_index;
      fetch.sampler = tex->sampler_index;
      if (offset >= 0) {
         if (tex->sampler_dim == GLSL_SAMPLER_DIM_CUBE || tex->sampler_dim == GLSL_SAMPLER_DIM_BUF)
            return fail("texel offsets on cubes or texel buffers do not exist");
         /* In half texels (the fields' unit: Mesa r600 shifts offsets left by one); the
          * advertised range, -8..7 texels, fits the 5-bit fields. The array layer takes none. */
         const unsigned components = tex->coord_components - (tex->is_array ? 1 : 0);
         for (unsigned c = 0; c < components && c < 3; c++) {
            const int64_t texels = nir_src_comp_as_int(tex->src[offset].src, c);
            if (texels < -8 || texels > 7)
               return fail("texel offset " + std::to_string(texels) + " is outside -8..7 (minTexelOffset, maxTexelOffset)");
            fetch.offset_halves[c] = 2 * int(texels);
         }
      }
      const bool sample = tex->op == nir_texop_txl || tex->op == nir_texop_tex || tex->op == nir_texop_txb ||
                          tex->op == nir_texop_tg4 || tex->op == nir_texop_txd || tex->op == nir_texop_lod;
      if (tex->op == nir_texop_tg4)
         fetch.gather_component = int(tex->component);
      const unsigned sources_group = out.gpr_groups++;
      auto put = [&](unsigned channel, Operand value) {
         const unsigned v = emit("MOV", {value}, int(channel));
         out.values[v].gpr_group = int(sources_group);
         fetch.coords[channel] = v;
      };
      if (coord >= 0 && tex->sampler_dim == GLSL_SAMPLER_DIM_CUBE) {
         std::array<Operand, 3> direction;
         for (unsigned c = 0; c < 3; c++)
            if (!operand(tex->src[coord].src, c, direction[c]))
               return false;
         const std::array<unsigned, 4> cube = emit_cube(direction);
         /* Face coordinates in [1, 2] (sc or tc / |ma| + 1.5), the face in z: what the
          * texture unit takes for a cube (as Mesa's r600 and LLVM's R600 backend feed it). */
         const Operand rcp = Operand::of_value(emit("RECIP_IEEE", {Operand{OperandKind::Value, cube[2], 0, false, true}}));
         put(0, Operand::of_value(emit("MULADD_IEEE", {Operand::of_value(cube[1]), rcp, Operand::literal(float_bits(1.5f))})));
         put(1, Operand::of_value(emit("MULADD_IEEE", {Operand::of_value(cube[0]), rcp, Operand::literal(float_bits(1.5f))})));
         if (tex->is_array && tex->op != nir_texop_lod) {
            /* A cube array: z = face + 8 * the cube's index, the layer rounded to the nearest
             * integer (Vulkan's rule) and kept non-negative (Mesa's r600 lowering and LLVM's
             * R600 backend feed cube arrays this way; the simulator clamps the index to the
             * view's cubes like an array layer). */
            Operand layer;
            if (!operand(tex->src[coord].src, 3, layer))
               return false;
            const Operand rounded = Operand::of_value(emit("RNDNE", {layer}));
            const Operand index = Operand::of_value(emit("MAX", {rounded, Operand::literal(float_bits(0.0f))}));
            put(2, Operand::of_value(
                      emit("MULADD_IEEE", {index, Operand::literal(float_bits(8.0f)), Operand::of_value(cube[3])})));
         } else {
            put(2, Operand::of_value(cube[3]));
         }
         fetch.normalized = {true, true, false, false};
      } else if (coord >= 0) {
         for (unsigned c = 0; c < tex->coord_components; c++) {
            Operand o;
            if (!operand(tex->src[coord].src, c, o))
               return false;
            /* textureQueryLod's coordinates have no layer (SPIR-V's OpImageQueryLod). */
            const bool layer = tex->is_array && c == tex->coord_components - 1 && tex->op != nir_texop_lod;
            /* The layer is the nearest integer (Vulkan's rule); it is given unnormalized. */
            if (layer && sample)
               o = Operand::of_value(emit("RNDNE", {o}));
            put(c, o);
            fetch.normalized[c] = sample && !layer && mode != 1;
         }
      }
      if (reference_channel >= 0) {
         Operand o;
         if (!operand(tex->src[comparator].src, 0, o))
            return false;
         put(unsigned(reference_channel), o);
      }
      if (lod_given) {
         Operand o;
         if (!operand(tex->src[lod].src, 0, o))
            return false;
         put(tex->op == nir_texop_txs ? 0 : 3, o);
      } else if (tex->op == nir_texop_txs || tex->op == nir_texop_query_levels ||
                 tex->op == nir_texop_texture_samples) {
         put(0, Operand::literal(0));
      }
      if (ddx >= 0 && ddy >= 0) {
         /* The gradients, one GPR each, in the channels of the coordinates they belong to. */
         for (const auto &[source, gradients] : {std::pair{ddx, &fetch.gradients_h}, std::pair{ddy, &fetch.gradients_v}}) {
            const unsigned group = out.gpr_groups++;
            for (unsigned c = 0; c < nir_src_num_components(tex->src[source].src); c++) {
               Operand o;
               if (!operand(tex->src[source].src, c, o))
                  return false;
               const unsigned v = emit("MOV", {o}, int(c));
               out.values[v].gpr_group = int(group);
               (*gradients)[c] = v;
            }
         }
      } else if (tex->op == nir_texop_txd) {
         return fail("internal: textureGrad without both gradients");
      }
      if (ms_index >= 0) {
         /* The fragment to read, in w (after the FMASK lookup). */
         Operand o;
         if (!operand(tex->src[ms_index].src, 0, o))
            return false;
         put(3, o);
      }
      if (mode >= 2) {
         fetch.record = int(mode - 2);
         if (fetch.record >= int(out.sampler_records.size()))
            return fail("internal: a sample names an unknown sampler record");
      }

      const unsigned results_group = out.gpr_groups++;
      auto &result = defs[tex->dest.ssa.index];
      /* The Evergreen class returns a gather's texels in another order than Cayman (Vulkan's):
       * texel c of the result arrives in channel (1, 2, 0, 3)[c] (texture_unit.cpp, run_gather). */
      const bool evergreen_gather = tex->op == nir_texop_tg4 && out.isa != hw::IsaClass::Cayman;
      for (unsigned c = 0; c < tex->dest.ssa.num_components; c++) {
         if (tex->op == nir_texop_txs && tex->sampler_dim == GLSL_SAMPLER_DIM_CUBE && c == 2) {
            /* A cube array's cube count: from the driver constants, RESINFO's z stays masked. */
            Operand cubes = Operand::literal(0);
            if ((nir_ssa_def_components_read(&tex->dest.ssa) & 0x4) && !resource_size_constant(tex->texture_index, cubes))
               return false;
            result.push_back(cubes);
            continue;
         }
         unsigned channel = tex->op == nir_texop_query_levels || tex->op == nir_texop_texture_samples ? 3 : c;
         if (evergreen_gather)
            channel = std::array<unsigned, 4>{1, 2, 0, 3}[c];
         if (tex->op == nir_texop_lod)
            channel = 1 - c; /* the accessed level in y, the computed level of detail in x */
         const unsigned v = out.new_value(int(channel));
         out.values[v].gpr_group = int(results_group);
         fetch.results[channel] = v;
         result.push_back(Operand::of_value(v));
      }
      note_slot(out.texture_resources, fetch.resource);
      if (sample)
         note_slot(out.samplers, fetch.sampler);

      Node node;
      node.kind = NodeKind::Fetch;
      node.fetch.texture = fetch;
      out.nodes.push_back(node);
      note_accesses(unsigned(out.nodes.size() - 1));
      return true;
   }

   /* The driver constant holding a size of texture resource `resource` that no fetch returns
    * (compiler.h, resource_size_constants: a texel buffer's element count, a cube array's cube
    * count). The resource is still noted, so that the driver knows which descriptor the slot is. */
   bool resource_size_constant(unsigned resource, Operand &constant)
   {
      auto &list = out.resource_size_slots;
      auto found = std::find(list.begin(), list.end(), resource);
      if (found == list.end()) {
         if (list.size() >= max_resource_sizes)
            return fail("textureSize or imageSize of more than " + std::to_string(max_resource_sizes) +
                        " texel buffers or cube arrays in one stage");
         list.push_back(resource);
         found = list.end() - 1;
      }
      note_slot(out.texture_resources, resource);
      out.uses_driver_constants = true;
      constant = Operand::kcache(1, resource_size_constants + unsigned(found - list.begin()));
      return true;
   }

   /* textureSize (imageSize) of a texel buffer: its element count, since no fetch instruction
    * reads a buffer resource's size back. */
   bool select_texel_buffer_size(nir_tex_instr *tex)
   {
      for (unsigned i = 0; i < tex->num_srcs; i++)
         if (tex->src[i].src_type != nir_tex_src_lod && tex->src[i].src_type != nir_tex_src_backend1)
            return fail("internal: textureSize of a texel buffer with a source other than the level");
      Operand elements;
      if (!resource_size_constant(tex->texture_index, elements))
         return false;
      defs[tex->dest.ssa.index].push_back(elements);
      return true;
   }

   /* The SAMPLE_C form of a depth-comparison sample and where its reference goes (Mesa r600
    * sfn TexInstr::prepare_source: w, or z when w carries the LOD or bias). A textureLod of
    * constant 0 is SAMPLE_C_LZ, whose w is free, so it also works where z holds a 2D array's
    * layer or a cube's face; other explicit LODs and biases there would need the reference
    * and the layer in one channel (r600g makes them SAMPLE_C_G with gradients it derives, which this compiler does not do yet). */
   bool select_comparison(nir_tex_instr *tex, int lod, const char *&name, int &reference_channel, bool &lod_given)
   {
      const bool z_taken = (tex->is_array && tex->sampler_dim != GLSL_SAMPLER_DIM_1D) ||
                           tex->sampler_dim == GLSL_SAMPLER_DIM_CUBE;
      if (tex->sampler_dim == GLSL_SAMPLER_DIM_3D || tex->sampler_dim == GLSL_SAMPLER_DIM_BUF)
         return fail("depth comparison on a 3D image or texel buffer does not exist");
      switch (tex->op) {
      case nir_texop_tex:
         name = "SAMPLE_C";
         reference_channel = 3;
         return true;
      case nir_texop_txl:
         if (nir_src_is_const(tex->src[lod].src) && nir_src_as_float(tex->src[lod].src) == 0.0) {
            name = "SAMPLE_C_LZ";
            reference_channel = 3;
            lod_given = false;
            return true;
         }
         if (z_taken)
            return fail("depth comparison with an explicit LOD other than a constant 0 on a 2D array or cube "
                        "is not supported (r600g samples these with SAMPLE_C_G and gradients it derives; not done "
                        "here yet)");
         name = "SAMPLE_C_L";
         reference_channel = 2;
         return true;
      case nir_texop_txb:
         if (z_taken)
            return fail("depth comparison with a LOD bias on a 2D array or cube is not supported (r600g samples "
                        "these with SAMPLE_C_G and gradients it derives; not done here yet)");
         name = "SAMPLE_C_LB";
         reference_channel = 2;
         return true;
      case nir_texop_txd:
         /* SAMPLE_C_G: the reference in w, as for SAMPLE_C (Mesa r600 turns SAMPLE_G into
          * SAMPLE_C_G and its array and cube lowering relies on w being free). */
         name = "SAMPLE_C_G";
         reference_channel = 3;
         return true;
      case nir_texop_tg4:
         /* GATHER4_C: each texel compared with the reference in w (Mesa r600 r600_shader.c
          * tgsi_tex turns GATHER4 into GATHER4_C and puts the reference in w). */
         name = "GATHER4_C";
         reference_channel = 3;
         return true;
      default:
         return fail("this depth-comparison operation (nir_texop " + std::to_string(tex->op) +
                     ") is not supported by the compiler yet");
      }
   }

   /* CUBE in all four slots of one group, reading the direction from one GPR: x = tc,
    * y = sc, z = 2 * major axis, w = face (src0/src1 per slot: z,y / z,x / x,z / y,z). */
   int next_bundle = 0;
   std::array<unsigned, 4> emit_cube(const std::array<Operand, 3> &direction)
   {
      const unsigned group = out.gpr_groups++;
      std::array<Operand, 3> in;
      for (unsigned c = 0; c < 3; c++) {
         const unsigned v = emit("MOV", {direction[c]}, int(c));
         out.values[v].gpr_group = int(group);
         in[c] = Operand::of_value(v);
      }
      static constexpr unsigned sources[4][2] = {{2, 1}, {2, 0}, {0, 2}, {1, 2}};
      const int bundle = next_bundle++;
      std::array<unsigned, 4> results;
      for (unsigned slot = 0; slot < 4; slot++) {
         Node node;
         node.kind = NodeKind::Alu;
         node.alu.op = &op_named("CUBE");
         node.alu.src[0] = in[sources[slot][0]];
         node.alu.src[1] = in[sources[slot][1]];
         node.alu.dst = out.new_value(int(slot));
         node.bundle = bundle;
         out.nodes.push_back(node);
         note_accesses(unsigned(out.nodes.size() - 1));
         results[slot] = node.alu.dst;
      }
      return results;
   }

   /* A dot product as one DOT4_IEEE group: slot c multiplies (a[c], b[c]) (0 * 0 where the
    * product has fewer terms) and every slot gets the sum; one slot writes it, the others are
    * write-masked. The slot that writes turns around from one dot product to the next (the
    * results then spread over the channels); coalesce_group_moves may move it to the channel
    * an export or TEX source wants. A group holds at most four literals and two kcache (constant,
    * half) pairs: operands beyond those are moved into registers first. */
   unsigned next_dot_slot = 0;
   unsigned emit_dot(std::array<Operand, 4> a, std::array<Operand, 4> b)
   {
      std::vector<uint32_t> literals;
      std::set<std::pair<unsigned, unsigned>> pairs;
      auto fit = [&](Operand &o) {
         if (o.kind == OperandKind::Literal) {
            if (std::find(literals.begin(), literals.end(), o.value) == literals.end()) {
               if (literals.size() == 4) {
                  o = Operand::of_value(emit("MOV", {o}));
                  return;
               }
               literals.push_back(o.value);
            }
         } else if (o.kind == OperandKind::Kcache) {
            const std::pair<unsigned, unsigned> pair{o.bank * 4096 + o.value / 4, (o.value % 4) / 2};
            if (!pairs.count(pair)) {
               if (pairs.size() == 2) {
                  o = Operand::of_value(emit("MOV", {o}));
                  return;
               }
               pairs.insert(pair);
            }
         }
      };
      for (unsigned c = 0; c < 4; c++) {
         fit(a[c]);
         fit(b[c]);
      }
      const int bundle = next_bundle++;
      const unsigned writer = next_dot_slot;
      next_dot_slot = (next_dot_slot + 1) % 4;
      unsigned result = no_value;
      /* The writer first: select_alu's register path looks at the last node emitted. */
      for (unsigned k = 0; k < 4; k++) {
         const unsigned slot = (writer + k) % 4;
         Node node;
         node.kind = NodeKind::Alu;
         node.alu.op = &op_named("DOT4_IEEE");
         node.alu.src[0] = a[slot];
         node.alu.src[1] = b[slot];
         node.bundle = bundle;
         if (slot == writer) {
            node.alu.dst = out.new_value(int(slot));
            result = node.alu.dst;
         } else {
            node.bundle_slot = int(slot);
         }
         out.nodes.push_back(node);
         note_accesses(unsigned(out.nodes.size() - 1));
      }
      return result;
   }

   static void note_slot(std::vector<unsigned> &list, unsigned slot)
   {
      if (std::find(list.begin(), list.end(), slot) == list.end())
         list.push_back(slot);
   }

   /* A NIR register written by an ALU instruction: compute the value as for an SSA result,
    * then move it into the register's place. */
   bool select_alu(nir_alu_instr *alu)
   {
      if (alu->dest.dest.is_ssa) {
         if (!check_def(alu->dest.dest.ssa))
            return false;
         std::vector<Operand> result;
         if (!select_alu_value(alu, alu->dest.dest.ssa.num_components, result))
            return false;
         /* An SSA value may not alias a register: the register can change later. */
         for (Operand &o : result)
            if (o.is_value() && is_register(o.value))
               o = Operand::of_value(emit("MOV", {o}));
         defs[alu->dest.dest.ssa.index] = result;
         return true;
      }
      const nir_register *reg = alu->dest.dest.reg.reg;
      if (alu->dest.dest.reg.indirect || reg->num_components != 1 || reg->bit_size != 32 ||
          reg->num_array_elems)
         return fail("only scalar 32-bit NIR registers are supported");
      std::vector<Operand> result;
      const size_t nodes_before = out.nodes.size();
      if (!select_alu_value(alu, 1, result))
         return false;
      const unsigned reg_value = register_value(reg);
      /* The operation just emitted for this instruction can write the register itself (its
       * result has no other reader yet), unless a Cayman transcendental could not reach the
       * register's channel. */
      if (out.nodes.size() > nodes_before && result[0].is_value() && !result[0].neg && !result[0].abs) {
         Node &last = out.nodes.back();
         const bool fits = last.kind == NodeKind::Alu && last.alu.dst == result[0].value &&
                           last.alu.op->encoding != isa::AluEncoding::Lds &&
                           !(last.alu.op->slot_rule(out.isa) == isa::SlotRule::Replicated3 &&
                             out.values[reg_value].required_chan == 3);
         if (fits) {
            last.alu.dst = reg_value;
            note_accesses(unsigned(out.nodes.size() - 1));
            return true;
         }
      }
      Node node;
      node.kind = NodeKind::Alu;
      node.alu.op = &op_named("MOV");
      node.alu.dst = reg_value;
      node.alu.src[0] = result[0];
      out.nodes.push_back(node);
      note_accesses(unsigned(out.nodes.size() - 1));
      return true;
   }

   bool select_alu_value(nir_alu_instr *alu, unsigned num_components, std::vector<Operand> &result)
   {
      struct { unsigned num_components; } def{num_components};
      for (unsigned i = 0; i < nir_op_infos[alu->op].num_inputs; i++) {
         if (alu->src[i].src.is_ssa && alu->src[i].src.ssa->bit_size != 32)
            return fail(std::string(nir_op_infos[alu->op].name) + " on a " +
                        std::to_string(alu->src[i].src.ssa->bit_size) +
                        "-bit value is not supported (only 32-bit values are)");
      }
      auto src = [&](unsigned i, unsigned c, Operand &o) {
         return operand(alu->src[i].src, alu->src[i].swizzle[c], o);
      };

      /* Moves and vector construction only rename. */
      if (alu->op == nir_op_mov || nir_op_is_vec(alu->op)) {
         for (unsigned c = 0; c < def.num_components; c++) {
            Operand o;
            if (!(alu->op == nir_op_mov ? src(0, c, o) : src(c, 0, o)))
               return false;
            result.push_back(o);
         }
         return true;
      }
      if (def.num_components != 1)
         return fail(std::string("internal: vector ") + nir_op_infos[alu->op].name +
                     " after scalarization");

      Operand a, b, c;
      const unsigned inputs = nir_op_infos[alu->op].num_inputs;
      if ((inputs > 0 && !src(0, 0, a)) || (inputs > 1 && !src(1, 0, b)) ||
          (inputs > 2 && !src(2, 0, c)))
         return false;
      for (const Operand *o : {&a, &b, &c})
         if (o->kind == OperandKind::Descriptor)
            return fail("storage-buffer descriptors used as numbers (pointer arithmetic on "
                        "buffers) are not supported");

      /* x + 0 comes from buffer descriptors (their offset part is always 0 here). */
      const Operand zero = Operand::literal(0);
      if (alu->op == nir_op_iadd && (a == zero || b == zero)) {
         result.push_back(a == zero ? b : a);
         return true;
      }

      if (alu->op == nir_op_imul || alu->op == nir_op_iadd || alu->op == nir_op_ior ||
          alu->op == nir_op_iand || alu->op == nir_op_ishr || alu->op == nir_op_ushr) {
         unsigned narrow = no_value;
         if (alu->op == nir_op_imul || alu->op == nir_op_iadd ? !select_narrow_multiply(alu, a, b, narrow)
                                                               : !select_bitfield(alu, a, b, narrow))
            return false;
         if (narrow != no_value) {
            result.push_back(Operand::of_value(narrow));
            return true;
         }
      }

      for (const DirectOp &direct : direct_ops) {
         if (direct.nir != alu->op)
            continue;
         unsigned v;
         if (inputs == 1)
            v = emit(direct.name, {a});
         else if (inputs == 3)
            v = emit(direct.name, {a, b, c});
         else
            v = direct.swap ? emit(direct.name, {b, a}) : emit(direct.name, {a, b});
         result.push_back(Operand::of_value(v));
         return true;
      }

      unsigned v = no_value;
      switch (alu->op) {
      case nir_op_fneg:
      case nir_op_fabs: {
         /* Source modifiers on the consumers (emit() adds a MOV where one cannot take them). */
         Operand n = a;
         if (n.kind == OperandKind::Literal || n.kind == OperandKind::Inline) {
            v = emit("MOV", {alu->op == nir_op_fneg ? Operand{n.kind, n.value, 0, true}
                                                   : Operand{n.kind, n.value, 0, false, true}});
            break;
         }
         if (alu->op == nir_op_fneg) {
            n.neg = !n.neg;
         } else {
            n.abs = true;
            n.neg = false;
         }
         result.push_back(n);
         return true;
      }
      case nir_op_fsat:
         v = emit("MOV", {a});
         out.nodes.back().alu.clamp = true;
         break;
      case nir_op_ineg:
         v = emit("SUB_INT", {Operand::literal(0), a});
         break;
      case nir_op_ufind_msb:
      case nir_op_ifind_msb: {
         /* FFBH counts from the top and gives -1 when no bit is found; NIR counts from the
          * bottom. */
         const unsigned from_top = emit(alu->op == nir_op_ufind_msb ? "FFBH_UINT" : "FFBH_INT", {a});
         const unsigned from_bottom = emit("SUB_INT", {Operand::literal(31), Operand::of_value(from_top)});
         v = emit("CNDGE_INT", {Operand::of_value(from_top), Operand::of_value(from_bottom),
                                Operand::of_value(from_top)});
         break;
      }
      case nir_op_bcsel:
      case nir_op_b32csel:
         /* CNDE_INT picks its second operand when the first is zero. */
         v = emit("CNDE_INT", {a, c, b});
         break;
      case nir_op_b2f32:
         v = emit("AND_INT", {a, Operand::literal(float_bits(1.0f))});
         break;
      case nir_op_b2i32:
         v = emit("AND_INT", {a, Operand::literal(1)});
         break;
      case nir_op_i2b32:
         v = emit("SETNE_INT", {a, Operand::literal(0)});
         break;
      case nir_op_f2b32:
         v = emit("SETNE_DX10", {a, Operand::literal(0)});
         break;
      case nir_op_fsin:
      case nir_op_fcos: {
         /* SIN and COS take revolutions and are only accurate near zero: reduce x/2pi to
          * [-0.5, 0.5) first. */
         const unsigned turns = emit("MUL_IEEE", {a, Operand::literal(float_bits(float(0.5 / std::numbers::pi)))});
         const unsigned shifted = emit("ADD", {Operand::of_value(turns), Operand::literal(float_bits(0.5f))});
         const unsigned fraction = emit("FRACT", {Operand::of_value(shifted)});
         const unsigned centered = emit("ADD", {Operand::of_value(fraction), Operand::literal(float_bits(-0.5f))});
         v = emit(alu->op == nir_op_fsin ? "SIN" : "COS", {Operand::of_value(centered)});
         break;
      }
      case nir_op_u2u32:
      case nir_op_i2i32:
      case nir_op_f2f32:
         result.push_back(a);
         return true;
      case nir_op_fdot2:
      case nir_op_fdot3:
      case nir_op_fdot4:
      case nir_op_fdph: {
         /* fdph: a.xyz . b.xyz + 1.0 * b.w. */
         const unsigned terms = nir_op_infos[alu->op].input_sizes[0];
         const Operand zero = Operand::literal(0);
         std::array<Operand, 4> x{zero, zero, zero, zero}, y{zero, zero, zero, zero};
         for (unsigned k = 0; k < terms; k++)
            if (!src(0, k, x[k]) || !src(1, k, y[k]))
               return false;
         if (alu->op == nir_op_fdph) {
            x[3] = Operand::literal(float_bits(1.0f));
            if (!src(1, 3, y[3]))
               return false;
         }
         for (unsigned k = 0; k < 4; k++)
            if (x[k].kind == OperandKind::Descriptor || y[k].kind == OperandKind::Descriptor)
               return fail("storage-buffer descriptors used as numbers (pointer arithmetic on "
                           "buffers) are not supported");
         v = emit_dot(x, y);
         break;
      }
      /* Half floats live in the low 16 bits of a dword: FLT32_TO_FLT16 and FLT16_TO_FLT32
       * convert one (round to nearest even; docs/sim-semantics.md), as r600g uses them. */
      case nir_op_pack_half_2x16_split: {
         const unsigned low = emit("FLT32_TO_FLT16", {a});
         const unsigned high = emit("FLT32_TO_FLT16", {b});
         const unsigned shifted = emit("LSHL_INT", {Operand::of_value(high), Operand::literal(16)});
         v = emit("OR_INT", {Operand::of_value(low), Operand::of_value(shifted)});
         break;
      }
      case nir_op_unpack_half_2x16_split_x:
         v = emit("FLT16_TO_FLT32", {Operand::of_value(emit("AND_INT", {a, Operand::literal(0xffff)}))});
         break;
      case nir_op_unpack_half_2x16_split_y:
         v = emit("FLT16_TO_FLT32", {Operand::of_value(emit("LSHR_INT", {a, Operand::literal(16)}))});
         break;
      case nir_op_fquantize2f16: {
         /* Through a half and back; magnitudes below the smallest normal half become a zero
          * of the same sign (OpQuantizeToF16 allows either zero; NIR's definition keeps it). */
         const unsigned half = emit("FLT32_TO_FLT16", {a});
         const unsigned back = emit("FLT16_TO_FLT32", {Operand::of_value(half)});
         Operand magnitude = a;
         magnitude.abs = true;
         magnitude.neg = false;
         const unsigned tiny = emit("SETGT_DX10", {Operand::literal(float_bits(1.0f / 16384.0f)), magnitude});
         const unsigned sign = emit("AND_INT", {a, Operand::literal(0x80000000u)});
         v = emit("CNDE_INT", {Operand::of_value(tiny), Operand::of_value(back), Operand::of_value(sign)});
         break;
      }
      case nir_op_fddx:
      case nir_op_fddy:
      case nir_op_fddx_coarse:
      case nir_op_fddy_coarse:
      case nir_op_fddx_fine:
      case nir_op_fddy_fine:
         /* TeraScale has no derivative ALU operation: pixel shaders use TEX GET_GRADIENTS_H/V
          * (select_graphics.cpp); other stages have no quads. */
         if (!graphics || shader->info.stage != MESA_SHADER_FRAGMENT)
            return fail(std::string("derivatives (") + nir_op_infos[alu->op].name +
                        ") exist only in pixel shaders");
         if (!graphics->select_derivative(alu->op, a, v))
            return false;
         break;
      default:
         return fail(std::string("the NIR operation ") + nir_op_infos[alu->op].name +
                     " is not supported by the compiler yet");
      }
      result.push_back(Operand::of_value(v));
      return true;
   }

   /* Products whose operands are known to fit in 24 bits (unsigned_upper_bound) as MUL_UINT24,
    * a vector operation, instead of MULLO_INT, which takes the t slot on Evergreen and all
    * four vector slots on Cayman; and such a product plus a value as one MULADD_UINT24.
    * MUL_UINT24 multiplies the low 24 bits of its operands and keeps the low 32 bits of the
    * product (AMD Evergreen Family ISA, MUL_UINT24 and MULADD_UINT24; LLVM R600
    * EvergreenInstructions.td selects them for 24-bit operands likewise): imul's bits when
    * neither operand exceeds 2^24 - 1. `v` stays no_value when neither form applies. */
   bool fits_24_bits(const nir_alu_src &src)
   {
      return unsigned_upper_bound(src.src, src.swizzle[0]) <= 0xffffffu;
   }

   /* The 24-bit product an iadd operand is, when that iadd is the product's only reader (the
    * product is then dead code). Not with more readers: each sum would repeat the product's
    * operands (two literals per sum where a shared product and an ADD_INT need one). */
   const nir_alu_instr *fusable_product(const nir_alu_src &src)
   {
      if (!src.src.is_ssa || src.src.ssa->parent_instr->type != nir_instr_type_alu)
         return nullptr;
      const nir_alu_instr *product = nir_instr_as_alu(src.src.ssa->parent_instr);
      if (product->op != nir_op_imul || !product->dest.dest.is_ssa ||
          product->dest.dest.ssa.num_components != 1 || !fits_24_bits(product->src[0]) ||
          !fits_24_bits(product->src[1]) || !list_is_empty(&product->dest.dest.ssa.if_uses))
         return nullptr;
      return list_is_singular(&product->dest.dest.ssa.uses) ? product : nullptr;
   }

   bool select_narrow_multiply(nir_alu_instr *alu, const Operand &a, const Operand &b, unsigned &v)
   {
      if (alu->op == nir_op_imul) {
         if (fits_24_bits(alu->src[0]) && fits_24_bits(alu->src[1]))
            v = emit("MUL_UINT24", {a, b});
         return true;
      }
      for (unsigned k = 0; k < 2; k++) {
         const nir_alu_instr *product = fusable_product(alu->src[k]);
         if (!product)
            continue;
         Operand x, y;
         const unsigned component = alu->src[k].swizzle[0];
         if (!operand(product->src[0].src, product->src[0].swizzle[component], x) ||
             !operand(product->src[1].src, product->src[1].swizzle[component], y))
            return false;
         v = emit("MULADD_UINT24", {x, y, k == 0 ? b : a});
         return true;
      }
      return true;
   }

   /* The `op` instruction whose result `src` reads, when `src` is its only reader (selecting
    * the reader without it leaves it dead code). */
   const nir_alu_instr *single_use_alu(const nir_alu_src &src, nir_op op)
   {
      if (!src.src.is_ssa || src.src.ssa->parent_instr->type != nir_instr_type_alu)
         return nullptr;
      const nir_alu_instr *alu = nir_instr_as_alu(src.src.ssa->parent_instr);
      if (alu->op != op || !alu->dest.dest.is_ssa || alu->dest.dest.ssa.num_components != 1 ||
          !list_is_singular(&alu->dest.dest.ssa.uses) || !list_is_empty(&alu->dest.dest.ssa.if_uses))
         return nullptr;
      return alu;
   }

   static bool constant_source(const nir_alu_instr *alu, unsigned s, unsigned component, uint32_t &value)
   {
      if (!nir_src_is_const(alu->src[s].src))
         return false;
      value = uint32_t(nir_src_comp_as_uint(alu->src[s].src, alu->src[s].swizzle[component]));
      return true;
   }

   /* The bits component `component` of `src` may have set (a clear bit is provably zero). */
   uint32_t possible_bits(const nir_src &src, unsigned component, unsigned depth = 0)
   {
      if (!src.is_ssa || src.ssa->bit_size != 32 || depth > 12)
         return ~0u;
      if (nir_src_is_const(src))
         return uint32_t(nir_src_comp_as_uint(src, component));
      if (src.ssa->parent_instr->type == nir_instr_type_alu) {
         const nir_alu_instr *alu = nir_instr_as_alu(src.ssa->parent_instr);
         auto bits = [&](unsigned s) { return possible_bits(alu->src[s].src, alu->src[s].swizzle[component], depth + 1); };
         uint32_t shift = 0;
         switch (alu->op) {
         case nir_op_mov: return bits(0);
         case nir_op_iand: return bits(0) & bits(1);
         case nir_op_ior:
         case nir_op_ixor: return bits(0) | bits(1);
         case nir_op_ishl:
            if (constant_source(alu, 1, component, shift))
               return bits(0) << (shift & 31);
            break;
         case nir_op_ushr:
            if (constant_source(alu, 1, component, shift))
               return bits(0) >> (shift & 31);
            break;
         case nir_op_bcsel:
         case nir_op_b32csel: return bits(1) | bits(2);
         default: break;
         }
      }
      const uint64_t bound = unsigned_upper_bound(src, component);
      return bound >= 0xffffffffu ? ~0u : uint32_t((uint64_t(1) << std::bit_width(bound)) - 1);
   }

   /* Bit-field forms of shift-and-mask patterns NIR's lowerings leave (packing built-ins,
    * extract_u8/i8 and _16), each one operation where NIR has two or three (AMD Evergreen
    * Family ISA: BFE_UINT/BFE_INT extract `width` bits at `offset`, zero- or sign-extended;
    * BFI_INT(mask, a, b) = (a & mask) | (b & ~mask); r600g packs with BFI_INT the same way):
    *   ior(iand(x, M), y), y without bits in M          -> BFI_INT(M, x, y)
    *   ior(ishl(iand(x, M), s), y), y without M << s    -> BFI_INT(M << s, x << s, y)
    *   iand(ushr(x, s), 2^w - 1), s + w <= 32           -> BFE_UINT(x, s, w)
    *   ishr/ushr(ishl(x, a), b), a <= b                 -> BFE_INT/BFE_UINT(x, b - a, 32 - b)
    * Only where the inner operation has no other reader (it is then dead code), or, for the
    * left shift, only readers of the same form. */
   bool select_bitfield(nir_alu_instr *alu, const Operand &a, const Operand &b, unsigned &v)
   {
      auto operand_of = [&](const nir_alu_instr *inner, unsigned s, Operand &o) {
         return operand(inner->src[s].src, inner->src[s].swizzle[0], o);
      };
      if (alu->op == nir_op_ior) {
         for (unsigned k = 0; k < 2; k++) {
            const uint32_t other_bits = possible_bits(alu->src[1 - k].src, alu->src[1 - k].swizzle[0]);
            const Operand &other = k == 0 ? b : a;
            uint32_t mask = 0, shift = 0;
            if (const nir_alu_instr *masked = single_use_alu(alu->src[k], nir_op_iand)) {
               for (unsigned m = 0; m < 2; m++) {
                  Operand x;
                  if (!constant_source(masked, m, 0, mask) || (mask & other_bits))
                     continue;
                  if (!operand_of(masked, 1 - m, x))
                     return false;
                  v = emit("BFI_INT", {Operand::literal(mask), x, other});
                  return true;
               }
            }
            const nir_alu_instr *shifted = single_use_alu(alu->src[k], nir_op_ishl);
            if (!shifted || !constant_source(shifted, 1, 0, shift) || !(shift & 31))
               continue;
            const nir_alu_instr *masked = single_use_alu(shifted->src[0], nir_op_iand);
            if (!masked)
               continue;
            for (unsigned m = 0; m < 2; m++) {
               Operand x;
               if (!constant_source(masked, m, 0, mask) || ((mask << (shift & 31)) & other_bits))
                  continue;
               if (!operand_of(masked, 1 - m, x))
                  return false;
               const unsigned moved = emit("LSHL_INT", {x, Operand::literal(shift & 31)});
               v = emit("BFI_INT", {Operand::literal(mask << (shift & 31)), Operand::of_value(moved), other});
               return true;
            }
         }
         return true;
      }
      if (alu->op == nir_op_iand) {
         for (unsigned k = 0; k < 2; k++) {
            uint32_t mask = 0, shift = 0;
            const nir_alu_instr *shifted = single_use_alu(alu->src[1 - k], nir_op_ushr);
            if (!constant_source(alu, k, 0, mask) || !shifted || !constant_source(shifted, 1, 0, shift))
               continue;
            const unsigned width = unsigned(std::popcount(mask));
            shift &= 31;
            if (width == 0 || width > 31 || mask != (1u << width) - 1 || shift == 0 || shift + width > 32)
               continue;
            Operand x;
            if (!operand_of(shifted, 0, x))
               return false;
            v = emit("BFE_UINT", {x, Operand::literal(shift), Operand::literal(width)});
            return true;
         }
         return true;
      }
      /* ishr / ushr of a left shift whose every reader is such a right shift (extract_i8
       * and extract_i16 of the same half share one: each becomes one BFE). */
      uint32_t right = 0, left = 0;
      const nir_alu_src &inner = alu->src[0];
      if (!constant_source(alu, 1, 0, right) || !inner.src.is_ssa ||
          inner.src.ssa->parent_instr->type != nir_instr_type_alu)
         return true;
      const nir_alu_instr *shifted = nir_instr_as_alu(inner.src.ssa->parent_instr);
      if (shifted->op != nir_op_ishl || !shifted->dest.dest.is_ssa || shifted->dest.dest.ssa.num_components != 1 ||
          !list_is_empty(&shifted->dest.dest.ssa.if_uses) || !constant_source(shifted, 1, 0, left))
         return true;
      nir_foreach_use(use, &shifted->dest.dest.ssa) {
         const nir_instr *reader = use->parent_instr;
         const nir_alu_instr *reader_alu = reader->type == nir_instr_type_alu ? nir_instr_as_alu(reader) : nullptr;
         uint32_t reader_right = 0;
         if (!reader_alu || (reader_alu->op != nir_op_ishr && reader_alu->op != nir_op_ushr) ||
             &reader_alu->src[0].src != use || !constant_source(reader_alu, 1, 0, reader_right) ||
             (reader_right & 31) < (left & 31))
            return true;
      }
      right &= 31;
      left &= 31;
      if (left == 0 || right == 0 || left > right)
         return true;
      Operand x;
      if (!operand_of(shifted, 0, x))
         return false;
      v = emit(alu->op == nir_op_ishr ? "BFE_INT" : "BFE_UINT",
               {x, Operand::literal(right - left), Operand::literal(32 - right)});
      return true;
   }

   /* The hardware slot of element `index` of buffer binding (set, binding): from the driver's
    * map, or the corpus ABI (set 0, slot = binding) without one. Storage buffers need a RAT,
    * so their slot must be below 8. */
   bool buffer_slot(unsigned set, unsigned binding, unsigned index, bool storage, unsigned &slot)
   {
      const std::string name = "set " + std::to_string(set) + " binding " + std::to_string(binding);
      if (buffer_bindings.empty()) {
         if (set != 0)
            return fail("buffers must be in descriptor set 0 without a pipeline layout");
         slot = binding + index;
      } else {
         const BufferBinding *found = nullptr;
         for (const BufferBinding &b : buffer_bindings)
            if (b.set == set && b.binding == binding)
               found = &b;
         if (!found)
            return fail(name + " is not in the pipeline layout");
         if (found->storage != storage)
            return fail(name + ": the shader and the pipeline layout disagree on its type");
         if (index >= found->count)
            return fail(name + ": element " + std::to_string(index) + " is beyond its " +
                        std::to_string(found->count) + " descriptors");
         slot = found->first_slot + index;
      }
      if (storage ? slot >= max_storage_buffer_slots
                  : (slot >= max_fetch_buffer_slots || slot == push_constant_fetch_resource))
         return fail(name + " maps to buffer slot " + std::to_string(slot) +
                     ", beyond what the compiler maps (8 storage buffers as RATs, fetch "
                     "resources 0-175 without 16)");
      return true;
   }

   /* Follows a buffer index back to its descriptor's slot. */
   bool binding_of(const nir_src &src, unsigned &binding)
   {
      Operand o;
      if (!operand(src, 0, o))
         return false;
      if (o.kind != OperandKind::Descriptor)
         return fail("storage buffers must be named by a constant binding (descriptor "
                     "indexing is not supported by the compiler yet)");
      binding = o.value;
      return true;
   }

   /* Results of intrinsics that write a NIR register are collected under a key no SSA index
    * uses, then moved into the register. */
   unsigned register_result_key = 0x80000000u;
   unsigned result_key = 0;

   bool select_intrinsic(nir_intrinsic_instr *intrinsic)
   {
      const nir_intrinsic_info &info = nir_intrinsic_infos[intrinsic->intrinsic];
      if (!info.has_dest || intrinsic->dest.is_ssa) {
         if (info.has_dest && !check_def(intrinsic->dest.ssa))
            return false;
         result_key = info.has_dest ? intrinsic->dest.ssa.index : 0;
         return select_intrinsic_value(intrinsic);
      }
      const nir_register *reg = intrinsic->dest.reg.reg;
      if (intrinsic->dest.reg.indirect || reg->num_components != 1 || reg->bit_size != 32 ||
          reg->num_array_elems)
         return fail("only scalar 32-bit NIR registers are supported");
      result_key = register_result_key++;
      if (!select_intrinsic_value(intrinsic))
         return false;
      const auto found = defs.find(result_key);
      if (found == defs.end() || found->second.empty() ||
          found->second[0].kind == OperandKind::Descriptor)
         return fail("internal: this intrinsic cannot write a NIR register");
      Node node;
      node.kind = NodeKind::Alu;
      node.alu.op = &op_named("MOV");
      node.alu.dst = register_value(reg);
      node.alu.src[0] = found->second[0];
      out.nodes.push_back(node);
      note_accesses(unsigned(out.nodes.size() - 1));
      return true;
   }

   bool select_intrinsic_value(nir_intrinsic_instr *intrinsic)
   {
      const nir_intrinsic_info &info = nir_intrinsic_infos[intrinsic->intrinsic];
      auto result = [&]() -> std::vector<Operand> & { return defs[result_key]; };

      switch (intrinsic->intrinsic) {
      case nir_intrinsic_load_local_invocation_id:
      case nir_intrinsic_load_workgroup_id: {
         const auto &ids = intrinsic->intrinsic == nir_intrinsic_load_workgroup_id ? group_id : local_id;
         for (unsigned c = 0; c < dest_components(intrinsic); c++)
            result().push_back(Operand::of_value(ids[c]));
         return true;
      }
      case nir_intrinsic_load_workgroup_size:
         if (shader->info.workgroup_size_variable)
            return fail("a variable workgroup size is not supported");
         for (unsigned c = 0; c < dest_components(intrinsic); c++)
            result().push_back(Operand::literal(shader->info.workgroup_size[c]));
         return true;
      case nir_intrinsic_load_num_workgroups:
         out.uses_driver_constants = true;
         for (unsigned c = 0; c < dest_components(intrinsic); c++)
            result().push_back(Operand::kcache(1, c));
         return true;
      case nir_intrinsic_load_kernel_input: {
         /* The driver's constants (texture_lowering.cpp reads the unnormalized mask here). */
         if (!nir_src_is_const(intrinsic->src[0]))
            return fail("internal: driver constants indexed at run time");
         const unsigned byte = nir_intrinsic_base(intrinsic) + unsigned(nir_src_as_uint(intrinsic->src[0]));
         out.uses_driver_constants = true;
         for (unsigned c = 0; c < dest_components(intrinsic); c++)
            result().push_back(Operand::kcache(1, byte / 4 + c));
         return true;
      }
      case nir_intrinsic_load_push_constant: {
         if (!nir_src_is_const(intrinsic->src[0])) {
            /* Indexed at run time: the kcache cannot be indexed without AR, so these loads
             * fetch from the same memory through fetch resource 16 (compiler.h). */
            unsigned address;
            if (!value_operand(intrinsic->src[0], 0, address))
               return false;
            out.uses_push_constants = true;
            out.push_constants_fetched = true;
            return emit_fetches(address, push_constant_fetch_resource, nir_intrinsic_base(intrinsic),
                                dest_components(intrinsic), result());
         }
         const unsigned byte = nir_intrinsic_base(intrinsic) + nir_src_as_uint(intrinsic->src[0]);
         if (byte % 4 || byte + 4 * dest_components(intrinsic) > 256)
            return fail("push constant access outside the first 256 bytes or not dword aligned");
         out.uses_push_constants = true;
         for (unsigned c = 0; c < dest_components(intrinsic); c++)
            result().push_back(Operand::kcache(0, byte / 4 + c));
         return true;
      }
      case nir_intrinsic_vulkan_resource_index: {
         if (!nir_src_is_const(intrinsic->src[0]))
            return fail("buffers must be named by a constant binding (descriptor indexing is "
                        "not supported by the compiler yet)");
         const unsigned type = nir_intrinsic_desc_type(intrinsic);
         const bool storage = type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
                              type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
         const bool uniform = type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
                              type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
         if (!storage && !uniform)
            return fail("only storage and uniform buffers are supported by the compiler yet "
                        "(images, samplers and texel buffers are not)");
         unsigned slot;
         if (!buffer_slot(nir_intrinsic_desc_set(intrinsic), nir_intrinsic_binding(intrinsic),
                          unsigned(nir_src_as_uint(intrinsic->src[0])), storage, slot))
            return false;
         result() = {Operand{OperandKind::Descriptor, slot}, Operand::literal(0)};
         return true;
      }
      case nir_intrinsic_get_ssbo_size: {
         /* The size of the bound range, which the driver writes into its constants. */
         unsigned slot;
         if (!binding_of(intrinsic->src[0], slot))
            return false;
         if (slot >= max_storage_buffer_slots)
            return fail("internal: the size of a buffer that is not in a storage buffer slot");
         out.uses_driver_constants = true;
         note_sized(slot);
         result().push_back(Operand::kcache(1, storage_buffer_size_constants + slot));
         return true;
      }
      case nir_intrinsic_load_vulkan_descriptor: {
         unsigned binding;
         if (!binding_of(intrinsic->src[0], binding))
            return false;
         result() = {Operand{OperandKind::Descriptor, binding}, Operand::literal(0)};
         return true;
      }
      case nir_intrinsic_load_ubo:
         /* At a constant offset: constant-cache operands (select_ubo_kcache); otherwise fetched
          * like storage buffers (any offset, indirect included). */
         if (select_ubo_kcache(intrinsic))
            return true;
         if (!error.empty())
            return false;
         return select_load_ssbo(intrinsic);
      case nir_intrinsic_load_ssbo:
         return select_load_ssbo(intrinsic);
      case nir_intrinsic_ssbo_atomic_add:
      case nir_intrinsic_ssbo_atomic_imin:
      case nir_intrinsic_ssbo_atomic_umin:
      case nir_intrinsic_ssbo_atomic_imax:
      case nir_intrinsic_ssbo_atomic_umax:
      case nir_intrinsic_ssbo_atomic_and:
      case nir_intrinsic_ssbo_atomic_or:
      case nir_intrinsic_ssbo_atomic_xor:
      case nir_intrinsic_ssbo_atomic_exchange:
      case nir_intrinsic_ssbo_atomic_comp_swap:
         return select_ssbo_atomic(intrinsic);
      case nir_intrinsic_control_barrier:
         emit_ordered("GROUP_BARRIER", {}, false);
         return true;
      case nir_intrinsic_scoped_barrier:
         if ((nir_intrinsic_memory_modes(intrinsic) & (nir_var_mem_ssbo | nir_var_image | nir_var_mem_global)) &&
             nir_intrinsic_memory_semantics(intrinsic))
            wait_for_acknowledgements();
         if (nir_intrinsic_execution_scope(intrinsic) >= NIR_SCOPE_WORKGROUP)
            emit_ordered("GROUP_BARRIER", {}, false);
         return true;
      case nir_intrinsic_memory_barrier_shared:
         /* LDS operations of a wave run in program order: nothing to wait for. */
         return true;
      case nir_intrinsic_memory_barrier:
      case nir_intrinsic_group_memory_barrier:
      case nir_intrinsic_memory_barrier_buffer:
      case nir_intrinsic_memory_barrier_image:
         /* RAT writes (storage buffers, images) must be acknowledged before what follows reads
          * memory or other invocations go on past a barrier. */
         wait_for_acknowledgements();
         return true;
      case nir_intrinsic_load_shared: {
         Operand address;
         if (!operand(intrinsic->src[0], 0, address))
            return false;
         for (unsigned c = 0; c < dest_components(intrinsic); c++) {
            const unsigned byte = nir_intrinsic_base(intrinsic) + 4 * c;
            const Operand at = byte ? Operand::of_value(emit("ADD_INT", {address, Operand::literal(byte)})) : address;
            result().push_back(Operand::of_value(emit_ordered("LDS_READ_RET", {at}, true)));
         }
         return true;
      }
      case nir_intrinsic_store_shared: {
         Operand address;
         if (!operand(intrinsic->src[1], 0, address))
            return false;
         const unsigned mask = nir_intrinsic_write_mask(intrinsic);
         for (unsigned c = 0; c < nir_src_num_components(intrinsic->src[0]); c++) {
            if (!(mask >> c & 1))
               continue;
            Operand data;
            if (!operand(intrinsic->src[0], c, data))
               return false;
            const unsigned byte = nir_intrinsic_base(intrinsic) + 4 * c;
            const Operand at = byte ? Operand::of_value(emit("ADD_INT", {address, Operand::literal(byte)})) : address;
            emit_ordered("LDS_WRITE", {at, data}, false);
         }
         return true;
      }
      case nir_intrinsic_shared_atomic_add:
      case nir_intrinsic_shared_atomic_imin:
      case nir_intrinsic_shared_atomic_umin:
      case nir_intrinsic_shared_atomic_imax:
      case nir_intrinsic_shared_atomic_umax:
      case nir_intrinsic_shared_atomic_and:
      case nir_intrinsic_shared_atomic_or:
      case nir_intrinsic_shared_atomic_xor:
      case nir_intrinsic_shared_atomic_exchange:
      case nir_intrinsic_shared_atomic_comp_swap: {
         static const std::map<nir_intrinsic_op, const char *> lds_ops = {
            {nir_intrinsic_shared_atomic_add, "LDS_ADD_RET"},
            {nir_intrinsic_shared_atomic_imin, "LDS_MIN_INT_RET"},
            {nir_intrinsic_shared_atomic_umin, "LDS_MIN_UINT_RET"},
            {nir_intrinsic_shared_atomic_imax, "LDS_MAX_INT_RET"},
            {nir_intrinsic_shared_atomic_umax, "LDS_MAX_UINT_RET"},
            {nir_intrinsic_shared_atomic_and, "LDS_AND_RET"},
            {nir_intrinsic_shared_atomic_or, "LDS_OR_RET"},
            {nir_intrinsic_shared_atomic_xor, "LDS_XOR_RET"},
            {nir_intrinsic_shared_atomic_exchange, "LDS_XCHG_RET"},
            {nir_intrinsic_shared_atomic_comp_swap, "LDS_CMP_XCHG_RET"},
         };
         Operand address, data, compare;
         if (!operand(intrinsic->src[0], 0, address) || !operand(intrinsic->src[1], 0, data))
            return false;
         if (nir_intrinsic_base(intrinsic))
            address = Operand::of_value(emit("ADD_INT", {address, Operand::literal(nir_intrinsic_base(intrinsic))}));
         unsigned v;
         if (intrinsic->intrinsic == nir_intrinsic_shared_atomic_comp_swap) {
            /* NIR: (address, compare, new); LDS_CMP_XCHG_RET: (address, compare, new). */
            if (!operand(intrinsic->src[2], 0, compare))
               return false;
            v = emit_ordered(lds_ops.at(intrinsic->intrinsic), {address, data, compare}, true);
         } else {
            v = emit_ordered(lds_ops.at(intrinsic->intrinsic), {address, data}, true);
         }
         result().push_back(Operand::of_value(v));
         return true;
      }
      case nir_intrinsic_store_ssbo:
         return select_store_ssbo(intrinsic);
      case nir_intrinsic_load_scratch:
      case nir_intrinsic_store_scratch:
         return select_scratch(intrinsic);
      case nir_intrinsic_image_store:
         return select_image_store(intrinsic);
      case nir_intrinsic_image_atomic_add:
      case nir_intrinsic_image_atomic_imin:
      case nir_intrinsic_image_atomic_umin:
      case nir_intrinsic_image_atomic_imax:
      case nir_intrinsic_image_atomic_umax:
      case nir_intrinsic_image_atomic_and:
      case nir_intrinsic_image_atomic_or:
      case nir_intrinsic_image_atomic_xor:
      case nir_intrinsic_image_atomic_exchange:
      case nir_intrinsic_image_atomic_comp_swap:
         return select_image_atomic(intrinsic);
      default:
         if (graphics) {
            bool handled = false;
            if (!graphics->select(intrinsic, result(), handled))
               return false;
            if (handled)
               return true;
         }
         return fail(std::string("the NIR intrinsic ") + info.name +
                     " is not supported by the compiler yet");
      }
   }

   /* The scratch elements (16 bytes each) the private arrays in scratch take; ARRAY_SIZE (12
    * bits) limits an access to element 4095. */
   bool size_scratch()
   {
      out.scratch_elements = (shader->scratch_size + 15) / 16;
      if (out.scratch_elements > max_scratch_elements)
         return fail("private arrays indexed at run time needing more than " +
                     std::to_string(16 * max_scratch_elements) +
                     " bytes of scratch per invocation are not supported (this shader needs " +
                     std::to_string(shader->scratch_size) + ": a 16-byte element per vec4 slot)");
      return true;
   }
   static constexpr unsigned max_scratch_elements = 4096;

   /* Private arrays in the scratch ring (nir_frontend.cpp put them there; docs/compiler.md
    * "Scratch"): a store is one MEM_SCRATCH of the channels it writes from one GPR, a load one
    * READ_SCRATCH into one GPR after a WAIT_ACK (the stores asked for acknowledgements); the
    * byte offset is 16 x the element, which at run time goes in channel x of an index GPR. */
   bool select_scratch(nir_intrinsic_instr *intrinsic)
   {
      const bool store = intrinsic->intrinsic == nir_intrinsic_store_scratch;
      const nir_src &offset = intrinsic->src[store ? 1 : 0];
      const unsigned count = store ? nir_src_num_components(intrinsic->src[0]) : dest_components(intrinsic);
      if ((store ? nir_src_bit_size(intrinsic->src[0]) : nir_dest_bit_size(intrinsic->dest)) != 32 || count > 4)
         return fail("only 32-bit private array elements of up to four components are supported");
      unsigned index = no_value, element = 0;
      if (nir_src_is_const(offset)) {
         const uint64_t bytes = nir_src_as_uint(offset);
         if (bytes % 16 || bytes / 16 >= max_scratch_elements)
            return fail("internal: a scratch access at byte " + std::to_string(bytes) +
                        ", not the start of one of the program's elements");
         element = unsigned(bytes / 16);
      } else {
         Operand bytes;
         if (!operand(offset, 0, bytes))
            return false;
         index = emit("LSHR_INT", {bytes, Operand::literal(4)}, 0);
      }
      const unsigned group = out.gpr_groups++;
      Node node;
      if (store) {
         node.kind = NodeKind::Store;
         node.store.scratch = true;
         node.store.scratch_element = element;
         node.store.index = index;
         const unsigned mask = nir_intrinsic_write_mask(intrinsic);
         for (unsigned c = 0; c < count; c++) {
            if (!((mask >> c) & 1))
               continue;
            Operand data;
            if (!operand(intrinsic->src[0], c, data))
               return false;
            const unsigned d = emit("MOV", {data}, int(c));
            out.values[d].gpr_group = int(group);
            (c ? node.store.data_yzw[c - 1] : node.store.data) = d;
         }
      } else {
         node.kind = NodeKind::Fetch;
         node.fetch.wait_ack = true;
         TextureFetch &fetch = node.fetch.texture;
         fetch.op = isa::find_fetch_op("READ_SCRATCH");
         fetch.coords[0] = index;
         fetch.offset = element;
         for (unsigned c = 0; c < count; c++) {
            const unsigned v = out.new_value(int(c));
            out.values[v].gpr_group = int(group);
            fetch.results[c] = v;
            defs[result_key].push_back(Operand::of_value(v));
         }
      }
      out.nodes.push_back(node);
      note_accesses(unsigned(out.nodes.size() - 1));
      return true;
   }

   static unsigned dest_components(const nir_intrinsic_instr *intrinsic)
   {
      return intrinsic->dest.is_ssa ? intrinsic->dest.ssa.num_components
                                    : intrinsic->dest.reg.reg->num_components;
   }

   /* The dword index a RAT operation of `slot` uses: with robust buffer access, clamped to
    * the last dword of the bound range (driver constants; compiler.h). */
   unsigned rat_index(unsigned slot, unsigned index)
   {
      if (!robust_buffer_access)
         return index;
      note_sized(slot);
      out.uses_driver_constants = true;
      return emit("MIN_UINT", {Operand::of_value(index),
                               Operand::kcache(1, storage_buffer_last_dword_constants + slot)}, 0);
   }

   void note_sized(unsigned slot)
   {
      if (std::find(out.sized_slots.begin(), out.sized_slots.end(), slot) == out.sized_slots.end())
         out.sized_slots.push_back(slot);
   }

   /* A slot the program writes through its RAT (stores and atomics). */
   void note_rat(unsigned slot)
   {
      for (unsigned s : out.rat_slots)
         if (s == slot)
            return;
      out.rat_slots.push_back(slot);
   }

   /* The largest value component `component` of `src` can hold as an unsigned 32-bit integer,
    * from what is known without running the program (2^32 - 1 when nothing is). Values that
    * live in NIR registers (after leaving SSA) count as unknown. */
   uint64_t unsigned_upper_bound(const nir_src &src, unsigned component, unsigned depth = 0)
   {
      constexpr uint64_t unknown = 0xffffffffu;
      if (!src.is_ssa || src.ssa->bit_size != 32 || depth > 24)
         return unknown;
      if (nir_src_is_const(src))
         return nir_src_comp_as_uint(src, component);
      const nir_instr *instr = src.ssa->parent_instr;
      if (instr->type == nir_instr_type_intrinsic) {
         const nir_intrinsic_instr *intrinsic = nir_instr_as_intrinsic(instr);
         const bool compute = shader->info.stage == MESA_SHADER_COMPUTE && !shader->info.workgroup_size_variable;
         const auto &size = shader->info.workgroup_size;
         switch (intrinsic->intrinsic) {
         case nir_intrinsic_load_local_invocation_id:
            return compute ? uint64_t(std::max<unsigned>(size[component], 1) - 1) : unknown;
         case nir_intrinsic_load_local_invocation_index:
            return compute ? uint64_t(std::max<unsigned>(size[0] * size[1] * size[2], 1) - 1) : unknown;
         case nir_intrinsic_load_workgroup_id:
            return max_workgroup_count - 1;
         case nir_intrinsic_load_num_workgroups:
            return max_workgroup_count;
         default:
            return unknown;
         }
      }
      if (instr->type != nir_instr_type_alu)
         return unknown;
      const nir_alu_instr *alu = nir_instr_as_alu(instr);
      auto bound = [&](unsigned s) {
         return unsigned_upper_bound(alu->src[s].src, alu->src[s].swizzle[component], depth + 1);
      };
      auto known = [&](unsigned s, uint64_t &value) {
         if (!nir_src_is_const(alu->src[s].src))
            return false;
         value = nir_src_comp_as_uint(alu->src[s].src, alu->src[s].swizzle[component]);
         return true;
      };
      auto fits = [&](uint64_t value) { return value <= unknown ? value : unknown; };
      uint64_t constant = 0;
      switch (alu->op) {
      case nir_op_mov:
         return bound(0);
      case nir_op_iadd:
         return fits(bound(0) + bound(1));
      case nir_op_imul:
      case nir_op_umul24:
      case nir_op_imul24:
         return fits(bound(0) * bound(1));
      case nir_op_umul_high:
         /* Both bounds are below 2^32: their product fits in 64 bits. (x / d by a constant,
          * then x - d * quotient: the product by d can then be 24-bit.) */
         return (bound(0) * bound(1)) >> 32;
      case nir_op_ishl:
         return known(1, constant) ? fits(bound(0) << (constant & 31)) : unknown;
      case nir_op_ushr:
         return known(1, constant) ? bound(0) >> (constant & 31) : bound(0);
      case nir_op_iand:
      case nir_op_umin:
         return std::min(bound(0), bound(1));
      case nir_op_umax:
      case nir_op_bcsel:
         return alu->op == nir_op_bcsel ? std::max(bound(1), bound(2)) : std::max(bound(0), bound(1));
      case nir_op_ior:
      case nir_op_ixor: {
         const uint64_t larger = std::max(bound(0), bound(1));
         return larger ? fits((uint64_t(1) << std::bit_width(larger)) - 1) : 0;
      }
      case nir_op_udiv:
         return known(1, constant) && constant ? bound(0) / constant : bound(0);
      case nir_op_umod:
         return known(1, constant) && constant ? std::min(bound(0), constant - 1) : bound(0);
      default:
         return unknown;
      }
   }

   bool select_load_ssbo(nir_intrinsic_instr *intrinsic)
   {
      unsigned binding;
      if (!binding_of(intrinsic->src[0], binding))
         return false;
      uint32_t constant_offset = 0;
      unsigned address;
      const nir_src *offset_src = &intrinsic->src[1];
      unsigned offset_component = 0;
      /* offset = x + constant (+ the descriptor's offset, always 0 here): the constant goes to
       * the fetch's OFFSET field; the adds are left to dead-code elimination. NIR's offset
       * arithmetic wraps around 2^32: b[31u - i] is (-4i) + 124 after NIR reassociates it, and
       * -4i is a huge unsigned address. Whether the fetch unit wraps index * stride + OFFSET
       * is documented nowhere we know (the documents give index * stride + OFFSET and a
       * bounds check); the simulator does not wrap (docs/sim-semantics.md, "Memory"). LLVM's
       * R600 backend folds such constants too, but its addresses include the buffer's
       * base pointer, so they are rarely near 2^32. Code that is right either way: a
       * constant is only taken out of the sum when x + constant provably stays below 2^32
       * (unsigned_upper_bound). */
      auto is_descriptor_offset = [](const nir_src &src, unsigned component) {
         if (!src.is_ssa || src.ssa->parent_instr->type != nir_instr_type_intrinsic || component != 1)
            return false;
         const nir_intrinsic_op op = nir_instr_as_intrinsic(src.ssa->parent_instr)->intrinsic;
         return op == nir_intrinsic_load_vulkan_descriptor || op == nir_intrinsic_vulkan_resource_index;
      };
      const unsigned count = dest_components(intrinsic);
      const uint64_t last_component = 4 * uint64_t(count - 1);
      uint64_t sum = 0; /* the constants passed so far */
      for (unsigned depth = 0; depth < 4; depth++) {
         if (!offset_src->is_ssa || offset_src->ssa->parent_instr->type != nir_instr_type_alu)
            break;
         nir_alu_instr *add = nir_instr_as_alu(offset_src->ssa->parent_instr);
         if (add->op != nir_op_iadd)
            break;
         int other = -1;
         uint64_t value = 0;
         for (unsigned k = 0; k < 2 && other < 0; k++) {
            const nir_alu_src &side = add->src[k];
            if (nir_src_is_const(side.src)) {
               value = nir_src_comp_as_uint(side.src, side.swizzle[offset_component]);
               other = int(1 - k);
            } else if (is_descriptor_offset(side.src, side.swizzle[offset_component])) {
               value = 0;
               other = int(1 - k);
            }
         }
         if (other < 0 || sum + value > 0xf000)
            break;
         const nir_src &rest = add->src[other].src;
         const unsigned rest_component = add->src[other].swizzle[offset_component];
         const uint64_t rest_bound = nir_src_is_const(rest) || is_descriptor_offset(rest, rest_component)
                                        ? 0 : unsigned_upper_bound(rest, rest_component);
         if (rest_bound + sum + value + last_component > 0xffffffffu)
            break;
         sum += value;
         offset_src = &rest;
         offset_component = rest_component;
      }
      constant_offset = uint32_t(sum);
      if (nir_src_is_const(*offset_src) || is_descriptor_offset(*offset_src, offset_component)) {
         /* A constant offset: in OFFSET when it fits beside the components, else in the
          * address. */
         const uint64_t whole = sum + (nir_src_is_const(*offset_src) ? nir_src_comp_as_uint(*offset_src, offset_component) : 0);
         const bool in_field = whole + last_component <= 0xffff;
         constant_offset = in_field ? uint32_t(whole) : 0;
         address = constant_address(intrinsic->instr.block, in_field ? 0 : uint32_t(whole));
      } else if (!value_operand(*offset_src, offset_component, address)) {
         return false;
      }
      return emit_fetches(address, binding, constant_offset, count, defs[result_key]);
   }

   /* A uniform-buffer load at a constant offset as kcache operands: the buffer becomes constant
    * buffer 2 + k (kcache_slots[k] = its fetch slot; at most 14, constant buffers 2-15), which
    * the driver binds with SQ_ALU_CONST_CACHE_*_n. False (nothing emitted, no error) where the
    * load stays a fetch: a run-time offset, robust buffer access (the kcache has no bounds
    * check Vulkan's robustness could rely on: the fetch unit's returns zeros), an offset past
    * the 64 KiB the kcache lines reach (KCACHE_ADDR is 8 bits of 256-byte lines), or no
    * constant buffer left. */
   bool select_ubo_kcache(nir_intrinsic_instr *intrinsic)
   {
      if (robust_buffer_access)
         return false;
      Operand descriptor;
      if (!operand(intrinsic->src[0], 0, descriptor) || descriptor.kind != OperandKind::Descriptor) {
         error.clear();
         return false;
      }
      /* offset = constants + the descriptor's offset part (always 0 here). */
      uint64_t whole = 0;
      const nir_src *offset = &intrinsic->src[1];
      unsigned component = 0;
      for (;;) {
         if (nir_src_is_const(*offset)) {
            whole += nir_src_comp_as_uint(*offset, component);
            break;
         }
         if (!offset->is_ssa)
            return false;
         nir_instr *parent = offset->ssa->parent_instr;
         if (parent->type == nir_instr_type_intrinsic && component == 1) {
            const nir_intrinsic_op op = nir_instr_as_intrinsic(parent)->intrinsic;
            if (op == nir_intrinsic_load_vulkan_descriptor || op == nir_intrinsic_vulkan_resource_index)
               break;
            return false;
         }
         if (parent->type == nir_instr_type_alu && nir_instr_as_alu(parent)->op == nir_op_mov) {
            nir_alu_instr *move = nir_instr_as_alu(parent);
            component = move->src[0].swizzle[component];
            offset = &move->src[0].src;
            continue;
         }
         if (parent->type != nir_instr_type_alu || nir_instr_as_alu(parent)->op != nir_op_iadd)
            return false;
         nir_alu_instr *add = nir_instr_as_alu(parent);
         if (!nir_src_is_const(add->src[0].src) && !nir_src_is_const(add->src[1].src))
            return false;
         const unsigned k = nir_src_is_const(add->src[0].src) ? 0 : 1;
         whole += nir_src_comp_as_uint(add->src[k].src, add->src[k].swizzle[component]);
         component = add->src[1 - k].swizzle[component];
         offset = &add->src[1 - k].src;
      }
      const unsigned count = dest_components(intrinsic);
      if (whole % 4 || whole + 4 * count > 65536)
         return false;
      const unsigned slot = descriptor.value;
      auto found = std::find(out.kcache_slots.begin(), out.kcache_slots.end(), slot);
      if (found == out.kcache_slots.end()) {
         if (out.kcache_slots.size() == max_kcache_uniform_buffers)
            return false;
         out.kcache_slots.push_back(slot);
         found = out.kcache_slots.end() - 1;
      }
      const unsigned bank = first_kcache_uniform_buffer + unsigned(found - out.kcache_slots.begin());
      for (unsigned c = 0; c < count; c++)
         defs[result_key].push_back(Operand::kcache(bank, unsigned(whole / 4) + c));
      return true;
   }

   /* The address value of loads at a constant address: one MOV per value and NIR block, read
    * by every such load of the block that follows it (no marker in between). */
   unsigned constant_address(const nir_block *block, uint32_t bits)
   {
      const auto key = std::make_pair(block, bits);
      const auto found = constant_addresses.find(key);
      if (found != constant_addresses.end()) {
         bool crossed = false;
         for (size_t i = found->second.second; i < out.nodes.size(); i++)
            crossed |= is_marker(out.nodes[i].kind);
         if (!crossed)
            return found->second.first;
      }
      const unsigned value = emit("MOV", {Operand::literal(bits)});
      constant_addresses[key] = {value, out.nodes.size() - 1};
      return value;
   }

   /* The components of a load at byte `address` + `offset` + 4 * component: runs of up to four
    * dwords in one VFETCH (FMT_32 to FMT_32_32_32_32, results in one GPR, component c of the
    * run in channel c), single dwords in a VFETCH of their own. */
   bool emit_fetches(unsigned address, unsigned resource, uint32_t offset, unsigned count,
                     std::vector<Operand> &results)
   {
      if (count > 1) {
         if (offset + 4 * (count - 1) > 0xffff)
            return fail("a buffer load at a constant offset beyond 64 KiB is not supported yet");
         for (unsigned first = 0; first < count; first += 4) {
            const unsigned run = std::min(4u, count - first);
            Node node;
            node.kind = NodeKind::Fetch;
            TextureFetch &fetch = node.fetch.texture;
            fetch.op = isa::find_fetch_op("VFETCH");
            fetch.resource = resource;
            fetch.coords[0] = address;
            fetch.raw_dwords = run;
            fetch.offset = offset + 4 * first;
            const unsigned group = out.gpr_groups++;
            for (unsigned c = 0; c < run; c++) {
               const unsigned v = out.new_value(int(c));
               out.values[v].gpr_group = int(group);
               fetch.results[c] = v;
               results.push_back(Operand::of_value(v));
            }
            out.nodes.push_back(node);
            note_accesses(unsigned(out.nodes.size() - 1));
         }
         return true;
      }
      for (unsigned c = 0; c < count; c++) {
         if (offset + 4 * c > 0xffff)
            return fail("a buffer load at a constant offset beyond 64 KiB is not supported yet");
         Node node;
         node.kind = NodeKind::Fetch;
         node.fetch = {out.new_value(), address, resource, offset + 4 * c};
         out.nodes.push_back(node);
         note_accesses(unsigned(out.nodes.size() - 1));
         results.push_back(Operand::of_value(node.fetch.dst));
      }
      return true;
   }

   /* The RAT operations of a storage-buffer or image atomic (the same for both families, by
    * the operation's name after "atomic_"): its plain form, none for exchange and
    * compare-exchange (RAT_INST has no plain exchange), and its returning *_RTN form. */
   struct RatAtomicForms {
      const char *plain, *returning;
   };
   static RatAtomicForms rat_atomic_forms(nir_intrinsic_op op)
   {
      static const std::map<std::string_view, RatAtomicForms> forms = {
         {"add", {"ADD", "ADD_RTN"}},         {"imin", {"MIN_INT", "MIN_INT_RTN"}},
         {"umin", {"MIN_UINT", "MIN_UINT_RTN"}}, {"imax", {"MAX_INT", "MAX_INT_RTN"}},
         {"umax", {"MAX_UINT", "MAX_UINT_RTN"}}, {"and", {"AND", "AND_RTN"}},
         {"or", {"OR", "OR_RTN"}},             {"xor", {"XOR", "XOR_RTN"}},
         {"exchange", {nullptr, "XCHG_RTN"}},  {"comp_swap", {nullptr, "CMPXCHG_INT_RTN"}},
      };
      const std::string_view name = nir_intrinsic_infos[op].name;
      return forms.at(name.substr(name.find("atomic_") + 7));
   }

   /* Storage-buffer atomics become RAT atomics: without return when the result is unused,
    * else the *_RTN form followed by a fetch of the old value from the return buffer
    * (compiler.h, rat_return_fetch_resource). Exchange and compare-exchange always take the
    * returning form (RAT_INST has no plain exchange; one path for compare-exchange). */
   bool select_ssbo_atomic(nir_intrinsic_instr *intrinsic)
   {
      const RatAtomicForms forms = rat_atomic_forms(intrinsic->intrinsic);
      const bool used = !intrinsic->dest.is_ssa || !nir_ssa_def_is_unused(&intrinsic->dest.ssa);
      const bool returns = used || !forms.plain;
      if (nir_dest_bit_size(intrinsic->dest) != 32)
         return fail("only 32-bit storage-buffer atomics are supported");
      unsigned binding;
      if (!binding_of(intrinsic->src[0], binding))
         return false;
      note_rat(binding);
      const bool swaps = intrinsic->intrinsic == nir_intrinsic_ssbo_atomic_comp_swap;
      /* comp_swap: src[2] is the compare value, src[3] the new one. */
      Operand offset, data, compare;
      if (!operand(intrinsic->src[1], 0, offset) || !operand(intrinsic->src[swaps ? 3 : 2], 0, data) ||
          (swaps && !operand(intrinsic->src[2], 0, compare)))
         return false;
      const unsigned index = rat_index(binding, emit("LSHR_INT", {offset, Operand::literal(2)}, 0));
      Node node;
      node.kind = NodeKind::Store;
      if (!returns) {
         node.store = {emit("MOV", {data}, 0), index, binding, forms.plain};
         out.nodes.push_back(node);
         note_accesses(unsigned(out.nodes.size() - 1));
         return true;
      }
      node.store.index = index;
      node.store.binding = binding;
      node.store.atomic = forms.returning;
      return emit_returning_rat(node, data, swaps ? &compare : nullptr);
   }

   /* A returning RAT operation (`node`: a Store with its index, binding and *_RTN operation
    * set) and the fetch of its old value, which becomes the intrinsic's result. Image atomics
    * can use it as storage-buffer atomics do (the notes for helper A: /tmp/helpers/notes.md). */
   bool emit_returning_rat(Node node, const Operand &data, const Operand *compare)
   {
      unsigned return_index;
      if (!rat_return_index(return_index))
         return false;
      out.rat_returns = true;
      /* One GPR: data in x, the return index in y, the compare value in w (and z on Cayman,
       * where r600g reads it from z and LLVM from w; backend_ir.h StoreOp). */
      const unsigned group = out.gpr_groups++;
      auto member = [&](Operand source, unsigned chan) {
         const unsigned v = emit("MOV", {source}, int(chan));
         out.values[v].required_chan = int(chan);
         out.values[v].gpr_group = int(group);
         return v;
      };
      node.store.returns = true;
      node.store.data = member(data, 0);
      node.store.return_index = member(Operand::of_value(return_index), 1);
      if (compare) {
         node.store.compare = member(*compare, 3);
         if (out.isa == hw::IsaClass::Cayman)
            node.store.compare_z = member(*compare, 2);
      }
      /* Every lane has one return dword: an earlier returning operation's value must be
       * fetched before this one overwrites it. */
      if (last_return_fetch >= 0)
         node.after.push_back(unsigned(last_return_fetch));
      out.nodes.push_back(node);
      note_accesses(unsigned(out.nodes.size() - 1));
      /* The old value, fetched from the return buffer after WAIT_ACK (byte address). */
      Node fetch;
      fetch.kind = NodeKind::Fetch;
      fetch.fetch.dst = out.new_value();
      fetch.fetch.address = emit("LSHL_INT", {Operand::of_value(return_index), Operand::literal(2)});
      fetch.fetch.binding = rat_return_fetch_resource;
      fetch.fetch.wait_ack = true;
      out.nodes.push_back(fetch);
      note_accesses(unsigned(out.nodes.size() - 1));
      last_return_fetch = int(out.nodes.size() - 1);
      defs[result_key].push_back(Operand::of_value(fetch.fetch.dst));
      return true;
   }

   /* Storage-buffer atomics that take the returning form (select_ssbo_atomic). */
   static bool has_returning_atomics(nir_function_impl *impl)
   {
      nir_foreach_block(block, impl) {
         nir_foreach_instr(instr, block) {
            if (instr->type != nir_instr_type_intrinsic)
               continue;
            nir_intrinsic_instr *intrinsic = nir_instr_as_intrinsic(instr);
            switch (intrinsic->intrinsic) {
            case nir_intrinsic_ssbo_atomic_exchange:
            case nir_intrinsic_ssbo_atomic_comp_swap:
            case nir_intrinsic_image_atomic_exchange:
            case nir_intrinsic_image_atomic_comp_swap:
               return true;
            case nir_intrinsic_image_atomic_add:
            case nir_intrinsic_image_atomic_imin:
            case nir_intrinsic_image_atomic_umin:
            case nir_intrinsic_image_atomic_imax:
            case nir_intrinsic_image_atomic_umax:
            case nir_intrinsic_image_atomic_and:
            case nir_intrinsic_image_atomic_or:
            case nir_intrinsic_image_atomic_xor:
            case nir_intrinsic_ssbo_atomic_add:
            case nir_intrinsic_ssbo_atomic_imin:
            case nir_intrinsic_ssbo_atomic_umin:
            case nir_intrinsic_ssbo_atomic_imax:
            case nir_intrinsic_ssbo_atomic_umax:
            case nir_intrinsic_ssbo_atomic_and:
            case nir_intrinsic_ssbo_atomic_or:
            case nir_intrinsic_ssbo_atomic_xor:
               if (!intrinsic->dest.is_ssa || !nir_ssa_def_is_unused(&intrinsic->dest.ssa))
                  return true;
               break;
            default:
               break;
            }
         }
      }
      return false;
   }

   unsigned return_index_value = no_value; /* compute_rat_return_index's result */

   bool rat_return_index(unsigned &index)
   {
      if (shader->info.stage != MESA_SHADER_COMPUTE && shader->info.stage != MESA_SHADER_FRAGMENT)
         return fail("storage-buffer atomics whose result is used are supported in compute and fragment shaders only");
      if (return_index_value == no_value)
         return fail("internal: a returning atomic the first scan did not see");
      index = return_index_value;
      return true;
   }

   /* The return buffer dword of this lane: (SE_ID * 256 + HW_WAVE_ID) * 64 + lane, lane being
    * the flat local invocation index modulo 64 (a wave holds consecutive invocations, at most
    * 64; r600g counts the lane with MBCNT instead). The products stay below 2^24. */
   /* A pixel shader's lane in its wave, as r600g counts it: MBCNT_32LO_ACCUM_PREV_INT in x and
    * MBCNT_32HI_INT in y of one group, both of all ones; the low half's count takes in the high
    * half's (sfn_shader.cpp; the simulator's rule: docs/sim-semantics.md). */
   unsigned emit_lane_index()
   {
      const int bundle = next_bundle++;
      unsigned low = no_value;
      for (unsigned slot = 0; slot < 2; slot++) {
         Node node;
         node.kind = NodeKind::Alu;
         node.alu.op = &op_named(slot == 0 ? "MBCNT_32LO_ACCUM_PREV_INT" : "MBCNT_32HI_INT");
         node.alu.src[0] = Operand::literal(0xffffffffu);
         node.alu.dst = out.new_value(int(slot));
         node.bundle = bundle;
         out.nodes.push_back(node);
         note_accesses(unsigned(out.nodes.size() - 1));
         if (slot == 0)
            low = node.alu.dst;
      }
      return low;
   }

   bool compute_rat_return_index()
   {
      unsigned &index = return_index_value;
      if (shader->info.stage == MESA_SHADER_FRAGMENT) {
         const unsigned wave = emit("MULADD_UINT24", {Operand{OperandKind::Inline, isa::src_sel::se_id},
                                                      Operand::literal(256),
                                                      Operand{OperandKind::Inline, isa::src_sel::hw_wave_id}});
         index = emit("MULADD_UINT24", {Operand::of_value(wave), Operand::literal(64),
                                        Operand::of_value(emit_lane_index())});
         return true;
      }
      if (shader->info.workgroup_size_variable)
         return fail("a variable workgroup size is not supported");
      const auto &size = shader->info.workgroup_size;
      Operand flat = Operand::of_value(local_id[0]);
      if (size[1] > 1 || size[2] > 1) {
         Operand rows = Operand::of_value(local_id[1]);
         if (size[2] > 1)
            rows = Operand::of_value(emit("MULADD_UINT24", {Operand::of_value(local_id[2]), Operand::literal(size[1]), rows}));
         flat = Operand::of_value(emit("MULADD_UINT24", {rows, Operand::literal(size[0]), flat}));
      }
      const unsigned lane = emit("AND_INT", {flat, Operand::literal(63)});
      const unsigned wave = emit("MULADD_UINT24", {Operand{OperandKind::Inline, isa::src_sel::se_id},
                                                   Operand::literal(256),
                                                   Operand{OperandKind::Inline, isa::src_sel::hw_wave_id}});
      index = emit("MULADD_UINT24", {Operand::of_value(wave), Operand::literal(64), Operand::of_value(lane)});
      return true;
   }

   /* The index GPR of a typed RAT operation (STORE_TYPED, image atomics): x, y, and the layer
    * or slice in z, one GPR group; sets `index` and `index_yzw` of `store`. */
   bool typed_rat_index(nir_intrinsic_instr *intrinsic, StoreOp &store)
   {
      const bool array = nir_intrinsic_image_array(intrinsic);
      /* Which coordinate component each channel of the index GPR takes (-1: zero). */
      std::array<int, 4> from{0, -1, -1, -1};
      switch (nir_intrinsic_image_dim(intrinsic)) {
      case GLSL_SAMPLER_DIM_1D: if (array) from[2] = 1; break;
      case GLSL_SAMPLER_DIM_BUF: break;
      case GLSL_SAMPLER_DIM_2D: from[1] = 1; if (array) from[2] = 2; break;
      case GLSL_SAMPLER_DIM_3D:
      case GLSL_SAMPLER_DIM_CUBE: /* the face (layer x 6 + face) is the slice */
         from[1] = 1; from[2] = 2; break;
      default: return fail("internal: an image operation of a dimension image_lowering refuses");
      }
      const unsigned group = out.gpr_groups++;
      for (unsigned c = 0; c < 4; c++) {
         Operand coordinate = Operand::literal(0);
         if (from[c] >= 0 && !operand(intrinsic->src[1], unsigned(from[c]), coordinate))
            return false;
         const unsigned v = emit("MOV", {coordinate}, int(c));
         out.values[v].gpr_group = int(group);
         (c ? store.index_yzw[c - 1] : store.index) = v;
      }
      return true;
   }

   void note_image_rat(unsigned rat)
   {
      if (std::find(out.image_rats.begin(), out.image_rats.end(), rat) == out.image_rats.end())
         out.image_rats.push_back(rat);
   }

   /* Image atomics on R32 UINT/SINT images (image_lowering.cpp put the RAT in src[0]): the RAT
    * operation with the coordinates as STORE_TYPED takes them and the value in x; with its
    * result used (or exchange, compare-exchange) the returning form (emit_returning_rat). */
   bool select_image_atomic(nir_intrinsic_instr *intrinsic)
   {
      if (!nir_src_is_const(intrinsic->src[0]))
         return fail("internal: an image atomic without a constant RAT");
      if (nir_dest_bit_size(intrinsic->dest) != 32)
         return fail("only 32-bit image atomics are supported");
      const RatAtomicForms forms = rat_atomic_forms(intrinsic->intrinsic);
      const bool used = !intrinsic->dest.is_ssa || !nir_ssa_def_is_unused(&intrinsic->dest.ssa);
      const bool returns = used || !forms.plain;
      const unsigned rat = unsigned(nir_src_as_uint(intrinsic->src[0]));
      note_image_rat(rat);
      const bool swaps = intrinsic->intrinsic == nir_intrinsic_image_atomic_comp_swap;
      /* src[3] is the value, or comp_swap's compare value with the new one in src[4]. */
      Operand data, compare;
      if (!operand(intrinsic->src[swaps ? 4 : 3], 0, data) || (swaps && !operand(intrinsic->src[3], 0, compare)))
         return false;
      Node node;
      node.kind = NodeKind::Store;
      node.store.binding = rat;
      if (!typed_rat_index(intrinsic, node.store))
         return false;
      if (!returns) {
         node.store.atomic = forms.plain;
         node.store.data = emit("MOV", {data}, 0);
         out.nodes.push_back(node);
         note_accesses(unsigned(out.nodes.size() - 1));
         return true;
      }
      node.store.atomic = forms.returning;
      return emit_returning_rat(node, data, swaps ? &compare : nullptr);
   }

   /* A storage-image or texel-buffer store (image_lowering.cpp put its RAT in src[0]):
    * STORE_TYPED with the coordinates in one GPR and the four data channels in another. The
    * index GPR holds x, y and the layer or z slice in z: a 1D array's layer moves from y to z
    * (Mesa sfn_instr_mem.cpp emit_image_store; docs/sim-semantics.md, "Typed RAT stores"). */
   bool select_image_store(nir_intrinsic_instr *intrinsic)
   {
      if (!nir_src_is_const(intrinsic->src[0]))
         return fail("internal: an image store without a constant RAT");
      if (nir_src_bit_size(intrinsic->src[3]) != 32 || nir_src_bit_size(intrinsic->src[1]) != 32)
         return fail("only 32-bit image coordinates and data are supported");
      const unsigned rat = unsigned(nir_src_as_uint(intrinsic->src[0]));
      Node node;
      node.kind = NodeKind::Store;
      node.store.typed = true;
      node.store.binding = rat;
      if (!typed_rat_index(intrinsic, node.store))
         return false;
      const unsigned data_group = out.gpr_groups++;
      for (unsigned c = 0; c < 4; c++) {
         Operand data = Operand::literal(0);
         if (c < nir_src_num_components(intrinsic->src[3]) && !operand(intrinsic->src[3], c, data))
            return false;
         const unsigned d = emit("MOV", {data}, int(c));
         out.values[d].gpr_group = int(data_group);
         (c ? node.store.data_yzw[c - 1] : node.store.data) = d;
      }
      note_image_rat(rat);
      out.nodes.push_back(node);
      note_accesses(unsigned(out.nodes.size() - 1));
      return true;
   }

   /* The dword index of a store's byte offset, in channel x: offset >> 2, or the offset's
    * quarter taken apart (quarter_offset), which shares the product of base * 4k + 4c among
    * the stores of a block (one ADD_INT each instead of an ADD_INT and an LSHR_INT). */
   unsigned store_dword_index(const nir_src &src, const Operand &offset, const nir_block *block)
   {
      Operand quarter;
      if (!quarter_offset(src, 0, block, 0, quarter))
         return emit("LSHR_INT", {offset, Operand::literal(2)}, 0);
      if (quarter.is_value() && !quarter.neg && !quarter.abs && out.values[quarter.value].fixed_gpr < 0 &&
          (out.values[quarter.value].required_chan < 0 || out.values[quarter.value].required_chan == 0)) {
         out.values[quarter.value].required_chan = 0;
         return quarter.value;
      }
      return emit("MOV", {quarter}, 0);
   }

   /* offset / 4 for a byte offset that is provably a multiple of 4 computed without wrapping
    * around 2^32 (unsigned_upper_bound): the quotient then distributes over its sums, products
    * by multiples of 4 and left shifts by 2 or more. False when that cannot be shown (whatever
    * was emitted on the way is dead code). `chan`: the channel of the operation emitted last,
    * -1 for free. Quarters of inner values are remembered per block, for the next store. */
   bool quarter_offset(const nir_src &src, unsigned component, const nir_block *block, int chan, Operand &result,
                       unsigned depth = 0)
   {
      constexpr uint64_t largest = 0xffffffffu;
      if (!src.is_ssa || src.ssa->bit_size != 32 || depth > 8)
         return false;
      if (nir_src_is_const(src)) {
         const uint32_t bytes = uint32_t(nir_src_comp_as_uint(src, component));
         result = Operand::literal(bytes / 4);
         return bytes % 4 == 0;
      }
      const nir_instr *instr = src.ssa->parent_instr;
      if (instr->type == nir_instr_type_intrinsic && component == 1) {
         /* The descriptor's offset part: always 0 here (select_load_ssbo). */
         const nir_intrinsic_op op = nir_instr_as_intrinsic(instr)->intrinsic;
         result = Operand::literal(0);
         return op == nir_intrinsic_load_vulkan_descriptor || op == nir_intrinsic_vulkan_resource_index;
      }
      if (instr->type != nir_instr_type_alu)
         return false;
      const auto key = std::make_tuple(block, src.ssa->index, component);
      if (chan < 0) {
         const auto found = quarters.find(key);
         if (found != quarters.end()) {
            result = found->second;
            return true;
         }
      }
      const nir_alu_instr *alu = nir_instr_as_alu(instr);
      auto source = [&](unsigned s) -> const nir_src & { return alu->src[s].src; };
      auto source_component = [&](unsigned s) { return unsigned(alu->src[s].swizzle[component]); };
      auto constant = [&](unsigned s, uint64_t &value) {
         if (!nir_src_is_const(source(s)))
            return false;
         value = nir_src_comp_as_uint(source(s), source_component(s));
         return true;
      };
      Operand zero_quarter;
      auto bound = [&](unsigned s) {
         const nir_src &from = source(s);
         const bool descriptor_offset = from.is_ssa && from.ssa->parent_instr->type == nir_instr_type_intrinsic &&
                                        source_component(s) == 1 && quarter_offset(from, 1, block, -1, zero_quarter);
         return descriptor_offset ? 0 : unsigned_upper_bound(from, source_component(s));
      };
      switch (alu->op) {
      case nir_op_mov:
         return quarter_offset(source(0), source_component(0), block, chan, result, depth + 1);
      case nir_op_iadd: {
         Operand left, right;
         if (bound(0) + bound(1) > largest ||
             !quarter_offset(source(0), source_component(0), block, -1, left, depth + 1) ||
             !quarter_offset(source(1), source_component(1), block, -1, right, depth + 1))
            return false;
         const Operand zero = Operand::literal(0);
         result = left == zero ? right
                : right == zero ? left
                                : Operand::of_value(emit("ADD_INT", {left, right}, chan));
         break;
      }
      case nir_op_imul: {
         uint64_t factor = 0;
         const int k = constant(1, factor) ? 1 : constant(0, factor) ? 0 : -1;
         if (k < 0 || factor % 4 || bound(1 - k) * factor > largest)
            return false;
         Operand other;
         if (!operand(source(1 - k), source_component(1 - k), other))
            return false;
         const uint64_t quarter = factor / 4;
         if (quarter == 1)
            result = other;
         else
            result = Operand::of_value(emit(bound(1 - k) <= 0xffffffu && quarter <= 0xffffffu ? "MUL_UINT24" : "MULLO_INT",
                                            {other, Operand::literal(uint32_t(quarter))}, chan));
         break;
      }
      case nir_op_ishl: {
         uint64_t shift = 0;
         if (!constant(1, shift) || (shift & 31) < 2 || bound(0) << (shift & 31) > largest)
            return false;
         Operand other;
         if (!operand(source(0), source_component(0), other))
            return false;
         result = (shift & 31) == 2 ? other
                                    : Operand::of_value(emit("LSHL_INT", {other, Operand::literal(uint32_t((shift & 31) - 2))}, chan));
         break;
      }
      default:
         return false;
      }
      if (chan < 0)
         quarters[key] = result;
      return true;
   }

   bool select_store_ssbo(nir_intrinsic_instr *intrinsic)
   {
      unsigned binding;
      if (!binding_of(intrinsic->src[1], binding))
         return false;
      note_rat(binding);
      if (nir_src_bit_size(intrinsic->src[0]) != 32)
         return fail("only 32-bit storage buffer stores are supported");
      Operand offset;
      if (!operand(intrinsic->src[2], 0, offset))
         return false;
      /* RATs take dword indices in channel x, and the data in channel x. */
      const unsigned base_index = store_dword_index(intrinsic->src[2], offset, intrinsic->instr.block);
      const unsigned mask = nir_intrinsic_write_mask(intrinsic);
      for (unsigned c = 0; c < nir_src_num_components(intrinsic->src[0]); c++) {
         if (!(mask >> c & 1))
            continue;
         Operand data;
         if (!operand(intrinsic->src[0], c, data))
            return false;
         const unsigned index = rat_index(binding, c == 0 ? base_index
                                                        : emit("ADD_INT", {Operand::of_value(base_index), Operand::literal(c)}, 0));
         /* The data must be in channel x: ask that of the value itself when nothing else
          * constrains it, else copy it there. */
         unsigned moved;
         if (data.is_value() && !data.neg && !data.abs &&
             out.values[data.value].fixed_gpr < 0 && !out.values[data.value].whole_program &&
             (out.values[data.value].required_chan < 0 || out.values[data.value].required_chan == 0)) {
            out.values[data.value].required_chan = 0;
            moved = data.value;
         } else {
            moved = emit("MOV", {data}, 0);
         }
         Node node;
         node.kind = NodeKind::Store;
         node.store = {moved, index, binding};
         out.nodes.push_back(node);
         note_accesses(unsigned(out.nodes.size() - 1));
      }
      return true;
   }
};

} // namespace

/* Operations whose results nobody reads (left by folding, e.g. an address add whose constant
 * went into a fetch's OFFSET) are removed; shared-memory operations, barriers, stores and
 * register writes stay. */
static void remove_dead_operations(SelectedProgram &program)
{
   for (;;) {
      std::vector<unsigned> uses(program.values.size(), 0);
      for (const Node &node : program.nodes)
         for_each_value_read(node, [&](unsigned v) { uses[v]++; });
      std::vector<int> moved(program.nodes.size(), -1);
      std::vector<Node> kept;
      for (size_t i = 0; i < program.nodes.size(); i++) {
         const Node &node = program.nodes[i];
         unsigned result = no_value;
         if (node.kind == NodeKind::Alu && !is_ordered_memory_op(node.alu))
            result = node.alu.dst;
         else if (node.kind == NodeKind::Fetch && !node.fetch.is_texture())
            result = node.fetch.dst;
         if (result != no_value && !program.values[result].whole_program && uses[result] == 0 &&
             node.bundle < 0)
            continue;
         if (node.kind == NodeKind::Fetch && node.fetch.is_texture()) {
            bool used = false;
            for (unsigned v : node.fetch.results())
               used |= uses[v] != 0;
            if (!used)
               continue;
         }
         if (node.kind == NodeKind::Fetch && node.fetch.is_texture()) {
            /* Results nobody reads are not written (DST_SEL 7). */
            for (unsigned &v : program.nodes[i].fetch.texture.results) {
               if (v != no_value && uses[v] == 0 && !program.values[v].whole_program) {
                  program.values[v].gpr_group = -1;
                  v = no_value;
               }
            }
         }
         moved[i] = int(kept.size());
         kept.push_back(program.nodes[i]);
      }
      if (kept.size() == program.nodes.size())
         return;
      renumber_order(kept, moved);
      program.nodes = std::move(kept);
   }
}

/* Exports and TEX instructions read their components from one GPR, which selection fills
 * with MOVs into a GPR group (value d in channel c). Where the MOV's source s can itself be
 * put in channel c of that GPR, s joins the group and the MOV goes (dead-code elimination
 * removes it): s must be an SSA value written by an ALU operation (not a NIR register, not a
 * preloaded value, not yet in a group, not an LDS result), whose slot rule allows channel c,
 * and read without modifiers. Where every component of an export or TEX source GPR is already
 * the channel of its position of one other group (a texture result exported as it is), the
 * export or fetch reads that group instead. */
static void coalesce_group_moves(SelectedProgram &program)
{
   const size_t count = program.values.size();
   std::vector<int> producer(count, -1);
   for (size_t i = 0; i < program.nodes.size(); i++) {
      const Node &node = program.nodes[i];
      if (node.kind == NodeKind::Alu && node.alu.dst != no_value)
         producer[node.alu.dst] = producer[node.alu.dst] == -1 ? int(i) : -2;
   }
   /* The plain MOV that writes group member d, or nullptr. */
   auto group_move = [&](unsigned d) -> const Node * {
      if (d == no_value || producer[d] < 0)
         return nullptr;
      const Node &node = program.nodes[producer[d]];
      if (node.alu.op->name != "MOV" || node.alu.clamp || node.bundle >= 0)
         return nullptr;
      const Operand &src = node.alu.src[0];
      if (!src.is_value() || src.neg || src.abs)
         return nullptr;
      return &node;
   };
   std::vector<unsigned> replacement(count, no_value);

   /* Whole GPRs first: the components of an export or TEX source that all sit in one other
    * group, each in the channel of its position. */
   auto whole = [&](std::array<unsigned, 4> &values) {
      int other = -1;
      unsigned members = 0;
      for (unsigned c = 0; c < 4; c++) {
         if (values[c] == no_value)
            continue;
         const Node *move = group_move(values[c]);
         if (!move)
            return;
         const ValueInfo &s = program.values[move->alu.src[0].value];
         if (s.gpr_group < 0 || s.required_chan != int(c) || (other >= 0 && s.gpr_group != other) ||
             s.fixed_gpr >= 0 || s.whole_program)
            return;
         other = s.gpr_group;
         members++;
      }
      if (!members)
         return;
      for (unsigned c = 0; c < 4; c++) {
         if (values[c] == no_value)
            continue;
         const unsigned s = group_move(values[c])->alu.src[0].value;
         program.values[values[c]].gpr_group = -1;
         values[c] = s;
      }
   };
   for (Node &node : program.nodes) {
      if (node.kind == NodeKind::Export)
         whole(node.exported.values);
      else if (node.kind == NodeKind::Fetch && node.fetch.is_texture() && !node.fetch.texture.raw_dwords) {
         whole(node.fetch.texture.coords);
         whole(node.fetch.texture.gradients_h);
         whole(node.fetch.texture.gradients_v);
      }
   }

   for (size_t i = 0; i < program.nodes.size(); i++) {
      const Node &node = program.nodes[i];
      if (node.kind != NodeKind::Alu || node.alu.dst == no_value)
         continue;
      const unsigned d = node.alu.dst;
      const ValueInfo &dst = program.values[d];
      if (dst.gpr_group < 0 || dst.required_chan < 0 || dst.fixed_gpr >= 0 || dst.whole_program ||
          !group_move(d))
         continue;
      const unsigned s = node.alu.src[0].value;
      const ValueInfo &source = program.values[s];
      const int c = dst.required_chan;
      if (source.fixed_gpr >= 0 || source.whole_program || source.gpr_group >= 0 ||
          (source.required_chan >= 0 && source.required_chan != c) || producer[s] < 0)
         continue;
      Node &writer = program.nodes[producer[s]];
      if (writer.bundle >= 0 && source.required_chan != c && writer.alu.op->name == "DOT4_IEEE") {
         /* Every slot of a DOT4 group gets the sum: the member in slot c writes it instead. */
         const size_t first = size_t(std::max(producer[s] - 3, 0));
         const size_t last = std::min(size_t(producer[s]) + 3, program.nodes.size() - 1);
         for (size_t j = first; j <= last; j++) {
            Node &member = program.nodes[j];
            if (member.bundle != writer.bundle || member.bundle_slot != c)
               continue;
            member.alu.dst = s;
            member.bundle_slot = -1;
            writer.alu.dst = no_value;
            writer.bundle_slot = source.required_chan;
            program.values[s].required_chan = c;
            producer[s] = int(j);
            break;
         }
      }
      const Node &placed_writer = program.nodes[producer[s]];
      if (is_ordered_memory_op(placed_writer.alu) ||
          (placed_writer.bundle >= 0 && program.values[s].required_chan != c))
         continue;
      const isa::SlotRule rule = placed_writer.alu.op->slot_rule(program.isa);
      if ((rule == isa::SlotRule::Replicated3 && c >= 3) ||
          (rule == isa::SlotRule::Four && program.values[s].required_chan != c))
         continue;
      program.values[s].gpr_group = dst.gpr_group;
      program.values[s].required_chan = c;
      program.values[d].gpr_group = -1;
      replacement[d] = s;
   }
   auto replace = [&](unsigned &v) {
      if (v != no_value && replacement[v] != no_value)
         v = replacement[v];
   };
   for (Node &node : program.nodes) {
      switch (node.kind) {
      case NodeKind::Export:
         for (unsigned &v : node.exported.values)
            replace(v);
         break;
      case NodeKind::Fetch:
         if (node.fetch.is_texture()) {
            for (auto *values : {&node.fetch.texture.coords, &node.fetch.texture.gradients_h,
                                 &node.fetch.texture.gradients_v})
               for (unsigned &v : *values)
                  replace(v);
         } else
            replace(node.fetch.address);
         break;
      case NodeKind::Alu:
         for (Operand &o : node.alu.src)
            if (o.is_value())
               replace(o.value);
         break;
      case NodeKind::Store:
         for (unsigned *v : {&node.store.data, &node.store.index, &node.store.return_index,
                             &node.store.compare, &node.store.compare_z})
            replace(*v);
         for (unsigned &v : node.store.data_yzw)
            replace(v);
         for (unsigned &v : node.store.index_yzw)
            replace(v);
         break;
      default:
         replace(node.condition);
         break;
      }
   }
}

bool select_program(nir_shader *shader, hw::IsaClass isa, const CompileOptions &options,
                    SelectedProgram &out, std::string &error)
{
   Selector selector(shader, isa, options, out, error);
   if (!selector.run())
      return false;
   fold_clamps(out);
   remove_dead_operations(out);
   coalesce_group_moves(out);
   remove_dead_operations(out);
   form_branch_predicates(out);
   /* A program that waits for its RAT writes at a memory barrier has every write ask for an
    * acknowledgement, as r600g does (the WAIT_ACK waits only for marked ones). */
   const bool waits = std::any_of(out.nodes.begin(), out.nodes.end(),
                                  [](const Node &node) { return node.kind == NodeKind::WaitAck; });
   for (Node &node : out.nodes)
      if (node.kind == NodeKind::Store && waits)
         node.store.acknowledged = true;
   return true;
}

} // namespace terakan::compiler
