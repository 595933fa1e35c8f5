/// The rules for a bundle id: clients turn it into the umbrella target path
/// `__bundle__/docs/<id>` (bundle-format.md §2), so it must be one non-empty path segment.
enum BundleID {
    /// Why `id` is not a usable bundle id, or nil when it is.
    static func problem(with id: String) -> String? {
        if id.isEmpty { return "it is empty" }
        if id.utf8.contains(UInt8(ascii: "/")) {
            return id.contains("//") ? "it contains \"//\" (the JS SDK throws on it)" : "it contains '/'"
        }
        return nil
    }
}
