import ArgumentParser

// The least a Swift command line with ArgumentParser costs to start, Foundation left out:
// ArgumentParser itself brings only FoundationEssentials. Linked as avcapture is
// (scripts/bench.sh), the start-up benchmark measures its `--help` beside `avbench-floor`'s
// (ArgumentParser and Foundation) and GStreamer's, so that each run shows what a command line
// would start from if it did without Foundation.

/// A command line with two subcommands, as small as one with ArgumentParser can be.
struct ParserFloor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "avbench-floor-parser", abstract: "Prints a line: the start-up benchmark's floor without Foundation.",
        subcommands: [Path.self, Name.self])

    /// Prints a path.
    struct Path: ParsableCommand {
        @Option(help: "A path to print.") var path = "/tmp"
        func run() { print(path) }
    }

    /// Prints a name with the process's argument count.
    struct Name: ParsableCommand {
        @Argument(help: "A name to print.") var name: String
        func run() { print(name, CommandLine.arguments.count) }
    }
}

ParserFloor.main()
