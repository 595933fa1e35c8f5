import FirestoreModel
import Foundation

/// Document paths, each once, numbered in the order they were first added: every path's
/// segments end to end in one buffer (each as its UTF-8 length, one byte or more, and its bytes),
/// found again through an open-addressing table of path numbers. About 40 bytes a path where a
/// dictionary of ``FirestoreModel/ResourcePath``s takes four times that.
///
/// Paths are told apart byte for byte, as Firestore and the store tell document IDs apart
/// (two IDs that are canonically equivalent Unicode but different bytes are two documents).
struct PathTable {
    /// The paths' encoded segments, end to end.
    private var bytes: [UInt8] = []
    /// Path `n` is `bytes[starts[n]..<starts[n + 1]]`.
    private var starts: [Int] = [0]
    /// By hash, a path's 32-bit hash (high half) and its number plus one (low half; 0: empty);
    /// a power of two long, at most half full.
    private var slots = [UInt64](repeating: 0, count: 1 << 10)

    /// The number of paths.
    var count: Int { starts.count - 1 }

    /// Adds `path` unless it is there: its number, and whether it was added.
    mutating func insert(_ path: ResourcePath) -> (number: Int, inserted: Bool) {
        let start = bytes.count
        for segment in path.segments {
            var segment = segment
            segment.withUTF8 { utf8 in
                var length = utf8.count
                // The length in 7-bit groups, low first, the high bit set on all but the last.
                while length >= 0x80 {
                    bytes.append(UInt8(truncatingIfNeeded: length) | 0x80)
                    length >>= 7
                }
                bytes.append(UInt8(length))
                bytes.append(contentsOf: utf8)
            }
        }
        let hash = hashValue(start..<bytes.count)
        let length = bytes.count - start
        var slot = Int(hash) & (slots.count - 1)
        while slots[slot] != 0 {
            let number = Int(slots[slot] & 0xFFFF_FFFF) - 1
            if slots[slot] >> 32 == hash, starts[number + 1] - starts[number] == length,
                bytes.withUnsafeBytes({ memcmp($0.baseAddress! + starts[number], $0.baseAddress! + start, length) == 0 })
            {
                bytes.removeSubrange(start...)
                return (number, false)
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        precondition(count < Int(UInt32.max), "more than 2^32 documents")
        slots[slot] = UInt64(hash) << 32 | UInt64(count + 1)
        starts.append(bytes.count)
        if count * 2 > slots.count { grow() }
        return (count - 1, true)
    }

    /// Path number `number`.
    subscript(number: Int) -> ResourcePath {
        var segments: [String] = []
        var offset = starts[number]
        let end = starts[number + 1]
        while offset < end {
            var length = 0
            var shift = 0
            while bytes[offset] & 0x80 != 0 {
                length |= Int(bytes[offset] & 0x7F) << shift
                shift += 7
                offset += 1
            }
            length |= Int(bytes[offset]) << shift
            offset += 1
            segments.append(String(decoding: bytes[offset..<offset + length], as: UTF8.self))
            offset += length
        }
        return ResourcePath(segments: segments)
    }

    private func hashValue(_ range: Range<Int>) -> UInt64 {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[range])) }
        return UInt64(UInt32(truncatingIfNeeded: hasher.finalize()))
    }

    /// Doubles the table (a slot's place is its path's hash, kept in the slot).
    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        for entry in old where entry != 0 {
            var slot = Int(entry >> 32) & (slots.count - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = entry
        }
    }
}
