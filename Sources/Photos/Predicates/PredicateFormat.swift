import Foundation

/// An object a predicate written as a format string can read values from, by key path.
package protocol PredicateKeyValueReading {
    /// The value at a key path, or nil when there is none.
    func predicateValue(forKeyPath keyPath: String) -> Any?
}

/// A predicate format string, as `NSPredicate(format:)` takes it, parsed once and evaluated
/// against objects that read their values by key path (`PredicateKeyValueReading`) or
/// dictionaries: comparisons (`=`, `==`, `!=`, `<>`, `<`, `<=`, `>`, `>=`, `CONTAINS`,
/// `BEGINSWITH`, `ENDSWITH`, `LIKE`, with `[c]` and `[d]`), `AND`/`&&`, `OR`/`||`, `NOT`/`!` and
/// parentheses; arguments `%@`, `%K`, `%d`, `%i`, `%ld`, `%u`, `%lu`, `%f`, `%lf`, and quoted,
/// numeric, boolean and `nil` literals.
package indirect enum PredicateFormat: Sendable {
    case comparison(key: String, operator: String, options: String, value: PredicateLiteral)
    case and(PredicateFormat, PredicateFormat)
    case or(PredicateFormat, PredicateFormat)
    case not(PredicateFormat)
    case constant(Bool)

    /// Why a format string could not be read.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Parses a format string with its arguments.
    package static func parse(_ format: String, arguments: [Any]) throws(Failure) -> PredicateFormat {
        var parser = Parser(tokens: try tokenize(format), arguments: arguments)
        let parsed = try parser.expression()
        guard parser.atEnd else { throw Failure(description: "unexpected \(parser.peek ?? "") in \"\(format)\"") }
        return parsed
    }

    /// Whether an object satisfies the predicate.
    package func evaluate(_ object: Any?) -> Bool {
        switch self {
        case .constant(let value): return value
        case .not(let inner): return !inner.evaluate(object)
        case .and(let left, let right): return left.evaluate(object) && right.evaluate(object)
        case .or(let left, let right): return left.evaluate(object) || right.evaluate(object)
        case .comparison(let key, let op, let options, let value):
            return Self.compare(Self.value(of: key, in: object), op, options, value)
        }
    }

    private static func value(of keyPath: String, in object: Any?) -> Any? {
        if keyPath == "SELF" { return object }
        if let reading = object as? PredicateKeyValueReading { return reading.predicateValue(forKeyPath: keyPath) }
        if let dictionary = object as? [String: Any] { return dictionary[keyPath] }
        return nil
    }

    private static func compare(_ found: Any?, _ op: String, _ options: String, _ literal: PredicateLiteral) -> Bool {
        switch (found.flatMap(PredicateLiteral.init(any:)) ?? .null, literal) {
        case (.null, .null): return op == "==" || op == "="
        case (.null, _), (_, .null): return op == "!=" || op == "<>"
        case (.string(let left), .string(let right)):
            let caseless = options.contains("c"), diacriticless = options.contains("d")
            func fold(_ text: String) -> String {
                var folded = caseless ? text.lowercased() : text
                if diacriticless {
                    // Decomposed, without the combining marks.
                    let scalars = folded.decomposedStringWithCanonicalMapping.unicodeScalars.filter { $0.properties.generalCategory != .nonspacingMark }
                    folded = String(String.UnicodeScalarView(scalars))
                }
                return folded
            }
            let (a, b) = (fold(left), fold(right))
            switch op {
            case "==", "=": return a == b
            case "!=", "<>": return a != b
            case "<": return a < b
            case "<=": return a <= b
            case ">": return a > b
            case ">=": return a >= b
            case "CONTAINS": return a.contains(b)
            case "BEGINSWITH": return a.hasPrefix(b)
            case "ENDSWITH": return a.hasSuffix(b)
            case "LIKE": return like(a, b)
            default: return false
            }
        case (.number(let left), .number(let right)):
            return order(left, right, op)
        case (.date(let left), .date(let right)):
            return order(left.timeIntervalSinceReferenceDate, right.timeIntervalSinceReferenceDate, op)
        default:
            return op == "!=" || op == "<>"
        }
    }

    private static func order(_ a: Double, _ b: Double, _ op: String) -> Bool {
        switch op {
        case "==", "=": a == b
        case "!=", "<>": a != b
        case "<": a < b
        case "<=": a <= b
        case ">": a > b
        case ">=": a >= b
        default: false
        }
    }

    /// `LIKE`: `*` any run of characters, `?` any one.
    private static func like(_ text: String, _ pattern: String) -> Bool {
        let t = Array(text), p = Array(pattern)
        var table = Array(repeating: Array(repeating: false, count: p.count + 1), count: t.count + 1)
        table[0][0] = true
        for j in stride(from: 1, through: p.count, by: 1) where p[j - 1] == "*" { table[0][j] = table[0][j - 1] }
        for i in stride(from: 1, through: t.count, by: 1) {
            for j in stride(from: 1, through: p.count, by: 1) {
                switch p[j - 1] {
                case "*": table[i][j] = table[i][j - 1] || table[i - 1][j]
                case "?": table[i][j] = table[i - 1][j - 1]
                default: table[i][j] = table[i - 1][j - 1] && t[i - 1] == p[j - 1]
                }
            }
        }
        return table[t.count][p.count]
    }

    // MARK: Reading the format

    private static func tokenize(_ format: String) throws(Failure) -> [String] {
        var tokens: [String] = []
        let characters = Array(format)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
            } else if character == "'" || character == "\"" {
                var end = index + 1
                while end < characters.count, characters[end] != character { end += 1 }
                guard end < characters.count else { throw Failure(description: "an unclosed quote in \"\(format)\"") }
                tokens.append(String(characters[index...end]))
                index = end + 1
            } else if "()".contains(character) {
                tokens.append(String(character))
                index += 1
            } else if "=!<>&|".contains(character) {
                var end = index + 1
                while end < characters.count, "=<>&|".contains(characters[end]) { end += 1 }
                // Options such as [c] belong to the operator.
                if end < characters.count, characters[end] == "[", let close = characters[end...].firstIndex(of: "]") { end = close + 1 }
                tokens.append(String(characters[index..<end]))
                index = end
            } else {
                var end = index
                while end < characters.count, !characters[end].isWhitespace, !"()=!<>&|'\"".contains(characters[end]) { end += 1 }
                tokens.append(String(characters[index..<end]))
                index = end
            }
        }
        return tokens
    }

    private struct Parser {
        let tokens: [String]
        var arguments: [Any]
        var position = 0

        init(tokens: [String], arguments: [Any]) {
            self.tokens = tokens
            self.arguments = arguments
        }

        var atEnd: Bool { position >= tokens.count }
        var peek: String? { atEnd ? nil : tokens[position] }

        mutating func next() throws(Failure) -> String {
            guard let token = peek else { throw Failure(description: "the format ends too soon") }
            position += 1
            return token
        }

        mutating func expression() throws(Failure) -> PredicateFormat {
            try joined(by: ["OR", "||"], PredicateFormat.or) { parser throws(Failure) in try parser.conjunction() }
        }

        mutating func conjunction() throws(Failure) -> PredicateFormat {
            try joined(by: ["AND", "&&"], PredicateFormat.and) { parser throws(Failure) in try parser.negation() }
        }

        /// Operands joined from left to right by any of `words`.
        mutating func joined(
            by words: Set<String>, _ combine: (PredicateFormat, PredicateFormat) -> PredicateFormat,
            _ operand: (inout Parser) throws(Failure) -> PredicateFormat
        ) throws(Failure) -> PredicateFormat {
            var left = try operand(&self)
            while let token = peek, words.contains(token.uppercased()) {
                position += 1
                left = combine(left, try operand(&self))
            }
            return left
        }

        mutating func negation() throws(Failure) -> PredicateFormat {
            if let token = peek, token.uppercased() == "NOT" || token == "!" {
                position += 1
                return .not(try negation())
            }
            if peek == "(" {
                position += 1
                let inner = try expression()
                guard try next() == ")" else { throw Failure(description: "a parenthesis is not closed") }
                return inner
            }
            if let token = peek?.uppercased(), token == "TRUEPREDICATE" || token == "FALSEPREDICATE" {
                position += 1
                return .constant(token == "TRUEPREDICATE")
            }
            return try comparison()
        }

        mutating func comparison() throws(Failure) -> PredicateFormat {
            var key = try next()
            if key == "%K" {
                guard !arguments.isEmpty, let name = arguments.removeFirst() as? String else { throw Failure(description: "%K needs a key") }
                key = name
            }
            var op = try next()
            var options = ""
            if let bracket = op.firstIndex(of: "[") {
                options = String(op[bracket...]).lowercased().filter { $0 == "c" || $0 == "d" }
                op = String(op[..<bracket])
            }
            op = op.uppercased()
            let known = ["=", "==", "!=", "<>", "<", "<=", ">", ">=", "=<", "=>", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE"]
            guard known.contains(op) else { throw Failure(description: "\(op) is not an operator read here") }
            op = op == "=<" ? "<=" : op == "=>" ? ">=" : op
            return .comparison(key: key, operator: op, options: options, value: try literal())
        }

        mutating func literal() throws(Failure) -> PredicateLiteral {
            let token = try next()
            if token.hasPrefix("%") {
                guard !arguments.isEmpty else { throw Failure(description: "\(token) has no argument") }
                let argument = arguments.removeFirst()
                guard let value = PredicateLiteral(any: argument) else { throw Failure(description: "\(token)'s argument is not a value read here") }
                return value
            }
            if let first = token.first, first == "'" || first == "\"" { return .string(String(token.dropFirst().dropLast())) }
            switch token.uppercased() {
            case "TRUE", "YES": return .number(1)
            case "FALSE", "NO": return .number(0)
            case "NIL", "NULL": return .null
            default: break
            }
            guard let number = Double(token) else { throw Failure(description: "\(token) is not a value") }
            return .number(number)
        }
    }
}

/// A value a predicate compares.
package enum PredicateLiteral: Sendable {
    case string(String)
    case number(Double)
    case date(Date)
    case null

    /// The value of an argument or of an object's property; nil for kinds predicates do not compare.
    package init?(any value: Any) {
        switch value {
        case let string as String: self = .string(string)
        case let string as NSString: self = .string(string as String)
        case let date as Date: self = .date(date)
        case let bool as Bool: self = .number(bool ? 1 : 0)
        case let number as NSNumber: self = .number(number.doubleValue)
        case let number as any BinaryInteger: self = .number(Double(number))
        case let number as any BinaryFloatingPoint: self = .number(Double(number))
        case is NSNull: self = .null
        default: return nil
        }
    }
}
