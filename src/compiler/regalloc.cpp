/* Register allocation: linear scan over the scheduled program, one GPR channel per value.
 *
 * Program points: each ALU group, fetch, store, export and marker is one point. A value lives
 * from its first write to the last point where it is live (live_range: the control flow of the
 * markers, so values written in several places, NIR registers, get true ranges too); a channel
 * is reused by a value written in (or after) the group of the previous holder's last read,
 * since a group reads before it writes. emit.cpp respects that when it has to split a group.
 * Vector-slot results have the channel of their slot, unless the operation moves to a free slot
 * of its group to save a GPR (MovableOp); t-slot and Cayman replicated results and fetches take
 * the channel that keeps the GPR count lowest.
 *
 * Fewer GPRs means more wavefronts per SIMD. When a value finds no free channel, a value live
 * across that point goes to the scratch ring (spill.cpp; the choice below, docs/compiler.md
 * "Spilling") and the allocation starts again on the rewritten program. */
#include <algorithm>
#include <limits>
#include <set>

#include "backend_ir.h"
#include "spill.h"

namespace terakan::compiler {
namespace {

/* 128 GPRs per thread, less the clause temporaries a driver keeps (Mesa r600 reserves 4 on
 * Evergreen and Cayman; SQ_GPR_RESOURCE_MGMT). */
constexpr unsigned max_gprs = 124;

/* The points over which a value holds its channel: from `def` (its first write, or the first
 * point where it is live) to `last_use` (its last read, or the last point after which it is
 * still needed). live_at_def: it is already live when the group at `def` reads its operands
 * (a NIR register read before any write, in program order), so that group may not hand it
 * the channel of a value it reads for the last time. written_at_end: a write at `last_use`. */
struct Interval {
   int def = -1, last_use = -1;
   bool live_at_def = false, written_at_end = false;
};

/* What one allocation attempt learnt about the program: where values are defined and read, the
 * loops, and where it ran out of channels (failed_at, -1 if it did not). */
struct Liveness {
   std::vector<Interval> interval;
   std::vector<std::vector<int>> reads; /* per value, the points that read it, ascending */
   std::vector<std::pair<int, int>> loops;
   int failed_at = -1;
   /* At the failure: the channels the value that found no place could take, and the channel
    * of every value placed by then (-1: not placed). A spill helps only in those channels. */
   unsigned failed_channels = 0xf;
   std::vector<int> placed_chan;
};

/* The control-flow graph over program points, from the markers, as one lane runs it (a lane
 * that does not run a point leaves its registers alone, so what one lane needs is what counts):
 * each point goes on to the next, and besides
 *   If -> the point after its Else, or its EndIf; Else -> its EndIf only (the then side ends);
 *   LoopEnd -> its LoopBegin (the next iteration); Break -> the point after its LoopEnd;
 *   Continue -> its LoopBegin.
 * Break and Continue keep their edge to the next point, which only makes values live longer. */
struct ControlFlow {
   struct OpenIf {
      int if_point, else_point = -1;
   };
   struct OpenLoop {
      int begin;
      std::vector<int> breaks;
   };
   std::vector<OpenIf> open_ifs;
   std::vector<OpenLoop> open_loops;
   std::vector<std::pair<int, int>> jumps; /* (from, to) besides the fall-through */
   std::vector<int> no_fall_through;

   void marker(NodeKind kind, int point)
   {
      switch (kind) {
      case NodeKind::If: open_ifs.push_back({point}); break;
      case NodeKind::Else:
         open_ifs.back().else_point = point;
         no_fall_through.push_back(point);
         break;
      case NodeKind::EndIf: {
         const OpenIf open = open_ifs.back();
         open_ifs.pop_back();
         if (open.else_point < 0) {
            jumps.push_back({open.if_point, point});
         } else {
            jumps.push_back({open.if_point, open.else_point + 1});
            jumps.push_back({open.else_point, point});
         }
         break;
      }
      case NodeKind::LoopBegin: open_loops.push_back({point, {}}); break;
      case NodeKind::LoopEnd:
         jumps.push_back({point, open_loops.back().begin});
         for (int from : open_loops.back().breaks)
            jumps.push_back({from, point + 1});
         open_loops.pop_back();
         break;
      case NodeKind::Break: open_loops.back().breaks.push_back(point); break;
      case NodeKind::Continue: jumps.push_back({point, open_loops.back().begin}); break;
      default: break;
      }
   }

