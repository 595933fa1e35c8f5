/// Progress of a build, for a progress display or a log. Events arrive in order on the thread
/// that called ``SiteBuilder/build(progress:)``.
public enum BuildEvent: Sendable {
    /// Hashing the inputs to find whether anything changed since the last build.
    case checkingForChanges
    /// Reading the inputs: sent as each input starts, then as reading advances within it (about
    /// every 4 MiB of an NDJSON file or an export folder), so a large file does not look stuck.
    case readingInput(InputProgress)
    /// All inputs read.
    case inputsRead(documents: Int, files: Int)
    /// A map task has read its slice and writes its partial.
    case writingPartial
    /// Running the named queries and planning what each bundle carries (for returning clients too).
    case planning
    /// Starting bundle `index` (0-based) of `count`.
    case buildingBundle(id: String, index: Int, count: Int)
    /// The bundle being built has `bytesDone` of its `bytes` encoded, hashed, written and compressed.
    case writingBundle(bytesDone: Int, bytes: Int)
    /// Writing the site.
    case publishing
    /// A step of the lock and publish sequence is done (not reported by dry runs).
    case checkpoint(BuildCheckpoint)

    /// How far the build has read its inputs.
    public struct InputProgress: Sendable, Equatable {
        /// The input being read: one the config's patterns matched (a file or an export folder),
        /// number `index` (0-based) of `count`.
        public var path: String
        public var index: Int
        public var count: Int
        /// Bytes of this input read so far, and its size (an export folder's data files).
        public var bytesRead: Int
        public var bytes: Int
        /// Bytes of all inputs read so far, and their total size.
        public var totalBytesRead: Int
        public var totalBytes: Int
    }
}
