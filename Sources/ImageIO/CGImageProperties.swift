// The keys of Image I/O's property dictionaries (CGImageProperties), spelled as Apple spells them.
// Photo metadata (`AVCapturePhoto.metadata`, `AVCapturePhotoSettings.metadata`, the still image
// output's attachments) is a dictionary of these keys.

import CoreVideo

// MARK: Image properties and dictionaries

/// The orientation of the image, a `CGImagePropertyOrientation` value.
public let kCGImagePropertyOrientation: CFString = "Orientation"
/// The width of the image in pixels.
public let kCGImagePropertyPixelWidth: CFString = "PixelWidth"
/// The height of the image in pixels.
public let kCGImagePropertyPixelHeight: CFString = "PixelHeight"
/// The resolution of the image's width, in dots per inch.
public let kCGImagePropertyDPIWidth: CFString = "DPIWidth"
/// The resolution of the image's height, in dots per inch.
public let kCGImagePropertyDPIHeight: CFString = "DPIHeight"
/// The number of bits in each color sample of a pixel.
public let kCGImagePropertyDepth: CFString = "Depth"
/// The color model of the image, such as RGB.
public let kCGImagePropertyColorModel: CFString = "ColorModel"
/// The name of the image's color profile.
public let kCGImagePropertyProfileName: CFString = "ProfileName"
/// A dictionary of Exif properties.
public let kCGImagePropertyExifDictionary: CFString = "{Exif}"
/// A dictionary of auxiliary Exif properties.
public let kCGImagePropertyExifAuxDictionary: CFString = "{ExifAux}"
/// A dictionary of TIFF properties.
public let kCGImagePropertyTIFFDictionary: CFString = "{TIFF}"
/// A dictionary of GPS properties.
public let kCGImagePropertyGPSDictionary: CFString = "{GPS}"
/// A dictionary of JFIF properties.
public let kCGImagePropertyJFIFDictionary: CFString = "{JFIF}"
/// A dictionary of PNG properties.
public let kCGImagePropertyPNGDictionary: CFString = "{PNG}"
/// A dictionary of HEIC image sequence properties.
public let kCGImagePropertyHEICSDictionary: CFString = "{HEICS}"
/// A dictionary of Apple camera properties.
public let kCGImagePropertyMakerAppleDictionary: CFString = "{MakerApple}"

// MARK: TIFF dictionary keys

/// The manufacturer of the camera.
public let kCGImagePropertyTIFFMake: CFString = "Make"
/// The model of the camera.
public let kCGImagePropertyTIFFModel: CFString = "Model"
/// The software that made the image.
public let kCGImagePropertyTIFFSoftware: CFString = "Software"
/// The date and time the image was last changed.
public let kCGImagePropertyTIFFDateTime: CFString = "DateTime"
/// The orientation of the image.
public let kCGImagePropertyTIFFOrientation: CFString = "Orientation"
/// The horizontal resolution of the image.
public let kCGImagePropertyTIFFXResolution: CFString = "XResolution"
/// The vertical resolution of the image.
public let kCGImagePropertyTIFFYResolution: CFString = "YResolution"
/// The unit of the resolutions.
public let kCGImagePropertyTIFFResolutionUnit: CFString = "ResolutionUnit"
/// The person who made the image.
public let kCGImagePropertyTIFFArtist: CFString = "Artist"
/// The image's copyright notice.
public let kCGImagePropertyTIFFCopyright: CFString = "Copyright"
/// A description of the image.
public let kCGImagePropertyTIFFImageDescription: CFString = "ImageDescription"
/// The computer that made the image.
public let kCGImagePropertyTIFFHostComputer: CFString = "HostComputer"

// MARK: Exif dictionary keys