   /* Per point of a program of `points` points, the points it can follow. */
   std::vector<std::vector<int>> predecessors(int points) const
   {
      std::vector<std::vector<int>> preds(size_t(points) + 1);
      std::vector<bool> falls(size_t(points), true);
      for (int p : no_fall_through)
         falls[size_t(p)] = false;
      for (int p = 0; p + 1 < points; p++)
         if (falls[size_t(p)])
            preds[size_t(p) + 1].push_back(p);
      for (const auto &[from, to] : jumps)
         if (to < points)
            preds[size_t(to)].push_back(from);
      return preds;
   }
};

/* The interval of one value: the points where it is live (walking back from each read to the
 * writes that overwrite it), joined with its writes into one range. A value defined before a
 * loop and read in it is live to the loop's end (the next iteration reads it again); a loop's
 * flag written at the top of every iteration before its reads is not live around the loop. */
Interval live_range(const std::vector<int> &reads, const std::vector<int> &writes,
                    const std::vector<int> &overwrites, bool preloaded,
                    const std::vector<std::vector<int>> &preds, std::vector<unsigned> &seen_by, unsigned value)
{
   Interval iv;
   int first_live = std::numeric_limits<int>::max(), last_live = -1;
   std::vector<int> pending(reads.begin(), reads.end());
   while (!pending.empty()) {
      const int p = pending.back();
      pending.pop_back();
      if (seen_by[size_t(p)] == value)
         continue;
      seen_by[size_t(p)] = value;
      first_live = std::min(first_live, p); /* live when p reads its operands */
      last_live = std::max(last_live, p);
      for (int q : preds[size_t(p)]) {
         last_live = std::max(last_live, q); /* needed after q */
         if (!std::binary_search(overwrites.begin(), overwrites.end(), q))
            pending.push_back(q);
      }
   }
   const int first_write = writes.empty() ? std::numeric_limits<int>::max() : writes.front();
   const int last_write = writes.empty() ? -1 : writes.back();
   iv.def = preloaded ? -1 : std::min(first_write, first_live);
   iv.live_at_def = !preloaded && first_live <= iv.def;
   iv.last_use = std::max(last_live, last_write);
   iv.written_at_end = last_write == iv.last_use;
   return iv;
}

/* A vector-slot operation whose result could be written from any other vector slot of its
 * group: the scheduler chose its slot, and so its result's channel, before any channel was
 * known to be free. Emission follows the slot (PV/PS forwarding and bank swizzles are
 * worked out there from the final slots). Not: bundles and operations with a slot rule of
 * their own, LDS, predicate, kill and AR writes, reductions, and results whose channel is
 * asked for (GPR groups, NIR registers). */
struct MovableOp {
   ScheduledGroup *group = nullptr;
   size_t op = 0;
};

bool can_change_slot(const ScheduledAlu &op, const ValueInfo &result, hw::IsaClass isa)
{
   constexpr uint32_t special = isa::AluFlag::Kill | isa::AluFlag::PredSet | isa::AluFlag::PredPush |
                                isa::AluFlag::Mova | isa::AluFlag::Interp | isa::AluFlag::Lds |
                                isa::AluFlag::Reduction | isa::AluFlag::Double | isa::AluFlag::PrevNext |
                                isa::AluFlag::PrevInterleave;
   const isa::SlotRule rule = op.op.op->slot_rule(isa);
   return op.copies == 1 && op.slot >= 0 && op.slot < 4 &&
          (rule == isa::SlotRule::Vector || rule == isa::SlotRule::Any) && !(op.op.op->flags & special) &&
          op.op.op->encoding != isa::AluEncoding::Lds && result.required_chan < 0 && result.gpr_group < 0 &&
          result.fixed_gpr < 0 && !result.whole_program;
}

/* Records where the scan ran out, for choose_spill. */
void note_failure(Liveness &live, int point, unsigned channels, const std::vector<bool> &placed,
                  const Allocation &allocation)
{
   live.failed_at = point;
   live.failed_channels = channels;
   live.placed_chan.assign(placed.size(), -1);
   for (size_t v = 0; v < placed.size(); v++)
      if (placed[v])
         live.placed_chan[v] = int(allocation.location[v].chan);
}

/* One linear scan over `scheduled` with the value table `values`. */
bool assign_registers(const std::vector<ValueInfo> &values, ScheduledProgram &scheduled, Allocation &allocation,
                      Liveness &live, bool move_slots)
{
   const size_t count = values.size();
   live.interval.assign(count, {});
   std::vector<Interval> &interval = live.interval;
   std::vector<int> chan(count, -1);          /* fixed by a vector slot */
   std::vector<int> max_chan(count, 3);       /* Cayman replicated: only the copies' channels */
   std::vector<std::vector<unsigned>> avoid_gprs_of(count); /* fetch hazard (below) */
   std::vector<MovableOp> movable(count);

   std::vector<std::vector<int>> &reads = live.reads;
   reads.assign(count, {});
   auto use = [&](unsigned value, int point) {
      if (reads[value].empty() || reads[value].back() != point)
         reads[value].push_back(point);
   };
   /* Per value, the points that write it, and those of them that overwrite every lane it is
    * live in (all but VALID_PIXEL_MODE fetches, which skip helper lanes). */
   std::vector<std::vector<int>> writes(count), overwrites(count);
   auto write = [&](unsigned value, int point, bool every_lane) {
      writes[value].push_back(point);
      if (every_lane)
         overwrites[value].push_back(point);
   };
   ControlFlow flow;

   int point = 0;
   std::vector<std::pair<int, int>> &loops = live.loops; /* [start, end] points */
   loops.clear();
   for (Clause &clause : scheduled.clauses) {
      switch (clause.kind) {
      case ClauseKind::Marker:
         if (clause.marker == NodeKind::If && clause.condition != no_value)
            use(clause.condition, point);
         if (clause.marker == NodeKind::LoopEnd)
            loops.push_back({flow.open_loops.back().begin, point});
         flow.marker(clause.marker, point);
         point++;
         break;
      case ClauseKind::Alu:
         for (ScheduledGroup &group : clause.groups) {
            for (ScheduledAlu &op : group.ops) {
               for (unsigned s = 0; s < op.op.op->sources; s++)
                  if (op.op.src[s].is_value())
                     use(op.op.src[s].value, point);
            }
            for (ScheduledAlu &op : group.ops) {
               const unsigned dst = op.op.dst;
               if (dst == no_value)
                  continue;
               write(dst, point, true);
               if (op.copies > 1)
                  max_chan[dst] = int(op.copies) - 1;
               else if (op.slot < 4)
                  chan[dst] = op.slot;
               if (can_change_slot(op, values[dst], scheduled.isa))
                  movable[dst] = {&group, size_t(&op - group.ops.data())};
            }
            point++;
         }
         break;
      case ClauseKind::Fetch: {
         /* A fetch may not read a GPR that an earlier fetch of its clause wrote (the clause
          * runs its fetches without waiting for each other): sources live to the clause's end
          * and no fetch result may share a GPR with any of the clause's sources. */
         const int end = point + int(clause.fetches.size()) - 1;
         std::vector<unsigned> sources;
         for (FetchOp &fetch : clause.fetches) {
            for (unsigned v : fetch.sources()) {
               use(v, end);
               sources.push_back(v);
            }
         }
         for (FetchOp &fetch : clause.fetches) {
            for (unsigned v : fetch.results()) {
               write(v, point, !fetch.valid_pixels_only);
               avoid_gprs_of[v].insert(avoid_gprs_of[v].end(), sources.begin(), sources.end());
            }
            point++;
         }
         break;
      }
      case ClauseKind::Store:
         for (unsigned v : clause.store.sources())
            use(v, point);
         point++;
         break;
      case ClauseKind::Export:
         for (unsigned v : clause.exported.values)
            if (v != no_value)
               use(v, point);
         point++;
         break;
      }
   }

   const std::vector<std::vector<int>> preds = flow.predecessors(point);
   std::vector<unsigned> seen_by(preds.size(), no_value); /* live_range's visited points */
   for (size_t v = 0; v < count; v++)
      interval[v] = live_range(reads[v], writes[v], overwrites[v], values[v].fixed_gpr >= 0, preds, seen_by,
                               unsigned(v));
   /* Values by the point where they take their channel; preloaded ones first. */
   std::vector<unsigned> order;
   for (size_t v = 0; v < count; v++)
      if (values[v].fixed_gpr >= 0 || !writes[v].empty() || !reads[v].empty())
         order.push_back(unsigned(v));
   std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
      return interval[a].def < interval[b].def;
   });

