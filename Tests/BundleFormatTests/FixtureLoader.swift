import BundleFormat
import Foundation

/// Reads test fixtures copied from /work/shared (see Fixtures/).
enum FixtureLoader {
    static func bytes(_ folder: String, _ name: String) throws -> [UInt8] {
        let url = Bundle.module.resourceURL!
            .appendingPathComponent("Fixtures").appendingPathComponent(folder).appendingPathComponent(name + ".bundle")
        return Array(try Data(contentsOf: url))
    }

    /// The reader's verdict on a fixture: nil when accepted, else the problem codes.
    static func verdict(_ folder: String, _ name: String) throws -> BundleReadError? {
        do {
            _ = try BundleReader.read(try bytes(folder, name))
            return nil
        } catch let error as BundleReadError {
            return error
        }
    }
}
