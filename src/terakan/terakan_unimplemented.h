/* Reporting for Vulkan commands Terakan does not implement yet (see gen_unimplemented.py). */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* Logs "<command> is not implemented by Terakan yet" the first time it is called for a
 * command; `reported` is that command's own flag. */
void terakan_report_unimplemented(const char *command, int *reported);

#ifdef __cplusplus
}
#endif
