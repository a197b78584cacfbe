import Foundation

/// An ordered list of objects a fetch of the photo library returned.
open class PHFetchResult<ObjectType: AnyObject>: NSObject, @unchecked Sendable {
    private let objects: [ObjectType]

    init(objects: [ObjectType]) {
        self.objects = objects
        super.init()
    }

    /// Creates an empty result.
    public override convenience init() { self.init(objects: []) }

    /// The number of objects.
    open var count: Int { objects.count }
    /// The first object, or nil when there is none.
    open var firstObject: ObjectType? { objects.first }
    /// The last object, or nil when there is none.
    open var lastObject: ObjectType? { objects.last }

    /// The object at an index.
    open func object(at index: Int) -> ObjectType { objects[index] }

    /// The object at an index.
    open subscript(index: Int) -> ObjectType { objects[index] }

    /// The objects at the indexes of a set.
    open func objects(at indexes: IndexSet) -> [ObjectType] { indexes.map { objects[$0] } }

    /// Whether the result holds an object (equal by identity, or by `isEqual(_:)` for objects).
    open func contains(_ anObject: ObjectType) -> Bool { index(of: anObject) != NSNotFound }

    /// The index of an object, or `NSNotFound`.
    open func index(of anObject: ObjectType) -> Int {
        objects.firstIndex { $0 === anObject || (($0 as? NSObject)?.isEqual(anObject) ?? false) } ?? NSNotFound
    }

    /// Calls a block with each object and its index, in order, until the block sets its stop flag.
    open func enumerateObjects(_ block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void) {
        var stop = ObjCBool(false)
        for (index, object) in objects.enumerated() {
            block(object, index, &stop)
            if stop.boolValue { return }
        }
    }
}
