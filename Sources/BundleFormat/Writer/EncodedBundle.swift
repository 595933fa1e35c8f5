/// A finished bundle in memory, as separate byte runs (the runs need not be concatenated to be
/// written or compressed). For bundles too large to hold, see ``BundleWriter/encodeBody(documentsPerRun:_:)``.
///
/// The bundle's bytes are `metadataElement` followed by every run of `body` in order.
public struct EncodedBundle: Sendable {
    /// The metadata the first element carries.
    public let metadata: BundleMetadata
    /// The complete first element: `<len>{"metadata":{…}}`.
    public let metadataElement: [UInt8]
    /// Every later element, `<len><json>` back to back, split into runs at element boundaries.
    public let body: [[UInt8]]

    /// Total size of the bundle in bytes.
    public var byteCount: Int { metadataElement.count + Int(metadata.totalBytes) }

    /// Calls `body` with the metadata element and then each body run, in file order.
    public func forEachRun<E: Error>(_ consume: ([UInt8]) throws(E) -> Void) throws(E) {
        try consume(metadataElement)
        for run in body { try consume(run) }
    }

    /// The whole bundle in one array; convenient for small bundles and tests, a copy for big ones.
    public func joined() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        forEachRun { bytes.append(contentsOf: $0) }
        return bytes
    }
}
