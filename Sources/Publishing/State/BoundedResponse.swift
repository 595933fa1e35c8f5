import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// AsyncHTTPClient's `ResponseAccumulator`, remembering that it refused a body over its limit.
///
/// The refusal cancels the request, and when that races the server closing the connection, the
/// request may fail with the close's error (`I/O on closed channel`) rather than the refusal:
/// the limit is still what the user must be told.
final class BoundedResponse: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = HTTPClient.Response

    private let accumulator: ResponseAccumulator
    private let lock = NSLock()
    private var refused = false

    init(request: HTTPClient.Request, maxBodySize: Int) {
        accumulator = ResponseAccumulator(request: request, maxBodySize: maxBodySize)
    }

    /// True once the body was refused for its size, whatever error the request then ended with.
    var refusedAsTooLarge: Bool { lock.withLock { refused } }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        noting(accumulator.didReceiveHead(task: task, head))
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        noting(accumulator.didReceiveBodyPart(task: task, buffer))
    }

    func didReceiveError(task: HTTPClient.Task<Response>, _ error: Error) {
        accumulator.didReceiveError(task: task, error)
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        try accumulator.didFinishRequest(task: task)
    }

    /// `step`, having noted a refusal for size.
    private func noting(_ step: EventLoopFuture<Void>) -> EventLoopFuture<Void> {
        step.flatMapErrorThrowing { error in
            if error is ResponseAccumulator.ResponseTooBigError { self.lock.withLock { self.refused = true } }
            throw error
        }
    }
}
