import Foundation
import Hummingbird

/// A control request refused, with the HTTP status and the reason the page is told.
struct ControlRefusal: Error, Sendable {
    /// The status of the response: 400 for malformed requests, 404 for unknown controls, 409 for
    /// controls the camera lacks, 413 for oversized bodies, 422 for values out of range.
    let status: HTTPResponse.Status
    /// A sentence that says what was wrong.
    let reason: String

    /// A refusal with `reason`, given one full stop at its end where it has any.
    init(_ status: HTTPResponse.Status, _ reason: String) {
        var sentence = reason
        while sentence.hasSuffix("..") { sentence.removeLast() }
        self.status = status
        self.reason = sentence
    }
}

/// One JSON value of a control request, typed strictly: a number is never a Boolean.
private enum ControlValue: Decodable {
    case bool(Bool), number(Double), string(String), other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            self = .other
        }
    }

    var typeName: String {
        switch self {
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .other: "null, an array or an object"
        }
    }
}

/// The fields of a control request's JSON body, checked against what the control accepts.
///
/// The body must be one JSON object of at most `maximumBodySize` bytes whose fields are all among
/// the control's; each field is read as the type and within the range the control needs.
struct ControlRequest {
    /// The largest body a control request may have.
    static let maximumBodySize = 4096

    private let fields: [String: ControlValue]

    /// Parses `body`, refusing anything but an object whose fields are all in `allowed`.
    init(body: ByteBuffer, allowed: Set<String>) throws(ControlRefusal) {
        guard body.readableBytes <= Self.maximumBodySize else {
            throw ControlRefusal(.contentTooLarge, "The body is larger than \(Self.maximumBodySize) bytes.")
        }
        let data = Data(body.readableBytesView)
        let parsed: [String: ControlValue]
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            parsed = [:]
        } else {
            do {
                parsed = try JSONDecoder().decode([String: ControlValue].self, from: data)
            } catch {
                throw ControlRefusal(.badRequest, "The body is not a JSON object.")
            }
        }
        if let unknown = parsed.keys.sorted().first(where: { !allowed.contains($0) }) {
            let accepted = allowed.isEmpty ? "none" : allowed.sorted().joined(separator: ", ")
            throw ControlRefusal(.badRequest, "Unknown field '\(unknown)'; this control accepts: \(accepted).")
        }
        fields = parsed
    }

    /// A number field within `range`.
    func number(_ name: String, in range: ClosedRange<Double>) throws(ControlRefusal) -> Double {
        guard let value = fields[name] else { throw ControlRefusal(.badRequest, "The field '\(name)' is missing.") }
        guard case .number(let number) = value, number.isFinite else {
            throw ControlRefusal(.badRequest, "The field '\(name)' must be a number, not \(value.typeName).")
        }
        guard range.contains(number) else {
            throw ControlRefusal(.unprocessableContent, "The field '\(name)' must be between \(range.lowerBound) and \(range.upperBound); it was \(number).")
        }
        return number
    }

    /// A Boolean field.
    func bool(_ name: String) throws(ControlRefusal) -> Bool {
        guard let value = fields[name] else { throw ControlRefusal(.badRequest, "The field '\(name)' is missing.") }
        guard case .bool(let bool) = value else {
            throw ControlRefusal(.badRequest, "The field '\(name)' must be true or false, not \(value.typeName).")
        }
        return bool
    }

    /// A string field, one of `choices` when they are given.
    func string(_ name: String, oneOf choices: [String]? = nil) throws(ControlRefusal) -> String {
        guard let value = fields[name] else { throw ControlRefusal(.badRequest, "The field '\(name)' is missing.") }
        guard case .string(let string) = value else {
            throw ControlRefusal(.badRequest, "The field '\(name)' must be a string, not \(value.typeName).")
        }
        if let choices, !choices.contains(string) {
            throw ControlRefusal(.unprocessableContent, "The field '\(name)' must be one of \(choices.joined(separator: ", ")).")
        }
        return string
    }
}
