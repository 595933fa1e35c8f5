/// One range of a `Range: bytes=…` request (RFC 9110 §14.1.1).
public enum ByteRangeSpec: Hashable, Sendable {
    /// `first-last` or the open-ended `first-` (`last` is `nil`).
    case from(first: Int, last: Int?)
    /// `-length`: the last `length` bytes.
    case suffix(length: Int)

    /// The byte positions this range selects in a representation of `length` bytes, or `nil`
    /// when the range is unsatisfiable (it starts at or past the end, or is an empty suffix).
    ///
    /// A last position past the end is clamped to the end; a suffix longer than the
    /// representation selects all of it.
    public func resolved(forLength length: Int) -> Range<Int>? {
        switch self {
        case .from(let first, let last):
            guard first < length else { return nil }
            return first..<(min(last ?? Int.max, length - 1) + 1)
        case .suffix(let suffixLength):
            guard suffixLength > 0, length > 0 else { return nil }
            return max(0, length - suffixLength)..<length
        }
    }
}
