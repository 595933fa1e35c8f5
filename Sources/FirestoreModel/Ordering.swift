/// The result of comparing two values in one of Firestore's orders.
public enum Ordering: Int8, Sendable, Comparable {
    case less = -1
    case equal = 0
    case greater = 1

    /// The ordering of `lhs` against `rhs` under `<` of a `Comparable` type.
    @inlinable
    public static func of<T: Comparable>(_ lhs: T, _ rhs: T) -> Ordering {
        lhs < rhs ? .less : (lhs == rhs ? .equal : .greater)
    }

    /// The same ordering seen from the other side (for descending sorts).
    public var reversed: Ordering {
        Ordering(rawValue: -rawValue)!
    }

    public static func < (lhs: Ordering, rhs: Ordering) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// Byte-exact string comparisons. Swift's `String` `==` and `<` apply Unicode canonical
/// equivalence ("é" == "e\u{301}"); Firestore compares strings by their UTF-8 bytes, so all
/// string comparisons in BundlePress go through these.
public enum UTF8Order {
    /// Compares two strings by their UTF-8 bytes (which equals Unicode code point order).
    @inlinable
    public static func compare(_ lhs: String, _ rhs: String) -> Ordering {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { l in
            rhs.withUTF8 { r in compare(bytes: l, r) }
        }
    }

    /// Unsigned lexicographic comparison of byte sequences; a prefix sorts first.
    @inlinable
    public static func compare(bytes lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Ordering {
        let common = min(lhs.count, rhs.count)
        if common > 0, let l = lhs.baseAddress, let r = rhs.baseAddress {
            let result = memcmpBytes(l, r, common)
            if result != 0 { return result < 0 ? .less : .greater }
        }
        return Ordering.of(lhs.count, rhs.count)
    }

    @inlinable
    static func memcmpBytes(_ l: UnsafePointer<UInt8>, _ r: UnsafePointer<UInt8>, _ count: Int) -> Int {
        for index in 0..<count where l[index] != r[index] {
            return l[index] < r[index] ? -1 : 1
        }
        return 0
    }

    /// True when `bytes` are exactly `word`'s UTF-8 bytes (a key or keyword read from raw input).
    @inlinable
    public static func equal(bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        compare(bytes: bytes, UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)) == .equal
    }

    /// True when both strings have exactly the same UTF-8 bytes.
    @inlinable
    public static func equal(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { l in
            rhs.withUTF8 { r in
                guard let lBase = l.baseAddress, let rBase = r.baseAddress else { return true }
                return memcmpBytes(lBase, rBase, l.count) == 0
            }
        }
    }

    /// Compares two strings by UTF-16 code units, as JavaScript's `<` does. Firestore clients use
    /// this order for reference-value segments and for sorting map keys before comparing maps.
    public static func compareUTF16(_ lhs: String, _ rhs: String) -> Ordering {
        var l = lhs.utf16.makeIterator()
        var r = rhs.utf16.makeIterator()
        while true {
            switch (l.next(), r.next()) {
            case (nil, nil): return .equal
            case (nil, _): return .less
            case (_, nil): return .greater
            case let (a?, b?) where a != b: return a < b ? .less : .greater
            default: continue
            }
        }
    }
}
