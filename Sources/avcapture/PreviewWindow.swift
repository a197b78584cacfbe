import AVFoundation
import Foundation
import LinuxAVFoundationWindow

/// `avcapture preview --window`: the camera in a window on the desktop, what the metadata output
/// finds outlined over it, a click focusing and exposing there.
enum PreviewWindow {
    /// Shows the running session's preview layer in a window until it is closed, q or escape is
    /// pressed, Ctrl-C, or `seconds` pass.
    static func show(
        session: AVCaptureSession, camera: AVCaptureDevice, layer: AVCaptureVideoPreviewLayer, metadata: AVCaptureMetadataOutput?, seconds: Double?
    ) async throws {
        // The layer's size, no larger than 1280 x 720 (keeping its shape): the window's bounds become the layer's.
        let size = layer.bounds.size
        let scale = min(1, 1280 / max(1, size.width), 720 / max(1, size.height))
        let window: LinuxVideoWindow
        do {
            window = try LinuxVideoWindow(
                title: "avcapture preview: \(camera.localizedName)", width: max(1, Int((size.width * scale).rounded())),
                height: max(1, Int((size.height * scale).rounded())))
        } catch {
            throw CommandFailure("\(error)")
        }
        defer { window.close() }
        let outlines = MetadataOutlines(layer: layer)
        if let metadata {
            metadata.setMetadataObjectsDelegate(outlines, queue: DispatchQueue(label: "avcapture.metadata"))
            window.setOverlay { context, _ in outlines.draw(in: context) }
        }
        window.show(layer)
        let (events, continuation) = AsyncStream.makeStream(of: LinuxVideoWindow.Event.self)
        window.setEventHandler({ continuation.yield($0) }, queue: DispatchQueue(label: "avcapture.window"))
        let stopSignals = StopSignals.handle(on: .global()) { continuation.finish() }
        defer { withExtendedLifetime(stopSignals) {} }
        session.startRunning()
        defer { session.stopRunning() }
        let dimensions = camera.activeFormat.formatDescription.dimensions
        say("Previewing \(camera.localizedName) at \(dimensions.width)x\(dimensions.height) in a window: click to focus and expose there; q or escape stops.")
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events {
                    switch event {
                    case .closed, .key(.character("q")), .key(.escape): return
                    case .click(let point): focus(camera, at: layer.captureDevicePointConverted(fromLayerPoint: point))
                    default: break
                    }
                }
            }
            if let seconds { group.addTask { try await Task.sleep(for: .seconds(seconds)) } }
            try await group.next()
            group.cancelAll()
        }
        let (shown, dropped) = window.statistics
        say("Stopped; \(shown) pictures shown in the window, \(dropped) dropped.")
    }

    /// Focuses and exposes at a point of interest, where the camera can.
    private static func focus(_ camera: AVCaptureDevice, at point: CGPoint) {
        guard (try? camera.lockForConfiguration()) != nil else { return }
        defer { camera.unlockForConfiguration() }
        var done: [String] = []
        if camera.isFocusPointOfInterestSupported, camera.isFocusModeSupported(.autoFocus) {
            camera.focusPointOfInterest = point
            camera.focusMode = .autoFocus
            done.append("focus")
        }
        if camera.isExposurePointOfInterestSupported, camera.isExposureModeSupported(.autoExpose) {
            camera.exposurePointOfInterest = point
            camera.exposureMode = .autoExpose
            done.append("exposure")
        }
        guard !done.isEmpty else { return say("The camera cannot focus or expose at a point.") }
        let what = done.joined(separator: " and ")
        say(String(format: "%@%@ at (%.2f, %.2f).", what.prefix(1).uppercased(), String(what.dropFirst()), point.x, point.y))
    }
}

/// What the metadata output found last, in the layer's coordinates, outlined over the pictures for
/// half a second: codes in green, faces in yellow.
///
/// Thread ownership: found on the metadata queue, drawn on the window's thread, under a lock.
final class MetadataOutlines: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
    private let layer: AVCaptureVideoPreviewLayer
    private let found = LockedOutlines()

    init(layer: AVCaptureVideoPreviewLayer) { self.layer = layer }

    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
        let outlines = metadataObjects.compactMap { object -> (CGRect, Bool)? in
            layer.transformedMetadataObject(for: object).map { ($0.bounds, object.type == .face) }
        }
        found.set(outlines)
    }

    func draw(in context: CGContext) {
        guard let outlines = found.recent(within: 0.5) else { return }
        context.setLineWidth(3)
        for (rect, isFace) in outlines {
            context.setStrokeColor(red: isFace ? 1 : 0.2, green: isFace ? 0.85 : 0.9, blue: 0.2, alpha: 1)
            context.stroke(rect)
        }
    }
}

/// The outlines last found and when.
private final class LockedOutlines: @unchecked Sendable {
    private let lock = NSLock()
    private var outlines: [(CGRect, Bool)] = []
    private var time = Date.distantPast
    func set(_ found: [(CGRect, Bool)]) {
        lock.withLock {
            outlines = found
            time = Date()
        }
    }
    func recent(within seconds: Double) -> [(CGRect, Bool)]? {
        lock.withLock { Date().timeIntervalSince(time) <= seconds && !outlines.isEmpty ? outlines : nil }
    }
}
