import SystemSupport
import Crypto
import Foundation

/// Writes a build into `<output>/bundles/` so that readers never see a half-written site.
///
/// New files are all written into a staging directory beside their final place (same file
/// system) and flushed to disk, then renamed into place; `manifest.json` is replaced last, by
/// one atomic rename. A crash or error at any point leaves the previous manifest, and every file it
/// references, as they were. Hashed bundle names mean a new build never overwrites a file an
/// older manifest still points to.
public struct SitePublisher: Sendable {
    /// A file to publish under `bundles/` (its name may start with a folder: `snapshots/<file>`).
    public struct File: Sendable {
        /// Where a file's bytes are.
        public enum Content: Sendable {
            /// In memory, as consecutive chunks (so they need not be concatenated).
            case chunks([[UInt8]])
            /// In a file already written and flushed in a scratch directory on the output's file
            /// system (``SitePublisher/makeScratchDirectory()``), moved into place when published.
            case scratchFile(path: String, size: Int)
        }

        public var name: String
        public var content: Content

        public init(name: String, content: Content) {
            self.name = name
            self.content = content
        }

        public init(name: String, chunks: [[UInt8]]) {
            self.init(name: name, content: .chunks(chunks))
        }
    }

    /// What a publish changed.
    public struct Outcome: Sendable, Equatable {
        /// Files written (new or changed), by name.
        public var written: [String]
        /// Files already present with identical bytes, left untouched (mtime kept).
        public var unchanged: [String]
        public var manifestChanged: Bool
        /// True when the state kept for returning clients was (or would be) written.
        public var stateChanged: Bool
    }

    public let outputDirectory: String

    public init(outputDirectory: String) {
        self.outputDirectory = outputDirectory
    }

    public var bundlesDirectory: String { (outputDirectory as NSString).appendingPathComponent("bundles") }
    public var manifestPath: String { Manifest.path(inSite: outputDirectory) }

    /// Staging directories are `bundles/.staging-<pid>-<random>`.
    static let stagingPrefix = ".staging-"

