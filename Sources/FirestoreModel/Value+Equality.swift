/// Strict equality (firebase-js-sdk `valueEquals`): the equality of `in`, `not-in`,
/// `array-contains` and `array-contains-any`. Integers equal integers and doubles equal doubles
/// (compared as JS numbers); an integer never equals a double; 0.0 ≠ -0.0; NaN == NaN.
extension Value: Equatable {
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null):
            return true
        case let (.boolean(l), .boolean(r)):
            return l == r
        case let (.integer(l), .integer(r)):
            return Double(l) == Double(r)
        case let (.double(l), .double(r)):
            if l.isNaN || r.isNaN { return l.isNaN && r.isNaN }
            return l == r && l.sign == r.sign
        case let (.timestamp(l), .timestamp(r)):
            return l == r
        case let (.string(l), .string(r)):
            return UTF8Order.equal(l, r)
        case let (.bytes(l), .bytes(r)):
            return l == r
        case let (.reference(l), .reference(r)):
            return l == r
        case let (.geoPoint(l), .geoPoint(r)):
            return l.latitude == r.latitude && l.longitude == r.longitude
        case let (.array(l), .array(r)):
            return l == r
        case let (.map(l), .map(r)):
            return l.count == r.count && zip(l.fields, r.fields).allSatisfy { UTF8Order.equal($0.key, $1.key) && $0.value == $1.value }
        default:
            return false
        }
    }
}

extension Value: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0)
        case .boolean(let b):
            hasher.combine(1)
            hasher.combine(b)
        case .integer(let i):
            hasher.combine(2)
            hasher.combine(Double(i))
        case .double(let d):
            hasher.combine(3)
            hasher.combine(d.isNaN ? Double.nan.bitPattern : d.bitPattern)
        case .timestamp(let t):
            hasher.combine(4)
            hasher.combine(t)
        case .string(let s):
            hasher.combine(5)
            hasher.combine(s.utf8.count)
            for byte in s.utf8 { hasher.combine(byte) }
        case .bytes(let b):
            hasher.combine(6)
            hasher.combine(b)
        case .reference(let r):
            hasher.combine(7)
            hasher.combine(r)
        case .geoPoint(let g):
            hasher.combine(8)
            // 0.0 == -0.0 here, so hash them alike.
            hasher.combine(g.latitude == 0 ? 0 : g.latitude)
            hasher.combine(g.longitude == 0 ? 0 : g.longitude)
        case .array(let values):
            hasher.combine(9)
            hasher.combine(values)
        case .map(let map):
            hasher.combine(10)
            for field in map.fields {
                for byte in field.key.utf8 { hasher.combine(byte) }
                hasher.combine(field.value)
            }
        }
    }
}
