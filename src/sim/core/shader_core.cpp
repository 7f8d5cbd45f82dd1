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
#include <deque>
#include <map>

#include "alu_semantics.h"
#include "texture_unit.h"
#include "compiler/isa/bundle_rules.h"
#include "compiler/isa/stack.h"
#include "compiler/isa/disassembler.h"
#include "compiler/isa/program.h"

namespace terakan::sim {

using namespace isa;

namespace {

enum LaneState : uint8_t { Active, InactiveBranch, InactiveContinue, InactiveBreak, Absent };

struct Frame {
   bool loop = false;
   std::vector<uint8_t> saved;
   uint32_t iterations = 0;
};

/* A failure that stops the dispatch: thrown inside the core, caught at its entry. */
struct Stop {
   std::string message;
};

[[noreturn]] void stop(const char *format, ...) __attribute__((format(printf, 1, 2)));
void stop(const char *format, ...)
{
   char buffer[512];
   va_list args;
   va_start(args, format);
   std::vsnprintf(buffer, sizeof(buffer), format, args);
   va_end(args);
   throw Stop{buffer};
}

struct HostRange {
   uint8_t *data = nullptr;
   uint64_t size = 0;
};

/* Everything the waves of a dispatch share. */
struct Context {
   const ComputeDispatch &dispatch;
   const Program &program;
   GpuMemory &memory;
   TraceLevel trace;
   DispatchStatistics statistics;
   std::map<uint32_t, const AluClause *> alu_clauses;
   std::map<uint32_t, const FetchClause *> fetch_clauses;
   std::array<HostRange, 16> constant_buffers{};
   std::map<unsigned, HostRange> fetch_buffers;
   std::map<unsigned, HostRange> rat_buffers;
   /* Bound resources whose memory is gone (registers left from an earlier submission): a
    * fault only if the program uses them, as on hardware. */
   std::map<unsigned, std::string> unusable_fetch_buffers, unusable_rats;
   unsigned gpr_storage = 0;
   /* Texture resources located in memory at their first use (a fault only when used). */
   std::map<unsigned, TextureView> texture_views;
   /* Vertex stage: the fetch shader CALL_FS runs, decoded, with its clauses. */
   const Program *fetch_program = nullptr;
   std::map<uint32_t, const AluClause *> fetch_program_alu_clauses;
   std::map<uint32_t, const FetchClause *> fetch_program_fetch_clauses;
   /* Graphics waves: what the SPI loaded, and where exports go. */
   const GraphicsWave *graphics = nullptr;
   WaveExports *exports = nullptr;
};

constexpr unsigned clause_temporary_first = 124; /* SQ_GPR_RESOURCE_MGMT_1.NUM_CLAUSE_TEMP_GPRS = 4 */

class Wave {
public:
   Wave(Context &context, std::vector<uint8_t> &lds, unsigned lanes_present,
        const std::array<unsigned, 3> &group_id, unsigned first_thread)
      : ctx(context), lds(lds), width(context.dispatch.wave_size),
        id(first_thread / context.dispatch.wave_size), group(group_id)
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
      if (ctx.dispatch.stage == ShaderStage::Pixel)
         killed.assign(width, 0);
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

