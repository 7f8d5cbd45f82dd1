/* Clause formation and VLIW packing.
 *
 * Clauses: fetches whose addresses are ready go into one fetch clause, then every ALU
 * operation that can run goes into ALU clauses, then the stores that are ready; repeated until
 * the program is placed. Memory order is kept: a fetch never moves above an earlier store, and
 * stores stay in program order. Operations whose results only stores read (store data and
 * indices, which all sit in channel x) wait until their store is among the next few: placed
 * early, a run of stores kept two GPRs each alive at once (dEQP's ssbo.layout shaders store
 * dozens of constants and needed more than 124 GPRs).
 *
 * Groups: a list scheduler. Ready operations (operands produced in an earlier group or clause)
 * are taken highest first (the longest chain of dependent operations below them) and placed in
 * the first slot their class allows, subject to the register-independent bundle rules (slots,
 * Cayman replication, four literals, two kcache pairs, two constants in t). The rules that
 * depend on registers (read ports, bank swizzles) are settled after register allocation
 * (emit.cpp), which may split a group. */
#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "backend_ir.h"
#include "compiler/isa/bundle_rules.h"

namespace terakan::compiler {
namespace {

using isa::SlotRule;

constexpr unsigned max_alu_clause_slots = 128;
constexpr unsigned max_fetch_clause_size = 16; /* r600g's limit on Evergreen and Cayman */
/* GPRs' worth of results one fetch clause may write (see schedule_fetches). */
constexpr unsigned fetch_clause_gprs = 4;
/* How many stores ahead the operations that feed only stores may be computed. Each store
 * waiting holds two channel-x GPRs (data and index); 16 (the first choice, against the 124+
 * GPRs of dEQP's ssbo.layout shaders) still let unpack_norm.comp compute all twelve of its
 * stores' values first (24 GPRs, r600g 16). Measured on tests/compiler/shaders (98), GPRs /
 * ALU groups / cf, Cayman and Barts: 16: 853 / 4539 / 4332, 859 / 3704 / 3820; 8: 797 / 4540 /
 * 4345, 803 / 3707 / 3832; 4: 751 / 4538 / 4365, 759 / 3715 / 3853 (many_stores.comp 33 -> 9
 * GPRs); the graphics corpus has no stores. */
constexpr unsigned store_window = 4;
/* ALU operations considered for a group: the first alu_window unplaced ones of the stretch in
 * program order. Without a bound, chains that are all ready at once (uniform-buffer values
 * from the constant cache, four unrolled lights) were interleaved by height and kept many
 * values alive (lit_textured.frag: 12 -> 19 GPRs on Cayman when its uniform buffers went to
 * the constant cache). Measured on tests/shaderdb/graphics + tests/compiler/shaders (alu_groups,
 * GPRs; Cayman / Barts): unbounded 374 + 1768, 109 + 391 / 331 + 1447, 106 + 403; 64:
 * 381 + 1778, 107 + 391 / 340 + 1447, 104 + 403; 128: 376 + 1784, 106 + 393 / 329 + 1460,
 * 105 + 407; 32: 387 + 1791, 105 + 390 / 343 + 1460, 102 + 401. */
constexpr unsigned alu_window = 64;

struct GroupBuilder {
   hw::IsaClass isa;
   ScheduledGroup group;
   bool used[5] = {false, false, false, false, false};
   std::set<std::pair<unsigned, unsigned>> kcache_pairs; /* (bank * 4096 + constant, half) */
   /* (constant buffer, kcache line) read by the clause's earlier groups and by this one: the
    * clause's two kcache sets must cover them all. */
   std::set<std::pair<unsigned, unsigned>> clause_lines, lines;
   /* GPR read ports (bundle rule GPR_READ_PORTS): in each of a group's three read cycles one
    * GPR per channel; each instruction's bank swizzle says in which cycle it reads each
    * operand. emit.cpp chooses the swizzles after register allocation and splits a group for
    * which none fits, which costs a group, so the packer already keeps to groups for which some
    * choice fits. It knows each operand's channel (value_chan: the slot of a vector-slot
    * result, the fixed channel of fetch results; -1 where the allocator chooses: taken as free,
    * except by t-slot operations, which keep some channel for it, see ports_with)
    * and that two values read in one channel are two GPRs; values the previous group wrote
    * are read through PV/PS and take no port (emit.cpp forward_previous_results). `ports`
    * holds every assignment of the ports reachable with the group's operations so far. */
   const std::vector<int> *value_chan = nullptr;
   const std::vector<bool> *forwarded = nullptr;
   /* The vector slots an operation free to write any channel tries, in order: the channels
    * that fewer waiting operations are bound to first (Scheduler::slot_preference). */
   std::array<unsigned, 4> free_slot_order{0, 1, 2, 3};
   /* Vector slots kept for ready operations bound to their channel: free operations skip them. */
   std::array<bool, 4> kept_for_bound{false, false, false, false};
   using PortState = std::array<int, 12>; /* [cycle * 4 + channel]: value read, or -1 */
   static constexpr size_t max_port_states = 128;
   std::vector<PortState> ports{PortState{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}};

