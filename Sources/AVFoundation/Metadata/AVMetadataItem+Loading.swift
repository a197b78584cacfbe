import Foundation

extension AVMetadataItem: AVAsynchronousKeyValueLoading {
    /// Returns `.loaded`: an item's value is read with it.
    public func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus { .loaded }

    /// Calls the handler: an item's values are loaded with it.
    public func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)? = nil) {
        if let handler { DispatchQueue.global().async(execute: handler) }
    }
}

extension AVAsyncProperty where Root: AVMetadataItem, Value == (any NSCopying & NSObjectProtocol)? {
    /// The value of the metadata item.
    public static var value: AVAsyncProperty<Root, (any NSCopying & NSObjectProtocol)?> { .init(key: "value") { $0.value } }
}

extension AVAsyncProperty where Root: AVMetadataItem, Value == [AVMetadataExtraAttributeKey: Any]? {
    /// A dictionary of additional attributes for the item.
    public static var extraAttributes: AVAsyncProperty<Root, [AVMetadataExtraAttributeKey: Any]?> { .init(key: "extraAttributes") { $0.extraAttributes } }
}

extension AVAsyncProperty where Root: AVMetadataItem, Value == String? {
    /// The value of the metadata item as a string.
    public static var stringValue: AVAsyncProperty<Root, String?> { .init(key: "stringValue") { $0.stringValue } }
}

extension AVAsyncProperty where Root: AVMetadataItem, Value == NSNumber? {
    /// The value of the metadata item as a number.
    public static var numberValue: AVAsyncProperty<Root, NSNumber?> { .init(key: "numberValue") { $0.numberValue } }
}

extension AVAsyncProperty where Root: AVMetadataItem, Value == Date? {
    /// The value of the metadata item as a date.
    public static var dateValue: AVAsyncProperty<Root, Date?> { .init(key: "dateValue") { $0.dateValue } }
}

extension AVAsyncProperty where Root: AVMetadataItem, Value == Data? {
    /// The value of the metadata item as a data value.
    public static var dataValue: AVAsyncProperty<Root, Data?> { .init(key: "dataValue") { $0.dataValue } }
}
