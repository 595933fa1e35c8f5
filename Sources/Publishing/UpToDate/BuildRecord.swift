import Foundation

/// The last build's fingerprint and report, in `<output>/.bundlepress-build.json`: a build whose
/// ``BuildFingerprint`` matches answers with this report instead of building again.
struct BuildRecord: Codable, Sendable {
    static let fileName = ".bundlepress-build.json"

    var fingerprint: BuildFingerprint
    var report: BuildReport

    /// The record in `outputDirectory`; nil when there is none or it does not decode (a record
    /// written by another version: the build then runs).
    static func read(outputDirectory: String) -> BuildRecord? {
        let path = (outputDirectory as NSString).appendingPathComponent(fileName)
        return FileManager.default.contents(atPath: path).flatMap { try? JSONDecoder().decode(BuildRecord.self, from: $0) }
    }

    /// Replaces the record in `outputDirectory`, whole or not at all.
    func write(outputDirectory: String) throws(PublishError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(self)
        } catch {
            throw PublishError(path: Self.fileName, message: "cannot encode the build record: \(error)")
        }
        try DurableFiles.replaceAtomically(path: (outputDirectory as NSString).appendingPathComponent(Self.fileName), with: Array(data))
    }
}
