/* Preloaded into vkcube-wayland by vkcube_test.py --wayland: takes a screenshot of the
 * compositor's output right after the client's Nth wl_surface.commit.
 *
 * On Wayland a client's surface disappears with the client, so, unlike X (keep_window.c), the
 * picture cannot be read after vkcube exits; and a screenshot taken at some moment of the run
 * shows whichever frame happened to be there. vkcube turns the cube by a fixed angle per frame,
 * so the frame of a given commit is deterministic. Every request a client sends goes through
 * libwayland-client's wl_proxy_marshal_flags (the protocol headers' inline functions call it),
 * so this library provides that function: it decodes the arguments from the method's signature,
 * hands them to the real wl_proxy_marshal_array_flags, and counts wl_surface commits. After
 * commit number TERAKAN_SCREENSHOT_COMMIT it waits until the compositor has processed the
 * commit (a round trip on a private queue) and runs `weston-screenshooter` in
 * TERAKAN_SCREENSHOT_DIR, which asks weston for a repaint and writes the output as a PNG; the
 * client is blocked meanwhile, so the frame stays. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wayland-client-core.h>

/* wl_surface.commit is request 6 of wl_surface (wayland.xml). */
enum { wl_surface_commit_opcode = 6 };

static unsigned commits_seen;
/* Others connect too (the loader's and drivers' presentation-support probes connect and
 * disconnect at start-up): keep every live display; the client's is the oldest one. */
static struct wl_display *live_displays[16];

/* The display the round trip below goes through (libwayland 1.21 has no public way from a
 * proxy to its display): the oldest one still connected. */
struct wl_display *wl_display_connect(const char *name)
{
   typedef struct wl_display *(*connect_function)(const char *);
   static connect_function real_connect;
   if (!real_connect)
      real_connect = (connect_function)dlsym(RTLD_NEXT, "wl_display_connect");
   struct wl_display *display = real_connect(name);
   for (unsigned i = 0; display && i < sizeof(live_displays) / sizeof(live_displays[0]); i++) {
      if (!live_displays[i]) {
         live_displays[i] = display;
         break;
      }
   }
   return display;
}

void wl_display_disconnect(struct wl_display *display)
{
   typedef void (*disconnect_function)(struct wl_display *);
   static disconnect_function real_disconnect;
   if (!real_disconnect)
      real_disconnect = (disconnect_function)dlsym(RTLD_NEXT, "wl_display_disconnect");
   for (unsigned i = 0; i < sizeof(live_displays) / sizeof(live_displays[0]); i++)
      if (live_displays[i] == display)
         live_displays[i] = NULL;
   real_disconnect(display);
}

static void screenshot_now(void)
{
   const char *folder = getenv("TERAKAN_SCREENSHOT_DIR");
   struct wl_display *connected_display = NULL;
   for (unsigned i = 0; !connected_display && i < sizeof(live_displays) / sizeof(live_displays[0]); i++)
      connected_display = live_displays[i];
   if (!connected_display || !folder) {
      fprintf(stderr, "wayland_screenshot: no display or no TERAKAN_SCREENSHOT_DIR\n");
      return;
   }
   /* The commit is queued in the client's buffer: send it and wait until the compositor has
    * answered a sync sent after it, on a queue of our own so no client event is dispatched. */
   struct wl_event_queue *queue = wl_display_create_queue(connected_display);
   if (wl_display_roundtrip_queue(connected_display, queue) < 0)
      fprintf(stderr, "wayland_screenshot: the round trip failed\n");
   wl_event_queue_destroy(queue);

   const pid_t child = fork();
   if (child == 0) {
      if (chdir(folder) != 0)
         _exit(126);
      execlp("weston-screenshooter", "weston-screenshooter", (char *)NULL);
      _exit(127);
   }
   int status = 0;
   if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
       WEXITSTATUS(status) != 0)
      fprintf(stderr, "wayland_screenshot: weston-screenshooter failed (status %d)\n", status);
}

/* The arguments of one request, read from the variable list by the method's signature
 * ("?" marks a nullable argument and digits the version: neither is an argument). */
static int read_arguments(const char *signature, va_list list, union wl_argument *arguments)
{
   int count = 0;
   for (const char *c = signature; *c; c++) {
      switch (*c) {
      case 'i': arguments[count++].i = va_arg(list, int32_t); break;
      case 'u': arguments[count++].u = va_arg(list, uint32_t); break;
      case 'f': arguments[count++].f = va_arg(list, wl_fixed_t); break;
      case 's': arguments[count++].s = va_arg(list, const char *); break;
      case 'o': arguments[count++].o = va_arg(list, struct wl_object *); break;
      case 'n': arguments[count++].o = va_arg(list, struct wl_object *); break;
      case 'a': arguments[count++].a = va_arg(list, struct wl_array *); break;
      case 'h': arguments[count++].h = va_arg(list, int32_t); break;
      default: break;
      }
   }
   return count;
}

struct wl_proxy *wl_proxy_marshal_flags(struct wl_proxy *proxy, uint32_t opcode,
                                        const struct wl_interface *interface, uint32_t version,
                                        uint32_t flags, ...)
{
   /* WL_CLOSURE_MAX_ARGS in libwayland is 20. */
   union wl_argument arguments[20];
   memset(arguments, 0, sizeof(arguments));
   /* The proxy's own interface, whose method signature says how to read the arguments: a
    * wl_proxy starts with its wl_object, which starts with the interface (wayland-private.h,
    * unchanged since libwayland 1.0; 1.21 has no wl_proxy_get_interface). */
   const struct wl_interface *own = *(const struct wl_interface *const *)proxy;
   va_list list;
   va_start(list, flags);
   read_arguments(own->methods[opcode].signature, list, arguments);
   va_end(list);

   const int is_commit = strcmp(wl_proxy_get_class(proxy), "wl_surface") == 0 &&
                         opcode == wl_surface_commit_opcode;
   struct wl_proxy *result =
      wl_proxy_marshal_array_flags(proxy, opcode, interface, version, flags, arguments);
   if (is_commit) {
      const char *wanted = getenv("TERAKAN_SCREENSHOT_COMMIT");
      if (wanted && ++commits_seen == (unsigned)atoi(wanted))
         screenshot_now();
   }
   return result;
}
