import CoreGraphics
import Foundation

/// Where a player window's controls are in a window of a size: a bar along the bottom with the
/// play button at its left, the seek track, the volume track and the full-screen button at its right.
struct PlayerControlsLayout: Equatable {
    /// The bar's height, in pixels.
    static let height: CGFloat = 44

    let bar, playButton, seekTrack, volumeTrack, fullScreenButton: CGRect

    /// What a point in the window is over.
    enum Part: Equatable {
        /// The play and pause button.
        case play
        /// The seek track, at a fraction of the movie.
        case seek(Double)
        /// The volume track, at a volume.
        case volume(Double)
        /// The full-screen button.
        case fullScreen
        /// The bar between its parts.
        case bar
        /// The picture, above the bar.
        case picture
    }

    init(size: CGSize) {
        let top = max(0, size.height - Self.height)
        bar = CGRect(x: 0, y: top, width: size.width, height: min(size.height, Self.height))
        playButton = CGRect(x: 8, y: top + 8, width: 28, height: 28)
        fullScreenButton = CGRect(x: max(0, size.width - 36), y: top + 8, width: 28, height: 28)
        volumeTrack = CGRect(x: max(0, fullScreenButton.minX - 92), y: top + 18, width: 80, height: 8)
        seekTrack = CGRect(x: 48, y: top + 18, width: max(0, volumeTrack.minX - 64), height: 8)
    }

    /// The part at a point; a track takes the bar's whole height, so that it is easy to hit.
    func part(at point: CGPoint) -> Part {
        guard bar.contains(point) else { return .picture }
        func along(_ track: CGRect) -> Double? {
            guard track.width > 0, point.x >= track.minX - 4, point.x <= track.maxX + 4 else { return nil }
            return min(1, max(0, Double((point.x - track.minX) / track.width)))
        }
        if playButton.insetBy(dx: -4, dy: -8).contains(point) { return .play }
        if fullScreenButton.insetBy(dx: -4, dy: -8).contains(point) { return .fullScreen }
        if let fraction = along(seekTrack) { return .seek(fraction) }
        if let fraction = along(volumeTrack) { return .volume(fraction) }
        return .bar
    }

    /// Draws the controls: the bar darkened, the button as the player would change to (a triangle to
    /// play, two bars to pause), the part of the movie played and the volume as filled tracks.
    func draw(in context: CGContext, playing: Bool, played: Double, volume: Double) {
        context.setFillColor(red: 0, green: 0, blue: 0, alpha: 0.6)
        context.fill(bar)
        context.setFillColor(red: 1, green: 1, blue: 1, alpha: 0.95)
        if playing {
            context.fill(CGRect(x: playButton.minX + 6, y: playButton.minY + 4, width: 6, height: 20))
            context.fill(CGRect(x: playButton.minX + 16, y: playButton.minY + 4, width: 6, height: 20))
        } else {
            context.move(to: CGPoint(x: playButton.minX + 6, y: playButton.minY + 4))
            context.addLine(to: CGPoint(x: playButton.minX + 24, y: playButton.midY))
            context.addLine(to: CGPoint(x: playButton.minX + 6, y: playButton.maxY - 4))
            context.closePath()
            context.fillPath()
        }
        for (track, fraction) in [(seekTrack, played), (volumeTrack, volume)] where track.width > 0 {
            context.setFillColor(red: 1, green: 1, blue: 1, alpha: 0.3)
            context.fill(track)
            context.setFillColor(red: 1, green: 1, blue: 1, alpha: 0.95)
            let shown = fraction.isFinite ? min(1, max(0, fraction)) : 0
            context.fill(CGRect(x: track.minX, y: track.minY, width: track.width * CGFloat(shown), height: track.height))
        }
        context.setStrokeColor(red: 1, green: 1, blue: 1, alpha: 0.95)
        context.setLineWidth(2)
        context.stroke(fullScreenButton.insetBy(dx: 6, dy: 7))
    }
}
