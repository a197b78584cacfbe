/// A Core Video result code.
public typealias CVReturn = Int32

/// The operation succeeded.
public let kCVReturnSuccess: CVReturn = 0
/// An otherwise undefined error occurred.
public let kCVReturnError: CVReturn = -6660
/// An argument was invalid.
public let kCVReturnInvalidArgument: CVReturn = -6661
/// Memory could not be allocated.
public let kCVReturnAllocationFailed: CVReturn = -6662
/// The requested operation is not supported.
public let kCVReturnUnsupported: CVReturn = -6663
/// The pixel format is invalid or unsupported.
public let kCVReturnInvalidPixelFormat: CVReturn = -6680
/// The buffer dimensions or layout are invalid.
public let kCVReturnInvalidSize: CVReturn = -6681
/// The pixel buffer attributes are invalid.
public let kCVReturnInvalidPixelBufferAttributes: CVReturn = -6682
/// The pixel buffer is not compatible with the pool.
public let kCVReturnPixelBufferNotOpenGLCompatible: CVReturn = -6683
/// The pool could not provide a buffer because its allocation threshold was reached.
public let kCVReturnWouldExceedAllocationThreshold: CVReturn = -6689
/// The pool attributes are invalid.
public let kCVReturnPoolAllocationFailed: CVReturn = -6690
/// The pool attributes are invalid.
public let kCVReturnInvalidPoolAttributes: CVReturn = -6691