   /* busy[g][c]: the last point at which GPR g channel c is needed by its current holder;
    * holder_writes[g][c]: that holder is written at that point. A channel can be given to a
    * value written in the group that last reads it (a group reads all its operands before it
    * writes), but never to two values written in one group. */
   std::vector<std::array<int, 4>> busy(max_gprs, {-2, -2, -2, -2});
   std::vector<std::array<bool, 4>> holder_writes(max_gprs, {false, false, false, false});
   allocation.location.assign(count, {});
   allocation.gprs = 2; /* R0 and R1 are written by the hardware at wave start */
   std::vector<bool> placed(count, false);

   /* Members of a GPR group (a TEX instruction's coordinates or results), by group. */
   std::vector<std::vector<unsigned>> groups;
   for (size_t v = 0; v < count; v++) {
      const int group = values[v].gpr_group;
      if (group < 0)
         continue;
      if (groups.size() <= size_t(group))
         groups.resize(group + 1);
      groups[group].push_back(unsigned(v));
   }
   auto channel_free = [&](unsigned g, unsigned c, unsigned v) {
      const Interval &iv = interval[v];
      return busy[g][c] < iv.def || (busy[g][c] == iv.def && !holder_writes[g][c] && !iv.live_at_def);
   };
   auto take = [&](unsigned g, unsigned c, unsigned v) {
      busy[g][c] = std::max(busy[g][c], interval[v].last_use);
      holder_writes[g][c] = interval[v].written_at_end;
   };
   /* The whole group is placed when its first member comes up: one GPR whose channels are
    * free from each member's definition on (members have their channel fixed). */
   auto place_group = [&](unsigned first) -> bool {
      const std::vector<unsigned> &members = groups[values[first].gpr_group];
      std::set<unsigned> avoid;
      for (unsigned m : members)
         for (unsigned source : avoid_gprs_of[m])
            if (placed[source])
               avoid.insert(allocation.location[source].gpr);
      for (unsigned g = 0; g < max_gprs; g++) {
         if (avoid.count(g))
            continue;
         bool fits = true;
         for (unsigned m : members)
            fits = fits && channel_free(g, unsigned(values[m].required_chan), m);
         if (!fits)
            continue;
         for (unsigned m : members) {
            const unsigned c = unsigned(values[m].required_chan);
            placed[m] = true;
            allocation.location[m] = {g, c};
            take(g, c, m);
         }
         allocation.gprs = std::max(allocation.gprs, g + 1);
         return true;
      }
      unsigned channels = 0;
      for (unsigned m : members)
         channels |= 1u << values[m].required_chan;
      placed[first] = false;
      note_failure(live, interval[first].def, channels, placed, allocation);
      return false;
   };

