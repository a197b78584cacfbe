import AVFoundation
import Foundation

/// The codes and faces a metadata output finds, in the preview layer's coordinates, for the page
/// to draw over the picture where they are.
///
/// It watches the output beside the app's own delegate, never instead of it: each detection is
/// turned through the layer's `transformedMetadataObject(for:)` (so gravity, rotation and
/// mirroring apply, as on Apple's platforms) and kept as the newest, with a version the viewers'
/// loops compare. Thread-safe.
final class MetadataOverlay: @unchecked Sendable {
    /// One object as the page draws it.
    struct Object: Codable, Sendable, Equatable {
        /// `code` or `face`.
        var kind: String
        /// The AVFoundation type's identifier.
        var type: String
        /// A code's payload, or a face's identifier.
        var label: String
        /// The outline in layer points: a code's corners, or a face's box.
        var points: [[Double]]
    }

    /// The message the page receives when the objects change.
    struct Message: Codable, Sendable {
        var objects: [Object]
    }

    private weak var layer: AVCaptureVideoPreviewLayer?
    private let latest = LockedValue<(version: Int, objects: [Object])>((0, []))
    private let watching = LockedValue<Task<Void, Never>?>(nil)

    init(output: AVCaptureMetadataOutput, layer: AVCaptureVideoPreviewLayer) {
        self.layer = layer
        let detections = output.linuxMetadataObjectSequence()
        watching.withLock {
            $0 = Task { [weak self] in
                for await objects in detections {
                    guard let self else { return }
                    self.show(objects)
                }
            }
        }
    }

    deinit { watching.withLock { $0?.cancel() } }

    /// The newest objects and their version (which grows with each change).
    var current: (version: Int, objects: [Object]) { latest.withLock { $0 } }

    /// Keeps the objects of one detection, in the layer's coordinates, as the newest.
    private func show(_ metadataObjects: [AVMetadataObject]) {
        guard let layer else { return }
        let objects: [Object] = metadataObjects.compactMap { object in
            guard let turned = layer.transformedMetadataObject(for: object) else { return nil }
            if let code = turned as? AVMetadataMachineReadableCodeObject {
                return Object(
                    kind: "code", type: code.type.rawValue, label: code.stringValue ?? "\(code.payloadData.count) bytes",
                    points: code.corners.map { [Self.rounded($0.x), Self.rounded($0.y)] })
            }
            if let face = turned as? AVMetadataFaceObject {
                let box = face.bounds
                return Object(
                    kind: "face", type: face.type.rawValue, label: "face \(face.faceID)",
                    points: [[box.minX, box.minY], [box.maxX, box.minY], [box.maxX, box.maxY], [box.minX, box.maxY]].map { $0.map(Self.rounded) })
            }
            return nil
        }
        latest.withLock { value in
            guard value.objects != objects else { return }
            value = (value.version + 1, objects)
        }
    }

    private static func rounded(_ value: CGFloat) -> Double { (Double(value) * 10).rounded() / 10 }
}
