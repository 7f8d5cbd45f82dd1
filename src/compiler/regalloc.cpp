/* Register allocation: linear scan over the scheduled program, one GPR channel per value.
 *
 * Program points: each ALU group, fetch and store is one point. A value lives from the point
 * that defines it to its last read; a channel is reused by a value written in (or after) the
 * group of the previous holder's last read, since a group reads before it writes. emit.cpp
 * respects that when it has to split a group. Vector-slot results have the channel of their slot; t-slot and Cayman
 * replicated results and fetches take the channel that keeps the GPR count lowest.
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

struct Interval {
   int def = -1, last_use = -1;
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
                      Liveness &live)
{
   const size_t count = values.size();
   live.interval.assign(count, {});
   std::vector<Interval> &interval = live.interval;
   std::vector<int> chan(count, -1);          /* fixed by a vector slot */
   std::vector<int> max_chan(count, 3);       /* Cayman replicated: only the copies' channels */
   std::vector<std::vector<unsigned>> avoid_gprs_of(count); /* fetch hazard (below) */

   std::vector<std::vector<int>> &reads = live.reads;
   reads.assign(count, {});
   auto use = [&](unsigned value, int point) {
      interval[value].last_use = std::max(interval[value].last_use, point);
      if (reads[value].empty() || reads[value].back() != point)
         reads[value].push_back(point);
   };
   std::vector<unsigned> order; /* values by definition point */
   for (size_t v = 0; v < count; v++) {
      if (values[v].fixed_gpr >= 0) {
         interval[v].def = -1;
         order.push_back(unsigned(v));
      }
   }

   int point = 0;
   std::vector<std::pair<int, int>> &loops = live.loops; /* [start, end] points */
   loops.clear();
   std::vector<int> open_loops;
   for (Clause &clause : scheduled.clauses) {
      switch (clause.kind) {
      case ClauseKind::Marker:
         if (clause.marker == NodeKind::If)
            use(clause.condition, point);
         if (clause.marker == NodeKind::LoopBegin)
            open_loops.push_back(point);
         if (clause.marker == NodeKind::LoopEnd) {
            loops.push_back({open_loops.back(), point});
            open_loops.pop_back();
         }
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
               interval[dst].def = point;
               interval[dst].last_use = std::max(interval[dst].last_use, point);
               order.push_back(dst);
               if (op.copies > 1)
                  max_chan[dst] = int(op.copies) - 1;
               else if (op.slot < 4)
                  chan[dst] = op.slot;
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
               interval[v].def = point;
               interval[v].last_use = std::max(interval[v].last_use, point);
               avoid_gprs_of[v] = sources;
               order.push_back(v);
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

   /* A value defined before a loop and read inside it is read again by every iteration: it
    * lives to the loop's end. Nested loops can extend it again, hence the repetition. */
   for (bool changed = true; changed;) {
      changed = false;
      for (size_t v = 0; v < count; v++) {
         for (const auto &[start, end] : loops) {
            if (interval[v].def < start && interval[v].last_use >= start && interval[v].last_use < end) {
               interval[v].last_use = end;
               changed = true;
            }
         }
      }
   }

   /* busy[g][c]: the last point at which GPR g channel c is read by its current holder;
    * holder_def[g][c]: where that holder was written. A channel can be given to a value written
    * in the group that last reads it (a group reads all its operands before it writes), but
    * never to two values written in one group. */
   std::vector<std::array<int, 4>> busy(max_gprs, {-2, -2, -2, -2});
   std::vector<std::array<int, 4>> holder_def(max_gprs, {-2, -2, -2, -2});
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
      const int def = interval[v].def;
      return busy[g][c] < def || (busy[g][c] == def && holder_def[g][c] < def);
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
            busy[g][c] = std::max(busy[g][c], interval[m].last_use);
            holder_def[g][c] = interval[m].def;
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
         busy[info.fixed_gpr][info.fixed_chan] =
            info.whole_program ? std::numeric_limits<int>::max()
                               : std::max(busy[info.fixed_gpr][info.fixed_chan], interval[v].last_use);
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
            const int def = interval[v].def;
            if (busy[g][c] < def || (busy[g][c] == def && holder_def[g][c] < def)) {
               best_gpr = int(g), best_chan = c;
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
      busy[best_gpr][best_chan] = interval[v].last_use;
      holder_def[best_gpr][best_chan] = interval[v].def;
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

} // namespace

bool allocate_registers(const SelectedProgram &selected, ScheduledProgram &scheduled,
                        Allocation &allocation, std::string &error)
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
      if (assign_registers(values, scheduled, allocation, live))
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

} // namespace terakan::compiler
