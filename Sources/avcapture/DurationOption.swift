import ArgumentParser

/// Durations and times given on the command line: numbers of seconds that are finite, not
/// negative and no longer than a year, so that NaN, infinity and 1e300 are refused with a reason
/// rather than turned into for ever or into a trap.
enum DurationOption {
    /// The longest duration any option takes: a year.
    static let longest: Double = 366 * 24 * 3600

    /// Seconds, zero included: `transform:` for options such as `--seconds`.
    static func seconds(_ text: String) throws -> Double {
        try parse(text, allowingZero: true)
    }

    /// Seconds, more than zero: `transform:` for intervals such as `--fragment-interval`, and for
    /// `--seconds` where nothing would be done in none.
    static func positiveSeconds(_ text: String) throws -> Double {
        try parse(text, allowingZero: false)
    }

    /// A number of seconds read from part of an option's value, or nil when it is none.
    static func value(_ text: some StringProtocol) -> Double? {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0, value <= longest else { return nil }
        return value
    }

    private static func parse(_ text: String, allowingZero: Bool) throws -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            throw ValidationError("a number of seconds is expected, such as 2.5.")
        }
        guard value >= 0, allowingZero || value > 0 else {
            throw ValidationError(allowingZero ? "a duration cannot be negative." : "it must be more than 0 seconds.")
        }
        guard value <= longest else {
            throw ValidationError("at most \(Int(longest)) seconds (a year) is taken.")
        }
        return value
    }
}
