import Crypto

extension SHA256.Digest {
    /// Lowercase hex, as the manifest records it and bundle file names use it.
    var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(SHA256.Digest.byteCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
