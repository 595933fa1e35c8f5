extension EdgeCache {
    /// Answers `POST /__edge/purge[?path=/some/path]`: 405 for other methods, 403 unless the peer
    /// is on loopback, 400 for a query it cannot read, else 200 `purged N entries`.
    func respondToPurge(_ request: ServerRequest) -> ServerResponse {
        guard request.method == .post else {
            var response = ServerResponse.plainText(
                .methodNotAllowed, "purge with POST \(Self.purgePath), adding ?path=/some/path to purge one path."
            )
            response.headerFields[.allow] = "POST"
            return response
        }
        guard request.isFromLoopback else {
            return .plainText(.forbidden, "\(Self.purgePath) only answers requests from a loopback address.")
        }
        let target: PurgeTarget
        do {
            target = try PurgeTarget(query: request.query)
        } catch {
            return .plainText(.badRequest, "\(error.message).")
        }
        let removed = purge(target)
        return .plainText(.ok, "purged \(removed) \(removed == 1 ? "entry" : "entries")")
    }

    /// Removes the stored responses `target` names and returns how many there were.
    @discardableResult
    func purge(_ target: PurgeTarget) -> Int {
        generation += 1
        switch target {
        case .all:
            return store.removeAll()
        case .path(let path):
            return store.removeAll(path: path)
        }
    }
}
