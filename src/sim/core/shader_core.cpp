/* Compute dispatch execution. Control flow follows the per-lane state machine (active,
 * inactive-branch, inactive-continue, inactive-break) with a frame stack, as Mesa's and LLVM's
 * code generators use it (docs/sim-semantics.md gives the sources and what is derived). */
#include "shader_core.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <memory>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

#include "alu_semantics.h"
#include "program_plan.h"
#include "scratch_ring.h"
#include "texture_unit.h"
#include "compiler/isa/bundle_rules.h"
#include "compiler/isa/stack.h"
#include "compiler/isa/disassembler.h"
#include "compiler/isa/program.h"
#include "core/message.h"
#include "gfx/typed_rat.h"
#include "util/format_r11g11b10f.h"

namespace terakan::sim {

using namespace isa;

namespace {

enum LaneState : uint8_t { Active, InactiveBranch, InactiveContinue, InactiveBreak, Absent };

struct Frame {
   bool loop = false;
   std::vector<uint8_t> saved;
   uint32_t iterations = 0;
};

/* A VFETCH of a packed dword: FMT_2_10_10_10 (fields from bit 0 as hw::format_component_layout
 * gives them) through the number format as the byte formats are (NORM, INT or SCALED), and
 * FMT_10_11_11_FLOAT (x, y 11-bit and z 10-bit unsigned floats). */
void decode_packed_vertex(unsigned format, unsigned num_format, bool is_signed, const uint8_t *data,
                          uint32_t element[4])
{
   uint32_t word;
   std::memcpy(&word, data, 4);
   if (format == hw::Fmt10_11_11Float) {
      float rgb[3];
      r11g11b10f_to_float3(word, rgb);
      for (unsigned c = 0; c < 3; c++)
         std::memcpy(&element[c], &rgb[c], 4);
      return;
   }
   /* The field widths from the one table the texture unit and the CB read too. */
   hw::ComponentLayout layout;
   hw::format_component_layout(hw::TextureFormat(format), layout);
   for (unsigned c = 0, bit = 0; c < layout.count; bit += layout.widths[c++]) {
      const unsigned width = layout.widths[c];
      int32_t v = int32_t((word >> bit) & ((1u << width) - 1));
      if (is_signed && (v >> (width - 1)) & 1)
         v -= 1 << width;
      float f;
      if (num_format == 1) { /* INT */
         element[c] = uint32_t(v);
         continue;
      } else if (num_format == 2) { /* SCALED */
         f = float(v);
      } else { /* NORM, as for the byte formats (docs/sim-semantics.md) */
         f = is_signed ? std::max(float(v) / float((1 << (width - 1)) - 1), -1.0f) : float(v) / float((1u << width) - 1);
      }
      std::memcpy(&element[c], &f, 4);
   }
}

/* A failure that stops the dispatch: thrown inside the core, caught at its entry. */
struct Stop {
   std::string message;
};

[[noreturn]] void stop(const char *format, ...) __attribute__((format(printf, 1, 2)));
void stop(const char *format, ...)
{
   va_list args;
   va_start(args, format);
   Stop failure{vformat_message(format, args)};
   va_end(args);
   throw failure;
}

struct HostRange {
   uint8_t *data = nullptr;
   uint64_t size = 0;
};

/* Everything the waves of a dispatch share. */
struct Context {
   const ComputeDispatch &dispatch;
   const PreparedProgram &program;
   GpuMemory &memory;
   TraceLevel trace;
   DispatchStatistics statistics;
   std::array<HostRange, 16> constant_buffers{};
   std::map<unsigned, HostRange> fetch_buffers;
   std::map<unsigned, HostRange> rat_buffers;
   /* RAT return buffers (CB_IMMEDn_BASE), located at the first returning operation. */
   std::map<unsigned, HostRange> return_buffers;
   /* HW_WAVE_ID of the next compute wave: the waves of one group are in flight together and
    * get different slots (256 per shader engine, the range r600g sizes its return buffers for:
    * evergreen_setup_immed_buffer). */
   unsigned next_wave_slot = 0;
   /* Bound resources whose memory is gone (registers left from an earlier submission): a
    * fault only if the program uses them, as on hardware. */
   std::map<unsigned, std::string> unusable_fetch_buffers, unusable_rats, unusable_constant_buffers;
   unsigned gpr_storage = 0;
   /* Texture resources located in memory at their first use (a fault only when used). */
   std::map<unsigned, TextureView> texture_views;
   /* Vertex stage: the fetch shader CALL_FS runs, prepared. */
   const PreparedProgram *fetch_program = nullptr;
   /* The most instructions any ALU group of either program holds: the per-group scratch. */
   size_t widest_group = 5;
   /* Graphics waves: what the SPI loaded, and where exports go. */
   const GraphicsWave *graphics = nullptr;
   WaveExports *exports = nullptr;
};

/* A lane's LDS output queue: first in, first out. A vector and a read position rather than a
 * std::deque, which allocates as soon as it is made (64 of them for every wave). */
class LaneQueue {
public:
   bool empty() const { return head == values.size(); }
   uint32_t front() const { return values[head]; }
   void push_back(uint32_t value) { values.push_back(value); }
   void pop_front()
   {
      if (++head == values.size()) {
         values.clear();
         head = 0;
      }
   }

private:
   std::vector<uint32_t> values;
   size_t head = 0;
};

/* Lane masks are rows of 32-bit words, all ones for a lane that executes and zero for one
 * that does not, so that selecting by them is plain bit arithmetic the compiler vectorizes
 * (a branch per lane mispredicts on divergent waves). A 64-lane wave gets loops of constant
 * length. */
using LaneMask = uint32_t;

/* dst[lane] = src[lane] for the lanes `mask` selects. */
void copy_lanes(uint32_t *__restrict dst, const uint32_t *__restrict src, const LaneMask *__restrict mask,
                unsigned width)
{
   auto select = [&](unsigned lane) { dst[lane] = (src[lane] & mask[lane]) | (dst[lane] & ~mask[lane]); };
   if (width == 64) {
      for (unsigned lane = 0; lane < 64; lane++)
         select(lane);
      return;
   }
   for (unsigned lane = 0; lane < width; lane++)
      select(lane);
}

/* mask[lane] = whether the lane is active and its predicate passes `pred_sel`; returns how
 * many lanes do. Branch-free, one loop per PRED_SEL. */
unsigned executing_lanes(const uint8_t *__restrict state, const uint8_t *__restrict pred, unsigned pred_sel,
                         LaneMask *__restrict mask, unsigned width)
{
   unsigned count = 0;
   auto mark = [&](unsigned lane, bool executes) {
      mask[lane] = 0u - LaneMask(executes);
      count += executes;
   };
   if (pred_sel == 2)
      for (unsigned lane = 0; lane < width; lane++)
         mark(lane, (state[lane] == Active) & (pred[lane] == 0));
   else if (pred_sel == 3)
      for (unsigned lane = 0; lane < width; lane++)
         mark(lane, (state[lane] == Active) & (pred[lane] != 0));
   else
      for (unsigned lane = 0; lane < width; lane++)
         mark(lane, state[lane] == Active);
   return count;
}

void fill_lanes(uint32_t *__restrict row, uint32_t value, unsigned width)
{
   if (width == 64) {
      for (unsigned lane = 0; lane < 64; lane++)
         row[lane] = value;
      return;
   }
   for (unsigned lane = 0; lane < width; lane++)
      row[lane] = value;
}

constexpr unsigned clause_temporary_first = 124; /* SQ_GPR_RESOURCE_MGMT_1.NUM_CLAUSE_TEMP_GPRS = 4 */

class Wave {
public:
   Wave(Context &context, std::vector<uint8_t> &lds, unsigned lanes_present,
        const std::array<unsigned, 3> &group_id, unsigned first_thread)
      : ctx(context), lds(lds), width(context.dispatch.wave_size),
        id(first_thread / context.dispatch.wave_size), group(group_id),
        wave_slot(context.next_wave_slot++ % waves_per_engine)
   {
      allocate_lane_state();
      const auto &size = ctx.dispatch.group_size;
      for (unsigned lane = 0; lane < lanes_present; lane++) {
         state[lane] = Active;
         const unsigned t = first_thread + lane;
         if (ctx.dispatch.load_thread_id) {
            reg(0, 0, lane) = t % size[0];
            reg(0, 1, lane) = (t / size[0]) % size[1];
            reg(0, 2, lane) = t / (size[0] * size[1]);
         }
         if (ctx.dispatch.load_group_id) {
            for (unsigned c = 0; c < 3; c++)
               reg(1, c, lane) = group_id[c] + ctx.dispatch.start[c];
         }
      }
   }

   /* A graphics wave: its lanes and initial GPRs come from the SPI (GraphicsWave). */
   Wave(Context &context, std::vector<uint8_t> &lds, const GraphicsWave &setup)
      : ctx(context), lds(lds), width(context.dispatch.wave_size), id(0), group{0, 0, 0}
   {
      allocate_lane_state();
      if (ctx.dispatch.stage == ShaderStage::Pixel) {
         killed.assign(width, 0);
         helper.assign(width, 0);
         for (unsigned lane = 0; lane < setup.helper.size() && lane < width; lane++)
            helper[lane] = setup.helper[lane];
      }
      for (unsigned lane = 0; lane < setup.lanes && lane < width; lane++)
         state[lane] = Active;
      for (const auto &[where, values] : setup.gprs) {
         if (where.first >= ctx.gpr_storage)
            stop("the SPI loads R%u, beyond the %u GPRs the program allocates", where.first,
                 ctx.dispatch.num_gprs);
         for (unsigned lane = 0; lane < values.size() && lane < width; lane++)
            reg(where.first, where.second, lane) = values[lane];
      }
   }

   enum class Outcome { Barrier, Finished };

   /* Everything a wave needs is allocated here, once: the ALU loops allocate nothing. */
   void allocate_lane_state()
   {
      gpr.assign(size_t(ctx.gpr_storage) * 4 * width, 0);
      temporaries.assign(size_t(4) * 4 * width, 0xdeadbeef);
      state.assign(width, Absent);
      pred.assign(width, 0);
      ar.assign(width, 0);
      new_ar.assign(width, 0);
      queue.resize(width);
      for (unsigned c = 0; c < 5; c++)
         previous[c].assign(width, 0);
      const size_t slots = ctx.widest_group;
      lane_masks.assign(3 * width, 0);
      executes.assign(slots, nullptr);
      execute_counts.assign(slots, 0);
      operand_storage.assign(slots * 3 * width, 0);
      operands.assign(slots, {});
      results.assign(slots * width, 0);
      zeros.assign(width, 0);
   }

   void report_kills(WaveExports &exports) const
   {
      exports.killed = killed;
   }

   Outcome run()
   {
      for (;;) {
         if (++cf_steps > 50'000'000)
            stop("wave did not finish after 50M CF instructions (a hang on hardware)");
         if (in_clause) {
            if (continue_alu_clause())
               return Outcome::Barrier;
            finish_alu_cf();
            if (finished)
               return Outcome::Finished;
            continue;
         }
         if (pc >= program_now->cf.size())
            stop("CF %u: execution ran past the CF stream (no end of program)", pc);
         const CfInstruction &cf = program_now->program->cf[pc];
         if (ctx.trace >= TraceLevel::Instructions)
            std::fprintf(stderr, "terakan-sim: group %u,%u,%u wave %u CF %u: %s\n", group[0],
                         group[1], group[2], id, pc, format_cf(cf, ctx.dispatch.isa).c_str());
         if (execute_cf(cf, program_now->cf[pc]))
            return Outcome::Barrier;
         if (finished)
            return Outcome::Finished;
      }
   }

   bool finished = false;

private:
   Context &ctx;
   std::vector<uint8_t> &lds;
   unsigned width;
   unsigned id;
   std::array<unsigned, 3> group;
   /* HW_WAVE_ID (SE_ID is 0: the simulator runs every wave on shader engine 0, derived). */
   static constexpr unsigned waves_per_engine = 256;
   unsigned wave_slot = 0;
   /* This wave's items in the stage's scratch ring (MEM_SCRATCH, READ_SCRATCH). */
   ScratchLanes scratch{ctx.dispatch.scratch, ctx.memory, id, width};
   /* Dwords (GPU byte addresses) that returning RAT operations of this wave wrote: whether the
    * write was acknowledged yet (MARK and a later WAIT_ACK). Reading one before that is a race
    * on hardware: the value may not have arrived. */
   struct ReturnedDword {
      bool marked = false, acknowledged = false;
   };
   std::map<uint64_t, ReturnedDword> returned;
   std::vector<uint32_t> gpr, temporaries;
   /* Clause temporaries (R124-R127) are undefined at a clause's start: poisoned again only
    * when something touched them. */
   bool temporaries_touched = false;
   /* Per-group scratch, by instruction index in the group (rows of `width` lanes): which
    * lanes execute it and how many, its operands (pointers into the register file when they
    * can be read in place, else into operand_storage), and its results. */
   std::vector<LaneMask> lane_masks; /* by PRED_SEL: always / predicate 0 / predicate 1 */
   std::vector<const LaneMask *> executes;
   std::vector<unsigned> execute_counts;
   std::vector<uint32_t> operand_storage;
   std::vector<std::array<const uint32_t *, 3>> operands;
   std::vector<uint32_t> results;
   std::vector<uint32_t> zeros; /* the operands an instruction does not read */
   std::vector<uint8_t> fetch_written; /* run_fetch_clause's registers written so far */
   std::vector<std::array<uint32_t, 4>> tex_sources; /* a TEX instruction's sources, per lane */
   /* SET_GRADIENTS_H (0) and _V (1): each lane's x, y, z for the SAMPLE_G forms after them in
    * the same clause (run_fetch_clause forgets them at the clause's start). */
   std::array<std::vector<std::array<float, 3>>, 2> set_gradients;
   std::array<bool, 2> gradients_set{};
   std::vector<uint8_t> state, pred;
   /* Pixel lanes a KILL removed, and helper lanes (quad pixels the primitive does not cover).
    * Neither is a valid pixel: they write nothing, but they keep running while their quad has
    * a valid pixel, so that the quad's derivatives stay defined (docs/sim-semantics.md). */
   std::vector<uint8_t> killed, helper;
   /* The program being executed: the main one, or the fetch shader during CALL_FS. */
   const PreparedProgram *program_now = &ctx.program;
   bool in_fetch_shader = false;
   uint32_t return_pc = 0;
   std::vector<int32_t> ar, new_ar; /* new_ar: what MOVA of the current group leaves */
   std::vector<LaneQueue> queue; /* LDS output queue A, per lane */
   std::array<std::vector<uint32_t>, 5> previous; /* PV.x..w, PS */
   std::array<bool, 5> previous_written{};
   std::vector<Frame> stack;
   std::vector<std::vector<uint8_t>> spare_lanes;
   uint32_t pc = 0;
   uint64_t cf_steps = 0;
   /* ALU clause in progress (resumable after GROUP_BARRIER). */
   bool in_clause = false;
   const PreparedAluClause *clause = nullptr;
   size_t group_index = 0;
   std::array<KcacheLock, 4> kcache{};

