import AVFoundation
import ImageIO
import MobileCoreServices

/// Image I/O code in Core Foundation's C style, as older photo and scanner libraries read a
/// picture's metadata: the properties dictionary walked with `CFDictionaryGetValue` and keys passed
/// as `Unmanaged` pointers, values told apart with `CFGetTypeID`, numbers read with
/// `CFNumberGetValue`, arrays with `CFArrayGetCount` and `CFArrayGetValueAtIndex`, and a capture
/// setting given as `kCFBooleanTrue` in a dictionary made with `CFDictionaryCreateMutable`.
public enum PhotoPropertiesWalker {
    /// What the walk found.
    public struct Summary: Equatable {
        public var width = 0
        public var height = 0
        public var orientation: Int32 = 0
        public var make: String?
        public var fNumber = 0.0
        public var isoSpeeds: [Int] = []
        public var hasAlpha = false
    }

    /// The value for `key` in `dictionary`, as Core Foundation hands it out, or nil.
    static func value(_ dictionary: CFDictionary, _ key: CFString) -> UnsafeRawPointer? {
        CFDictionaryGetValue(dictionary, Unmanaged.passUnretained(key).toOpaque())
    }

    /// The type of the object at `value`.
    static func type(_ value: UnsafeRawPointer) -> CFTypeID { CFGetTypeID(Unmanaged<CFTypeRef>.fromOpaque(value).takeUnretainedValue()) }

    /// The dictionary for `key` in `dictionary`, or nil when the value is something else.
    static func dictionary(_ dictionary: CFDictionary, _ key: CFString) -> CFDictionary? {
        guard let found = value(dictionary, key), type(found) == CFDictionaryGetTypeID() else { return nil }
        return unsafeBitCast(found, to: CFDictionary.self)
    }

    /// Walks the properties of the first picture in `data`.
    public static func summary(of data: Data) -> Summary? {
        guard let source = CGImageSourceCreateWithData(data as CFData, nil),
            let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil)
        else { return nil }
        var summary = Summary()
        if let width = value(properties, kCGImagePropertyPixelWidth), type(width) == CFNumberGetTypeID() {
            CFNumberGetValue(unsafeBitCast(width, to: CFNumber.self), .longType, &summary.width)
        }
        if let height = value(properties, kCGImagePropertyPixelHeight), type(height) == CFNumberGetTypeID() {
            CFNumberGetValue(unsafeBitCast(height, to: CFNumber.self), .longType, &summary.height)
        }
        if let orientation = value(properties, kCGImagePropertyOrientation) {
            CFNumberGetValue(unsafeBitCast(orientation, to: CFNumber.self), .sInt32Type, &summary.orientation)
        }
        if let alpha = value(properties, kCGImagePropertyHasAlpha), type(alpha) == CFBooleanGetTypeID() {
            summary.hasAlpha = CFBooleanGetValue(unsafeBitCast(alpha, to: CFBoolean.self))
        }
        if let tiff = dictionary(properties, kCGImagePropertyTIFFDictionary), let make = value(tiff, kCGImagePropertyTIFFMake),
            type(make) == CFStringGetTypeID()
        {
            summary.make = unsafeBitCast(make, to: CFString.self) as String
        }
        if let exif = dictionary(properties, kCGImagePropertyExifDictionary) {
            if let fNumber = value(exif, kCGImagePropertyExifFNumber) {
                CFNumberGetValue(unsafeBitCast(fNumber, to: CFNumber.self), .float64Type, &summary.fNumber)
            }
            if let speeds = value(exif, kCGImagePropertyExifISOSpeedRatings), type(speeds) == CFArrayGetTypeID() {
                let array = unsafeBitCast(speeds, to: CFArray.self)
                for index in 0..<CFArrayGetCount(array) {
                    var speed = 0
                    CFNumberGetValue(unsafeBitCast(CFArrayGetValueAtIndex(array, index), to: CFNumber.self), .longType, &speed)
                    summary.isoSpeeds.append(speed)
                }
            }
        }
        return summary
    }

    /// Sets `value` for `key`, both passed by pointer; the value is kept alive until the dictionary holds it.
    static func set(_ dictionary: CFMutableDictionary, _ key: CFString, _ value: CFTypeRef) {
        withExtendedLifetime(value) {
            CFDictionarySetValue(dictionary, Unmanaged.passUnretained(key).toOpaque(), Unmanaged.passUnretained(value).toOpaque())
        }
    }

    /// A JPEG of `image` written with the properties built in C style: a TIFF dictionary holding
    /// the camera's make, an EXIF one holding the f-number and ISO speeds, and the orientation.
    public static func jpeg(of image: CGImage, make: String, fNumber: Double, isoSpeeds: [Int32], orientation: Int32) -> Data? {
        let properties = CFDictionaryCreateMutable(nil, 0, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks)!
        let tiff = CFDictionaryCreateMutable(nil, 0, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks)!
        set(tiff, kCGImagePropertyTIFFMake, make as CFString)
        let exif = CFDictionaryCreateMutable(nil, 0, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks)!
        var aperture = fNumber
        set(exif, kCGImagePropertyExifFNumber, CFNumberCreate(nil, .float64Type, &aperture))
        let speeds = CFArrayCreateMutable(nil, 0, &kCFTypeArrayCallBacks)!
        for var speed in isoSpeeds {
            let number = CFNumberCreate(nil, .sInt32Type, &speed)!
            withExtendedLifetime(number) { CFArrayAppendValue(speeds, Unmanaged.passUnretained(number).toOpaque()) }
        }
        set(exif, kCGImagePropertyExifISOSpeedRatings, speeds)
        var turned = orientation
        set(properties, kCGImagePropertyOrientation, CFNumberCreate(nil, .sInt32Type, &turned))
        set(properties, kCGImagePropertyTIFFDictionary, tiff)
        set(properties, kCGImagePropertyExifDictionary, exif)

        let data = CFDataCreateMutable(nil, 0)!
        guard let destination = CGImageDestinationCreateWithData(data, kUTTypeJPEG, 1, nil) else { return nil }
        CGImageDestinationAddImage(destination, image, properties)
        guard CGImageDestinationFinalize(destination) else { return nil }
        return Data(bytes: CFDataGetBytePtr(data), count: CFDataGetLength(data))
    }
}
