// Process-wide settings of avcapture (see CProcessSettings.h).
#include "CProcessSettings.h"

#include <stdio.h>
#include <sys/prctl.h>

int cps_use_ordinary_pages(void) { return prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0); }

void cps_line_buffer_standard_output(void) { setvbuf(stdout, NULL, _IOLBF, 0); }
