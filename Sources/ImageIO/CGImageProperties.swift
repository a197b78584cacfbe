// The keys of Image I/O's property dictionaries (CGImageProperties), spelled as Apple spells them.
// Photo metadata (`AVCapturePhoto.metadata`, `AVCapturePhotoSettings.metadata`, the still image
// output's attachments) is a dictionary of these keys.

import CoreVideo

// MARK: Image properties and dictionaries

/// The orientation of the image, a `CGImagePropertyOrientation` value.
nonisolated(unsafe) public let kCGImagePropertyOrientation: CFString = "Orientation"
/// The width of the image in pixels.
nonisolated(unsafe) public let kCGImagePropertyPixelWidth: CFString = "PixelWidth"
/// The height of the image in pixels.
nonisolated(unsafe) public let kCGImagePropertyPixelHeight: CFString = "PixelHeight"
/// The resolution of the image's width, in dots per inch.
nonisolated(unsafe) public let kCGImagePropertyDPIWidth: CFString = "DPIWidth"
/// The resolution of the image's height, in dots per inch.
nonisolated(unsafe) public let kCGImagePropertyDPIHeight: CFString = "DPIHeight"
/// The number of bits in each color sample of a pixel.
nonisolated(unsafe) public let kCGImagePropertyDepth: CFString = "Depth"
/// Whether the image's samples are floating-point values.
nonisolated(unsafe) public let kCGImagePropertyIsFloat: CFString = "IsFloat"
/// The color model of the image, such as RGB.
nonisolated(unsafe) public let kCGImagePropertyColorModel: CFString = "ColorModel"
/// The name of the image's color profile.
nonisolated(unsafe) public let kCGImagePropertyProfileName: CFString = "ProfileName"
/// A dictionary of Exif properties.
nonisolated(unsafe) public let kCGImagePropertyExifDictionary: CFString = "{Exif}"
/// A dictionary of auxiliary Exif properties.
nonisolated(unsafe) public let kCGImagePropertyExifAuxDictionary: CFString = "{ExifAux}"
/// A dictionary of TIFF properties.
nonisolated(unsafe) public let kCGImagePropertyTIFFDictionary: CFString = "{TIFF}"
/// A dictionary of GPS properties.
nonisolated(unsafe) public let kCGImagePropertyGPSDictionary: CFString = "{GPS}"
/// A dictionary of JFIF properties.
nonisolated(unsafe) public let kCGImagePropertyJFIFDictionary: CFString = "{JFIF}"
/// A dictionary of PNG properties.
nonisolated(unsafe) public let kCGImagePropertyPNGDictionary: CFString = "{PNG}"
/// A dictionary of HEIC image sequence properties.
nonisolated(unsafe) public let kCGImagePropertyHEICSDictionary: CFString = "{HEICS}"
/// A dictionary of Apple camera properties.
nonisolated(unsafe) public let kCGImagePropertyMakerAppleDictionary: CFString = "{MakerApple}"

// MARK: TIFF dictionary keys

/// The manufacturer of the camera.
nonisolated(unsafe) public let kCGImagePropertyTIFFMake: CFString = "Make"
/// The model of the camera.
nonisolated(unsafe) public let kCGImagePropertyTIFFModel: CFString = "Model"
/// The software that made the image.
nonisolated(unsafe) public let kCGImagePropertyTIFFSoftware: CFString = "Software"
/// The date and time the image was last changed.
nonisolated(unsafe) public let kCGImagePropertyTIFFDateTime: CFString = "DateTime"
/// The orientation of the image.
nonisolated(unsafe) public let kCGImagePropertyTIFFOrientation: CFString = "Orientation"
/// The horizontal resolution of the image.
nonisolated(unsafe) public let kCGImagePropertyTIFFXResolution: CFString = "XResolution"
/// The vertical resolution of the image.
nonisolated(unsafe) public let kCGImagePropertyTIFFYResolution: CFString = "YResolution"
/// The unit of the resolutions.
nonisolated(unsafe) public let kCGImagePropertyTIFFResolutionUnit: CFString = "ResolutionUnit"
/// The person who made the image.
nonisolated(unsafe) public let kCGImagePropertyTIFFArtist: CFString = "Artist"
/// The image's copyright notice.
nonisolated(unsafe) public let kCGImagePropertyTIFFCopyright: CFString = "Copyright"
/// A description of the image.
nonisolated(unsafe) public let kCGImagePropertyTIFFImageDescription: CFString = "ImageDescription"
/// The computer that made the image.
nonisolated(unsafe) public let kCGImagePropertyTIFFHostComputer: CFString = "HostComputer"

