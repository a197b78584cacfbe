import CoreMedia

extension Array where Element == CMTag {
    /// Creates a collection of tags with the required tags to describe basic stereoscopic video,
    /// where both left and right stereo eyes are present.
    public static func stereoscopicForVideoOutput() -> [CMTag] {
        [CMTag(categoryCode: FourCharCode(fourCharacters: "mdia"), value: .osType(kCMMediaType_Video)), .stereoView([.leftEye, .rightEye])]
    }

    /// Creates a collection of tags with the required tags to describe basic monoscopic video.
    public static func monoscopicForVideoOutput() -> [CMTag] {
        [CMTag(categoryCode: FourCharCode(fourCharacters: "mdia"), value: .osType(kCMMediaType_Video))]
    }
}
