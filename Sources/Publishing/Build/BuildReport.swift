import PipelineLanguage

/// What a build did (or, for a dry run, would do), for the summary, `--json`, and tests.
public struct BuildReport: Sendable, Codable, Equatable {
    /// A bundle compared with the previously published manifest.
    public enum Status: String, Sendable, Codable {
        /// Its id was not in the previous manifest.
        case new
        /// Its content, hence its file name, differs from the previous manifest's.
        case changed
        /// Same content as before: its files were left untouched.
        case unchanged
    }

    public struct Bundle: Sendable, Codable, Equatable {
        public var id: String
        public var file: String
        /// The bundle's `createTime` (unchanged bundles keep the one they were published with).
        public var createTime: String
        /// Every document entry, leavers and missing-document markers included.
        public var documents: Int
        /// Documents that left the bundle and changed since a returning client may have cached them.
        public var leavers: Int
        /// Missing-document markers for documents deleted since a returning client may have cached them.
        public var missing: Int
        public var namedQueries: [String]
        public var bytes: Int
        public var gzipBytes: Int
        public var status: Status
        /// The `max_bundle_bytes` that applied, if any.
        public var maxBytes: Int?
    }

    /// Content-hashed files the new manifest does not reference.
    public struct Retention: Sendable, Codable, Equatable {
        /// Kept for clients and caches that still hold an older manifest.
        public var retained: [String]
        /// Deleted now that the retention policy lets them go.
        public var deleted: [String]
    }

    /// Wall-clock seconds per stage.
    public struct Timings: Sendable, Codable, Equatable {
        /// Reading the inputs and resolving the queries.
        public var read: Double
        /// Running the queries, encoding, hashing and compressing the bundles.
        public var bundles: Double
        /// Writing the site and applying retention.
        public var publish: Double
    }

    /// The snapshot time T of the inputs.
    public var snapshotTime: String
    /// The site time: the `createTime` of the newest change published.
    public var siteTime: String
    /// Where the state of earlier publishes came from (the state file, a directory, a URL,
    /// `none (a new site)`, or `unknown`).
    public var previousState: String
    public var inputFiles: Int
    public var inputBytes: Int
    public var inputDocuments: Int
    public var bundles: [Bundle]
    /// Ids of the previous manifest that the new one no longer has.
    public var removedBundles: [String]
    public var manifestChanged: Bool
    public var retention: Retention
    /// Bundles over their size budget, with `budgets.mode: warn` (with `fail` the build fails).
    public var budgetWarnings: [BudgetViolation]
    /// Published fields that look like personal data or secrets (also in `warnings`).
    public var exposure: [ExposureFinding]
    /// Where the config does not fit the data (also in `warnings`; with `warnings: error` the
    /// build fails instead).
    public var dataWarnings: [DataWarning]
    /// Things worth knowing that did not stop the build (each also in `budgetWarnings` or
    /// about the lock, the previous manifest or retention).
    public var warnings: [String]
    /// True when nothing was written: the report says what a build would do.
    public var dryRun: Bool
    /// True when the inputs, config, binary and published site were as the last build left them:
    /// nothing was built, and the bundles are the last build's (see `BuildFingerprint`).
    public var upToDate = false
    public var outputDirectory: String
    /// Wall-clock seconds of the whole build.
    public var seconds: Double
    public var timings: Timings
    /// What compressed the `.gz` copies this build wrote: `libdeflate (linked in)`,
    /// `libdeflate (libdeflate.so.0)`, or `zlib 1.2.13` where the process has no libdeflate.
    public var compressor: String

    public var totalBytes: Int { bundles.reduce(0) { $0 + $1.bytes } }
    public var totalGzipBytes: Int { bundles.reduce(0) { $0 + $1.gzipBytes } }

    /// How many bundles have `status`.
    public func count(_ status: Status) -> Int { bundles.filter { $0.status == status }.count }
}