// MARK: Exif dictionary keys

/// The exposure time, in seconds.
nonisolated(unsafe) public let kCGImagePropertyExifExposureTime: CFString = "ExposureTime"
/// The lens's f-number.
nonisolated(unsafe) public let kCGImagePropertyExifFNumber: CFString = "FNumber"
/// The exposure program the camera used.
nonisolated(unsafe) public let kCGImagePropertyExifExposureProgram: CFString = "ExposureProgram"
/// The ISO speeds, an array of numbers.
nonisolated(unsafe) public let kCGImagePropertyExifISOSpeedRatings: CFString = "ISOSpeedRatings"
/// The Exif version, an array of numbers such as [2, 3, 2].
nonisolated(unsafe) public let kCGImagePropertyExifVersion: CFString = "ExifVersion"
/// The date and time the image was captured.
nonisolated(unsafe) public let kCGImagePropertyExifDateTimeOriginal: CFString = "DateTimeOriginal"
/// The date and time the image was digitized.
nonisolated(unsafe) public let kCGImagePropertyExifDateTimeDigitized: CFString = "DateTimeDigitized"
/// The time zone of DateTime, such as +01:00.
nonisolated(unsafe) public let kCGImagePropertyExifOffsetTime: CFString = "OffsetTime"
/// The time zone of DateTimeOriginal.
nonisolated(unsafe) public let kCGImagePropertyExifOffsetTimeOriginal: CFString = "OffsetTimeOriginal"
/// The time zone of DateTimeDigitized.
nonisolated(unsafe) public let kCGImagePropertyExifOffsetTimeDigitized: CFString = "OffsetTimeDigitized"
/// Fractions of a second of DateTime.
nonisolated(unsafe) public let kCGImagePropertyExifSubsecTime: CFString = "SubsecTime"
/// Fractions of a second of DateTimeOriginal.
nonisolated(unsafe) public let kCGImagePropertyExifSubsecTimeOriginal: CFString = "SubsecTimeOriginal"
/// Fractions of a second of DateTimeDigitized.
nonisolated(unsafe) public let kCGImagePropertyExifSubsecTimeDigitized: CFString = "SubsecTimeDigitized"
/// The shutter speed, in APEX units.
nonisolated(unsafe) public let kCGImagePropertyExifShutterSpeedValue: CFString = "ShutterSpeedValue"
/// The lens aperture, in APEX units.
nonisolated(unsafe) public let kCGImagePropertyExifApertureValue: CFString = "ApertureValue"
/// The brightness of the scene, in APEX units.
nonisolated(unsafe) public let kCGImagePropertyExifBrightnessValue: CFString = "BrightnessValue"
/// The exposure bias, in EV.
nonisolated(unsafe) public let kCGImagePropertyExifExposureBiasValue: CFString = "ExposureBiasValue"
/// The metering mode.
nonisolated(unsafe) public let kCGImagePropertyExifMeteringMode: CFString = "MeteringMode"
/// The flash status, a bit field whose lowest bit says whether it fired.
nonisolated(unsafe) public let kCGImagePropertyExifFlash: CFString = "Flash"
/// The focal length of the lens, in millimeters.
nonisolated(unsafe) public let kCGImagePropertyExifFocalLength: CFString = "FocalLength"
/// The color space (1 for sRGB).
nonisolated(unsafe) public let kCGImagePropertyExifColorSpace: CFString = "ColorSpace"
/// The width of the image in pixels.
nonisolated(unsafe) public let kCGImagePropertyExifPixelXDimension: CFString = "PixelXDimension"
/// The height of the image in pixels.
nonisolated(unsafe) public let kCGImagePropertyExifPixelYDimension: CFString = "PixelYDimension"
/// The kind of image sensor.
nonisolated(unsafe) public let kCGImagePropertyExifSensingMethod: CFString = "SensingMethod"
/// The kind of scene (1 for a directly photographed image).
nonisolated(unsafe) public let kCGImagePropertyExifSceneType: CFString = "SceneType"
/// The exposure mode: 0 automatic, 1 manual.
nonisolated(unsafe) public let kCGImagePropertyExifExposureMode: CFString = "ExposureMode"
/// The white balance mode: 0 automatic, 1 manual.
nonisolated(unsafe) public let kCGImagePropertyExifWhiteBalance: CFString = "WhiteBalance"
/// The digital zoom factor.
nonisolated(unsafe) public let kCGImagePropertyExifDigitalZoomRatio: CFString = "DigitalZoomRatio"
/// The equivalent focal length on 35 mm film.
nonisolated(unsafe) public let kCGImagePropertyExifFocalLenIn35mmFilm: CFString = "FocalLenIn35mmFilm"
/// The kind of scene captured.
nonisolated(unsafe) public let kCGImagePropertyExifSceneCaptureType: CFString = "SceneCaptureType"
/// The name of the camera's owner.
nonisolated(unsafe) public let kCGImagePropertyExifCameraOwnerName: CFString = "CameraOwnerName"
/// The serial number of the camera.
nonisolated(unsafe) public let kCGImagePropertyExifBodySerialNumber: CFString = "BodySerialNumber"
/// The lens's focal lengths and f-numbers, four numbers.
nonisolated(unsafe) public let kCGImagePropertyExifLensSpecification: CFString = "LensSpecification"
/// The manufacturer of the lens.
nonisolated(unsafe) public let kCGImagePropertyExifLensMake: CFString = "LensMake"
/// The model of the lens.
nonisolated(unsafe) public let kCGImagePropertyExifLensModel: CFString = "LensModel"
/// A comment.
nonisolated(unsafe) public let kCGImagePropertyExifUserComment: CFString = "UserComment"

