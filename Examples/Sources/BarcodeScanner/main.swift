// Prints the barcodes and QR codes the camera sees, once each as they come into view.
//
//     BarcodeScanner [seconds]
//
// On Linux with no camera, the virtual camera is shown a QR code made by Core Image, so that there
// is something to read.
import AVFoundation
import CoreImage
import CoreImage.CIFilterBuiltins

/// Prints each code the first time it is seen.
final class Scanner: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: Set<String> = []

    var codes: Set<String> { lock.withLock { seen } }

    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
        for case let code as AVMetadataMachineReadableCodeObject in metadataObjects {
            guard let value = code.stringValue, lock.withLock({ seen.insert(value).inserted }) else { continue }
            print("\(code.type.rawValue): \(value)")
        }
    }
}

/// A QR code holding `message`, black on white, in the middle of a BGRA picture of `width` by
/// `height` pixels.
func qrCodePicture(_ message: String, width: Int, height: Int) -> CVPixelBuffer? {
    let generator = CIFilter.qrCodeGenerator()
    generator.message = Data(message.utf8)
    generator.correctionLevel = "M"
    guard let code = generator.outputImage else { return nil }
    let side = CGFloat(min(width, height)) * 0.6
    let scale = side / code.extent.width
    let placed = code.transformed(by: CGAffineTransform(scaleX: scale, y: scale))
        .transformed(by: CGAffineTransform(translationX: (CGFloat(width) - side) / 2, y: (CGFloat(height) - side) / 2))
    let page = placed.composited(over: CIImage(color: CIColor(red: 1, green: 1, blue: 1)).cropped(to: CGRect(x: 0, y: 0, width: width, height: height)))
    var buffer: CVPixelBuffer?
    CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_32BGRA, nil, &buffer)
    guard let buffer else { return nil }
    CIContext().render(page, to: buffer)
    return buffer
}

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 5
guard let camera = AVCaptureDevice.default(for: .video) else {
    print("No camera.")
    exit(1)
}
#if os(Linux)
    if let scene = camera.virtualScene, let picture = qrCodePicture("https://swift.org", width: 1280, height: 720) {
        scene.showImage(picture)
    }
#endif

// Codes are read close up: keep the picture focused as it moves.
if camera.isFocusModeSupported(.continuousAutoFocus) {
    try camera.lockForConfiguration()
    camera.focusMode = .continuousAutoFocus
    camera.unlockForConfiguration()
}

let session = AVCaptureSession()
session.beginConfiguration()
session.sessionPreset = .hd1280x720
session.addInput(try AVCaptureDeviceInput(device: camera))
let output = AVCaptureMetadataOutput()
guard session.canAddOutput(output) else {
    print("The session cannot read codes.")
    exit(1)
}
session.addOutput(output)
let scanner = Scanner()
output.setMetadataObjectsDelegate(scanner, queue: DispatchQueue(label: "codes"))
let wanted: [AVMetadataObject.ObjectType] = [.qr, .ean13, .ean8, .upce, .code128, .code39, .dataMatrix, .pdf417, .aztec]
output.metadataObjectTypes = wanted.filter(output.availableMetadataObjectTypes.contains)
session.commitConfiguration()
session.startRunning()
print("Scanning with \(camera.localizedName) for \(seconds) s")
Thread.sleep(forTimeInterval: seconds)
session.stopRunning()
print("\(scanner.codes.count) different codes read")
exit(scanner.codes.isEmpty ? 4 : 0)
