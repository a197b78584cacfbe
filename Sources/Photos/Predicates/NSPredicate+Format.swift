import Foundation

extension NSPredicate {
    /// Creates a predicate from a format string and its arguments, as PhotoKit's fetch options
    /// take it (`NSPredicate(format: "title = %@", name)`): the comparisons, compounds and
    /// arguments `PredicateFormat` reads, evaluated by key path. A format it cannot read makes a
    /// predicate that nothing satisfies, and says why on standard error.
    public convenience init(format predicateFormat: String, _ args: CVarArg...) {
        self.init(format: predicateFormat, argumentArray: args)
    }

    /// Creates a predicate from a format string and an array of arguments.
    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        let parsed: PredicateFormat
        do {
            parsed = try PredicateFormat.parse(predicateFormat, arguments: arguments ?? [])
        } catch {
            FileHandle.standardError.write(Data("NSPredicate: cannot read \"\(predicateFormat)\": \(error)\n".utf8))
            parsed = .constant(false)
        }
        self.init { object, _ in parsed.evaluate(object) }
    }
}
