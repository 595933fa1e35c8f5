import Crypto

extension SHA256.Digest {
    /// Lowercase hex, as the manifest records it and bundle file names use it.
    var hex: String { hex(bytes: SHA256.Digest.byteCount) }

    /// Lowercase hex of the first `count` bytes.
    func hex(bytes count: Int) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(count * 2)
        for byte in prefix(count) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
