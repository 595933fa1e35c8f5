import Testing
@testable import ExportReader

@Suite("Protocol buffer wire format")
struct ProtoReaderTests {
    /// A varint field (field 1) holding `value`'s bytes.
    private static func field(_ varint: [UInt8]) -> [UInt8] { [0x08] + varint }

    @Test func varintsReadAsWritten() throws {
        for (bytes, value) in [([0x00], UInt64(0)), ([0x7F], 127), ([0x80, 0x01], 128), ([0xAC, 0x02], 300),
                               ([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], UInt64.max)] as [([UInt8], UInt64)] {
            var reader = ProtoReader(bytes: Self.field(bytes))
            let tag = try #require(try reader.nextTag())
            #expect(tag.field == 1 && tag.wireType == .varint)
            #expect(try reader.readVarint() == value)
            #expect(try reader.nextTag() == nil)
        }
    }

    /// A varint cut by the end of the data, or past 64 bits, is an error at the varint's start.
    @Test func badVarintsAreErrorsWhereTheyStart() throws {
        var truncated = ProtoReader(bytes: Self.field([0x80, 0x80]))
        _ = try truncated.nextTag()
        let cut = try #require(throws: ProtoError.self) { try truncated.readVarint() }
        #expect(cut.offset == 1 && cut.message == "the data ends inside a varint")

        var overflowing = ProtoReader(bytes: Self.field(Array(repeating: 0xFF, count: 9) + [0x02]))
        _ = try overflowing.nextTag()
        let overflow = try #require(throws: ProtoError.self) { try overflowing.readVarint() }
        #expect(overflow.offset == 1 && overflow.message == "a varint overflows 64 bits")

        // A nested message's varint ends where the message ends, not where the data does.
        var outer = ProtoReader(bytes: [0x0A, 0x01, 0x80, 0x01])
        _ = try outer.nextTag()
        var inner = try outer.readMessage()
        let early = try #require(throws: ProtoError.self) { try inner.readVarint() }
        #expect(early.offset == 2 && early.message == "the data ends inside a varint")
    }
}
