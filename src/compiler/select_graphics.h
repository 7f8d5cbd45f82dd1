/* Instruction selection for what only vertex and pixel shaders have: vertex fetches, the SPI's
 * preloaded GPRs (vertex and instance index; I/J pairs, position, facing), interpolation,
 * KILL, and the exports that end the program. select.cpp hands it the intrinsics it does not
 * know; docs/compiler.md ("Graphics ABI") describes the result. */
#pragma once

#include <functional>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "backend_ir.h"
#include "compiler/compiler.h"
#include "compiler/nir/nir.h"

namespace terakan::compiler {

/* What the graphics selection needs from the general selector (select.cpp). */
class SelectionContext {
public:
   virtual ~SelectionContext() = default;
   virtual bool context_operand(const nir_src &src, unsigned component, Operand &result) = 0;
   /* An ALU operation with a new result (in channel `chan` if >= 0). */
   virtual unsigned context_emit(const char *name, std::initializer_list<Operand> sources, int chan) = 0;
   /* Appends a node (ordered after the register accesses it makes); returns its index. */
   virtual unsigned context_add_node(const Node &node) = 0;
   virtual bool context_fail(const std::string &message) = 0;
   /* How many if/loop levels the current instruction is inside. */
   virtual unsigned context_depth() const = 0;
   /* A value the hardware writes at wave start into GPR `gpr` channel `chan`. */
   virtual unsigned context_preloaded(unsigned gpr, unsigned chan) = 0;
   /* Whether the value is a NIR register (its place changes later). */
   virtual bool context_is_register(unsigned value) const = 0;
   /* A value in a GPR channel of its own for the whole program, like a NIR register: it may be
    * written several times, also by partial writes (the helper-invocation query). */
   virtual unsigned context_new_register() = 0;
};

class GraphicsSelector {
public:
   GraphicsSelector(nir_shader *shader, const CompileOptions &options, SelectedProgram &out,
                    SelectionContext &context);

   /* Before the body: the preloaded GPRs (for pixel shaders after a scan of what it reads). */
   bool begin();
   /* `handled` false: not an intrinsic of this stage; the caller goes on. */
   bool select(nir_intrinsic_instr *intrinsic, std::vector<Operand> &result, bool &handled);
   /* After the body: the exports and the registers the driver programs. */
   bool finish();
   /* Pixel shaders: the derivative `op` (nir_op_fddx/fddy and their coarse and fine forms) of
    * `value`, as a TEX GET_GRADIENTS_H/V; the result in `result`. */
   bool select_derivative(nir_op op, const Operand &value, unsigned &result);
   /* The KILL nodes so far (a pixel shader's memory writes are ordered after them). */
   const std::vector<unsigned> &kill_nodes() const { return kills; }

private:
   bool vertex() const { return shader->info.stage == MESA_SHADER_VERTEX; }
   bool fail(const std::string &message) { return context.context_fail(message); }
   bool constant_location(nir_intrinsic_instr *intrinsic, unsigned &location);
   bool scan_pixel_inputs();
   bool select_vertex_input(nir_intrinsic_instr *intrinsic, std::vector<Operand> &result);
   bool select_interpolated(nir_intrinsic_instr *intrinsic, std::vector<Operand> &result);
   bool select_flat(nir_intrinsic_instr *intrinsic, std::vector<Operand> &result);
   bool select_per_vertex(nir_intrinsic_instr *intrinsic, std::vector<Operand> &result);
   bool select_point_coord(std::vector<Operand> &result);
   Operand sample_position(const Operand &sample, unsigned component);
   bool select_at_offset(nir_intrinsic_instr *intrinsic, const Operand &dx, const Operand &dy,
                         std::vector<Operand> &result);
   Operand driver_constant(unsigned dword);
   bool record_output(nir_intrinsic_instr *intrinsic);
   void add_distance_parameters(const std::function<void(const std::array<Operand, 4> &, unsigned)> &add);
   void add_kill(const char *name, Operand a, Operand b);
   unsigned select_helper_invocation();
   void add_export(unsigned type, unsigned base, const std::array<Operand, 4> &components,
                   const std::array<bool, 4> &written, bool done);
   void add_stream_export(unsigned dword, const std::array<Operand, 4> &components, const std::array<bool, 4> &written,
                          unsigned buffer = 0, unsigned mask = 0xf);
   bool add_transform_feedback_exports();
   void fill_vertex_interface();
   void fill_pixel_interface();

   nir_shader *shader;
   const CompileOptions &options;
   SelectedProgram &out;
   SelectionContext &context;

   /* Vertex shaders. */
   unsigned vertex_index = no_value, instance_index = no_value;
   std::vector<unsigned> fetched_locations;
   bool writes_viewport_index = false; /* the misc vector's w (PA_CL_VS_OUT_CNTL.USE_VTX_VIEWPORT_INDX) */
   bool writes_layer = false; /* the misc vector's z (PA_CL_VS_OUT_CNTL.USE_VTX_RENDER_TARGET_INDX) */

   /* Pixel shaders: barycentric pairs in the SPI's order (perspective sample, center,
    * centroid, linear sample, center, centroid), each pair's I and J values. */
   std::array<bool, 6> pair_used{};
   std::array<std::array<unsigned, 2>, 6> pair_values{};
   std::array<unsigned, 4> position{no_value, no_value, no_value, no_value};
   unsigned face = no_value;
   int position_gpr = -1, face_gpr = -1;
   /* SampleMaskIn: the pixel's coverage in the front-face GPR's z; SampleId: the
    * FIXED_PT_POSITION GPR's w (Mesa r600_shader.c, sfn). */
   bool reads_face = false, reads_coverage = false;
   unsigned coverage = no_value, sample_id = no_value;
   int sample_id_gpr = -1;
   std::map<unsigned, bool> input_flat; /* varying location -> flat */
   std::map<unsigned, unsigned> input_index;
   std::set<unsigned> per_vertex_locations; /* read with load_input_vertex (PerVertexKHR) */
   /* The vertex-order inputs (barycentric.h) and their PS input numbers. */
   bool vertex_order_provoking = false, vertex_order_vertices = false;
   unsigned vertex_order_provoking_input = 0, vertex_order_vertices_input = 0;
   bool point_coord = false;       /* gl_PointCoord read: one more input, after the varyings */
   unsigned point_coord_input = 0; /* its PS input index */
   std::vector<unsigned> kills; /* node indices: exports follow them */
   /* gl_HelperInvocation: the register the query writes, and the query fetches so far (a
    * later KILL stays after them). */
   unsigned helper_flag = no_value;
   std::vector<unsigned> helper_queries;

   /* Outputs by slot (VARYING_SLOT_* or FRAG_RESULT_*): four components, written or not. */
   struct Output {
      std::array<Operand, 4> components{};
      std::array<bool, 4> written{};
   };
   std::map<unsigned, Output> outputs;
   int next_bundle = 1 << 20; /* CUBE bundles count from 0 in select.cpp */
};

} // namespace terakan::compiler
