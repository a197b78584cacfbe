// `import MediaToolbox` gives what Apple's headers import with it: Core Media (times, item counts)
// and Core Audio's types (stream descriptions, buffer lists).
@_exported import CoreAudioTypes
@_exported import CoreMedia
