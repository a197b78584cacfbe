import AVFoundation
import CoreVideo
import Foundation
import Hummingbird

/// What a live view shows and lets its viewers change: a camera's session through its preview
/// layer, or a player through its player layer.
///
/// Thread-safe: the server calls it from its tasks, and the frame handler runs on the server's
/// encoding queue.
protocol LiveViewContent: AnyObject, Sendable {
    /// The page served at `/`.
    var page: LiveViewPage.Kind { get }

    /// The state the page shows, as JSON.
    func state(viewers: Int, framesSent: Int) -> any Encodable & Sendable

    /// Runs the control `name` with the request's fields; returns the JSON to answer with.
    func apply(_ name: String, body: ByteBuffer) async throws(ControlRefusal) -> [String: ControlAnswer]

    /// Hands each frame as the layer shows it to `handler` on `queue` (in BGRA, or as JPEG's own
    /// samples where the layer can give them: the frames are encoded as JPEG), or stops with nil.
    func setFrameHandler(_ handler: (@Sendable (CVPixelBuffer) -> Void)?, queue: DispatchQueue)

    /// Finishes what the page started and the server must not leave half done (a recording),
    /// once the server stops.
    func finish() async
}

extension LiveViewContent {
    /// Has nothing to finish.
    func finish() async {}
}

/// The names the pages use for the layers' gravities.
enum GravityName {
    /// Every gravity by its name.
    static let all: [String: AVLayerVideoGravity] = [
        "resizeAspect": .resizeAspect, "resizeAspectFill": .resizeAspectFill, "resize": .resize,
    ]

    /// The name of a gravity.
    static func name(of gravity: AVLayerVideoGravity) -> String {
        all.first { $0.value == gravity }?.key ?? "resizeAspect"
    }

    /// The gravity a control request names in its `gravity` field.
    static func requested(_ request: ControlRequest) throws(ControlRefusal) -> (name: String, gravity: AVLayerVideoGravity) {
        let name = try request.string("gravity", oneOf: all.keys.sorted())
        return (name, all[name]!)
    }
}
