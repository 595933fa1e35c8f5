import CLibdeflate
import CZlib

/// What deflates the blocks of a ``ParallelGzipCompressor``: libdeflate where the process finds
/// it, else zlib, which every build links.
///
/// libdeflate is the fast path (about 2.5× zlib's speed at the same size), not a requirement: a
/// source build needs no libdeflate header or library. The release binary carries it linked in;
/// elsewhere `libdeflate.so.0` is loaded at run time when the system has it (Debian's
/// `libdeflate0`). Both write standard deflate, so a `.gz` copy verifies and loads the same
/// whichever wrote it; only its bytes and size differ. For one engine, the output depends only
/// on the input and the level.
public struct DeflateEngine: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case libdeflate(Libdeflate)
        case zlib
    }

    let kind: Kind
    /// The engine and where it came from, for reports: `libdeflate (linked in)`,
    /// `libdeflate (libdeflate.so.0)` or `zlib 1.2.13`.
    public let description: String

    /// zlib, always there.
    public static let zlib = DeflateEngine(kind: .zlib, description: "zlib \(String(cString: zlibVersion()))")

    /// libdeflate, when this process found it (looked for once).
    public static let libdeflate: DeflateEngine? = Libdeflate.find().map {
        DeflateEngine(kind: .libdeflate($0), description: "libdeflate (\($0.origin))")
    }

    /// The fastest engine this process has: libdeflate, else zlib.
    public static var fastest: DeflateEngine { libdeflate ?? zlib }

    /// True for libdeflate.
    public var isLibdeflate: Bool {
        if case .libdeflate = kind { return true }
        return false
    }

    /// Deflates `input` as one segment of a stream at `level` (0…12; zlib, whose levels end at 9,
    /// takes 10–12 as 9), the stream's last when `last`.
    func segment(_ input: [UInt8], level: Int32, last: Bool) throws(GzipError) -> DeflateSegment {
        switch kind {
        case .libdeflate(let library): try DeflateSegment.compress(input, level: level, last: last, with: library)
        case .zlib: try DeflateSegment.compressWithZlib(input, level: min(level, 9), last: last)
        }
    }
}

/// libdeflate's functions as ``bundlepress_libdeflate_find`` found them: set once, then only
/// read, from any thread (libdeflate's compressors are per call, its functions reentrant).
struct Libdeflate: @unchecked Sendable {
    let functions: bundlepress_libdeflate

    /// Where the functions came from: `linked in` or the file loaded.
    var origin: String { String(cString: functions.origin) }

    /// libdeflate, linked in or loaded now; nil when the process has neither.
    static func find() -> Libdeflate? {
        var functions = bundlepress_libdeflate()
        guard bundlepress_libdeflate_find(&functions) == 1 else { return nil }
        return Libdeflate(functions: functions)
    }
}