   uint32_t &reg(unsigned index, unsigned chan, unsigned lane)
   {
      return gpr[(size_t(index) * 4 + chan) * width + lane];
   }

   /* The lanes of R(index).chan, checked against the allocation. */
   uint32_t *gpr_row(unsigned index, unsigned chan, const char *what)
   {
      if (index >= clause_temporary_first && index < 128) {
         temporaries_touched = true;
         return &temporaries[(size_t(index - clause_temporary_first) * 4 + chan) * width];
      }
      if (index >= ctx.dispatch.num_gprs)
         stop("CF %u: %s R%u, beyond the %u GPRs the program allocates (SQ_PGM_RESOURCES.NUM_GPRS)",
              pc, what, index, ctx.dispatch.num_gprs);
      return &gpr[size_t(index) * 4 * width + size_t(chan) * width];
   }

   uint32_t &gpr_at(unsigned index, unsigned chan, unsigned lane, const char *what)
   {
      return gpr_row(index, chan, what)[lane];
   }

   bool lane_active(unsigned lane) const { return state[lane] == Active; }
   /* A pixel the wave may write for: not a helper, not killed (always true outside pixel
    * shaders). */
   bool lane_valid(unsigned lane) const { return killed.empty() || (!killed[lane] && !helper[lane]); }
   bool any_active() const
   {
      return std::any_of(state.begin(), state.end(), [](uint8_t s) { return s == Active; });
   }

   /* Lanes that still run in this iteration of the innermost loop: active, or waiting in a
    * branch frame inside it (LOOP_START turns every lane it does not run into inactive-break,
    * so a lane inactive-branch in a loop waits on a branch of that loop). */
   bool any_lane_still_in_iteration() const
   {
      return std::any_of(state.begin(), state.end(), [](uint8_t s) { return s == Active || s == InactiveBranch; });
   }

   /* ---- stack ---- */

   void check_stack()
   {
      unsigned loops = 0, branches = 0;
      for (const Frame &frame : stack)
         (frame.loop ? loops : branches)++;
      const unsigned needed = stack_entries_needed(loops, branches, ctx.dispatch.isa);
      if (needed > ctx.dispatch.stack_size)
         stop("CF %u: stack overflow: %u loop and %u branch frames need %u entries; "
              "SQ_PGM_RESOURCES.STACK_SIZE is %u",
              pc, loops, branches, needed, ctx.dispatch.stack_size);
   }

   /* Frames' lane vectors are recycled (`spare_lanes`): a push allocates nothing once the
    * wave has been as deep before. */
   void push(bool loop)
   {
      Frame frame;
      frame.loop = loop;
      if (!spare_lanes.empty()) {
         frame.saved = std::move(spare_lanes.back());
         spare_lanes.pop_back();
      }
      frame.saved.assign(state.begin(), state.end());
      stack.push_back(std::move(frame));
      check_stack();
   }

   void drop_frame()
   {
      spare_lanes.push_back(std::move(stack.back().saved));
      stack.pop_back();
   }

   void restore(const Frame &frame)
   {
      /* Lane-state loops store unconditionally (a select, not a branch per lane). */
      for (unsigned lane = 0; lane < width; lane++) {
         const uint8_t now = state[lane];
         state[lane] = now == InactiveBreak || now == InactiveContinue ? now : frame.saved[lane];
      }
      apply_kills();
   }

   void pop(unsigned count)
   {
      for (unsigned i = 0; i < count; i++) {
         if (stack.empty())
            stop("CF %u: POP of %u entries with %u on the stack (stack underflow)", pc, count, i);
         if (stack.back().loop)
            stop("CF %u: POP would pop a loop frame", pc);
         restore(stack.back());
         drop_frame();
      }
   }

   Frame &innermost_loop(const char *what)
   {
      for (auto frame = stack.rbegin(); frame != stack.rend(); ++frame)
         if (frame->loop)
            return *frame;
      stop("CF %u: %s outside any loop", pc, what);
   }

   /* ---- CF ---- */

   bool execute_cf(const CfInstruction &cf, const CfStep &step)
   {
      const std::string_view name = cf.op->name;
      if (step.unsimulated_cond)
         stop("CF %u: %s with COND %u is not simulated", pc, std::string(name).c_str(),
              cf.get(cf::cond));
      switch (step.kind) {
      case CfKind::Alu:
         start_alu_clause(step);
         if (continue_alu_clause())
            return true;
         finish_alu_cf();
         return false;
      case CfKind::AluExtension:
         pc++; /* its kcache sets are read by the CF_ALU that follows */
         return false;
      case CfKind::Fetch:
         run_fetch_clause(cf, step);
         break;
      case CfKind::Nop:
         break;
      case CfKind::Jump:
         if (!any_active()) {
            pop(cf.get(cf::pop_count));
            return jump(cf.get(cf::addr));
         }
         break;
      case CfKind::Push:
         push(false);
         if (!any_active()) {
            pop(cf.get(cf::pop_count));
            return jump(cf.get(cf::addr));
         }
         break;
      case CfKind::Else: {
         if (stack.empty() || stack.back().loop)
            stop("CF %u: ELSE without a branch frame", pc);
         const Frame &top = stack.back();
         for (unsigned lane = 0; lane < width; lane++) {
            const uint8_t now = state[lane];
            const uint8_t swapped = now == Active ? uint8_t(InactiveBranch) : now == InactiveBranch ? uint8_t(Active) : now;
            state[lane] = top.saved[lane] == Active ? swapped : now;
         }
         if (!any_active()) {
            pop(cf.get(cf::pop_count));
            return jump(cf.get(cf::addr));
         }
         break;
      }
      case CfKind::Pop:
         pop(cf.get(cf::pop_count));
         break;
      case CfKind::LoopStart:
         push(true);
         for (uint8_t &s : state)
            s = s != Active && s != Absent ? uint8_t(InactiveBreak) : s;
         if (!any_active()) {
            restore_loop_exit();
            return jump(cf.get(cf::addr));
         }
         break;
      case CfKind::LoopBreak:
      case CfKind::LoopContinue: {
         innermost_loop(name.data());
         const uint8_t to = step.kind == CfKind::LoopBreak ? InactiveBreak : InactiveContinue;
         for (uint8_t &s : state)
            s = s == Active ? to : s;
         /* The jump to the LOOP_END is taken only when no lane of the loop has anything left
          * of this iteration (derived: r600g compiles `if (c) break;` in the middle of a body
          * as ALU_PUSH_BEFORE, JUMP, LOOP_BREAK, POP and goes on with the body; on real cards
          * the lanes that did not take the branch run on, which a jump taken as soon as the
          * branch's own lanes are gone would skip; the `loop_divergent_breaks` GL scene). */
         if (!any_lane_still_in_iteration())
            return jump(cf.get(cf::addr));
         break;
      }
      case CfKind::LoopEnd: {
         innermost_loop("LOOP_END");
         while (!stack.back().loop) { /* reached by a break/continue jump from inside an if */
            restore(stack.back());
            drop_frame();
         }
         for (uint8_t &s : state)
            s = s == InactiveContinue ? uint8_t(Active) : s;
         Frame &loop = stack.back();
         loop.iterations++;
         if (any_active() && loop.iterations < 1'000'000)
            return jump(cf.get(cf::addr));
         if (any_active())
            stop("CF %u: loop ran 1000000 iterations (treated as a hang)", pc);
         restore_loop_exit();
         break;
      }
      case CfKind::Rat:
         run_rat(cf);
         break;
      case CfKind::WaitAck:
         /* WAIT_ACK waits until at most ADDR marked memory writes are outstanding; r600g
          * emits it with ADDR 0 (sfn_assembler.cpp emit_wait_ack), the only form modelled. */
         if (cf.get(cf::addr) != 0)
            stop("CF %u: WAIT_ACK with ADDR %u (outstanding acknowledgements allowed) is not simulated",
                 pc, cf.get(cf::addr));
         for (auto &[address, dword] : returned)
            dword.acknowledged = dword.acknowledged || dword.marked;
         scratch.wait_ack();
         break;
      case CfKind::CallFs:
         if (!ctx.fetch_program)
            stop("CF %u: CALL_FS without a fetch shader (SQ_PGM_START_FS)", pc);
         if (in_fetch_shader)
            stop("CF %u: CALL_FS inside the fetch shader", pc);
         in_fetch_shader = true;
         return_pc = pc + 1;
         program_now = ctx.fetch_program;
         pc = 0;
         return false;
      case CfKind::Return:
         if (!in_fetch_shader)
            stop("CF %u: RETURN outside a subroutine", pc);
         in_fetch_shader = false;
         program_now = &ctx.program;
         pc = return_pc;
         return false;
      case CfKind::Export:
         run_export(cf);
         break;
      case CfKind::StreamOut:
         run_stream_export(cf);
         break;
      case CfKind::Scratch:
         run_scratch_write(cf);
         break;
      case CfKind::Ring:
         run_ring_write(cf);
         break;
      case CfKind::Emit:
         run_emit(cf);
         break;
      case CfKind::End:
         finished = true;
         return false;
      case CfKind::Unsimulated:
         stop("CF %u: %s is not simulated yet", pc, std::string(name).c_str());
      }
      if (step.ends_program) {
         finished = true;
         return false;
      }
      pc++;
      return false;
   }

   void restore_loop_exit()
   {
      state = stack.back().saved;
      drop_frame();
      apply_kills();
   }

   /* A quad without a valid pixel (all killed or helpers) stops for the rest of the program
    * (derived: docs/sim-semantics.md). */
   void apply_kills()
   {
      if (killed.empty())
         return;
      for (unsigned quad = 0; quad + 4 <= width; quad += 4) {
         bool any_valid = false;
         for (unsigned k = 0; k < 4; k++)
            any_valid |= lane_valid(quad + k);
         if (!any_valid)
            for (unsigned k = 0; k < 4; k++)
               state[quad + k] = Absent;
      }
   }

   bool jump(uint32_t target)
   {
      if (target >= program_now->cf.size())
         stop("CF %u: jump to %u, outside the CF stream", pc, target);
      pc = target;
      return false;
   }

   /* ---- ALU ---- */

   void start_alu_clause(const CfStep &step)
   {
      if (!step.alu)
         stop("CF %u: no ALU clause at %u", pc, program_now->program->cf[pc].get(cf_alu::addr));
      clause = step.alu;
      group_index = 0;
      in_clause = true;
      kcache = step.kcache;
      if (step.alu_kind == AluCfKind::PushBefore)
         push(false);
      previous_written = {};
      if (temporaries_touched) {
         std::fill(temporaries.begin(), temporaries.end(), 0xdeadbeef);
         temporaries_touched = false;
      }
   }

   void finish_alu_cf()
   {
      in_clause = false;
      const CfStep &step = program_now->cf[pc];
      if (step.alu_kind == AluCfKind::PopAfter)
         pop(1);
      else if (step.alu_kind == AluCfKind::Pop2After)
         pop(2);
      else if (step.alu_kind == AluCfKind::UnsimulatedAfter)
         stop("CF %u: %s is not simulated yet", pc, std::string(program_now->program->cf[pc].op->name).c_str());
      pc++;
   }

   /* Returns true when the wave must wait at a GROUP_BARRIER. */
   bool continue_alu_clause()
   {
      while (group_index < clause->groups.size()) {
         const PreparedGroup &group = clause->groups[group_index++];
         if (execute_group(group))
            return true;
      }
      return false;
   }

