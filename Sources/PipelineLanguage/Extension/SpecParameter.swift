import FirestoreModel

/// A parameter a spec declares (`params.<name>: {type, required}`) and how its values, text as
/// a URL's query string carries them, become Firestore values.
struct SpecParameter: Sendable, Equatable {
    enum Kind: String, Sendable, CaseIterable {
        case string, integer, float, boolean
        case stringArray = "string-array"
        case integerArray = "integer-array"
        case floatArray = "float-array"

        /// The element type of an array kind; nil for a single value.
        var element: Kind? {
            switch self {
            case .stringArray: return .string
            case .integerArray: return .integer
            case .floatArray: return .float
            default: return nil
            }
        }
    }

    static let keys = ["type", "required"]

    var name: String
    var kind: Kind
    var isRequired: Bool

    init(name: String, kind: Kind, isRequired: Bool) {
        self.name = name
        self.kind = kind
        self.isRequired = isRequired
    }

    init(_ value: Value, name: String, spec: ExtensionSpec) throws(ConfigError) {
        let part = "params.\(name)"
        guard case .map(let map) = value else { throw spec.error("a parameter is a map {type, required}, found \(SpecText.describe(value))", at: part) }
        for field in map.fields where !Self.keys.contains(field.key) {
            throw spec.error("unknown key \"\(field.key)\"; a parameter has type and required", at: part)
        }
        self.name = name
        switch map["type"] {
        case nil, .null?:
            kind = .string
        case .string(let text)?:
            guard let kind = Kind(rawValue: text) else {
                throw spec.error("unknown type \"\(text)\"; expected one of: \(Kind.allCases.map(\.rawValue).joined(separator: ", "))", at: part)
            }
            self.kind = kind
        case let other?:
            throw spec.error("type must be a string, found \(SpecText.describe(other))", at: part)
        }
        switch map["required"] {
        case nil, .null?: isRequired = false
        case .boolean(let flag)?: isRequired = flag
        case let other?: throw spec.error("required must be true or false, found \(SpecText.describe(other))", at: part)
        }
    }

    /// `value` converted by the parameter's type, as the extension converts what a request
    /// carries; a text that does not convert is an error (the extension would build a query
    /// with NaN or a silent `false`). Numbers become what the Admin SDK sends for a JavaScript
    /// number: an integer when whole, else a double.
    func convert(_ value: SpecParameterValue) throws(SpecValueError) -> Value {
        guard let element = kind.element else {
            guard case .text(let text) = value else {
                throw SpecValueError("parameter \(name) is of type \(kind.rawValue), so it takes one value, found \(value)")
            }
            return try Self.convert(text, to: kind, name: name)
        }
        return .array(try value.texts.map { text throws(SpecValueError) in try Self.convert(text, to: element, name: name) })
    }

    private static func convert(_ text: String, to kind: Kind, name: String) throws(SpecValueError) -> Value {
        switch kind {
        case .string:
            return .string(text)
        case .integer:
            guard let number = Int64(text) else { throw SpecValueError("parameter \(name) is of type integer, and \"\(text)\" is not an integer") }
            return .integer(number)
        case .float:
            guard let number = Double(text), number.isFinite else { throw SpecValueError("parameter \(name) is of type float, and \"\(text)\" is not a number") }
            return SpecNumber.value(number)
        case .boolean:
            switch text {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            default: throw SpecValueError("parameter \(name) is of type boolean, and \"\(text)\" is neither true nor false")
            }
        case .stringArray, .integerArray, .floatArray:
            preconditionFailure("array kinds convert element by element")
        }
    }

    /// The text a value of the data stands for, when a value of this parameter can be it: the
    /// distinct values of a field become the parameter's values.
    func text(of value: Value) -> String? {
        switch (kind, value) {
        case (.string, .string(let text)): return text
        case (.integer, .integer(let number)): return String(number)
        case (.float, .integer(let number)): return String(number)
        case (.float, .double(let number)) where number.isFinite: return String(number)
        case (.boolean, .boolean(let flag)): return String(flag)
        default: return nil
        }
    }
}

/// A parameter value that does not fit its parameter.
struct SpecValueError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Numbers as the extension's function hands them to the Admin SDK, which sends a JavaScript
/// number as an integer when it is a safe integer (not -0), else as a double.
enum SpecNumber {
    static func value(_ number: Double) -> Value {
        let safe = 9_007_199_254_740_991.0
        if number.rounded() == number, abs(number) <= safe, !(number == 0 && number.sign == .minus) {
            return .integer(Int64(number))
        }
        return .double(number)
    }

    /// The number JavaScript's `parseFloat` reads at the start of `text` (leading white space
    /// skipped, then the longest decimal literal or `Infinity`); nil where it gives NaN.
    static func parseFloatPrefix(_ text: String) -> Double? {
        let scalars = Array(text.unicodeScalars.drop { $0.properties.isWhitespace })
        var index = 0
        func take(_ accept: (Unicode.Scalar) -> Bool) -> Int {
            let start = index
            while index < scalars.count, accept(scalars[index]) { index += 1 }
            return index - start
        }
        let isDigit: (Unicode.Scalar) -> Bool = { $0 >= "0" && $0 <= "9" }
        var sign = ""
        if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" {
            sign = scalars[index] == "-" ? "-" : ""
            index += 1
        }
        if String(String.UnicodeScalarView(scalars[index...])).hasPrefix("Infinity") {
            return sign == "-" ? -.infinity : .infinity
        }
        let start = index
        let whole = take(isDigit)
        var fraction = 0
        if index < scalars.count, scalars[index] == "." {
            index += 1
            fraction = take(isDigit)
            if whole == 0 && fraction == 0 { return nil }
            if fraction == 0 { index -= 1 }
        }
        guard whole + fraction > 0 else { return nil }
        let mantissaEnd = index
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            index += 1
            if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
            if take(isDigit) == 0 { index = mantissaEnd }
        }
        return Double(sign + String(String.UnicodeScalarView(scalars[start..<index])))
    }

    /// A string value of `in`, `not-in` or `array-contains-any` split as the extension splits it:
    /// on commas, each part the number `parseFloat` reads in it, else its text with one pair of
    /// surrounding quotes (`"` or `'`) removed.
    static func commaList(_ text: String) -> Value {
        .array(text.split(separator: ",", omittingEmptySubsequences: false).map { part -> Value in
            let part = String(part)
            if let number = parseFloatPrefix(part) { return number.isFinite ? value(number) : .double(number) }
            if part.count >= 2, let first = part.first, first == "\"" || first == "'", part.last == first {
                return .string(String(part.dropFirst().dropLast()))
            }
            return .string(part)
        })
    }
}