   /* The port assignments possible after adding `op` in `slot` (copies times for Cayman's
    * replicated operations); empty if none. */
   std::vector<PortState> ports_with(const AluOp &op, int slot, unsigned copies) const
   {
      const SlotRule rule = op.op->slot_rule(isa);
      /* Bundles go whole into a group; emit.cpp copies a DOT4's operands when they do not fit. */
      if (!value_chan || rule == SlotRule::Four || rule == SlotRule::Pair)
         return ports;
      const bool trans = slot == 4;
      int chan[3] = {-1, -1, -1};
      bool gpr_like[3] = {false, false, false};
      unsigned constants = 0;
      for (unsigned s = 0; s < op.op->sources && s < 3; s++) {
         const Operand &o = op.src[s];
         if (o.kind == OperandKind::Literal || o.kind == OperandKind::Kcache || o.kind == OperandKind::Inline)
            constants++;
         if (!o.is_value())
            continue;
         gpr_like[s] = true;
         if (!(*forwarded)[o.value])
            chan[s] = (*value_chan)[o.value];
      }
      std::vector<PortState> states = ports;
      for (unsigned copy = 0; copy < copies; copy++) {
         std::vector<PortState> next;
         for (const PortState &state : states) {
            for (unsigned swizzle = 0; swizzle < (trans ? 4u : 6u); swizzle++) {
               /* Operands in order. In the t slot, an operand whose channel the allocator
                * will choose (fetch and t-slot results; chan -1, not read through PV/PS) is
                * tried in each channel, so that some channel's port is left for it. Taken as
                * free there, such reads let five-operation MULADD groups form that emit.cpp
                * then had to split, one split making the next group's PV/PS reads port reads
                * (skinned.vert on Barts: 29 groups scheduled, 47 emitted; now 35, 35). Not in
                * the vector slots: there the assumption costs a few splits but packs better
                * overall (measured, shaderdb-compare: all slots 1802 Barts groups and
                * lit_textured.frag 63 -> 66; t only 1796, no shader worse). */
               auto place = [&](auto &self, unsigned s, PortState ported) -> void {
                  if (s == op.op->sources || s == 3) {
                     next.push_back(ported);
                     return;
                  }
                  const unsigned cycle = trans ? isa::bank_swizzle_trans_cycles[swizzle][s]
                                               : isa::bank_swizzle_vector_cycles[swizzle][s];
                  if (trans && gpr_like[s] && cycle < std::min(constants, 2u))
                     return;
                  const bool unknown = trans && gpr_like[s] && chan[s] < 0 && op.src[s].is_value() &&
                                       !(*forwarded)[op.src[s].value];
                  if ((!unknown && (chan[s] < 0 || chan[s] > 3)) ||
                      (!trans && s == 1 && op.src[0].is_value() && op.src[0].value == op.src[1].value)) {
                     self(self, s + 1, ported); /* no port, or shares src0's read */
                     return;
                  }
                  for (unsigned c = unknown ? 0 : unsigned(chan[s]); c < (unknown ? 4u : unsigned(chan[s]) + 1); c++) {
                     int &port = ported[cycle * 4 + c];
                     const int before = port;
                     if (port == -1 || port == int(op.src[s].value)) {
                        port = int(op.src[s].value);
                        self(self, s + 1, ported);
                     }
                     port = before;
                  }
               };
               place(place, 0, state);
            }
         }
         std::sort(next.begin(), next.end());
         next.erase(std::unique(next.begin(), next.end()), next.end());
         if (next.size() > max_port_states)
            next.resize(max_port_states); /* fewer choices: at worst an operation waits */
         states = std::move(next);
      }
      return states;
   }

   unsigned literal_slots(size_t literal_count) const { return unsigned((literal_count + 1) / 2); }

   unsigned slots_used() const
   {
      unsigned n = 0;
      for (const ScheduledAlu &op : group.ops)
         n += op.copies;
      return n + literal_slots(group.literals.size());
   }

