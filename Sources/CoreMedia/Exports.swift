@_exported import CoreVideo
@_exported import CoreAudioTypes