   uint32_t read_constant(unsigned sel, unsigned chan, bool rel, unsigned lane)
   {
      static constexpr unsigned bases[] = {src_sel::kcache0, src_sel::kcache1, src_sel::kcache2,
                                           src_sel::kcache3};
      const unsigned set = sel < src_sel::kcache1 ? 0 : sel < src_sel::kcache2 ? 1 : sel < src_sel::kcache3 ? 2 : 3;
      const KcacheLock &lock = kcache[set];
      int64_t index = int64_t(lock.line) * 16 + (sel - bases[set]);
      if (rel)
         index += ar[lane];
      const HostRange &buffer = ctx.constant_buffers[lock.bank];
      if (const auto bad = ctx.unusable_constant_buffers.find(lock.bank); bad != ctx.unusable_constant_buffers.end())
         stop("CF %u: kcache set %u reads %s", pc, set, bad->second.c_str());
      if (!buffer.data)
         stop("CF %u: kcache set %u reads constant buffer %u, which is not bound", pc, set, lock.bank);
      const uint64_t offset = uint64_t(index) * 16 + chan * 4;
      if (index < 0 || offset + 4 > buffer.size)
         stop("CF %u: constant %lld of buffer %u is beyond its %llu bytes (SQ_ALU_CONST_BUFFER_SIZE)",
              pc, (long long)index, lock.bank, (unsigned long long)buffer.size);
      uint32_t value;
      std::memcpy(&value, buffer.data + offset, 4);
      return value;
   }

   /* One operand of an instruction for every lane, as a row of `width` values: the register
    * file's own row when it can be read in place, else `row` filled for the executing lanes
    * (the others hold whatever: their results are never kept). Runs only when at least one
    * lane executes, so its checks fire exactly when a lane would have read the operand. */
   const uint32_t *read_operand(const PreparedOperand &operand, const LaneMask *lane_executes, uint32_t *row)
   {
      const uint32_t *in_place = nullptr;
      switch (operand.kind) {
      case OperandKind::Gpr:
         if (!operand.rel) {
            in_place = gpr_row(operand.sel, operand.chan, "reads");
            break;
         }
         for (unsigned lane = 0; lane < width; lane++) {
            if (!lane_executes[lane])
               continue;
            const int target = int(operand.sel) + ar[lane];
            if (target < 0 || target >= 128)
               stop("CF %u: relative GPR R%d out of range", pc, target);
            row[lane] = gpr_at(unsigned(target), operand.chan, lane, "reads");
         }
         break;
      case OperandKind::Constant:
         if (!operand.rel) {
            fill_lanes(row, read_constant(operand.sel, operand.chan, false, 0), width);
            break;
         }
         for (unsigned lane = 0; lane < width; lane++)
            if (lane_executes[lane])
               row[lane] = read_constant(operand.sel, operand.chan, true, lane);
         break;
      case OperandKind::Value:
         /* The same for every wave: filled (modifiers applied) when the program was prepared. */
         return program_now->value_rows.data() + operand.value_row;
      case OperandKind::Previous:
         if (!previous_written[operand.previous_slot])
            stop("CF %u: %s read with no result in the previous group", pc,
                 operand.sel == src_sel::ps ? "PS" : "PV");
         in_place = previous[operand.previous_slot].data();
         break;
      case OperandKind::LdsQueue:
         for (unsigned lane = 0; lane < width; lane++) {
            if (!lane_executes[lane])
               continue;
            if (queue[lane].empty())
               stop("CF %u: LDS output queue A read while empty (lane %u)", pc, lane);
            row[lane] = queue[lane].front();
            if (operand.pop)
               queue[lane].pop_front();
         }
         break;
      case OperandKind::WaveId:
         fill_lanes(row, wave_slot, width);
         break;
      case OperandKind::SeId:
         fill_lanes(row, 0, width);
         break;
      case OperandKind::Unsimulated:
         stop("CF %u: operand select %u is not simulated", pc, operand.sel);
      }
      if (!operand.modified())
         return in_place ? in_place : row;
      const uint32_t *from = in_place ? in_place : row;
      for (unsigned lane = 0; lane < width; lane++)
         row[lane] = (from[lane] & operand.abs_mask) ^ operand.neg_mask;
      return row;
   }

   const LaneMask *lanes_executing(size_t index) { return executes[index]; }
   uint32_t *result_row(size_t index) { return &results[index * width]; }

   /* Returns true if the group was a GROUP_BARRIER. Each instruction runs as a loop over the
    * lanes, in three phases like the hardware's: every operand is read, then every slot
    * computes, then results and PV/PS are written. */
   bool execute_group(const PreparedGroup &group)
   {
      ctx.statistics.alu_groups++;
      const size_t count = group.instructions.size();
      bool barrier = false;

      /* 1. Which lanes execute each slot, and every operand, before anything is written. The
       * lane masks are made once per group for each PRED_SEL the group uses. */
      std::array<unsigned, 3> mask_counts{};
      std::array<bool, 3> mask_made{};
      for (size_t i = 0; i < count; i++) {
         const PreparedAlu &alu = group.instructions[i];
         const unsigned which = alu.pred_sel == 2 ? 1 : alu.pred_sel == 3 ? 2 : 0;
         LaneMask *mask = &lane_masks[which * width];
         if (!mask_made[which]) {
            mask_counts[which] = executing_lanes(state.data(), pred.data(), alu.pred_sel, mask, width);
            mask_made[which] = true;
         }
         const LaneMask *lane_executes = mask;
         const unsigned executing = mask_counts[which];
         executes[i] = mask;
         execute_counts[i] = executing;
         operands[i] = {zeros.data(), zeros.data(), zeros.data()};
         if (!executing)
            continue;
         for (unsigned s = 0; s < alu.source_count; s++)
            operands[i][s] = read_operand(alu.sources[s], lane_executes, &operand_storage[(i * 3 + s) * width]);
      }

      /* 2. Compute. */
      if (group.has_mova)
         std::copy(ar.begin(), ar.end(), new_ar.begin());
      for (size_t i = 0; i < count; i++) {
         const PreparedAlu &alu = group.instructions[i];
         if (alu.kind == AluKind::Barrier) {
            barrier = true;
            continue;
         }
         if (alu.kind == AluKind::Lds) {
            execute_lds(alu, i);
            continue;
         }
         if (alu.kind == AluKind::Interp) {
            execute_interp(group, i);
            continue;
         }
         const unsigned executing = execute_counts[i];
         if (!executing)
            continue;
         ctx.statistics.alu_lane_operations += executing;
         const LaneMask *lane_executes = lanes_executing(i);
         const uint32_t *a = operands[i][0], *b = operands[i][1];
         uint32_t *out = result_row(i);
         switch (alu.kind) {
         case AluKind::Plain:
            if (!alu.lanes)
               stop("CF %u: %s is not simulated yet", pc, std::string(alu.name).c_str());
            alu.lanes(a, b, operands[i][2], out, width);
            break;
         case AluKind::Reduction:
            for (unsigned lane = 0; lane < width; lane++)
               if (lane_executes[lane])
                  out[lane] = reduce(group, alu, lane);
            break;
         case AluKind::Cube:
            for (unsigned lane = 0; lane < width; lane++)
               if (lane_executes[lane])
                  out[lane] = cube_direction_result(group, alu, lane)[static_cast<unsigned>(alu.slot)];
            break;
         case AluKind::LaneCount:
            count_lanes_below(alu, i, lane_executes, out);
            break;
         case AluKind::Kill:
            if (!alu.condition || killed.empty())
               stop("CF %u: %s %s", pc, std::string(alu.name).c_str(),
                    killed.empty() ? "outside a pixel shader" : "is not simulated yet");
            for (unsigned lane = 0; lane < width; lane++) {
               if (!lane_executes[lane])
                  continue;
               const bool kill = alu.condition(a[lane], b[lane]);
               if (kill)
                  killed[lane] = 1;
               out[lane] = kill ? as_bits(1.0f) : as_bits(0.0f);
            }
            apply_kills();
            break;
         case AluKind::PredSet:
            if (!alu.condition)
               stop("CF %u: %s is not simulated yet", pc, std::string(alu.name).c_str());
            for (unsigned lane = 0; lane < width; lane++) {
               if (!lane_executes[lane])
                  continue;
               const bool condition = alu.condition(a[lane], b[lane]);
               if (alu.update_exec_mask && !condition)
                  state[lane] = InactiveBranch;
               if (alu.update_pred)
                  pred[lane] = condition;
               out[lane] = condition ? as_bits(0.0f) : as_bits(1.0f);
            }
            break;
         case AluKind::Mova:
            for (unsigned lane = 0; lane < width; lane++) {
               if (!lane_executes[lane])
                  continue;
               out[lane] = a[lane];
               new_ar[lane] = int32_t(a[lane]);
            }
            break;
         default:
            break;
         }
         if (alu.omod || alu.clamp)
            for (unsigned lane = 0; lane < width; lane++)
               out[lane] = apply_output_modifiers(out[lane], alu.omod, alu.clamp);
      }

      if (ctx.trace >= TraceLevel::Instructions) {
         for (size_t i = 0; i < count; i++) {
            std::string line = format_alu(*group.instructions[i].instruction, group.group->literals, ctx.dispatch.isa);
            if (ctx.trace >= TraceLevel::Lanes) {
               line += "   =";
               for (unsigned lane = 0; lane < std::min(width, 4u); lane++)
                  line += lanes_executing(i)[lane] ? " " + std::to_string(result_row(i)[lane]) : " -";
            }
            std::fprintf(stderr, "terakan-sim:     %s\n", line.c_str());
         }
      }

      /* 3. Write results and the PV/PS of this group (AR changes only after the writes). */
      std::array<bool, 5> written{};
      for (size_t i = 0; i < count; i++) {
         const PreparedAlu &alu = group.instructions[i];
         if (alu.slot == Slot::Invalid)
            stop("CF %u: group @%u has no valid slot assignment", pc, group.group->index);
         if (alu.kind == AluKind::Lds || alu.kind == AluKind::Barrier)
            continue;
         const unsigned slot = static_cast<unsigned>(alu.slot);
         written[slot] = true;
         const unsigned executing = execute_counts[i];
         if (!executing)
            continue;
         const LaneMask *lane_executes = lanes_executing(i);
         const uint32_t *out = result_row(i);
         uint32_t *pv = previous[slot].data();
         const bool every_lane = executing == width;
         if (every_lane)
            std::copy_n(out, width, pv);
         else
            copy_lanes(pv, out, lane_executes, width);
         if (!alu.writes_gpr)
            continue;
         if (!alu.dst_rel) {
            uint32_t *destination = gpr_row(alu.dst_gpr, alu.dst_chan, "writes");
            if (every_lane)
               std::copy_n(out, width, destination);
            else
               copy_lanes(destination, out, lane_executes, width);
            continue;
         }
         for (unsigned lane = 0; lane < width; lane++) {
            if (!lane_executes[lane])
               continue;
            const int target = int(alu.dst_gpr) + ar[lane];
            if (target < 0 || target >= 128)
               stop("CF %u: relative destination R%d out of range", pc, target);
            gpr_at(unsigned(target), alu.dst_chan, lane, "writes") = out[lane];
         }
      }
      previous_written = written;
      if (group.has_mova)
         std::swap(ar, new_ar);
      return barrier;
   }

   /* INTERP_XY / INTERP_ZW: the slots pair up (x with y, z with w); each slot computes
    * P0 + I * (P1 - P0) + J * (P2 - P0) for the parameter channel its src1 selects, with I from
    * the even slot's src0 and J from the odd slot's (Mesa r600g sfn load_interpolated_two_comp
    * emits exactly that pattern; the slot-to-weight assignment is derived, see
    * docs/sim-semantics.md). INTERP_LOAD_P0/P10/P20 copy one term. A partner slot that does
    * not execute a lane contributes 0 there. */
   void execute_interp(const PreparedGroup &group, size_t index)
   {
      const PreparedAlu &alu = group.instructions[index];
      const GraphicsWave *setup = ctx.graphics;
      if (!setup || ctx.dispatch.stage != ShaderStage::Pixel)
         stop("CF %u: %s outside a pixel shader", pc, std::string(alu.name).c_str());
      if (!alu.interp_has_parameter)
         stop("CF %u: %s without a parameter operand", pc, std::string(alu.name).c_str());
      const unsigned n = alu.interp_parameter, c = alu.interp_channel;
      if (n >= setup->parameter_count)
         stop("CF %u: %s reads parameter %u; the SPI loaded %u (SPI_PS_IN_CONTROL_0.NUM_INTERP)",
              pc, std::string(alu.name).c_str(), n, setup->parameter_count);
      if (!alu.interp_problem.empty())
         stop("CF %u: %s", pc, alu.interp_problem.c_str());
      const LaneMask *lane_executes = lanes_executing(index);
      const uint32_t *own_weights = operands[index][0];
      const size_t partner = alu.interp_load ? index : alu.interp_partner;
      const LaneMask *partner_executes = lanes_executing(partner);
      const uint32_t *partner_weights = operands[partner][0];
      uint32_t *out = result_row(index);
      const size_t stride = size_t(setup->parameter_count) * 12;
      const float *parameters = setup->parameters.data() + size_t(n) * 12;
      for (unsigned lane = 0; lane < width; lane++) {
         if (!lane_executes[lane])
            continue;
         ctx.statistics.alu_lane_operations++;
         const float *p = parameters + lane * stride;
         float value;
         if (alu.interp_load) {
            value = p[alu.interp_term * 4 + c];
         } else {
            const float own = as_float(own_weights[lane]);
            const float other = partner_executes[lane] ? as_float(partner_weights[lane]) : 0.0f;
            const float i = alu.interp_even ? own : other, j = alu.interp_even ? other : own;
            value = p[c] + i * p[4 + c] + j * p[8 + c];
         }
         out[lane] = as_bits(value);
      }
   }

   /* ---- exports ---- */