   for (unsigned v : order) {
      if (placed[v])
         continue;
      placed[v] = true;
      const ValueInfo &info = values[v];
      if (info.fixed_gpr >= 0) {
         allocation.location[v] = {unsigned(info.fixed_gpr), unsigned(info.fixed_chan)};
         take(unsigned(info.fixed_gpr), unsigned(info.fixed_chan), v);
         allocation.gprs = std::max(allocation.gprs, unsigned(info.fixed_gpr) + 1);
         continue;
      }
      if (info.gpr_group >= 0) {
         if (!place_group(v))
            return false;
         continue;
      }
      std::set<unsigned> avoid;
      for (unsigned source : avoid_gprs_of[v])
         avoid.insert(allocation.location[source].gpr);
      int best_gpr = -1, best_chan = -1;
      for (unsigned g = 0; g < max_gprs && best_gpr < 0; g++) {
         if (avoid.count(g))
            continue;
         for (int c = 0; c <= max_chan[v]; c++) {
            if (chan[v] >= 0 && c != chan[v])
               continue;
            if (info.required_chan >= 0 && c != info.required_chan)
               continue;
            if (channel_free(g, unsigned(c), v)) {
               best_gpr = int(g), best_chan = c;
               break;
            }
         }
      }
      /* A movable operation changes slot when its own slot's channel would take a GPR beyond
       * those in use (or none at all) and a free slot of its group finds a lower one. */
      if (move_slots && movable[v].group && (best_gpr < 0 || unsigned(best_gpr) >= allocation.gprs)) {
         ScheduledGroup &group = *movable[v].group;
         unsigned used = 0;
         for (const ScheduledAlu &op : group.ops)
            for (unsigned k = 0; k < op.copies; k++)
               used |= 1u << (unsigned(op.slot) + k);
         for (unsigned g = 0; g < max_gprs && g < unsigned(best_gpr < 0 ? max_gprs : best_gpr); g++) {
            if (avoid.count(g))
               continue;
            unsigned c = 0;
            while (c < 4 && ((used >> c & 1) || !channel_free(g, c, v)))
               c++;
            if (c < 4) {
               best_gpr = int(g), best_chan = int(c);
               group.ops[movable[v].op].slot = int(c);
               break;
            }
         }
      }
      if (best_gpr < 0) {
         unsigned channels = 0;
         for (int c = 0; c <= max_chan[v]; c++)
            if ((chan[v] < 0 || c == chan[v]) && (info.required_chan < 0 || c == info.required_chan))
               channels |= 1u << c;
         placed[v] = false;
         note_failure(live, interval[v].def, channels, placed, allocation);
         return false;
      }
      allocation.location[v] = {unsigned(best_gpr), unsigned(best_chan)};
      take(unsigned(best_gpr), unsigned(best_chan), v);
      allocation.gprs = std::max(allocation.gprs, unsigned(best_gpr) + 1);
   }
   return true;
}

