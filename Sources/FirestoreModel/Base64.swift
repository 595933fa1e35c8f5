/// Standard base64 (RFC 4648 §4) with padding for output; standard or URL-safe, padded or not,
/// for input, as the Firestore clients accept.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        // Each character appended on its own: an array literal per group of four allocates.
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
            out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(rest == 2 ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// True when `text` is base64 exactly as ``encode(_:)`` writes it: the standard alphabet,
    /// padded to a multiple of four, and no bits set after the last byte's (so decoding and
    /// encoding it again gives `text` back).
    public static func isCanonical(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count % 4 == 0 else { return false }
        var padding = 0
        var last: UInt8 = 0
        for byte in text {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0 else { return false }
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): last = byte - 65
            case UInt8(ascii: "a")...UInt8(ascii: "z"): last = byte - 97 + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): last = byte - 48 + 52
            case UInt8(ascii: "+"): last = 62
            case UInt8(ascii: "/"): last = 63
            default: return false
            }
        }
        // One byte in the last group leaves 4 bits of its second character unused, two leave 2.
        switch padding {
        case 0: return true
        case 1: return last & 0b11 == 0
        case 2: return last & 0b1111 == 0
        default: return false
        }
    }

    /// Decodes standard or URL-safe base64, with or without padding. Returns nil for anything
    /// else (other characters, misplaced padding, a dangling single character).
    public static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        var padding = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0 else { return nil }
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(byte - 65)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(byte - 97 + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(byte - 48 + 52)
            case UInt8(ascii: "+"), UInt8(ascii: "-"): values.append(62)
            case UInt8(ascii: "/"), UInt8(ascii: "_"): values.append(63)
            default: return nil
            }
        }
        guard values.count % 4 != 1, padding <= 2, padding == 0 || (values.count + padding) % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var i = 0
        while i + 4 <= values.count {
            let n = UInt32(values[i]) << 18 | UInt32(values[i + 1]) << 12 | UInt32(values[i + 2]) << 6 | UInt32(values[i + 3])
            out.append(UInt8(n >> 16 & 255))
            out.append(UInt8(n >> 8 & 255))
            out.append(UInt8(n & 255))
            i += 4
        }
        let rest = values.count - i
        if rest >= 2 {
            let n = UInt32(values[i]) << 18 | UInt32(values[i + 1]) << 12 | (rest == 3 ? UInt32(values[i + 2]) << 6 : 0)
            out.append(UInt8(n >> 16 & 255))
            if rest == 3 { out.append(UInt8(n >> 8 & 255)) }
        }
        return out
    }
}
