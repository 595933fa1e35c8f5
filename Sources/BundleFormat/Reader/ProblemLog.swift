import FirestoreModel
import JSONCore

/// Collects problems while one bundle is read, and remembers which database its names belong to.
struct ProblemLog {
    private(set) var errors: [BundleProblem] = []
    private(set) var warnings: [BundleProblem] = []
    /// The element being read (nil outside elements).
    var elementIndex: Int?
    /// Offset of the current element's JSON in the bundle; node offsets are relative to it.
    var base = 0
    /// The database of the bundle: given by the caller, or taken from the first name read.
    private(set) var database: DatabaseID?
    private let databaseWasGiven: Bool
    private var warnedCodes: Set<String> = []
    /// Which readers the bundle must load in (decides whether OR filters are errors).
    let audience: BundleAudience

    init(database: DatabaseID?, audience: BundleAudience) {
        self.database = database
        self.audience = audience
        self.databaseWasGiven = database != nil
    }

    /// Records an error at `offset` (relative to the current element's JSON).
    mutating func error(_ code: BundleProblem.Code, at offset: Int, _ message: String) {
        errors.append(BundleProblem(code: code, elementIndex: elementIndex, offset: base + offset, message: message))
    }

    /// Records a warning; a warning of the same kind (`key`) is only reported once per bundle.
    mutating func warn(once key: String, at offset: Int, _ message: String) {
        guard warnedCodes.insert(key).inserted else { return }
        warnings.append(BundleProblem(code: .nonCanonical, elementIndex: elementIndex, offset: base + offset, message: message))
    }

    /// Checks that `name` belongs to the bundle's database (§6).
    mutating func checkDatabase(of name: ResourceName, at offset: Int, what: String) {
        guard let expected = database else {
            database = name.database
            return
        }
        guard name.database != expected else { return }
        let origin = databaseWasGiven ? "the app's database \(expected)" : "\(expected), which the bundle's first name uses"
        error(.databaseMismatch, at: offset, "\(what) is in \(name.database), not \(origin): JS, Android and iOS reject names from another project or database (\"different project\", \"Resource name is not valid for current instance\"), so no app can load the whole bundle")
    }

    /// Records an unknown key in `object` (proto field names are camelCase).
    mutating func checkKeys(_ object: JSONObject, allowed: [String], in context: String) {
        for member in object.members where !allowed.contains(where: { $0.utf8.elementsEqual(member.key.utf8) }) {
            error(.unknownKey, at: member.keyOffset, "unknown key \"\(member.key)\" in \(context) (expected \(allowed.joined(separator: ", "))): Python's proto3 JSON parser rejects unknown fields")
        }
    }
}