   /* Tries to add `op`; returns false (and changes nothing) if it does not fit. */
   bool try_add(const AluOp &op, int required_chan, unsigned clause_slots_left)
   {
      /* Constants: literals and kcache pairs. */
      std::vector<uint32_t> literals = group.literals;
      auto pairs = kcache_pairs;
      auto new_lines = lines;
      unsigned constants = 0;
      for (unsigned s = 0; s < op.op->sources; s++) {
         const Operand &o = op.src[s];
         if (o.kind == OperandKind::Literal) {
            constants++;
            if (std::find(literals.begin(), literals.end(), o.value) == literals.end())
               literals.push_back(o.value);
         } else if (o.kind == OperandKind::Kcache) {
            constants++;
            pairs.insert({o.bank * 4096 + o.value / 4, (o.value % 4) / 2});
            new_lines.insert({o.bank, o.value / kcache_line_dwords});
         } else if (o.kind == OperandKind::Inline) {
            constants++;
         }
      }
      if (literals.size() > 4 || pairs.size() > 2)
         return false;
      if (new_lines.size() > lines.size()) {
         auto all = clause_lines;
         all.insert(new_lines.begin(), new_lines.end());
         std::vector<KcacheSet> sets;
         if (!cover_kcache_lines(all, sets))
            return false;
      }

      const SlotRule rule = op.op->slot_rule(isa);
      ScheduledAlu placed{op, -1, 1};
      if (rule == SlotRule::Four) {
         /* One of a bundle's four operations: its own slot, the others are added alongside. */
         if (required_chan < 0 || required_chan > 3 || used[required_chan])
            return false;
         placed.slot = required_chan;
      } else if (rule == SlotRule::Replicated3 || rule == SlotRule::Replicated4) {
         const unsigned copies = rule == SlotRule::Replicated3 ? 3 : 4;
         for (unsigned s = 0; s < copies; s++)
            if (used[s])
               return false;
         if (required_chan >= int(copies))
            return false;
         placed.slot = 0;
         placed.copies = copies;
      } else {
         const bool vector_ok = rule == SlotRule::Vector || rule == SlotRule::Any;
         const bool trans_ok = isa == hw::IsaClass::Evergreen &&
                               (rule == SlotRule::Trans || rule == SlotRule::Any);
         if (vector_ok) {
            for (unsigned k = 0; k < 4 && placed.slot < 0; k++) {
               const unsigned s = required_chan < 0 ? free_slot_order[k] : k;
               if (required_chan < 0 && kept_for_bound[s])
                  continue;
               if (!used[s] && (required_chan < 0 || required_chan == int(s)))
                  placed.slot = int(s);
            }
         }
         if (placed.slot < 0 && trans_ok && !used[4] && constants <= 2)
            placed.slot = 4;
         if (placed.slot < 0)
            return false;
      }
      const unsigned new_slots = (slots_used() + placed.copies + literal_slots(literals.size())) -
                                 literal_slots(group.literals.size());
      if (new_slots > clause_slots_left)
         return false;
      std::vector<PortState> new_ports = ports_with(op, placed.slot, placed.copies);
      if (new_ports.empty())
         return false;
      for (unsigned s = 0; s < placed.copies; s++)
         used[placed.slot + s] = true;
      group.literals = literals;
      kcache_pairs = pairs;
      lines = new_lines;
      ports = std::move(new_ports);
      group.ops.push_back(placed);
      return true;
   }
};

class Scheduler {
public:
   Scheduler(const SelectedProgram &selected, ScheduledProgram &out, std::string &error)
      : in(selected), out(out), error(error)
   {
      out.isa = in.isa;
   }

   bool run()
   {
      available.assign(in.values.size(), false);
      for (size_t v = 0; v < in.values.size(); v++)
         if (in.values[v].fixed_gpr >= 0 || in.values[v].whole_program)
            available[v] = true;
      done.assign(in.nodes.size(), false);
      value_chan.assign(in.values.size(), -1);
      for (size_t v = 0; v < in.values.size(); v++)
         value_chan[v] = in.values[v].fixed_gpr >= 0 ? in.values[v].fixed_chan : in.values[v].required_chan;
      forwarded.assign(in.values.size(), false);
      writers.assign(in.values.size(), 0);
      for (const Node &node : in.nodes) {
         if (node.kind == NodeKind::Alu && node.alu.dst != no_value)
            writers[node.alu.dst]++;
         else if (node.kind == NodeKind::Fetch)
            for (unsigned v : node.fetch.results())
               writers[v]++;
      }
      compute_heights();
      find_store_only_values();

      /* Segments between control-flow markers are scheduled one after the other. */
      size_t begin = 0;
      while (begin <= in.nodes.size()) {
         size_t end = begin;
         while (end < in.nodes.size() && !is_marker(in.nodes[end].kind))
            end++;
         /* An If's predicate (the node just before it) is placed after the rest of the stretch. */
         const bool predicated = end < in.nodes.size() && has_predicate_node(end);
         segment_begin = begin;
         segment_end = predicated ? end - 1 : end;
         size_t remaining = 0;
         for (size_t i = begin; i < segment_end; i++)
            remaining += done[i] ? 0 : 1;
         defer_store_only = true;
         while (remaining) {
            const size_t before = remaining;
            remaining -= schedule_fetches();
            remaining -= schedule_alu();
            if (!error.empty())
               return false;
            remaining -= schedule_stores();
            if (remaining == before) {
               /* An ordering constraint may tie a deferred operation to one that must come
                * first; the segment then goes on without deferring. */
               if (defer_store_only) {
                  defer_store_only = false;
                  continue;
               }
               error = "internal: the scheduler made no progress (an operand is never produced)";
               return false;
            }
         }
         if (end == in.nodes.size())
            break;
         if (predicated && !place_branch_predicate(end - 1))
            return false;
         Clause marker;
         marker.kind = ClauseKind::Marker;
         marker.marker = in.nodes[end].kind;
         marker.condition = in.nodes[end].condition;
         marker.invert = in.nodes[end].invert;
         out.clauses.push_back(marker);
         done[end] = true;
         begin = end + 1;
      }
      return true;
   }

private:
   /* Whether node `branch` is an If whose predicate, a PRED_SET* operation, is the node just
    * before it (branch_predicates.cpp); its marker clause then keeps no condition. */
   bool has_predicate_node(size_t branch) const
   {
      return in.nodes[branch].kind == NodeKind::If && in.nodes[branch].condition == no_value;
   }

