// Audio Toolbox's C structures have no code of their own; a C target needs one source.
#include "CAudioToolbox.h"
