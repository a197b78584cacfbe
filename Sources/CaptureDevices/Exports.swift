@_exported import CoreMedia
