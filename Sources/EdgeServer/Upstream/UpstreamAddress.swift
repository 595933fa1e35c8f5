/// The origin `bundlepress serve --upstream URL` forwards to: `http://host[:port][/prefix]` (or
/// `https://`), parsed once when the server starts.
///
/// A request for `/a/b?q` goes to `<scheme>://<authority><prefix>/a/b?q`.
public struct UpstreamAddress: Sendable, Equatable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// `host`, `host:port` or `[v6]:port`, as given; also the `Host` the upstream receives.
    public let authority: String
    /// The path prefix without a trailing `/` (empty for none).
    public let pathPrefix: String

    /// Parses `url`.
    ///
    /// - Throws: ``UpstreamAddressError`` naming what is wrong: another scheme, no host, a
    ///   query or fragment, a port that is not a number in 1...65535.
    public init(parsing url: String) throws(UpstreamAddressError) {
        guard let separator = url.range(of: "://") else {
            throw UpstreamAddressError(url: url, problem: "expected http://host[:port][/prefix]")
        }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw UpstreamAddressError(url: url, problem: "the scheme must be http or https, found \(scheme)")
        }
        let rest = url[separator.upperBound...]
        guard !rest.contains("?"), !rest.contains("#") else {
            throw UpstreamAddressError(url: url, problem: "a query or fragment has no meaning in an upstream address")
        }
        let authority = rest.prefix { $0 != "/" }
        guard !authority.isEmpty, !authority.contains("@") else {
            throw UpstreamAddressError(url: url, problem: "expected a host (without user information) after \(scheme)://")
        }
        let hostEnd = authority.hasPrefix("[") ? authority.firstIndex(of: "]").map(authority.index(after:)) : authority.firstIndex(of: ":")
        if let hostEnd, hostEnd < authority.endIndex {
            let port = authority[hostEnd...].dropFirst()
            guard authority[hostEnd] == ":", let number = Int(port), (1...65_535).contains(number) else {
                throw UpstreamAddressError(url: url, problem: "the port must be a number from 1 to 65535, found \(port)")
            }
        }
        var prefix = rest[authority.endIndex...]
        while prefix.hasSuffix("/") { prefix = prefix.dropLast() }
        self.scheme = scheme
        self.authority = String(authority)
        pathPrefix = String(prefix)
    }

    /// The URL of `target` (a path, percent-encoded, with its query) on the upstream.
    func url(for target: String) -> String {
        scheme + "://" + authority + pathPrefix + target
    }

    public var description: String { scheme + "://" + authority + pathPrefix }
}

/// An `--upstream` address that cannot be used.
public struct UpstreamAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The address as given.
    public var url: String
    /// What is wrong with it.
    public var problem: String

    public var description: String { "invalid upstream address \(url): \(problem)" }
}
