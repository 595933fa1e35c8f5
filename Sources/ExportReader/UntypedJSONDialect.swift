/// The untagged JSON shapes that stand for Firestore types in one export format.
///
/// The Node exporters `JSON.stringify` Admin SDK objects, so a timestamp becomes
/// `{"_seconds", "_nanoseconds"}` and so on; which of those shapes survive, and whether they
/// are tagged, differs per tool. Shapes are recognised by their exact key sets only.
struct UntypedJSONDialect: OptionSet, Sendable {
    let rawValue: UInt8

    /// node-firestore-import-export: `{"__datatype__": "timestamp"|"geopoint"|"documentReference", "value": …}`.
    static let datatypeTags = UntypedJSONDialect(rawValue: 1 << 0)
    /// `{"_seconds", "_nanoseconds"}` is a timestamp.
    static let secondsObjects = UntypedJSONDialect(rawValue: 1 << 1)
    /// `{"_latitude", "_longitude"}` is a geopoint.
    static let latitudeObjects = UntypedJSONDialect(rawValue: 1 << 2)
    /// `{"type": "Buffer", "data": [bytes]}` is bytes.
    static let bufferObjects = UntypedJSONDialect(rawValue: 1 << 3)
    /// `{"_firestore"?, "_path": {"segments": […]}, "_converter"?}` (a serialised DocumentReference) is a reference.
    static let referenceObjects = UntypedJSONDialect(rawValue: 1 << 4)
}
