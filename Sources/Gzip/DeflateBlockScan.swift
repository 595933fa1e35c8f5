/// Walks the blocks of a raw deflate stream (RFC 1951) without writing out what they decode to:
/// each symbol is decoded only for its length, so the walk finds where every block starts, how
/// many bytes the stream decodes to, and that it decodes at all, at a fraction of an inflate's
/// cost.
///
/// ``DeflateSegment`` needs only where the final block starts. The walk still checks what an
/// inflate would: every block type and header, the code lengths (no over-subscribed code, an
/// end-of-block code present, a code used only where it is defined), every distance within
/// what came before, the stream's end at the input's end, and the count of bytes decoded.
struct DeflateBlockScan {
    /// Where the final block starts (a bit offset: bit `headerBit & 7`, least significant first,
    /// of byte `headerBit >> 3`), and how many high bits of the stream's last byte are unused.
    struct FinalBlock: Equatable {
        var headerBit: Int
        var unusedBits: Int
    }

    /// The final block of `deflated`, a whole raw deflate stream that decodes to `expected`
    /// bytes; throws when it is not one.
    static func finalBlock(of deflated: UnsafeBufferPointer<UInt8>, decodingTo expected: Int) throws(GzipError) -> FinalBlock {
        var scan = DeflateBlockScan(deflated)
        defer { scan.tables.deallocate() }
        return try scan.run(decodingTo: expected)
    }

    private var bits: BitReader
    /// Room for a literal/length table and a distance table, each with its second-level tables.
    private let tables: UnsafeMutablePointer<UInt32>
    /// Bytes the blocks read so far decode to.
    private var produced = 0

    private init(_ deflated: UnsafeBufferPointer<UInt8>) {
        bits = BitReader(deflated)
        tables = .allocate(capacity: 2 * HuffmanTable.capacity)
    }

    private var literals: HuffmanTable { HuffmanTable(tables) }
    private var distances: HuffmanTable { HuffmanTable(tables + HuffmanTable.capacity) }

    private mutating func run(decodingTo expected: Int) throws(GzipError) -> FinalBlock {
        while true {
            let headerBit = bits.position
            bits.refill()
            let isFinal = bits.take(1) == 1
            switch bits.take(2) {
            case 0: try storedBlock()
            case 1: try fixedCodes(); try codedBlock()
            case 2: try dynamicHeader(); try codedBlock()
            default: throw failure("a block of the reserved type 3")
            }
            guard isFinal else { continue }
            let end = bits.position
            guard (end + 7) >> 3 == bits.count, produced == expected else {
                throw failure("a stream of \(expected) bytes decodes to \(produced) and ends at byte \((end + 7) >> 3) of \(bits.count)")
            }
            return FinalBlock(headerBit: headerBit, unusedBits: (8 - end & 7) & 7)
        }
    }

    /// A stored block: its length, checked against its complement, then its bytes skipped.
    private mutating func storedBlock() throws(GzipError) {
        bits.alignToByte()
        bits.refill()
        let length = bits.take(16)
        guard length ^ bits.take(16) == 0xFFFF else { throw failure("a stored block's length does not match its complement") }
        guard bits.skipBytes(Int(length)) else { throw failure("a stored block of \(length) bytes runs past the end") }
        produced += Int(length)
    }

    /// The codes of a fixed-code block (RFC 1951 §3.2.6), into ``literals`` and ``distances``.
    private func fixedCodes() throws(GzipError) {
        try literals.build(Symbols.fixedLiteralLengths, values: Symbols.literalValues)
        try distances.build(Symbols.fixedDistanceLengths, values: Symbols.distanceValues)
    }

