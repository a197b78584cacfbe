// `import Photos` gives what Apple's gives: AVFoundation (its image manager and change requests
// speak of AVAssets and media types), and with it Foundation, Core Graphics and the media modules.
@_exported import AVFoundation
