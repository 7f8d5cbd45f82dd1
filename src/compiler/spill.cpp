/* Register spilling: moving a value of the scheduled program to the scratch ring (spill.h).
 *
 * The rewrite works on the scheduled program, after the scheduler, so that where a reload goes
 * is decided here and nothing moves it up again (the scheduler hoists fetches to the top of
 * their segment, which would bring the pressure back: docs/compiler.md "Spilling"). The spill
 * store and the reloads use the private arrays' scratch instructions (docs/compiler.md
 * "Scratch"): MEM_SCRATCH with an acknowledgement, and WAIT_ACK before each READ_SCRATCH
 * clause, which orders every reload after the store before it. */
#include "spill.h"

#include <algorithm>
#include <array>
#include <climits>
#include <map>

#include "compiler/isa/opcodes.h"

namespace terakan::compiler {
namespace {

/* The group pops an LDS result (LDS_OQ_A_POP): it must stay in the clause of the LDS operation
 * in the group before it. */
bool reads_lds_queue(const ScheduledGroup &group)
{
   for (const ScheduledAlu &op : group.ops)
      for (unsigned s = 0; s < op.op.op->sources; s++)
         if (op.op.src[s].kind == OperandKind::LdsQueue)
            return true;
   return false;
}

bool group_reads(const ScheduledGroup &group, unsigned value)
{
   for (const ScheduledAlu &op : group.ops)
      for (unsigned s = 0; s < op.op.op->sources; s++)
         if (op.op.src[s].is_value() && op.op.src[s].value == value)
            return true;
   return false;
}

bool group_defines(const ScheduledGroup &group, unsigned value)
{
   return std::any_of(group.ops.begin(), group.ops.end(), [&](const ScheduledAlu &op) { return op.op.dst == value; });
}

void replace_in_group(ScheduledGroup &group, unsigned value, unsigned by)
{
   for (ScheduledAlu &op : group.ops)
      for (unsigned s = 0; s < op.op.op->sources; s++)
         if (op.op.src[s].is_value() && op.op.src[s].value == value)
            op.op.src[s].value = by;
}

/* Replaces `value` in the fields of `v...`; true if any held it. */
template <typename... Fields> bool replace_fields(unsigned value, unsigned by, Fields &...fields)
{
   bool found = false;
   auto one = [&](unsigned &field) {
      if (field == value) {
         field = by;
         found = true;
      }
   };
   (one(fields), ...);
   return found;
}

bool replace_in_fetch(FetchOp &fetch, unsigned value, unsigned by)
{
   bool found = replace_fields(value, by, fetch.address);
   if (fetch.is_texture()) {
      TextureFetch &t = fetch.texture;
      for (auto *list : {&t.coords, &t.gradients_h, &t.gradients_v})
         for (unsigned &v : *list)
            found = replace_fields(value, by, v) || found;
   }
   return found;
}

bool replace_in_store(StoreOp &store, unsigned value, unsigned by)
{
   return replace_fields(value, by, store.data, store.index, store.return_index, store.compare, store.compare_z,
                         store.data_yzw[0], store.data_yzw[1], store.data_yzw[2], store.index_yzw[0],
                         store.index_yzw[1], store.index_yzw[2]);
}

Clause spill_store(unsigned value)
{
   Clause clause;
   clause.kind = ClauseKind::Store;
   clause.store.scratch = true;
   clause.store.spill = true;
   clause.store.data = value; /* moved to the position of its channel by place_spill_slots */
   return clause;
}

Clause reload(unsigned value, unsigned into)
{
   FetchOp fetch;
   fetch.wait_ack = true;
   fetch.reload_of = value;
   fetch.texture.op = isa::find_fetch_op("READ_SCRATCH");
   fetch.texture.results[0] = into; /* moved to the stored channel by place_spill_slots */
   Clause clause;
   clause.kind = ClauseKind::Fetch;
   clause.fetches.push_back(fetch);
   return clause;
}

} // namespace

bool spill_value(ScheduledProgram &program, std::vector<ValueInfo> &values, unsigned value)
{
   const size_t values_before = values.size();
   auto new_reload_value = [&] {
      ValueInfo info;
      info.required_chan = values[value].required_chan;
      values.push_back(info);
      return unsigned(values.size() - 1);
   };
   std::vector<Clause> out;
   out.reserve(program.clauses.size() + 8);
   bool defined = false;
   auto give_up = [&] {
      values.resize(values_before);
      return false;
   };

   for (const Clause &clause : program.clauses) {
      switch (clause.kind) {
      case ClauseKind::Alu: {
         const std::vector<ScheduledGroup> &groups = clause.groups;
         const int n = int(groups.size());
         std::vector<bool> store_after(n, false), reload_before(n, false);
         int stored_at = -1;
         for (int i = 0; i < n; i++) {
            if (group_defines(groups[i], value)) {
               int d = i;
               while (d + 1 < n && reads_lds_queue(groups[d + 1]))
                  d++;
               store_after[d] = true;
               stored_at = d;
               defined = true;
            }
         }
         /* One reload serves the reads of the reload_window groups from its own; it goes
          * before the first of them (before the LDS operation whose result that group
          * pops, if it pops one). */
         int last_reload = INT_MIN / 2;
         for (int i = 0; i < n; i++) {
            if (!group_reads(groups[i], value) || i - last_reload <= int(reload_window))
               continue;
            int k = i;
            while (k > 0 && reads_lds_queue(groups[k]))
               k--;
            if (stored_at >= 0 && k <= stored_at)
               return give_up();
            reload_before[k] = true;
            last_reload = k;
         }
         Clause part;
         part.kind = ClauseKind::Alu;
         part.kcache = clause.kcache; /* what the whole clause locked covers each part */
         auto flush = [&] {
            if (!part.groups.empty())
               out.push_back(part);
            part.groups.clear();
         };
         unsigned current = no_value;
         for (int i = 0; i < n; i++) {
            if (reload_before[i]) {
               flush();
               current = new_reload_value();
               out.push_back(reload(value, current));
            }
            ScheduledGroup group = groups[i];
            if (group_reads(group, value)) {
               if (current == no_value)
                  return give_up();
               replace_in_group(group, value, current);
            }
            part.groups.push_back(std::move(group));
            if (store_after[i]) {
               flush();
               out.push_back(spill_store(value));
            }
         }
         flush();
         break;
      }
      case ClauseKind::Fetch: {
         /* A reload in a clause of its own before the clause: a fetch may not read what an
          * earlier fetch of its clause wrote. */
         Clause copy = clause;
         const unsigned r = unsigned(values.size());
         bool reads = false;
         for (FetchOp &fetch : copy.fetches)
            reads = replace_in_fetch(fetch, value, r) || reads;
         if (reads) {
            new_reload_value();
            out.push_back(reload(value, r));
         }
         out.push_back(std::move(copy));
         bool defines = false;
         for (const FetchOp &fetch : clause.fetches) {
            const std::vector<unsigned> results = fetch.results();
            defines = defines || std::count(results.begin(), results.end(), value) > 0;
         }
         if (defines) {
            out.push_back(spill_store(value));
            defined = true;
         }
         break;
      }
      case ClauseKind::Store: {
         Clause copy = clause;
         const unsigned r = unsigned(values.size());
         if (replace_in_store(copy.store, value, r)) {
            new_reload_value();
            out.push_back(reload(value, r));
         }
         out.push_back(std::move(copy));
         break;
      }
      case ClauseKind::Export: {
         Clause copy = clause;
         const unsigned r = unsigned(values.size());
         bool reads = false;
         for (unsigned &v : copy.exported.values)
            reads = replace_fields(value, r, v) || reads;
         if (reads) {
            new_reload_value();
            out.push_back(reload(value, r));
         }
         out.push_back(std::move(copy));
         break;
      }
      case ClauseKind::Marker: {
         Clause copy = clause;
         if (copy.marker == NodeKind::If && copy.condition == value) {
            const unsigned r = new_reload_value();
            out.push_back(reload(value, r));
            copy.condition = r;
         }
         out.push_back(std::move(copy));
         break;
      }
      }
   }
   if (!defined)
      return give_up();
   program.clauses = std::move(out);
   return true;
}

unsigned place_spill_slots(ScheduledProgram &program, const Allocation &allocation, unsigned first_element)
{
   std::map<unsigned, unsigned> element_of;
   std::array<unsigned, 4> used{};
   auto element = [&](unsigned value) {
      const auto [at, inserted] = element_of.try_emplace(value, 0);
      if (inserted)
         at->second = first_element + used[allocation.location[value].chan]++;
      return at->second;
   };
   for (Clause &clause : program.clauses) {
      if (clause.kind == ClauseKind::Store && clause.store.spill) {
         StoreOp &store = clause.store;
         const unsigned value = store.data;
         const unsigned chan = allocation.location[value].chan;
         store.data = no_value;
         (chan ? store.data_yzw[chan - 1] : store.data) = value;
         store.scratch_element = element(value);
      }
      if (clause.kind != ClauseKind::Fetch)
         continue;
      for (FetchOp &fetch : clause.fetches) {
         if (fetch.reload_of == no_value)
            continue;
         const unsigned into = fetch.texture.results[0];
         fetch.texture.results = {no_value, no_value, no_value, no_value};
         fetch.texture.results[allocation.location[fetch.reload_of].chan] = into;
         fetch.texture.offset = element(fetch.reload_of);
      }
   }
   return *std::max_element(used.begin(), used.end());
}

} // namespace terakan::compiler