    /// A dynamic block's header: the code lengths of its literal/length and distance codes,
    /// themselves coded (RFC 1951 §3.2.7), into ``literals`` and ``distances``.
    private mutating func dynamicHeader() throws(GzipError) {
        bits.refill()
        let literalCount = Int(bits.take(5)) + 257
        let distanceCount = Int(bits.take(5)) + 1
        let codeLengthCount = Int(bits.take(4)) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw failure("\(literalCount) literal/length and \(distanceCount) distance codes") }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            bits.refill()
            codeLengthLengths[Int(Symbols.codeLengthOrder[index])] = UInt8(bits.take(3))
        }
        // The code-length code is built in the distance table's room, free until its lengths are read.
        let codeLengths = distances
        try codeLengths.build(codeLengthLengths, values: Symbols.codeLengthValues)
        var lengths = [UInt8](repeating: 0, count: literalCount + distanceCount)
        var index = 0
        while index < lengths.count {
            bits.refill()
            let entry = try codeLengths.decode(&bits)
            let symbol = entry.base
            let (value, repeats): (UInt8, Int)
            switch symbol {
            case 0..<16: (value, repeats) = (UInt8(symbol), 1)
            case 16:
                guard index > 0 else { throw failure("a repeat of the previous code length with none before it") }
                (value, repeats) = (lengths[index - 1], 3 + Int(bits.take(2)))
            case 17: (value, repeats) = (0, 3 + Int(bits.take(3)))
            default: (value, repeats) = (0, 11 + Int(bits.take(7)))
            }
            guard index + repeats <= lengths.count else { throw failure("code lengths run past the \(lengths.count) codes") }
            for offset in index..<(index + repeats) { lengths[offset] = value }
            index += repeats
        }
        guard lengths[256] != 0 else { throw failure("a block without an end-of-block code") }
        try literals.build(lengths[..<literalCount], values: Symbols.literalValues)
        try distances.build(lengths[literalCount...], values: Symbols.distanceValues)
    }

    /// The symbols of a Huffman-coded block, up to its end-of-block code.
    private mutating func codedBlock() throws(GzipError) {
        // The reader and the count in locals, which stay in registers through the loop.
        let literals = literals, distances = distances
        var bits = bits, produced = produced
        defer { (self.bits, self.produced) = (bits, produced) }
        while true {
            // At most 15 + 5 bits of a length and 15 + 13 of a distance: one refill is enough.
            guard bits.refill() else { throw failure("a block that runs past the end", at: bits) }
            let entry = try literals.decode(&bits)
            switch entry.kind {
            case .literal:
                produced += 1
            case .length:
                let length = Int(entry.base) + Int(bits.take(entry.extraBits))
                let distanceEntry = try distances.decode(&bits)
                guard distanceEntry.kind == .distance else { throw failure("distance code \(distanceEntry.base), which no stream uses", at: bits) }
                let distance = Int(distanceEntry.base) + Int(bits.take(distanceEntry.extraBits))
                guard distance <= produced else { throw failure("a distance of \(distance) bytes after \(produced)", at: bits) }
                produced += length
            case .endOfBlock:
                return
            default:
                throw failure("literal/length code \(entry.base), which no stream uses", at: bits)
            }
        }
    }

    private func failure(_ what: String, at bits: BitReader? = nil) -> GzipError {
        let bits = bits ?? self.bits
        return GzipError(offset: min(bits.position >> 3, bits.count), message: "libdeflate's output holds \(what)")
    }
}

