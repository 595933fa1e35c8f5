import HTTPTypes

extension HTTPFields {
    /// The fields of one hop that a proxy never forwards (RFC 9110 §7.6.1): besides these, every
    /// field `Connection` names.
    static let hopByHopNames: Set<HTTPField.Name> = [
        .connection, .proxyConnection, .keepAlive, .te, .transferEncoding, .upgrade,
    ]

    /// The `Via` entry this proxy adds to what it forwards (RFC 9110 §7.6.3).
    static let viaEntry = "1.1 bundlepress"

    /// These fields as a proxy forwards them: without the hop-by-hop fields, the fields
    /// `Connection` lists and `Content-Length` (the next hop frames the message itself), with
    /// this proxy appended to `Via`.
    func forwarded() -> HTTPFields {
        var connectionOptions: Set<String> = []
        for value in self[values: .connection] {
            var scanner = FieldValueScanner(value)
            while scanner.beginElement() {
                if let option = scanner.token() { connectionOptions.insert(option.lowercased()) }
                scanner.skipElement()
            }
        }
        var forwarded = HTTPFields()
        forwarded.reserveCapacity(count + 1)
        for field in self
        where !Self.hopByHopNames.contains(field.name) && field.name != .contentLength
            && !connectionOptions.contains(field.name.canonicalName)
        {
            forwarded.append(field)
        }
        forwarded[.via] = forwarded[.via].map { $0 + ", " + Self.viaEntry } ?? Self.viaEntry
        return forwarded
    }
}

extension HTTPField.Name {
    /// `Keep-Alive` (RFC 9112 appendix C.2.2), hop-by-hop.
    static let keepAlive = HTTPField.Name("Keep-Alive")!
    /// `Proxy-Connection`, a non-standard hop-by-hop field some clients still send.
    static let proxyConnection = HTTPField.Name("Proxy-Connection")!
    /// `Host`, which HTTPTypes keeps out of `HTTPFields` (as `:authority`); the transport keeps
    /// the HTTP/1 field, which a proxy rewrites.
    static let hostField = HTTPField.Name("Host")!
    /// `X-Forwarded-Host`: the host the request was for (the operator's, or the client's `Host`),
    /// for an upstream behind a rewritten `Host`.
    static let xForwardedHost = HTTPField.Name("X-Forwarded-Host")!
}