// MARK: GPS dictionary keys

/// The GPS tag version, an array of numbers.
nonisolated(unsafe) public let kCGImagePropertyGPSVersion: CFString = "GPSVersion"
/// N for north latitude, S for south.
nonisolated(unsafe) public let kCGImagePropertyGPSLatitudeRef: CFString = "LatitudeRef"
/// The latitude, in degrees.
nonisolated(unsafe) public let kCGImagePropertyGPSLatitude: CFString = "Latitude"
/// E for east longitude, W for west.
nonisolated(unsafe) public let kCGImagePropertyGPSLongitudeRef: CFString = "LongitudeRef"
/// The longitude, in degrees.
nonisolated(unsafe) public let kCGImagePropertyGPSLongitude: CFString = "Longitude"
/// 0 above sea level, 1 below.
nonisolated(unsafe) public let kCGImagePropertyGPSAltitudeRef: CFString = "AltitudeRef"
/// The altitude, in meters.
nonisolated(unsafe) public let kCGImagePropertyGPSAltitude: CFString = "Altitude"
/// The UTC time of the fix, as HH:mm:ss.
nonisolated(unsafe) public let kCGImagePropertyGPSTimeStamp: CFString = "TimeStamp"
/// The UTC date of the fix, as yyyy:MM:dd.
nonisolated(unsafe) public let kCGImagePropertyGPSDateStamp: CFString = "DateStamp"
/// The unit of Speed: K, M or N.
nonisolated(unsafe) public let kCGImagePropertyGPSSpeedRef: CFString = "SpeedRef"
/// The speed of the receiver.
nonisolated(unsafe) public let kCGImagePropertyGPSSpeed: CFString = "Speed"
/// T for true north, M for magnetic north.
nonisolated(unsafe) public let kCGImagePropertyGPSImgDirectionRef: CFString = "ImgDirectionRef"
/// The direction the image was taken in, in degrees.
nonisolated(unsafe) public let kCGImagePropertyGPSImgDirection: CFString = "ImgDirection"
/// The horizontal positioning error, in meters.
nonisolated(unsafe) public let kCGImagePropertyGPSHPositioningError: CFString = "HPositioningError"

