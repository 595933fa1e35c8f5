import FirestoreModel

/// Reads protocol buffer wire format (proto2, groups included) from a byte array, bounds-checked:
/// every malformed, truncated or unexpected field is a ``ProtoError`` at its byte offset.
///
/// A reader covers `position..<end` of `bytes`; a nested message is a reader over its own range
/// of the same array (no copy).
struct ProtoReader {
    /// The wire types (`wire_format_lite.h`).
    enum WireType: UInt8 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, startGroup = 3, endGroup = 4, fixed32 = 5
    }

    /// A field's number and wire type, and where its tag starts.
    struct Tag {
        var field: Int
        var wireType: WireType
        var offset: Int
    }

    /// How deep groups and messages may nest while skipping (untrusted input must not exhaust
    /// the stack).
    static let maxSkipDepth = 64

    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int
    /// The group this reader is inside (its field number), whose end tag ends it.
    private let group: Int?

    init(bytes: [UInt8]) {
        self.init(bytes: bytes, range: 0..<bytes.count, group: nil)
    }

    private init(bytes: [UInt8], range: Range<Int>, group: Int?) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
        self.group = group
    }

    /// The next field's tag, or nil at the end of the message (or at the end tag of the group
    /// this reader reads).
    mutating func nextTag() throws(ProtoError) -> Tag? {
        guard position < end else {
            if let group { throw ProtoError(offset: position, "the data ends inside group \(group); expected its end tag") }
            return nil
        }
        let offset = position
        let key = try readVarint()
        let field = key >> 3
        guard let wireType = WireType(rawValue: UInt8(key & 7)) else {
            throw ProtoError(offset: offset, "invalid wire type \(key & 7) in a field tag; expected 0-5")
        }
        guard field > 0, field <= 536_870_911 else {
            throw ProtoError(offset: offset, "invalid field number \(field) in a field tag")
        }
        if wireType == .endGroup {
            guard let group, group == Int(field) else {
                throw ProtoError(offset: offset, "unexpected end of group \(field)\(group.map { "; expected the end of group \($0)" } ?? "")")
            }
            return nil
        }
        return Tag(field: Int(field), wireType: wireType, offset: offset)
    }

    mutating func readVarint() throws(ProtoError) -> UInt64 {
        let start = position
        var offset = position
        let value = bytes.withUnsafeBytes { Varint.read(UnsafeRawBufferPointer(rebasing: $0[..<end]), at: &offset) }
        guard let value else {
            // Ten bytes hold any 64-bit varint: with ten there, the last one overflowed.
            throw ProtoError(offset: start, end - start >= 10 ? "a varint overflows 64 bits" : "the data ends inside a varint")
        }
        position = offset
        return value
    }

    mutating func readFixed64() throws(ProtoError) -> UInt64 {
        guard end - position >= 8 else { throw ProtoError(offset: position, "the data ends inside a 64-bit field") }
        defer { position += 8 }
        return (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[position + $1]) << (8 * UInt64($1)) }
    }

    /// The range of a length-delimited field's bytes.
    mutating func readLengthDelimited() throws(ProtoError) -> Range<Int> {
        let start = position
        let length = try readVarint()
        guard length <= UInt64(end - position) else {
            throw ProtoError(offset: start, "a length of \(length) bytes runs past the end of the data (\(end - position) left)")
        }
        defer { position += Int(length) }
        return position..<position + Int(length)
    }

    mutating func readBytes() throws(ProtoError) -> ArraySlice<UInt8> {
        bytes[try readLengthDelimited()]
    }

    /// A reader over an embedded message.
    mutating func readMessage() throws(ProtoError) -> ProtoReader {
        ProtoReader(bytes: bytes, range: try readLengthDelimited(), group: nil)
    }

    /// Reads the group `field` that starts here with `body`, which must read up to the group's
    /// end tag (``nextTag()`` returning nil), then continues after it.
    mutating func readGroup<T>(_ field: Int, _ body: (inout ProtoReader) throws(ProtoError) -> T) throws(ProtoError) -> T {
        var reader = ProtoReader(bytes: bytes, range: position..<end, group: field)
        let value = try body(&reader)
        position = reader.position
        return value
    }

    /// Reads to the end, calling `body` (positioned at the value) for each field `field` of wire
    /// type `wireType` and skipping every other field: for messages read leniently.
    mutating func forEachField(_ field: Int, _ wireType: WireType, _ body: (inout ProtoReader, Tag) throws(ProtoError) -> Void) throws(ProtoError) {
        while let tag = try nextTag() {
            if tag.field == field, tag.wireType == wireType {
                try body(&self, tag)
            } else {
                try skip(tag)
            }
        }
    }

    /// Skips the value of a field read as `tag`, nested groups included.
    mutating func skip(_ tag: Tag, depth: Int = 0) throws(ProtoError) {
        switch tag.wireType {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readFixed64()
        case .lengthDelimited: _ = try readLengthDelimited()
        case .fixed32:
            guard end - position >= 4 else { throw ProtoError(offset: position, "the data ends inside a 32-bit field") }
            position += 4
        case .startGroup:
            guard depth < Self.maxSkipDepth else { throw ProtoError(offset: tag.offset, "groups nested more than \(Self.maxSkipDepth) deep") }
            try readGroup(tag.field) { reader throws(ProtoError) in
                while let inner = try reader.nextTag() { try reader.skip(inner, depth: depth + 1) }
            }
        case .endGroup:
            throw ProtoError(offset: tag.offset, "unexpected end of group \(tag.field)")
        }
    }

    /// Checks that `tag` has the wire type its field is declared with.
    static func expect(_ tag: Tag, _ wireType: WireType, _ what: String) throws(ProtoError) {
        guard tag.wireType == wireType else {
            throw ProtoError(offset: tag.offset, "field \(tag.field) (\(what)) has wire type \(tag.wireType.rawValue); expected \(wireType.rawValue)")
        }
    }
}

/// Why protocol buffer bytes could not be read: where (an offset into the decoded buffer) and
/// what was expected.
struct ProtoError: Error, Sendable {
    var offset: Int
    var message: String

    init(offset: Int, _ message: String) {
        self.offset = offset
        self.message = message
    }
}
