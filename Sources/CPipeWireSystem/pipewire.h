// libpipewire (Debian: libpipewire-0.3-dev), found through pkg-config; used by the CPipeWire shim.
#include <pipewire/pipewire.h>