/// A dictionary of properties that are specific to the GIF format.
nonisolated(unsafe) public let kCGImagePropertyGIFDictionary: CFString = "{GIF}"
/// The number of times to repeat an animated sequence (0 for ever).
nonisolated(unsafe) public let kCGImagePropertyGIFLoopCount: CFString = "LoopCount"
/// The amount of time, in seconds, to wait before displaying the next image, never less than 0.1 seconds.
nonisolated(unsafe) public let kCGImagePropertyGIFDelayTime: CFString = "DelayTime"
/// The amount of time, in seconds, to wait before displaying the next image, as the file says.
nonisolated(unsafe) public let kCGImagePropertyGIFUnclampedDelayTime: CFString = "UnclampedDelayTime"
/// A Boolean value that indicates whether the GIF has a global color map.
nonisolated(unsafe) public let kCGImagePropertyGIFHasGlobalColorMap: CFString = "HasGlobalColorMap"
/// The width of the main image, in pixels.
nonisolated(unsafe) public let kCGImagePropertyGIFCanvasPixelWidth: CFString = "CanvasPixelWidth"
/// The height of the main image, in pixels.
nonisolated(unsafe) public let kCGImagePropertyGIFCanvasPixelHeight: CFString = "CanvasPixelHeight"
/// An array of dictionaries with the delay of each frame of the animation.
nonisolated(unsafe) public let kCGImagePropertyGIFFrameInfoArray: CFString = "FrameInfo"

/// The gamma value of a PNG image (its gAMA chunk, as a fraction).
nonisolated(unsafe) public let kCGImagePropertyPNGGamma: CFString = "Gamma"
/// The interlace type of a PNG image: 0 for none, 1 for Adam7.
nonisolated(unsafe) public let kCGImagePropertyPNGInterlaceType: CFString = "InterlaceType"
/// The horizontal pixels per meter of a PNG image.
nonisolated(unsafe) public let kCGImagePropertyPNGXPixelsPerMeter: CFString = "XPixelsPerMeter"
/// The vertical pixels per meter of a PNG image.
nonisolated(unsafe) public let kCGImagePropertyPNGYPixelsPerMeter: CFString = "YPixelsPerMeter"
/// The sRGB rendering intent of a PNG image.
nonisolated(unsafe) public let kCGImagePropertyPNGsRGBIntent: CFString = "sRGBIntent"
/// The chromaticities of a PNG image: the white point's and the primaries' x and y.
nonisolated(unsafe) public let kCGImagePropertyPNGChromaticities: CFString = "Chromaticities"
/// The author of a PNG image.
nonisolated(unsafe) public let kCGImagePropertyPNGAuthor: CFString = "Author"
/// The copyright of a PNG image.
nonisolated(unsafe) public let kCGImagePropertyPNGCopyright: CFString = "Copyright"
/// The time a PNG image was created.
nonisolated(unsafe) public let kCGImagePropertyPNGCreationTime: CFString = "CreationTime"
/// The description of a PNG image.
nonisolated(unsafe) public let kCGImagePropertyPNGDescription: CFString = "Description"
/// The time a PNG image was last modified.
nonisolated(unsafe) public let kCGImagePropertyPNGModificationTime: CFString = "ModificationTime"
/// The software that made a PNG image.
nonisolated(unsafe) public let kCGImagePropertyPNGSoftware: CFString = "Software"
/// The title of a PNG image.
nonisolated(unsafe) public let kCGImagePropertyPNGTitle: CFString = "Title"
/// A comment on a PNG image.
nonisolated(unsafe) public let kCGImagePropertyPNGComment: CFString = "Comment"
/// The legal disclaimer of a PNG image.
nonisolated(unsafe) public let kCGImagePropertyPNGDisclaimer: CFString = "Disclaimer"
/// The device that made a PNG image.
nonisolated(unsafe) public let kCGImagePropertyPNGSource: CFString = "Source"
/// A warning about a PNG image's content.
nonisolated(unsafe) public let kCGImagePropertyPNGWarning: CFString = "Warning"

/// The version of a JPEG's JFIF segment, as its major and minor digits.
nonisolated(unsafe) public let kCGImagePropertyJFIFVersion: CFString = "JFIFVersion"
/// The horizontal density of a JPEG's JFIF segment.
nonisolated(unsafe) public let kCGImagePropertyJFIFXDensity: CFString = "XDensity"
/// The vertical density of a JPEG's JFIF segment.
nonisolated(unsafe) public let kCGImagePropertyJFIFYDensity: CFString = "YDensity"
/// The unit of a JFIF segment's densities: 0 for an aspect ratio, 1 for dots per inch, 2 for dots per centimeter.
nonisolated(unsafe) public let kCGImagePropertyJFIFDensityUnit: CFString = "DensityUnit"
/// Whether a JPEG image is progressive.
nonisolated(unsafe) public let kCGImagePropertyJFIFIsProgressive: CFString = "IsProgressive"

