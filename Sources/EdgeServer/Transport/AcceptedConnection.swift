import NIOCore
import NIOHTTP1

/// A connection the listening socket accepted: one to serve, or one over the cap that is
/// already being turned away.
enum AcceptedConnection: Sendable {
    case serve(NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>)
    case refused
}
