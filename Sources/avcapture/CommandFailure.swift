/// What a command cannot do, said in one line: ArgumentParser prints `Error: ` and the
/// description on standard error and exits with a non-zero status, without the usage text
/// that it prints after a mistake in the arguments themselves.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
