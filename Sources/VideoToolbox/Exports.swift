// `import VideoToolbox` gives what Apple's headers import: Core Media (sample buffers and format
// descriptions) and Core Video (pixel buffers), and with them Core Foundation's types.
@_exported import CoreMedia
@_exported import CoreVideo