   /* An If's predicate goes into a group of its own at the end of the ALU clause just placed,
    * which the emitter turns into the If's ALU_PUSH_BEFORE (emit.cpp), or, when the stretch
    * did not end with an ALU clause with room for it (and its constants), into a clause of its
    * own. Its own group, as r600g's assembler places it: no other operation of the clause
    * runs after the exec mask changes, and none shares its group (what the hardware does with
    * an operation in the group of a PRED_SET that changes the exec mask is not documented to
    * us). */
   bool place_branch_predicate(size_t at)
   {
      const Node &node = in.nodes[at];
      if (node.kind != NodeKind::Alu || !(node.alu.op->flags & isa::AluFlag::PredSet) || !ordered(at)) {
         error = "internal: an If without its predicate just before it";
         return false;
      }
      for (unsigned s = 0; s < node.alu.op->sources; s++)
         if (!ready(node.alu.src[s])) {
            error = "internal: an If's predicate reads a value not yet computed";
            return false;
         }
      auto try_clause = [&](Clause &clause) {
         GroupBuilder builder{in.isa, {}};
         unsigned slots = 0;
         for (const ScheduledGroup &group : clause.groups) {
            for (const ScheduledAlu &op : group.ops) {
               slots += op.copies;
               for (unsigned s = 0; s < op.op.op->sources; s++)
                  if (op.op.src[s].kind == OperandKind::Kcache)
                     builder.clause_lines.insert({op.op.src[s].bank, op.op.src[s].value / kcache_line_dwords});
            }
            slots += unsigned(group.literals.size() + 1) / 2;
         }
         if (slots >= max_alu_clause_slots || !builder.try_add(node.alu, -1, max_alu_clause_slots - slots))
            return false;
         std::set<std::pair<unsigned, unsigned>> lines = builder.clause_lines;
         lines.insert(builder.lines.begin(), builder.lines.end());
         cover_kcache_lines(lines, clause.kcache);
         clause.groups.push_back(std::move(builder.group));
         return true;
      };
      bool placed = !out.clauses.empty() && out.clauses.back().kind == ClauseKind::Alu && try_clause(out.clauses.back());
      if (!placed) {
         Clause clause;
         clause.kind = ClauseKind::Alu;
         if (!try_clause(clause)) {
            error = "internal: an If's predicate fits in no group";
            return false;
         }
         out.clauses.push_back(std::move(clause));
      }
      forget_forwarded();
      done[at] = true;
      return true;
   }

   const SelectedProgram &in;
   ScheduledProgram &out;
   std::string &error;
   std::vector<bool> available, done;
   std::vector<unsigned> height;
   std::vector<unsigned> writers; /* per value: the ALU operations and fetches that write it */
   /* For GroupBuilder's read-port count: each value's channel once known, and the values the
    * clause's last group wrote through a slot whose PV/PS forwards them. */
   std::vector<int> value_chan;
   std::vector<bool> forwarded;
   std::vector<unsigned> forwarded_values;

   void forget_forwarded()
   {
      for (unsigned v : forwarded_values)
         forwarded[v] = false;
      forwarded_values.clear();
   }

   /* After a group is placed: its vector-slot results have their slot's channel, and the next
    * group reads the plain per-slot results through PV/PS (the producers emit.cpp's
    * forwards_its_result accepts). */
   void note_group(const ScheduledGroup &group)
   {
      forget_forwarded();
      constexpr uint32_t special = isa::AluFlag::Kill | isa::AluFlag::PredSet | isa::AluFlag::PredPush |
                                   isa::AluFlag::Mova | isa::AluFlag::Interp | isa::AluFlag::Lds |
                                   isa::AluFlag::Reduction | isa::AluFlag::Double |
                                   isa::AluFlag::PrevNext | isa::AluFlag::PrevInterleave;
      for (const ScheduledAlu &placed : group.ops) {
         const unsigned dst = placed.op.dst;
         if (dst == no_value)
            continue;
         if (placed.copies == 1 && placed.slot >= 0 && placed.slot < 4)
            value_chan[dst] = placed.slot;
         const SlotRule rule = placed.op.op->slot_rule(in.isa);
         if ((placed.op.op->flags & special) || rule == SlotRule::Four || rule == SlotRule::Pair ||
             placed.op.op->encoding == isa::AluEncoding::Lds)
            continue;
         forwarded[dst] = true;
         forwarded_values.push_back(dst);
      }
   }
   size_t segment_begin = 0, segment_end = 0;
   /* Values read by stores only (directly, or through operations that are themselves such). */
   std::vector<bool> store_only;
   bool defer_store_only = true;

   void find_store_only_values()
   {
      /* Walking backwards, every reader of a value is seen before the value's producer. */
      std::vector<bool> read_elsewhere(in.values.size(), false), read_by_store(in.values.size(), false);
      store_only.assign(in.values.size(), false);
      for (size_t i = in.nodes.size(); i-- > 0;) {
         const Node &node = in.nodes[i];
         if (node.kind == NodeKind::Alu && node.alu.dst != no_value) {
            const unsigned v = node.alu.dst;
            const ValueInfo &info = in.values[v];
            store_only[v] = read_by_store[v] && !read_elsewhere[v] && info.fixed_gpr < 0 &&
                            !info.whole_program && node.bundle < 0;
         }
         switch (node.kind) {
         case NodeKind::Store:
            for (unsigned v : node.store.sources())
               read_by_store[v] = true;
            break;
         case NodeKind::Fetch:
            for (unsigned v : node.fetch.sources())
               read_elsewhere[v] = true;
            break;
         case NodeKind::Export:
            for (unsigned v : node.exported.values)
               if (v != no_value)
                  read_elsewhere[v] = true;
            break;
         case NodeKind::Alu: {
            const bool feeds_stores_only = node.alu.dst != no_value && store_only[node.alu.dst];
            for (unsigned k = 0; k < node.alu.op->sources; k++) {
               const Operand &o = node.alu.src[k];
               if (!o.is_value())
                  continue;
               if (feeds_stores_only)
                  read_by_store[o.value] = true;
               else
                  read_elsewhere[o.value] = true;
            }
            break;
         }
         default:
            if (node.condition != no_value)
               read_elsewhere[node.condition] = true;
            break;
         }
      }
   }

