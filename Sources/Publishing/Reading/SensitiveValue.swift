/// What makes a field look like something that should not be public: its name, or cheaply, the
/// shape of a string value. Deliberately narrow (no entropy guessing): a warning must be worth
/// reading.
public enum SensitiveValue: String, Sendable, Equatable, CaseIterable {
    case emailAddress = "an email address"
    case phoneNumber = "a phone number"
    case secret = "a password, token or secret"
    case jsonWebToken = "a JSON Web Token"
    case apiKey = "an API key"
    case iban = "a bank account number (IBAN)"
    case personalIdentifier = "a personal identifier (date of birth, national id, card number)"

    /// Field names (lowercased, without `_`, `-` and spaces) that say what the field holds.
    private static let names: [String: SensitiveValue] = [
        "email": .emailAddress, "emailaddress": .emailAddress, "mail": .emailAddress,
        "phone": .phoneNumber, "phonenumber": .phoneNumber, "mobile": .phoneNumber, "tel": .phoneNumber,
        "password": .secret, "passwd": .secret, "passwordhash": .secret, "secret": .secret, "token": .secret,
        "accesstoken": .secret, "refreshtoken": .secret, "apikey": .apiKey, "privatekey": .secret,
        "iban": .iban, "ssn": .personalIdentifier, "dateofbirth": .personalIdentifier, "dob": .personalIdentifier,
        "birthdate": .personalIdentifier, "cardnumber": .personalIdentifier, "creditcard": .personalIdentifier,
    ]

    /// What the field name `name` says it holds, if anything sensitive.
    public static func named(_ name: String) -> SensitiveValue? {
        names[String(name.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })]
    }

    /// What the string `text` looks like, if anything sensitive.
    ///
    /// Every published string goes through here, so it looks at the string's own UTF-8 bytes
    /// without copying them.
    public static func looking(like text: String) -> SensitiveValue? {
        var text = text
        return text.withUTF8(looking(like:))
    }

    /// What the string whose UTF-8 bytes are `bytes` looks like, if anything sensitive.
    public static func looking(like bytes: UnsafeBufferPointer<UInt8>) -> SensitiveValue? {
        guard (6...512).contains(bytes.count) else { return nil }
        if isEmailAddress(bytes) { return .emailAddress }
        if isJSONWebToken(bytes) { return .jsonWebToken }
        if isAPIKey(bytes) { return .apiKey }
        if isIBAN(bytes) { return .iban }
        if isPhoneNumber(bytes) { return .phoneNumber }
        return nil
    }

    /// `local@domain.tld`: no space, one `@` not first, a dot in the domain, a letters-only TLD.
    private static func isEmailAddress(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")), at > 0, bytes.lastIndex(of: UInt8(ascii: "@")) == at,
              !bytes.contains(where: { $0 <= 0x20 }), let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > at + 1
        else { return false }
        let tld = bytes[(dot + 1)...]
        return tld.count >= 2 && tld.allSatisfy { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }
    }

    /// `eyJ…` header, payload and signature in base64url, separated by two dots.
    private static func isJSONWebToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.starts(with: "eyJ".utf8) else { return false }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 3 && parts.allSatisfy { part in part.count >= 4 && part.allSatisfy(isBase64URL) }
    }

    /// Prefixes that well-known services give their secret keys.
    private static let apiKeyPrefixes = ["sk_live_", "sk_test_", "rk_live_", "ghp_", "github_pat_", "xoxb-", "xoxp-", "AKIA"]

    private static func isAPIKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let prefix = apiKeyPrefixes.first(where: { bytes.starts(with: $0.utf8) }) else { return false }
        let rest = bytes.dropFirst(prefix.utf8.count)
        return rest.count >= 16 && rest.allSatisfy(isBase64URL)
    }

    /// Two letters, two check digits, 11–30 letters or digits, and the ISO 13616 mod-97 check.
    private static func isIBAN(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard (15...34).contains(bytes.count), bytes.prefix(2).allSatisfy(isUpper), bytes[2...3].allSatisfy(isDigit),
              bytes.dropFirst(4).allSatisfy({ isUpper($0) || isDigit($0) })
        else { return false }
        var remainder = 0
        for byte in Array(bytes.dropFirst(4)) + Array(bytes.prefix(4)) {
            let value = isDigit(byte) ? Int(byte - UInt8(ascii: "0")) : Int(byte - UInt8(ascii: "A")) + 10
            remainder = (remainder * (value >= 10 ? 100 : 10) + value) % 97
        }
        return remainder == 1
    }

    /// `+` then 8–15 digits, spaces, dashes, dots or parentheses between them (E.164 as written).
    private static func isPhoneNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.first == UInt8(ascii: "+") else { return false }
        let rest = bytes.dropFirst()
        guard rest.allSatisfy({ isDigit($0) || " -.()".utf8.contains($0) }) else { return false }
        return (8...15).contains(rest.filter(isDigit).count)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    private static func isBase64URL(_ byte: UInt8) -> Bool {
        isDigit(byte) || isUpper(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
}
