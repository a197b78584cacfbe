@_exported import CoreMedia
@_exported import CoreVideo
@_exported import class CaptureDevices.VirtualScene
