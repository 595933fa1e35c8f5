import SystemSupport

/// Where the access log goes: one Common Log Format line per response,
/// `host ident authuser [date] "request line" status bytes`, for example
/// `127.0.0.1 - - [21/Nov/2026:10:00:00 +0000] "GET /bundles/manifest.json HTTP/1.1" 200 1542`.
///
/// Bytes are the body bytes sent (`-` for none). Control characters, `"` and `\` in the request
/// line are escaped as `\xNN`, so a request cannot forge log lines.
public struct AccessLog: Sendable {
    private let write: @Sendable (String) -> Void

    /// A log that hands each line (without the newline) to `write`.
    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Lines to standard error, one `write(2)` each.
    public static let standardError = AccessLog { line in
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        _ = bytes.withUnsafeBytes { bytes in
            #if canImport(Darwin)
            Darwin.write(STDERR_FILENO, bytes.baseAddress, bytes.count)
            #else
            Glibc.write(STDERR_FILENO, bytes.baseAddress, bytes.count)
            #endif
        }
    }

    /// Logs one response.
    func record(client: String, date: String, requestLine: String, status: Int, bodyBytes: Int) {
        write("\(client) - - [\(date)] \"\(Self.escaped(requestLine))\" \(status) \(bodyBytes == 0 ? "-" : String(bodyBytes))")
    }

    static func escaped(_ text: String) -> String {
        let needsEscape = { (byte: UInt8) in byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") }
        guard text.utf8.contains(where: needsEscape) else { return text }
        var escaped = ""
        for byte in text.utf8 {
            if needsEscape(byte) {
                escaped += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
            } else {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return escaped
    }
}