   void run_export(const CfInstruction &cf)
   {
      if (!ctx.exports)
         stop("CF %u: %s in a compute program", pc, std::string(cf.op->name).c_str());
      if (cf.get(cf_export::rw_rel))
         stop("CF %u: exports with RW_REL are not simulated", pc);
      const unsigned type = cf.get(cf_export::type), base = cf.get(cf_export::array_base);
      const unsigned burst = cf.get(cf_export::burst_count), gpr_first = cf.get(cf_export::rw_gpr);
      const unsigned selects[4] = {cf.get(cf_export::sel_x), cf.get(cf_export::sel_y),
                                   cf.get(cf_export::sel_z), cf.get(cf_export::sel_w)};
      for (unsigned k = 0; k <= burst; k++) {
         WaveExports::Target &target = ctx.exports->targets[{type, base + k}];
         target.values.resize(width, {0, 0, 0, 0});
         target.written.resize(width, 0);
         for (unsigned lane = 0; lane < width; lane++) {
            if (!lane_active(lane) || !lane_valid(lane))
               continue;
            target.written[lane] = 1;
            for (unsigned c = 0; c < 4; c++) {
               const unsigned sel = selects[c];
               if (sel == 7)
                  continue;
               if (sel == 6)
                  stop("CF %u: export select 6 is reserved", pc);
               target.values[lane][c] = sel < 4 ? gpr_at(gpr_first + k, sel, lane, "exports")
                                        : sel == 4 ? as_bits(0.0f) : as_bits(1.0f);
            }
         }
      }
   }

   /* MEM_STREAMn_BUFm (stream n, buffer m), as sfn emits them for transform feedback: TYPE
    * WRITE, one GPR, COMP_MASK channels; channel c lands in dword ARRAY_BASE + c of the
    * vertex's record in buffer m (ARRAY_BASE counts dwords: sfn sets it to the output's
    * dword offset minus its first component). Where each record goes is the VGT's business,
    * per primitive, so the values are only collected here. */
   void run_stream_export(const CfInstruction &cf)
   {
      const std::string name(cf.op->name);
      if (!ctx.exports || ctx.dispatch.stage != ShaderStage::Vertex)
         stop("CF %u: %s outside a vertex shader", pc, name.c_str());
      if (cf.get(cf_export::type) != 0)
         stop("CF %u: %s with export type %u (indexed or acknowledged writes) is not simulated", pc,
              name.c_str(), cf.get(cf_export::type));
      if (cf.get(cf_export::rw_rel) || cf.get(cf_export::burst_count))
         stop("CF %u: %s with RW_REL or a burst is not simulated", pc, name.c_str());
      /* The name is MEM_STREAMn_BUFm. */
      const unsigned stream = unsigned(name[10] - '0'), buffer = unsigned(name[15] - '0');
      const unsigned base = cf.get(cf_export::array_base), gpr = cf.get(cf_export::rw_gpr);
      const unsigned mask = cf.get(cf_export::comp_mask);
      for (unsigned c = 0; c < 4; c++) {
         if (!((mask >> c) & 1))
            continue;
         WaveExports::StreamDword &dword = ctx.exports->stream_writes[{stream, buffer, base + c}];
         dword.values.resize(width, 0);
         dword.written.resize(width, 0);
         for (unsigned lane = 0; lane < width; lane++) {
            if (!lane_active(lane))
               continue;
            dword.values[lane] = gpr_at(gpr, c, lane, "stream exports");
            dword.written[lane] = 1;
         }
      }
   }

   /* MEM_RING (docs/sim-semantics.md, "Geometry shaders"): an export shader's vertex into the
    * ESGS ring, a geometry shader's into the GSVS ring. COMP_MASK channels of RW_GPR (+ burst
    * step) go to dword ARRAY_BASE + c of the lane's ring item, plus INDEX_GPR.x elements of
    * ELEM_SIZE + 1 dwords for the indexed types (*derived* from r600g: its export shaders write
    * output n at ARRAY_BASE 4n, which its geometry shaders fetch at byte 16n of the vertex, and
    * its geometry shaders step INDEX_GPR by their output count per vertex). ARRAY_SIZE is not
    * checked (r600g leaves it 0 for the unindexed writes); the lane's item is. */
   void run_ring_write(const CfInstruction &cf)
   {
      const std::string name(cf.op->name);
      const GraphicsWave::Ring *ring = ctx.graphics ? &ctx.graphics->ring : nullptr;
      if (!ring || ring->lane_item.empty())
         stop("CF %u: %s outside an export or geometry shader", pc, name.c_str());
      if (name != "MEM_RING")
         stop("CF %u: %s (geometry shader streams 1-3) is not simulated", pc, name.c_str());
      if (cf.get(cf_export::rw_rel))
         stop("CF %u: MEM_RING with RW_REL is not simulated", pc);
      const unsigned type = cf.get(cf_export::type), element = cf.get(cf_export::elem_size) + 1;
      if (type & 2)
         stop("CF %u: MEM_RING with an acknowledged type is not simulated", pc);
      const bool indexed = type & 1;
      const unsigned base = cf.get(cf_export::array_base), gpr = cf.get(cf_export::rw_gpr);
      const unsigned index_gpr = cf.get(cf_export::index_gpr), mask = cf.get(cf_export::comp_mask);
      const unsigned burst = cf.get(cf_export::burst_count);
      for (unsigned lane = 0; lane < width; lane++) {
         if (!lane_active(lane))
            continue;
         const int64_t index = indexed ? int64_t(int32_t(gpr_at(index_gpr, 0, lane, "ring indices"))) : 0;
         for (unsigned k = 0; k <= burst; k++)
            for (unsigned c = 0; c < 4; c++) {
               if (!((mask >> c) & 1))
                  continue;
               const int64_t dword = int64_t(base) + (index + k) * element + c;
               if (dword < 0 || dword >= int64_t(ring->item_dwords))
                  stop("CF %u: MEM_RING of lane %u writes dword %lld of its ring item of %u dwords", pc, lane,
                       (long long)dword, ring->item_dwords);
               const uint64_t offset = 4 * (uint64_t(ring->lane_item[lane]) + uint64_t(dword));
               if (offset + 4 > ring->bytes)
                  stop("CF %u: MEM_RING of lane %u writes beyond the ring's %llu bytes", pc, lane,
                       (unsigned long long)ring->bytes);
               const uint32_t value = gpr_at(gpr + k, c, lane, "ring writes");
               std::string error;
               if (!ctx.memory.write(ring->address + offset, &value, 4, error))
                  stop("CF %u: MEM_RING of lane %u: %s", pc, lane, error.c_str());
            }
      }
   }

   /* EMIT_VERTEX, CUT_VERTEX, EMIT_CUT_VERTEX: each active lane tells the VGT that its next
    * vertex is complete in the GSVS ring and/or that its strip ends (COUNT names the stream;
    * only stream 0 is simulated). */
   void run_emit(const CfInstruction &cf)
   {
      const std::string name(cf.op->name);
      if (!ctx.exports || ctx.graphics->ring.lane_item.empty())
         stop("CF %u: %s outside a geometry shader", pc, name.c_str());
      if (cf.get(cf::count) != 0)
         stop("CF %u: %s to stream %u is not simulated (stream 0 only)", pc, name.c_str(), cf.get(cf::count));
      auto &events = ctx.exports->gs_events;
      events.resize(width);
      for (unsigned lane = 0; lane < width; lane++) {
         if (!lane_active(lane))
            continue;
         if (name != "CUT_VERTEX")
            events[lane].push_back(WaveExports::GsEvent::Emit);
         if (name != "EMIT_VERTEX")
            events[lane].push_back(WaveExports::GsEvent::Cut);
      }
   }

   /* MEM_SCRATCH (docs/sim-semantics.md, "Scratch"): TYPE 0 WRITE, 1 WRITE_IND, 2 WRITE_ACK,
    * 3 WRITE_IND_ACK; an _ACK type asks for the acknowledgement a later WAIT_ACK waits for
    * (r600g's words have types 2 and 3 and MARK 0: eg_asm.c encodes the CF's mark, not the
    * output's, for MEM_* instructions); the element is ARRAY_BASE, plus INDEX_GPR.x when indexed, plus the burst
    * step; COMP_MASK channels of RW_GPR (+ step) land in its dwords. */
   void run_scratch_write(const CfInstruction &cf)
   {
      if (cf.get(cf_export::elem_size) != 3)
         stop("CF %u: MEM_SCRATCH with ELEM_SIZE %u is not simulated (3: four dwords per element, r600g's)", pc,
              cf.get(cf_export::elem_size));
      if (cf.get(cf_export::rw_rel))
         stop("CF %u: MEM_SCRATCH with RW_REL is not simulated", pc);
      const unsigned type = cf.get(cf_export::type);
      const bool indexed = type & 1, acknowledged = type & 2;
      const unsigned base = cf.get(cf_export::array_base), size = cf.get(cf_export::array_size);
      const unsigned gpr = cf.get(cf_export::rw_gpr), index_gpr = cf.get(cf_export::index_gpr);
      const unsigned mask = cf.get(cf_export::comp_mask), burst = cf.get(cf_export::burst_count);
      for (unsigned lane = 0; lane < width; lane++) {
         if (!lane_active(lane))
            continue;
         const int64_t index = indexed ? int64_t(int32_t(gpr_at(index_gpr, 0, lane, "scratch indices"))) : 0;
         for (unsigned k = 0; k <= burst; k++)
            for (unsigned c = 0; c < 4; c++)
               if ((mask >> c) & 1)
                  store_scratch(lane, int64_t(base) + index + k, size, c, gpr_at(gpr + k, c, lane, "scratch writes"),
                                acknowledged);
      }
   }

   void store_scratch(unsigned lane, int64_t element, unsigned array_size, unsigned c, uint32_t value, bool acknowledged)
   {
      uint64_t address = 0;
      uint32_t *target = scratch_dword(lane, element, array_size, c, "MEM_SCRATCH", address);
      std::memcpy(target, &value, 4);
      scratch.wrote(address, acknowledged);
   }

   /* Where a scratch access goes; refused beyond ARRAY_SIZE (read as the last element an
    * access may reach: r600g gives writes the element count and reads the count less one,
    * and what the hardware does past it is not documented) and beyond the ring. */
   uint32_t *scratch_dword(unsigned lane, int64_t element, unsigned array_size, unsigned c, const char *what,
                           uint64_t &address)
   {
      if (element < 0 || element > int64_t(array_size))
         stop("CF %u: %s of lane %u reaches element %lld, beyond ARRAY_SIZE %u", pc, what, lane,
              (long long)element, array_size);
      std::string error;
      uint32_t *target = scratch.dword(lane, element, c, address, error);
      if (!target)
         stop("CF %u: %s of lane %u: %s", pc, what, lane, error.c_str());
      return target;
   }

   /* READ_SCRATCH (MEM_RD, MEM_OP 0): the element ARRAY_BASE (+ SRC_GPR.SRC_SEL_X when
    * INDEXED), four dwords as FMT_32_32_32_32 integers, through DST_SEL. */
   void execute_scratch_read(const FetchInstruction &instruction)
   {
      if (instruction.get(mem_rd::elem_size) != 3)
         stop("CF %u: READ_SCRATCH with ELEM_SIZE %u is not simulated (3: four dwords per element)", pc,
              instruction.get(mem_rd::elem_size));
      if (!instruction.get(mem_rd::uncached))
         stop("CF %u: READ_SCRATCH without UNCACHED is not simulated (whether a cached read sees MEM_SCRATCH "
              "writes is not documented; r600g sets UNCACHED)", pc);
      if (instruction.get(mem_rd::src_rel) || instruction.get(mem_rd::dst_rel) || instruction.get(mem_rd::burst_count) ||
          instruction.get(mem_rd::endian_swap))
         stop("CF %u: READ_SCRATCH with relative registers, a burst or an endian swap is not simulated", pc);
      if (instruction.get(mem_rd::data_format) != hw::Fmt32_32_32_32 || instruction.get(mem_rd::num_format_all) != 1)
         stop("CF %u: READ_SCRATCH with DATA_FORMAT %u, NUM_FORMAT_ALL %u is not simulated (32_32_32_32, INT)", pc,
              instruction.get(mem_rd::data_format), instruction.get(mem_rd::num_format_all));
      const bool indexed = instruction.get(mem_rd::indexed);
      const unsigned base = instruction.get(mem_rd::array_base), size = instruction.get(mem_rd::array_size);
      const unsigned src = instruction.get(mem_rd::src_gpr), sel = instruction.get(mem_rd::src_sel_x);
      const unsigned dst = instruction.get(mem_rd::dst_gpr);
      const Field dst_sels[] = {mem_rd::dst_sel_x, mem_rd::dst_sel_y, mem_rd::dst_sel_z, mem_rd::dst_sel_w};
      for (unsigned lane = 0; lane < width; lane++) {
         if (!lane_active(lane))
            continue;
         ctx.statistics.fetches++;
         const int64_t element =
            int64_t(base) + (indexed ? int64_t(int32_t(gpr_at(src, sel, lane, "scratch indices"))) : 0);
         uint32_t values[4];
         for (unsigned c = 0; c < 4; c++) {
            uint64_t address = 0;
            const uint32_t *from = scratch_dword(lane, element, size, c, "READ_SCRATCH", address);
            if (scratch.racing(address))
               stop("CF %u: READ_SCRATCH of lane %u reads element %lld before the write to it was acknowledged "
                    "(MEM_SCRATCH with an _ACK type, then WAIT_ACK)", pc, lane, (long long)element);
            std::memcpy(&values[c], from, 4);
         }
         for (unsigned c = 0; c < 4; c++) {
            const unsigned s = instruction.get(dst_sels[c]);
            if (s == 7)
               continue;
            if (s == 6)
               stop("CF %u: READ_SCRATCH destination select 6 is reserved", pc);
            gpr_at(dst, c, lane, "fetch writes") = s < 4 ? values[s] : s == 4 ? 0u : 0x3f800000u;
         }
      }
   }