   /* Values the next `store_window` unplaced stores of the segment read, with what computes
    * them from values read by stores only. */
   std::vector<bool> values_for_next_stores() const
   {
      std::vector<bool> wanted(in.values.size(), false);
      unsigned stores = 0;
      for (size_t i = segment_begin; i < segment_end && stores < store_window; i++) {
         if (done[i] || in.nodes[i].kind != NodeKind::Store)
            continue;
         for (unsigned v : in.nodes[i].store.sources())
            wanted[v] = true;
         stores++;
      }
      for (size_t i = segment_end; i-- > segment_begin;) {
         const Node &node = in.nodes[i];
         if (node.kind != NodeKind::Alu || node.alu.dst == no_value || !wanted[node.alu.dst])
            continue;
         for (unsigned k = 0; k < node.alu.op->sources; k++)
            if (node.alu.src[k].is_value() && store_only[node.alu.src[k].value])
               wanted[node.alu.src[k].value] = true;
      }
      return wanted;
   }

   /* Values computed from the result of a fetch not yet placed (it goes in a later fetch
    * clause, so they cannot be computed in the ALU clause being built). Only values with one
    * writer: a value that other nodes write too (the helper-invocation preset that a fetch
    * overwrites) is ordered by Node::after instead. */
   std::vector<bool> values_waiting_for_fetches() const
   {
      std::vector<bool> waiting(in.values.size(), false);
      for (size_t i = segment_begin; i < segment_end; i++) {
         const Node &node = in.nodes[i];
         if (done[i])
            continue;
         if (node.kind == NodeKind::Fetch) {
            for (unsigned v : node.fetch.results())
               waiting[v] = writers[v] == 1;
         } else if (node.kind == NodeKind::Alu && node.alu.dst != no_value && writers[node.alu.dst] == 1) {
            /* Only values with one writer here too: a variable that several branches or loop
             * iterations write (one GPR for all) can be read, from an earlier writer, by
             * operations that do not wait for the fetch; marking it would keep them out of
             * every clause (dEQP memory.pipeline_barrier's pixel shader: no progress). */
            for (unsigned s = 0; s < node.alu.op->sources; s++)
               if (node.alu.src[s].is_value() && waiting[node.alu.src[s].value])
                  waiting[node.alu.dst] = true;
         }
      }
      return waiting;
   }

   /* The height of the tallest fetch that the next fetch clause could take now (its
    * addresses computed, every node it follows placed, no unplaced store before it), or 0. */
   unsigned tallest_ready_fetch() const
   {
      unsigned tallest = 0;
      for (size_t i = segment_begin; i < segment_end; i++) {
         const Node &node = in.nodes[i];
         if (done[i])
            continue;
         if (node.kind == NodeKind::Store)
            break;
         if (node.kind != NodeKind::Fetch || !ordered(i))
            continue;
         bool ready = true;
         for (unsigned v : node.fetch.sources())
            ready = ready && available[v];
         if (ready)
            tallest = std::max(tallest, height[i]);
      }
      return tallest;
   }

   /* Quarters of a GPR (as schedule_fetches counts them) that placed fetches of the stretch
    * wrote and that some unplaced node still reads. */
   unsigned fetched_quarters_waiting() const
   {
      std::vector<bool> read_later(in.values.size(), false);
      for (size_t i = segment_begin; i < in.nodes.size(); i++)
         if (!done[i])
            for_each_value_read(in.nodes[i], [&](unsigned v) { read_later[v] = true; });
      unsigned quarters = 0;
      for (size_t i = segment_begin; i < segment_end; i++) {
         const Node &node = in.nodes[i];
         if (!done[i] || node.kind != NodeKind::Fetch)
            continue;
         bool waiting = false;
         for (unsigned v : node.fetch.results())
            waiting = waiting || read_later[v];
         if (waiting)
            quarters += node.fetch.is_texture() ? 4 : 1;
      }
      return quarters;
   }

   /* The order in which an operation that may write any channel tries the vector slots:
    * least wanted first, by the unplaced operations of the stretch whose result must be in
    * one channel (store data and indices are all in x). Taking x first left the x-bound
    * operations for the end of the stretch, one per group (unpack_norm.comp: 22 groups of a
    * lone x operation on Cayman). */
   std::array<unsigned, 4> slot_preference() const
   {
      std::array<unsigned, 4> demand{};
      for (size_t i = segment_begin; i < segment_end; i++) {
         const Node &node = in.nodes[i];
         if (done[i] || node.kind != NodeKind::Alu || node.bundle >= 0 || node.alu.dst == no_value)
            continue;
         const int chan = in.values[node.alu.dst].required_chan;
         if (chan >= 0 && chan < 4)
            demand[unsigned(chan)]++;
      }
      std::array<unsigned, 4> order{0, 1, 2, 3};
      std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return demand[a] < demand[b]; });
      return order;
   }

   /* Whether every node this one must follow was placed in an earlier group or clause. */
   bool ordered(size_t i) const
   {
      for (unsigned before : in.nodes[i].after)
         if (!done[before])
            return false;
      return true;
   }

   bool ready(const Operand &o) const { return !o.is_value() || available[o.value]; }

