import XCTest
import Foundation
import TestSupport

/// What a careless user or an attacker gives `avcapture`: links planted where it writes, files it
/// must not replace, closed and broken standard streams, damaged movies, pictures that cost more
/// to decode than their size says, and values that mean nothing. Each is refused with a sentence
/// or survived; nothing takes the process down, and nothing is lost.
final class HostileInputTests: XCTestCase {
    /// `avcapture` with standard output (or error) closed, or a pipe whose reader has gone, as
    /// `avcapture ... >&-` and `avcapture ... | head -1` leave them.
    private enum Stream { case closed, broken }

    private func run(_ arguments: [String], stdout: Stream? = nil, stderr: Stream? = nil) throws -> (status: Int32, signalled: Bool, errors: String) {
        let executable = try XCTUnwrap(AVCaptureTool.executable)
        let process = Process()
        var redirections = ""
        if stdout == .closed { redirections += " >&-" }
        if stderr == .closed { redirections += " 2>&-" }
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" \"$@\"\(redirections)", executable.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["LINUXAVFOUNDATION_DEVICES": "virtual"]) { $1 }
        let brokenPipe = Pipe()
        brokenPipe.fileHandleForReading.closeFile()
        let errorFile = AVCaptureTool.folder("stderr").appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardOutput = stdout == .broken ? brokenPipe : FileHandle.nullDevice
        process.standardError = stderr == .broken ? brokenPipe : try FileHandle(forWritingTo: errorFile)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal, (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")
    }

    // MARK: Standard streams

    /// `record | head -1` died of SIGPIPE and left a movie with no media.
    func testARecordingFinishesItsMovieWhenItsOutputIsAPipeNobodyReads() throws {
        let movie = AVCaptureTool.folder("broken-pipe").appendingPathComponent("a.mov")
        let result = try run(["record", movie.path, "--seconds", "1.5", "--preset", "low", "--no-audio"], stdout: .broken)
        XCTAssertFalse(result.signalled, "no SIGPIPE")
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertGreaterThan(MediaProbe.videoPacketCount(movie) ?? 0, 10, "a whole movie")
    }

    /// `preview >&-` and `scan` with standard error closed trapped on the first line they wrote.
    func testClosedStandardStreamsAreNoReasonToStop() throws {
        let preview = try run(["preview", "--port", "0", "--seconds", "1", "--format", "640x480@10"], stdout: .closed)
        XCTAssertFalse(preview.signalled, preview.errors)
        XCTAssertEqual(preview.status, 0, preview.errors)
        let scan = try run(["scan", "--seconds", "1"], stdout: .broken, stderr: .closed)
        XCTAssertFalse(scan.signalled)
        XCTAssertEqual(scan.status, 0)
        let movie = AVCaptureTool.folder("closed").appendingPathComponent("b.mov")
        let record = try run(["record", movie.path, "--seconds", "1", "--preset", "low", "--no-audio"], stdout: .closed, stderr: .closed)
        XCTAssertEqual(record.status, 0)
        XCTAssertGreaterThan(MediaProbe.videoPacketCount(movie) ?? 0, 0, "the movie is whole, not written into by the tool's own lines")
        XCTAssertTrue(MediaProbe.decodesCleanly(movie))
    }

    // MARK: HLS folders

