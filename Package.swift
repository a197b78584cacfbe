// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "LinuxAVFoundation",
    products: [
        .library(name: "AVFoundation", targets: ["AVFoundation"]),
        .library(name: "AVFAudio", targets: ["AVFAudio"]),
        .library(name: "AudioToolbox", targets: ["AudioToolbox"]),
        .library(name: "CoreAudioTypes", targets: ["CoreAudioTypes"]),
        .library(name: "CoreMedia", targets: ["CoreMedia"]),
        .library(name: "CoreVideo", targets: ["CoreVideo"]),
        .library(name: "CoreGraphics", targets: ["CoreGraphics", "_Testing_CoreGraphics"]),
        .library(name: "QuartzCore", targets: ["QuartzCore"]),
        .library(name: "ImageIO", targets: ["ImageIO"]),
        .library(name: "CoreImage", targets: ["CoreImage", "_Testing_CoreImage"]),
        .library(name: "Photos", targets: ["Photos"]),
        .library(name: "VideoToolbox", targets: ["VideoToolbox"]),
        .library(name: "MediaToolbox", targets: ["MediaToolbox"]),
        .library(name: "UniformTypeIdentifiers", targets: ["UniformTypeIdentifiers"]),
        .library(name: "MobileCoreServices", targets: ["MobileCoreServices"]),
        .library(name: "CoreServices", targets: ["CoreServices"]),
        .library(name: "Combine", targets: ["Combine"]),
        .library(name: "LinuxAVFoundationWindow", targets: ["LinuxAVFoundationWindow"]),
        .library(name: "CaptureDevices", targets: ["CaptureDevices"]),
        .executable(name: "avcapture", targets: ["avcapture"]),
    ],
    // The engines an app can leave out, on by default: without one, its C++ is not compiled, its
    // Debian packages are not needed to build, and what it does reports that it is not available.
    traits: [
        .trait(
            name: "FaceDetection",
            description:
                "Faces in AVCaptureMetadataOutput, and turned and sharpened retries when reading codes in still pictures, through dlib (Debian's libdlib-dev)."
        ),
        .trait(
            name: "VoiceProcessing",
            description:
                "AVAudioEngine's voice processing (echo cancellation, noise suppression, gain), through WebRTC's audio processing (Debian's libwebrtc-audio-processing-dev)."
        ),
        .default(enabledTraits: ["FaceDetection", "VoiceProcessing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.0.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // C shims over the system libraries the media path is built on.
        // Loading a library by its soname when it is first needed, for the shims below that do.
        .target(name: "CLibraryLoading"),
        // Calling a class's init() through its class object, as Apple's class-taking APIs need.
        .target(name: "CObjectCreation"),
        .systemLibrary(name: "CYUV", path: "Sources/CYUV"),
        .target(name: "CV4L2"),
        // libjpeg-turbo's libjpeg API with memory kept from frame to frame, for MJPEG cameras.
        .target(name: "CJPEGCodec", linkerSettings: [.linkedLibrary("jpeg")]),
        // libasound is loaded by its soname when ALSA is first asked for devices (alsa_library.h).
        .target(name: "CALSA", dependencies: ["CLibraryLoading"]),
        // libpulse is loaded by its soname when a PulseAudio server is first asked for (pulse_library.h).
        .target(name: "CPulse", dependencies: ["CLibraryLoading"]),
        // libpipewire is loaded by its soname when a PipeWire server is first asked for (pipewire_library.h);
        // its headers (Debian's libpipewire-0.3-dev) are found through links in Sources/CPipeWire/system.
        .target(name: "CPipeWire", dependencies: ["CLibraryLoading"], cSettings: [.headerSearchPath("system")]),
        // FFmpeg, loaded by its sonames when a movie is first opened or written (ffmpeg_library.h).
        .target(name: "CMediaCodecs", dependencies: ["CLibraryLoading"]),
        // ZXing-C++ 3 (built by scripts/build-zxing.sh; Debian packages only 1.4).
        .systemLibrary(name: "CZXing", path: "Sources/CZXing", pkgConfig: "zxing"),
        // dlib's face detector and landmark model (Debian's libdlib-dev, libdlib-data), in C++ behind a C interface.
        // dlib's detectors are header templates compiled here: unoptimised they run 20 to 50 times
        // slower, too slow for a camera's frames even in a debug build, so these two are always optimised.
        // libdlib and BLAS are loaded by their sonames when the first detector is made (dlib_library.c).
        .target(
            name: "CFaceDetection", dependencies: ["CLibraryLoading"],
            cSettings: [.define("LAVF_FACE_DETECTION", .when(traits: ["FaceDetection"]))],
            cxxSettings: [.define("LAVF_FACE_DETECTION", .when(traits: ["FaceDetection"]))]),
        .target(name: "CPictureFilters", cxxSettings: [.define("LAVF_FACE_DETECTION", .when(traits: ["FaceDetection"]))]),
        // Rubber Band and SoundTouch, for sound played or scaled at another rate with its pitch kept,
        // loaded by their sonames when the first stretcher is made (time_pitch_library.c).
        .target(name: "CTimePitch", dependencies: ["CLibraryLoading"]),
        // WebRTC's audio processing module (Debian's libwebrtc-audio-processing), the engine input's voice
        // processing, in C++ behind a C interface; loaded by its soname when the first processor is made.
        // Its headers (Debian's libwebrtc-audio-processing-dev) are found through a link in
        // Sources/CVoiceProcessing/system, and its defines are those of its pkg-config file.
        .target(
            name: "CVoiceProcessing", dependencies: ["CLibraryLoading"],
            cxxSettings: [
                .headerSearchPath("system"), .define("WEBRTC_POSIX"), .define("WEBRTC_AUDIO_PROCESSING_ONLY_BUILD"),
                .define("LAVF_VOICE_PROCESSING", .when(traits: ["VoiceProcessing"])),
            ]),
        // libxcb with its shared memory and XFixes extensions (Debian's libxcb1, libxcb-shm0, libxcb-xfixes0),
        // the X11 screen's pictures, loaded by their sonames when a screen is first opened (CScreenCapture.h).
        .target(name: "CScreenCapture", dependencies: ["CLibraryLoading"]),
        // SDL 2 (Debian's libsdl2-2.0-0, which FFmpeg's player brings), the desktop window's drawing, loaded by its soname when the first window opens (CVideoWindow.h).
        .target(name: "CVideoWindow", dependencies: ["CLibraryLoading"]),
        // GTK 4 (Debian's libgtk-4-1), whose paintable GTK apps put in their own widget tree, loaded by its soname when the first paintable is made (CVideoPaintable.h).
        .target(name: "CVideoPaintable", dependencies: ["CLibraryLoading"]),
        // libcurl, which Foundation's URL loading calls, loaded by avcapture only when it is first called (CCurlOnDemand.h).
        .target(name: "CCurlOnDemand"),
        // avcapture's process-wide settings Swift cannot reach: ordinary pages over transparent huge ones, line-buffered output (CProcessSettings.h).
        .target(name: "CProcessSettings"),
        // libheif is loaded by its soname when a HEIC photo is first encoded (heif_library.h).
        .target(name: "CPhotoCodecs", dependencies: ["CLibraryLoading"], linkerSettings: [.linkedLibrary("exif"), .linkedLibrary("png16")]),

        // libid3tag (Debian's libid3tag0), the ID3 tags of timed metadata in MPEG-TS and HLS streams,
        // loaded by its soname when the first tag is read (CID3Tags.h).
        .target(name: "CID3Tags", dependencies: ["CLibraryLoading"]),

        // cairo and pixman (Debian's libcairo2-dev), which Core Graphics' bitmap contexts draw with,
        // loaded by their sonames when the first context is made (CCairo.h).
        .target(name: "CCairo", dependencies: ["CLibraryLoading"]),

        // Combine: OpenCombine's publishers, subscribers and operators, with the schedulers and
        // publishers Apple's Foundation adds (dispatch queues, run loops, timers, notifications).
        .target(name: "Combine", dependencies: [.product(name: "OpenCombine", package: "OpenCombine")]),

        // Media types, geometry and Core Graphics' images, colour spaces and bitmap contexts, spelled as Apple spells them.
        .target(name: "CoreGraphics", dependencies: ["CCairo"]),
        // Uniform type identifiers: the media types capture and player code names files by.
        .target(name: "UniformTypeIdentifiers"),
        // Core Services' type identifier constants and C functions (kUTTypeJPEG, UTTypeCreatePreferredIdentifierForTag),
        // under iOS's module name and macOS's.
        .target(name: "MobileCoreServices", dependencies: ["UniformTypeIdentifiers", "CoreGraphics"]),
        .target(name: "CoreServices", dependencies: ["MobileCoreServices"]),
        // The cross-import overlay Swift Testing expects beside CoreGraphics (see its one file).
        .target(name: "_Testing_CoreGraphics", dependencies: ["CoreGraphics"]),
        .target(name: "QuartzCore", dependencies: ["CoreGraphics"]),
        .target(name: "CoreVideo", dependencies: ["CoreGraphics"]),
        // Core Audio's types: stream descriptions, buffer lists, time stamps and channel layouts
        // (the C structures callers lay memory out by come from CCoreAudioTypes).
        .target(name: "CCoreAudioTypes"),
        .target(name: "CoreAudioTypes", dependencies: ["CCoreAudioTypes"]),
        .target(name: "CoreMedia", dependencies: ["CoreVideo", "CoreAudioTypes"]),
        // Image I/O: image sources and destinations over the photo codecs (TIFF and GIF through libvips), and the property keys of photo metadata.
        .target(name: "ImageIO", dependencies: ["CoreVideo", "FrameProcessing", "CVips", "CMediaCodecs"]),
        // Video Toolbox: compression and decompression sessions over the movie engine's encoders and
        // decoders, pixel transfer and rotation, and the compression property keys output settings are written with.
        .target(name: "VideoToolbox", dependencies: ["CoreMedia", "CoreVideo", "CoreGraphics", "FrameProcessing", "MovieEngine"]),
        // Media Toolbox: the audio processing taps an audio mix's tracks are processed through.
        .target(name: "MediaToolbox", dependencies: ["CoreMedia", "CoreAudioTypes"]),
        // libvips (Debian's libvips42), Core Image's renderer and Image I/O's TIFF and GIF codec, loaded by its soname at first use (CVips.h).
        .target(name: "CVips", dependencies: ["CLibraryLoading"]),
        // Core Image: images as recipes, filters, and contexts that render them with libvips; and
        // the barcode descriptors a metadata output's codes describe.
        .target(name: "CoreImage", dependencies: ["CoreGraphics", "CoreVideo", "ImageIO", "FrameProcessing", "CVips", "CCoreImage"]),
        // The module map that makes `import CoreImage.CIFilterBuiltins` work (its one file says how).
        .target(name: "CCoreImage"),
        // The cross-import overlay Swift Testing expects beside CoreImage (see its one file).
        .target(name: "_Testing_CoreImage", dependencies: ["CoreImage"]),

        // What is done to frames and pictures: pixel formats, scaling and turning (the one importer
        // of libyuv), layers blended through affine transforms (pixman), frame pools, JPEG/HEIC/PNG
        // coding, codes, faces, and the virtual scene's rendering.
        .target(
            name: "FrameProcessing",
            dependencies: ["CoreMedia", "CoreVideo", "CYUV", "CCairo", "CJPEGCodec", "CPhotoCodecs", "CZXing", "CFaceDetection", "CPictureFilters"]),

        // Device backends (one folder per backend) behind one internal protocol.
        .target(
            name: "CaptureDevices", dependencies: ["CoreMedia", "CoreVideo", "FrameProcessing", "CV4L2", "CALSA", "CPulse", "CPipeWire", "CScreenCapture"]),

        // Movie files: FFmpeg's demuxers, decoders, encoders and muxers, and sound stretched by
        // Rubber Band and SoundTouch (the one importer of FFmpeg's and the stretchers' shims).
        .target(
            name: "MovieEngine",
            dependencies: ["CoreGraphics", "CoreMedia", "CoreVideo", "FrameProcessing", "CMediaCodecs", "CTimePitch", "CID3Tags", "CObjectCreation"]),

        // espeak-ng (Debian's libespeak-ng1), AVSpeechSynthesizer's voices, loaded by its soname at the first speech (CSpeech.h).
        .target(name: "CSpeech", dependencies: ["CLibraryLoading"]),
        // AVFAudio: audio formats, buffers, files, converters and time over FFmpeg's readers,
        // writers and resampler (through MovieEngine); recording, playing and the engine over the
        // capture devices and the sound server; speech over espeak-ng.
        // Audio Toolbox's C structures (the audio queue's buffer), laid out as Apple's headers lay them out.
        .target(name: "CAudioToolbox", dependencies: ["CCoreAudioTypes"]),
        // Audio queues and system sounds, on the capture devices and the movie engine's decoders and converters.
        .target(name: "AudioToolbox", dependencies: ["CoreAudioTypes", "CoreMedia", "MovieEngine", "CaptureDevices", "CAudioToolbox", "CoreGraphics"]),
        // Apple's AVFAudio brings Audio Toolbox, as here.
        .target(
            name: "AVFAudio", dependencies: ["AudioToolbox", "CoreAudioTypes", "CoreMedia", "MovieEngine", "CaptureDevices", "CSpeech", "CVoiceProcessing"]),

        // The capture graph, devices, outputs and errors.
        .target(
            name: "AVFoundation",
            dependencies: [
                "AVFAudio", "AudioToolbox", "Combine", "MediaToolbox",
                "CoreGraphics", "_Testing_CoreGraphics", "QuartzCore", "ImageIO", "CoreImage", "_Testing_CoreImage", "CoreMedia", "CoreVideo",
                "FrameProcessing", "CaptureDevices", "MovieEngine", "UniformTypeIdentifiers",
            ]),

        // The part of PhotoKit capture apps save with; the library is the user's XDG folders. It
        // brings AVFoundation, as Apple's does (its image manager hands out AVAssets).
        .target(name: "Photos", dependencies: ["AVFoundation"]),

        // The live view: a preview layer's frames and controls served to a browser (Linux).
        .target(
            name: "LiveView",
            dependencies: [
                "AVFoundation", "CaptureDevices", "CoreVideo",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ],
            // The page's HTML, CSS and JavaScript, assembled when a server starts (LiveViewPage).
            resources: [.copy("Page")]),

        // Windows on the Linux desktop for the player and preview layers (Linux), drawn with SDL 2.
        .target(name: "LinuxAVFoundationWindow", dependencies: ["AVFoundation", "CoreVideo", "CVideoWindow", "CVideoPaintable"]),

        // The command-line tool. The project's release builds link the Swift runtime and Foundation
        // into it (scripts/build-flags.sh): resolving their symbols across shared libraries was a
        // third of a one-picture scan's start (16 ms against zbarimg's 10.4; 10.3 ms linked in).
        .executableTarget(
            name: "avcapture",
            dependencies: [
                "AVFoundation", "Photos", "LiveView", "LinuxAVFoundationWindow", "VideoToolbox", "UniformTypeIdentifiers", "CCurlOnDemand",
                "CProcessSettings", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // Benchmarks: run with `swift run -c release avbench`.
        .target(name: "CBenchmarkSupport", path: "Benchmarks/CBenchmarkSupport"),
        .executableTarget(
            name: "avbench",
            dependencies: [
                "AVFoundation", "VideoToolbox", "CaptureDevices", "FrameProcessing", "CCairo", "CBenchmarkSupport", "TestSupport", "CoreImage", "CVips",
                "UniformTypeIdentifiers", "CTimedID3Fixture", "MovieEngine", "CYUV", "LinuxAVFoundationWindow",
            ],
            // cairo drawn with directly, as the peer of Core Graphics' contexts.
            path: "Benchmarks/avbench", linkerSettings: [.linkedLibrary("cairo")]),
        // The start-up benchmark's floor: a command line of ArgumentParser and Foundation alone.
        .executableTarget(
            name: "avbench-floor", dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")], path: "Benchmarks/startup-floor"),
        // The same without Foundation: ArgumentParser alone, which brings only FoundationEssentials.
        .executableTarget(
            name: "avbench-floor-parser", dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Benchmarks/startup-floor-parser"),

        // TurboJPEG, the reference the JPEG encoder's bytes are checked against.
        .systemLibrary(name: "CTurboJPEG", path: "Tests/CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"])]),
        // Timed ID3 test inputs, rendered by libid3tag and muxed by libavformat (linked directly: tests only).
        .target(
            name: "CTimedID3Fixture", path: "Tests/CTimedID3Fixture",
            linkerSettings: [.linkedLibrary("id3tag"), .linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("avutil")]),
        // A GTK 4 app's side of the paintable tests: a window with a GtkPicture, GTK loaded by its soname.
        .target(name: "CGtkTestHost", path: "Tests/CGtkTestHost"),
        // What the tests and benchmarks share: running tools, probing movies, loopback clients, private servers, waiting.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "CoreGraphicsTests", dependencies: ["CoreGraphics", "_Testing_CoreGraphics"]),
        .testTarget(name: "CoreImageTests", dependencies: ["CoreImage", "CoreGraphics", "CoreVideo", "ImageIO", "AVFoundation", "TestSupport"]),
        .testTarget(name: "CoreVideoTests", dependencies: ["CoreVideo"]),
        .testTarget(name: "CoreMediaTests", dependencies: ["CoreMedia"]),
        .testTarget(name: "VideoToolboxTests", dependencies: ["VideoToolbox"]),
        .testTarget(name: "MediaToolboxTests", dependencies: ["MediaToolbox"]),
        .testTarget(name: "CombineTests", dependencies: ["Combine"]),
        .testTarget(name: "AVFAudioTests", dependencies: ["AVFAudio", "AudioToolbox", "CoreMedia", "CaptureDevices", "TestSupport"]),
        .testTarget(name: "ImageIOTests", dependencies: ["ImageIO", "CoreGraphics", "UniformTypeIdentifiers", "TestSupport", "CTurboJPEG"]),
        .testTarget(name: "LinuxAVFoundationWindowTests", dependencies: ["LinuxAVFoundationWindow", "AVFoundation", "TestSupport", "CGtkTestHost"]),
        // Capture tests' own helpers over AVFoundation's public API: a clean virtual world for each
        // test, collectors of what outputs deliver, pixel and tone measures, movies made by ffmpeg.
        .target(
            name: "CaptureTestSupport", dependencies: ["AVFoundation", "CaptureDevices", "FrameProcessing", "TestSupport", "CTimedID3Fixture"],
            path: "Tests/CaptureTestSupport"),
        // The tests by tier. Units: the processing layer, planners, codecs and errors, no device streams.
        .testTarget(
            name: "UnitTests",
            dependencies: [
                "AVFoundation", "UniformTypeIdentifiers", "MobileCoreServices", "CoreServices", "CaptureDevices", "FrameProcessing", "CTurboJPEG", "CV4L2",
                "VideoToolbox",
                "TestSupport", "CaptureTestSupport",
            ]),
        // Apple's capture API on the virtual devices: the graph, devices, data, photo, movie, code and preview outputs.
        .testTarget(
            name: "CaptureTests", dependencies: ["AVFoundation", "CaptureDevices", "FrameProcessing", "Photos", "Combine", "TestSupport", "CaptureTestSupport"]),
        // Apple's media API on movie files: assets, reading, writing, editing, export and playback.
        .testTarget(name: "MediaTests", dependencies: ["AVFoundation", "UniformTypeIdentifiers", "Combine", "TestSupport", "CaptureTestSupport"]),
        // Kernel devices (V4L2 cameras, ALSA cards): they skip without them and run in the VM (scripts/vm).
        .testTarget(name: "KernelDeviceTests", dependencies: ["AVFoundation", "CaptureDevices", "FrameProcessing", "TestSupport", "CaptureTestSupport"]),
        // Devices and sound behind PipeWire and PulseAudio servers the tests start privately.
        .testTarget(
            name: "ServerTests",
            dependencies: ["AVFoundation", "AppleStyleCode", "CaptureDevices", "CPulse", "CPipeWire", "TestSupport", "CaptureTestSupport"]),
        .testTarget(name: "avcaptureTests", dependencies: ["avcapture", "CaptureDevices", "TestSupport", "ImageIO", "CoreGraphics", "CCurlOnDemand"]),
        .testTarget(name: "PhotosTests", dependencies: ["Photos"]),
        .testTarget(
            name: "LiveViewTests",
            dependencies: [
                "LiveView", "AVFoundation", "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]),
        // Capture code in Apple's spelling that imports AVFoundation alone, and tests of what it computes; and one
        // file per module (ModuleContents) that imports that module alone and uses what Apple's brings.
        .target(
            name: "AppleStyleCode",
            dependencies: [
                "AVFoundation", "AudioToolbox", "Photos", "VideoToolbox", "MediaToolbox", "CoreImage", "ImageIO", "MobileCoreServices", "CoreServices",
                "Combine", "UniformTypeIdentifiers",
            ],
            path: "Tests/AppleStyleCode"),
        .testTarget(
            name: "AppleStyleCodeTests", dependencies: ["AppleStyleCode", "AVFoundation", "CaptureDevices", "Combine", "TestSupport", "CaptureTestSupport"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
