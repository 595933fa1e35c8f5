/// What a build did, for the summary line, `--json`, and tests.
public struct BuildReport: Sendable, Codable, Equatable {
    public struct Bundle: Sendable, Codable, Equatable {
        public var id: String
        public var file: String
        public var documents: Int
        public var namedQueries: [String]
        public var bytes: Int
        public var gzipBytes: Int
        /// True when this exact file was already published (left untouched).
        public var unchanged: Bool
    }

    public var snapshotTime: String
    public var inputFiles: Int
    public var inputBytes: Int
    public var inputDocuments: Int
    public var bundles: [Bundle]
    public var manifestChanged: Bool
    public var outputDirectory: String
    public var seconds: Double

    public var totalBytes: Int { bundles.reduce(0) { $0 + $1.bytes } }
    public var totalGzipBytes: Int { bundles.reduce(0) { $0 + $1.gzipBytes } }
}
