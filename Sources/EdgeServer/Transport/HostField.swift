/// The `Host` field of a request (RFC 9110 §7.2): `uri-host [ ":" port ]`, where `uri-host` is a
/// registered name (unreserved characters, sub-delimiters, percent escapes), an IPv4 address
/// or a bracketed IP literal, and the port is digits. HTTP/1.1 allows it empty.
public enum HostField {
    /// `value` as the edge compares hosts: ASCII letters lowercased, without an empty port or
    /// the default port `:80`; nil when `value` is not a valid `Host`.
    public static func normalised(_ value: String) -> String? {
        var bytes = Array(value.utf8)
        var hostEnd = bytes.count
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1,
                bytes[1..<close].allSatisfy({ $0.hexDigitValue != nil || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "v") })
            else { return nil }
            hostEnd = close + 1
            guard hostEnd == bytes.count || bytes[hostEnd] == UInt8(ascii: ":") else { return nil }
        } else {
            hostEnd = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
            var index = 0
            while index < hostEnd {
                if bytes[index] == UInt8(ascii: "%") {
                    guard index + 2 < hostEnd, bytes[index + 1].hexDigitValue != nil, bytes[index + 2].hexDigitValue != nil else { return nil }
                    index += 3
                    continue
                }
                guard bytes[index].isUnreservedOrSubDelimiter else { return nil }
                index += 1
            }
        }
        let port = bytes[hostEnd...].dropFirst()
        guard port.allSatisfy(\.isDigit) else { return nil }
        if port.isEmpty || port.elementsEqual("80".utf8) {
            bytes.removeSubrange(hostEnd...)
        }
        return String(decoding: bytes.map(\.asciiLowercased), as: UTF8.self)
    }
}
