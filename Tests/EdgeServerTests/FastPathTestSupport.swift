import EdgeServer
import Testing

/// Expects that the fast path answered, with exactly the status, fields and body the slow path
/// gave for the same request.
func expectSameResponse(_ fast: ServerResponse?, _ slow: ServerResponse, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let fast else {
        Issue.record("the fast path declined a request it can answer (the slow path gave \(slow.status))", sourceLocation: sourceLocation)
        return
    }
    #expect(fast.status == slow.status, sourceLocation: sourceLocation)
    #expect(fast.headerFields == slow.headerFields, sourceLocation: sourceLocation)
    #expect(fast.body.bytes == slow.body.bytes, sourceLocation: sourceLocation)
}