   /* DOT4, DOT4_IEEE, MAX4 for one lane over the group's slots of that opcode (a slot that
    * does not execute the lane contributes operands of 0). */
   uint32_t reduce(const PreparedGroup &group, const PreparedAlu &alu, unsigned lane)
   {
      float values[4] = {};
      for (const unsigned i : alu.partners) {
         const unsigned slot = static_cast<unsigned>(group.instructions[i].slot);
         const bool executes_lane = lanes_executing(i)[lane];
         const float a = executes_lane ? as_float(operands[i][0][lane]) : 0.0f;
         if (alu.reduction == ReductionKind::Max4) {
            values[slot] = a;
         } else {
            const float b = executes_lane ? as_float(operands[i][1][lane]) : 0.0f;
            values[slot] = alu.reduction == ReductionKind::Dot4 && (a == 0.0f || b == 0.0f) ? 0.0f : a * b;
         }
      }
      if (alu.reduction == ReductionKind::Max4)
         return as_bits(std::max(std::max(values[0], values[1]), std::max(values[2], values[3])));
      return as_bits(values[0] + values[1] + values[2] + values[3]);
   }

   /* CUBE: the four slots hold one direction spread over their operands, src0 = dir.zzxy and
    * src1 = dir.yxzz (Mesa r600_shader.c tgsi_tex and sfn emit_alu_cube; LLVM
    * R600ExpandSpecialInstrs, CubeSrcSwz). What the hardware computes from operands that do
    * not repeat one direction is not documented, so every copy must agree, bit for bit. */
   std::array<uint32_t, 4> cube_direction_result(const PreparedGroup &group, const PreparedAlu &alu, unsigned lane)
   {
      /* For slot x, y, z, w: which direction component src0 and src1 carry (0 x, 1 y, 2 z). */
      static constexpr unsigned src0_component[4] = {2, 2, 0, 1};
      static constexpr unsigned src1_component[4] = {1, 0, 2, 2};
      std::array<uint32_t, 3> direction{};
      std::array<bool, 3> seen{};
      unsigned slots = 0;
      const unsigned group_index = group.group->index;
      for (const unsigned i : alu.partners) {
         const unsigned slot = static_cast<unsigned>(group.instructions[i].slot);
         if (slot > 3)
            stop("CF %u: CUBE in slot %u (it must fill x, y, z and w)", pc, slot);
         if (!lanes_executing(i)[lane])
            stop("CF %u: the CUBE slots of group @%u are predicated differently (lane %u)", pc, group_index, lane);
         slots |= 1u << slot;
         const unsigned components[2] = {src0_component[slot], src1_component[slot]};
         for (unsigned operand = 0; operand < 2; operand++) {
            const unsigned c = components[operand];
            const uint32_t value = operands[i][operand][lane];
            if (seen[c] && direction[c] != value)
               stop("CF %u: CUBE group @%u does not repeat one direction in its operands (src0 = dir.zzxy, "
                    "src1 = dir.yxzz expected; component %c differs in slot %c, lane %u)",
                    pc, group_index, "xyz"[c], "xyzw"[slot], lane);
            direction[c] = value;
            seen[c] = true;
         }
      }
      if (slots != 0xf)
         stop("CF %u: CUBE group @%u does not fill all of x, y, z and w", pc, group_index);
      return evaluate_cube(direction[0], direction[1], direction[2]);
   }

   void execute_lds(const PreparedAlu &alu, size_t index)
   {
      const std::string_view name = alu.name;
      const LaneMask *lane_executes = lanes_executing(index);
      const uint32_t *addresses = operands[index][0], *data_values = operands[index][1];
      const uint32_t *data2_values = operands[index][2];
      for (unsigned lane = 0; lane < width; lane++) {
         if (!lane_executes[lane])
            continue;
         const uint64_t address = uint64_t(addresses[lane]) + alu.lds_offset;
         auto word = [&](uint64_t at) -> uint8_t * {
            if (at + 4 > lds.size() || at % 4)
               stop("CF %u: %s at LDS byte %llu, outside the %zu bytes allocated (SQ_LDS_ALLOC) "
                    "or unaligned", pc, std::string(name).c_str(), (unsigned long long)at, lds.size());
            return lds.data() + at;
         };
         auto load = [&](uint64_t at) { uint32_t v; std::memcpy(&v, word(at), 4); return v; };
         auto store = [&](uint64_t at, uint32_t v) { std::memcpy(word(at), &v, 4); };
         const uint32_t data = data_values[lane];
         const uint32_t data2 = data2_values[lane];
         switch (alu.lds_op) {
         case LdsOp::Read:
            queue[lane].push_back(load(address));
            continue;
         case LdsOp::ReadSubword: {
            const unsigned size = alu.lds_bytes;
            if (address + size > lds.size())
               stop("CF %u: %s outside LDS", pc, std::string(name).c_str());
            uint32_t v = 0;
            std::memcpy(&v, lds.data() + address, size);
            if (alu.lds_signed && (v >> (size * 8 - 1)) & 1)
               v |= ~0u << (size * 8);
            queue[lane].push_back(v);
            continue;
         }
         case LdsOp::Write:
            store(address, data);
            continue;
         case LdsOp::WriteSubword:
            if (address + alu.lds_bytes > lds.size())
               stop("CF %u: %s outside LDS", pc, std::string(name).c_str());
            std::memcpy(lds.data() + address, &data, alu.lds_bytes);
            continue;
         default:
            break;
         }
         const uint32_t old = load(address);
         uint32_t updated;
         switch (alu.lds_op) {
         case LdsOp::Add: updated = old + data; break;
         case LdsOp::Sub: updated = old - data; break;
         case LdsOp::Rsub: updated = data - old; break;
         case LdsOp::Inc: updated = old >= data ? 0 : old + 1; break;
         case LdsOp::Dec: updated = (old == 0 || old > data) ? data : old - 1; break;
         case LdsOp::MinInt: updated = int32_t(old) < int32_t(data) ? old : data; break;
         case LdsOp::MaxInt: updated = int32_t(old) > int32_t(data) ? old : data; break;
         case LdsOp::MinUint: updated = std::min(old, data); break;
         case LdsOp::MaxUint: updated = std::max(old, data); break;
         case LdsOp::And: updated = old & data; break;
         case LdsOp::Or: updated = old | data; break;
         case LdsOp::Xor: updated = old ^ data; break;
         case LdsOp::Xchg: updated = data; break;
         /* LDS_CMP_XCHG: src1 is the compare value, src2 the new value (LLVM's LDS_CMPST
          * operand order). */
         case LdsOp::CmpXchg: updated = old == data ? data2 : old; break;
         default:
            stop("CF %u: %s is not simulated yet", pc, std::string(name).c_str());
         }
         store(address, updated);
         if (alu.lds_returns)
            queue[lane].push_back(old);
      }
   }

   /* ---- fetch ---- */

   void run_fetch_clause(const CfInstruction &cf, const CfStep &step)
   {
      if (!step.fetch)
         stop("CF %u: no fetch clause at %u", pc, cf.get(cf::addr));
      /* Fetches of one clause may run in any order: reading a register an earlier fetch of the
       * same clause writes is undefined (Mesa splits clauses to avoid it). */
      std::vector<uint8_t> &written = fetch_written;
      written.assign(size_t(ctx.gpr_storage) + 4, 0);
      gradients_set = {};
      /* VALID_PIXEL_MODE (CF_WORD1 bit 20): the clause runs as if helper and killed lanes were
       * inactive, so they keep what their destination GPRs held. Mesa r600's sfn relies on it
       * for gl_HelperInvocation (a preset -1 that a VPM fetch overwrites with 0 on valid lanes,
       * emit_load_helper_invocation) and sets it on the fetches of RAT returns
       * (docs/sim-semantics.md, "Pixel quads"). Outside pixel shaders every lane is valid. */
      std::vector<uint8_t> state_outside;
      if (cf.get(cf::valid_pixel_mode)) {
         state_outside = state;
         for (unsigned lane = 0; lane < width; lane++)
            if (state[lane] == Active && !lane_valid(lane))
               state[lane] = InactiveBranch;
      }
      run_fetch_instructions(step, written);
      if (!state_outside.empty())
         state = state_outside;
   }

   /* The channels a fetch writes (DST_SEL not 7, masked) and reads (SRC_SEL 0-3). The clause's
    * ordering hazard is per channel (*derived*): Mesa's sfn gives the unused channels of a fetch's
    * source register to other values, which earlier fetches of the clause may write (r600g's
    * geometry shaders fetch through R1.z after a fetch into R1.xy). */
   /* Bits 9-20 of word 1 hold DST_SEL_X..W in the VTX, TEX and MEM_RD formats alike. */
   static unsigned written_channels(const FetchInstruction &instruction)
   {
      const unsigned sels[4] = {instruction.get(vtx::dst_sel_x), instruction.get(vtx::dst_sel_y),
                                instruction.get(vtx::dst_sel_z), instruction.get(vtx::dst_sel_w)};
      unsigned mask = 0;
      for (unsigned c = 0; c < 4; c++)
         mask |= sels[c] != 7 ? 1u << c : 0;
      return mask;
   }

   static unsigned read_channels_tex(const FetchInstruction &instruction)
   {
      const unsigned sels[4] = {instruction.get(tex::src_sel_x), instruction.get(tex::src_sel_y),
                                instruction.get(tex::src_sel_z), instruction.get(tex::src_sel_w)};
      unsigned mask = 0;
      for (unsigned sel : sels)
         mask |= sel < 4 ? 1u << sel : 0;
      return mask;
   }

   void run_fetch_instructions(const CfStep &step, std::vector<uint8_t> &written)
   {
      for (const FetchInstruction &instruction : step.fetch->instructions) {
         const std::string_view name = instruction.op->name;
         if (name == "READ_SCRATCH") {
            const unsigned src = instruction.get(mem_rd::src_gpr), dst = instruction.get(mem_rd::dst_gpr);
            if (src < written.size() && (written[src] >> instruction.get(mem_rd::src_sel_x)) & 1)
               stop("CF %u: READ_SCRATCH reads R%u, written by an earlier fetch of the same clause", pc, src);
            execute_scratch_read(instruction);
            if (dst < written.size())
               written[dst] |= written_channels(instruction);
            continue;
         }
         const bool is_vfetch = name == "VFETCH";
         if (!is_vfetch && instruction.format != WordFormat::Tex)
            stop("CF %u: fetch %s is not simulated yet", pc, std::string(name).c_str());
         const unsigned src = is_vfetch ? instruction.get(vtx::src_gpr) : instruction.get(tex::src_gpr);
         const unsigned dst = is_vfetch ? instruction.get(vtx::dst_gpr) : instruction.get(tex::dst_gpr);
         const unsigned reads = is_vfetch ? 1u << instruction.get(vtx::src_sel_x) : read_channels_tex(instruction);
         if (src < written.size() && (written[src] & reads))
            stop("CF %u: %s reads R%u, written by an earlier fetch of the same clause", pc,
                 std::string(name).c_str(), src);
         if (is_vfetch)
            execute_vfetch(instruction);
         else
            execute_tex(instruction);
         /* SET_GRADIENTS_H/V write no register. */
         if (dst < written.size() && !name.starts_with("SET_GRADIENTS_"))
            written[dst] |= written_channels(instruction);
      }
   }

   const TextureView &texture_view(unsigned resource_id, const char *name)
   {
      if (const auto found = ctx.texture_views.find(resource_id); found != ctx.texture_views.end())
         return found->second;
      const auto binding = ctx.dispatch.textures.find(resource_id);
      if (binding == ctx.dispatch.textures.end()) {
         if (ctx.dispatch.fetch_resources.count(resource_id))
            stop("CF %u: %s from resource %u, which holds a buffer, not a texture", pc, name, resource_id);
         stop("CF %u: %s from resource %u, which is not bound (no VALID_TEXTURE in slot %u)", pc, name,
              resource_id, resource_id + hw::compute_texture_resource_base);
      }
      TextureView view;
      std::string error;
      if (!prepare_texture_view(binding->second.resource, ctx.dispatch.tiling, ctx.memory, view, error))
         stop("CF %u: %s from texture %u: %s", pc, name, resource_id, error.c_str());
      return ctx.texture_views.emplace(resource_id, std::move(view)).first->second;
   }