/// The number of times that an animated PNG should play through its frames before stopping (0 for ever).
nonisolated(unsafe) public let kCGImagePropertyAPNGLoopCount: CFString = "LoopCount"
/// The number of seconds to wait before displaying the next image in an animated sequence, never less than 50 milliseconds.
nonisolated(unsafe) public let kCGImagePropertyAPNGDelayTime: CFString = "DelayTime"
/// The number of seconds to wait before displaying the next image in an animated sequence, as the file says.
nonisolated(unsafe) public let kCGImagePropertyAPNGUnclampedDelayTime: CFString = "UnclampedDelayTime"
/// An array of dictionaries that contain timing information for the image sequence.
nonisolated(unsafe) public let kCGImagePropertyAPNGFrameInfoArray: CFString = "FrameInfo"
/// The width of the main image, in pixels.
nonisolated(unsafe) public let kCGImagePropertyAPNGCanvasPixelWidth: CFString = "CanvasPixelWidth"
/// The height of the main image, in pixels.
nonisolated(unsafe) public let kCGImagePropertyAPNGCanvasPixelHeight: CFString = "CanvasPixelHeight"

/// The number of times to play the sequence (0 for ever).
nonisolated(unsafe) public let kCGImagePropertyHEICSLoopCount: CFString = "LoopCount"
/// The number of seconds to wait before displaying the next image in the sequence, clamped to a minimum of 0.1 seconds.
nonisolated(unsafe) public let kCGImagePropertyHEICSDelayTime: CFString = "DelayTime"
/// The unclamped number of seconds to wait before displaying the next image in the sequence.
nonisolated(unsafe) public let kCGImagePropertyHEICSUnclampedDelayTime: CFString = "UnclampedDelayTime"
/// An array of dictionaries that contain timing information for the image sequence.
nonisolated(unsafe) public let kCGImagePropertyHEICSFrameInfoArray: CFString = "FrameInfo"
/// The width of the main image, in pixels.
nonisolated(unsafe) public let kCGImagePropertyHEICSCanvasPixelWidth: CFString = "CanvasPixelWidth"
/// The height of the main image, in pixels.
nonisolated(unsafe) public let kCGImagePropertyHEICSCanvasPixelHeight: CFString = "CanvasPixelHeight"

/// A dictionary of properties that are specific to the WebP format.
nonisolated(unsafe) public let kCGImagePropertyWebPDictionary: CFString = "{WebP}"
/// The number of times to repeat an animated sequence (0 for ever).
nonisolated(unsafe) public let kCGImagePropertyWebPLoopCount: CFString = "LoopCount"
/// The amount of time, in seconds, to wait before displaying the next image, never less than 0.1 seconds.
nonisolated(unsafe) public let kCGImagePropertyWebPDelayTime: CFString = "DelayTime"
/// The amount of time, in seconds, to wait before displaying the next image, as the file says.
nonisolated(unsafe) public let kCGImagePropertyWebPUnclampedDelayTime: CFString = "UnclampedDelayTime"
/// An array of dictionaries with the delay of each frame of the animation.
nonisolated(unsafe) public let kCGImagePropertyWebPFrameInfoArray: CFString = "FrameInfo"
/// The width of the main image, in pixels.
nonisolated(unsafe) public let kCGImagePropertyWebPCanvasPixelWidth: CFString = "CanvasPixelWidth"
/// The height of the main image, in pixels.
nonisolated(unsafe) public let kCGImagePropertyWebPCanvasPixelHeight: CFString = "CanvasPixelHeight"
/// The size of the image file, in bytes.
nonisolated(unsafe) public let kCGImagePropertyFileSize: CFString = "FileSize"

// MARK: IPTC dictionary keys

