import CoreGraphics
import Foundation

extension FilterDefinition {
    /// The tiles on a hexagonal lattice: every point taken to the nearest lattice point, then its
    /// direction from there folded into one wedge, and the image sampled at the centre plus that.
    static let hexagonalTileFilters: [FilterDefinition] = [
        hexagonalTile("CISixfoldRotatedTile", "Sixfold Rotated Tile", wedges: 6, mirrored: false),
        hexagonalTile("CISixfoldReflectedTile", "Sixfold Reflected Tile", wedges: 3, mirrored: true),
        hexagonalTile("CITwelvefoldReflectedTile", "Twelvefold Reflected Tile", wedges: 6, mirrored: true),
    ]

    /// A hexagonal tile: lattice points `width` apart along the angle's direction (each hexagon a
    /// copy of the image around the centre), the hexagon around each turned into `wedges` equal
    /// turns (rotated copies), each of which is also mirrored about its middle when `mirrored`.
    private static func hexagonalTile(_ name: String, _ displayName: String, wedges: Int, mirrored: Bool) -> FilterDefinition {
        FilterDefinition(
            name: name, displayName: displayName, categories: [kCICategoryTileEffect, kCICategoryVideo, kCICategoryStillImage, kCICategoryBuiltIn],
            inputs: centredTileInputs
        ) { inputs in
            guard let image = inputs.image(kCIInputImageKey) else { return nil }
            guard let (centre, angle, width) = centredTile(inputs) else { return .empty() }
            let recipe = image.recipe
            let (c, s) = (cos(angle), sin(angle))
            // The lattice in the turned frame: points (w i, h j) and (w i + w/2, h j + h/2), h = w sqrt 3.
            let (w, h) = (width, width * 3.0.squareRoot())
            let wedge = 2 * Double.pi / Double(wedges)
            return image.derived(
                .computed(
                    Computation(extent: .infinite) { context in
                        let offset = try context.coordinates().scaled([1], plus: [-Double(centre.x), -Double(centre.y)])
                        let turned = try offset.weighed([[c, s], [-s, c]])
                        let (x, y) = (try turned.bands(0), try turned.bands(1))
                        func nearest(_ v: Pixels, _ step: Double, _ shift: Double) throws -> Pixels { try floor(try (v - shift) / step + 0.5) * step + shift }
                        let (ax, ay) = (try nearest(x, w, 0), try nearest(y, h, 0))
                        let (bx, by) = (try nearest(x, w, w / 2), try nearest(y, h, h / 2))
                        let da = try (x - ax) * (x - ax) + (y - ay) * (y - ay), db = try (x - bx) * (x - bx) + (y - by) * (y - by)
                        let nearerA = try da < db
                        let (dx, dy) = (try x - choose(nearerA, ax, bx), try y - choose(nearerA, ay, by))
                        // The direction from the lattice point, in wedges: folded into the first.
                        let distance = try sqrt(try dx * dx + dy * dy)
                        let turns = try atan2(dy, dx) / wedge
                        let within = try turns - floor(turns)
                        let folded = mirrored ? try (1 - abs(try within * 2 - 1)) * 0.5 : within
                        let direction = try folded * wedge
                        // Back into the plane about the centre, turned back by the angle.
                        let (u, v) = (try distance * cos(direction), try distance * sin(direction))
                        let points = try Pixels.joined([u, v]).weighed([[c, -s], [s, c]]).scaled([1], plus: [Double(centre.x), Double(centre.y)])
                        let reach = CGRect(x: Double(centre.x) - w, y: Double(centre.y) - w, width: 2 * w, height: 2 * w)
                        return try sampled(recipe, at: points, reaching: reach, context)
                    }))
        }
    }
}