/* Subtracted from the distance of a value read in a loop around the point: such values go
 * only when no value read outside those loops is left. */
constexpr long loop_penalty = 1l << 40;

/* The value to spill when the scan found no channel at point P = live.failed_at: of the values
 * live across P and not read at P, the one whose next read is furthest away (Belady's choice;
 * for a value defined before a loop around P and read in it before P, the next read is that
 * read in the next iteration). Values read in a loop around P (whose reloads would run in
 * every iteration) come only after all others. Values read within
 * reload_window points before and after P are skipped: one reload would serve both reads and
 * the value would stay live at P. Ties go to the value with fewer reads (fewer reloads).
 * Unless any_channel, only values placed in a channel the failed value could take count.
 * -1 if no value qualifies. */
int choose_spill(const Liveness &live, const std::vector<bool> &spillable, bool any_channel)
{
   const int p = live.failed_at;
   int best = -1;
   long best_distance = std::numeric_limits<long>::min();
   size_t best_reads = 0;
   for (size_t v = 0; v < spillable.size(); v++) {
      const Interval &iv = live.interval[v];
      if (!spillable[v] || iv.def < 0 || iv.def >= p || iv.last_use <= p)
         continue;
      if (!any_channel && (live.placed_chan[v] < 0 || !((live.failed_channels >> live.placed_chan[v]) & 1)))
         continue;
      const std::vector<int> &reads = live.reads[v];
      const auto next = std::upper_bound(reads.begin(), reads.end(), p);
      if (std::binary_search(reads.begin(), reads.end(), p))
         continue;
      long distance = next != reads.end() ? *next - p : std::numeric_limits<long>::max();
      bool read_in_loop = false; /* in a loop around P: a reload in every iteration */
      for (const auto &[start, end] : live.loops) {
         if (!(start < p && p < end))
            continue;
         const auto first = std::lower_bound(reads.begin(), reads.end(), start);
         read_in_loop = read_in_loop || (first != reads.end() && *first <= end);
         if (iv.def < start && first != reads.end() && *first < p)
            distance = std::min(distance, long(end - p) + (*first - start));
      }
      if (distance == std::numeric_limits<long>::max())
         continue;
      if (read_in_loop)
         distance -= loop_penalty;
      if (next != reads.begin() && next != reads.end() && *next - *(next - 1) <= int(reload_window))
         continue;
      if (distance > best_distance || (distance == best_distance && reads.size() < best_reads)) {
         best = int(v);
         best_distance = distance;
         best_reads = reads.size();
      }
   }
   return best;
}