   void allocate_lane_state()
   {
      gpr.assign(size_t(ctx.gpr_storage) * 4 * width, 0);
      temporaries.assign(size_t(4) * 4 * width, 0xdeadbeef);
      state.assign(width, Absent);
      pred.assign(width, 0);
      ar.assign(width, 0);
      queue.resize(width);
      for (unsigned c = 0; c < 5; c++)
         previous[c].assign(width, 0);
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
         const CfInstruction &cf = program_now->cf[pc];
         if (ctx.trace >= TraceLevel::Instructions)
            std::fprintf(stderr, "terakan-sim: group %u,%u,%u wave %u CF %u: %s\n", group[0],
                         group[1], group[2], id, pc, format_cf(cf, ctx.dispatch.isa).c_str());
         if (execute_cf(cf))
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
   std::vector<uint32_t> gpr, temporaries;
   std::vector<std::array<std::vector<uint32_t>, 3>> scratch_sources;
   std::vector<std::vector<uint32_t>> scratch_results;
   std::vector<std::vector<uint8_t>> scratch_executes;
   std::vector<uint8_t> state, pred;
   std::vector<uint8_t> killed; /* pixel lanes a KILL removed: never active again */
   /* The program being executed: the main one, or the fetch shader during CALL_FS. */
   const Program *program_now = &ctx.program;
   const std::map<uint32_t, const AluClause *> *alu_now = &ctx.alu_clauses;
   const std::map<uint32_t, const FetchClause *> *fetch_now = &ctx.fetch_clauses;
   bool in_fetch_shader = false;
   uint32_t return_pc = 0;
   std::vector<int32_t> ar;
   std::vector<std::deque<uint32_t>> queue; /* LDS output queue A, per lane */
   std::array<std::vector<uint32_t>, 5> previous; /* PV.x..w, PS */
   std::array<bool, 5> previous_written{};
   std::vector<Frame> stack;
   uint32_t pc = 0;
   uint64_t cf_steps = 0;
   /* ALU clause in progress (resumable after GROUP_BARRIER). */
   bool in_clause = false;
   const AluClause *clause = nullptr;
   size_t group_index = 0;
   std::array<KcacheLock, 4> kcache{};

   uint32_t &reg(unsigned index, unsigned chan, unsigned lane)
   {
      return gpr[(size_t(index) * 4 + chan) * width + lane];
   }

   uint32_t &gpr_at(unsigned index, unsigned chan, unsigned lane, const char *what)
   {
      if (index >= clause_temporary_first && index < 128)
         return temporaries[(size_t(index - clause_temporary_first) * 4 + chan) * width + lane];
      if (index >= ctx.dispatch.num_gprs)
         stop("CF %u: %s R%u, beyond the %u GPRs the program allocates (SQ_PGM_RESOURCES.NUM_GPRS)",
              pc, what, index, ctx.dispatch.num_gprs);
      return reg(index, chan, lane);
   }

   bool lane_active(unsigned lane) const { return state[lane] == Active; }
   bool any_active() const
   {
      return std::any_of(state.begin(), state.end(), [](uint8_t s) { return s == Active; });
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

   void push(bool loop)
   {
      Frame frame;
      frame.loop = loop;
      frame.saved = state;
      stack.push_back(std::move(frame));
      check_stack();
   }

   void restore(const Frame &frame)
   {
      for (unsigned lane = 0; lane < width; lane++) {
         if (state[lane] == InactiveBreak || state[lane] == InactiveContinue)
            continue;
         state[lane] = frame.saved[lane];
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
         stack.pop_back();
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

   bool execute_cf(const CfInstruction &cf)
   {
      const CfOpInfo &op = *cf.op;
      const std::string_view name = op.name;
      if (cf.get(cf::cond) != 0 && cf.format == WordFormat::CfPlain && name != "NOP")
         stop("CF %u: %s with COND %u is not simulated", pc, std::string(name).c_str(),
              cf.get(cf::cond));
      if (op.has(CfFlag::AluClause)) {
         start_alu_clause(cf);
         if (continue_alu_clause())
            return true;
         finish_alu_cf();
         return false;
      }
      if (op.has(CfFlag::AluExtension)) {
         pc++; /* its kcache sets are read by the CF_ALU that follows */
         return false;
      }
      if (op.has(CfFlag::FetchClause)) {
         run_fetch_clause(cf);
      } else if (name == "NOP" || name == "WAIT_ACK") {
      } else if (name == "JUMP") {
         if (!any_active()) {
            pop(cf.get(cf::pop_count));
            return jump(cf.get(cf::addr));
         }
      } else if (name == "PUSH") {
         push(false);
         if (!any_active()) {
            pop(cf.get(cf::pop_count));
            return jump(cf.get(cf::addr));
         }
      } else if (name == "ELSE") {
         if (stack.empty() || stack.back().loop)
            stop("CF %u: ELSE without a branch frame", pc);
         const Frame &top = stack.back();
         for (unsigned lane = 0; lane < width; lane++) {
            if (top.saved[lane] != Active)
               continue;
            if (state[lane] == Active)
               state[lane] = InactiveBranch;
            else if (state[lane] == InactiveBranch)
               state[lane] = Active;
         }
         if (!any_active()) {
            pop(cf.get(cf::pop_count));
            return jump(cf.get(cf::addr));
         }
      } else if (name == "POP") {
         pop(cf.get(cf::pop_count));
      } else if (name == "LOOP_START_DX10") {
         push(true);
         for (uint8_t &s : state)
            if (s != Active && s != Absent)
               s = InactiveBreak;
         if (!any_active()) {
            restore_loop_exit();
            return jump(cf.get(cf::addr));
         }
      } else if (name == "LOOP_BREAK" || name == "LOOP_CONTINUE") {
         innermost_loop(name.data());
         const uint8_t to = name == "LOOP_BREAK" ? InactiveBreak : InactiveContinue;
         for (uint8_t &s : state)
            if (s == Active)
               s = to;
         if (!any_active())
            return jump(cf.get(cf::addr));
      } else if (name == "LOOP_END") {
         innermost_loop("LOOP_END");
         while (!stack.back().loop) { /* reached by a break/continue jump from inside an if */
            restore(stack.back());
            stack.pop_back();
         }
         for (uint8_t &s : state)
            if (s == InactiveContinue)
               s = Active;
         Frame &loop = stack.back();
         loop.iterations++;
         if (any_active() && loop.iterations < 1'000'000)
            return jump(cf.get(cf::addr));
         if (any_active())
            stop("CF %u: loop ran 1000000 iterations (treated as a hang)", pc);
         restore_loop_exit();
      } else if (name == "MEM_RAT" || name == "MEM_RAT_CACHELESS") {
         run_rat(cf);
      } else if (name == "CALL_FS") {
         if (!ctx.fetch_program)
            stop("CF %u: CALL_FS without a fetch shader (SQ_PGM_START_FS)", pc);
         if (in_fetch_shader)
            stop("CF %u: CALL_FS inside the fetch shader", pc);
         in_fetch_shader = true;
         return_pc = pc + 1;
         program_now = ctx.fetch_program;
         alu_now = &ctx.fetch_program_alu_clauses;
         fetch_now = &ctx.fetch_program_fetch_clauses;
         pc = 0;
         return false;
      } else if (name == "RETURN") {
         if (!in_fetch_shader)
            stop("CF %u: RETURN outside a subroutine", pc);
         in_fetch_shader = false;
         program_now = &ctx.program;
         alu_now = &ctx.alu_clauses;
         fetch_now = &ctx.fetch_clauses;
         pc = return_pc;
         return false;
      } else if (cf.op->has(CfFlag::Export)) {
         run_export(cf);
      } else if (name == "CF_END") {
         finished = true;
         return false;
      } else {
         stop("CF %u: %s is not simulated yet", pc, std::string(name).c_str());
      }
      if (ends_program(cf)) {
         finished = true;
         return false;
      }
      pc++;
      return false;
   }

   bool ends_program(const CfInstruction &cf) const
   {
      if (ctx.dispatch.isa == IsaClass::Cayman)
         return cf.op->has(CfFlag::EndsProgram);
      return cf.format != WordFormat::CfAlu && cf.format != WordFormat::CfAluExtended &&
             cf.get(cf::end_of_program);
   }

   void restore_loop_exit()
   {
      const Frame loop = stack.back();
      stack.pop_back();
      state = loop.saved;
      apply_kills();
   }

   void apply_kills()
   {
      if (killed.empty())
         return;
      for (unsigned lane = 0; lane < width; lane++)
         if (killed[lane])
            state[lane] = Absent;
   }

   bool jump(uint32_t target)
   {
      if (target >= program_now->cf.size())
         stop("CF %u: jump to %u, outside the CF stream", pc, target);
      pc = target;
      return false;
   }

   /* ---- ALU ---- */

   void start_alu_clause(const CfInstruction &cf)
   {
      const uint32_t address = cf.get(cf_alu::addr);
      const auto found = alu_now->find(address);
      if (found == alu_now->end())
         stop("CF %u: no ALU clause at %u", pc, address);
      clause = found->second;
      group_index = 0;
      in_clause = true;
      kcache = {};
      kcache[0] = {cf.get(cf_alu::kcache_mode0), cf.get(cf_alu::kcache_bank0), cf.get(cf_alu::kcache_addr0)};
      kcache[1] = {cf.get(cf_alu::kcache_mode1), cf.get(cf_alu::kcache_bank1), cf.get(cf_alu::kcache_addr1)};
      if (pc > 0 && program_now->cf[pc - 1].op->has(CfFlag::AluExtension)) {
         const CfInstruction &ext = program_now->cf[pc - 1];
         kcache[2] = {ext.get(cf_alu_ext::kcache_mode2), ext.get(cf_alu_ext::kcache_bank2), ext.get(cf_alu_ext::kcache_addr2)};
         kcache[3] = {ext.get(cf_alu_ext::kcache_mode3), ext.get(cf_alu_ext::kcache_bank3), ext.get(cf_alu_ext::kcache_addr3)};
      }
      if (cf.op->name == "ALU_PUSH_BEFORE")
         push(false);
      previous_written = {};
      std::fill(temporaries.begin(), temporaries.end(), 0xdeadbeef);
   }

   void finish_alu_cf()
   {
      in_clause = false;
      const CfInstruction &cf = program_now->cf[pc];
      const std::string_view name = cf.op->name;
      if (name == "ALU_POP_AFTER")
         pop(1);
      else if (name == "ALU_POP2_AFTER")
         pop(2);
      else if (name == "ALU_ELSE_AFTER" || name == "ALU_BREAK" || name == "ALU_CONTINUE" ||
               name == "ALU_VALID_PIXEL_MODE")
         stop("CF %u: %s is not simulated yet", pc, std::string(name).c_str());
      pc++;
   }

   /* Returns true when the wave must wait at a GROUP_BARRIER. */
   bool continue_alu_clause()
   {
      while (group_index < clause->groups.size()) {
         const AluGroup &group = clause->groups[group_index++];
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

   /* `source` is decoded once per instruction (alu_source), not per lane. */
   uint32_t read_source(const AluSource &source, const AluGroup &group, unsigned lane)
   {
      uint32_t value;
      if (source.sel < 128) {
         int target = int(source.sel) + (source.rel ? ar[lane] : 0);
         if (target < 0 || target >= 128)
            stop("CF %u: relative GPR R%d out of range", pc, target);
         value = gpr_at(unsigned(target), source.chan, lane, "reads");
      } else if (source.sel < src_sel::kcache1 + 32 ||
                 (source.sel >= src_sel::kcache2 && source.sel < src_sel::kcache3 + 32)) {
         value = read_constant(source.sel, source.chan, source.rel, lane);
      } else if (source.sel >= src_sel::param_base && source.sel < src_sel::param_base + 32) {
         value = 0; /* an interpolation parameter: INTERP_* read it themselves */
      } else if (source.sel == src_sel::literal) {
         value = group.literals[source.chan];
      } else if (source.sel == src_sel::pv || source.sel == src_sel::ps) {
         const unsigned slot = source.sel == src_sel::ps ? 4 : source.chan;
         if (!previous_written[slot])
            stop("CF %u: %s read with no result in the previous group", pc,
                 source.sel == src_sel::ps ? "PS" : "PV");
         value = previous[slot][lane];
      } else if (source.sel == src_sel::lds_oq_a_pop || source.sel == src_sel::lds_oq_a) {
         if (queue[lane].empty())
            stop("CF %u: LDS output queue A read while empty (lane %u)", pc, lane);
         value = queue[lane].front();
         if (source.sel == src_sel::lds_oq_a_pop)
            queue[lane].pop_front();
      } else {
         switch (source.sel) {
         case src_sel::zero: value = 0; break;
         case src_sel::one: value = as_bits(1.0f); break;
         case src_sel::one_int: value = 1; break;
         case src_sel::minus_one_int: value = 0xffffffffu; break;
         case src_sel::half: value = as_bits(0.5f); break;
         default:
            stop("CF %u: operand select %u is not simulated", pc, source.sel);
         }
      }
      if (source.abs)
         value &= 0x7fffffffu;
      if (source.neg)
         value ^= 0x80000000u;
      return value;
   }

   bool lane_executes(unsigned pred_sel, unsigned lane) const
   {
      if (!lane_active(lane))
         return false;
      switch (pred_sel) {
      case 2: return pred[lane] == 0;
      case 3: return pred[lane] != 0;
      default: return true;
      }
   }

   /* Returns true if the group was a GROUP_BARRIER. */
   bool execute_group(const AluGroup &group)
   {
      ctx.statistics.alu_groups++;
      const size_t count = group.instructions.size();
      /* Scratch space reused from group to group (allocation dominated the run time). */
      if (scratch_results.size() < count) {
         scratch_sources.resize(count);
         scratch_results.resize(count, std::vector<uint32_t>(width, 0));
         scratch_executes.resize(count, std::vector<uint8_t>(width, 0));
      }
      auto &sources = scratch_sources;
      auto &results = scratch_results;
      auto &executes = scratch_executes;
      bool barrier = false;

      /* 1. Every operand of every slot is read before anything is written. */
      for (size_t i = 0; i < count; i++) {
         const AluInstruction &instruction = group.instructions[i];
         const unsigned fields = instruction.is_op3() ? 3 : 2;
         const unsigned used = std::min<unsigned>(instruction.source_count(), fields);
         for (unsigned s = 0; s < 3; s++) {
            if (s < used)
               sources[i][s].assign(width, 0);
            else
               sources[i][s].clear();
         }
         AluSource decoded[3];
         for (unsigned s = 0; s < used; s++)
            decoded[s] = alu_source(instruction, s);
         const unsigned pred_sel = instruction.get(alu::pred_sel);
         for (unsigned lane = 0; lane < width; lane++) {
            executes[i][lane] = lane_executes(pred_sel, lane);
            if (!executes[i][lane])
               continue;
            for (unsigned s = 0; s < used; s++)
               sources[i][s][lane] = read_source(decoded[s], group, lane);
         }
      }

      /* 2. Compute. */
      std::vector<int32_t> new_ar = ar;
      for (size_t i = 0; i < count; i++) {
         const AluInstruction &instruction = group.instructions[i];
         const AluOpInfo &op = *instruction.op;
         const std::string_view name = op.name;
         if (name == "GROUP_BARRIER") {
            barrier = true;
            continue;
         }
         if (instruction.is_lds()) {
            execute_lds(instruction, sources[i], executes[i]);
            continue;
         }
         if (op.has(AluFlag::Interp)) {
            execute_interp(group, i, sources, executes, results);
            continue;
         }
         const bool reduction = name == "DOT4" || name == "DOT4_IEEE" || name == "MAX4";
         const AluFunction function = find_alu_function(op);
         const bool cube = name == "CUBE";
         const ConditionFunction condition_function =
            op.has(AluFlag::PredSet) || op.has(AluFlag::Kill) ? find_condition_function(op) : nullptr;
         const bool op3 = instruction.is_op3();
         const unsigned omod = op3 ? 0 : instruction.get(alu::omod);
         const bool clamp = instruction.get(alu::clamp);
         const bool update_exec_mask = instruction.get(alu::update_exec_mask);
         const bool update_pred = instruction.get(alu::update_pred);
         for (unsigned lane = 0; lane < width; lane++) {
            if (!executes[i][lane])
               continue;
            ctx.statistics.alu_lane_operations++;
            results[i][lane] = 0;
            const uint32_t a = sources[i][0].empty() ? 0 : sources[i][0][lane];
            const uint32_t b = sources[i][1].empty() ? 0 : sources[i][1][lane];
            const uint32_t c = sources[i][2].empty() ? 0 : sources[i][2][lane];
            uint32_t value;
            if (reduction) {
               value = reduce(group, sources, name, lane);
            } else if (cube) {
               value = cube_direction_result(group, sources, executes, lane)[static_cast<unsigned>(instruction.slot)];
            } else if (op.has(AluFlag::Kill)) {
               if (!condition_function || killed.empty())
                  stop("CF %u: %s %s", pc, std::string(name).c_str(),
                       killed.empty() ? "outside a pixel shader" : "is not simulated yet");
               const bool kill = condition_function(a, b);
               if (kill) {
                  killed[lane] = 1;
                  state[lane] = Absent;
               }
               value = kill ? as_bits(1.0f) : as_bits(0.0f);
            } else if (op.has(AluFlag::PredSet)) {
               if (!condition_function)
                  stop("CF %u: %s is not simulated yet", pc, std::string(name).c_str());
               const std::optional<bool> condition = condition_function(a, b);
               if (update_exec_mask && !*condition)
                  state[lane] = InactiveBranch;
               if (update_pred)
                  pred[lane] = *condition;
               value = *condition ? as_bits(0.0f) : as_bits(1.0f);
            } else if (op.has(AluFlag::Mova)) {
               value = a;
               new_ar[lane] = int32_t(a);
            } else {
               if (!function)
                  stop("CF %u: %s is not simulated yet", pc, std::string(name).c_str());
               value = function(a, b, c);
            }
            if (omod || clamp)
               value = apply_output_modifiers(value, omod, clamp);
            results[i][lane] = value;
         }
      }

      if (ctx.trace >= TraceLevel::Instructions) {
         for (size_t i = 0; i < count; i++) {
            std::string line = format_alu(group.instructions[i], group.literals, ctx.dispatch.isa);
            if (ctx.trace >= TraceLevel::Lanes) {
               line += "   =";
               for (unsigned lane = 0; lane < std::min(width, 4u); lane++)
                  line += executes[i][lane] ? " " + std::to_string(results[i][lane]) : " -";
            }
            std::fprintf(stderr, "terakan-sim:     %s\n", line.c_str());
         }
      }

      /* 3. Write results and the PV/PS of this group. */
      std::array<bool, 5> written{};
      for (size_t i = 0; i < count; i++) {
         const AluInstruction &instruction = group.instructions[i];
         if (instruction.slot == Slot::Invalid)
            stop("CF %u: group @%u has no valid slot assignment", pc, group.index);
         const unsigned slot = static_cast<unsigned>(instruction.slot);
         if (instruction.is_lds() || instruction.op->name == "GROUP_BARRIER")
            continue;
         written[slot] = true;
         const bool writes = instruction.is_op3() || instruction.get(alu::write_mask);
         const bool mova = instruction.op->has(AluFlag::Mova);
         const int dst_gpr = int(instruction.get(alu::dst_gpr));
         const bool dst_rel = instruction.get(alu::dst_rel);
         const unsigned dst_chan = instruction.get(alu::dst_chan);
         for (unsigned lane = 0; lane < width; lane++) {
            if (!executes[i][lane])
               continue;
            previous[slot][lane] = results[i][lane];
            if (!writes || mova)
               continue;
            const int target = dst_gpr + (dst_rel ? ar[lane] : 0);
            if (target < 0 || target >= 128)
               stop("CF %u: relative destination R%d out of range", pc, target);
            gpr_at(unsigned(target), dst_chan, lane, "writes") = results[i][lane];
         }
      }
      previous_written = written;
      ar = new_ar;
      return barrier;
   }

   /* INTERP_XY / INTERP_ZW: the slots pair up (x with y, z with w); each slot computes
    * P0 + I * (P1 - P0) + J * (P2 - P0) for the parameter channel its src1 selects, with I from
    * the even slot's src0 and J from the odd slot's (Mesa r600g sfn load_interpolated_two_comp
    * emits exactly that pattern; the slot-to-weight assignment is derived, see
    * docs/sim-semantics.md). INTERP_LOAD_P0/P10/P20 copy one term. */
   void execute_interp(const AluGroup &group, size_t index,
                       const std::vector<std::array<std::vector<uint32_t>, 3>> &sources,
                       const std::vector<std::vector<uint8_t>> &executes,
                       std::vector<std::vector<uint32_t>> &results)
   {
      const AluInstruction &instruction = group.instructions[index];
      const std::string_view name = instruction.op->name;
      const GraphicsWave *setup = ctx.graphics;
      if (!setup || ctx.dispatch.stage != ShaderStage::Pixel)
         stop("CF %u: %s outside a pixel shader", pc, std::string(name).c_str());
      const bool load = name.starts_with("INTERP_LOAD_");
      const AluSource param = alu_source(instruction, load ? 0 : 1);
      if (param.sel < src_sel::param_base || param.sel >= src_sel::param_base + 32)
         stop("CF %u: %s without a parameter operand", pc, std::string(name).c_str());
      const unsigned n = param.sel - src_sel::param_base, c = param.chan;
      if (n >= setup->parameter_count)
         stop("CF %u: %s reads parameter %u; the SPI loaded %u (SPI_PS_IN_CONTROL_0.NUM_INTERP)",
              pc, std::string(name).c_str(), n, setup->parameter_count);
      unsigned term = 0;
      size_t partner = group.instructions.size();
      if (load) {
         term = name == "INTERP_LOAD_P0" ? 0 : name == "INTERP_LOAD_P10" ? 1 : 2;
      } else if (name == "INTERP_XY" || name == "INTERP_ZW") {
         const unsigned slot = static_cast<unsigned>(instruction.slot);
         if (slot > 3)
            stop("CF %u: %s in the trans slot", pc, std::string(name).c_str());
         for (size_t j = 0; j < group.instructions.size(); j++)
            if (group.instructions[j].op == instruction.op &&
                static_cast<unsigned>(group.instructions[j].slot) == (slot ^ 1))
               partner = j;
         if (partner == group.instructions.size())
            stop("CF %u: %s in slot %c without its pair", pc, std::string(name).c_str(), "xyzw"[slot]);
      } else {
         stop("CF %u: %s is not simulated yet", pc, std::string(name).c_str());
      }
      const bool even = !load && (static_cast<unsigned>(instruction.slot) % 2) == 0;
      for (unsigned lane = 0; lane < width; lane++) {
         if (!executes[index][lane])
            continue;
         ctx.statistics.alu_lane_operations++;
         const float *p = &setup->parameters[(size_t(lane) * setup->parameter_count + n) * 12];
         float value;
         if (load) {
            value = p[term * 4 + c];
         } else {
            const float own = as_float(sources[index][0][lane]);
            const float other = as_float(sources[partner][0][lane]);
            const float i = even ? own : other, j = even ? other : own;
            value = p[c] + i * p[4 + c] + j * p[8 + c];
         }
         results[index][lane] = as_bits(value);
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
            if (!lane_active(lane))
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

   uint32_t reduce(const AluGroup &group,
                   const std::vector<std::array<std::vector<uint32_t>, 3>> &sources,
                   std::string_view name, unsigned lane)
   {
      float values[4] = {};
      for (size_t i = 0; i < group.instructions.size(); i++) {
         const AluInstruction &instruction = group.instructions[i];
         if (instruction.op->name != name || instruction.slot == Slot::T)
            continue;
         const unsigned slot = static_cast<unsigned>(instruction.slot);
         const float a = as_float(sources[i][0][lane]);
         if (name == "MAX4") {
            values[slot] = a;
         } else {
            const float b = as_float(sources[i][1][lane]);
            values[slot] = name == "DOT4" && (a == 0.0f || b == 0.0f) ? 0.0f : a * b;
         }
      }
      if (name == "MAX4")
         return as_bits(std::max(std::max(values[0], values[1]), std::max(values[2], values[3])));
      return as_bits(values[0] + values[1] + values[2] + values[3]);
   }

   /* CUBE: the four slots hold one direction spread over their operands, src0 = dir.zzxy and
    * src1 = dir.yxzz (Mesa r600_shader.c tgsi_tex and sfn emit_alu_cube; LLVM
    * R600ExpandSpecialInstrs, CubeSrcSwz). What the hardware computes from operands that do
    * not repeat one direction is not documented, so every copy must agree, bit for bit. */
   std::array<uint32_t, 4> cube_direction_result(const AluGroup &group,
                                                 const std::vector<std::array<std::vector<uint32_t>, 3>> &sources,
                                                 const std::vector<std::vector<uint8_t>> &executes, unsigned lane)
   {
      /* For slot x, y, z, w: which direction component src0 and src1 carry (0 x, 1 y, 2 z). */
      static constexpr unsigned src0_component[4] = {2, 2, 0, 1};
      static constexpr unsigned src1_component[4] = {1, 0, 2, 2};
      std::array<uint32_t, 3> direction{};
      std::array<bool, 3> seen{};
      unsigned slots = 0;
      for (size_t i = 0; i < group.instructions.size(); i++) {
         const AluInstruction &instruction = group.instructions[i];
         if (instruction.op->name != "CUBE")
            continue;
         const unsigned slot = static_cast<unsigned>(instruction.slot);
         if (slot > 3)
            stop("CF %u: CUBE in slot %u (it must fill x, y, z and w)", pc, slot);
         if (!executes[i][lane])
            stop("CF %u: the CUBE slots of group @%u are predicated differently (lane %u)", pc, group.index, lane);
         slots |= 1u << slot;
         const unsigned components[2] = {src0_component[slot], src1_component[slot]};
         for (unsigned operand = 0; operand < 2; operand++) {
            const unsigned c = components[operand];
            const uint32_t value = sources[i][operand][lane];
            if (seen[c] && direction[c] != value)
               stop("CF %u: CUBE group @%u does not repeat one direction in its operands (src0 = dir.zzxy, "
                    "src1 = dir.yxzz expected; component %c differs in slot %c, lane %u)",
                    pc, group.index, "xyz"[c], "xyzw"[slot], lane);
            direction[c] = value;
            seen[c] = true;
         }
      }
      if (slots != 0xf)
         stop("CF %u: CUBE group @%u does not fill all of x, y, z and w", pc, group.index);
      return evaluate_cube(direction[0], direction[1], direction[2]);
   }

   void execute_lds(const AluInstruction &instruction,
                    const std::array<std::vector<uint32_t>, 3> &sources,
                    const std::vector<uint8_t> &executes)
   {
      const std::string_view name = instruction.op->name;
      const unsigned offset = instruction.lds_offset();
      for (unsigned lane = 0; lane < width; lane++) {
         if (!executes[lane])
            continue;
         const uint64_t address = uint64_t(sources[0][lane]) + offset;
         auto word = [&](uint64_t at) -> uint8_t * {
            if (at + 4 > lds.size() || at % 4)
               stop("CF %u: %s at LDS byte %llu, outside the %zu bytes allocated (SQ_LDS_ALLOC) "
                    "or unaligned", pc, std::string(name).c_str(), (unsigned long long)at, lds.size());
            return lds.data() + at;
         };
         auto load = [&](uint64_t at) { uint32_t v; std::memcpy(&v, word(at), 4); return v; };
         auto store = [&](uint64_t at, uint32_t v) { std::memcpy(word(at), &v, 4); };
         const uint32_t data = sources[1].empty() ? 0 : sources[1][lane];
         const uint32_t data2 = sources[2].empty() ? 0 : sources[2][lane];
         std::string base(name);
         const bool returns = base.size() > 4 && base.ends_with("_RET");
         if (returns)
            base.resize(base.size() - 4);
         auto bytes = [&](unsigned size, bool is_signed) {
            if (address + size > lds.size())
               stop("CF %u: %s outside LDS", pc, std::string(name).c_str());
            uint32_t v = 0;
            std::memcpy(&v, lds.data() + address, size);
            if (is_signed && size < 4 && (v >> (size * 8 - 1)) & 1)
               v |= ~0u << (size * 8);
            return v;
         };
         if (base == "LDS_READ") {
            queue[lane].push_back(load(address));
         } else if (base == "LDS_UBYTE_READ" || base == "LDS_BYTE_READ" ||
                    base == "LDS_USHORT_READ" || base == "LDS_SHORT_READ") {
            const unsigned size = base.find("BYTE") != std::string::npos ? 1 : 2;
            queue[lane].push_back(bytes(size, base[4] != 'U'));
         } else if (base == "LDS_WRITE") {
            store(address, data);
         } else if (base == "LDS_BYTE_WRITE" || base == "LDS_SHORT_WRITE") {
            const unsigned size = base == "LDS_BYTE_WRITE" ? 1 : 2;
            if (address + size > lds.size())
               stop("CF %u: %s outside LDS", pc, std::string(name).c_str());
            std::memcpy(lds.data() + address, &data, size);
         } else {
            const uint32_t old = load(address);
            uint32_t updated;
            if (base == "LDS_ADD") updated = old + data;
            else if (base == "LDS_SUB") updated = old - data;
            else if (base == "LDS_RSUB") updated = data - old;
            else if (base == "LDS_INC") updated = old >= data ? 0 : old + 1;
            else if (base == "LDS_DEC") updated = (old == 0 || old > data) ? data : old - 1;
            else if (base == "LDS_MIN_INT") updated = int32_t(old) < int32_t(data) ? old : data;
            else if (base == "LDS_MAX_INT") updated = int32_t(old) > int32_t(data) ? old : data;
            else if (base == "LDS_MIN_UINT") updated = std::min(old, data);
            else if (base == "LDS_MAX_UINT") updated = std::max(old, data);
            else if (base == "LDS_AND") updated = old & data;
            else if (base == "LDS_OR") updated = old | data;
            else if (base == "LDS_XOR") updated = old ^ data;
            else if (base == "LDS_XCHG") updated = data;
            /* LDS_CMP_XCHG: src1 is the compare value, src2 the new value (LLVM's LDS_CMPST
             * operand order). */
            else if (base == "LDS_CMP_XCHG") updated = old == data ? data2 : old;
            else
               stop("CF %u: %s is not simulated yet", pc, std::string(name).c_str());
            store(address, updated);
            if (returns)
               queue[lane].push_back(old);
         }
      }
   }

   /* ---- fetch ---- */

   void run_fetch_clause(const CfInstruction &cf)
   {
      const uint32_t address = cf.get(cf::addr);
      const auto found = fetch_now->find(address);
      if (found == fetch_now->end())
         stop("CF %u: no fetch clause at %u", pc, address);
      /* Fetches of one clause may run in any order: reading a register an earlier fetch of the
       * same clause writes is undefined (Mesa splits clauses to avoid it). */
      std::vector<bool> written(size_t(ctx.gpr_storage) + 4, false);
      for (const FetchInstruction &instruction : found->second->instructions) {
         const std::string name(instruction.op->name);
         const bool is_vfetch = name == "VFETCH";
         if (!is_vfetch && instruction.format != WordFormat::Tex)
            stop("CF %u: fetch %s is not simulated yet", pc, name.c_str());
         const unsigned src = is_vfetch ? instruction.get(vtx::src_gpr) : instruction.get(tex::src_gpr);
         const unsigned dst = is_vfetch ? instruction.get(vtx::dst_gpr) : instruction.get(tex::dst_gpr);
         if (src < written.size() && written[src])
            stop("CF %u: %s reads R%u, written by an earlier fetch of the same clause", pc, name.c_str(), src);
         if (is_vfetch)
            execute_vfetch(instruction);
         else
            execute_tex(instruction);
         if (dst < written.size())
            written[dst] = true;
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

   /* SAMPLE, SAMPLE_L, SAMPLE_LZ, LD, GET_TEXTURE_RESINFO (docs/sim-semantics.md, Textures). */
   void execute_tex(const FetchInstruction &instruction)
   {
      const std::string name(instruction.op->name);
      TexRequest request;
      if (name == "SAMPLE") request.op = TexOp::Sample;
      else if (name == "SAMPLE_L") request.op = TexOp::SampleL;
      else if (name == "SAMPLE_LZ") request.op = TexOp::SampleLZ;
      else if (name == "LD") request.op = TexOp::Ld;
      else if (name == "GET_TEXTURE_RESINFO") request.op = TexOp::ResInfo;
      else
         stop("CF %u: %s is not simulated", pc, name.c_str());
      if (instruction.get(tex::inst_mod))
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
      /* Pixel shaders compute SAMPLE's level of detail from the quad's derivatives, which the
       * simulator does not model yet: only textures with a single level are honest there. */
      if (ctx.dispatch.stage == ShaderStage::Pixel && request.op == TexOp::Sample &&
          view.resource.last_level != view.resource.base_level)
         stop("CF %u: SAMPLE with an implicit level of detail on a mipmapped texture in a pixel shader "
              "(quad derivatives) is not simulated yet", pc);
      static const SamplerBinding unbound_sampler{};
      const SamplerBinding *sampler = &unbound_sampler;
      if (request.op != TexOp::Ld && request.op != TexOp::ResInfo) {
         const auto found = ctx.dispatch.samplers.find(sampler_id);
         if (found == ctx.dispatch.samplers.end())
            stop("CF %u: %s with sampler %u, beyond the %u compute samplers", pc, name.c_str(), sampler_id,
                 hw::compute_sampler_count);
         sampler = &found->second;
      }
      const Field src_sels[] = {tex::src_sel_x, tex::src_sel_y, tex::src_sel_z, tex::src_sel_w};
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
      for (unsigned lane = 0; lane < width; lane++) {
         if (!lane_active(lane))
            continue;
         ctx.statistics.fetches++;
         for (unsigned c = 0; c < 4; c++) {
            const unsigned sel = instruction.get(src_sels[c]);
            if (sel < 4)
               request.source[c] = gpr_at(src, sel, lane, "TEX reads");
            /* 7 (SEL_MASK) supplies no value; r600g masks the coordinates an instruction does
             * not need (the layer and LOD of a 2D LD) and expects them as 0 (derived). */
            else if (sel == 4 || sel == 7)
               request.source[c] = 0;
            else if (sel == 5)
               request.source[c] = as_bits(1.0f);
            else
               stop("CF %u: %s SRC_SEL %u is not defined", pc, name.c_str(), sel);
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
      default:
         stop("CF %u: VFETCH data format %u is not simulated", pc, format);
      }
      if (num_format == 0 && bits < 32 && !is_float && res.srf_mode && use_resource)
         stop("CF %u: VFETCH with SRF_MODE_ALL (no zero) is not simulated", pc);
      const unsigned bytes = components * bits / 8;
      const unsigned dst = instruction.get(vtx::dst_gpr);
      const unsigned src = instruction.get(vtx::src_gpr);
      const unsigned src_chan = instruction.get(vtx::src_sel_x);
      const Field selects[] = {vtx::dst_sel_x, vtx::dst_sel_y, vtx::dst_sel_z, vtx::dst_sel_w};
      for (unsigned lane = 0; lane < width; lane++) {
         if (!lane_active(lane))
            continue;
         ctx.statistics.fetches++;
         const uint64_t index = gpr_at(src, src_chan, lane, "VFETCH reads");
         const uint64_t offset = index * std::max(res.stride, 1u) + instruction.get(vtx::offset);
         uint32_t element[4] = {0, 0, 0, 0};
         /* The hardware bounds-checks against the resource size; outside it a fetch returns
          * zeros (the value is not documented to us; zero is what robust buffer access needs). */
         if (offset + bytes <= uint64_t(res.size) + 1) {
            if (offset + bytes > host.size)
               stop("CF %u: VFETCH buffer %u beyond its buffer object", pc, buffer_id);
            const uint8_t *data = host.data + offset;
            for (unsigned c = 0; c < components; c++) {
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
            gpr_at(dst, c, lane, "VFETCH writes") = value;
         }
      }
   }

   /* ---- RAT ---- */

   void run_rat(const CfInstruction &cf)
   {
      const unsigned rat_id = cf.get(cf_export::rat_id);
      if (const auto bad = ctx.unusable_rats.find(rat_id); bad != ctx.unusable_rats.end())
         stop("CF %u: %s", pc, bad->second.c_str());
      const auto binding = ctx.rat_buffers.find(rat_id);
      if (binding == ctx.rat_buffers.end())
         stop("CF %u: RAT %u is not bound (CB_COLOR%u with the RAT bit)", pc, rat_id, rat_id);
      const HostRange &host = binding->second;
      const unsigned inst = cf.get(cf_export::rat_inst);
      const unsigned rw = cf.get(cf_export::rw_gpr), index_gpr = cf.get(cf_export::index_gpr);
      const unsigned mask = cf.get(cf_export::comp_mask);
      if (cf.get(cf_export::rw_rel) || cf.get(cf_export::burst_count) || cf.get(cf_export::rat_index_mode))
         stop("CF %u: RAT with RW_REL, BURST_COUNT or an index mode is not simulated", pc);
      const RatOpInfo *op = find_rat_op(inst);
      if (!op)
         stop("CF %u: RAT instruction %u is not defined", pc, inst);
      if (op->returns)
         stop("CF %u: RAT %s (returning) is not simulated yet", pc, std::string(op->name).c_str());
      for (unsigned lane = 0; lane < width; lane++) {
         if (!lane_active(lane))
            continue;
         const uint64_t index = gpr_at(index_gpr, 0, lane, "RAT index");
         auto dword = [&](uint64_t element) -> uint8_t * {
            const uint64_t offset = element * 4;
            if (offset + 4 > host.size)
               stop("CF %u: RAT%u %s at element %llu, beyond the bound buffer (%llu bytes)", pc,
                    rat_id, std::string(op->name).c_str(), (unsigned long long)element,
                    (unsigned long long)host.size);
            return host.data + offset;
         };
         auto load = [&](uint64_t e) { uint32_t v; std::memcpy(&v, dword(e), 4); return v; };
         auto store = [&](uint64_t e, uint32_t v) { std::memcpy(dword(e), &v, 4); };
         const std::string_view name = op->name;
         if (name == "STORE_RAW" || name == "STORE_DWORD" || name == "STORE_TYPED") {
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
         else if (name == "CMPXCHG_INT") updated = old == gpr_at(rw, 3, lane, "RAT compare") ? x : old;
         else
            stop("CF %u: RAT %s is not simulated yet", pc, std::string(name).c_str());
         store(index, updated);
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

void index_clauses(const Program &program, std::map<uint32_t, const AluClause *> &alu,
                   std::map<uint32_t, const FetchClause *> &fetch)
{
   for (const AluClause &clause : program.alu_clauses)
      alu[clause.address] = &clause;
   for (const FetchClause &clause : program.fetch_clauses)
      fetch[clause.address] = &clause;
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
      uint8_t *data = memory.resolve(buffer.address, buffer.size, error);
      if (!data)
         stop("constant buffer %u at 0x%llx (%llu bytes): %s", i,
              (unsigned long long)buffer.address, (unsigned long long)buffer.size, error.c_str());
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
   s.ctx.reset(new Context{dispatch, s.program, memory, trace, {}, {}, {}, {}, {}, {}, {}, {}, 0, {}});
   Context &ctx = *s.ctx;
   index_clauses(s.program, ctx.alu_clauses, ctx.fetch_clauses);
   if (!dispatch.fetch_shader.empty()) {
      ctx.fetch_program = &s.fetch_program;
      index_clauses(s.fetch_program, ctx.fetch_program_alu_clauses, ctx.fetch_program_fetch_clauses);
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
   Context ctx{dispatch, program, memory, trace, {}, {}, {}, {}, {}, {}, {}, {}, 0, {}};
   index_clauses(program, ctx.alu_clauses, ctx.fetch_clauses);
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
