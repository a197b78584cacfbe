// swift-tools-version:6.0
// The programs a newcomer starts from, each an executable written as it would be for Apple's
// platforms, depending on LinuxAVFoundation by path. They share one package so that the library
// is compiled once for all six (scripts/examples.sh builds and runs each on the virtual devices).
import PackageDescription

let linux = TargetDependencyCondition.when(platforms: [.linux])

let package = Package(
    name: "Examples",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "LinuxAVFoundation", path: "..")],
    targets: [
        // A camera recorder: the session, frames counted as they arrive, a movie.
        .executableTarget(
            name: "CameraRecorder",
            dependencies: [.product(name: "AVFoundation", package: "LinuxAVFoundation", condition: linux)]),
        // A photo booth: photos into the Pictures folder, and a strip of their thumbnails.
        .executableTarget(
            name: "PhotoBooth",
            dependencies: [
                .product(name: "AVFoundation", package: "LinuxAVFoundation", condition: linux),
                .product(name: "Photos", package: "LinuxAVFoundation", condition: linux),
                .product(name: "ImageIO", package: "LinuxAVFoundation", condition: linux),
                .product(name: "UniformTypeIdentifiers", package: "LinuxAVFoundation", condition: linux),
            ]),
        // A barcode scanner: the metadata output's codes as they come into view.
        .executableTarget(
            name: "BarcodeScanner",
            dependencies: [
                .product(name: "AVFoundation", package: "LinuxAVFoundation", condition: linux),
                .product(name: "CoreImage", package: "LinuxAVFoundation", condition: linux),
            ]),
        // A thumbnail and transcode service over a folder of movies, with a progress bar.
        .executableTarget(
            name: "ThumbnailService",
            dependencies: [
                .product(name: "AVFoundation", package: "LinuxAVFoundation", condition: linux),
                .product(name: "ImageIO", package: "LinuxAVFoundation", condition: linux),
                .product(name: "UniformTypeIdentifiers", package: "LinuxAVFoundation", condition: linux),
            ]),
        // An audio recorder with a level meter: an engine's input tapped into a file.
        .executableTarget(
            name: "AudioRecorder",
            dependencies: [.product(name: "AVFAudio", package: "LinuxAVFoundation", condition: linux)]),
        // A tiny editor: two clips crossfaded, with a title, exported.
        .executableTarget(
            name: "TinyEditor",
            dependencies: [.product(name: "AVFoundation", package: "LinuxAVFoundation", condition: linux)]),
    ]
)
