import Foundation
import Testing

/// The repository root: this file is `Tests/EndToEndTests/CLISupport.swift`.
let repositoryRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Where the built `bundlepress` executable is, or why it cannot be found.
///
/// `swift test` builds it next to the test bundle (`.build/<triple>/debug/`), so it is looked
/// for beside (and a few levels above, for macOS `.xctest` bundles) the running test binary,
/// then in the repository's `.build/debug`. `BUNDLEPRESS_BINARY` overrides the search.
let bundlepressBinary: Result<String, BinaryNotFound> = {
    let fileManager = FileManager.default
    if let override = ProcessInfo.processInfo.environment["BUNDLEPRESS_BINARY"] {
        return fileManager.isExecutableFile(atPath: override) ? .success(override) : .failure(BinaryNotFound(searched: [override]))
    }
    var starts: [URL] = [Bundle.main.bundleURL]
    if let executable = Bundle.main.executableURL { starts.append(executable.deletingLastPathComponent()) }
    if let linked = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        starts.append(URL(fileURLWithPath: linked).deletingLastPathComponent())
    }
    if let first = CommandLine.arguments.first, first.contains("/") {
        starts.append(URL(fileURLWithPath: first).deletingLastPathComponent())
    }
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        starts.append(bundle.bundleURL.deletingLastPathComponent())
    }
    var candidates: [String] = []
    for start in starts {
        var directory = start.standardizedFileURL
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("bundlepress").path)
            directory = directory.deletingLastPathComponent()
        }
    }
    candidates.append(repositoryRoot.appendingPathComponent(".build/debug/bundlepress").path)
    var seen: Set<String> = []
    candidates = candidates.filter { seen.insert($0).inserted }
    for candidate in candidates {
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue, fileManager.isExecutableFile(atPath: candidate) {
            return .success(candidate)
        }
    }
    return .failure(BinaryNotFound(searched: candidates))
}()

struct BinaryNotFound: Error, CustomStringConvertible {
    var searched: [String]
    var description: String {
        "the bundlepress executable was not found; build it with `swift build` (swift test builds it as a product of the package) "
            + "or set BUNDLEPRESS_BINARY. Looked at: " + searched.joined(separator: ", ")
    }
}

/// The bundle ids of the example's `pipeline.yml`, in manifest order (a `for_each` over the
/// five story categories stands between `sections` and `community`).
let exampleBundleIDs = [
    "front-page", "sections", "section-culture", "section-science", "section-sport", "section-tech", "section-world", "community",
]

/// What a run of the CLI did.
struct RunResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }
}

/// A scratch copy of the example (`pipeline.yml` + `exports/`) to run the CLI in.
struct ExampleCopy {
    let path: String

    init(_ label: String = #function) throws {
        let safe = label.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("EndToEndTests-\(safe.prefix(40))-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("pipeline.yml").path, toPath: file("pipeline.yml"))
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("exports").path, toPath: file("exports"))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ relative: String) -> String {
        (path as NSString).appendingPathComponent(relative)
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: file(relative), encoding: .utf8)
    }

    func write(_ relative: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file(relative)))
    }

    /// Runs `bundlepress arguments…` with this directory as the working directory.
    func run(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
        try runBundlepress(arguments, in: path, sourceLocation: sourceLocation)
    }

    /// Starts `bundlepress arguments…` here in the background.
    func start(_ arguments: String..., environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws -> RunningBundlepress {
        try RunningBundlepress(arguments, in: path, environment: environment, sourceLocation: sourceLocation)
    }

    /// Every file below `site/` by relative path, with its bytes (dotfiles and staging included).
    func siteFiles() throws -> [String: Data] {
        try Self.files(under: file("site"))
    }

    /// Every file below `directory` by relative path, with its bytes.
    static func files(under directory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let absolute = (directory as NSString).appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: absolute))
            }
        }
        return files
    }

    /// The published manifest as JSON.
    func manifest() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: file("site/bundles/manifest.json")))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The manifest's bundle entries.
    func manifestBundles() throws -> [[String: Any]] {
        try #require(try manifest()["bundles"] as? [[String: Any]])
    }
}

/// Runs the built binary; output goes through files so neither pipe can fill up and block.
func runBundlepress(_ arguments: [String], in directory: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
    try RunningBundlepress(arguments, in: directory, sourceLocation: sourceLocation).finish()
}

/// A `bundlepress` process started in the background, its standard output and error going to
/// files.
struct RunningBundlepress {
    let process: Process
    private let outputs: URL
    private var stdoutURL: URL { outputs.appendingPathComponent("stdout") }
    private var stderrURL: URL { outputs.appendingPathComponent("stderr") }

    init(
        _ arguments: [String], in directory: String, environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let binary: String
        switch bundlepressBinary {
        case .success(let path): binary = path
        case .failure(let error):
            Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
            throw error
        }
        outputs = FileManager.default.temporaryDirectory.appendingPathComponent("bundlepress-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        try Data().write(to: outputs.appendingPathComponent("stdout"))
        try Data().write(to: outputs.appendingPathComponent("stderr"))
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        // CI makes a build without a previous state refuse to publish: the tests run the same
        // with it set or not, and give it where they mean it.
        var inherited = ProcessInfo.processInfo.environment
        inherited["CI"] = nil
        process.environment = inherited.merging(environment) { _, new in new }
        let stdout = try FileHandle(forWritingTo: outputs.appendingPathComponent("stdout"))
        let stderr = try FileHandle(forWritingTo: outputs.appendingPathComponent("stderr"))
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try stdout.close()
        try stderr.close()
    }

    /// Standard error so far.
    var standardError: String {
        (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
    }

    /// Waits until standard error holds `text`, and returns it; nil when the process exits or
    /// `timeout` passes first (generous: the machine is shared).
    func waitForStandardError(containing text: String, timeout: Duration = .seconds(180)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let output = standardError
            if output.contains(text) { return output }
            if !process.isRunning { return standardError.contains(text) ? standardError : nil }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
    }

    /// Sends `signal` (SIGKILL: no cleanup of any kind can run).
    func kill(_ signal: Int32 = SIGKILL) {
        _ = Foundation.kill(process.processIdentifier, signal)
    }

    /// Waits for the exit and collects the outputs.
    func finish() throws -> RunResult {
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(at: outputs) }
        return RunResult(
            status: process.terminationStatus,
            stdout: try String(contentsOf: stdoutURL, encoding: .utf8),
            stderr: try String(contentsOf: stderrURL, encoding: .utf8))
    }
}

/// Parses JSON text into a dictionary.
func jsonObject(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}
