import ArgumentParser
import AVFoundation
import Foundation

@main
struct AVCapture: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "avcapture",
        abstract: "Capture from cameras and microphones with AVFoundation on Linux.",
        discussion: "With no camera or microphone on the machine, the virtual devices stand in for them.",
        version: version,
        subcommands: [Devices.self, Monitor.self, Record.self, Photo.self, Scan.self, Preview.self, Stream.self, Export.self, Thumbnail.self, Play.self])

    /// Runs the command the arguments name, with standard streams that a closed terminal or a
    /// reader that went away cannot turn into a crash, on ordinary memory pages.
    static func main() {
        StandardStreams.prepare()
        ProcessMemory.prepare()
        main(nil)
    }
}
