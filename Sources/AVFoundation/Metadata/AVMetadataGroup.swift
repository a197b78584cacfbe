import Foundation

/// A collection of metadata items that belong together.
open class AVMetadataGroup: NSObject, @unchecked Sendable {
    private let storedItems: [AVMetadataItem]

    init(items: [AVMetadataItem]) {
        storedItems = items
        super.init()
    }

    /// The items of the group.
    open var items: [AVMetadataItem] { storedItems }
    /// A label that says what the group is about, when its source gives one.
    open var classifyingLabel: String? { nil }
    /// An identifier of the group that stays the same across its occurrences, when its source gives one.
    open var uniqueID: String? { nil }
}