   /* SAMPLE, SAMPLE_L, SAMPLE_LB, SAMPLE_LZ, their SAMPLE_C forms, LD, GET_TEXTURE_RESINFO
    * (docs/sim-semantics.md, Textures). */
   void execute_tex(const FetchInstruction &instruction)
   {
      const std::string name(instruction.op->name);
      if (name.starts_with("GET_GRADIENTS_")) {
         execute_gradients(instruction, name);
         return;
      }
      if (name.starts_with("SET_GRADIENTS_")) {
         execute_set_gradients(instruction, name);
         return;
      }
      TexRequest request;
      bool explicit_gradients = false;
      if (name == "SAMPLE") request.op = TexOp::Sample;
      else if (name == "SAMPLE_L") request.op = TexOp::SampleL;
      else if (name == "SAMPLE_LB") request.op = TexOp::SampleLB;
      else if (name == "SAMPLE_LZ") request.op = TexOp::SampleLZ;
      /* The depth-comparing forms: the same level of detail, each texel compared first. */
      else if (name == "SAMPLE_C") request.op = TexOp::Sample, request.compare = true;
      else if (name == "SAMPLE_C_L") request.op = TexOp::SampleL, request.compare = true;
      else if (name == "SAMPLE_C_LB") request.op = TexOp::SampleLB, request.compare = true;
      else if (name == "SAMPLE_C_LZ") request.op = TexOp::SampleLZ, request.compare = true;
      else if (name == "LD") request.op = TexOp::Ld;
      else if (name == "GET_TEXTURE_RESINFO") request.op = TexOp::ResInfo;
      /* Multisampled resources: LDFPTR (LD with INST_MOD 1) reads FMASK, GET_NUMBER_OF_SAMPLES
       * the sample count (texture_unit.cpp). */
      else if (name == "LDFPTR") request.op = TexOp::LdFmask;
      else if (name == "GET_NUMBER_OF_SAMPLES") request.op = TexOp::NumSamples;
      /* Gathers: INST_MOD selects the component (texture_unit.cpp, run_gather). */
      else if (name == "GATHER4") request.op = TexOp::Gather;
      else if (name == "GATHER4_C") request.op = TexOp::Gather, request.compare = true;
      /* GET_LOD: the level of detail SAMPLE would take here (texture_unit.cpp, run_get_lod). */
      else if (name == "GET_LOD") request.op = TexOp::GetLod;
      /* SAMPLE_G / SAMPLE_C_G: SAMPLE's level of detail from the gradients SET_GRADIENTS_H/V gave
       * (Mesa r600 sfn emit_set_gradients puts the two in front of the sample, in its clause). */
      else if (name == "SAMPLE_G") request.op = TexOp::Sample, explicit_gradients = true;
      else if (name == "SAMPLE_C_G") request.op = TexOp::Sample, request.compare = true, explicit_gradients = true;
      else
         stop("CF %u: %s is not simulated", pc, name.c_str());
      request.gather_component = instruction.get(tex::inst_mod);
      request.cayman_gather_order = ctx.dispatch.isa == hw::IsaClass::Cayman;
      if (instruction.get(tex::inst_mod) && request.op != TexOp::LdFmask && request.op != TexOp::Gather)
         stop("CF %u: %s with INST_MOD %u is not simulated", pc, name.c_str(), instruction.get(tex::inst_mod));
      if (instruction.get(tex::src_rel) || instruction.get(tex::dst_rel))
         stop("CF %u: relative TEX registers are not simulated", pc);
      if (instruction.get(tex::resource_index_mode) || instruction.get(tex::sampler_index_mode))
         stop("CF %u: indexed TEX resources or samplers are not simulated", pc);
      if (instruction.get(tex::alt_const))
         stop("CF %u: TEX with ALT_CONST is not simulated", pc);
      if (instruction.get(tex::lod_bias))
         stop("CF %u: TEX LOD_BIAS is not simulated", pc);
      const unsigned resource_id = instruction.get(tex::resource_id);
      const unsigned sampler_id = instruction.get(tex::sampler_id);
      const TextureView &view = texture_view(resource_id, name.c_str());
      static const SamplerBinding unbound_sampler{};
      const SamplerBinding *sampler = &unbound_sampler;
      if (request.op != TexOp::Ld && request.op != TexOp::ResInfo && request.op != TexOp::LdFmask &&
          request.op != TexOp::NumSamples) {
         const auto found = ctx.dispatch.samplers.find(sampler_id);
         if (found == ctx.dispatch.samplers.end())
            stop("CF %u: %s with sampler %u, beyond the %u compute samplers", pc, name.c_str(), sampler_id,
                 hw::compute_sampler_count);
         sampler = &found->second;
      }
      const Field dst_sels[] = {tex::dst_sel_x, tex::dst_sel_y, tex::dst_sel_z, tex::dst_sel_w};
      const Field coord_types[] = {tex::coord_type_x, tex::coord_type_y, tex::coord_type_z, tex::coord_type_w};
      for (unsigned c = 0; c < 4; c++)
         request.normalized[c] = instruction.get(coord_types[c]);
      request.result_used = {};
      for (unsigned c = 0; c < 4; c++)
         if (const unsigned sel = instruction.get(dst_sels[c]); sel < 4)
            request.result_used[sel] = true;
      const Field offsets[] = {tex::offset_x, tex::offset_y, tex::offset_z};
      for (unsigned a = 0; a < 3; a++) {
         const int raw = int(instruction.get(offsets[a]));
         request.offset_halves[a] = raw & 0x10 ? raw - 32 : raw; /* 5-bit signed, half texels */
      }
      const unsigned src = instruction.get(tex::src_gpr), dst = instruction.get(tex::dst_gpr);
      /* Every lane's sources first: an implicit level of detail reads the quad's neighbours,
       * which must not see this instruction's results. */
      std::vector<std::array<uint32_t, 4>> &sources = tex_sources;
      sources.assign(width, {});
      for (unsigned lane = 0; lane < width; lane++)
         if (lane_active(lane) || !killed.empty())
            sources[lane] = selected_sources(instruction, src, lane, name);
      /* Pixel shaders: SAMPLE and SAMPLE_LB take the level of detail from the differences of
       * the coordinates across the quad, one level for the quad: top-right minus top-left and
       * bottom-left minus top-left (derived; docs/sim-semantics.md). */
      const bool implicit_lod =
         (request.op == TexOp::Sample || request.op == TexOp::SampleLB || request.op == TexOp::GetLod) &&
         ctx.dispatch.stage == ShaderStage::Pixel && !killed.empty() && !explicit_gradients;
      if (explicit_gradients && (!gradients_set[0] || !gradients_set[1]))
         stop("CF %u: %s without SET_GRADIENTS_H and SET_GRADIENTS_V before it in its clause", pc, name.c_str());
      for (unsigned lane = 0; lane < width; lane++) {
         if (!lane_active(lane))
            continue;
         ctx.statistics.fetches++;
         request.source = sources[lane];
         if (explicit_gradients) {
            request.has_derivatives = true;
            request.derivatives = {set_gradients[0][lane], set_gradients[1][lane]};
            request.explicit_gradients = true;
         }
         if (implicit_lod) {
            const unsigned top_left = lane & ~3u;
            request.has_derivatives = true;
            request.quad = {sources[top_left], sources[top_left + 1], sources[top_left + 2]};
            for (unsigned c = 0; c < 3; c++) {
               const float origin = as_float(sources[top_left][c]);
               request.derivatives[0][c] = as_float(sources[top_left + 1][c]) - origin;
               request.derivatives[1][c] = as_float(sources[top_left + 2][c]) - origin;
            }
         }
         std::array<uint32_t, 4> result{};
         std::string error;
         if (!texture_execute(view, sampler->sampler, sampler->border, request, result, error))
            stop("CF %u: %s from texture %u: %s", pc, name.c_str(), resource_id, error.c_str());
         for (unsigned c = 0; c < 4; c++) {
            const unsigned sel = instruction.get(dst_sels[c]);
            if (sel == 7)
               continue;
            if (sel == 6)
               stop("CF %u: %s DST_SEL 6 is not defined", pc, name.c_str());
            gpr_at(dst, c, lane, "TEX writes") = sel < 4 ? result[sel] : sel == 4 ? 0u : as_bits(1.0f);
         }
      }
   }

   /* The four values a TEX instruction's SRC_SEL_X..W pick from R`src` in one lane. */
   std::array<uint32_t, 4> selected_sources(const FetchInstruction &instruction, unsigned src, unsigned lane,
                                            const std::string &name)
   {
      const Field src_sels[] = {tex::src_sel_x, tex::src_sel_y, tex::src_sel_z, tex::src_sel_w};
      std::array<uint32_t, 4> values{};
      for (unsigned c = 0; c < 4; c++) {
         const unsigned sel = instruction.get(src_sels[c]);
         if (sel < 4)
            values[c] = gpr_at(src, sel, lane, "TEX reads");
         /* 7 (SEL_MASK) supplies no value; r600g masks the coordinates an instruction does
          * not need (the layer and LOD of a 2D LD) and expects them as 0 (derived). */
         else if (sel == 4 || sel == 7)
            values[c] = 0;
         else if (sel == 5)
            values[c] = as_bits(1.0f);
         else
            stop("CF %u: %s SRC_SEL %u is not defined", pc, name.c_str(), sel);
      }
      return values;
   }

   /* GET_GRADIENTS_H / GET_GRADIENTS_V (INST_MOD 1: _FINE): per quad, the difference of each
    * selected source component between horizontally (H) or vertically (V) adjacent pixels:
    * right minus left, bottom minus top (y grows down the screen). Fine: each pixel uses its
    * own row (H) or column (V); coarse: every pixel of the quad gets the top row's (H) or the
    * left column's (V) difference. Neighbours are read whatever their state (inactive,
    * helper, killed). COORD_TYPE, the resource and the sampler play no part (r600g points
    * them at slots that may hold nothing). Sources: Mesa r600 (r600_shader.c, sfn
    * emit_tex_fdd: DDX/DDY are these instructions, INST_MOD 1 "per pixel" for the fine forms);
    * which pixels a coarse difference uses and the sign of V are derived (docs/sim-semantics.md). */
   void execute_gradients(const FetchInstruction &instruction, const std::string &name)
   {
      if (ctx.dispatch.stage != ShaderStage::Pixel || killed.empty())
         stop("CF %u: %s outside a pixel shader (it needs the pixels of a quad)", pc, name.c_str());
      if (instruction.get(tex::src_rel) || instruction.get(tex::dst_rel))
         stop("CF %u: relative TEX registers are not simulated", pc);
      const unsigned mode = instruction.get(tex::inst_mod);
      if (mode > 1)
         stop("CF %u: %s with INST_MOD %u is not defined", pc, name.c_str(), mode);
      const bool vertical = name.starts_with("GET_GRADIENTS_V"), fine = mode == 1;
      const unsigned src = instruction.get(tex::src_gpr), dst = instruction.get(tex::dst_gpr);
      std::vector<std::array<uint32_t, 4>> &sources = tex_sources;
      sources.assign(width, {});
      for (unsigned lane = 0; lane < width; lane++)
         sources[lane] = selected_sources(instruction, src, lane, name);
      const Field dst_sels[] = {tex::dst_sel_x, tex::dst_sel_y, tex::dst_sel_z, tex::dst_sel_w};
      for (unsigned lane = 0; lane < width; lane++) {
         if (!lane_active(lane))
            continue;
         ctx.statistics.fetches++;
         const unsigned quad = lane & ~3u, x = lane & 1, y = (lane >> 1) & 1;
         unsigned from, to;
         if (vertical) {
            from = quad + (fine ? x : 0);
            to = from + 2;
         } else {
            from = quad + 2 * (fine ? y : 0);
            to = from + 1;
         }
         std::array<uint32_t, 4> result;
         for (unsigned c = 0; c < 4; c++)
            result[c] = as_bits(as_float(sources[to][c]) - as_float(sources[from][c]));
         for (unsigned c = 0; c < 4; c++) {
            const unsigned sel = instruction.get(dst_sels[c]);
            if (sel == 7)
               continue;
            if (sel == 6)
               stop("CF %u: %s DST_SEL 6 is not defined", pc, name.c_str());
            gpr_at(dst, c, lane, "TEX writes") = sel < 4 ? result[sel] : sel == 4 ? 0u : as_bits(1.0f);
         }
      }
   }

   /* SET_GRADIENTS_H / SET_GRADIENTS_V (INST_MOD 0): each lane's selected x, y, z become the
    * d/dx or d/dy a later SAMPLE_G of the clause uses, in the units of that sample's coordinates
    * (its COORD_TYPE scales them; this instruction's COORD_TYPE, resource and sampler play no
    * part: derived). Nothing is written (r600g masks every DST_SEL). Cayman's _COARSE and _PACKED
    * forms (INST_MOD 1-3) are not simulated. */
   void execute_set_gradients(const FetchInstruction &instruction, const std::string &name)
   {
      if (instruction.get(tex::inst_mod))
         stop("CF %u: %s with INST_MOD %u is not simulated", pc, name.c_str(), instruction.get(tex::inst_mod));
      if (instruction.get(tex::src_rel))
         stop("CF %u: relative TEX registers are not simulated", pc);
      const unsigned which = name.starts_with("SET_GRADIENTS_V") ? 1 : 0;
      const unsigned src = instruction.get(tex::src_gpr);
      set_gradients[which].assign(width, {});
      for (unsigned lane = 0; lane < width; lane++) {
         if (!lane_active(lane))
            continue;
         ctx.statistics.fetches++;
         const std::array<uint32_t, 4> values = selected_sources(instruction, src, lane, name);
         for (unsigned c = 0; c < 3; c++)
            set_gradients[which][lane][c] = as_float(values[c]);
      }
      gradients_set[which] = true;
   }

