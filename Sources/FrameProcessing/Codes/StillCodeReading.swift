import CPictureFilters
import CZXing
import CoreVideo
import Foundation

extension CodeReader {
    /// One way of looking at a still picture again: what is done to it before ZXing reads it.
    package enum StillAttempt: String, Sendable, CaseIterable {
        /// The picture as it is, thresholded locally (what the camera path does).
        case asItIs
        /// The picture thresholded at one level: a blurred edge is where the light crosses it.
        case fixedThreshold
        /// The picture at half size (2x2 pixels averaged): blur and noise shrink to a pixel.
        case halfSize
        /// The picture sharpened (an unsharp mask of twice its difference from a blur of one
        /// pixel) and thresholded at one level: blurred bars.
        case sharpened
        /// The picture turned a quarter of the way to the diagonal, either way: codes at an
        /// angle the reader's scan lines cross too steeply.
        case turnedLeft, turnedRight
    }

    /// The codes in a still picture (8-bit grey), looked at again in each of `StillAttempt`'s
    /// ways, in order, until one finds a code: a picture is read once, not 30 times a second, so
    /// it can afford what the camera path cannot. Corners are in the picture's own pixels
    /// whichever way found them.
    package func readStill(_ picture: CVPixelBuffer) -> [DetectedCode] {
        readStill(picture, attempts: StillAttempt.allCases).codes
    }

    /// The codes `attempts` find in a still picture, and which attempt found them (nil when none did).
    package func readStill(_ picture: CVPixelBuffer, attempts: [StillAttempt]) -> (codes: [DetectedCode], attempt: StillAttempt?) {
        guard CVPixelBufferGetPixelFormatType(picture) == kCVPixelFormatType_OneComponent8 else {
            return attempts.contains(.asItIs) ? (read(picture), .asItIs) : ([], nil)
        }
        CVPixelBufferLockBaseAddress(picture, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(picture, .readOnly) }
        guard let base = CVPixelBufferGetBaseAddress(picture) else { return ([], nil) }
        let grey = GreyPixels(
            bytes: base.assumingMemoryBound(to: UInt8.self), width: CVPixelBufferGetWidth(picture),
            height: CVPixelBufferGetHeight(picture), stride: CVPixelBufferGetBytesPerRow(picture))
        for attempt in attempts {
            let codes = read(grey, attempt)
            if !codes.isEmpty { return (codes, attempt) }
        }
        return ([], nil)
    }

    /// Grey pixels in memory someone else owns.
    private struct GreyPixels {
        let bytes: UnsafePointer<UInt8>
        let width: Int, height: Int, stride: Int
    }

    /// The turn of `turnedLeft` and `turnedRight`: 22.5 degrees.
    private static let turn = Double.pi / 8

    private func read(_ grey: GreyPixels, _ attempt: StillAttempt) -> [DetectedCode] {
        switch attempt {
        case .asItIs:
            return read(grey)
        case .fixedThreshold:
            return withOptions(ZXing_Binarizer_FixedThreshold) { read(grey, options: $0) }
        case .halfSize:
            let (width, height) = (grey.width / 2, grey.height / 2)
            guard width >= 16, height >= 16 else { return [] }
            var half = [UInt8](repeating: 0, count: width * height)
            half.withUnsafeMutableBufferPointer { target in
                PlaneScaling.scaleSamples(
                    .init(UnsafeMutablePointer(mutating: grey.bytes), bytesPerRow: grey.stride, width: grey.width, height: grey.height),
                    into: .init(target.baseAddress!, bytesPerRow: width, width: width, height: height), filter: .box)
            }
            return half.withUnsafeBufferPointer { pixels in
                withOptions(ZXing_Binarizer_LocalAverage) {
                    read(GreyPixels(bytes: pixels.baseAddress!, width: width, height: height, stride: width), options: $0)
                }
            }.map { $0.mappingCorners { CGPoint(x: $0.x * 2, y: $0.y * 2) } }
        case .sharpened:
            var sharp = [UInt8](repeating: 0, count: grey.width * grey.height)
            guard cpf_sharpen_grey(grey.bytes, Int32(grey.width), Int32(grey.height), Int32(grey.stride), 1, 2, &sharp) == 0 else { return [] }
            return sharp.withUnsafeBufferPointer { pixels in
                withOptions(ZXing_Binarizer_FixedThreshold) {
                    read(GreyPixels(bytes: pixels.baseAddress!, width: grey.width, height: grey.height, stride: grey.width), options: $0)
                }
            }
        case .turnedLeft, .turnedRight:
            let angle = attempt == .turnedRight ? Self.turn : -Self.turn
            let (c, s) = (cos(angle), sin(angle))
            let width = Int((Double(grey.width) * abs(c) + Double(grey.height) * abs(s)).rounded(.up))
            let height = Int((Double(grey.width) * abs(s) + Double(grey.height) * abs(c)).rounded(.up))
            var turned = [UInt8](repeating: 0, count: width * height)
            // What the turned picture shows beyond the original's edges is its mean light, so no edge appears there.
            guard
                cpf_rotate_grey(
                    grey.bytes, Int32(grey.width), Int32(grey.height), Int32(grey.stride), angle, Self.meanLight(grey),
                    &turned, Int32(width), Int32(height)) == 0
            else { return [] }
            let (outCentre, inCentre) = (CGPoint(x: Double(width) / 2, y: Double(height) / 2), CGPoint(x: Double(grey.width) / 2, y: Double(grey.height) / 2))
            return turned.withUnsafeBufferPointer { pixels in
                withOptions(ZXing_Binarizer_LocalAverage) {
                    read(GreyPixels(bytes: pixels.baseAddress!, width: width, height: height, stride: width), options: $0)
                }
            }.map { code in
                code.mappingCorners { point in
                    // Back through the inverse turn, as the filter looked each pixel up.
                    let (x, y) = (point.x - outCentre.x, point.y - outCentre.y)
                    return CGPoint(x: c * x + s * y + inCentre.x, y: -s * x + c * y + inCentre.y)
                }
            }
        }
    }

    private func read(_ grey: GreyPixels, options: OpaquePointer? = nil) -> [DetectedCode] {
        read(
            luma: grey.bytes, width: grey.width, height: grey.height, rowStride: grey.stride, format: ZXing_ImageFormat_Lum, pixelStride: 1,
            region: nil, options: options)
    }

    private func withOptions<Result>(_ binarizer: ZXing_Binarizer, _ body: (OpaquePointer) -> Result) -> Result {
        let options = options(binarizer: binarizer)
        defer { ZXing_ReaderOptions_delete(options) }
        return body(options)
    }

    /// The mean of every 16th pixel of every 16th row.
    private static func meanLight(_ grey: GreyPixels) -> UInt8 {
        var sum = 0, count = 0
        for y in Swift.stride(from: 0, to: grey.height, by: 16) {
            for x in Swift.stride(from: 0, to: grey.width, by: 16) {
                sum += Int(grey.bytes[y * grey.stride + x])
                count += 1
            }
        }
        return UInt8(sum / max(count, 1))
    }
}

extension DetectedCode {
    /// The same code with each corner moved by `transform`.
    func mappingCorners(_ transform: (CGPoint) -> CGPoint) -> DetectedCode {
        var code = self
        code.corners = corners.map(transform)
        return code
    }
}
