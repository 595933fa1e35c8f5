/// A Firestore value: every type a document field can hold.
///
/// `==` on `Value` is Firestore's *strict* equality (the one `in`, `not-in` and
/// `array-contains` use: integer 1 ≠ double 1.0, 0.0 ≠ -0.0, NaN == NaN). The numeric-aware
/// equality of `==` filters is ``Value/compare(_:_:)`` returning `.equal`.
public enum Value: Sendable {
    case null
    case boolean(Bool)
    case integer(Int64)
    case double(Double)
    case timestamp(Timestamp)
    case string(String)
    case bytes([UInt8])
    case reference(ResourceName)
    case geoPoint(GeoPoint)
    case array([Value])
    case map(MapValue)
}

/// A latitude/longitude pair.
public struct GeoPoint: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The fields of a map value or a document: keys are unique by their UTF-8 bytes and kept
/// sorted by them, so encoding is deterministic and lookups are a binary search.
public struct MapValue: Sendable {
    public struct Field: Sendable {
        public var key: String
        public var value: Value

        public init(key: String, value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// The fields in UTF-8 key order.
    public private(set) var fields: [Field]

    public init() {
        fields = []
    }

    /// Builds a map; a key given twice keeps the last value.
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, Value) {
        var fields = pairs.map { Field(key: $0.0, value: $0.1) }
        // Stable sort keeps the source order of equal keys, so the last one wins below.
        fields = fields.enumerated().sorted { a, b in
            let order = UTF8Order.compare(a.element.key, b.element.key)
            return order == .equal ? a.offset < b.offset : order == .less
        }.map(\.element)
        var unique: [Field] = []
        unique.reserveCapacity(fields.count)
        for field in fields {
            if let last = unique.last, UTF8Order.equal(last.key, field.key) {
                unique[unique.count - 1] = field
            } else {
                unique.append(field)
            }
        }
        self.fields = unique
    }

    /// Builds a map from fields whose keys are known to be distinct (a parsed JSON object):
    /// a plain sort, without the stable sort and de-duplication of ``init(_:)``.
    public init(distinctKeys fields: [Field]) {
        var fields = fields
        if !zip(fields, fields.dropFirst()).allSatisfy({ UTF8Order.compare($0.key, $1.key) == .less }) {
            fields.sort { UTF8Order.compare($0.key, $1.key) == .less }
        }
        self.fields = fields
    }

    public var isEmpty: Bool { fields.isEmpty }
    public var count: Int { fields.count }

    private func index(of key: String) -> (found: Bool, index: Int) {
        var low = 0
        var high = fields.count
        while low < high {
            let mid = (low + high) / 2
            switch UTF8Order.compare(fields[mid].key, key) {
            case .less: low = mid + 1
            case .greater: high = mid
            case .equal: return (true, mid)
            }
        }
        return (false, low)
    }

    /// The value stored under `key` (byte-exact).
    public subscript(key: String) -> Value? {
        get {
            let (found, index) = index(of: key)
            return found ? fields[index].value : nil
        }
        set {
            let (found, index) = index(of: key)
            switch (found, newValue) {
            case (true, let value?): fields[index].value = value
            case (true, nil): fields.remove(at: index)
            case (false, let value?): fields.insert(Field(key: key, value: value), at: index)
            case (false, nil): break
            }
        }
    }

    /// The value at a (possibly nested) field path, or nil when any segment is missing or a
    /// non-map value is in the way. Array elements are not addressable (`arr.0` is map key "0").
    public func value(at path: FieldPath) -> Value? {
        var current = self
        for (position, segment) in path.segments.enumerated() {
            guard let value = current[segment] else { return nil }
            if position == path.segments.count - 1 { return value }
            guard case .map(let next) = value else { return nil }
            current = next
        }
        return nil
    }
}

extension Value {
    /// True for a map `{__type__: "__vector__", value: [...]}`, which Firestore orders as its own
    /// type between arrays and maps.
    public var isVector: Bool {
        guard case .map(let map) = self, case .string(let type)? = map["__type__"] else { return false }
        return UTF8Order.equal(type, "__vector__")
    }

    /// A short name of the value's type, for messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .boolean: return "boolean"
        case .integer: return "integer"
        case .double: return "double"
        case .timestamp: return "timestamp"
        case .string: return "string"
        case .bytes: return "bytes"
        case .reference: return "reference"
        case .geoPoint: return "geopoint"
        case .array: return "array"
        case .map: return isVector ? "vector" : "map"
        }
    }

    public var isNaN: Bool {
        if case .double(let d) = self { return d.isNaN }
        return false
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Calls `body` on every reference value inside this value (recursively) and replaces it
    /// with what `body` returns.
    public func mappingReferences(_ body: (ResourceName) throws -> ResourceName) rethrows -> Value {
        switch self {
        case .reference(let name): return .reference(try body(name))
        case .array(let values): return .array(try values.map { try $0.mappingReferences(body) })
        case .map(let map): return .map(try map.mappingReferences(body))
        default: return self
        }
    }
}

extension MapValue {
    /// The map with every reference value inside it passed through `body`.
    public func mappingReferences(_ body: (ResourceName) throws -> ResourceName) rethrows -> MapValue {
        var copy = self
        for index in copy.fields.indices {
            copy.fields[index].value = try copy.fields[index].value.mappingReferences(body)
        }
        return copy
    }
}
