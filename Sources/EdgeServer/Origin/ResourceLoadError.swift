/// Why a located resource could not be read into memory.
enum ResourceLoadError: Error, Sendable, Equatable {
    /// The file went away, or resolves outside the site directory: answered as 404.
    case notFound
    /// The file exists but cannot be served (unreadable, too large, a corrupt `.gz`): answered
    /// as 500 with this reason.
    case unservable(String)
}
