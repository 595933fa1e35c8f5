/// One logical record of a LevelDB log file: its payload, joined from its fragments, and where
/// each fragment's payload lies in the file (for error locations).
struct LogRecord: Sendable {
    var payload: [UInt8]
    /// For each fragment: the payload offset it starts at and the file offset of its bytes.
    private(set) var fragments: [(payloadStart: Int, fileOffset: Int)]

    init(fragment: ArraySlice<UInt8>, fileOffset: Int) {
        payload = Array(fragment)
        fragments = [(0, fileOffset)]
    }

    /// The file offset of the first fragment's header: where the record starts.
    var offset: Int { fragments[0].fileOffset - LevelDBLogReader.headerSize }

    mutating func append(_ fragment: ArraySlice<UInt8>, fileOffset: Int) {
        fragments.append((payload.count, fileOffset))
        payload.append(contentsOf: fragment)
    }

    /// The file offset of payload byte `index`.
    func fileOffset(ofPayloadByte index: Int) -> Int {
        let fragment = fragments.last { $0.payloadStart <= index } ?? fragments[0]
        return fragment.fileOffset + index - fragment.payloadStart
    }
}