/// The exposure time, in seconds.
public let kCGImagePropertyExifExposureTime: CFString = "ExposureTime"
/// The lens's f-number.
public let kCGImagePropertyExifFNumber: CFString = "FNumber"
/// The exposure program the camera used.
public let kCGImagePropertyExifExposureProgram: CFString = "ExposureProgram"
/// The ISO speeds, an array of numbers.
public let kCGImagePropertyExifISOSpeedRatings: CFString = "ISOSpeedRatings"
/// The Exif version, an array of numbers such as [2, 3, 2].
public let kCGImagePropertyExifVersion: CFString = "ExifVersion"
/// The date and time the image was captured.
public let kCGImagePropertyExifDateTimeOriginal: CFString = "DateTimeOriginal"
/// The date and time the image was digitized.
public let kCGImagePropertyExifDateTimeDigitized: CFString = "DateTimeDigitized"
/// The time zone of DateTime, such as +01:00.
public let kCGImagePropertyExifOffsetTime: CFString = "OffsetTime"
/// The time zone of DateTimeOriginal.
public let kCGImagePropertyExifOffsetTimeOriginal: CFString = "OffsetTimeOriginal"
/// The time zone of DateTimeDigitized.
public let kCGImagePropertyExifOffsetTimeDigitized: CFString = "OffsetTimeDigitized"
/// Fractions of a second of DateTime.
public let kCGImagePropertyExifSubsecTime: CFString = "SubsecTime"
/// Fractions of a second of DateTimeOriginal.
public let kCGImagePropertyExifSubsecTimeOriginal: CFString = "SubsecTimeOriginal"
/// Fractions of a second of DateTimeDigitized.
public let kCGImagePropertyExifSubsecTimeDigitized: CFString = "SubsecTimeDigitized"
/// The shutter speed, in APEX units.
public let kCGImagePropertyExifShutterSpeedValue: CFString = "ShutterSpeedValue"
/// The lens aperture, in APEX units.
public let kCGImagePropertyExifApertureValue: CFString = "ApertureValue"
/// The brightness of the scene, in APEX units.
public let kCGImagePropertyExifBrightnessValue: CFString = "BrightnessValue"
/// The exposure bias, in EV.
public let kCGImagePropertyExifExposureBiasValue: CFString = "ExposureBiasValue"
/// The metering mode.
public let kCGImagePropertyExifMeteringMode: CFString = "MeteringMode"
/// The flash status, a bit field whose lowest bit says whether it fired.
public let kCGImagePropertyExifFlash: CFString = "Flash"
/// The focal length of the lens, in millimeters.
public let kCGImagePropertyExifFocalLength: CFString = "FocalLength"
/// The color space (1 for sRGB).
public let kCGImagePropertyExifColorSpace: CFString = "ColorSpace"
/// The width of the image in pixels.
public let kCGImagePropertyExifPixelXDimension: CFString = "PixelXDimension"
/// The height of the image in pixels.
public let kCGImagePropertyExifPixelYDimension: CFString = "PixelYDimension"
/// The kind of image sensor.
public let kCGImagePropertyExifSensingMethod: CFString = "SensingMethod"
/// The kind of scene (1 for a directly photographed image).
public let kCGImagePropertyExifSceneType: CFString = "SceneType"
/// The exposure mode: 0 automatic, 1 manual.
public let kCGImagePropertyExifExposureMode: CFString = "ExposureMode"
/// The white balance mode: 0 automatic, 1 manual.
public let kCGImagePropertyExifWhiteBalance: CFString = "WhiteBalance"
/// The digital zoom factor.
public let kCGImagePropertyExifDigitalZoomRatio: CFString = "DigitalZoomRatio"
/// The equivalent focal length on 35 mm film.
public let kCGImagePropertyExifFocalLenIn35mmFilm: CFString = "FocalLenIn35mmFilm"
/// The kind of scene captured.
public let kCGImagePropertyExifSceneCaptureType: CFString = "SceneCaptureType"
/// The name of the camera's owner.
public let kCGImagePropertyExifCameraOwnerName: CFString = "CameraOwnerName"
/// The serial number of the camera.
public let kCGImagePropertyExifBodySerialNumber: CFString = "BodySerialNumber"
/// The lens's focal lengths and f-numbers, four numbers.
public let kCGImagePropertyExifLensSpecification: CFString = "LensSpecification"
/// The manufacturer of the lens.
public let kCGImagePropertyExifLensMake: CFString = "LensMake"
/// The model of the lens.
public let kCGImagePropertyExifLensModel: CFString = "LensModel"
/// A comment.
public let kCGImagePropertyExifUserComment: CFString = "UserComment"

// MARK: GPS dictionary keys

/// The GPS tag version, an array of numbers.
public let kCGImagePropertyGPSVersion: CFString = "GPSVersion"
/// N for north latitude, S for south.
public let kCGImagePropertyGPSLatitudeRef: CFString = "LatitudeRef"
/// The latitude, in degrees.
public let kCGImagePropertyGPSLatitude: CFString = "Latitude"
/// E for east longitude, W for west.
public let kCGImagePropertyGPSLongitudeRef: CFString = "LongitudeRef"
/// The longitude, in degrees.
public let kCGImagePropertyGPSLongitude: CFString = "Longitude"
/// 0 above sea level, 1 below.
public let kCGImagePropertyGPSAltitudeRef: CFString = "AltitudeRef"
/// The altitude, in meters.
public let kCGImagePropertyGPSAltitude: CFString = "Altitude"
/// The UTC time of the fix, as HH:mm:ss.
public let kCGImagePropertyGPSTimeStamp: CFString = "TimeStamp"
/// The UTC date of the fix, as yyyy:MM:dd.
public let kCGImagePropertyGPSDateStamp: CFString = "DateStamp"
/// The unit of Speed: K, M or N.
public let kCGImagePropertyGPSSpeedRef: CFString = "SpeedRef"
/// The speed of the receiver.
public let kCGImagePropertyGPSSpeed: CFString = "Speed"
/// T for true north, M for magnetic north.
public let kCGImagePropertyGPSImgDirectionRef: CFString = "ImgDirectionRef"
/// The direction the image was taken in, in degrees.
public let kCGImagePropertyGPSImgDirection: CFString = "ImgDirection"
/// The horizontal positioning error, in meters.
public let kCGImagePropertyGPSHPositioningError: CFString = "HPositioningError"
