import AVFoundation
import CaptureDevices
import Foundation
import FrameProcessing

/// `avcapture scan --image` against zbarimg and ZXing-C++'s own reader (its Python module, same
/// version) on the same corpus in the same run: 12 symbologies, each plain, turned, in
/// perspective, blurred, noisy, small, dim and on the busy virtual scene, and pictures with no
/// code. Codes read, false reads, crashes, and time.
enum ScanCorpusBenchmark {
    struct Picture {
        let url: URL
        let expected: String?
        let symbology: CodeSymbology?
    }

    static let payloads: [(CodeSymbology, String)] = [
        (.upce, "01234565"), (.ean8, "96385074"), (.ean13, "4006381333931"), (.code39, "LINUX-AV"), (.code93, "CODE93"),
        (.code128, "Code 128 text"), (.pdf417, "PDF417 payload"), (.qr, "https://example.com/qr"), (.aztec, "Aztec payload"),
        (.itf14, "10012345678902"), (.dataMatrix, "Data Matrix"), (.codabar, "A123456B"),
    ]

    /// Renders the corpus as 640x480 binary PGM pictures into `folder`.
    static func makeCorpus(in folder: URL) throws -> [Picture] {
        let (width, height) = (640, 480)
        guard let renderer = SceneRenderer(width: width, height: height, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange),
            let frame = CVPixelBuffer(width: width, height: height, pixelFormatType: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange),
            let white = CVPixelBuffer(width: 16, height: 16, pixelFormatType: kCVPixelFormatType_32BGRA)
        else { return [] }
        let whitePlane = white.planes[0]
        memset(whitePlane.baseAddress, 0xF0, whitePlane.bytesPerRow * 16)
        var random = SeededGenerator()
        var pictures: [Picture] = []
        func write(_ name: String, codes: [SceneCode], busy: Bool, brightness: Double = 1, defocus: Float = 0, noise: Int = 0, seconds: Double = 1) throws
            -> URL
        {
            var parameters = SceneFrameParameters(
                frameNumber: 0, seconds: seconds, zoom: 1, brightness: 1, colourGains: (1, 1, 1),
                defocus: defocus, image: busy ? nil : white)
            parameters.codes = codes
            renderer.render(into: frame, parameters)
            let luma = frame.planes[0]
            var pixels = [UInt8](repeating: 0, count: width * height)
            let base = luma.baseAddress.assumingMemoryBound(to: UInt8.self)
            for y in 0..<height {
                for x in 0..<width {
                    // Dim: the whole picture under-exposed, as a camera in a dark room delivers it.
                    var value = Int(Double(base[y * luma.bytesPerRow + x]) * brightness)
                    if noise > 0 { value += Int.random(in: -noise...noise, using: &random) + Int.random(in: -noise...noise, using: &random) }
                    pixels[y * width + x] = UInt8(clamping: value)
                }
            }
            let url = folder.appendingPathComponent(name + ".pgm")
            try (Data("P5\n\(width) \(height)\n255\n".utf8) + Data(pixels)).write(to: url)
            return url
        }
        for (symbology, payload) in payloads {
            let bitmap = try CodeBitmap(symbology, payload: payload)
            let wide: CGFloat = symbology.isMatrix ? 0.32 : 0.6
            func code(center: CGPoint = CGPoint(x: 0.5, y: 0.55), width: CGFloat = wide, rotation: CGFloat = 0) -> SceneCode {
                SceneCode(
                    id: 1, symbology: symbology, payload: payload, bitmap: bitmap,
                    corners: SceneCode.corners(for: bitmap, center: center, width: width, rotation: rotation, aspectRatio: 4.0 / 3.0))
            }
            var tilted = code()
            let c = tilted.corners
            // The top edge leans away: shorter and lower, as a code on a table seen from above.
            tilted.corners = [CGPoint(x: c[0].x + 0.06, y: c[0].y + 0.05), CGPoint(x: c[1].x - 0.06, y: c[1].y + 0.05), c[2], c[3]]
            let name = symbology.rawValue.split(separator: ".").last!.lowercased()
            // Turned 20 degrees (a linear code is read along the lines it is scanned in) or 30 (a matrix
            // code); blurred as by a 2x defocus; noise of up to 36 levels; small: 0.7 of the plain size
            // (1.6 pixels a module for Code 128); dim: the picture at a third of its light.
            let variants: [(String, SceneCode, Bool, Double, Float, Int)] = [
                ("plain", code(), false, 1, 0, 0), ("turned", code(rotation: symbology.isMatrix ? 0.52 : 0.35), false, 1, 0, 0),
                ("perspective", tilted, false, 1, 0, 0), ("blurred", code(), false, 1, 0.05, 0), ("noisy", code(), false, 1, 0, 18),
                ("small", code(width: wide * 0.7), false, 1, 0, 0), ("dim", code(), false, 0.35, 0, 4),
                ("busy", code(center: CGPoint(x: 0.45, y: 0.5), rotation: 0.15), true, 1, 0, 0),
            ]
            for (variant, placed, busy, brightness, defocus, noise) in variants {
                let url = try write("\(name)-\(variant)", codes: [placed], busy: busy, brightness: brightness, defocus: defocus, noise: noise)
                pictures.append(Picture(url: url, expected: payload, symbology: symbology))
            }
        }
        for index in 0..<12 {
            let url = try write("nothing-\(index)", codes: [], busy: index % 3 != 2, noise: index % 2 == 0 ? 0 : 12, seconds: Double(index) * 0.7)
            pictures.append(Picture(url: url, expected: nil, symbology: nil))
        }
        return pictures
    }

