/// A value handed to another queue where the type system cannot see that doing so is safe:
/// client objects (delegates, connections) that the framework only calls on the client's terms.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
