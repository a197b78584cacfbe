@_exported import CoreVideo
