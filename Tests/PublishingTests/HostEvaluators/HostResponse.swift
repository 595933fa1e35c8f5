import Foundation
import SitePolicy

/// What a host answers for a path, as far as its header file decides: the fields it sends
/// (lowercased name → value, repeated fields joined with ", "), or that it serves no file there.
enum HostResponse: Equatable, CustomStringConvertible {
    case served([String: String])
    case notServed

    /// The fields `bundlepress serve` sends for `path` under `policy`.
    static func expected(_ policy: HeaderPolicy, path: String) -> HostResponse {
        var fields: [String: String] = [:]
        for field in policy.headers(forPath: path) {
            fields[field.name.lowercased()] = fields[field.name.lowercased()].map { "\($0), \(field.value)" } ?? field.value
        }
        return .served(fields)
    }

    /// The value of one field (lowercase name), nil when absent or not served.
    subscript(name: String) -> String? {
        if case .served(let fields) = self { return fields[name] }
        return nil
    }

    var description: String {
        switch self {
        case .notServed: return "not served"
        case .served(let fields): return fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: " | ")
        }
    }
}

/// A host's reading of the file bundlepress wrote for it.
protocol HostEvaluator {
    func response(forPath path: String) -> HostResponse
}

extension NSRegularExpression {
    /// Whether the expression matches somewhere in `text` (RegExp.test, String.match).
    func isFound(in text: String) -> Bool {
        firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