    /// Whether a reader's payload is the expected one (UPC-E read as the number it stands for counts).
    static func matches(_ found: String, _ expected: String, _ symbology: CodeSymbology?) -> Bool {
        if found == expected { return true }
        if symbology == .upce, CodeReader.upcE(fromExpanded: found) == expected { return true }
        return false
    }

    struct Score {
        var read = 0, missed = 0, falseReads = 0, crashes = 0, seconds = 0.0, cpuSeconds: Double?
        var missedNames: [String] = []
        mutating func count(_ codes: [String], for picture: Picture) {
            if let expected = picture.expected {
                if codes.contains(where: { matches($0, expected, picture.symbology) }) {
                    read += 1
                } else {
                    missed += 1
                    missedNames.append(picture.url.deletingPathExtension().lastPathComponent)
                }
                falseReads += codes.filter { !matches($0, expected, picture.symbology) }.count
            } else {
                falseReads += codes.count
            }
        }
    }

    static func run() throws {
        print("")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avbench-scan-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            if ProcessInfo.processInfo.environment["AVBENCH_KEEP_CORPUS"] == nil {
                try? FileManager.default.removeItem(at: folder)
            } else {
                print("  corpus kept in \(folder.path)")
            }
        }
        let pictures = try makeCorpus(in: folder)
        let codes = pictures.filter { $0.expected != nil }.count
        print(
            "Reading codes from pictures: \(pictures.count) pictures at 640x480, \(codes) with one code (12 symbologies x 8 conditions), \(pictures.count - codes) with none"
        )
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("avcapture").path
        var scores: [(String, Score)] = []
        /// Reads each picture in a process of its own (for what it found and whether it crashed),
        /// then times one process reading them all, from outside.
        func score(_ name: String, command: ([String]) -> [String]) {
            var score = Score()
            for picture in pictures {
                let (status, output) = runProcess(command([picture.url.path]))
                if status < 0 || status >= 128 { score.crashes += 1 }
                score.count(output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }, for: picture)
            }
            let started = now(), cpuBefore = childCPUSeconds()
            _ = runProcess(command(pictures.map(\.url.path)))
            score.seconds = now() - started
            score.cpuSeconds = childCPUSeconds() - cpuBefore
            scores.append((name, score))
        }
        if FileManager.default.isExecutableFile(atPath: tool) {
            score("avcapture scan --image") { [tool, "scan", "--image", "--raw"] + $0 }
        } else {
            print("  (avcapture is not built beside avbench: swift build -c release --product avcapture)")
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg") {
            score("zbarimg") { ["/usr/bin/zbarimg", "--raw", "-q"] + $0 }
        } else {
            print("  (zbarimg is not installed: apt-get install zbar-tools)")
        }
        let python = FileManager.default.currentDirectoryPath + "/.build/bench-python"
        if FileManager.default.fileExists(atPath: python + "/zxingcpp")
            || (try? FileManager.default.contentsOfDirectory(atPath: python))?.contains(where: { $0.hasPrefix("zxingcpp") }) == true
        {
            // One process reads every picture (its start-up is not counted); it prints each picture's codes after its name.
            let script = """
                import sys, time, zxingcpp, PIL.Image
                total = 0.0
                for path in sys.argv[1:]:
                    image = PIL.Image.open(path); image.load()
                    start = time.perf_counter()
                    codes = zxingcpp.read_barcodes(image)
                    total += time.perf_counter() - start
                    print("@" + path)
                    for code in codes: print(code.text)
                print("#%f" % total)
                """
            let (status, output) = runProcess(["/usr/bin/env", "PYTHONPATH=\(python)", "/usr/bin/python3", "-c", script] + pictures.map(\.url.path))
            var score = Score()
            var found: [String: [String]] = [:]
            var current = ""
            for line in output.split(separator: "\n").map(String.init) {
                if line.hasPrefix("@") {
                    current = String(line.dropFirst()); found[current] = []
                } else if line.hasPrefix("#") {
                    score.seconds = Double(line.dropFirst()) ?? 0
                } else {
                    found[current, default: []].append(line)
                }
            }
            if status != 0 { score.crashes += 1 }
            for picture in pictures { score.count(found[picture.url.path] ?? [], for: picture) }
            scores.append(("ZXing-C++ 3.1.1 (Python, decode time only)", score))
        } else {
            print("  (ZXing-C++'s Python module is not in .build/bench-python: scripts/bench.sh installs it)")
        }
        for (name, score) in scores {
            print(
                String(
                    format: "  %@: read %d of %d (%.0f %%), %d false reads, %d crashes, %.2f s for all (%.1f ms a picture)%@",
                    name, score.read, codes, Double(score.read) / Double(codes) * 100, score.falseReads, score.crashes,
                    score.seconds, score.seconds / Double(pictures.count) * 1000,
                    score.cpuSeconds.map { String(format: ", %.2f s of CPU", $0) } ?? ""))
            print("    missed: " + score.missedNames.joined(separator: " "))
        }
        try attemptCosts(pictures)
        if let ours = scores.first(where: { $0.0.hasPrefix("avcapture") })?.1, let zbar = scores.first(where: { $0.0 == "zbarimg" })?.1 {
            print(
                String(
                    format: "  avcapture/zbarimg: %.2fx the time and %.2fx the CPU time (one process reading every picture, each), %+d codes read",
                    ours.seconds / zbar.seconds, (ours.cpuSeconds ?? 0) / (zbar.cpuSeconds ?? 1), ours.read - zbar.read))
        }
    }

    /// In this process, what each of the still reader's attempts costs over the corpus and how
    /// many codes it is the first to find (each attempt runs only where the ones before found nothing).
    static func attemptCosts(_ pictures: [Picture]) throws {
        let reader = CodeReader(symbologies: Set(CodeSymbology.allCases))
        var seconds: [CodeReader.StillAttempt: Double] = [:], found: [CodeReader.StillAttempt: Int] = [:], runs: [CodeReader.StillAttempt: Int] = [:]
        for picture in pictures {
            let image = try GreyPicture.decode(Data(contentsOf: picture.url))
            for attempt in CodeReader.StillAttempt.allCases {
                let started = now()
                let codes = reader.readStill(image, attempts: [attempt]).codes
                seconds[attempt, default: 0] += now() - started
                runs[attempt, default: 0] += 1
                if !codes.isEmpty {
                    if let expected = picture.expected, codes.contains(where: { $0.text.map { matches($0, expected, picture.symbology) } ?? false }) {
                        found[attempt, default: 0] += 1
                    }
                    break
                }
            }
        }
        print("  avcapture's still reader, attempt by attempt (in this process):")
        for attempt in CodeReader.StillAttempt.allCases {
            let total = seconds[attempt] ?? 0, count = runs[attempt] ?? 0
            print(
                String(
                    format: "    %@: %d pictures, %.0f ms (%.1f ms each), first to read %d", attempt.rawValue, count, total * 1000,
                    count > 0 ? total * 1000 / Double(count) : 0, found[attempt] ?? 0))
        }
    }

    /// Runs a command; returns its exit status (negative for a signal) and standard output.
    static func runProcess(_ command: [String]) -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
        return (status, String(decoding: data, as: UTF8.self))
    }
}

/// The same noise in every run: xorshift64*.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
