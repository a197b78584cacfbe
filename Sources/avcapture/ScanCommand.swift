import ArgumentParser
import AVFoundation
import Foundation

/// `avcapture scan`: reads barcodes and QR codes from a camera as `zbarcam` does, or from
/// pictures as `zbarimg` does.
struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read barcodes and QR codes from a camera, or from pictures with --image.",
        discussion: """
            From a camera, each code is printed when it comes into view, as TYPE:PAYLOAD followed by its corners \
            (normalized, top left of the picture (0,0)). With --image, one line per code found, TYPE:PAYLOAD, and \
            the exit status is 0 when something was found and 4 when nothing was, as zbarimg's.
            Types: aztec, codabar, code128, code39, code39mod43, code93, databar, databar-exp, databar-ltd, datamatrix, ean13, ean8, i2of5, itf14, micropdf417, microqr, pdf417, qr, upce.
            """)

    @Option(help: "The code types to look for, separated by commas (default: all).") var types: String?
    @Option(help: "The unique ID of the camera (see `avcapture devices`).") var device: String?
    @Option(help: "The part of the picture to search, as x,y,width,height in 0...1 (device coordinates).") var rect: String?
    @Option(help: "How long to scan from the camera, in seconds; 0 scans until interrupted.", transform: DurationOption.seconds) var seconds: Double = 0
    @Option(help: "The most codes read in one frame or picture.") var maxCodes: Int = 4
    @Flag(help: "Print the payload alone, one per line.") var raw = false
    @Flag(help: "Read the pictures named instead of a camera.") var image = false
    @Argument(help: "Pictures to read with --image (JPEG, PNG, PGM, PPM).") var files: [String] = []

    /// The names the command takes for each type (the help lists them as a literal: building this
    /// table at every start, for every command, cost more than half a millisecond).
    static let typeNames: [String: AVMetadataObject.ObjectType] = [
        "qr": .qr, "microqr": .microQR, "aztec": .aztec, "datamatrix": .dataMatrix, "pdf417": .pdf417, "micropdf417": .microPDF417,
        "ean13": .ean13, "ean8": .ean8, "upce": .upce, "code39": .code39, "code39mod43": .code39Mod43, "code93": .code93,
        "code128": .code128, "itf14": .itf14, "i2of5": .interleaved2of5, "codabar": .codabar, "databar": .gs1DataBar,
        "databar-exp": .gs1DataBarExpanded, "databar-ltd": .gs1DataBarLimited,
    ]

    /// The names printed for each type: zbar's where zbar reads the type.
    static let printedNames: [AVMetadataObject.ObjectType: String] = [
        .qr: "QR-Code", .microQR: "MicroQR", .aztec: "Aztec", .dataMatrix: "DataMatrix", .pdf417: "PDF417", .microPDF417: "MicroPDF417",
        .ean13: "EAN-13", .ean8: "EAN-8", .upce: "UPC-E", .code39: "CODE-39", .code39Mod43: "CODE-39-MOD43", .code93: "CODE-93",
        .code128: "CODE-128", .itf14: "ITF-14", .interleaved2of5: "I2/5", .codabar: "CODABAR", .gs1DataBar: "DataBar",
        .gs1DataBarExpanded: "DataBar-Exp", .gs1DataBarLimited: "DataBar-Ltd",
    ]

    func validate() throws {
        if image && files.isEmpty { throw ValidationError("--image needs at least one picture.") }
        if !image && !files.isEmpty { throw ValidationError("Pictures are read with --image.") }
        if maxCodes < 1 { throw ValidationError("--max-codes must be at least 1.") }
        _ = try chosenTypes()
        _ = try regionOfInterest()
    }

    private func chosenTypes() throws -> [AVMetadataObject.ObjectType] {
        guard let types else { return Scan.typeNames.values.sorted { $0.rawValue < $1.rawValue } }
        return try types.split(separator: ",").map { name in
            guard let type = Scan.typeNames[name.trimmingCharacters(in: .whitespaces).lowercased()] else {
                throw ValidationError("Unknown type \(name); use \(Scan.typeNames.keys.sorted().joined(separator: ", ")).")
            }
            return type
        }
    }

    private func regionOfInterest() throws -> CGRect? {
        guard let rect else { return nil }
        let parts = rect.split(separator: ",", omittingEmptySubsequences: false)
        let values = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, values.count == 4, values.allSatisfy({ (0...1).contains($0) }), values[2] > 0, values[3] > 0, values[0] + values[2] <= 1,
            values[1] + values[3] <= 1
        else {
            throw ValidationError("--rect is x,y,width,height within 0...1, such as 0.25,0.25,0.5,0.5; got \(rect).")
        }
        return CGRect(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    /// A code as printed.
    private func line(_ code: AVMetadataMachineReadableCodeObject, corners: Bool) -> String {
        let payload = code.stringValue ?? code.payloadData.map { String(format: "%02x", $0) }.joined()
        if raw { return payload }
        let name = Scan.printedNames[code.type] ?? code.type.rawValue
        guard corners else { return "\(name):\(payload)" }
        let points = code.corners.map { String(format: "(%.3f,%.3f)", $0.x, $0.y) }.joined(separator: " ")
        return "\(name):\(payload)  \(points)"
    }

    func run() throws {
        if image { try scanImages() } else { try scanCamera() }
    }

    private func scanImages() throws {
        let types = try chosenTypes()
        let start = Date()
        var found = 0, failed = 0
        // The pictures are read a few at a time on every core, and printed in the order named.
        let window = max(1, ProcessInfo.processInfo.activeProcessorCount) * 2
        for start in stride(from: 0, to: files.count, by: window) {
            let names = Array(files[start..<min(start + window, files.count)])
            let results = LockedValue<[Int: Result<[AVMetadataMachineReadableCodeObject], any Error>]>([:])
            DispatchQueue.concurrentPerform(iterations: names.count) { [maxCodes] index in
                let result = Result<[AVMetadataMachineReadableCodeObject], any Error> {
                    let data = try InputFile.read(names[index])
                    do {
                        return try AVCaptureMetadataOutput.linuxMachineReadableCodes(inImageData: data, types: types, maximumCount: maxCodes)
                    } catch {
                        throw CommandFailure("\(names[index]): \(error.localizedDescription).")
                    }
                }
                results.withLock { $0[index] = result }
            }
            let read = results.withLock { $0 }
            for index in names.indices {
                switch read[index] {
                case .success(let codes)?:
                    for code in codes { print(line(code, corners: false)) }
                    found += codes.count
                case .failure(let error)?:
                    failed += 1
                    StandardStreams.err("avcapture scan: \(error)\n")
                case nil:
                    failed += 1
                }
            }
        }
        // Formatted by hand: String(format:) costs a one-picture scan a fifth of a millisecond of
        // the runtime's first protocol look-ups, zbarimg's start being the measure.
        let hundredths = Int((Date().timeIntervalSince(start) * 100).rounded())
        let elapsed = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
        StandardStreams.err("scanned \(found) barcode symbols from \(files.count) images in \(elapsed) seconds\n")
        if failed > 0 { throw ExitCode(1) }
        if found == 0 { throw ExitCode(4) }
    }

    private func scanCamera() throws {
        let session = AVCaptureSession()
        session.beginConfiguration()
        let camera = try CameraChoice.addCamera(device, preset: nil, format: nil, to: session)
        let output = AVCaptureMetadataOutput()
        guard session.canAddOutput(output) else { throw CommandFailure("A metadata output cannot be added to the session.") }
        session.addOutput(output)
        let printer = CodePrinter { code in self.line(code, corners: true) }
        output.setMetadataObjectsDelegate(printer, queue: DispatchQueue(label: "avcapture.scan"))
        output.metadataObjectTypes = try chosenTypes()
        output.linuxMaximumMachineReadableCodeCount = maxCodes
        if let region = try regionOfInterest() { output.rectOfInterest = region }
        session.commitConfiguration()
        StandardStreams.err("Scanning with \(camera.localizedName)\(seconds > 0 ? " for \(seconds) s" : ""); Ctrl-C to stop.\n")
        session.startRunning()
        let start = Date()
        while seconds <= 0 || Date().timeIntervalSince(start) < seconds {
            RunLoop.main.run(until: Date().addingTimeInterval(0.2))
        }
        session.stopRunning()
        let statistics = output.linuxDetectionStatistics
        StandardStreams.err(
            String(
                format: "searched %d frames (%.1f ms each), skipped %d for newer ones\n", statistics.framesSearched,
                statistics.framesSearched > 0 ? statistics.secondsSearching * 1000 / Double(statistics.framesSearched) : 0,
                statistics.framesSkipped
            ))
    }
}

/// Prints each code when it comes into view (again).
private final class CodePrinter: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
    private let format: (AVMetadataMachineReadableCodeObject) -> String
    private var inView: Set<String> = []

    init(format: @escaping (AVMetadataMachineReadableCodeObject) -> String) { self.format = format }

    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
        var now: Set<String> = []
        for case let code as AVMetadataMachineReadableCodeObject in metadataObjects {
            let key = code.type.rawValue + ":" + (code.stringValue ?? code.payloadData.base64EncodedString())
            now.insert(key)
            if !inView.contains(key) {
                StandardStreams.out(format(code) + "\n")
            }
        }
        inView = now
    }
}
