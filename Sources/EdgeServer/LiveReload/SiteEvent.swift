/// What `serve --watch` tells the pages open on the site it rebuilds.
public enum SiteEvent: Sendable, Equatable {
    /// A build published the site anew: pages reload. The summary is shown in the page's log.
    case rebuilt(summary: String)
    /// A build failed and the last good site is still served: pages show the message, which
    /// says what is wrong and where (`file:line:column`).
    case buildFailed(message: String)

    /// The event's name in the stream (`event:`), which the page listens for.
    var name: String {
        switch self {
        case .rebuilt: "rebuilt"
        case .buildFailed: "build-failed"
        }
    }

    /// Whether the event reports a failed build.
    var isFailure: Bool {
        if case .buildFailed = self { return true }
        return false
    }

    /// The event's data: one `data:` line per line of text.
    var text: String {
        switch self {
        case .rebuilt(let summary): summary
        case .buildFailed(let message): message
        }
    }
}
