/* ShaderBinary <-> bytes, for Vulkan pipeline caches (Mesa's blob writer and reader). */
#include "compiler.h"

#include "util/blob.h"

namespace terakan::compiler {

/* Bumped whenever the layout below changes; old cache entries are then refused. */
static constexpr uint32_t binary_layout_version = 16;

template <typename T> static void write_list(struct blob &blob, const std::vector<T> &list)
{
   blob_write_uint32(&blob, uint32_t(list.size()));
   for (T value : list)
      blob_write_uint32(&blob, uint32_t(value));
}

template <typename T>
static bool read_list(struct blob_reader &reader, size_t limit, std::vector<T> &list)
{
   const uint32_t count = blob_read_uint32(&reader);
   if (reader.overrun || count > limit)
      return false;
   for (uint32_t i = 0; i < count; i++)
      list.push_back(T(blob_read_uint32(&reader)));
   return !reader.overrun;
}

/* The transform feedback strides: a list of exactly four. */
static bool read_xfb_strides(struct blob_reader &reader, GraphicsInterface &g)
{
   std::vector<uint32_t> strides;
   if (!read_list(reader, 4, strides) || strides.size() != 4)
      return false;
   std::copy(strides.begin(), strides.end(), g.xfb_strides.begin());
   return true;
}

/* The graphics interface: scalars in declaration order, then the lists. */
static void write_graphics(struct blob &blob, const GraphicsInterface &g)
{
   for (uint32_t value : {uint32_t(g.stage), g.instance_rate_inputs, uint32_t(g.writes_point_size),
                          g.spi_vs_out_config, g.pa_cl_vs_out_cntl, g.spi_ps_in_control_0,
                          g.spi_ps_in_control_1, g.spi_baryc_cntl, g.spi_input_z, g.sq_pgm_exports_ps,
                          g.db_shader_control, g.cb_shader_mask, g.colour_exports, g.spi_interp_control_0,
                          uint32_t(g.uses_kill), uint32_t(g.uses_vertex_order),
                          uint32_t(g.sample_shading), g.noperspective_inputs, uint32_t(g.reads_distances)})
      blob_write_uint32(&blob, value);
   write_list(blob, g.vertex_inputs);
   write_list(blob, g.param_semantics);
   write_list(blob, g.param_locations);
   write_list(blob, g.spi_ps_input_cntl);
   write_list(blob, g.input_locations);
   write_list(blob, std::vector<uint32_t>(g.xfb_strides.begin(), g.xfb_strides.end()));
}

static bool read_graphics(struct blob_reader &reader, size_t limit, GraphicsInterface &g)
{
   const uint32_t stage = blob_read_uint32(&reader);
   if (stage > uint32_t(ShaderStage::Fragment))
      return false;
   g.stage = ShaderStage(stage);
   g.instance_rate_inputs = blob_read_uint32(&reader);
   g.writes_point_size = blob_read_uint32(&reader) != 0;
   for (uint32_t *value : {&g.spi_vs_out_config, &g.pa_cl_vs_out_cntl, &g.spi_ps_in_control_0,
                           &g.spi_ps_in_control_1, &g.spi_baryc_cntl, &g.spi_input_z, &g.sq_pgm_exports_ps,
                           &g.db_shader_control, &g.cb_shader_mask, &g.colour_exports, &g.spi_interp_control_0})
      *value = blob_read_uint32(&reader);
   g.uses_kill = blob_read_uint32(&reader) != 0;
   g.uses_vertex_order = blob_read_uint32(&reader) != 0;
   g.sample_shading = blob_read_uint32(&reader) != 0;
   g.noperspective_inputs = blob_read_uint32(&reader);
   g.reads_distances = blob_read_uint32(&reader) != 0;
   return !reader.overrun && read_list(reader, limit, g.vertex_inputs) &&
          read_list(reader, limit, g.param_semantics) && read_list(reader, limit, g.param_locations) &&
          read_list(reader, limit, g.spi_ps_input_cntl) && read_list(reader, limit, g.input_locations) &&
          read_xfb_strides(reader, g);
}

std::vector<uint8_t> serialize_binary(const ShaderBinary &b)
{
   struct blob blob;
   blob_init(&blob);
   blob_write_uint32(&blob, binary_layout_version);
   blob_write_uint32(&blob, uint32_t(b.isa));
   blob_write_uint32(&blob, uint32_t(b.code.size()));
   blob_write_bytes(&blob, b.code.data(), b.code.size() * 4);
   blob_write_uint32(&blob, b.gprs);
   blob_write_uint32(&blob, b.stack_entries);
   blob_write_uint32(&blob, b.lds_bytes);
   blob_write_uint32(&blob, b.scratch_dwords);
   for (unsigned size : b.workgroup_size)
      blob_write_uint32(&blob, size);
   blob_write_uint32(&blob, b.push_constant_bytes);
   blob_write_uint32(&blob, b.uses_driver_constants);
   blob_write_uint32(&blob, b.push_constants_fetched);
   blob_write_uint32(&blob, uint32_t(b.rat_slots.size()));
   for (unsigned slot : b.rat_slots)
      blob_write_uint32(&blob, slot);
   blob_write_uint32(&blob, uint32_t(b.sized_slots.size()));
   for (unsigned slot : b.sized_slots)
      blob_write_uint32(&blob, slot);
   write_list(blob, b.resource_size_slots);
   blob_write_uint32(&blob, b.rat_returns);
   blob_write_uint32(&blob, uint32_t(b.kcache_slots.size()));
   for (unsigned slot : b.kcache_slots)
      blob_write_uint32(&blob, slot);
   blob_write_uint32(&blob, uint32_t(b.fetches.size()));
   for (const FetchRecord &f : b.fetches) {
      blob_write_uint32(&blob, f.dword_offset);
      blob_write_uint32(&blob, f.binding);
      blob_write_uint32(&blob, uint32_t(f.sampler));
   }
   blob_write_uint32(&blob, uint32_t(b.sampler_records.size()));
   for (const SamplerRecord &r : b.sampler_records) {
      blob_write_uint32(&blob, r.set);
      blob_write_uint32(&blob, r.binding);
      blob_write_uint32(&blob, r.element);
      blob_write_uint32(&blob, r.bit);
      blob_write_uint32(&blob, r.dynamic);
      write_list(blob, r.tex_dword_offsets);
   }
   write_list(blob, b.texture_resources);
   write_list(blob, b.samplers);
   write_list(blob, b.image_rats);
   write_graphics(blob, b.graphics);
   blob_write_bytes(&blob, &b.statistics, sizeof(b.statistics));
   std::vector<uint8_t> bytes;
   if (!blob.out_of_memory)
      bytes.assign(blob.data, blob.data + blob.size);
   blob_finish(&blob);
   return bytes;
}

bool deserialize_binary(std::span<const uint8_t> data, ShaderBinary &b)
{
   struct blob_reader reader;
   blob_reader_init(&reader, data.data(), data.size());
   b = {};
   if (blob_read_uint32(&reader) != binary_layout_version)
      return false;
   b.isa = hw::IsaClass(blob_read_uint32(&reader));
   const uint32_t code_dwords = blob_read_uint32(&reader);
   if (reader.overrun || code_dwords > data.size() / 4)
      return false;
   b.code.resize(code_dwords);
   blob_copy_bytes(&reader, b.code.data(), code_dwords * 4);
   b.gprs = blob_read_uint32(&reader);
   b.stack_entries = blob_read_uint32(&reader);
   b.lds_bytes = blob_read_uint32(&reader);
   b.scratch_dwords = blob_read_uint32(&reader);
   for (unsigned &size : b.workgroup_size)
      size = blob_read_uint32(&reader);
   b.push_constant_bytes = blob_read_uint32(&reader);
   b.uses_driver_constants = blob_read_uint32(&reader);
   b.push_constants_fetched = blob_read_uint32(&reader);
   const uint32_t rats = blob_read_uint32(&reader);
   if (reader.overrun || rats > data.size())
      return false;
   for (uint32_t i = 0; i < rats; i++)
      b.rat_slots.push_back(blob_read_uint32(&reader));
   const uint32_t sized = blob_read_uint32(&reader);
   if (reader.overrun || sized > data.size())
      return false;
   for (uint32_t i = 0; i < sized; i++)
      b.sized_slots.push_back(blob_read_uint32(&reader));
   if (!read_list(reader, data.size(), b.resource_size_slots))
      return false;
   b.rat_returns = blob_read_uint32(&reader) != 0;
   const uint32_t kcached = blob_read_uint32(&reader);
   if (reader.overrun || kcached > data.size())
      return false;
   for (uint32_t i = 0; i < kcached; i++)
      b.kcache_slots.push_back(blob_read_uint32(&reader));
   const uint32_t fetches = blob_read_uint32(&reader);
   if (reader.overrun || fetches > data.size())
      return false;
   for (uint32_t i = 0; i < fetches; i++) {
      FetchRecord f;
      f.dword_offset = blob_read_uint32(&reader);
      f.binding = blob_read_uint32(&reader);
      f.sampler = int(blob_read_uint32(&reader));
      b.fetches.push_back(f);
   }
   const uint32_t records = blob_read_uint32(&reader);
   if (reader.overrun || records > max_sampler_records)
      return false;
   for (uint32_t i = 0; i < records; i++) {
      SamplerRecord r;
      r.set = blob_read_uint32(&reader);
      r.binding = blob_read_uint32(&reader);
      r.element = blob_read_uint32(&reader);
      r.bit = blob_read_uint32(&reader);
      r.dynamic = blob_read_uint32(&reader) != 0;
      if (!read_list(reader, data.size(), r.tex_dword_offsets))
         return false;
      b.sampler_records.push_back(std::move(r));
   }
   if (!read_list(reader, data.size(), b.texture_resources) ||
       !read_list(reader, data.size(), b.samplers) || !read_list(reader, data.size(), b.image_rats) ||
       !read_graphics(reader, data.size(), b.graphics))
      return false;
   blob_copy_bytes(&reader, &b.statistics, sizeof(b.statistics));
   return !reader.overrun && reader.current == reader.end;
}

} // namespace terakan::compiler