/// The stream's bits, least significant first, up to 56 at a time.
private struct BitReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to load.
    private var next = 0
    private var buffer: UInt64 = 0
    /// How many of `buffer`'s low bits are loaded and not yet taken.
    private var available = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The stream's length in bytes.
    var count: Int { bytes.count }
    /// Bits taken so far.
    var position: Int { next * 8 - available }
    /// True when more bits were taken than the stream holds (those read as zeros).
    var isPastEnd: Bool { position > bytes.count * 8 }

    /// Loads bytes until at least 56 bits are available; past the end they read as zeros. False
    /// when bits past the end have been taken.
    @inline(__always) @discardableResult
    mutating func refill() -> Bool {
        guard next &+ 8 <= bytes.count else { return refillNearTheEnd() }
        // Eight bytes at once; the bytes beyond those counted are loaded again next time, to the
        // same places, so OR-ing them in twice changes nothing.
        let word = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + next).loadUnaligned(as: UInt64.self)
        buffer |= UInt64(littleEndian: word) &<< available
        next &+= (63 &- available) &>> 3
        available |= 56
        return true
    }

    private mutating func refillNearTheEnd() -> Bool {
        while available <= 56 {
            if next < bytes.count { buffer |= UInt64(bytes[next]) << available }
            next += 1
            available += 8
        }
        return !isPastEnd
    }

    /// The next `count` (≤ 32) bits, taken; at least `count` must be available.
    @inline(__always)
    mutating func take(_ count: Int) -> UInt32 {
        let value = UInt32(truncatingIfNeeded: buffer & ((1 &<< UInt64(count)) &- 1))
        drop(count)
        return value
    }

    /// The next bits, not taken.
    var peek: UInt64 { buffer }

    @inline(__always)
    mutating func drop(_ count: Int) {
        buffer &>>= UInt64(count)
        available &-= count
    }

    mutating func alignToByte() {
        drop(available & 7)
    }

    /// Moves past `count` bytes from a byte boundary; false when the stream ends before them.
    mutating func skipBytes(_ count: Int) -> Bool {
        let start = position >> 3
        guard start + count <= bytes.count else { return false }
        (next, buffer, available) = (start + count, 0, 0)
        return true
    }
}

/// A canonical Huffman code as a decoding table: the next 10 bits find a symbol whose code is
/// at most 10 bits long, or a second-level table that the following bits index.
///
/// An entry packs, from the low bits: the code's length (4 bits; 0 for bits no code starts
/// with), a second-level flag (1 bit), the symbol's kind (3 bits), extra bits to read after the
/// code (or a second-level table's index bits) (8 bits), and a base value (the length or
/// distance the extra bits are added to, a symbol, or where a second-level table starts) (16).
private struct HuffmanTable {
    static let primaryBits = 10
    /// The first level plus the most second-level tables a code of 15-bit lengths can need.
    static let capacity = (1 << primaryBits) + (1 << 15)

    let entries: UnsafeMutablePointer<UInt32>

    init(_ entries: UnsafeMutablePointer<UInt32>) {
        self.entries = entries
    }

    /// Builds the table of the code whose lengths (0: unused) are `lengths`, symbol by symbol;
    /// `values[symbol]` is the entry's kind, extra bits and base, without the length.
    func build<Lengths: Collection<UInt8>>(_ lengths: Lengths, values: [UInt32]) throws(GzipError) {
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        var left = 1
        var maximum = 0
        for length in 1...15 {
            left = left * 2 - counts[length]
            guard left >= 0 else { throw GzipError(message: "libdeflate's output holds an over-subscribed Huffman code") }
            if counts[length] > 0 { maximum = length }
        }
        var nextCode = [Int](repeating: 0, count: 16)
        for length in 1...15 { nextCode[length] = (nextCode[length - 1] + counts[length - 1]) << 1 }
        let primary = Self.primaryBits
        entries.update(repeating: 0, count: 1 << primary)
        // Codes longer than the first level share second-level tables of one size, by their
        // first 10 bits.
        let secondaryBits = max(maximum - primary, 0)
        var secondaryEnd = 1 << primary
        for (symbol, length) in zip(values.indices, lengths) where length > 0 {
            let length = Int(length)
            let reversed = Self.reversed(nextCode[length], length)
            nextCode[length] += 1
            let entry = values[symbol] | UInt32(length)
            if length <= primary {
                for slot in stride(from: reversed, to: 1 << primary, by: 1 << length) { entries[slot] = entry }
                continue
            }
            let prefix = reversed & ((1 << primary) - 1)
            if entries[prefix] == 0 {
                entries.advanced(by: secondaryEnd).update(repeating: 0, count: 1 << secondaryBits)
                entries[prefix] = UInt32(secondaryEnd) << 16 | UInt32(secondaryBits) << 8 | 0x10
                secondaryEnd += 1 << secondaryBits
            }
            let start = Int(entries[prefix] >> 16)
            for slot in stride(from: reversed >> primary, to: 1 << secondaryBits, by: 1 << (length - primary)) {
                entries[start + slot] = entry
            }
        }
    }