   /* The slot of a bundle member: the channel of its result, or the slot it was given when it
    * writes none. */
   int bundle_slot(const Node &node) const
   {
      return node.bundle_slot >= 0 ? node.bundle_slot : in.values[node.alu.dst].required_chan;
   }

   void compute_heights()
   {
      /* Longest chain of ALU operations that depend on each node, walking backwards. The
       * members of a bundle (consecutive in program order) share the bundle's height: one
       * member's result is computed from every member's operands (DOT4's sum, the INTERP pair
       * of a vec3 input), so an operand read only by a member that writes nothing (DOT4's
       * y, z, w) is as urgent as the result. Counted per member, the components of a
       * normalized vector looked like leaves and waited behind shorter chains. */
      height.assign(in.nodes.size(), 0);
      std::vector<unsigned> value_height(in.values.size(), 0);
      for (size_t i = in.nodes.size(); i-- > 0;) {
         const Node &node = in.nodes[i];
         if (node.kind == NodeKind::Fetch) {
            /* The operations that compute a fetch's address or coordinates lead the chains
             * that read its results. */
            unsigned below = 0;
            for (unsigned v : node.fetch.results())
               below = std::max(below, value_height[v]);
            height[i] = below + 1;
            for (unsigned v : node.fetch.sources())
               value_height[v] = std::max(value_height[v], height[i]);
            continue;
         }
         if (node.kind != NodeKind::Alu)
            continue;
         height[i] = (node.alu.dst == no_value ? 0 : value_height[node.alu.dst]) + 1;
         if (node.bundle >= 0 && (i + 1 == in.nodes.size() || in.nodes[i + 1].bundle != node.bundle)) {
            /* The bundle's last member: the readers of every member's result are behind us. */
            for (size_t j = i; j-- > 0 && in.nodes[j].kind == NodeKind::Alu && in.nodes[j].bundle == node.bundle;) {
               const unsigned dst = in.nodes[j].alu.dst;
               height[i] = std::max(height[i], (dst == no_value ? 0 : value_height[dst]) + 1);
            }
         } else if (node.bundle >= 0) {
            height[i] = height[i + 1];
         }
         for (const Operand &o : node.alu.src)
            if (o.is_value())
               value_height[o.value] = std::max(value_height[o.value], height[i]);
      }
   }

   size_t schedule_fetches()
   {
      Clause clause;
      clause.kind = ClauseKind::Fetch;
      std::vector<unsigned> defined;
      std::vector<size_t> placed;
      unsigned result_quarters = 0;
      for (size_t i = segment_begin; i < segment_end && clause.fetches.size() < max_fetch_clause_size; i++) {
         const Node &node = in.nodes[i];
         if (done[i])
            continue;
         if (node.kind == NodeKind::Store)
            break; /* loads stay below earlier stores */
         if (node.kind != NodeKind::Fetch || !ordered(i))
            continue;
         /* VALID_PIXEL_MODE is the clause's: such fetches share a clause only with each other. */
         if (!clause.fetches.empty() && clause.fetches.front().valid_pixels_only != node.fetch.valid_pixels_only)
            continue;
         bool ready = true;
         for (unsigned v : node.fetch.sources())
            ready = ready && available[v];
         if (!ready)
            continue;
         /* Results held at once: a fetch clause writes at most fetch_clause_gprs GPRs' worth
          * (a GPR per TEX or multi-dword VFETCH, a channel per single-dword VFETCH), so that
          * loads are not all hoisted to the top of a long stretch. */
         const unsigned quarters = node.fetch.is_texture() ? 4 : 1;
         if (!clause.fetches.empty() && result_quarters + quarters > 4 * fetch_clause_gprs)
            break;
         /* SAMPLE_G: its SET_GRADIENTS_H and _V go just before it, in the same clause (the
          * texture unit keeps what they set for the sample after them). */
         const bool gradients = node.fetch.is_texture() && node.fetch.texture.has_gradients();
         if (gradients && clause.fetches.size() + 3 > max_fetch_clause_size)
            break;
         result_quarters += quarters;
         if (gradients)
            for (const char *setter : {"SET_GRADIENTS_H", "SET_GRADIENTS_V"}) {
               FetchOp set = node.fetch;
               set.texture.op = isa::find_fetch_op(setter);
               set.texture.coords = setter[14] == 'H' ? node.fetch.texture.gradients_h : node.fetch.texture.gradients_v;
               set.texture.gradients_h.fill(no_value);
               set.texture.gradients_v.fill(no_value);
               set.texture.results.fill(no_value);
               set.texture.offset_halves = {};
               set.texture.record = -1;
               clause.fetches.push_back(set);
            }
         clause.fetches.push_back(node.fetch);
         for (unsigned v : node.fetch.results())
            defined.push_back(v);
         placed.push_back(i);
      }
      for (size_t i : placed)
         done[i] = true;
      for (unsigned v : defined)
         available[v] = true;
      if (clause.fetches.empty())
         return 0;
      const size_t count = placed.size(); /* nodes: a SAMPLE_G's SET_GRADIENTS are not nodes */
      out.clauses.push_back(std::move(clause));
      return count;
   }