   void execute_vfetch(const FetchInstruction &instruction)
   {
      if (instruction.get(vtx::src_rel) || instruction.get(vtx::dst_rel))
         stop("CF %u: relative VFETCH registers are not simulated", pc);
      /* Fetches inside the fetch shader read the vertex buffers. */
      const unsigned buffer_id = instruction.get(vtx::buffer_id) + (in_fetch_shader ? fetch_shader_resource_key : 0);
      if (instruction.get(vtx::endian_swap) ||
          (instruction.get(vtx::use_const_fields) && ctx.dispatch.fetch_resources.count(buffer_id) &&
           ctx.dispatch.fetch_resources.at(buffer_id).endian_swap))
         stop("CF %u: VFETCH with an endian swap is not simulated yet", pc);
      const auto resource = ctx.dispatch.fetch_resources.find(buffer_id);
      if (resource == ctx.dispatch.fetch_resources.end())
         stop("CF %u: VFETCH from buffer %u, which is not bound", pc, buffer_id);
      if (const auto bad = ctx.unusable_fetch_buffers.find(buffer_id); bad != ctx.unusable_fetch_buffers.end())
         stop("CF %u: %s", pc, bad->second.c_str());
      const HostRange &host = ctx.fetch_buffers.at(buffer_id);
      const FetchResource &res = resource->second;
      const bool use_resource = instruction.get(vtx::use_const_fields);
      const unsigned format = use_resource ? res.data_format : instruction.get(vtx::data_format);
      const unsigned num_format = use_resource ? res.num_format : instruction.get(vtx::num_format_all);
      const bool is_signed = use_resource ? res.format_comp : instruction.get(vtx::format_comp_all);
      /* Component count and bits per component of the buffer formats compute uses (the FMT_*
       * numbers of src/hw/texture.h). */
      unsigned components, bits;
      bool is_float = false;
      switch (format) {
      case hw::Fmt16Float: components = 1, bits = 16, is_float = true; break;
      case hw::Fmt16_16Float: components = 2, bits = 16, is_float = true; break;
      case hw::Fmt16_16_16_16Float: components = 4, bits = 16, is_float = true; break;
      case hw::Fmt8: components = 1, bits = 8; break;
      case hw::Fmt16: components = 1, bits = 16; break;
      case hw::Fmt8_8: components = 2, bits = 8; break;
      case hw::Fmt32: components = 1, bits = 32; break;
      case hw::Fmt32Float: components = 1, bits = 32, is_float = true; break;
      case hw::Fmt16_16: components = 2, bits = 16; break;
      case hw::Fmt8_8_8_8: components = 4, bits = 8; break;
      case hw::Fmt32_32: components = 2, bits = 32; break;
      case hw::Fmt32_32Float: components = 2, bits = 32, is_float = true; break;
      case hw::Fmt16_16_16_16: components = 4, bits = 16; break;
      case hw::Fmt32_32_32_32: components = 4, bits = 32; break;
      case hw::Fmt32_32_32_32Float: components = 4, bits = 32, is_float = true; break;
      case hw::Fmt32_32_32: components = 3, bits = 32; break;
      case hw::Fmt32_32_32Float: components = 3, bits = 32, is_float = true; break;
      /* Packed dwords: fields from bit 0 as the texture unit's component layouts give them. */
      case hw::Fmt2_10_10_10: components = 4, bits = 8; break;
      case hw::Fmt10_11_11Float: components = 3, bits = 32, is_float = true; break;
      default:
         stop("CF %u: VFETCH data format %u is not simulated", pc, format);
      }
      const bool packed = format == hw::Fmt2_10_10_10 || format == hw::Fmt10_11_11Float;
      if (num_format == 0 && bits < 32 && !is_float && res.srf_mode && use_resource)
         stop("CF %u: VFETCH with SRF_MODE_ALL (no zero) is not simulated", pc);
      const unsigned bytes = packed ? 4 : components * bits / 8;
      const unsigned dst = instruction.get(vtx::dst_gpr);
      const unsigned src = instruction.get(vtx::src_gpr);
      const unsigned src_chan = instruction.get(vtx::src_sel_x);
      const Field selects[] = {vtx::dst_sel_x, vtx::dst_sel_y, vtx::dst_sel_z, vtx::dst_sel_w};
      for (unsigned lane = 0; lane < width; lane++) {
         if (!lane_active(lane))
            continue;
         ctx.statistics.fetches++;
         const uint64_t index = gpr_at(src, src_chan, lane, "VFETCH reads");
         /* STRIDE 0 reads one element for every index: r600g programs it for GL's current
          * vertex attributes (Mesa st_atom_array.cpp gives those buffers stride 0). */
         const uint64_t offset = index * res.stride + instruction.get(vtx::offset);
         uint32_t element[4] = {0, 0, 0, 0};
         /* The hardware bounds-checks against the resource size; outside it a fetch returns
          * zeros (the value is not documented to us; zero is what robust buffer access needs). */
         if (offset + bytes <= uint64_t(res.size) + 1) {
            if (offset + bytes > host.size)
               stop("CF %u: VFETCH buffer %u beyond its buffer object", pc, buffer_id);
            if (!returned.empty())
               check_returned_read(res, offset, bytes, buffer_id);
            const uint8_t *data = host.data + offset;
            if (packed)
               decode_packed_vertex(format, num_format, is_signed, data, element);
            for (unsigned c = 0; c < components && !packed; c++) {
               uint32_t v = 0;
               std::memcpy(&v, data + c * bits / 8, bits / 8);
               if (is_float && bits == 16) {
                  element[c] = as_bits(half_to_float(uint16_t(v)));
                  continue;
               }
               if (is_signed && bits < 32 && (v >> (bits - 1)) & 1)
                  v |= ~0u << bits;
               if (num_format == 2 && !is_float)
                  v = as_bits(is_signed ? float(int32_t(v)) : float(v));
               /* NORM: unsigned x / (2^bits - 1); signed max(x / (2^(bits-1) - 1), -1)
                * (the Vulkan conversions; derived, docs/sim-semantics.md). */
               if (num_format == 0 && !is_float && bits < 32)
                  v = as_bits(is_signed ? std::max(float(int32_t(v)) / float((1u << (bits - 1)) - 1), -1.0f)
                                        : float(v) / float((1u << bits) - 1));
               element[c] = v;
            }
         }
         for (unsigned c = 0; c < 4; c++) {
            const unsigned sel = instruction.get(selects[c]);
            if (sel == 7)
               continue;
            uint32_t one = is_float || num_format != 1 ? as_bits(1.0f) : 1u;
            auto pick = [&](unsigned s) { return s < 4 ? element[s] : s == 4 ? 0u : one; };
            /* With USE_CONST_FIELDS the resource's DST_SEL (WORD3) arranges the element
             * first; the instruction's DST_SEL picks from that (derived order). */
            uint32_t value = sel < 4 && use_resource ? pick(res.dst_sel[sel]) : pick(sel);
            /* A fetch shader fetches every vertex element bound, also those the VS never reads
             * and has no GPRs for: r600g's blitter binds two elements for its position-only
             * VS (the MSAA resolve's, NUM_GPRS 2), whose fetch shader writes R2, and resolves
             * work on real cards. Such writes are dropped (*derived*). */
            if (in_fetch_shader && dst >= ctx.dispatch.num_gprs && dst < clause_temporary_first)
               continue;
            gpr_at(dst, c, lane, "VFETCH writes") = value;
         }
      }
   }

   /* A fetch of dwords a returning RAT operation of this wave wrote: only after the write was
    * acknowledged (MEM_RAT with MARK, then WAIT_ACK; r600g's sequence, sfn_instr_mem.cpp
    * emit_ssbo_atomic_op), and through an uncached resource (r600g's return-buffer resource
    * sets UNCACHED, evergreen_setup_immed_buffer: the vertex cache may hold an older line). */
   void check_returned_read(const FetchResource &res, uint64_t offset, unsigned bytes, unsigned buffer_id)
   {
      for (uint64_t at = (res.address + offset) & ~uint64_t(3); at < res.address + offset + bytes; at += 4) {
         const auto found = returned.find(at);
         if (found == returned.end())
            continue;
         if (!found->second.acknowledged)
            stop("CF %u: VFETCH from buffer %u reads the RAT return at 0x%llx before its write was "
                 "acknowledged (MEM_RAT with MARK, then WAIT_ACK)", pc, buffer_id, (unsigned long long)at);
         if (!res.uncached)
            stop("CF %u: VFETCH from buffer %u reads the RAT return at 0x%llx through a cached "
                 "resource (SQ_VTX_CONSTANT_WORD3.UNCACHED clear)", pc, buffer_id, (unsigned long long)at);
      }
   }

   /* Where RAT `rat_id`'s returning operations write: CB_IMMEDn_BASE, located at first use. */
   const HostRange &return_buffer(unsigned rat_id, uint64_t address)
   {
      if (const auto found = ctx.return_buffers.find(rat_id); found != ctx.return_buffers.end())
         return found->second;
      std::string error;
      uint8_t *data = address ? ctx.memory.resolve(address, 4, error) : nullptr;
      if (!data)
         stop("CF %u: RAT %u returns a value, but CB_IMMED%u_BASE (0x%llx) is not in a buffer%s%s", pc,
              rat_id, rat_id, (unsigned long long)address, error.empty() ? "" : ": ", error.c_str());
      return ctx.return_buffers[rat_id] = {data, ctx.memory.bytes_after(address)};
   }

   /* MBCNT_32HI_INT and MBCNT_32LO_ACCUM_PREV_INT (*derived*: no public document gives their
    * semantics; r600g issues both in one group with source -1 and takes the low half's
    * result as the lane's index in its wave, sfn_shader.cpp and r600_shader.c
    * load_thread_id_gpr): HI counts the bits of its source that stand for lanes 32-63 below
    * the lane, LO those for lanes 0-31 below it plus its group partner HI's count (the PREV
    * its name and the PREV_NEXT slot rule refer to). A LO without a HI in its group is
    * refused. */
   void count_lanes_below(const PreparedAlu &alu, size_t index, const LaneMask *lane_executes, uint32_t *out)
   {
      const uint32_t *mask = operands[index][0];
      const bool low = alu.name == "MBCNT_32LO_ACCUM_PREV_INT";
      if (low && alu.partners.size() != 1)
         stop("CF %u: MBCNT_32LO_ACCUM_PREV_INT without one MBCNT_32HI_INT in its group is not simulated", pc);
      const uint32_t *high_mask = low ? operands[alu.partners[0]][0] : mask;
      for (unsigned lane = 0; lane < width; lane++) {
         if (!lane_executes[lane])
            continue;
         const unsigned in_half = lane % 32;
         const uint32_t below = in_half ? (1u << in_half) - 1 : 0;
         const uint32_t high = lane >= 32 ? uint32_t(std::popcount(high_mask[lane] & below)) : 0;
         if (!low) {
            out[lane] = high;
            continue;
         }
         const uint32_t low_below = lane >= 32 ? ~0u : below;
         out[lane] = uint32_t(std::popcount(mask[lane] & low_below)) + high;
      }
   }

   /* ---- RAT ---- */

