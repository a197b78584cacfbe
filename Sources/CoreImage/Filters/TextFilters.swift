import CVips
import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The text image generator: a string drawn by Pango, through libvips.
    static let textFilters: [FilterDefinition] = [textImageGenerator]

    /// The text escaped for Pango's markup, so that it is drawn as it is written.
    static func markupEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static let textImageGenerator = FilterDefinition(
        name: "CITextImageGenerator", displayName: "Text Image Generator",
        categories: [kCICategoryGenerator, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
        inputs: [
            Input(key: "inputText", className: "NSString", defaultValue: "", displayName: "Text"),
            Input(key: "inputFontName", className: "NSString", defaultValue: "HelveticaNeue", displayName: "Font Name"),
            .scalar("inputFontSize", "Font Size", default: 12, min: 9, sliderMin: 9, sliderMax: 128),
            .scalar("inputScaleFactor", "Scale Factor", default: 1, min: 0, sliderMin: 1, sliderMax: 4),
            .scalar("inputPadding", "Padding", default: 0, min: 0, sliderMin: 0, sliderMax: 200),
        ]
    ) { inputs in
        // Black text on transparent, the font's size in pixels times the scale factor, with the
        // padding (times the scale factor) of transparent around. A font fontconfig does not have
        // is replaced by its nearest (Helvetica Neue by a sans-serif).
        guard let text = inputs.values["inputText"] as? String, !text.isEmpty else { return nil }
        guard cvips_load() == nil else { return .empty() }
        let fontName = (inputs.values["inputFontName"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "HelveticaNeue"
        let size = min(1000, max(1, inputs.number("inputFontSize") ?? 12)), scale = min(16, max(0.01, inputs.number("inputScaleFactor") ?? 1))
        let padding = Int((min(1000, max(0, inputs.number("inputPadding") ?? 0)) * scale).rounded())
        // At most a million pixels of line, as far as the text's length can tell before it is laid out.
        guard Double(text.count) * size * scale <= 1_000_000 else { return .empty() }
        // Pango's sizes are in points: at 72 dots an inch, a point is a pixel.
        let font = "\(fontName.replacingOccurrences(of: ",", with: " ")) \(Int(size.rounded()))"
        var coverage: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        guard cvips_text(markupEscaped(text), font, Int32((72 * scale).rounded()), &coverage, &width, &height) == 0, let coverage else { return .empty() }
        defer { free(coverage) }
        guard Int(width) * Int(height) <= 100_000_000 else { return .empty() }
        let (w, h) = (Int(width) + 2 * padding, Int(height) + 2 * padding)
        let pixels = OwnedPixels(width: w, height: h) { memory in
            for y in 0..<Int(height) {
                for x in 0..<Int(width) { memory[((y + padding) * w + x + padding) * 4 + 3] = coverage[y * Int(width) + x] }
            }
        }
        return CIImage(recipe: .pixels(pixels.source(width: w, height: h)))
    }
}
