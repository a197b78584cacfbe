import Foundation

/// A delegate protocol that defines the methods to implement to respond to asset-writing events.
///
/// Apple's methods are optional; here each has a default implementation. The writer calls the
/// form with a report, whose default calls the form without one, so a delegate implements either.
public protocol AVAssetWriterDelegate: NSObjectProtocol, Sendable {
    /// Tells the delegate that the asset writer output segment data and a report.
    func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType, segmentReport: AVAssetSegmentReport?)
    /// Tells the delegate that the asset writer output segment data.
    func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType)
}

extension AVAssetWriterDelegate {
    /// Calls `assetWriter(_:didOutputSegmentData:segmentType:)`.
    public func assetWriter(
        _ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType, segmentReport: AVAssetSegmentReport?
    ) {
        assetWriter(writer, didOutputSegmentData: segmentData, segmentType: segmentType)
    }

    /// Does nothing.
    public func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType) {}
}

/// A profile for the output file type.
public struct AVFileTypeProfile: RawRepresentable, Hashable, Sendable {
    /// The profile's name.
    public let rawValue: String
    /// Creates a profile from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A file type profile for Apple HTTP Live Streaming.
    public static let mpeg4AppleHLS = AVFileTypeProfile(rawValue: "MPEG4AppleHLS")
    /// A file type profile for the Common Media Application Format.
    public static let mpeg4CMAFCompliant = AVFileTypeProfile(rawValue: "MPEG4CMAFCompliant")
}