   void run_rat(const CfInstruction &cf)
   {
      const unsigned rat_id = cf.get(cf_export::rat_id);
      /* A pixel shader's RAT without VALID_PIXEL_MODE would be executed by helper and killed
       * pixels too: what they write is not documented, and r600g never asks (it sets the bit
       * on every pixel-shader RAT, sfn_assembler.cpp). */
      if (ctx.dispatch.stage == ShaderStage::Pixel && !cf.get(cf_export::valid_pixel_mode))
         stop("CF %u: a pixel shader's MEM_RAT without VALID_PIXEL_MODE (helper and killed pixels would "
              "execute it) is not simulated",
              pc);
      if (const auto bad = ctx.unusable_rats.find(rat_id); bad != ctx.unusable_rats.end())
         stop("CF %u: %s", pc, bad->second.c_str());
      const auto binding = ctx.rat_buffers.find(rat_id);
      if (binding == ctx.rat_buffers.end())
         stop("CF %u: RAT %u is not bound (CB_COLOR%u with the RAT bit)", pc, rat_id, rat_id);
      const HostRange &host = binding->second;
      const RatBinding &bound = ctx.dispatch.rats.at(rat_id);
      const unsigned inst = cf.get(cf_export::rat_inst);
      const unsigned rw = cf.get(cf_export::rw_gpr), index_gpr = cf.get(cf_export::index_gpr);
      const unsigned mask = cf.get(cf_export::comp_mask);
      if (cf.get(cf_export::rw_rel) || cf.get(cf_export::burst_count) || cf.get(cf_export::rat_index_mode))
         stop("CF %u: RAT with RW_REL, BURST_COUNT or an index mode is not simulated", pc);
      const RatOpInfo *op = find_rat_op(inst);
      if (!op)
         stop("CF %u: RAT instruction %u is not defined", pc, inst);
      /* Every operation but NOP_RTN (r600g's read of a storage buffer) writes memory. */
      if (ctx.dispatch.stage == ShaderStage::Pixel && !ctx.dispatch.rat_order_problem.empty() &&
          op->name != "NOP_RTN")
         stop("CF %u: %s", pc, ctx.dispatch.rat_order_problem.c_str());
      /* Returning operations (*_RTN) write each lane's old value to the RAT's return buffer
       * (CB_IMMEDn_BASE) at the dword index in the data GPR's y channel: r600g puts its return
       * address there and fetches the value back from the same index (sfn_instr_mem.cpp
       * emit_ssbo_atomic_op, sfn_shader.cpp's rat_return_address). */
      const HostRange *returns_to = nullptr;
      uint64_t return_base = 0;
      std::set<uint32_t> return_slots;
      if (op->returns) {
         return_base = ctx.dispatch.rats.at(rat_id).return_address;
         returns_to = &return_buffer(rat_id, return_base);
      }
      const std::string_view name = op->returns ? op->name.substr(0, op->name.size() - 4) : op->name;
      /* The compare value of CMPXCHG: channel w on Evergreen (LLVM's R600 backend and r600g
       * agree); on Cayman r600g puts it in z and LLVM 14 in w. Both are honoured only when they
       * hold the same value (the compiler writes both); otherwise the result is unknown. */
      const unsigned compare_chan = 3;
      const bool compare_both = ctx.dispatch.isa == hw::IsaClass::Cayman;
      for (unsigned lane = 0; lane < width; lane++) {
         /* VALID_PIXEL_MODE (required above in pixel shaders): helper and killed pixels, and
          * those that failed an early depth test (gfx/draw.cpp makes them helpers), write
          * nothing. */
         if (!lane_active(lane) || !lane_valid(lane))
            continue;
         const uint64_t index = gpr_at(index_gpr, 0, lane, "RAT index");
         /* Atomics on an image RAT (COLOR_32, a texture RESOURCE_TYPE) address the element its
          * coordinates name, as STORE_TYPED does (r600g's image atomics). */
         uint8_t *image_element = nullptr;
         if (name != "STORE_TYPED" && bound.typed && bound.typed->type != RatResourceType::Buffer &&
             bound.format == 0xD) {
            if (name == "STORE_RAW" || name == "STORE_DWORD")
               stop("CF %u: %s to the image RAT %u is not simulated (STORE_TYPED writes images)", pc,
                    std::string(name).c_str(), rat_id);
            std::array<uint32_t, 4> coordinates;
            for (unsigned c = 0; c < 4; c++)
               coordinates[c] = gpr_at(index_gpr, c, lane, "RAT index");
            std::string error;
            image_element = typed_rat_element(*bound.typed, coordinates, error);
            if (!image_element)
               stop("CF %u: RAT%u %s: %s", pc, rat_id, std::string(op->name).c_str(), error.c_str());
         }
         auto dword = [&](uint64_t element) -> uint8_t * {
            if (image_element)
               return image_element;
            const uint64_t offset = element * 4;
            if (offset + 4 > host.size)
               stop("CF %u: RAT%u %s at element %llu, beyond the bound buffer (%llu bytes)", pc,
                    rat_id, std::string(op->name).c_str(), (unsigned long long)element,
                    (unsigned long long)host.size);
            return host.data + offset;
         };
         auto load = [&](uint64_t e) { uint32_t v; std::memcpy(&v, dword(e), 4); return v; };
         auto store = [&](uint64_t e, uint32_t v) { std::memcpy(dword(e), &v, 4); };
         if (name == "STORE_TYPED") {
            if (!bound.typed)
               stop("CF %u: STORE_TYPED to RAT %u: %s", pc, rat_id, bound.typed_error.c_str());
            std::array<uint32_t, 4> coordinates, data;
            for (unsigned c = 0; c < 4; c++) {
               coordinates[c] = gpr_at(index_gpr, c, lane, "RAT index");
               data[c] = gpr_at(rw, c, lane, "RAT data");
            }
            std::string error;
            if (!store_typed(*bound.typed, coordinates, data, mask, error))
               stop("CF %u: RAT%u %s", pc, rat_id, error.c_str());
            continue;
         }
         if (bound.format != 0xD)
            stop("CF %u: RAT %s on RAT %u of colour format %u: raw and atomic operations on formats other "
                 "than COLOR_32 are not simulated yet", pc, std::string(name).c_str(), rat_id, bound.format);
         if (name == "STORE_RAW" || name == "STORE_DWORD") {
            for (unsigned c = 0; c < 4; c++)
               if (mask >> c & 1)
                  store(index + c, gpr_at(rw, c, lane, "RAT data"));
            continue;
         }
         const uint32_t x = gpr_at(rw, 0, lane, "RAT data");
         const uint32_t old = load(index);
         uint32_t updated;
         if (name == "MSKOR") updated = (old & ~gpr_at(rw, 3, lane, "RAT mask")) | x;
         else if (name == "ADD") updated = old + x;
         else if (name == "SUB") updated = old - x;
         else if (name == "RSUB") updated = x - old;
         else if (name == "MIN_INT") updated = int32_t(old) < int32_t(x) ? old : x;
         else if (name == "MAX_INT") updated = int32_t(old) > int32_t(x) ? old : x;
         else if (name == "MIN_UINT") updated = std::min(old, x);
         else if (name == "MAX_UINT") updated = std::max(old, x);
         else if (name == "AND") updated = old & x;
         else if (name == "OR") updated = old | x;
         else if (name == "XOR") updated = old ^ x;
         else if (name == "INC_UINT") updated = old >= x ? 0 : old + 1;
         else if (name == "DEC_UINT") updated = (old == 0 || old > x) ? x : old - 1;
         else if (name == "XCHG" && op->returns) updated = x;
         else if (name == "NOP" && op->returns) updated = old;
         else if (name == "CMPXCHG_INT") {
            const uint32_t compare = gpr_at(rw, compare_chan, lane, "RAT compare");
            if (compare_both && gpr_at(rw, 2, lane, "RAT compare") != compare)
               stop("CF %u: Cayman CMPXCHG_INT with different compare values in z and w (lane %u): "
                    "which channel the hardware reads is not known (r600g: z, LLVM: w)", pc, lane);
            updated = old == compare ? x : old;
         } else
            stop("CF %u: RAT %s is not simulated yet", pc, std::string(op->name).c_str());
         store(index, updated);
         if (!returns_to)
            continue;
         const uint32_t slot = gpr_at(rw, 1, lane, "RAT return index");
         if (uint64_t(slot) * 4 + 4 > returns_to->size)
            stop("CF %u: RAT%u %s returns to dword %u, beyond the buffer at CB_IMMED%u_BASE (%llu bytes)",
                 pc, rat_id, std::string(op->name).c_str(), slot, rat_id, (unsigned long long)returns_to->size);
         if (!return_slots.insert(slot).second)
            stop("CF %u: RAT%u %s: two lanes return to dword %u (lane %u)", pc, rat_id,
                 std::string(op->name).c_str(), slot, lane);
         std::memcpy(returns_to->data + uint64_t(slot) * 4, &old, 4);
         returned[return_base + uint64_t(slot) * 4] = {cf.get(cf_export::mark) != 0, false};
      }
   }
};


/* Decodes a program and checks its ALU groups; false with a message if it cannot run. */
bool decode_and_check(const std::vector<uint32_t> &words, uint64_t address, IsaClass isa,
                      Program &program, std::string &error)
{
   DecodeError decode_error;
   if (!decode_program_at(words, isa, program, decode_error)) {
      char text[64];
      std::snprintf(text, sizeof(text), "program at 0x%llx, dword %u: ", (unsigned long long)address,
                    decode_error.dword);
      error = text + decode_error.message;
      return false;
   }
   /* Illegal VLIW groups are refused before anything runs. */
   const std::vector<std::string> violations = check_program(program);
   if (!violations.empty()) {
      error = "illegal instruction group: " + violations.front();
      return false;
   }
   return true;
}

/* Locates the bound constant buffers, fetch buffers and RATs in memory (throws Stop). */
void locate_resources(Context &ctx)
{
   const ComputeDispatch &dispatch = ctx.dispatch;
   GpuMemory &memory = ctx.memory;
   std::string error;
   for (unsigned i = 0; i < 16; i++) {
      const ConstantBuffer &buffer = dispatch.constant_buffers[i];
      if (!buffer.bound)
         continue;
      /* Like fetch buffers and RATs, a binding left from earlier work whose memory is gone
       * faults only when the program reads it: context registers keep their values across
       * submissions, and the hardware reads a constant buffer only through a kcache lock. */
      uint8_t *data = memory.resolve(buffer.address, buffer.size, error);
      if (!data) {
         char text[96];
         std::snprintf(text, sizeof(text), "constant buffer %u at 0x%llx (%llu bytes): ", i,
                       (unsigned long long)buffer.address, (unsigned long long)buffer.size);
         ctx.unusable_constant_buffers[i] = text + error;
         continue;
      }
      ctx.constant_buffers[i] = {data, buffer.size};
   }
   for (const auto &[id, resource] : dispatch.fetch_resources) {
      uint8_t *data = memory.resolve(resource.address, uint64_t(resource.size) + 1, error);
      if (!data) {
         char text[96];
         std::snprintf(text, sizeof(text), "fetch buffer %u at 0x%llx (%u bytes): ", id,
                       (unsigned long long)resource.address, resource.size + 1);
         ctx.unusable_fetch_buffers[id] = text + error;
         continue;
      }
      ctx.fetch_buffers[id] = {data, uint64_t(resource.size) + 1};
   }
   for (const auto &[id, rat] : dispatch.rats) {
      uint8_t *data = memory.resolve(rat.address, rat.size_limit, error);
      if (!data) {
         char text[96];
         std::snprintf(text, sizeof(text), "RAT %u at 0x%llx (%llu bytes): ", id,
                       (unsigned long long)rat.address, (unsigned long long)rat.size_limit);
         ctx.unusable_rats[id] = text + error;
         continue;
      }
      ctx.rat_buffers[id] = {data, rat.size_limit};
   }
}

} // namespace

struct ShaderRunner::State {
   Program program, fetch_program;
   PreparedProgram plan, fetch_plan;
   std::unique_ptr<Context> ctx;
   std::string error;
   std::vector<uint8_t> lds;
};

ShaderRunner::ShaderRunner(const ComputeDispatch &dispatch, GpuMemory &memory, TraceLevel trace)
   : state(std::make_unique<State>())
{
   State &s = *state;
   if (!decode_and_check(dispatch.program, dispatch.program_address, dispatch.isa, s.program, s.error))
      return;
   if (!dispatch.fetch_shader.empty() &&
       !decode_and_check(dispatch.fetch_shader, dispatch.fetch_shader_address, dispatch.isa,
                         s.fetch_program, s.error)) {
      s.error = "fetch shader: " + s.error;
      return;
   }
   prepare_program(s.program, dispatch.isa, dispatch.wave_size, s.plan);
   s.ctx.reset(new Context{dispatch, s.plan, memory, trace});
   Context &ctx = *s.ctx;
   ctx.widest_group = std::max<size_t>(5, s.plan.widest_group);
   if (!dispatch.fetch_shader.empty()) {
      prepare_program(s.fetch_program, dispatch.isa, dispatch.wave_size, s.fetch_plan);
      ctx.fetch_program = &s.fetch_plan;
      ctx.widest_group = std::max(ctx.widest_group, s.fetch_plan.widest_group);
   }
   ctx.gpr_storage = std::max(dispatch.num_gprs, 2u);
   try {
      locate_resources(ctx);
   } catch (const Stop &stopped) {
      s.error = stopped.message;
   }
}

ShaderRunner::~ShaderRunner() = default;

const std::string &ShaderRunner::error() const
{
   return state->error;
}

DispatchStatistics ShaderRunner::statistics() const
{
   return state->ctx ? state->ctx->statistics : DispatchStatistics{};
}

bool ShaderRunner::run(const GraphicsWave &setup, WaveExports &exports, std::string &error)
{
   if (!state->error.empty()) {
      error = state->error;
      return false;
   }
   Context &ctx = *state->ctx;
   ctx.graphics = &setup;
   ctx.exports = &exports;
   try {
      Wave wave(ctx, state->lds, setup);
      ctx.statistics.wavefronts++;
      while (!wave.finished)
         if (wave.run() == Wave::Outcome::Barrier)
            stop("a graphics wave reached a GROUP_BARRIER");
      wave.report_kills(exports);
   } catch (const Stop &stopped) {
      error = stopped.message;
      ctx.graphics = nullptr;
      ctx.exports = nullptr;
      return false;
   }
   ctx.graphics = nullptr;
   ctx.exports = nullptr;
   return true;
}

DispatchResult run_compute_dispatch(const ComputeDispatch &dispatch, GpuMemory &memory,
                                    TraceLevel trace)
{
   DispatchResult result;
   Program program;
   if (!decode_and_check(dispatch.program, dispatch.program_address, dispatch.isa, program, result.error)) {
      result.ok = false;
      return result;
   }
   PreparedProgram plan;
   prepare_program(program, dispatch.isa, dispatch.wave_size, plan);
   Context ctx{dispatch, plan, memory, trace};
   ctx.widest_group = std::max<size_t>(5, plan.widest_group);
   ctx.gpr_storage = std::max(dispatch.num_gprs, 2u);

   try {
      locate_resources(ctx);
      const unsigned threads = dispatch.group_size[0] * dispatch.group_size[1] * dispatch.group_size[2];
      if (threads == 0 || threads > 1024)
         stop("thread group of %u threads (SPI_COMPUTE_NUM_THREAD_*); 1 to 1024 fit", threads);
      const unsigned waves = (threads + dispatch.wave_size - 1) / dispatch.wave_size;
      for (unsigned gz = 0; gz < dispatch.grid[2]; gz++)
         for (unsigned gy = 0; gy < dispatch.grid[1]; gy++)
            for (unsigned gx = 0; gx < dispatch.grid[0]; gx++) {
               std::vector<uint8_t> lds(size_t(dispatch.lds_dwords) * 4, 0);
               std::vector<std::unique_ptr<Wave>> group;
               for (unsigned w = 0; w < waves; w++) {
                  const unsigned first = w * dispatch.wave_size;
                  group.push_back(std::make_unique<Wave>(
                     ctx, lds, std::min(dispatch.wave_size, threads - first),
                     std::array<unsigned, 3>{gx, gy, gz}, first));
                  ctx.statistics.wavefronts++;
               }
               /* Run each wave to its next barrier or its end; a barrier opens when every
                * wave still running has reached it. */
               for (;;) {
                  bool any_running = false;
                  for (auto &wave : group) {
                     if (wave->finished)
                        continue;
                     wave->run();
                     any_running |= !wave->finished;
                  }
                  if (!any_running)
                     break;
               }
            }
   } catch (const Stop &stopped) {
      result.ok = false;
      result.error = stopped.message;
   }
   result.statistics = ctx.statistics;
   return result;
}

} // namespace terakan::sim