/* More spills than this and the program is refused rather than compiled for ever. */
constexpr unsigned max_spills = 4096;

/* The allocation, spilling until it fits; move_slots: let operations change slot. */
bool allocate_with(const SelectedProgram &selected, ScheduledProgram &scheduled, Allocation &allocation,
                   std::string &error, bool move_slots)
{
   std::vector<ValueInfo> values = selected.values;
   /* Values in fixed places (preloaded ids, NIR registers) and members of GPR groups (TEX
    * coordinates and results, scratch and export data), whose GPR is shared with others, stay
    * in registers; so do the reloads themselves. */
   std::vector<bool> spillable(values.size());
   for (size_t v = 0; v < values.size(); v++)
      spillable[v] = values[v].fixed_gpr < 0 && !values[v].whole_program && values[v].gpr_group < 0;
   const std::string too_many = "the shader needs more than " + std::to_string(max_gprs) + " registers";
   unsigned spilled = 0;
   for (;;) {
      Liveness live;
      allocation = {};
      if (assign_registers(values, scheduled, allocation, live, move_slots))
         break;
      /* First among the values in a channel the failed value could take: a value of another
       * channel leaves it no place (vector results have their slot's channel). */
      auto choose = [&] {
         const int in_channel = choose_spill(live, spillable, false);
         return in_channel >= 0 ? in_channel : choose_spill(live, spillable, true);
      };
      int v = choose();
      while (v >= 0 && !spill_value(scheduled, values, unsigned(v))) {
         spillable[v] = false;
         v = choose();
      }
      if (v < 0 || spilled == max_spills) {
         error = too_many + " even with " + std::to_string(spilled) +
                 " values spilled to scratch (no further value live where it runs out can be spilled)";
         return false;
      }
      spillable[v] = false;
      spillable.resize(values.size(), false);
      spilled++;
   }
   allocation.spilled_values = spilled;
   allocation.scratch_elements = selected.scratch_elements;
   if (spilled)
      allocation.scratch_elements += place_spill_slots(scheduled, allocation, selected.scratch_elements);
   /* ARRAY_SIZE has 12 bits (docs/compiler.md "Scratch"). */
   if (allocation.scratch_elements > 4096) {
      error = too_many + " and its spilled values and private arrays need more than 65536 bytes of scratch per "
                         "invocation";
      return false;
   }
   return true;
}

} // namespace

/* Twice: with operations kept in the slots the scheduler chose, and with slot changes. A slot
 * change moves a value's channel, and with it the read ports of the groups that read it, so
 * emission may have to split one of them (a group more): the changes are kept only when they
 * spill fewer values or take fewer GPRs. */
bool allocate_registers(const SelectedProgram &selected, ScheduledProgram &scheduled,
                        Allocation &allocation, std::string &error)
{
   ScheduledProgram moved = scheduled;
   Allocation with_moves;
   std::string moved_error;
   const bool moved_ok = allocate_with(selected, moved, with_moves, moved_error, true);
   const bool kept_ok = allocate_with(selected, scheduled, allocation, error, false);
   if (!moved_ok)
      return kept_ok;
   const bool better = !kept_ok || with_moves.spilled_values < allocation.spilled_values ||
                       (with_moves.spilled_values == allocation.spilled_values && with_moves.gprs < allocation.gprs);
   if (better) {
      scheduled = std::move(moved);
      allocation = with_moves;
      error.clear();
   }
   return true;
}

} // namespace terakan::compiler
