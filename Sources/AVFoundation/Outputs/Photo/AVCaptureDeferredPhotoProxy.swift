import Foundation

/// A lightly processed photo whose data may be used to replace a full-resolution photo at a later time.
///
/// Its `fileDataRepresentation()` is a JPEG of the full photo made at the encoder's fastest
/// settings. Saved to the photo library as a `.photoProxy` resource (`PHAssetCreationRequest`),
/// it is finished there in the background from the pixels the camera kept, in the codec and at
/// the quality the capture asked for, and the final photo takes the proxy's place.
open class AVCaptureDeferredPhotoProxy: AVCapturePhoto, @unchecked Sendable {}