   size_t schedule_alu()
   {
      size_t placed_total = 0;
      Clause clause;
      clause.kind = ClauseKind::Alu;
      unsigned clause_slots = 0;
      std::set<std::pair<unsigned, unsigned>> clause_lines;
      auto close_clause = [&]() {
         if (!clause.groups.empty()) {
            cover_kcache_lines(clause_lines, clause.kcache);
            out.clauses.push_back(std::move(clause));
         }
         clause = Clause();
         clause.kind = ClauseKind::Alu;
         clause_slots = 0;
         clause_lines.clear();
         forget_forwarded(); /* PV/PS do not reach into the next clause */
      };
      const std::vector<bool> wanted_by_stores = values_for_next_stores();
      const std::vector<bool> fetch_bound = values_waiting_for_fetches();
      for (;;) {
         std::vector<size_t> candidates;
         unsigned window = 0;
         int last_bundle = -1;
         for (size_t i = segment_begin; i < segment_end; i++) {
            const Node &node = in.nodes[i];
            if (done[i] || node.kind != NodeKind::Alu || !ordered(i))
               continue;
            if (defer_store_only && node.alu.dst != no_value && store_only[node.alu.dst] &&
                !wanted_by_stores[node.alu.dst])
               continue;
            /* What waits for a fetch of a later clause cannot join this clause: it takes no
             * room in the window (the scheduler would otherwise see fewer of the operations
             * that can run, down to one per group where a run of them crossed the window's
             * end). */
            bool waits_for_fetch = false;
            for (unsigned s = 0; s < node.alu.op->sources; s++)
               waits_for_fetch |= node.alu.src[s].is_value() && fetch_bound[node.alu.src[s].value];
            if (waits_for_fetch)
               continue;
            /* A bundle's members (consecutive in program order) enter the window together. */
            if (window >= alu_window && !(node.bundle >= 0 && node.bundle == last_bundle))
               break;
            window++;
            last_bundle = node.bundle;
            bool ok = true;
            for (unsigned s = 0; s < node.alu.op->sources; s++)
               ok = ok && ready(node.alu.src[s]);
            if (ok)
               candidates.push_back(i);
         }
         /* A bundle is a candidate only when all of it is ready (its members read different
          * operands: DOT4). */
         {
            std::map<int, size_t> ready_members, members;
            for (size_t i : candidates)
               if (in.nodes[i].bundle >= 0)
                  ready_members[in.nodes[i].bundle]++;
            for (size_t i = segment_begin; i < segment_end; i++)
               if (!done[i] && in.nodes[i].bundle >= 0 && ready_members.count(in.nodes[i].bundle))
                  members[in.nodes[i].bundle]++;
            std::erase_if(candidates, [&](size_t i) {
               return in.nodes[i].bundle >= 0 && ready_members[in.nodes[i].bundle] != members[in.nodes[i].bundle];
            });
         }
         if (candidates.empty())
            break;
         std::stable_sort(candidates.begin(), candidates.end(),
                          [&](size_t a, size_t b) { return height[a] > height[b]; });
         /* A fetch that could be issued now and heads a taller chain than every ready
          * operation: the clause ends, the fetch clause goes next and the shorter work fills
          * the groups of the chain after it instead of running alone before it. Not while
          * fetch_clause_gprs GPRs' worth of fetched results still wait for their readers (a
          * run of loads would otherwise all be fetched before the first is used). */
         if (placed_total > 0 && tallest_ready_fetch() > height[candidates.front()] &&
             fetched_quarters_waiting() < 4 * fetch_clause_gprs)
            break;
         GroupBuilder builder{in.isa, {}};
         builder.free_slot_order = slot_preference();
         /* A ready operation whose result only stores read, bound to a channel (store data
          * and indices: x), keeps that slot from the taller free operations placed before it,
          * which would otherwise take it in every group and leave the stores' operations to
          * run one per group at the end (many_stores.comp: 217 -> 194 groups on Cayman).
          * Only those: keeping slots for exported or interpolated channels cost the vertex
          * shaders groups. */
         for (size_t i : candidates) {
            const Node &node = in.nodes[i];
            if (node.bundle < 0 && node.alu.dst != no_value && store_only[node.alu.dst] && in.values[node.alu.dst].required_chan >= 0 &&
                in.values[node.alu.dst].required_chan < 4 && node.alu.op->slot_rule(in.isa) != SlotRule::Four &&
                node.alu.op->slot_rule(in.isa) != SlotRule::Replicated3 && node.alu.op->slot_rule(in.isa) != SlotRule::Replicated4 &&
                !is_ordered_memory_op(node.alu))
               builder.kept_for_bound[unsigned(in.values[node.alu.dst].required_chan)] = true;
         }
         builder.clause_lines = clause_lines;
         builder.value_chan = &value_chan;
         builder.forwarded = &forwarded;
         std::vector<unsigned> defined;
         std::vector<size_t> placed;
         const AluOp *lds_return = nullptr; /* needs the queue popped in the next group */
         for (size_t i : candidates) {
            const AluOp &op = in.nodes[i].alu;
            if (in.nodes[i].bundle >= 0) {
               /* A bundle goes whole into a group, when all of it is ready: an empty one, or
                * on Evergreen one that holds only t-slot operations when no other operation
                * is left to take the vector slots (a transcendental chain with a dot product
                * beside it: fog_tonemap.frag). Not while others wait: the dot product then
                * ran earlier than needed and lit_textured.frag took a GPR more on Barts. */
               if (done[i])
                  continue;
               if (!builder.group.ops.empty()) {
                  if (std::any_of(builder.used, builder.used + 4, [](bool u) { return u; }))
                     continue;
                  const bool others_left = std::any_of(candidates.begin(), candidates.end(), [&](size_t j) {
                     return in.nodes[j].bundle != in.nodes[i].bundle &&
                            std::find(placed.begin(), placed.end(), j) == placed.end();
                  });
                  if (others_left)
                     continue;
               }
               std::vector<size_t> members;
               for (size_t j : candidates)
                  if (in.nodes[j].bundle == in.nodes[i].bundle)
                     members.push_back(j);
               size_t expected = 0;
               for (size_t j = segment_begin; j < segment_end; j++)
                  expected += in.nodes[j].bundle == in.nodes[i].bundle ? 1 : 0;
               if (members.size() != expected)
                  continue;
               GroupBuilder trial = builder;
               bool fits = true;
               for (size_t j : members)
                  fits = fits && trial.try_add(in.nodes[j].alu, bundle_slot(in.nodes[j]),
                                               max_alu_clause_slots - clause_slots);
               if (!fits)
                  continue;
               builder = trial;
               for (size_t j : members) {
                  placed.push_back(j);
                  if (in.nodes[j].alu.dst != no_value)
                     defined.push_back(in.nodes[j].alu.dst);
                  placed_total++;
               }
               continue;
            }
            if (std::find(placed.begin(), placed.end(), i) != placed.end())
               continue;
            if (is_ordered_memory_op(op)) {
               /* LDS operations and barriers go alone; a returning LDS operation also needs
                * the next slot of the clause for its pop. */
               const bool returns = op.dst != no_value;
               if (!builder.group.ops.empty())
                  continue;
               /* The room is counted by try_add (a literal address takes a slot too), with
                * one slot kept for the pop: counting only the operation once left no room
                * for the pop after a LDS_READ_RET 0x34 that ended a clause, and the pop's
                * group came out empty, the result never read (dEQP
                * workgroup_memory_explicit_layout.copy_memory.basic on Cayman). */
               const unsigned room = max_alu_clause_slots - clause_slots;
               if (room < (returns ? 2u : 1u))
                  continue;
               AluOp issued = op;
               issued.dst = no_value;
               if (!builder.try_add(issued, -1, room - (returns ? 1u : 0u)))
                  continue;
               placed.push_back(i);
               placed_total++;
               if (returns)
                  lds_return = &op;
               break;
            }
            if (!builder.group.ops.empty() && is_ordered_memory_op(builder.group.ops[0].op))
               break;
            /* Operations without a result (KILL) may go in any slot. */
            const int required = op.dst == no_value ? -1 : in.values[op.dst].required_chan;
            if (builder.try_add(op, required, max_alu_clause_slots - clause_slots)) {
               placed.push_back(i);
               if (op.dst != no_value)
                  defined.push_back(op.dst);
               placed_total++;
            }
         }
         for (size_t i : placed)
            done[i] = true;
         if (builder.group.ops.empty()) {
            if (clause.groups.empty()) {
               error = "internal: an ALU operation fits in no group";
               return placed_total;
            }
            close_clause(); /* the clause is full */
            continue;
         }
         for (unsigned v : defined)
            available[v] = true;
         clause_slots += builder.slots_used();
         clause_lines.insert(builder.lines.begin(), builder.lines.end());
         note_group(builder.group);
         clause.groups.push_back(std::move(builder.group));
         if (lds_return) {
            GroupBuilder pop{in.isa, {}};
            AluOp move;
            move.op = isa::find_alu_op("MOV");
            move.dst = lds_return->dst;
            move.src[0] = Operand{OperandKind::LdsQueue, 0};
            if (!pop.try_add(move, in.values[move.dst].required_chan, max_alu_clause_slots - clause_slots)) {
               error = "internal: no room for the pop of a returning LDS operation";
               return placed_total;
            }
            clause_slots += pop.slots_used();
            note_group(pop.group);
            clause.groups.push_back(std::move(pop.group));
            available[move.dst] = true;
         }
      }
      close_clause();
      return placed_total;
   }

