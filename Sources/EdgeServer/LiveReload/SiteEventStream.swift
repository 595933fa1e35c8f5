import NIOConcurrencyHelpers
import NIOCore

/// Sends ``SiteEvent``s to every page listening, as server-sent events (the WHATWG HTML
/// `text/event-stream` format).
///
/// Each event gets an id unique to this server run; a page that connects tells the id of the
/// last event it saw (`Last-Event-ID`, which `EventSource` sends when it reconnects). It is sent
/// the current state when it missed it: the last event if its id differs (the page was
/// disconnected while a build finished, or the server restarted), and a failing build always,
/// so a page opened while the config is broken shows why.
public final class SiteEventStream: Sendable {
    private struct State {
        var nextSubscriber = 0
        var subscribers: [Int: AsyncStream<ByteBuffer>.Continuation] = [:]
        var sent = 0
        var last: (id: String, event: SiteEvent)?
    }

    /// How long a page's `EventSource` waits before reconnecting, in milliseconds.
    static let reconnectMilliseconds = 1_000
    /// The comment line sent to keep an idle stream open through proxies and timeouts.
    static let keepAliveComment = ": keep-alive\n\n"

    private let state = NIOLockedValueBox(State())
    /// Makes ids unique across server runs: a page from an earlier run never matches.
    private let run: String
    /// The most pages listening at once; more are refused (``subscribe(lastEventID:)``).
    public let maxListeners: Int
    /// How often an idle stream gets a comment line.
    let keepAliveInterval: Duration
    /// How long one stream lasts; the page's `EventSource` then reconnects (and, by its
    /// `Last-Event-ID`, misses nothing).
    let lifetime: Duration

    /// Creates a stream with no listeners; `run` tells this server run's event ids apart from
    /// an earlier run's (a start time will do). At most `maxListeners` pages listen at once,
    /// each stream gets a comment every `keepAliveInterval` and ends after `lifetime`.
    public init(run: String, maxListeners: Int = 64, keepAliveInterval: Duration = .seconds(15), lifetime: Duration = .seconds(30 * 60)) {
        self.run = run
        self.maxListeners = maxListeners
        self.keepAliveInterval = keepAliveInterval
        self.lifetime = lifetime
    }

    /// How many pages are listening.
    public var listeners: Int {
        state.withLockedValue { $0.subscribers.count }
    }

    /// The message of the latest event when it reports a failed build; nil otherwise.
    public var failure: String? {
        state.withLockedValue { state in
            guard case .buildFailed(let message) = state.last?.event else { return nil }
            return message
        }
    }

    /// Sends `event` to every listening page and keeps it as the current state.
    public func send(_ event: SiteEvent) {
        let (bytes, listeners) = state.withLockedValue { state in
            state.sent += 1
            let id = "\(run)-\(state.sent)"
            state.last = (id, event)
            return (Self.encode(event, id: id), Array(state.subscribers.values))
        }
        for listener in listeners { listener.yield(ByteBuffer(string: bytes)) }
    }

    /// A new listener's stream: the reconnection delay, the current state if the page missed it
    /// (see the type's description), then every event sent, with a comment line every
    /// `keepAliveInterval`, until `lifetime` has passed or the stream is cancelled; nil when
    /// `maxListeners` pages listen already.
    func subscribe(lastEventID: String?) -> AsyncStream<ByteBuffer>? {
        let (stream, continuation) = AsyncStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .bufferingNewest(16))
        let key = state.withLockedValue { state -> Int? in
            guard state.subscribers.count < maxListeners else { return nil }
            var opening = "retry: \(Self.reconnectMilliseconds)\n\n"
            if let last = state.last, last.id != lastEventID, lastEventID != nil || last.event.isFailure {
                opening += Self.encode(last.event, id: last.id)
            }
            continuation.yield(ByteBuffer(string: opening))
            let key = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[key] = continuation
            return key
        }
        guard let key else { return nil }
        let pulse = Task { [keepAliveInterval, lifetime] in
            let end = ContinuousClock.now + lifetime
            while ContinuousClock.now < end {
                guard (try? await Task.sleep(for: min(keepAliveInterval, end - ContinuousClock.now))) != nil else { return }
                if ContinuousClock.now < end { continuation.yield(ByteBuffer(string: Self.keepAliveComment)) }
            }
            continuation.finish()
        }
        continuation.onTermination = { [weak self] _ in
            pulse.cancel()
            self?.state.withLockedValue { _ = $0.subscribers.removeValue(forKey: key) }
        }
        return stream
    }

    /// `id:`, `event:` and one `data:` line per line of the event's text, then a blank line.
    static func encode(_ event: SiteEvent, id: String) -> String {
        var lines = ["id: \(id)", "event: \(event.name)"]
        lines += event.text.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)" }
        return lines.joined(separator: "\n") + "\n\n"
    }
}
