/// Firestore's total order over values, exactly as the client SDKs compute it
/// (firebase-js-sdk `model/values.ts` `valueCompare`), because clients re-run bundled queries
/// against their cache and our results must match theirs.
extension Value {
    /// The rank of each type class (ascending): null < boolean < number < timestamp < string <
    /// bytes < reference < geopoint < array < vector < map.
    public var typeOrder: Int {
        switch self {
        case .null: return 0
        case .boolean: return 1
        case .integer, .double: return 2
        case .timestamp: return 3
        case .string: return 5
        case .bytes: return 6
        case .reference: return 7
        case .geoPoint: return 8
        case .array: return 9
        case .map: return isVector ? 10 : 11
        }
    }

    /// The number as the client sees it: a JS double. Integers beyond ±2^53 lose precision here,
    /// exactly as in the JS SDK (`normalizeNumber`).
    var clientNumber: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// Compares two values in Firestore's total order. Numbers compare across int/double
    /// (1 == 1.0, -0.0 == 0), NaN equals NaN and sorts below every other number.
    public static func compare(_ lhs: Value, _ rhs: Value) -> Ordering {
        let leftType = lhs.typeOrder
        let rightType = rhs.typeOrder
        if leftType != rightType { return Ordering.of(leftType, rightType) }
        switch (lhs, rhs) {
        case (.null, .null):
            return .equal
        case let (.boolean(l), .boolean(r)):
            return l == r ? .equal : (l ? .greater : .less)
        case let (.timestamp(l), .timestamp(r)):
            return Ordering.of(l, r)
        case let (.string(l), .string(r)):
            return UTF8Order.compare(l, r)
        case let (.bytes(l), .bytes(r)):
            return l.withUnsafeBufferPointer { lb in r.withUnsafeBufferPointer { rb in UTF8Order.compare(bytes: lb, rb) } }
        case let (.reference(l), .reference(r)):
            return compareReferences(l, r)
        case let (.geoPoint(l), .geoPoint(r)):
            let latitude = compareNumbers(l.latitude, r.latitude)
            return latitude != .equal ? latitude : compareNumbers(l.longitude, r.longitude)
        case let (.array(l), .array(r)):
            return compareArrays(l, r)
        case let (.map(l), .map(r)):
            return leftType == 10 ? compareVectors(l, r) : compareMaps(l, r)
        default:
            return compareNumbers(lhs.clientNumber!, rhs.clientNumber!)
        }
    }

    static func compareNumbers(_ l: Double, _ r: Double) -> Ordering {
        if l < r { return .less }
        if l > r { return .greater }
        if l == r { return .equal }
        // At least one is NaN: NaN sorts first and equals NaN.
        if l.isNaN { return r.isNaN ? .equal : .less }
        return .greater
    }

    /// Reference values compare by the full resource name split on "/", segment by segment in
    /// UTF-16 order (JS `<`), then by segment count; there is no numeric-ID rule here.
    static func compareReferences(_ l: ResourceName, _ r: ResourceName) -> Ordering {
        let left = ["projects", l.database.project, "databases", l.database.database, "documents"] + l.path.segments
        let right = ["projects", r.database.project, "databases", r.database.database, "documents"] + r.path.segments
        for (a, b) in zip(left, right) {
            let order = UTF8Order.compareUTF16(a, b)
            if order != .equal { return order }
        }
        return Ordering.of(left.count, right.count)
    }

    static func compareArrays(_ l: [Value], _ r: [Value]) -> Ordering {
        for (a, b) in zip(l, r) {
            let order = compare(a, b)
            if order != .equal { return order }
        }
        return Ordering.of(l.count, r.count)
    }

    static func compareVectors(_ l: MapValue, _ r: MapValue) -> Ordering {
        let left = vectorElements(l)
        let right = vectorElements(r)
        let dimension = Ordering.of(left.count, right.count)
        return dimension != .equal ? dimension : compareArrays(left, right)
    }

    private static func vectorElements(_ map: MapValue) -> [Value] {
        if case .array(let values)? = map["value"] { return values }
        return []
    }

    /// Maps: keys sorted in UTF-16 order (JS `sort()`), then pairs compared in turn (key by
    /// UTF-8, then value), then the key count.
    static func compareMaps(_ l: MapValue, _ r: MapValue) -> Ordering {
        let left = utf16SortedFields(l)
        let right = utf16SortedFields(r)
        for (a, b) in zip(left, right) {
            let key = UTF8Order.compare(a.key, b.key)
            if key != .equal { return key }
            let value = compare(a.value, b.value)
            if value != .equal { return value }
        }
        return Ordering.of(left.count, right.count)
    }

    private static func utf16SortedFields(_ map: MapValue) -> [MapValue.Field] {
        // UTF-8 order (how MapValue stores keys) equals UTF-16 order unless a key has a scalar
        // in U+E000…U+FFFF next to one above U+FFFF; only then is a re-sort needed.
        let needsResort = map.fields.contains { field in
            field.key.unicodeScalars.contains { $0.value >= 0xE000 }
        }
        guard needsResort else { return map.fields }
        return map.fields.sorted { UTF8Order.compareUTF16($0.key, $1.key) == .less }
    }
}
