/// The server could not start.
public enum ServerError: Error, Sendable, CustomStringConvertible {
    /// Binding the listening socket failed (address in use, not an address of this machine, no
    /// permission for the port).
    case cannotBind(host: String, port: Int, reason: String)

    public var description: String {
        switch self {
        case .cannotBind(let host, let port, let reason):
            return "cannot listen on \(host):\(port): \(reason); choose another --port (0 picks a free one) or --host"
        }
    }
}
