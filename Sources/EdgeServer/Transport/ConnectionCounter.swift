import NIOConcurrencyHelpers

/// Counts open connections against ``ConnectionLimits/maxConnections``, and each peer address's
/// against ``ConnectionLimits/maxConnectionsPerPeer``, so that one address cannot take every
/// place.
final class ConnectionCounter: Sendable {
    /// Why a connection was turned away.
    enum Refusal: Error, Equatable {
        /// The server holds its most connections.
        case full
        /// The peer's address holds its most connections.
        case peerFull
    }

    private struct State {
        var open = 0
        var byPeer: [String: Int] = [:]
    }

    let limit: Int
    let perPeerLimit: Int
    private let state = NIOLockedValueBox(State())

    init(limit: Int, perPeerLimit: Int) {
        self.limit = limit
        self.perPeerLimit = perPeerLimit
    }

    /// Counts a new connection from `peer` (its IP address), or says why it is refused.
    func admit(peer: String) -> Result<ConnectionSlot, Refusal> {
        let refusal: Refusal? = state.withLockedValue { state in
            guard state.open < limit else { return .full }
            guard state.byPeer[peer, default: 0] < perPeerLimit else { return .peerFull }
            state.open += 1
            state.byPeer[peer, default: 0] += 1
            return nil
        }
        return refusal.map { .failure($0) } ?? .success(ConnectionSlot(counter: self, peer: peer))
    }

    /// Counts a connection from `peer` as closed.
    fileprivate func release(peer: String) {
        state.withLockedValue { state in
            state.open -= 1
            if state.byPeer[peer] == 1 {
                state.byPeer[peer] = nil
            } else {
                state.byPeer[peer]? -= 1
            }
        }
    }
}

/// One admitted connection's place in the ``ConnectionCounter``, given back once: when the
/// connection closes, or before, when it becomes an event stream (which has its own cap, see
/// ``SiteEventStream``, and holds no place ordinary requests need).
final class ConnectionSlot: Sendable {
    private let counter: ConnectionCounter
    private let peer: String
    private let held = NIOLockedValueBox(true)

    fileprivate init(counter: ConnectionCounter, peer: String) {
        self.counter = counter
        self.peer = peer
    }

    /// Gives the place back (later calls do nothing).
    func release() {
        let wasHeld = held.withLockedValue { held in
            defer { held = false }
            return held
        }
        if wasHeld { counter.release(peer: peer) }
    }
}
