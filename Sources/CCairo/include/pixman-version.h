// pixman.h includes <pixman-version.h> from its own folder, which is not on the include path:
// CCairo finds both headers by their folders, because pkg-config's flags for them would also link
// cairo and pixman into every program, and these libraries are loaded only when a context is made.
#include <pixman-1/pixman-version.h>
