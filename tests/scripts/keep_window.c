/* Preloaded into vkcube by vkcube_test.py: keeps the last presented frame on the screen.
 *
 * vkcube destroys its window and disconnects when it has drawn its frames, and the X server then
 * repaints that area, so a screenshot taken after the run shows nothing and one taken during the
 * run shows whichever frame happened to be there. Here xcb_destroy_window leaves the window in
 * place and asks the server to keep the client's resources after it disconnects
 * (RetainPermanent), so the window, holding the last frame, outlives vkcube; the test reads it
 * back with xwd and then stops the server. */
#include <stdlib.h>
#include <xcb/xcb.h>

xcb_void_cookie_t xcb_destroy_window(xcb_connection_t *connection, xcb_window_t window)
{
   (void)window;
   /* Wait until the server has applied it: vkcube disconnects next, and a request still queued
    * or unread when the socket closes can be lost. */
   xcb_void_cookie_t cookie =
      xcb_set_close_down_mode_checked(connection, XCB_CLOSE_DOWN_RETAIN_PERMANENT);
   free(xcb_request_check(connection, cookie));
   return cookie;
}
