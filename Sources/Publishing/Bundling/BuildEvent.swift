/// Progress of a build, for a progress display or a log. Events arrive in order on the thread
/// that called ``SiteBuilder/build(progress:)``.
public enum BuildEvent: Sendable {
    /// Hashing the inputs to find whether anything changed since the last build.
    case checkingForChanges
    /// Starting to read input `index` (0-based) of `count`, `bytes` long.
    case readingInput(path: String, index: Int, count: Int, bytes: Int)
    /// All inputs read.
    case inputsRead(documents: Int, files: Int)
    /// Starting bundle `index` (0-based) of `count`.
    case buildingBundle(id: String, index: Int, count: Int)
    /// Writing the site.
    case publishing
    /// A step of the lock and publish sequence is done (not reported by dry runs).
    case checkpoint(BuildCheckpoint)
}
