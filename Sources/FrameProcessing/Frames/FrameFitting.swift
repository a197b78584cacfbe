/// Where a picture of one size goes in a frame of another when the aspect ratio is kept: inside
/// with bars (letterbox) or covering it with the overflow cut (crop). Every value is even, as
/// 4:2:0's chroma needs.
package enum FrameFitting {
    /// A rectangle of whole pixels.
    package typealias Area = (x: Int, y: Int, width: Int, height: Int)

    /// The place in a `destination`-sized frame a `source`-sized picture fills, scaled to fit inside
    /// it and centred; `upscales` false keeps a smaller picture its own size.
    package static func letterbox(source: (width: Int, height: Int), destination: (width: Int, height: Int), upscales: Bool) -> Area {
        guard source.width > 0, source.height > 0 else { return (0, 0, destination.width, destination.height) }
        var scale = min(Double(destination.width) / Double(source.width), Double(destination.height) / Double(source.height))
        if !upscales { scale = min(scale, 1) }
        let width = min(destination.width, even(Double(source.width) * scale))
        let height = min(destination.height, even(Double(source.height) * scale))
        return ((destination.width - width) / 2 & ~1, (destination.height - height) / 2 & ~1, width, height)
    }

    /// The region of a `source`-sized picture that, scaled, covers a `destination`-sized frame with
    /// the aspect ratio kept: the middle of the picture, its overflow on the longer side left out.
    package static func crop(source: (width: Int, height: Int), destination: (width: Int, height: Int)) -> Area {
        guard destination.width > 0, destination.height > 0 else { return (0, 0, source.width, source.height) }
        let scale = max(Double(destination.width) / Double(source.width), Double(destination.height) / Double(source.height))
        let width = min(source.width, even(Double(destination.width) / scale))
        let height = min(source.height, even(Double(destination.height) / scale))
        return ((source.width - width) / 2 & ~1, (source.height - height) / 2 & ~1, width, height)
    }

    /// The size a `source`-sized picture is encoded at under Apple's Fit scaling: the aspect ratio
    /// kept by reducing the width or the height given, never larger than the source.
    package static func fit(source: (width: Int, height: Int), within box: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let area = letterbox(source: source, destination: box, upscales: false)
        return (max(16, area.width), max(16, area.height))
    }

    private static func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
}
