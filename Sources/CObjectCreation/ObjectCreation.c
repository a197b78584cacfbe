// See CObjectCreation.h.
#include "CObjectCreation.h"

/// Swift's allocating initializers take the class object in the `self` register (swift_context
/// is clang's spelling of that register for the Swift calling convention) and return +1.
typedef void *(*allocating_init)(const void *metadata __attribute__((swift_context))) __attribute__((swiftcall));

void *coc_call_allocating_init(const void *initializer, const void *metadata) {
    return ((allocating_init)initializer)(metadata);
}
