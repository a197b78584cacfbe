// Process-wide settings of avcapture that Swift cannot reach: prctl(2), which is variadic, and C's
// standard output stream, a global Swift 6 does not let code touch.
#ifndef CPROCESSSETTINGS_H
#define CPROCESSSETTINGS_H

#ifdef __cplusplus
extern "C" {
#endif

/// Asks the kernel to back this process's memory, and its children's, with ordinary pages rather
/// than transparent huge pages (PR_SET_THP_DISABLE); 0 when it did, else -1 with errno set.
int cps_use_ordinary_pages(void);

/// Makes C's standard output stream (Swift's `print`) write each line as it ends, even to a pipe
/// or a file; call it before anything is printed.
void cps_line_buffer_standard_output(void);

#ifdef __cplusplus
}
#endif
#endif