    /// The entry of the code at the reader's next bits, taken; throws for bits no code starts with.
    @inline(__always)
    func decode(_ bits: inout BitReader) throws(GzipError) -> Entry {
        var entry = entries[Int(truncatingIfNeeded: bits.peek) & ((1 << Self.primaryBits) - 1)]
        if entry & 0x10 != 0 {
            let index = Int(truncatingIfNeeded: bits.peek &>> UInt64(Self.primaryBits)) & ((1 &<< Int((entry &>> 8) & 0xFF)) &- 1)
            entry = entries[Int(entry &>> 16) &+ index]
        }
        let length = Int(entry & 0xF)
        guard length > 0 else { throw Self.noCode }
        bits.drop(length)
        return Entry(raw: entry)
    }

    private static let noCode = GzipError(message: "libdeflate's output holds bits that start no Huffman code")

    /// `code`'s low `length` bits in reverse order: deflate sends Huffman codes most significant
    /// bit first, into a stream read least significant bit first.
    private static func reversed(_ code: Int, _ length: Int) -> Int {
        var (code, reversed) = (code, 0)
        for _ in 0..<length {
            reversed = reversed << 1 | code & 1
            code >>= 1
        }
        return reversed
    }

    struct Entry {
        let raw: UInt32
        var kind: Symbols.Kind { Symbols.Kind(rawValue: UInt8((raw >> 5) & 7)) ?? .unused }
        var extraBits: Int { Int((raw >> 8) & 0xFF) }
        var base: UInt32 { raw >> 16 }
    }
}

/// What deflate's symbols mean (RFC 1951 §3.2.5–3.2.7), as ``HuffmanTable`` entries.
private enum Symbols {
    enum Kind: UInt8 {
        case unused, literal, length, endOfBlock, distance
    }

    static func value(_ kind: Kind, base: Int, extraBits: Int = 0) -> UInt32 {
        UInt32(base) << 16 | UInt32(extraBits) << 8 | UInt32(kind.rawValue) << 5
    }

    /// Literals 0–255, end of block, lengths 3–258 (symbols 257–285), and 286 and 287, which
    /// the fixed code has but no stream may use.
    static let literalValues: [UInt32] = {
        let bases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
        let extra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        return (0..<256).map { value(.literal, base: $0) } + [value(.endOfBlock, base: 256)]
            + zip(bases, extra).map { value(.length, base: $0, extraBits: $1) } + [value(.unused, base: 286), value(.unused, base: 287)]
    }()

    /// Distances 1–32768 (symbols 0–29), and 30 and 31, which the fixed code has but no stream may use.
    static let distanceValues: [UInt32] = {
        let bases = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
        return bases.enumerated().map { value(.distance, base: $1, extraBits: max($0 / 2 - 1, 0)) } + [value(.unused, base: 30), value(.unused, base: 31)]
    }()

    /// The code-length alphabet: lengths 0–15, and 16–18 to repeat.
    static let codeLengthValues: [UInt32] = (0..<19).map { value(.literal, base: $0) }

    /// The order a dynamic block lists the code-length code's lengths in.
    static let codeLengthOrder: [UInt8] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    static let fixedLiteralLengths: [UInt8] = Array(repeating: 8, count: 144) + Array(repeating: 9, count: 112)
        + Array(repeating: 7, count: 24) + Array(repeating: 8, count: 8)
    static let fixedDistanceLengths: [UInt8] = Array(repeating: 5, count: 32)
}