/// A dictionary of IPTC properties.
nonisolated(unsafe) public let kCGImagePropertyIPTCDictionary: CFString = "{IPTC}"
/// The name of the object, a shorthand reference for it.
nonisolated(unsafe) public let kCGImagePropertyIPTCObjectName: CFString = "ObjectName"
/// The status of the object, as its provider says.
nonisolated(unsafe) public let kCGImagePropertyIPTCEditStatus: CFString = "EditStatus"
/// The editorial urgency of the content, from 1 (most urgent) to 8.
nonisolated(unsafe) public let kCGImagePropertyIPTCUrgency: CFString = "Urgency"
/// The subject of the object, as a category code.
nonisolated(unsafe) public let kCGImagePropertyIPTCCategory: CFString = "Category"
/// Further categories of the object.
nonisolated(unsafe) public let kCGImagePropertyIPTCSupplementalCategory: CFString = "SupplementalCategory"
/// An identifier of the object's recurring content.
nonisolated(unsafe) public let kCGImagePropertyIPTCFixtureIdentifier: CFString = "FixtureIdentifier"
/// Keywords that describe the object.
nonisolated(unsafe) public let kCGImagePropertyIPTCKeywords: CFString = "Keywords"
/// The earliest date the object may be used.
nonisolated(unsafe) public let kCGImagePropertyIPTCReleaseDate: CFString = "ReleaseDate"
/// The earliest time the object may be used.
nonisolated(unsafe) public let kCGImagePropertyIPTCReleaseTime: CFString = "ReleaseTime"
/// Instructions on how to use the object.
nonisolated(unsafe) public let kCGImagePropertyIPTCSpecialInstructions: CFString = "SpecialInstructions"
/// The date the intellectual content of the object was created.
nonisolated(unsafe) public let kCGImagePropertyIPTCDateCreated: CFString = "DateCreated"
/// The time the intellectual content of the object was created.
nonisolated(unsafe) public let kCGImagePropertyIPTCTimeCreated: CFString = "TimeCreated"
/// The date the digital representation of the object was created.
nonisolated(unsafe) public let kCGImagePropertyIPTCDigitalCreationDate: CFString = "DigitalCreationDate"
/// The time the digital representation of the object was created.
nonisolated(unsafe) public let kCGImagePropertyIPTCDigitalCreationTime: CFString = "DigitalCreationTime"
/// The program that made the object.
nonisolated(unsafe) public let kCGImagePropertyIPTCOriginatingProgram: CFString = "OriginatingProgram"
/// The version of the program that made the object.
nonisolated(unsafe) public let kCGImagePropertyIPTCProgramVersion: CFString = "ProgramVersion"
/// The names of the people who made the object.
nonisolated(unsafe) public let kCGImagePropertyIPTCByline: CFString = "Byline"
/// The titles of the people who made the object.
nonisolated(unsafe) public let kCGImagePropertyIPTCBylineTitle: CFString = "BylineTitle"
/// The city where the object was made.
nonisolated(unsafe) public let kCGImagePropertyIPTCCity: CFString = "City"
/// The place within the city where the object was made.
nonisolated(unsafe) public let kCGImagePropertyIPTCSubLocation: CFString = "SubLocation"
/// The province or state where the object was made.
nonisolated(unsafe) public let kCGImagePropertyIPTCProvinceState: CFString = "Province/State"
/// The code of the country where the object was made.
nonisolated(unsafe) public let kCGImagePropertyIPTCCountryPrimaryLocationCode: CFString = "Country/PrimaryLocationCode"
/// The name of the country where the object was made.
nonisolated(unsafe) public let kCGImagePropertyIPTCCountryPrimaryLocationName: CFString = "Country/PrimaryLocationName"
/// A reference that identifies where the object came from, for transmission.
nonisolated(unsafe) public let kCGImagePropertyIPTCOriginalTransmissionReference: CFString = "OriginalTransmissionReference"
/// A synopsis of the object's contents.
nonisolated(unsafe) public let kCGImagePropertyIPTCHeadline: CFString = "Headline"
/// The provider of the object.
nonisolated(unsafe) public let kCGImagePropertyIPTCCredit: CFString = "Credit"
/// The original owner of the object's intellectual content.
nonisolated(unsafe) public let kCGImagePropertyIPTCSource: CFString = "Source"
/// A copyright notice for the object.
nonisolated(unsafe) public let kCGImagePropertyIPTCCopyrightNotice: CFString = "CopyrightNotice"
/// The people to contact for more information about the object.
nonisolated(unsafe) public let kCGImagePropertyIPTCContact: CFString = "Contact"
/// A description of the object's contents.
nonisolated(unsafe) public let kCGImagePropertyIPTCCaptionAbstract: CFString = "Caption/Abstract"
/// The people who wrote or edited the description.
nonisolated(unsafe) public let kCGImagePropertyIPTCWriterEditor: CFString = "Writer/Editor"
/// The language of the object's text.
nonisolated(unsafe) public let kCGImagePropertyIPTCLanguageIdentifier: CFString = "LanguageIdentifier"