    /// A link planted at a temporary name was written through; a user's own `init.mp4` was replaced.
    func testHLSWritesThroughNoLinkAndReplacesNoFile() throws {
        let folder = AVCaptureTool.folder("hls-links").appendingPathComponent("live")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let victim = AVCaptureTool.folder("hls-victim").appendingPathComponent("precious.txt")
        try Data("mine".utf8).write(to: victim)
        for name in [".segment0.m4s.partial", ".init.mp4.partial", ".index.m3u8.partial", ".segment1.m4s.partial"] {
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(name).path, withDestinationPath: victim.path)
        }
        let result = try AVCaptureTool.run(
            ["stream", "--hls", folder.path, "--seconds", "4", "--segment-seconds", "1", "--format", "640x480@30", "--no-audio"],
            environment: ["LINUXAVFOUNDATION_DEVICES": "virtual"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "mine", "nothing was written through a link")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("init.mp4").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("segment0.m4s").path))

        // A folder holding a file the stream would write is refused, naming it; the file is kept.
        for name in ["init.mp4", "segment3.m4s", "index.m3u8"] {
            let used = AVCaptureTool.folder("hls-used")
            try Data("user's".utf8).write(to: used.appendingPathComponent(name))
            let refused = try AVCaptureTool.run(["stream", "--hls", used.path, "--seconds", "2"], environment: ["LINUXAVFOUNDATION_DEVICES": "virtual"])
            XCTAssertNotEqual(refused.status, 0, name)
            XCTAssertTrue(refused.standardError.contains("already holds \(name)"), refused.standardError)
            XCTAssertEqual(try String(contentsOf: used.appendingPathComponent(name), encoding: .utf8), "user's")
        }
        let empty = try AVCaptureTool.run(["stream", "--hls", ""])
        XCTAssertNotEqual(empty.status, 0)
        XCTAssertTrue(empty.standardError.contains("--hls needs a folder"), empty.standardError)
    }

    // MARK: Values

    /// Values that mean nothing were taken: a size of -1 or 0, a rate left out, a region of no
    /// size, a negative start, no time at all, and a PGM of negative size.
    func testValuesThatMeanNothingAreRefusedWithASentence() throws {
        let folder = AVCaptureTool.folder("values")
        let movie = try AVCaptureTool.movie(in: folder, seconds: 1)
        let cases: [(arguments: [String], says: String)] = [
            (["record", folder.appendingPathComponent("a.mov").path, "--max-size=-1"], "--max-size is a number of bytes, more than 0"),
            (["record", folder.appendingPathComponent("b.mov").path, "--max-size", "0"], "--max-size is a number of bytes, more than 0"),
            (["monitor", "--format", "640x480@"], "A format is WIDTHxHEIGHT or WIDTHxHEIGHT@FPS"),
            (["monitor", "--format", "x480@30"], "A format is WIDTHxHEIGHT or WIDTHxHEIGHT@FPS"),
            (["scan", "--rect", "0.1,0.1,0,0.5", "--seconds", "1"], "--rect is x,y,width,height"),
            (["scan", "--rect", "0.1,,0.2,0.5,0.1", "--seconds", "1"], "--rect is x,y,width,height"),
            (["export", movie.path, folder.appendingPathComponent("c.mp4").path, "--range=-1-2"], "--range is START-END"),
            (["record", folder.appendingPathComponent("d.mov").path, "--seconds", "0"], "more than 0 seconds"),
            (["preview", "--seconds", "0"], "more than 0 seconds"),
            (["monitor", "--seconds", "0"], "more than 0 seconds"),
        ]
        for refused in cases {
            let result = try AVCaptureTool.run(refused.arguments)
            XCTAssertNotEqual(result.status, 0, "\(refused.arguments): \(result.output)")
            XCTAssertTrue(result.standardError.contains(refused.says), "\(refused.arguments): \(result.standardError)")
        }
        let pgm = folder.appendingPathComponent("negative.pgm")
        try Data("P5 -5 -5 255\n".utf8 + [UInt8](repeating: 128, count: 64)).write(to: pgm)
        let scan = try AVCaptureTool.run(["scan", "--image", pgm.path])
        XCTAssertTrue(scan.standardError.contains("header is not a width, a height and a maximum value"), scan.standardError)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["movie.mp4", "negative.pgm"], "nothing was written")
    }

    /// A link that loops was said not to exist.
    func testALinkThatLoopsIsSaidToLoop() throws {
        let folder = AVCaptureTool.folder("loop")
        let loop = folder.appendingPathComponent("loop.mov")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: loop.path)
        let dangling = folder.appendingPathComponent("dangling.mov")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: folder.appendingPathComponent("gone.mov").path)
        for command in [
            ["play", loop.path], ["export", loop.path, folder.appendingPathComponent("o.mp4").path],
            ["thumbnail", loop.path, folder.appendingPathComponent("o.jpg").path],
        ] {
            let result = try AVCaptureTool.run(command)
            XCTAssertTrue(result.standardError.contains("is a symbolic link that loops"), "\(command): \(result.standardError)")
        }
        let result = try AVCaptureTool.run(["play", dangling.path])
        XCTAssertTrue(result.standardError.contains("is a symbolic link to nothing"), result.standardError)
    }

    // MARK: Damaged movies

    /// A movie made by ffmpeg, damaged by `damage` (its bytes, the offset of its video track's
    /// `mdhd` timescale, the offset of `moov`).
    private func damagedMovie(_ name: String, _ damage: (inout Data, Int, Int) -> Void) throws -> URL {
        let folder = AVCaptureTool.folder("damaged")
        let movie = try AVCaptureTool.movie(in: folder, seconds: 1, name: "source.mov")
        var data = try Data(contentsOf: movie)
        let moov = try XCTUnwrap(data.range(of: Data("moov".utf8))).lowerBound
        let mdhd = try XCTUnwrap(data.range(of: Data("mdhd".utf8))).lowerBound
        let timescale = mdhd + 4 + 4 + (data[mdhd + 4] == 1 ? 16 : 8)
        damage(&data, timescale, moov)
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    /// `export` trapped on a file cut inside `moov` and on a video timescale of 0, 1 or the largest.
    func testExportOfADamagedMovieIsAnErrorNotACrash() throws {
        let cut = try damagedMovie("cut.mov") { data, _, moov in data = data.prefix(moov + 200) }
        var cases: [(URL, String)] = [(cut, "passthrough")]
        for (name, value) in [("zero", UInt32(0)), ("one", 1), ("largest", UInt32.max)] {
            let movie = try damagedMovie("timescale-\(name).mov") { data, at, _ in
                withUnsafeBytes(of: value.bigEndian) { data.replaceSubrange(at..<(at + 4), with: $0) }
            }
            cases += [(movie, "passthrough"), (movie, "low")]
        }
        for (movie, preset) in cases {
            let output = movie.deletingLastPathComponent().appendingPathComponent("out-\(preset)-\(movie.lastPathComponent).mp4")
            let result = try run(["export", movie.path, output.path, "--preset", preset])
            XCTAssertFalse(result.signalled, "\(movie.lastPathComponent) \(preset): \(result.errors)")
            XCTAssertFalse(result.errors.contains("Fatal error"), "\(movie.lastPathComponent) \(preset): \(result.errors)")
            if result.status != 0 {
                XCTAssertFalse(result.errors.isEmpty, "a failure says why")
                XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "no half movie is left")
            }
            for command in [["thumbnail", movie.path, output.path + ".jpg"], ["play", movie.path, "--seconds", "1"]] {
                let other = try run(command)
                XCTAssertFalse(other.signalled, "\(command): \(other.errors)")
                XCTAssertFalse(other.errors.contains("Fatal error"), "\(command): \(other.errors)")
            }
        }
    }

    /// A movie the fuzzing kept (MJPEG that an MPEG-4 file cannot carry as it is) trapped a passthrough
    /// export: "Cannot add vide input; check canAdd(_:) first".
    func testAPassthroughExportOfATrackTheFileCannotCarryIsRefused() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/corpus/movie-reader/02422332eb1a473c4dfb2a4bf9daddd5c83eeecc")
        let output = AVCaptureTool.folder("carry").appendingPathComponent("out.mp4")
        let result = try run(["export", corpus.path, output.path])
        XCTAssertFalse(result.signalled, result.errors)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.errors.contains("cannot write the asset's video track"), result.errors)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }

    /// A movie whose pictures cannot be decoded played four seconds of nothing and exited 0.
    func testAMovieWithNothingPlayableIsRefused() throws {
        let folder = AVCaptureTool.folder("nothing")
        let movie = try AVCaptureTool.movie(in: folder, seconds: 1)
        var data = try Data(contentsOf: movie)
        // Every byte of the media data but its box's header turned to zero: the tracks are there, their pictures are noise.
        let mdat = try XCTUnwrap(data.range(of: Data("mdat".utf8))).lowerBound
        let size = Int(data[mdat - 4]) << 24 | Int(data[mdat - 3]) << 16 | Int(data[mdat - 2]) << 8 | Int(data[mdat - 1])
        data.replaceSubrange((mdat + 4)..<(mdat - 4 + size), with: Data(count: size - 8))
        let zeroed = folder.appendingPathComponent("zeroed.mp4")
        try data.write(to: zeroed)
        let result = try AVCaptureTool.run(["play", zeroed.path])
        XCTAssertNotEqual(result.status, 0, result.output)
        XCTAssertTrue(result.standardError.contains("cannot be decoded") || result.standardError.contains("cannot be played"), result.standardError)
    }

    // MARK: Pictures that cost more than their size

    /// A 10000x10000 PNG of a few kilobytes took 1.4 GB and 14 s: pictures are looked at no larger
    /// than the working size, and a code in one is still found.
    func testAHugePictureIsReadAtAWorkingSize() throws {
        let folder = AVCaptureTool.folder("huge")
        let small = folder.appendingPathComponent("code.png")
        let zint = Process()
        zint.executableURL = URL(fileURLWithPath: "/usr/bin/zint")
        zint.arguments = ["-b", "58", "--scale=40", "-d", "huge picture", "-o", small.path]
        try zint.run()
        zint.waitUntilExit()
        try XCTSkipUnless(zint.terminationStatus == 0, "zint makes the code")
        // The code placed on a 10000x10000 white picture by ffmpeg.
        let huge = folder.appendingPathComponent("huge.png")
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-v", "error", "-f", "lavfi", "-i", "color=white:s=10000x10000", "-i", small.path, "-filter_complex", "[0][1]overlay=3000:4000,format=gray",
            "-frames:v", "1", huge.path,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        XCTAssertEqual(ffmpeg.terminationStatus, 0)
        let result = try AVCaptureTool.run(["scan", "--image", huge.path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.standardOutput.contains("huge picture"), result.output)
    }

    /// A small progressive JPEG of thousands of scans took 44 s of CPU: more than 100 scans is refused.
    func testAJPEGOfThousandsOfScansIsRefused() throws {
        // An 8x8 grey progressive JPEG: Huffman tables of one code each, a DC scan, then the same
        // AC scan 2,000 times over (each is a pass over every coefficient of the picture).
        var jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        jpeg += [0xFF, 0xC2, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x08, 0x01, 0x01, 0x11, 0x00]
        for table: UInt8 in [0x00, 0x10] { jpeg += [0xFF, 0xC4, 0x00, 0x14, table, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00] }
        jpeg += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x7F]
        for _ in 0..<2_000 { jpeg += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x01, 0x3F, 0x00, 0x7F] }
        jpeg += [0xFF, 0xD9]
        let url = AVCaptureTool.folder("scans").appendingPathComponent("many.jpg")
        try Data(jpeg).write(to: url)
        let result = try AVCaptureTool.run(["scan", "--image", url.path])
        XCTAssertTrue(result.standardError.contains("more than 100 scans"), result.output)
    }
}
