import ArgumentParser
import Foundation

// The least a Swift command line costs to start: ArgumentParser's commands and Foundation, with
// nothing of the project's, linked as avcapture is (scripts/bench.sh). The start-up benchmark
// measures its `--help` beside avcapture's and GStreamer's, and the cameras benchmark its
// `ffmpeg` (FFmpeg's libraries loaded as a recording loads them, nothing run) beside a
// recording's, so that each run shows how much of avcapture's resident size is the language's
// runtime and the libraries rather than its own.

/// A command line with two subcommands, as small as one that uses Foundation can be.
struct StartupFloor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "avbench-floor", abstract: "Prints a line: the start-up benchmark's floor.", subcommands: [Path.self, Name.self, FFmpeg.self])

    /// Prints a file URL's path.
    struct Path: ParsableCommand {
        @Option(help: "A path to print.") var path = "/tmp"
        func run() { print(URL(fileURLWithPath: path).standardizedFileURL.path) }
    }

    /// Prints a name with the process's argument count.
    struct Name: ParsableCommand {
        @Argument(help: "A name to print.") var name: String
        func run() { print(name, ProcessInfo.processInfo.arguments.count) }
    }

    /// Loads FFmpeg's five libraries, as a recording does on its first movie, and prints how many loaded.
    struct FFmpeg: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ffmpeg", abstract: "Loads FFmpeg's libraries.")
        func run() throws {
            let names = ["libavformat.so", "libavcodec.so", "libswscale.so", "libswresample.so", "libavutil.so"]
            let loaded = names.filter { dlopen($0, RTLD_NOW) != nil }
            print("\(loaded.count) of \(names.count) of FFmpeg's libraries loaded")
            if loaded.count != names.count { throw ExitCode.failure }
        }
    }
}

StartupFloor.main()
