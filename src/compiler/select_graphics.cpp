/* Instruction selection for vertex and pixel shaders (select_graphics.h).
 *
 * Register fields below (SPI_*, PA_CL_VS_OUT_CNTL, SQ_PGM_EXPORTS_PS, DB_SHADER_CONTROL) are
 * from Mesa 22.3's src/gallium/drivers/r600/evergreend.h; how r600g fills them (at least one
 * I/J pair and one interpolated input, EXPORT_COLORS) from its evergreen_update_ps_state. */
#include "select_graphics.h"

#include <algorithm>

#include "barycentric.h"
#include "compiler/nir/nir_xfb_info.h"
#include "compiler/isa/words.h"
#include "hw/graphics_registers.h"

namespace terakan::compiler {
namespace {

/* A pixel shader's Layer and ViewportIndex inputs: their keys in input_flat and input_index,
 * after the varyings' locations and the distance vectors'. */
constexpr unsigned layer_input_location = max_varyings + distance_parameter_vectors,
                   viewport_index_input_location = layer_input_location + 1;

/* The input key and SPI semantic of a pixel shader's Layer or ViewportIndex input (a slot
 * the vertex shader writes to the misc vector); false for other slots. */
bool misc_input(unsigned slot, unsigned &location, uint8_t &semantic)
{
   if (slot == VARYING_SLOT_LAYER) {
      location = layer_input_location, semantic = layer_semantic;
      return true;
   }
   if (slot == VARYING_SLOT_VIEWPORT) {
      location = viewport_index_input_location, semantic = viewport_index_semantic;
      return true;
   }
   return false;
}

const isa::AluOpInfo &alu_op(const char *name)
{
   const isa::AluOpInfo *op = isa::find_alu_op(name);
   if (!op)
      std::abort(); /* a typo in this file, caught by every graphics test */
   return *op;
}

/* SPI_BARYC_CNTL enable fields, in the SPI's pair order (evergreend.h S_0286E0_*). */
constexpr unsigned baryc_enable_shift[6] = {8, 0, 4, 24, 16, 20};

/* The pair a barycentric intrinsic names: 0-2 perspective, 3-5 linear (sample, center,
 * centroid); interpolateAtSample and interpolateAtOffset start from the center pair; -1 for
 * what the SPI does not give. */
int pair_of(const nir_intrinsic_instr *intrinsic)
{
   const bool linear = nir_intrinsic_interp_mode(intrinsic) == INTERP_MODE_NOPERSPECTIVE;
   switch (intrinsic->intrinsic) {
   case nir_intrinsic_load_barycentric_pixel: return linear ? 4 : 1;
   case nir_intrinsic_load_barycentric_centroid: return linear ? 5 : 2;
   case nir_intrinsic_load_barycentric_sample: return linear ? 3 : 0;
   case nir_intrinsic_load_barycentric_at_sample:
   case nir_intrinsic_load_barycentric_at_offset: return linear ? 4 : 1;
   default: return -1;
   }
}

/* The distance vector (distance_semantic) a varying slot is: ClipDistance 0-3, 4-7, then
 * CullDistance 0-3, 4-7; -1 for other slots. */
int distance_vector(unsigned slot)
{
   switch (slot) {
   case VARYING_SLOT_CLIP_DIST0: return 0;
   case VARYING_SLOT_CLIP_DIST1: return 1;
   case VARYING_SLOT_CULL_DIST0: return 2;
   case VARYING_SLOT_CULL_DIST1: return 3;
   default: return -1;
   }
}

bool is_float_zero_or_one(const Operand &o, uint8_t &select)
{
   if (o.kind != OperandKind::Inline || o.neg || o.abs)
      return false;
   if (o.value == isa::src_sel::zero) {
      select = 4;
      return true;
   }
   if (o.value == isa::src_sel::one) {
      select = 5;
      return true;
   }
   return false;
}

} // namespace

GraphicsSelector::GraphicsSelector(nir_shader *shader, const CompileOptions &options, SelectedProgram &out,
                                   SelectionContext &context)
   : shader(shader), options(options), out(out), context(context)
{
}

bool GraphicsSelector::begin()
{
   out.graphics.stage = vertex() ? ShaderStage::Vertex : ShaderStage::Fragment;
   if (vertex()) {
      /* R0.x = vertex index (VGT_INDX_OFFSET included), R0.w = instance index
       * (SQ_VTX_START_INST_LOC included): docs/sim-semantics.md, "Drawing". */
      vertex_index = context.context_preloaded(0, 0);
      instance_index = context.context_preloaded(0, 3);
      return true;
   }
   if (!scan_pixel_inputs())
      return false;
   /* Each enabled pair takes the next half GPR from R0.xy: J in the even channel, I in the
    * odd one. The SPI needs one pair even when nothing is interpolated (r600g enables
    * perspective center then); its GPR is declared so that the program's GPR count covers
    * every GPR the SPI writes. */
   if (std::none_of(pair_used.begin(), pair_used.end(), [](bool used) { return used; }))
      pair_used[1] = true;
   unsigned pair = 0;
   for (unsigned k = 0; k < 6; k++) {
      if (!pair_used[k])
         continue;
      pair_values[k][1] = context.context_preloaded(pair / 2, 2 * (pair % 2));     /* J */
      pair_values[k][0] = context.context_preloaded(pair / 2, 2 * (pair % 2) + 1); /* I */
      out.graphics.spi_baryc_cntl |= 1u << baryc_enable_shift[k];
      pair++;
   }
   unsigned next_gpr = (pair + 1) / 2;
   if (position_gpr >= 0) {
      position_gpr = int(next_gpr++);
      for (unsigned c = 0; c < 4; c++)
         position[c] = context.context_preloaded(unsigned(position_gpr), c);
   }
   /* The front-face GPR: the face in x (FRONT_FACE_CHAN 0), the pixel's coverage in z. */
   if (reads_face || reads_coverage) {
      face_gpr = int(next_gpr++);
      if (reads_face)
         face = context.context_preloaded(unsigned(face_gpr), 0);
      if (reads_coverage)
         coverage = context.context_preloaded(unsigned(face_gpr), 2);
   }
   if (sample_id_gpr >= 0) {
      sample_id_gpr = int(next_gpr++);
      sample_id = context.context_preloaded(unsigned(sample_id_gpr), 3);
   }
   return true;
}

/* A pixel shader's inputs, before its body is selected: the SPI's layout depends on them. */
bool GraphicsSelector::scan_pixel_inputs()
{
   nir_foreach_block(block, nir_shader_get_entrypoint(shader)) {
      nir_foreach_instr(instr, block) {
         if (instr->type != nir_instr_type_intrinsic)
            continue;
         nir_intrinsic_instr *intrinsic = nir_instr_as_intrinsic(instr);
         switch (intrinsic->intrinsic) {
         case nir_intrinsic_load_barycentric_sample:
            /* A Sample-decorated input: Vulkan shades per sample. */
            out.graphics.sample_shading = true;
            [[fallthrough]];
         case nir_intrinsic_load_barycentric_pixel:
         case nir_intrinsic_load_barycentric_centroid:
            pair_used[unsigned(pair_of(intrinsic))] = true;
            /* Read as weights (BaryCoordKHR), not only by INTERP_*: the program depends on
             * which vertex is which. */
            nir_foreach_use(use, &intrinsic->dest.ssa) {
               if (use->parent_instr->type != nir_instr_type_intrinsic ||
                   nir_instr_as_intrinsic(use->parent_instr)->intrinsic != nir_intrinsic_load_interpolated_input)
                  out.graphics.uses_vertex_order = true;
            }
            break;
         case nir_intrinsic_load_barycentric_at_sample:
         case nir_intrinsic_load_barycentric_at_offset:
            pair_used[unsigned(pair_of(intrinsic))] = true;
            /* Perspective pairs are moved through 1/w, the position's w (select_at_offset). */
            if (pair_of(intrinsic) == 1)
               position_gpr = 0;
            break;
         case nir_intrinsic_load_sample_id:
         case nir_intrinsic_load_sample_pos:
            out.graphics.sample_shading = true;
            sample_id_gpr = 0;
            break;
         case nir_intrinsic_load_sample_mask_in:
            reads_coverage = true;
            sample_id_gpr = 0;
            break;
         case nir_intrinsic_load_interpolated_input:
         case nir_intrinsic_load_input: {
            if (nir_intrinsic_io_semantics(intrinsic).location == vertex_order_provoking_slot) {
               vertex_order_provoking = true;
               break;
            }
            unsigned location;
            if (!constant_location(intrinsic, location))
               return false;
            const nir_io_semantics semantics = nir_intrinsic_io_semantics(intrinsic);
            const bool distance = distance_vector(semantics.location) >= 0;
            unsigned misc_location;
            uint8_t misc_semantic;
            const bool misc = misc_input(semantics.location, misc_location, misc_semantic);
            if (misc && intrinsic->intrinsic != nir_intrinsic_load_input)
               return fail("the pixel-shader input Layer or ViewportIndex read other than flat");
            if (semantics.location < VARYING_SLOT_VAR0 && !distance && !misc)
               return fail(std::string("the pixel-shader input ") +
                           gl_varying_slot_name_for_stage(gl_varying_slot(semantics.location), MESA_SHADER_FRAGMENT) +
                           " is not supported by the compiler yet");
            if (location >= max_varyings && !distance && !misc)
               return fail("pixel-shader input location " + std::to_string(location) + " is beyond the " +
                           std::to_string(max_varyings) + " the SPI matches");
            out.graphics.reads_distances |= distance;
            const bool flat = intrinsic->intrinsic == nir_intrinsic_load_input;
            if (flat && per_vertex_locations.count(location))
               return fail("pixel-shader input location " + std::to_string(location) +
                           " is read both flat and PerVertexKHR");
            input_flat[location] = flat;
            if (!flat) {
               const nir_intrinsic_instr *pair = nir_src_as_intrinsic(intrinsic->src[0]);
               if (pair && nir_intrinsic_interp_mode(pair) == INTERP_MODE_NOPERSPECTIVE && !distance)
                  out.graphics.noperspective_inputs |= 1u << location;
            }
            break;
         }
         case nir_intrinsic_load_input_vertex: {
            out.graphics.uses_vertex_order = true;
            if (nir_intrinsic_io_semantics(intrinsic).location == vertex_order_vertices_slot) {
               vertex_order_vertices = true;
               break;
            }
            /* PerVertexKHR: the SPI must keep the three vertices (not FLAT_SHADE, which loads
             * only the provoking one). */
            unsigned location;
            if (!constant_location(intrinsic, location))
               return false;
            if (distance_vector(nir_intrinsic_io_semantics(intrinsic).location) >= 0)
               return fail("ClipDistance or CullDistance read per vertex (PerVertexKHR) is not supported");
            if (location >= max_varyings)
               return fail("pixel-shader input location " + std::to_string(location) + " is beyond the " +
                           std::to_string(max_varyings) + " the SPI matches");
            if (input_flat.count(location) && input_flat[location])
               return fail("pixel-shader input location " + std::to_string(location) +
                           " is read both flat and PerVertexKHR");
            input_flat[location] = false;
            per_vertex_locations.insert(location);
            out.graphics.uses_vertex_order = true;
            break;
         }
         case nir_intrinsic_load_frag_coord: position_gpr = 0; break;
         case nir_intrinsic_load_point_coord:
            /* Interpolated like a smooth input (the SPI's sprite override supplies the
             * parameter): perspective center. */
            point_coord = true;
            pair_used[1] = true;
            break;
         case nir_intrinsic_load_front_face: reads_face = true; break;
         default: break;
         }
      }
   }
   /* PS input n: the n-th location in order (SPI_PS_INPUT_CNTL_n). */
   for (const auto &[location, flat] : input_flat) {
      (void)flat;
      const unsigned n = unsigned(input_index.size());
      input_index[location] = n;
   }
   /* The sprite coordinate takes the input after the varyings, then the vertex-order inputs. */
   point_coord_input = unsigned(input_index.size());
   unsigned next_input = point_coord_input + (point_coord ? 1 : 0);
   if (vertex_order_provoking)
      vertex_order_provoking_input = next_input++;
   if (vertex_order_vertices)
      vertex_order_vertices_input = next_input++;
   if (next_input > max_varyings)
      return fail("the pixel shader needs " + std::to_string(next_input) + " SPI inputs (BaryCoordKHR and PerVertexKHR "
                  "take two for the vertex order); the SPI has " + std::to_string(max_varyings));
   return true;
}

/* gl_PointCoord: the input with PT_SPRITE_TEX, whose channels SPI_INTERP_CONTROL_0's
 * overrides make (S, T, 0, 1); interpolated with INTERP_XY like any smooth input, since the
 * SPI supplies the sprite coordinate as the parameter (docs/sim-semantics.md, "Points"). */
bool GraphicsSelector::select_point_coord(std::vector<Operand> &result)
{
   const auto &pair = pair_values[1];
   const Operand i = Operand::of_value(pair[0]), j = Operand::of_value(pair[1]);
   const int bundle = next_bundle++;
   std::array<unsigned, 2> values{};
   for (unsigned slot = 0; slot < 4; slot++) {
      Node node;
      node.kind = NodeKind::Alu;
      node.alu.op = &alu_op("INTERP_XY");
      node.alu.src[0] = slot % 2 == 0 ? i : j;
      node.alu.src[1] = Operand::param(point_coord_input, slot);
      node.bundle = bundle;
      if (slot < 2) {
         node.alu.dst = out.new_value(int(slot));
         values[slot] = node.alu.dst;
      } else {
         node.bundle_slot = int(slot);
      }
      context.context_add_node(node);
   }
   result = {Operand::of_value(values[0]), Operand::of_value(values[1])};
   return true;
}

/* SamplePosition's component `component` (0: x, 1: y) of sample `sample` (an integer value):
 * the driver's table (sample_positions_constant), chosen by CNDE_INT on sample - k. */
Operand GraphicsSelector::sample_position(const Operand &sample, unsigned component)
{
   Operand chosen = driver_constant(sample_positions_constant + component);
   for (unsigned k = 1; k < max_sample_positions; k++) {
      const unsigned difference = context.context_emit("SUB_INT", {sample, Operand::literal(k)}, -1);
      chosen = Operand::of_value(context.context_emit(
         "CNDE_INT", {Operand::of_value(difference), driver_constant(sample_positions_constant + 2 * k + component),
                      chosen},
         -1));
   }
   return chosen;
}

/* interpolateAtOffset (and interpolateAtSample through its offset): the centre pair moved by
 * the offset along its screen gradients (fine GET_GRADIENTS: the change to the neighbouring
 * pixel of the quad), as r600g does it (sfn load_barycentric_at_offset). A noperspective pair
 * is linear in screen space, so I + dI/dx dx + dI/dy dy is exact. A perspective pair is not
 * (r600g's step is a first-order approximation there), but I / w1 and J / w2 over the
 * interpolated 1/w are: with q = 1/w, the position's w, I = (I q) / q where I q, J q and q
 * are linear in screen space. Each is moved along its own gradients and the quotient taken at
 * the offset, which is exact but for rounding. */
bool GraphicsSelector::select_at_offset(nir_intrinsic_instr *intrinsic, const Operand &dx, const Operand &dy,
                                        std::vector<Operand> &result)
{
   const auto &pair = pair_values[unsigned(pair_of(intrinsic))];
   const bool perspective = pair_of(intrinsic) == 1;
   /* The results keep the SPI's channels (I odd, J even), so that the INTERP_* group reading
    * them finds its read ports as with a preloaded pair. */
   auto moved = [&](const Operand &value, Operand &out, int chan) {
      unsigned along_x, along_y;
      if (!select_derivative(nir_op_fddx_fine, value, along_x) || !select_derivative(nir_op_fddy_fine, value, along_y))
         return false;
      const unsigned moved_x = context.context_emit("MULADD_IEEE", {Operand::of_value(along_x), dx, value}, -1);
      out = Operand::of_value(
         context.context_emit("MULADD_IEEE", {Operand::of_value(along_y), dy, Operand::of_value(moved_x)}, chan));
      return true;
   };
   if (!perspective) {
      for (unsigned k = 0; k < 2; k++) {
         Operand weight;
         if (!moved(Operand::of_value(pair[k]), weight, k == 0 ? 1 : 0))
            return false;
         result.push_back(weight);
      }
      return true;
   }
   const Operand q = Operand::of_value(position[3]);
   Operand q_moved;
   if (!moved(q, q_moved, -1))
      return false;
   const Operand reciprocal = Operand::of_value(context.context_emit("RECIP_IEEE", {q_moved}, -1));
   for (unsigned k = 0; k < 2; k++) {
      const Operand linear = Operand::of_value(context.context_emit("MUL_IEEE", {Operand::of_value(pair[k]), q}, -1));
      Operand linear_moved;
      if (!moved(linear, linear_moved, -1))
         return false;
      result.push_back(Operand::of_value(context.context_emit("MUL_IEEE", {linear_moved, reciprocal}, k == 0 ? 1 : 0)));
   }
   return true;
}

/* A driver-constant dword (constant buffer 1, locked by the clause's KCACHE1). */
Operand GraphicsSelector::driver_constant(unsigned dword)
{
   out.uses_driver_constants = true;
   return Operand::kcache(1, dword);
}

/* The varying or attribute location an input/output intrinsic names (API location, plus its
 * constant slot offset; indexed_inputs.h and lower_outputs_to_temporaries leave no run-time
 * index). A pixel shader's ClipDistance/CullDistance vector k is max_varyings + k (its key in
 * input_flat and input_index), its Layer and ViewportIndex those misc_input gives. */
bool GraphicsSelector::constant_location(nir_intrinsic_instr *intrinsic, unsigned &location)
{
   const bool store = intrinsic->intrinsic == nir_intrinsic_store_output;
   const bool second_source = store || intrinsic->intrinsic == nir_intrinsic_load_interpolated_input ||
                              intrinsic->intrinsic == nir_intrinsic_load_input_vertex ||
                              intrinsic->intrinsic == nir_intrinsic_load_per_vertex_input;
   const nir_src &offset = intrinsic->src[second_source ? 1 : 0];
   if (!nir_src_is_const(offset))
      return fail("internal: an input or output array indexed at run time after lowering");
   const nir_io_semantics semantics = nir_intrinsic_io_semantics(intrinsic);
   uint8_t misc_semantic;
   if (!store && !vertex() && misc_input(semantics.location, location, misc_semantic))
      return true;
   if (!store && !vertex() && distance_vector(semantics.location) >= 0) {
      const unsigned vector = unsigned(distance_vector(semantics.location)) + unsigned(nir_src_as_uint(offset));
      if (vector >= distance_parameter_vectors || (vector < 2) != (distance_vector(semantics.location) < 2))
         return fail("more than 8 clip or cull distances");
      location = max_varyings + vector;
      return true;
   }
   unsigned base = semantics.location;
   if (store)
      base -= vertex() ? unsigned(VARYING_SLOT_VAR0) : unsigned(FRAG_RESULT_DATA0);
   else
      base -= vertex() ? unsigned(VERT_ATTRIB_GENERIC0) : unsigned(VARYING_SLOT_VAR0);
   location = base + unsigned(nir_src_as_uint(offset));
   return true;
}

bool GraphicsSelector::select(nir_intrinsic_instr *intrinsic, std::vector<Operand> &result, bool &handled)
{
   handled = true;
   const unsigned components = nir_intrinsic_infos[intrinsic->intrinsic].has_dest ? intrinsic->dest.ssa.num_components : 0;
   switch (intrinsic->intrinsic) {
   case nir_intrinsic_store_output:
      return record_output(intrinsic);
   case nir_intrinsic_load_view_index:
      result.push_back(driver_constant(view_index_constant));
      return true;
   default:
      break;
   }
   if (vertex()) {
      switch (intrinsic->intrinsic) {
      case nir_intrinsic_load_vertex_id:
         result.push_back(Operand::of_value(vertex_index));
         return true;
      case nir_intrinsic_load_instance_id:
         result.push_back(Operand::of_value(instance_index));
         return true;
      case nir_intrinsic_load_input:
      case nir_intrinsic_load_per_vertex_input: /* an element index of its own: vertex_divisors.h */
         return select_vertex_input(intrinsic, result);
      /* Vulkan's BaseVertex is Mesa's first_vertex (firstVertex or vertexOffset); the driver
       * writes the draw parameters into its constants (compiler.h, base_vertex_constant). */
      case nir_intrinsic_load_first_vertex:
         result.push_back(driver_constant(base_vertex_constant));
         return true;
      case nir_intrinsic_load_base_instance:
         result.push_back(driver_constant(base_instance_constant));
         return true;
      case nir_intrinsic_load_draw_id:
         result.push_back(driver_constant(draw_index_constant));
         return true;
      case nir_intrinsic_load_base_vertex:
      case nir_intrinsic_load_is_indexed_draw:
         return fail("OpenGL's gl_BaseVertex (0 for non-indexed draws) is not supported by the compiler");
      default:
         handled = false;
         return true;
      }
   }
   switch (intrinsic->intrinsic) {
   case nir_intrinsic_load_barycentric_pixel:
   case nir_intrinsic_load_barycentric_centroid:
   case nir_intrinsic_load_barycentric_sample: {
      const auto &pair = pair_values[unsigned(pair_of(intrinsic))];
      result = {Operand::of_value(pair[0]), Operand::of_value(pair[1])};
      return true;
   }
   case nir_intrinsic_load_barycentric_at_offset: {
      Operand dx, dy;
      if (!context.context_operand(intrinsic->src[0], 0, dx) || !context.context_operand(intrinsic->src[0], 1, dy))
         return false;
      return select_at_offset(intrinsic, dx, dy, result);
   }
   case nir_intrinsic_load_barycentric_at_sample: {
      /* The sample's offset from the centre, from the driver's table of positions (r600g
       * moves the centre pair the same way, with its own table in a constant buffer). An
       * index past the draw's samples is undefined in Vulkan; it reads sample 0 here. */
      std::array<Operand, 2> offset;
      Operand index;
      if (!nir_src_is_const(intrinsic->src[0]) && !context.context_operand(intrinsic->src[0], 0, index))
         return false;
      for (unsigned c = 0; c < 2; c++) {
         Operand position;
         if (nir_src_is_const(intrinsic->src[0])) {
            const uint64_t k = nir_src_as_uint(intrinsic->src[0]);
            position = driver_constant(sample_positions_constant + 2 * unsigned(k < max_sample_positions ? k : 0) + c);
         } else {
            position = sample_position(index, c);
         }
         offset[c] = Operand::of_value(context.context_emit("ADD", {position, Operand::literal(0xbf000000u)}, -1));
      }
      return select_at_offset(intrinsic, offset[0], offset[1], result);
   }
   case nir_intrinsic_load_sample_id:
      result.push_back(Operand::of_value(sample_id));
      return true;
   case nir_intrinsic_load_sample_pos:
      for (unsigned c = 0; c < 2; c++)
         result.push_back(sample_position(Operand::of_value(sample_id), c));
      return true;
   case nir_intrinsic_load_sample_mask_in: {
      /* The SPI gives the pixel's coverage also under per-sample shading (Mesa r600_shader.c
       * masks it with 1 << SampleId the same way); the driver constant keeps every bit when
       * the draw does not shade per sample. */
      const unsigned own = context.context_emit("LSHL_INT", {Operand::literal(1), Operand::of_value(sample_id)}, -1);
      const unsigned keep =
         context.context_emit("OR_INT", {Operand::of_value(own), driver_constant(sample_mask_keep_constant)}, -1);
      result.push_back(Operand::of_value(
         context.context_emit("AND_INT", {Operand::of_value(coverage), Operand::of_value(keep)}, -1)));
      return true;
   }
   case nir_intrinsic_load_interpolated_input:
      return select_interpolated(intrinsic, result);
   case nir_intrinsic_load_input:
      return select_flat(intrinsic, result);
   case nir_intrinsic_load_input_vertex:
      return select_per_vertex(intrinsic, result);
   case nir_intrinsic_load_frag_coord:
      /* (x + 0.5, y + 0.5, z, 1/w) with PIX_CENTER_HALF: Vulkan's FragCoord. */
      for (unsigned c = 0; c < components; c++)
         result.push_back(Operand::of_value(position[c]));
      return true;
   case nir_intrinsic_load_point_coord:
      return select_point_coord(result);
   case nir_intrinsic_load_front_face:
      /* FRONT_FACE_ALL_BITS: ~0 for front faces, 0 for back faces: a 32-bit boolean. */
      result.push_back(Operand::of_value(face));
      return true;
   case nir_intrinsic_discard:
   case nir_intrinsic_terminate:
   case nir_intrinsic_demote:
      /* KILL removes the lanes that execute it; inside a branch that is the branch's lanes.
       * A killed lane runs on as a helper (docs/compiler.md): demote exactly; discard and
       * terminate where nothing after them could loop (terminate_lowering.h leaves the rest). */
      add_kill("KILLGT", Operand::literal(0x3f800000), Operand::literal(0));
      return true;
   case nir_intrinsic_discard_if:
   case nir_intrinsic_terminate_if:
   case nir_intrinsic_demote_if: {
      Operand condition;
      if (!context.context_operand(intrinsic->src[0], 0, condition))
         return false;
      add_kill("KILLNE_INT", condition, Operand::literal(0));
      return true;
   }
   case nir_intrinsic_is_helper_invocation:
   case nir_intrinsic_load_helper_invocation:
      result.push_back(Operand::of_value(select_helper_invocation()));
      return true;
   default:
      handled = false;
      return true;
   }
}

/* A vertex input: one VFETCH of the location's fetch resource (format, stride and address in
 * the resource: USE_CONST_FIELDS), indexed by the vertex or the instance index. */
bool GraphicsSelector::select_vertex_input(nir_intrinsic_instr *intrinsic, std::vector<Operand> &result)
{
   unsigned location;
   if (!constant_location(intrinsic, location))
      return false;
   if (location >= max_vertex_inputs)
      return fail("vertex input location " + std::to_string(location) + " is beyond the " +
                  std::to_string(max_vertex_inputs) + " the compiler maps");
   bool per_instance = false;
   for (const VertexInputOption &input : options.vertex_inputs)
      if (input.location == location)
         per_instance = input.rate == VertexInputRate::Instance;
   if (std::find(fetched_locations.begin(), fetched_locations.end(), location) == fetched_locations.end())
      fetched_locations.push_back(location);
   if (per_instance)
      out.graphics.instance_rate_inputs |= 1u << location;

   TextureFetch fetch;
   fetch.op = isa::find_fetch_op("VFETCH");
   fetch.resource = vertex_input_first_resource + location;
   fetch.coords[0] = per_instance ? instance_index : vertex_index;
   if (intrinsic->intrinsic == nir_intrinsic_load_per_vertex_input) {
      /* A per-instance input with a divisor: the element the NIR computed. */
      Operand element;
      if (!context.context_operand(intrinsic->src[0], 0, element))
         return false;
      fetch.coords[0] = context.context_emit("MOV", {element}, -1);
   }
   const unsigned group = out.gpr_groups++;
   const unsigned first = nir_intrinsic_component(intrinsic);
   for (unsigned c = 0; c < intrinsic->dest.ssa.num_components; c++) {
      const unsigned channel = first + c;
      if (channel > 3)
         return fail("internal: a vertex input beyond its four components");
      const unsigned v = out.new_value(int(channel));
      out.values[v].gpr_group = int(group);
      fetch.results[channel] = v;
      result.push_back(Operand::of_value(v));
   }
   Node node;
   node.kind = NodeKind::Fetch;
   node.fetch.texture = fetch;
   context.context_add_node(node);
   return true;
}

/* A smooth or noperspective input: INTERP_XY for channels x/y and INTERP_ZW for z/w, each a
 * group of four slots (even slots take I, odd ones J, slot c reads parameter channel c); the
 * slots of the other half are not written. */
bool GraphicsSelector::select_interpolated(nir_intrinsic_instr *intrinsic, std::vector<Operand> &result)
{
   unsigned location;
   if (!constant_location(intrinsic, location))
      return false;
   Operand i, j;
   if (!context.context_operand(intrinsic->src[0], 0, i) || !context.context_operand(intrinsic->src[0], 1, j))
      return false;
   if (!i.is_value() || !j.is_value())
      return fail("internal: barycentrics that are not the SPI's");
   const unsigned n = input_index.at(location);
   const unsigned first = nir_intrinsic_component(intrinsic);
   const unsigned count = intrinsic->dest.ssa.num_components;
   std::array<unsigned, 4> values{no_value, no_value, no_value, no_value};
   for (unsigned half = 0; half < 2; half++) {
      const unsigned low = 2 * half;
      if (first + count <= low || first >= low + 2)
         continue;
      const int bundle = next_bundle++;
      for (unsigned slot = 0; slot < 4; slot++) {
         Node node;
         node.kind = NodeKind::Alu;
         node.alu.op = &alu_op(half ? "INTERP_ZW" : "INTERP_XY");
         node.alu.src[0] = slot % 2 == 0 ? i : j;
         node.alu.src[1] = Operand::param(n, slot);
         node.bundle = bundle;
         const bool wanted = slot >= low && slot < low + 2 && slot >= first && slot < first + count;
         if (wanted) {
            node.alu.dst = out.new_value(int(slot));
            values[slot] = node.alu.dst;
         } else {
            node.bundle_slot = int(slot);
         }
         context.context_add_node(node);
      }
   }
   for (unsigned c = 0; c < count; c++)
      result.push_back(Operand::of_value(values[first + c]));
   return true;
}

/* A flat input: INTERP_LOAD_P0 copies the provoking vertex's value (FLAT_SHADE). */
bool GraphicsSelector::select_flat(nir_intrinsic_instr *intrinsic, std::vector<Operand> &result)
{
   unsigned n;
   if (nir_intrinsic_io_semantics(intrinsic).location == vertex_order_provoking_slot) {
      n = vertex_order_provoking_input;
   } else {
      unsigned location;
      if (!constant_location(intrinsic, location))
         return false;
      n = input_index.at(location);
   }
   const unsigned first = nir_intrinsic_component(intrinsic);
   for (unsigned c = 0; c < intrinsic->dest.ssa.num_components; c++)
      result.push_back(Operand::of_value(context.context_emit("INTERP_LOAD_P0", {Operand::param(n, first + c)}, -1)));
   return true;
}

/* A PerVertexKHR input (or the vertex-order input) of the SPI's vertex k (constant:
 * barycentric.cpp selects between the three): the SPI keeps P0 and the differences P1 - P0 and P2 - P0
 * (INTERP_LOAD_P0/P10/P20), so vertex 1 is P0 + P10 and vertex 2 P0 + P20. The sum rounds
 * where the difference did (exact when the three values are close enough for Sterbenz's
 * lemma or share an exponent range, not in general). Vertex k here is the SPI's; barycentric.cpp
 * rotates to Vulkan's order (docs/compiler.md, "Fragment-shader barycentrics"). */
bool GraphicsSelector::select_per_vertex(nir_intrinsic_instr *intrinsic, std::vector<Operand> &result)
{
   unsigned n;
   if (nir_intrinsic_io_semantics(intrinsic).location == vertex_order_vertices_slot) {
      n = vertex_order_vertices_input;
   } else {
      unsigned location;
      if (!constant_location(intrinsic, location))
         return false;
      n = input_index.at(location);
   }
   if (!nir_src_is_const(intrinsic->src[0]))
      return fail("internal: a PerVertexKHR vertex index that is not constant");
   const uint64_t vertex = nir_src_as_uint(intrinsic->src[0]);
   if (vertex > 2)
      return fail("internal: PerVertexKHR vertex index above 2");
   const unsigned first = nir_intrinsic_component(intrinsic);
   for (unsigned c = 0; c < intrinsic->dest.ssa.num_components; c++) {
      const Operand parameter = Operand::param(n, first + c);
      const Operand p0 = Operand::of_value(context.context_emit("INTERP_LOAD_P0", {parameter}, -1));
      if (vertex == 0) {
         result.push_back(p0);
         continue;
      }
      const Operand difference =
         Operand::of_value(context.context_emit(vertex == 1 ? "INTERP_LOAD_P10" : "INTERP_LOAD_P20", {parameter}, -1));
      result.push_back(Operand::of_value(context.context_emit("ADD", {p0, difference}, -1)));
   }
   return true;
}

/* gl_HelperInvocation / OpIsHelperInvocationEXT. No ALU operation tells a lane whether it is a
 * valid pixel, but a clause with VALID_PIXEL_MODE runs on valid lanes only (docs/sim-semantics.md):
 * a register is set to ~0 (true), then a fetch clause with VALID_PIXEL_MODE writes 0 into it, so
 * it stays ~0 on helper and killed lanes. Mesa r600's sfn does the same (emit_load_helper_invocation:
 * MOV -1, then a VPM fetch whose DST_SEL writes 0). The fetch here is a GET_GRADIENTS_H with
 * DST_SEL 0, which reads no resource (r600g's fetch reads its buffer-info constant buffer;
 * Terakan binds no buffer in every pixel shader). The register is whole-program
 * (context_new_register): the partial write must find the ~0 where it left it. */
unsigned GraphicsSelector::select_helper_invocation()
{
   if (helper_flag == no_value)
      helper_flag = context.context_new_register();
   Node preset;
   preset.kind = NodeKind::Alu;
   preset.alu.op = &alu_op("MOV");
   preset.alu.dst = helper_flag;
   preset.alu.src[0] = Operand::literal(0xffffffffu);
   const unsigned preset_node = context.context_add_node(preset);

   Node query;
   query.kind = NodeKind::Fetch;
   query.fetch.texture.op = isa::find_fetch_op("GET_GRADIENTS_H");
   query.fetch.texture.results[out.values[helper_flag].required_chan] = helper_flag;
   query.fetch.texture.zero_results = true;
   query.fetch.valid_pixels_only = true;
   /* After the preset, and after every KILL so far: a demoted lane is a helper from then on. */
   query.after = kills;
   query.after.push_back(preset_node);
   const unsigned query_node = context.context_add_node(query);
   helper_queries.push_back(query_node);

   Node read;
   read.kind = NodeKind::Alu;
   read.alu.op = &alu_op("MOV");
   read.alu.dst = out.new_value();
   read.alu.src[0] = Operand::of_value(helper_flag);
   read.after.push_back(query_node);
   context.context_add_node(read);
   return read.alu.dst;
}

void GraphicsSelector::add_kill(const char *name, Operand a, Operand b)
{
   Node node;
   node.kind = NodeKind::Alu;
   node.alu.op = &alu_op(name);
   node.alu.src[0] = a;
   node.alu.src[1] = b;
   /* A KILL leaves its lanes out of every later memory write (VALID_PIXEL_MODE), so the writes
    * the program made before it stay before it (select.cpp orders later writes after it). */
   for (unsigned i = 0; i < out.nodes.size(); i++)
      if (out.nodes[i].kind == NodeKind::Store || (out.nodes[i].kind == NodeKind::Fetch && out.nodes[i].fetch.wait_ack))
         node.after.push_back(i);
   /* A helper-invocation query before the KILL answers for the lane as it was then. */
   node.after.insert(node.after.end(), helper_queries.begin(), helper_queries.end());
   kills.push_back(context.context_add_node(node));
   out.graphics.uses_kill = true;
}

/* store_output: nir_lower_io_to_temporaries put every store at the end of the program; the
 * components are kept for the exports. */
bool GraphicsSelector::record_output(nir_intrinsic_instr *intrinsic)
{
   if (context.context_depth() != 0)
      return fail("internal: an output stored inside control flow");
   const nir_io_semantics semantics = nir_intrinsic_io_semantics(intrinsic);
   unsigned slot = semantics.location;
   if (vertex()) {
      if (slot == VARYING_SLOT_POS || slot == VARYING_SLOT_PSIZ || slot == VARYING_SLOT_VIEWPORT ||
          slot == VARYING_SLOT_LAYER) {
         /* as they are */
      } else if (slot == VARYING_SLOT_CLIP_DIST0 || slot == VARYING_SLOT_CLIP_DIST1) {
         /* Clip then cull distances, one float array (nir_lower_clip_cull_distance_arrays);
          * nir_lower_io gives the vec4 slot as the offset and the element as the component. */
         const nir_src &offset = intrinsic->src[1];
         if (!nir_src_is_const(offset))
            return fail("internal: clip or cull distances indexed at run time after lowering");
         slot += unsigned(nir_src_as_uint(offset));
         if (slot > VARYING_SLOT_CLIP_DIST1)
            return fail("more than 8 clip and cull distances together");
      } else if (slot >= VARYING_SLOT_VAR0 && slot < VARYING_SLOT_VAR0 + max_varyings) {
         unsigned location;
         if (!constant_location(intrinsic, location))
            return false;
         if (location >= max_varyings)
            return fail("vertex-shader output location " + std::to_string(location) + " is beyond the " +
                        std::to_string(max_varyings) + " the SPI matches");
         slot = VARYING_SLOT_VAR0 + location;
      } else {
         return fail(std::string("the vertex-shader output ") +
                     gl_varying_slot_name_for_stage(gl_varying_slot(slot), MESA_SHADER_VERTEX) +
                     " is not supported by the compiler yet");
      }
   } else if (slot == FRAG_RESULT_DEPTH || slot == FRAG_RESULT_SAMPLE_MASK || slot == FRAG_RESULT_STENCIL) {
      /* exported to PIXEL 61 .x, .z and .y (finish); SampleMask is an array of one word */
      if (slot == FRAG_RESULT_SAMPLE_MASK && (!nir_src_is_const(intrinsic->src[1]) || nir_src_as_uint(intrinsic->src[1])))
         return fail("SampleMask beyond its first word (the device has 4 samples)");
   } else {
      if (slot < FRAG_RESULT_DATA0)
         return fail(std::string("the fragment-shader output ") + gl_frag_result_name(gl_frag_result(slot)) +
                     " is not supported by the compiler yet");
      unsigned location;
      if (!constant_location(intrinsic, location))
         return false;
      if (location >= 8)
         return fail("fragment output location " + std::to_string(location) + ": there are 8 colour targets");
      /* Dual-source blending: the second colour (location 0, Index 1) is exported to PIXEL 1,
       * which the CB reads as the second source of target 0's blend (Mesa sfn_shader_fs.cpp
       * exports the dual-source index as the target number; the r600g dual_source_blend GL
       * scene draws so on the simulator). Vulkan allows it at location 0 only. */
      if (semantics.dual_source_blend_index) {
         if (location != 0)
            return fail("a dual-source blending output (Index 1) at a location other than 0");
         location = 1;
      }
      slot = FRAG_RESULT_DATA0 + location;
   }
   if (nir_src_bit_size(intrinsic->src[0]) != 32)
      return fail("only 32-bit shader outputs are supported");
   Output &output = outputs[slot];
   const unsigned first = nir_intrinsic_component(intrinsic);
   const unsigned mask = nir_intrinsic_write_mask(intrinsic);
   for (unsigned c = 0; c < nir_src_num_components(intrinsic->src[0]); c++) {
      if (!(mask >> c & 1) || first + c > 3)
         continue;
      Operand o;
      if (!context.context_operand(intrinsic->src[0], c, o))
         return false;
      if (o.is_value() && context.context_is_register(o.value))
         o = Operand::of_value(context.context_emit("MOV", {o}, -1));
      output.components[first + c] = o;
      output.written[first + c] = true;
   }
   return true;
}

/* One export: its components in one GPR (MOVs into a GPR group, each in the channel of its
 * component), 0.0 and 1.0 as export selects. */
void GraphicsSelector::add_export(unsigned type, unsigned base, const std::array<Operand, 4> &components,
                                  const std::array<bool, 4> &written, bool done)
{
   Node node;
   node.kind = NodeKind::Export;
   node.exported.type = type;
   node.exported.base = base;
   node.exported.done = done;
   const unsigned group = out.gpr_groups++;
   for (unsigned c = 0; c < 4; c++) {
      if (!written[c])
         continue;
      uint8_t select;
      if (is_float_zero_or_one(components[c], select)) {
         node.exported.select[c] = select;
         continue;
      }
      const unsigned v = context.context_emit("MOV", {components[c]}, int(c));
      out.values[v].gpr_group = int(group);
      node.exported.values[c] = v;
   }
   node.after = kills;
   context.context_add_node(node);
}

/* One vec4 of the streamout record (capture_outputs): MEM_STREAM writes whole GPR channels
 * under COMP_MASK and has no constant selects, so every component is moved into the group,
 * 0 where the shader wrote nothing. */
void GraphicsSelector::add_stream_export(unsigned dword, const std::array<Operand, 4> &components,
                                         const std::array<bool, 4> &written, unsigned buffer, unsigned mask)
{
   Node node;
   node.kind = NodeKind::Export;
   node.exported.stream = true;
   node.exported.base = dword;
   node.exported.stream_buffer = uint8_t(buffer);
   node.exported.stream_mask = uint8_t(mask);
   const unsigned group = out.gpr_groups++;
   for (unsigned c = 0; c < 4; c++) {
      const Operand value = written[c] ? components[c] : Operand::literal(0);
      const unsigned v = context.context_emit("MOV", {value}, int(c));
      out.values[v].gpr_group = int(group);
      node.exported.values[c] = v;
   }
   node.after = kills;
   context.context_add_node(node);
}

/* The clip and cull distances as parameters (CompileOptions::export_distances): NIR keeps them
 * in one array, the clip distances first (nir_lower_clip_cull_distance_arrays); the pixel
 * shader reads each array from vectors of its own (distance_semantic), elements the shader
 * did not write as 0.0. */
void GraphicsSelector::add_distance_parameters(
   const std::function<void(const std::array<Operand, 4> &, unsigned)> &add)
{
   const unsigned clip = shader->info.clip_distance_array_size, cull = shader->info.cull_distance_array_size;
   for (unsigned vector = 0; vector < distance_parameter_vectors; vector++) {
      const bool of_cull = vector >= 2;
      const unsigned first = 4 * (vector % 2), size = of_cull ? cull : clip;
      if (first >= size)
         continue;
      std::array<Operand, 4> components;
      bool written = false;
      for (unsigned c = 0; c < 4; c++) {
         components[c] = Operand::literal(0);
         const unsigned combined = (of_cull ? clip : 0) + first + c;
         if (first + c >= size || combined >= 8)
            continue;
         const auto found = outputs.find(VARYING_SLOT_CLIP_DIST0 + combined / 4);
         if (found != outputs.end() && found->second.written[combined % 4]) {
            components[c] = found->second.components[combined % 4];
            written = true;
         }
      }
      /* A vector nothing was written to is left out (glslang declares gl_ClipDistance[1] in
       * every gl_PerVertex that writes gl_PointSize): the pixel shader reads the SPI's default
       * 0 for it, as undefined a value as any. */
      if (written)
         add(components, vector);
   }
}

/* Transform feedback (VK_EXT_transform_feedback): each output the vertex shader decorates with
 * XfbBuffer and Offset (nir_xfb_info, gathered from the variables before lowering) becomes one
 * MEM_STREAM0_BUFn export of its components, moved down to channels 0.. so that ARRAY_BASE is
 * the first component's dword (Offset / 4) and COMP_MASK covers as many channels as there are
 * components. The strides go to the driver (GraphicsInterface::xfb_strides). */
bool GraphicsSelector::add_transform_feedback_exports()
{
   const nir_xfb_info *xfb = shader->xfb_info;
   if (!xfb)
      return true;
   if (xfb->streams_written & ~1u)
      return fail("transform feedback to vertex streams other than 0 (which only geometry shaders write)");
   for (unsigned b = 0; b < NIR_MAX_XFB_BUFFERS; b++)
      if (xfb->buffers_written >> b & 1) {
         if (xfb->buffers[b].stride % 4)
            return fail("a transform feedback buffer stride that is not a multiple of 4 bytes");
         out.graphics.xfb_strides[b] = xfb->buffers[b].stride;
      }
   for (unsigned i = 0; i < xfb->output_count; i++) {
      const nir_xfb_output_info &o = xfb->outputs[i];
      unsigned slot = o.location;
      if (slot >= VARYING_SLOT_CULL_DIST0 && slot <= VARYING_SLOT_CULL_DIST1)
         return fail("transform feedback of CullDistance is not supported");
      if (slot >= VARYING_SLOT_VAR0 && slot < VARYING_SLOT_VAR0 + max_varyings) {
         /* as record_output keys them */
      } else if (slot != VARYING_SLOT_POS && slot != VARYING_SLOT_PSIZ && slot != VARYING_SLOT_CLIP_DIST0 &&
                 slot != VARYING_SLOT_CLIP_DIST1 && slot != VARYING_SLOT_LAYER && slot != VARYING_SLOT_VIEWPORT) {
         return fail(std::string("transform feedback of ") +
                     gl_varying_slot_name_for_stage(gl_varying_slot(slot), MESA_SHADER_VERTEX) + " is not supported");
      }
      if (o.offset % 4)
         return fail("a transform feedback Offset that is not a multiple of 4 bytes");
      const auto found = outputs.find(slot);
      std::array<Operand, 4> components{Operand::literal(0), Operand::literal(0), Operand::literal(0),
                                        Operand::literal(0)};
      std::array<bool, 4> written{};
      unsigned mask = 0, channel = 0;
      for (unsigned c = o.component_offset; c < 4; c++) {
         if (!(o.component_mask >> c & 1))
            continue;
         /* Components nobody stored are undefined: they are written as 0. */
         if (found != outputs.end() && found->second.written[c]) {
            components[channel] = found->second.components[c];
            written[channel] = true;
         }
         mask |= 1u << channel++;
      }
      if (mask)
         add_stream_export(o.offset / 4, components, written, o.buffer, mask);
   }
   return true;
}

bool GraphicsSelector::finish()
{
   if (vertex() && !options.capture_outputs && !add_transform_feedback_exports())
      return false;
   if (vertex() && options.capture_outputs) {
      /* The capture record: the clip position, then each varying in parameter order (the
       * order the loop below exports them in). */
      const auto position = outputs.find(VARYING_SLOT_POS);
      if (position != outputs.end())
         add_stream_export(0, position->second.components, position->second.written);
      else
         add_stream_export(0, {Operand::literal(0), Operand::literal(0), Operand::literal(0), Operand::literal(0x3f800000)},
                           {true, true, true, true});
      unsigned next = 1;
      for (const auto &[slot, output] : outputs)
         if (slot >= VARYING_SLOT_VAR0)
            add_stream_export(4 * next++, output.components, output.written);
   }
   if (vertex()) {
      /* POS 60 (then the misc vector's point size), then the parameters in location order;
       * EXPORT_DONE on the last of each type. Without a position the vertex gets (0, 0, 0, 1)
       * (Vulkan leaves it undefined; the rasterizer needs one). */
      const auto position_output = outputs.find(VARYING_SLOT_POS);
      const auto point_size = outputs.find(VARYING_SLOT_PSIZ);
      const bool has_point_size = point_size != outputs.end() && point_size->second.written[0];
      const auto viewport_index = outputs.find(VARYING_SLOT_VIEWPORT);
      const bool has_viewport_index = viewport_index != outputs.end() && viewport_index->second.written[0];
      const auto layer = outputs.find(VARYING_SLOT_LAYER);
      const bool has_layer = layer != outputs.end() && layer->second.written[0];
      const bool has_misc_vector = has_point_size || has_viewport_index || has_layer;
      /* Bit n: distance vector n (combined distances 4n..4n+3) has a written component.
       * glslang declares gl_ClipDistance[1] in every gl_PerVertex that writes gl_PointSize,
       * so the declared sizes alone would enable distances nobody wrote. */
      unsigned distance_vectors = 0;
      for (unsigned vector = 0; vector < 2; vector++) {
         const auto found = outputs.find(VARYING_SLOT_CLIP_DIST0 + vector);
         if (found != outputs.end())
            for (unsigned c = 0; c < 4; c++)
               if (found->second.written[c])
                  distance_vectors |= 1u << vector;
      }
      const bool position_last = !has_misc_vector && distance_vectors == 0;
      if (position_output != outputs.end()) {
         add_export(export_position, 60, position_output->second.components, position_output->second.written,
                    position_last);
      } else {
         add_export(export_position, 60,
                    {Operand::literal(0), Operand::literal(0), Operand::literal(0), Operand::literal(0x3f800000)},
                    {true, true, true, true}, position_last);
      }
      unsigned next_position = 61;
      /* The misc vector (POS 61): point size in x, the layer (the render target index) in z
       * and the viewport index in w, both integers as r600g exports gl_Layer and
       * gl_ViewportIndex (sfn_shader_vs.cpp). */
      if (has_misc_vector)
         add_export(export_position, next_position++,
                    {has_point_size ? point_size->second.components[0] : Operand::literal(0), Operand::literal(0),
                     has_layer ? layer->second.components[0] : Operand::literal(0),
                     has_viewport_index ? viewport_index->second.components[0] : Operand::literal(0)},
                    {has_point_size, false, has_layer, has_viewport_index}, distance_vectors == 0);
      out.graphics.writes_point_size = has_point_size;
      writes_viewport_index = has_viewport_index;
      writes_layer = has_layer;
      /* The enabled distance vectors follow the misc vector in order (POS 61-63): the
       * simulator's reading of PA_CL_VS_OUT_CNTL (docs/sim-semantics.md, "Clipping").
       * Components the shader did not write export 0.0 (their enables are off). */
      for (unsigned vector = 0; vector < 2; vector++) {
         if (!(distance_vectors >> vector & 1))
            continue;
         const Output &found = outputs.at(VARYING_SLOT_CLIP_DIST0 + vector);
         std::array<Operand, 4> components{};
         for (unsigned c = 0; c < 4; c++)
            components[c] = found.written[c] ? found.components[c] : Operand::literal(0);
         add_export(export_position, next_position++, components, {true, true, true, true},
                    (distance_vectors >> (vector + 1)) == 0);
      }
      /* The parameters: the varyings in location order, the distances when the pixel shader
       * reads them, the vertex order when it needs it; EXPORT_DONE on the last. */
      struct Parameter {
         std::array<Operand, 4> components;
         std::array<bool, 4> written;
         unsigned location; /* ~0u: not a varying */
         uint8_t semantic;
      };
      std::vector<Parameter> parameters;
      for (const auto &[slot, output] : outputs)
         if (slot >= VARYING_SLOT_VAR0)
            parameters.push_back({output.components, output.written, slot - VARYING_SLOT_VAR0,
                                  varying_semantic(slot - VARYING_SLOT_VAR0)});
      /* The layer and the viewport index for a pixel shader that reads them (r600g likewise
       * exports gl_Layer and gl_ViewportIndex as parameters too). */
      if (has_layer)
         parameters.push_back({{layer->second.components[0], Operand::literal(0), Operand::literal(0),
                                Operand::literal(0)},
                               {true, true, true, true},
                               ~0u,
                               layer_semantic});
      if (has_viewport_index)
         parameters.push_back({{viewport_index->second.components[0], Operand::literal(0), Operand::literal(0),
                                Operand::literal(0)},
                               {true, true, true, true},
                               ~0u,
                               viewport_index_semantic});
      if (options.export_distances)
         add_distance_parameters([&](const std::array<Operand, 4> &components, unsigned vector) {
            parameters.push_back({components, {true, true, true, true}, ~0u, distance_semantic(vector)});
         });
      if (options.export_vertex_order) {
         /* The vertex-order parameter: the vertex index as a float (exact below 2^24; the
          * mask keeps nearby indices distinct above), unique among a primitive's vertices
          * unless the primitive is degenerate and draws nothing. */
         const Operand low_bits = Operand::of_value(
            context.context_emit("AND_INT", {Operand::of_value(vertex_index), Operand::literal(0xffffff)}, -1));
         const Operand as_float = Operand::of_value(context.context_emit("INT_TO_FLT", {low_bits}, -1));
         parameters.push_back({{as_float, Operand::literal(0), Operand::literal(0), Operand::literal(0)},
                               {true, true, true, true},
                               ~0u,
                               vertex_order_semantic});
      }
      /* The hardware keeps at least one parameter per vertex (VS_EXPORT_COUNT + 1); this one
       * carries semantic 0, which no pixel-shader input uses. */
      if (parameters.empty())
         parameters.push_back({{Operand::literal(0), Operand::literal(0), Operand::literal(0), Operand::literal(0)},
                               {true, true, true, true},
                               ~0u,
                               0});
      if (parameters.size() > max_varyings)
         return fail("the vertex shader exports " + std::to_string(parameters.size()) + " parameters (its outputs, "
                     "and the clip and cull distances or the vertex order the fragment shader reads: BaryCoordKHR, "
                     "PerVertexKHR); the SPI takes " + std::to_string(max_varyings));
      for (size_t k = 0; k < parameters.size(); k++) {
         add_export(export_parameter, unsigned(k), parameters[k].components, parameters[k].written,
                    k + 1 == parameters.size());
         out.graphics.param_locations.push_back(parameters[k].location);
         out.graphics.param_semantics.push_back(parameters[k].semantic);
      }
      fill_vertex_interface();
      return true;
   }
   /* Colours to PIXEL n for location n, in order; EXPORT_DONE on the last. Without any, one
    * export with every component masked (the hardware wants one export per pixel). */
   std::vector<unsigned> colours;
   for (const auto &[slot, output] : outputs)
      if (slot >= FRAG_RESULT_DATA0)
         colours.push_back(slot);
   /* FragDepth: PIXEL 61 .x after the colours (DB_SHADER_CONTROL.Z_EXPORT_ENABLE; Mesa sfn
    * exports depth there); SampleMask: PIXEL 61 .z (MASK_EXPORT_ENABLE [8]; sfn's swizzle for
    * FRAG_RESULT_SAMPLE_MASK, and r600g sets EXPORT_Z for it as for depth). */
   const auto depth = outputs.find(FRAG_RESULT_DEPTH);
   const auto mask = outputs.find(FRAG_RESULT_SAMPLE_MASK);
   /* With early fragment tests the tests have used the interpolated depth before the shader
    * ran, so a FragDepth it writes is ignored (GL's rule in ARB_shader_image_load_store;
    * Vulkan runs the tests before the shader too), and DEPTH_BEFORE_SHADER is not combined
    * with a depth export. */
   const bool writes_depth =
      depth != outputs.end() && depth->second.written[0] && !shader->info.fs.early_fragment_tests;
   const bool writes_mask = mask != outputs.end() && mask->second.written[0];
   /* FragStencilRefEXT: PIXEL 61 .y as an integer (STENCIL_REF_EXPORT_ENABLE [1]; Mesa
    * r600_shader.c's table of the Z export's channels, sfn exports FRAG_RESULT_STENCIL there). As
    * for depth, early fragment tests have used the state's reference already. */
   const auto stencil = outputs.find(FRAG_RESULT_STENCIL);
   const bool writes_stencil =
      stencil != outputs.end() && stencil->second.written[0] && !shader->info.fs.early_fragment_tests;
   const bool exports_depth = writes_depth || writes_mask || writes_stencil;
   if (writes_mask) {
      /* The DB applies the mask only to multisampled draws (the driver leaves
       * MASK_EXPORT_ENABLE off otherwise, as r600g does): the invocation is discarded when the
       * mask keeps none of the draw's samples, driver dword 22 being their mask. That is
       * Vulkan's rule for one sample and, with several, drops only what writes nothing. */
      const unsigned kept = context.context_emit(
         "AND_INT", {mask->second.components[0], driver_constant(sample_count_mask_constant)}, -1);
      add_kill("KILLE_INT", Operand::of_value(kept), Operand::literal(0));
   }
   for (size_t k = 0; k < colours.size(); k++) {
      const Output &output = outputs[colours[k]];
      const unsigned location = colours[k] - FRAG_RESULT_DATA0;
      add_export(export_pixel, location, output.components, output.written, k + 1 == colours.size() && !exports_depth);
      out.graphics.colour_exports |= 1u << location;
   }
   if (colours.empty())
      add_export(export_pixel, 0, {}, {false, false, false, false}, !exports_depth);
   if (exports_depth) {
      std::array<Operand, 4> components{};
      if (writes_depth)
         components[0] = depth->second.components[0];
      if (writes_mask)
         components[2] = mask->second.components[0];
      if (writes_stencil)
         components[1] = stencil->second.components[0];
      add_export(export_pixel, 61, components, {writes_depth, writes_stencil, writes_mask, false}, true);
      out.graphics.db_shader_control |=
         (writes_depth ? 1u << 0 : 0) | (writes_stencil ? 1u << 1 : 0) | (writes_mask ? 1u << 8 : 0);
      out.graphics.sq_pgm_exports_ps |= 1u << 0; /* EXPORT_Z */
   }
   fill_pixel_interface();
   return true;
}

void GraphicsSelector::fill_vertex_interface()
{
   GraphicsInterface &g = out.graphics;
   std::sort(fetched_locations.begin(), fetched_locations.end());
   g.vertex_inputs = fetched_locations;
   /* SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT [5:1] = parameters - 1. */
   g.spi_vs_out_config = uint32_t(g.param_semantics.size() - 1) << 1;
   /* PA_CL_VS_OUT_CNTL (field names in src/hw/graphics_registers.h): the point size, the
    * viewport index and the layer travel in the misc vector. */
   if (g.writes_point_size)
      g.pa_cl_vs_out_cntl = hw::gfx::vs_out_use_point_size | hw::gfx::vs_out_misc_vector_enable;
   if (writes_viewport_index)
      g.pa_cl_vs_out_cntl |= hw::gfx::vs_out_use_viewport_index | hw::gfx::vs_out_misc_vector_enable;
   if (writes_layer)
      g.pa_cl_vs_out_cntl |= hw::gfx::vs_out_use_render_target_index | hw::gfx::vs_out_misc_vector_enable;
   /* A clip-distance enable for each clip distance written, a cull-distance enable for each
    * cull distance written after them (one numbering), and the vector enable of each
    * distance vector exported. */
   const unsigned clip = shader->info.clip_distance_array_size;
   for (unsigned vector = 0; vector < 2; vector++) {
      const auto found = outputs.find(VARYING_SLOT_CLIP_DIST0 + vector);
      if (found == outputs.end())
         continue;
      for (unsigned c = 0; c < 4; c++) {
         const unsigned n = 4 * vector + c;
         if (!found->second.written[c])
            continue;
         g.pa_cl_vs_out_cntl |= (n < clip ? 1u : 1u << hw::gfx::vs_out_cull_distance_shift) << n;
         g.pa_cl_vs_out_cntl |= hw::gfx::vs_out_ccdist0_vec_ena << vector;
      }
   }
}

void GraphicsSelector::fill_pixel_interface()
{
   GraphicsInterface &g = out.graphics;
   bool perspective = false, linear = false;
   for (unsigned k = 0; k < 6; k++) {
      perspective |= pair_used[k] && k < 3;
      linear |= pair_used[k] && k >= 3;
   }
   /* SPI_PS_INPUT_CNTL_n: SEMANTIC [7:0], DEFAULT_VAL [9:8] (0: (0, 0, 0, 0)), FLAT_SHADE [10]. */
   for (const auto &[location, flat] : input_flat) {
      g.input_locations.push_back(location >= max_varyings ? ~0u : location);
      const uint8_t semantic = location == layer_input_location            ? layer_semantic
                               : location == viewport_index_input_location ? viewport_index_semantic
                               : location >= max_varyings ? distance_semantic(location - max_varyings)
                                                          : varying_semantic(location);
      g.spi_ps_input_cntl.push_back(uint32_t(semantic) | (flat ? 1u << 10 : 0));
   }
   if (point_coord) {
      /* PT_SPRITE_TEX [17], semantic 0 (no VS parameter matches it); SPI_INTERP_CONTROL_0:
       * PNT_SPRITE_ENA [1], overrides X = S (2), Y = T (3), Z = 0.0 (0), W = 1.0 (1) at
       * [4:2], [7:5], [10:8], [13:11]; PNT_SPRITE_TOP_1 [14] clear: T is 0 at the top, as
       * Vulkan's PointCoord (origin upper left). */
      g.input_locations.push_back(~0u);
      g.spi_ps_input_cntl.push_back(1u << 17);
      g.spi_interp_control_0 = (1u << 1) | (2u << 2) | (3u << 5) | (0u << 8) | (1u << 11);
   }
   /* The vertex shader's vertex-order parameter: flat (the provoking vertex), then kept per
    * vertex; in that order after the sprite coordinate (scan_pixel_inputs). */
   if (vertex_order_provoking) {
      g.input_locations.push_back(~0u);
      g.spi_ps_input_cntl.push_back(uint32_t(vertex_order_semantic) | 1u << 10);
   }
   if (vertex_order_vertices) {
      g.input_locations.push_back(~0u);
      g.spi_ps_input_cntl.push_back(uint32_t(vertex_order_semantic));
   }
   /* SPI_PS_IN_CONTROL_0: NUM_INTERP [5:0] (at least 1, as r600g: the SPI wants one),
    * POSITION_ENA [8], POSITION_ADDR [14:10], PERSP_GRADIENT_ENA [28], LINEAR_GRADIENT_ENA [29]. */
   const unsigned interpolated = std::max<unsigned>(1, unsigned(g.spi_ps_input_cntl.size()));
   g.spi_ps_in_control_0 = interpolated | (perspective || !linear ? 1u << 28 : 0) | (linear ? 1u << 29 : 0);
   if (position_gpr >= 0) {
      g.spi_ps_in_control_0 |= (1u << 8) | (uint32_t(position_gpr) << 10);
      g.spi_input_z = 1; /* SPI_INPUT_Z.PROVIDE_Z_TO_SPI [0] */
   }
   /* SPI_PS_IN_CONTROL_1: FRONT_FACE_ENA [8], FRONT_FACE_CHAN [10:9] (x), FRONT_FACE_ALL_BITS [11],
    * FRONT_FACE_ADDR [16:12]. */
   if (face_gpr >= 0)
      g.spi_ps_in_control_1 = (1u << 8) | (1u << 11) | (uint32_t(face_gpr) << 12);
   /* FIXED_PT_POSITION_ENA [24], FIXED_PT_POSITION_ADDR [29:25]: SampleId in the GPR's w. */
   if (sample_id_gpr >= 0)
      g.spi_ps_in_control_1 |= (1u << 24) | (uint32_t(sample_id_gpr) << 25);
   /* SQ_PGM_EXPORTS_PS: EXPORT_COLORS [4:1] (r600g: always at least one export). */
   const unsigned exported = unsigned(__builtin_popcount(g.colour_exports));
   g.sq_pgm_exports_ps |= std::max(1u, exported) << 1;
   /* DB_SHADER_CONTROL.KILL_ENABLE [6] (Z_EXPORT_ENABLE [0] set with the export). */
   g.db_shader_control |= g.uses_kill ? 1u << 6 : 0;
   /* CB_SHADER_MASK: four bits per exported target. */
   for (unsigned n = 0; n < 8; n++)
      if (g.colour_exports >> n & 1)
         g.cb_shader_mask |= 0xfu << (4 * n);
}

/* dFdx/dFdy: TeraScale computes derivatives in the texture unit. GET_GRADIENTS_H gives each
 * pixel of a 2x2 quad the difference right minus left of its source, GET_GRADIENTS_V bottom
 * minus top; INST_MOD 1 (the _FINE forms) takes the pixel's own row or column, 0 one row or
 * column for the whole quad (Mesa r600 emits DDX/DDY the same way; docs/sim-semantics.md has
 * which pixels the simulator uses). dFdx and dFdy without a suffix are the coarse forms, as in
 * r600g. The source is moved into a GPR of its own (a fetch reads a GPR); the resource and
 * sampler fields are unused (0). One component per instruction: NIR is scalar here. */
bool GraphicsSelector::select_derivative(nir_op op, const Operand &value, unsigned &result)
{
   if (vertex())
      return fail("derivatives exist only in pixel shaders");
   const bool horizontal = op == nir_op_fddx || op == nir_op_fddx_coarse || op == nir_op_fddx_fine;
   const bool fine = op == nir_op_fddx_fine || op == nir_op_fddy_fine;
   const char *name = horizontal ? (fine ? "GET_GRADIENTS_H_FINE" : "GET_GRADIENTS_H")
                                 : (fine ? "GET_GRADIENTS_V_FINE" : "GET_GRADIENTS_V");
   const isa::FetchOpInfo *fetch_op = isa::find_fetch_op(name);
   if (!fetch_op)
      return fail(std::string("internal: no fetch operation ") + name);
   const unsigned sources = out.gpr_groups++;
   const unsigned source = context.context_emit("MOV", {value}, 0);
   out.values[source].gpr_group = int(sources);
   const unsigned results = out.gpr_groups++;
   result = out.new_value(0);
   out.values[result].gpr_group = int(results);
   Node node;
   node.kind = NodeKind::Fetch;
   node.fetch.texture.op = fetch_op;
   node.fetch.texture.coords[0] = source;
   node.fetch.texture.results[0] = result;
   context.context_add_node(node);
   return true;
}

} // namespace terakan::compiler
