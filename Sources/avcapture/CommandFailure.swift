/// What a command cannot do, said in one line: ArgumentParser prints `Error: ` and the
/// description on standard error and exits with a non-zero status, without the usage text
/// that it prints after a mistake in the arguments themselves.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    /// A failure saying `description`, with one full stop at its end where it has any (a reason
    /// quoted from an error often brings its own).
    init(_ description: String) {
        var sentence = description
        while sentence.hasSuffix("..") { sentence.removeLast() }
        self.description = sentence
    }
}
