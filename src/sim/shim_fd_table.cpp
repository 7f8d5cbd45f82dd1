/* Keeps drm-shim's table of simulated file descriptors right for every process the shim is
 * preloaded into, including programs that never touch the render node (shells, cat, python).
 *
 * drm-shim (Mesa 22.3's src/drm-shim) remembers which descriptors stand for the simulated node
 * in a Mesa hash table keyed by `fd + 1`, and updates it from its own open(), close(), dup() and
 * fcntl(F_DUPFD) wrappers. Two gaps made ordinary programs abort or misbehave:
 *
 * 1. close(-1) aborted the process. Closing -1 is harmless to the kernel (EBADF), and programs
 *    do it: dash, for one, calls close(-1) after forking the last stage of a pipeline, so
 *    `sh -c 'echo x | cat'` died in the parent shell. drm-shim's close() asks the table
 *    to forget descriptor -1, whose key -1 + 1 is 0: the NULL key Mesa's hash table reserves
 *    for empty slots, so the table's lookup asserts (`hash_table_search: Assertion
 *    !key_pointer_is_reserved(ht, key)`). The same would happen if fcntl(F_DUPFD) failed on a
 *    simulated descriptor (drm-shim registers the -1 it got back).
 * 2. dup2() and dup3() are not wrapped: a descriptor number that another file was duplicated
 *    onto stayed "simulated" (its ioctls and fstat went to the simulator), and a duplicate of
 *    the render node made that way was not simulated. close_range() and closefrom() likewise
 *    left closed numbers in the table.
 *
 * Mesa is a dependency we do not patch, so the shim's link (src/sim/meson.build) passes
 * `--wrap=drm_shim_fd_register --wrap=drm_shim_fd_unregister`: drm-shim's own wrappers then
 * call the functions below, which refuse negative descriptors (no table entry can exist for
 * one), and this file adds the missing libc wrappers. tests/scripts/shim_processes_test.py runs
 * pipelines, redirections and descriptor juggling with the shim preloaded. */
#include <dlfcn.h>

#include <cerrno>
#include <cstdint>
#include <vector>

extern "C" {
#include "drm-shim/drm_shim.h"
#include "util/hash_table.h"
}

extern "C" {

/* drm-shim's originals, reached through the linker's --wrap. */
void __real_drm_shim_fd_register(int fd, struct shim_fd *shim_fd);
void __real_drm_shim_fd_unregister(int fd);
/* sim_radeon_shim.cpp: returns once the simulated GPU has run everything accepted so far. */
void terakan_sim_finish_queued_work(void);

void __wrap_drm_shim_fd_register(int fd, struct shim_fd *shim_fd)
{
   if (fd < 0)
      return; /* a failed duplication: there is no descriptor to remember */
   __real_drm_shim_fd_register(fd, shim_fd);
}

void __wrap_drm_shim_fd_unregister(int fd)
{
   if (fd < 0)
      return; /* close(-1) and friends: never registered, and -1 + 1 is the reserved key */
   /* The last close of a node gives its buffers back; queued work may still use them. */
   terakan_sim_finish_queued_work();
   __real_drm_shim_fd_unregister(fd);
}

} // extern "C"

namespace {

/* libc's definition (the next one after this library). glibc 2.34 has all four. */
template <typename Function> Function *next_definition(const char *name)
{
   return reinterpret_cast<Function *>(dlsym(RTLD_NEXT, name));
}

/* drm-shim creates its table the first time any of its wrappers runs; before that no
 * descriptor can be simulated. */
bool table_exists()
{
   return shim_device.fd_map != nullptr;
}

/* After `from` was duplicated onto `to` (and whatever `to` was is closed): `to` is simulated
 * exactly when `from` is. */
void follow_duplication(int from, int to)
{
   if (from == to || to < 0 || !table_exists())
      return;
   drm_shim_fd_unregister(to);
   if (struct shim_fd *simulated = drm_shim_fd_lookup(from))
      drm_shim_fd_register(to, simulated);
}

void forget_range(unsigned first, unsigned last)
{
   if (!table_exists())
      return;
   std::vector<int> closed;
   hash_table_foreach(shim_device.fd_map, entry) {
      /* keys are fd + 1 (see above) */
      const int fd = int(reinterpret_cast<uintptr_t>(entry->key)) - 1;
      if (fd >= 0 && unsigned(fd) >= first && unsigned(fd) <= last)
         closed.push_back(fd);
   }
   for (int fd : closed)
      drm_shim_fd_unregister(fd);
}

} // namespace

/* noexcept: glibc's <unistd.h> declares these __THROW, which C++ sees as noexcept. */
extern "C" {

__attribute__((visibility("default"))) int dup2(int from, int to) noexcept
{
   static auto *real = next_definition<int(int, int)>("dup2");
   if (!real)
      return errno = ENOSYS, -1;
   const int result = real(from, to);
   if (result >= 0)
      follow_duplication(from, result);
   return result;
}

__attribute__((visibility("default"))) int dup3(int from, int to, int flags) noexcept
{
   static auto *real = next_definition<int(int, int, int)>("dup3");
   if (!real)
      return errno = ENOSYS, -1;
   const int result = real(from, to, flags);
   if (result >= 0)
      follow_duplication(from, result);
   return result;
}

/* CLOSE_RANGE_CLOEXEC only marks the descriptors; they stay open until an exec, which starts a
 * fresh table anyway. */
__attribute__((visibility("default"))) int close_range(unsigned first, unsigned last, int flags) noexcept
{
   static auto *real = next_definition<int(unsigned, unsigned, int)>("close_range");
   if (!real)
      return errno = ENOSYS, -1;
   const int result = real(first, last, flags);
   constexpr int close_range_cloexec = 1 << 2; /* linux/close_range.h */
   if (result == 0 && !(flags & close_range_cloexec))
      forget_range(first, last);
   return result;
}

__attribute__((visibility("default"))) void closefrom(int lowest) noexcept
{
   static auto *real = next_definition<void(int)>("closefrom");
   if (real)
      real(lowest);
   else
      close_range(unsigned(lowest), ~0u, 0);
   if (lowest >= 0)
      forget_range(unsigned(lowest), ~0u);
}

} // extern "C"
