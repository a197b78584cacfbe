// `import CoreServices` is macOS's spelling of MobileCoreServices' type identifier constants and functions.
@_exported import MobileCoreServices
