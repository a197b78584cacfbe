// Calling a Swift class's allocating initializer through its class object, as Objective-C's
// [[cls alloc] init] does: what Apple's APIs that take a class (a custom video compositor's) need,
// and what Swift on Linux cannot spell for an initializer that is not `required`.
#ifndef COBJECTCREATION_H
#define COBJECTCREATION_H

/// Calls `initializer`, a class's allocating `init()` entry point (Swift's calling convention, the
/// class object as `self`), with `metadata`; the new object, retained once.
void *coc_call_allocating_init(const void *initializer, const void *metadata);

#endif
