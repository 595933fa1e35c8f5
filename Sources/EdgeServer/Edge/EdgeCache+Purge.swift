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
        let removed = state.withLockedValue { $0.purge(target) }
        return .plainText(.ok, "purged \(removed) \(removed == 1 ? "entry" : "entries")")
    }
}
