// Core Audio's structures are declared in include/CCoreAudioTypes.h; this file gives the target a source.