   size_t schedule_stores()
   {
      size_t count = 0;
      for (size_t i = segment_begin; i < segment_end; i++) {
         const Node &node = in.nodes[i];
         if (done[i])
            continue;
         if (node.kind == NodeKind::Fetch)
            break; /* a store must not overtake an earlier load */
         if (node.kind == NodeKind::Export) {
            /* Exports keep their order too (EXPORT_DONE ends each type). */
            bool ready = ordered(i);
            for (unsigned v : node.exported.values)
               ready = ready && (v == no_value || available[v]);
            if (!ready)
               break;
            Clause clause;
            clause.kind = ClauseKind::Export;
            clause.exported = node.exported;
            out.clauses.push_back(clause);
            done[i] = true;
            count++;
            continue;
         }
         if (node.kind != NodeKind::Store)
            continue;
         bool ready = ordered(i);
         for (unsigned v : node.store.sources())
            ready = ready && available[v];
         if (!ready)
            break; /* stores keep their order */
         Clause clause;
         clause.kind = ClauseKind::Store;
         clause.store = node.store;
         out.clauses.push_back(clause);
         done[i] = true;
         count++;
      }
      return count;
   }
};

} // namespace

bool schedule_program(const SelectedProgram &selected, ScheduledProgram &scheduled,
                      std::string &error)
{
   Scheduler scheduler(selected, scheduled, error);
   return scheduler.run() && error.empty();
}

} // namespace terakan::compiler
