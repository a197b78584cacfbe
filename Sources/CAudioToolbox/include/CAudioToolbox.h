#ifndef C_AUDIO_TOOLBOX_H
#define C_AUDIO_TOOLBOX_H

// Audio Toolbox's C structures whose memory callers and callbacks share, laid out as Apple's
// AudioQueue.h lays them out.

#include <stdint.h>
#include "CCoreAudioTypes.h"

/// A buffer an audio queue fills (when recording) or plays (when playing).
typedef struct AudioQueueBuffer {
    const uint32_t mAudioDataBytesCapacity;
    void *const mAudioData;
    uint32_t mAudioDataByteSize;
    void *mUserData;
    const uint32_t mPacketDescriptionCapacity;
    AudioStreamPacketDescription *const mPacketDescriptions;
    uint32_t mPacketDescriptionCount;
} AudioQueueBuffer;

/// The level of one channel, as an audio queue's level metering measures it.
typedef struct AudioQueueLevelMeterState {
    float mAveragePower;
    float mPeakPower;
} AudioQueueLevelMeterState;

#endif
