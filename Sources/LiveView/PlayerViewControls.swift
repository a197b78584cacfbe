import AVFoundation
import CoreVideo
import Foundation
import Hummingbird

/// What the player's page shows about the player and its item, as JSON.
struct PlayerViewState: Codable, Sendable {
    var width: Int
    var height: Int
    var gravity: String
    /// The movie's file name.
    var title: String
    /// loading, ready or failed.
    var status: String
    var error: String?
    var playing: Bool
    var rate: Double
    var defaultRate: Double
    /// The item's time and duration, in seconds.
    var time: Double
    var duration: Double
    var pitch: String
    var volume: Double
    var muted: Bool
    var viewers: Int
    var framesSent: Int
}

/// The controls of a player's live view, applied to the player, its current item and the layer.
///
/// Each is what an app's own code would do: `play()`, `pause()`, an exact `seek(to:)`, the rate
/// `play()` starts at (`defaultRate`), the item's `audioTimePitchAlgorithm`, `volume`, `isMuted`,
/// the layer's `videoGravity`. Thread-safe: the player and layer take their own locks.
final class PlayerViewControls: LiveViewContent, @unchecked Sendable {
    let player: AVPlayer
    let layer: AVPlayerLayer
    /// What the page calls the movie.
    let title: String

    init(player: AVPlayer, layer: AVPlayerLayer, title: String) {
        self.player = player
        self.layer = layer
        self.title = title
    }

    /// The names the page uses for the time-pitch algorithms.
    static let algorithms: [String: AVAudioTimePitchAlgorithm] = [
        "spectral": .spectral, "timeDomain": .timeDomain, "varispeed": .varispeed, "lowQualityZeroLatency": .snapping,
    ]

    /// The player's page.
    var page: LiveViewPage.Kind { .player }

    /// Hands the player layer's pictures to `handler`.
    func setFrameHandler(_ handler: (@Sendable (CVPixelBuffer) -> Void)?, queue: DispatchQueue) {
        layer.setLinuxPreviewFrameHandler(handler, queue: queue, allowingJPEGSamples: true)
    }

    /// The state the page shows.
    func state(viewers: Int, framesSent: Int) -> any Encodable & Sendable {
        let item = player.currentItem
        let status =
            switch item?.status {
            case .readyToPlay: "ready"
            case .failed: "failed"
            default: "loading"
            }
        let duration = item?.duration.seconds ?? 0
        let algorithm = item?.audioTimePitchAlgorithm ?? .spectral
        return PlayerViewState(
            width: Int(layer.bounds.width), height: Int(layer.bounds.height), gravity: GravityName.name(of: layer.videoGravity),
            title: title, status: status, error: item?.error?.localizedDescription,
            playing: player.rate != 0, rate: Double(player.rate), defaultRate: Double(player.defaultRate),
            time: player.currentTime().seconds.finiteOrZero, duration: duration.finiteOrZero,
            pitch: Self.algorithms.first { $0.value == algorithm }?.key ?? algorithm.rawValue,
            volume: Double(player.volume), muted: player.isMuted, viewers: viewers, framesSent: framesSent)
    }

    /// Runs the control `name` with the request's fields; returns the JSON to answer with.
    func apply(_ name: String, body: ByteBuffer) async throws(ControlRefusal) -> [String: ControlAnswer] {
        switch name {
        case "play":
            _ = try ControlRequest(body: body, allowed: [])
            player.play()
            return ["rate": .number(Double(player.rate))]
        case "pause":
            _ = try ControlRequest(body: body, allowed: [])
            player.pause()
            return ["time": .number(player.currentTime().seconds.finiteOrZero)]
        case "seek": return try await seek(ControlRequest(body: body, allowed: ["time"]))
        case "rate": return try rate(ControlRequest(body: body, allowed: ["rate"]))
        case "pitch":
            let request = try ControlRequest(body: body, allowed: ["algorithm"])
            let name = try request.string("algorithm", oneOf: Self.algorithms.keys.sorted())
            let item = try readyItem()
            item.audioTimePitchAlgorithm = Self.algorithms[name]!
            return ["algorithm": .string(name)]
        case "volume":
            let volume = try ControlRequest(body: body, allowed: ["volume"]).number("volume", in: 0...1)
            player.volume = Float(volume)
            return ["volume": .number(volume)]
        case "mute":
            let muted = try ControlRequest(body: body, allowed: ["muted"]).bool("muted")
            player.isMuted = muted
            return ["muted": .bool(muted)]
        case "gravity":
            let (name, gravity) = try GravityName.requested(ControlRequest(body: body, allowed: ["gravity"]))
            layer.videoGravity = gravity
            return ["gravity": .string(name)]
        default:
            throw ControlRefusal(.notFound, "There is no control '\(name)'; the controls are gravity, mute, pause, pitch, play, rate, seek and volume.")
        }
    }

    private func readyItem() throws(ControlRefusal) -> AVPlayerItem {
        guard let item = player.currentItem else { throw ControlRefusal(.conflict, "The player has no movie.") }
        guard item.status == .readyToPlay else {
            throw ControlRefusal(
                .conflict,
                item.status == .failed
                    ? "The movie cannot be played: \(item.error?.localizedDescription ?? "unknown error")."
                    : "The movie is still loading.")
        }
        return item
    }

    /// Seeks exactly; the answer says whether the seek finished (a later one interrupts it).
    private func seek(_ request: ControlRequest) async throws(ControlRefusal) -> [String: ControlAnswer] {
        let item = try readyItem()
        let time = try request.number("time", in: 0...item.duration.seconds.finiteOrZero)
        let finished = await player.seek(to: CMTime(seconds: time, preferredTimescale: 600), toleranceBefore: .zero, toleranceAfter: .zero)
        return ["time": .number(time), "finished": .bool(finished)]
    }

    /// The rate `play()` starts at; a playing player takes it at once. Backwards needs an item that can play backwards.
    private func rate(_ request: ControlRequest) throws(ControlRefusal) -> [String: ControlAnswer] {
        let rate = try request.number("rate", in: -32...32)
        guard rate != 0 else { throw ControlRefusal(.unprocessableContent, "The field 'rate' must not be 0; pause instead.") }
        if rate < 0 {
            let item = try readyItem()
            guard item.canPlayReverse else { throw ControlRefusal(.conflict, "This movie cannot play backwards.") }
        }
        player.defaultRate = Float(rate)
        if player.rate != 0 { player.rate = Float(rate) }
        return ["rate": .number(rate)]
    }
}

extension Double {
    /// The value, or 0 when it is not finite (an unknown duration, say): JSON has no NaN.
    var finiteOrZero: Double { isFinite ? self : 0 }
}