    /// Creates a directory for a build to write large files into before ``publish(files:manifest:checkpoint:)``
    /// moves them into place: a staging directory in the output directory (so the move is a
    /// rename on one file system, `bundles/` stays untouched until the publish, and a killed
    /// build's leftovers are removed by the next build), or, for a dry run, which must not touch
    /// the output, a directory in the system's temporary folder. The caller removes it.
    public func makeScratchDirectory(dryRun: Bool) throws(PublishError) -> String {
        let parent = dryRun ? FileManager.default.temporaryDirectory.path : outputDirectory
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw PublishError(path: parent, message: "cannot create the output directory: \(error.localizedDescription)")
        }
        return try Self.makeStagingDirectory(in: parent)
    }

    private static func makeStagingDirectory(in parent: String) throws(PublishError) -> String {
        let path = (parent as NSString).appendingPathComponent("\(stagingPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        guard mkdir(path, 0o755) == 0 else {
            throw PublishError(path: path, message: "cannot create a staging directory: \(String(cString: strerror(errno)))")
        }
        return path
    }

    /// Publishes `files`, then `manifest` with `history`: every new or changed file is written and
    /// flushed in a staging directory, then all are renamed into `bundles/`, then the state is
    /// staged, the manifest staged and renamed over the old one, and the state moved into place
    /// (``SiteHistoryStore``). Files already present with the same bytes are not touched.
    /// `checkpoint` is called between the steps.
    func publish(files: [File], manifest: Data, history: SiteHistory, checkpoint: (BuildCheckpoint) -> Void = { _ in }) throws(PublishError) -> Outcome {
        let bundles = bundlesDirectory
        do {
            try FileManager.default.createDirectory(atPath: bundles, withIntermediateDirectories: true)
        } catch {
            throw PublishError(path: bundles, message: "cannot create the output directory: \(error.localizedDescription)")
        }
        let state = Self.stateFile(history, manifest: manifest)
        let outcome = changes(files: files, manifest: manifest, state: state)
        let staging = try Self.makeStagingDirectory(in: bundles)
        defer { try? FileManager.default.removeItem(atPath: staging) }

        let written = Set(outcome.written)
        try Self.createFolders(of: outcome.written, in: [staging, bundles])
        for file in files where written.contains(file.name) {
            let staged = (staging as NSString).appendingPathComponent(file.name)
            switch file.content {
            case .chunks(let chunks): try DurableFiles.write(path: staged, chunks: chunks)
            case .scratchFile(let path, _): try DurableFiles.rename(path, to: staged)
            }
        }
        checkpoint(.staged)
        for name in outcome.written {
            try DurableFiles.rename((staging as NSString).appendingPathComponent(name), to: (bundles as NSString).appendingPathComponent(name))
        }
        for folder in Set(outcome.written.map { ($0 as NSString).deletingLastPathComponent }.filter { !$0.isEmpty }) {
            try DurableFiles.syncDirectory((bundles as NSString).appendingPathComponent(folder))
        }
        try DurableFiles.syncDirectory(bundles)
        checkpoint(.bundlesInPlace)

        let store = SiteHistoryStore(outputDirectory: outputDirectory)
        if outcome.manifestChanged {
            try store.stage(state)
            checkpoint(.stateStaged)
            let staged = (staging as NSString).appendingPathComponent("manifest.json")
            try DurableFiles.write(path: staged, chunks: [Array(manifest)])
            checkpoint(.manifestStaged)
            try DurableFiles.rename(staged, to: manifestPath)
            try DurableFiles.syncDirectory(bundles)
            checkpoint(.manifestInPlace)
            try store.commit()
        } else if outcome.stateChanged {
            // Same manifest: the state belongs to it either way, so it is replaced in one step.
            try DurableFiles.replaceAtomically(path: store.path, with: state)
        }
        return outcome
    }

    /// Creates, in each of `directories`, the folders that the names `names` (relative paths such
    /// as `snapshots/<file>`) are in.
    private static func createFolders(of names: [String], in directories: [String]) throws(PublishError) {
        let folders = Set(names.map { ($0 as NSString).deletingLastPathComponent }.filter { !$0.isEmpty })
        for directory in directories {
            for folder in folders.sorted() {
                let path = (directory as NSString).appendingPathComponent(folder)
                do {
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                } catch {
                    throw PublishError(path: path, message: "cannot create the folder: \(error.localizedDescription)")
                }
            }
        }
    }

    /// The bytes of `history` as the state file of the site whose manifest is `manifest`.
    private static func stateFile(_ history: SiteHistory, manifest: Data) -> [UInt8] {
        var state = history
        state.manifestSHA256 = SHA256.hash(data: manifest).hex
        return state.encoded()
    }

    /// What ``publish(files:manifest:history:checkpoint:)`` would write, found by reading only.
    func changes(files: [File], manifest: Data, history: SiteHistory) -> Outcome {
        changes(files: files, manifest: manifest, state: Self.stateFile(history, manifest: manifest))
    }

    /// The same, with the state file's bytes made once by the caller.
    private func changes(files: [File], manifest: Data, state: [UInt8]) -> Outcome {
        var outcome = Outcome(written: [], unchanged: [], manifestChanged: false, stateChanged: false)
        for file in files {
            let target = (bundlesDirectory as NSString).appendingPathComponent(file.name)
            if Self.hasContent(path: target, file.content) {
                outcome.unchanged.append(file.name)
            } else {
                outcome.written.append(file.name)
            }
        }
        outcome.manifestChanged = !Self.hasContent(path: manifestPath, .chunks([Array(manifest)]))
        let statePath = SiteHistoryStore(outputDirectory: outputDirectory).path
        outcome.stateChanged = !Self.hasContent(path: statePath, .chunks([state]))
        return outcome
    }

    /// The manifest now published with its bytes, or nil with the reason when there is one but
    /// it cannot be read.
    public func publishedManifest() -> (published: (manifest: Manifest, bytes: Data)?, problem: String?) {
        guard let data = FileManager.default.contents(atPath: manifestPath) else { return (nil, nil) }
        do {
            return ((try Manifest.decode(data), data), nil)
        } catch {
            return (nil, "\(manifestPath) is not a valid manifest (\(error)); every bundle counts as new")
        }
    }

    /// Removes the staging directories (in `bundles/`) and scratch directories (in the output
    /// directory) of builds that were killed, and returns their names. Only a caller holding the
    /// output's ``BuildLock`` may call this: no other build runs then.
    public func removeLeftoverStaging() -> [String] {
        [bundlesDirectory, outputDirectory].flatMap { directory in
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return entries.filter { name in
                name.hasPrefix(Self.stagingPrefix)
                    && (try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(name))) != nil
            }
        }.sorted()
    }

    /// True when `path` is a regular file holding exactly `content`.
    static func hasContent(path: String, _ content: File.Content) -> Bool {
        switch content {
        case .chunks(let chunks):
            guard isRegularFile(path, size: chunks.reduce(0) { $0 + $1.count }), let handle = FileHandle(forReadingAtPath: path) else { return false }
            defer { try? handle.close() }
            return chunks.allSatisfy { chunk in (try? handle.read(upToCount: chunk.count)).map { $0.elementsEqual(chunk) } ?? false }
        case .scratchFile(let scratch, let size):
            return isRegularFile(path, size: size) && FileChunks.sameContent(path, scratch)
        }
    }

    /// True when `path` is a regular file of `size` bytes.
    private static func isRegularFile(_ path: String, size: Int) -> Bool {
        FileStamp(path: path).map { $0.isRegularFile && $0.size == size } ?? false
    }
}
