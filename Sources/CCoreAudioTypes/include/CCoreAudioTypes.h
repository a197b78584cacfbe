// Core Audio's C structures whose memory layout callers rely on: buffer lists handed to C code
// and filled in place, packet descriptions and time stamps. Laid out as Apple's CoreAudioTypes.h
// lays them out, so that Swift imports them with Apple's names, fields and memberwise
// initializers, and `AudioBufferList`'s trailing array works as it does there.
#ifndef CCOREAUDIOTYPES_H
#define CCOREAUDIOTYPES_H
#include <stdint.h>

/// A buffer of audio data: its channels, its size in bytes, and its memory.
typedef struct AudioBuffer {
    uint32_t mNumberChannels;
    uint32_t mDataByteSize;
    void *_Nullable mData;
} AudioBuffer;

/// A variable-length list of audio buffers: `mNumberBuffers` of them, the first in `mBuffers`.
typedef struct AudioBufferList {
    uint32_t mNumberBuffers;
    AudioBuffer mBuffers[1];
} AudioBufferList;

/// Where one packet of variable-sized compressed audio is in a buffer, and how many frames it holds.
typedef struct AudioStreamPacketDescription {
    int64_t mStartOffset;
    uint32_t mVariableFramesInPacket;
    uint32_t mDataByteSize;
} AudioStreamPacketDescription;

/// The kind of an SMPTE time: its frame rate and whether it drops frames.
typedef enum __attribute__((enum_extensibility(open))) SMPTETimeType : uint32_t {
    kSMPTETimeType24 = 0,
    kSMPTETimeType25 = 1,
    kSMPTETimeType30Drop = 2,
    kSMPTETimeType30 = 3,
    kSMPTETimeType2997 = 4,
    kSMPTETimeType2997Drop = 5,
    kSMPTETimeType60 = 6,
    kSMPTETimeType5994 = 7,
    kSMPTETimeType60Drop = 8,
    kSMPTETimeType5994Drop = 9,
    kSMPTETimeType50 = 10,
    kSMPTETimeType2398 = 11
} SMPTETimeType;

/// Which fields of an SMPTE time are valid and running.
typedef enum __attribute__((flag_enum, enum_extensibility(open))) SMPTETimeFlags : uint32_t {
    kSMPTETimeUnknown = 0,
    kSMPTETimeValid = 1U << 0,
    kSMPTETimeRunning = 1U << 1
} SMPTETimeFlags;

/// A time as SMPTE counts it: hours, minutes, seconds and frames.
typedef struct SMPTETime {
    int16_t mSubframes;
    int16_t mSubframeDivisor;
    uint32_t mCounter;
    SMPTETimeType mType;
    SMPTETimeFlags mFlags;
    int16_t mHours;
    int16_t mMinutes;
    int16_t mSeconds;
    int16_t mFrames;
} SMPTETime;

/// Which fields of an audio time stamp are valid.
typedef enum __attribute__((flag_enum, enum_extensibility(open))) AudioTimeStampFlags : uint32_t {
    kAudioTimeStampNothingValid = 0,
    kAudioTimeStampSampleTimeValid = 1U << 0,
    kAudioTimeStampHostTimeValid = 1U << 1,
    kAudioTimeStampRateScalarValid = 1U << 2,
    kAudioTimeStampWordClockTimeValid = 1U << 3,
    kAudioTimeStampSMPTETimeValid = 1U << 4,
    kAudioTimeStampSampleHostTimeValid = (1U << 0) | (1U << 1)
} AudioTimeStampFlags;

/// A moment in an audio stream, as a sample time, a host time, a rate, a word clock and an SMPTE time.
typedef struct AudioTimeStamp {
    double mSampleTime;
    uint64_t mHostTime;
    double mRateScalar;
    uint64_t mWordClockTime;
    SMPTETime mSMPTETime;
    AudioTimeStampFlags mFlags;
    uint32_t mReserved;
} AudioTimeStamp;

/// A four-character code naming a channel layout: its tag's high 16 bits, its channel count the low 16.
typedef uint32_t AudioChannelLayoutTag;
/// What a channel carries, such as left or right.
typedef uint32_t AudioChannelLabel;

/// The channels a layout holds, as bits, for layouts described by a bitmap.
typedef enum __attribute__((flag_enum, enum_extensibility(open))) AudioChannelBitmap : uint32_t {
    kAudioChannelBit_Left = 1U << 0,
    kAudioChannelBit_Right = 1U << 1,
    kAudioChannelBit_Center = 1U << 2,
    kAudioChannelBit_LFEScreen = 1U << 3,
    kAudioChannelBit_LeftSurround = 1U << 4,
    kAudioChannelBit_RightSurround = 1U << 5
} AudioChannelBitmap;

/// How a channel description's coordinates are to be read.
typedef enum __attribute__((flag_enum, enum_extensibility(open))) AudioChannelFlags : uint32_t {
    kAudioChannelFlags_AllOff = 0,
    kAudioChannelFlags_RectangularCoordinates = 1U << 0,
    kAudioChannelFlags_SphericalCoordinates = 1U << 1,
    kAudioChannelFlags_Meters = 1U << 2
} AudioChannelFlags;

/// One channel of a layout: what it carries and where it is.
typedef struct AudioChannelDescription {
    AudioChannelLabel mChannelLabel;
    AudioChannelFlags mChannelFlags;
    float mCoordinates[3];
} AudioChannelDescription;

/// A channel layout: a tag, a bitmap, or a variable-length list of channel descriptions.
typedef struct AudioChannelLayout {
    AudioChannelLayoutTag mChannelLayoutTag;
    AudioChannelBitmap mChannelBitmap;
    uint32_t mNumberChannelDescriptions;
    AudioChannelDescription mChannelDescriptions[1];
} AudioChannelLayout;

#endif
