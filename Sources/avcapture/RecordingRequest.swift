import AVFoundation
import Foundation

/// What `avcapture record` (and, for its file, `photo`) accepts before it starts anything.
enum RecordingRequest {
    /// The file types a movie is written in, by extension.
    static let movieExtensions = ["mov": "QuickTime", "mp4": "MPEG-4", "m4v": "MPEG-4"]

    /// Refuses a file whose extension names a type the movie output cannot write, or a folder it cannot write in.
    static func checkDestination(_ url: URL) throws(CommandFailure) {
        let pathExtension = url.pathExtension.lowercased()
        guard movieExtensions[pathExtension] != nil else {
            let named = pathExtension.isEmpty ? "a file with no extension" : ".\(pathExtension) files"
            throw CommandFailure("Cannot write \(named); name the movie .mov (QuickTime), .mp4 or .m4v (MPEG-4).")
        }
        try checkNewFile(url)
    }

    /// Refuses a file that exists (avcapture never overwrites one), or a folder that cannot take a new file, saying why.
    static func checkNewFile(_ url: URL) throws(CommandFailure) {
        if FileSystemEntry.exists(atPath: url.path) {
            throw CommandFailure("\(url.path) already exists; avcapture never overwrites a file.")
        }
        let folder = url.deletingLastPathComponent().path
        if let (reason, _) = FolderCheck.whyUnwritable(folder) {
            throw CommandFailure("Cannot write in the folder \(folder): \(reason).")
        }
    }

    /// Refuses a location that is not an ISO 6709 point, and one whose degrees are out of range.
    static func checkLocation(_ text: String) throws(CommandFailure) {
        let example = "such as +48.8584+002.2945/ (latitude, longitude, optional altitude, then /)"
        guard let point = ISO6709Point(text) else { throw CommandFailure("--location must be an ISO 6709 point, \(example); got \(text).") }
        guard abs(point.latitude) <= 90, abs(point.longitude) <= 180 else {
            throw CommandFailure("--location \(text) is off the globe: latitude within ±90, longitude within ±180, \(example).")
        }
    }
}

/// A point in ISO 6709's string form: ±DD[MM[SS]][.d]±DDD[MM[SS]][.d][±altitude][CRSname]/.
struct ISO6709Point {
    var latitude: Double
    var longitude: Double

    init?(_ text: String) {
        var rest = Substring(text)
        guard rest.hasSuffix("/") else { return nil }
        rest = rest.dropLast()
        if let crs = rest.range(of: "CRS") { rest = rest[..<crs.lowerBound] }
        guard let latitude = Self.angle(&rest, degreeDigits: 2), let longitude = Self.angle(&rest, degreeDigits: 3) else { return nil }
        if !rest.isEmpty {
            // An altitude: a sign, then a number.
            guard let sign = rest.first, sign == "+" || sign == "-", Double(rest.dropFirst()) != nil, rest.dropFirst().first?.isNumber == true else {
                return nil
            }
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Reads a signed angle of `degreeDigits` digits of degrees, then optionally minutes and seconds, then a fraction.
    private static func angle(_ text: inout Substring, degreeDigits: Int) -> Double? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let body = text.dropFirst()
        let digits = body.prefix { $0.isASCII && $0.isNumber }
        var end = digits.endIndex
        var fraction = 0.0
        if end < body.endIndex, body[end] == "." {
            let decimals = body[body.index(after: end)...].prefix { $0.isASCII && $0.isNumber }
            guard !decimals.isEmpty else { return nil }
            fraction = Double("0." + decimals)!
            end = decimals.endIndex
        }
        let whole = Array(digits)
        guard [degreeDigits, degreeDigits + 2, degreeDigits + 4].contains(whole.count) else { return nil }
        func number(_ range: Range<Int>) -> Double { Double(String(whole[range]))! }
        var value: Double
        switch whole.count - degreeDigits {
        case 0: value = number(0..<degreeDigits) + fraction
        case 2:
            let minutes = number(degreeDigits..<degreeDigits + 2) + fraction
            guard minutes < 60 else { return nil }
            value = number(0..<degreeDigits) + minutes / 60
        default:
            let minutes = number(degreeDigits..<degreeDigits + 2), seconds = number(degreeDigits + 2..<degreeDigits + 4) + fraction
            guard minutes < 60, seconds < 60 else { return nil }
            value = number(0..<degreeDigits) + minutes / 60 + seconds / 3600
        }
        text = body[end...]
        return sign == "-" ? -value : value
    }
}
