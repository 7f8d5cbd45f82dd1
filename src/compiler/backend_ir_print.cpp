/* Text form of the backend IR, for TERAKAN_DEBUG=ir. */
#include "backend_ir_print.h"

#include <cstdio>
#include <sstream>

namespace terakan::compiler {
namespace {

std::string operand_text(const Operand &o)
{
   std::ostringstream text;
   if (o.neg)
      text << '-';
   if (o.abs)
      text << '|';
   switch (o.kind) {
   case OperandKind::None: text << "_"; break;
   case OperandKind::Value: text << 'v' << o.value; break;
   case OperandKind::Literal: text << "0x" << std::hex << o.value << std::dec; break;
   case OperandKind::Kcache: text << "cb" << o.bank << "[" << o.value << "]"; break;
   case OperandKind::Inline: text << "inline" << o.value; break;
   case OperandKind::Descriptor: text << "binding" << o.value; break;
   case OperandKind::LdsQueue: text << "lds_queue"; break;
   case OperandKind::Param: text << "param" << o.value << '.' << "xyzw"[o.bank & 3]; break;
   }
   if (o.abs)
      text << '|';
   return text.str();
}

std::string alu_text(const AluOp &op)
{
   std::ostringstream text;
   text << (op.dst == no_value ? std::string("_") : "v" + std::to_string(op.dst)) << " = "
        << op.op->name << (op.clamp ? "_sat" : "");
   for (unsigned s = 0; s < op.op->sources; s++)
      text << (s ? ", " : " ") << operand_text(op.src[s]);
   return text.str();
}

const char *marker_name(NodeKind kind)
{
   switch (kind) {
   case NodeKind::If: return "if";
   case NodeKind::Else: return "else";
   case NodeKind::EndIf: return "endif";
   case NodeKind::LoopBegin: return "loop";
   case NodeKind::LoopEnd: return "endloop";
   case NodeKind::Break: return "break";
   case NodeKind::Continue: return "continue";
   case NodeKind::WaitAck: return "wait_ack";
   default: return "?";
   }
}

/* A store: RAT stores and atomics, or a MEM_SCRATCH of the channels it writes. */
std::string store_text(const StoreOp &store)
{
   std::ostringstream text;
   if (store.scratch) {
      text << "scratch[" << store.scratch_element;
      if (store.index != no_value)
         text << " + v" << store.index;
      text << "] = (";
      for (unsigned c = 0; c < 4; c++) {
         const unsigned v = c ? store.data_yzw[c - 1] : store.data;
         text << (c ? "," : "") << (v == no_value ? std::string("_") : "v" + std::to_string(v));
      }
      text << ')';
      return text.str();
   }
   text << (store.atomic ? store.atomic : "store") << " rat" << store.binding << "[v" << store.index << "], v"
        << store.data;
   return text.str();
}

std::string fetch_text(const FetchOp &fetch)
{
   std::ostringstream text;
   if (!fetch.is_texture()) {
      text << 'v' << fetch.dst << " = fetch buffer" << fetch.binding << "[v" << fetch.address
           << " + " << fetch.offset << "]";
      return text.str();
   }
   const TextureFetch &t = fetch.texture;
   auto list = [&](const std::array<unsigned, 4> &values) {
      text << '(';
      for (unsigned c = 0; c < 4; c++)
         text << (c ? "," : "") << (values[c] == no_value ? std::string("_") : "v" + std::to_string(values[c]));
      text << ')';
   };
   list(t.results);
   text << " = " << t.op->name << " resource" << t.resource << " sampler" << t.sampler << ' ';
   list(t.coords);
   if (t.record >= 0)
      text << " record" << t.record;
   return text.str();
}

} // namespace

static std::string export_text(const ExportOp &e)
{
   static const char *types[] = {"pixel", "pos", "param"};
   std::ostringstream text;
   if (e.stream)
      text << "mem_stream0_buf" << unsigned(e.stream_buffer) << " mask" << unsigned(e.stream_mask) << " dword" << e.base
           << " (";
   else
      text << (e.done ? "export_done " : "export ") << types[e.type % 3] << e.base << " (";
   for (unsigned c = 0; c < 4; c++) {
      if (c)
         text << ", ";
      if (e.values[c] != no_value)
         text << 'v' << e.values[c];
      else
         text << (e.select[c] == 4 ? "0" : e.select[c] == 5 ? "1" : "_");
   }
   text << ')';
   return text.str();
}

std::string print_selected(const SelectedProgram &program)
{
   std::ostringstream text;
   for (size_t i = 0; i < program.nodes.size(); i++) {
      const Node &node = program.nodes[i];
      text << "  " << i << ": ";
      switch (node.kind) {
      case NodeKind::Alu: text << alu_text(node.alu); break;
      case NodeKind::Fetch:
         text << fetch_text(node.fetch);
         break;
      case NodeKind::Store:
         text << store_text(node.store);
         break;
      case NodeKind::Export: text << export_text(node.exported); break;
      default:
         text << marker_name(node.kind);
         if (node.kind == NodeKind::If && node.condition != no_value)
            text << (node.invert ? " !v" : " v") << node.condition;
         break;
      }
      if (!node.after.empty()) {
         text << "   (after";
         for (unsigned a : node.after)
            text << ' ' << a;
         text << ')';
      }
      text << '\n';
   }
   return text.str();
}

std::string print_scheduled(const ScheduledProgram &program)
{
   std::ostringstream text;
   static const char slots[] = "xyzwt";
   for (const Clause &clause : program.clauses) {
      switch (clause.kind) {
      case ClauseKind::Alu:
         text << "  alu clause, " << clause.groups.size() << " groups\n";
         for (const ScheduledGroup &group : clause.groups) {
            text << "    {";
            for (size_t k = 0; k < group.ops.size(); k++)
               text << (k ? "; " : " ") << slots[group.ops[k].slot]
                    << (group.ops[k].copies > 1 ? "*" + std::to_string(group.ops[k].copies) : "")
                    << ": " << alu_text(group.ops[k].op);
            text << " }\n";
         }
         break;
      case ClauseKind::Fetch:
         text << "  fetch clause:";
         for (const FetchOp &fetch : clause.fetches)
            text << ' ' << fetch_text(fetch) << ';';
         text << '\n';
         break;
      case ClauseKind::Store:
         text << "  " << store_text(clause.store) << '\n';
         break;
      case ClauseKind::Export:
         text << "  " << export_text(clause.exported) << '\n';
         break;
      case ClauseKind::Marker:
         text << "  " << marker_name(clause.marker);
         if (clause.marker == NodeKind::If && clause.condition != no_value)
            text << (clause.invert ? " !v" : " v") << clause.condition;
         text << '\n';
         break;
      }
   }
   return text.str();
}

} // namespace terakan::compiler
