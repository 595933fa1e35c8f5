import Foundation
import NIOCore

/// One response as the client received it, bytes exact.
struct TestResponse: CustomStringConvertible {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    /// The first value of a header field (case-insensitive), or nil.
    subscript(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The names of the header fields, in order, lowercased.
    var headerNames: [String] { headers.map { $0.name.lowercased() } }

    var text: String { String(decoding: body, as: UTF8.self) }

    var description: String {
        "\(status)\n" + headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n") + "\n\n\(text.prefix(200))"
    }

    /// Parses one response from the front of `buffer`, consuming it, or returns nil when more
    /// bytes are needed. `bodyless` for responses to HEAD (and 204/304, detected anyway).
    static func parse(_ buffer: inout ByteBuffer, bodyless: Bool) throws -> TestResponse? {
        let bytes = Array(buffer.readableBytesView)
        guard let headEnd = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: bytes[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw MalformedResponse(text: lines[0])
        }
        let headers = lines.dropFirst().map { line -> (name: String, value: String) in
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            return (String(line[..<colon]), line[colon...].dropFirst().trimmingCharacters(in: .whitespaces))
        }
        var response = TestResponse(status: status, headers: headers, body: [])
        let length = bodyless || status == 204 || status == 304 ? 0 : Int(response["Content-Length"] ?? "0") ?? 0
        guard bytes.count >= headEnd.upperBound + length else { return nil }
        response.body = Array(bytes[headEnd.upperBound..<headEnd.upperBound + length])
        buffer.moveReaderIndex(forwardBy: headEnd.upperBound + length)
        return response
    }
}

struct MalformedResponse: Error {
    var text: String
}
