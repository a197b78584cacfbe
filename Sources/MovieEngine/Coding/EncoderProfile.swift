/// A profile and level as Apple names them ("H264_High_4_1", "H264_Main_AutoLevel",
/// "HEVC_Main10_AutoLevel"), in FFmpeg's terms.
package struct EncoderProfile: Equatable, Sendable {
    /// FFmpeg's name for the profile: baseline, main or high for H.264; main or main10 for HEVC.
    package var profile: String
    /// The level times ten (41 for 4.1), or 0 for the encoder's choice.
    package var level: Int

    /// Reads an Apple profile-level name; nil when it is not one of H.264's or HEVC's.
    package init?(profileLevel: String) {
        let parts = profileLevel.split(separator: "_").map(String.init)
        guard parts.count == 3 || parts.count == 4 else { return nil }
        let profiles: [String: [String: String]] = [
            "H264": ["Baseline": "baseline", "Main": "main", "High": "high"],
            "HEVC": ["Main": "main", "Main10": "main10"],
        ]
        guard let profile = profiles[parts[0]]?[parts[1]] else { return nil }
        self.profile = profile
        if parts.count == 3 {
            guard parts[2] == "AutoLevel" else { return nil }
            level = 0
        } else {
            guard let major = Int(parts[2]), let minor = Int(parts[3]), (1...6).contains(major), (0...2).contains(minor) else { return nil }
            level = major * 10 + minor
        }
    }
}
