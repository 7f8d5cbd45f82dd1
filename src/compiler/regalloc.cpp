/* Register allocation: linear scan over the scheduled program, one GPR channel per value.
 *
 * Program points: each ALU group, fetch and store is one point. A value lives from the point
 * that defines it to its last read; a channel is reused by a value written in (or after) the
 * group of the previous holder's last read, since a group reads before it writes. emit.cpp
 * respects that when it has to split a group. Vector-slot results have the channel of their slot; t-slot and Cayman
 * replicated results and fetches take the channel that keeps the GPR count lowest.
 *
 * Fewer GPRs means more wavefronts per SIMD; there is no spilling yet, so a program that needs
 * more than the hardware has is refused. */
#include <algorithm>
#include <limits>
#include <set>

#include "backend_ir.h"

namespace terakan::compiler {
namespace {

/* 128 GPRs per thread, less the clause temporaries a driver keeps (Mesa r600 reserves 4 on
 * Evergreen and Cayman; SQ_GPR_RESOURCE_MGMT). */
constexpr unsigned max_gprs = 124;

struct Interval {
   int def = -1, last_use = -1;
};

} // namespace

bool allocate_registers(const SelectedProgram &selected, ScheduledProgram &scheduled,
                        Allocation &allocation, std::string &error)
{
   const size_t count = selected.values.size();
   std::vector<Interval> interval(count);
   std::vector<int> chan(count, -1);          /* fixed by a vector slot */
   std::vector<int> max_chan(count, 3);       /* Cayman replicated: only the copies' channels */
   std::vector<std::vector<unsigned>> avoid_gprs_of(count); /* fetch hazard (below) */

   auto use = [&](unsigned value, int point) {
      interval[value].last_use = std::max(interval[value].last_use, point);
   };
   std::vector<unsigned> order; /* values by definition point */
   for (size_t v = 0; v < count; v++) {
      if (selected.values[v].fixed_gpr >= 0) {
         interval[v].def = -1;
         order.push_back(unsigned(v));
      }
   }

   int point = 0;
   std::vector<std::pair<int, int>> loops; /* [start, end] points */
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
      const int group = selected.values[v].gpr_group;
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
      const std::vector<unsigned> &members = groups[selected.values[first].gpr_group];
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
            fits = fits && channel_free(g, unsigned(selected.values[m].required_chan), m);
         if (!fits)
            continue;
         for (unsigned m : members) {
            const unsigned c = unsigned(selected.values[m].required_chan);
            placed[m] = true;
            allocation.location[m] = {g, c};
            busy[g][c] = std::max(busy[g][c], interval[m].last_use);
            holder_def[g][c] = interval[m].def;
         }
         allocation.gprs = std::max(allocation.gprs, g + 1);
         return true;
      }
      error = "the shader needs more than " + std::to_string(max_gprs) +
              " registers; spilling is not implemented yet";
      return false;
   };

   for (unsigned v : order) {
      if (placed[v])
         continue;
      placed[v] = true;
      const ValueInfo &info = selected.values[v];
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
         error = "the shader needs more than " + std::to_string(max_gprs) +
                 " registers; spilling is not implemented yet";
         return false;
      }
      allocation.location[v] = {unsigned(best_gpr), unsigned(best_chan)};
      busy[best_gpr][best_chan] = interval[v].last_use;
      holder_def[best_gpr][best_chan] = interval[v].def;
      allocation.gprs = std::max(allocation.gprs, unsigned(best_gpr) + 1);
   }
   return true;
}

} // namespace terakan::compiler
