/// What a purge request asks to remove, from the query of `POST /__edge/purge`:
/// `?path=/bundles/manifest.json` for one path (every query variant of it), no query for all.
enum PurgeTarget: Equatable, Sendable {
    /// Every stored response.
    case all
    /// The stored responses of one path.
    case path(String)

    /// Parses the query string of a purge request.
    init(query: String?) throws(PurgeRequestError) {
        guard let query, !query.isEmpty else {
            self = .all
            return
        }
        var path: String?
        for parameter in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0] == "path", parts.count == 2 else {
                throw PurgeRequestError("unknown parameter \"\(parameter)\"; use ?path=/some/path, or no query to purge everything")
            }
            guard path == nil else { throw PurgeRequestError("path is given twice; purge one path per request") }
            guard let decoded = Self.percentDecoded(parts[1]), decoded.hasPrefix("/") else {
                throw PurgeRequestError("path \"\(parts[1])\" is not an absolute, percent-encoded path such as /bundles/manifest.json")
            }
            path = decoded
        }
        self = path.map(PurgeTarget.path) ?? .all
    }

    /// Decodes `%XX` escapes and `+` (a space, in form encoding); `nil` for a broken escape or
    /// bytes that are not UTF-8.
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next()?.hexDigitValue, let low = iterator.next()?.hexDigitValue else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// A purge request the edge cannot act on, with a sentence for the `400` body.
struct PurgeRequestError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { "bad purge request: \(message)" }
}
