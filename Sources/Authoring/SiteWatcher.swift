import Dispatch
import PipelineLanguage
import Publishing

/// Rebuilds the site whenever `pipeline.yml` or a file its inputs read changes: the loop behind
/// `bundlepress serve --watch`.
///
/// It polls: every ``interval`` it expands the inputs' patterns again (so a new file that
/// matches counts) and stamps each file (see ``SourceSnapshot``), one `stat` a file. A change
/// waits until the files have been still for ``settle`` (an editor's save or a copy in progress
/// is one change), then the site is built once, by the same ``SiteBuilder`` as `bundlepress
/// build`: the same lock and atomic publish, so a failed build leaves the last good site served.
/// A change during a build causes one more build. While the config does not load, the inputs of
/// the last config that did stay watched.
public struct SiteWatcher: Sendable {
    /// What happens, in order: each build is announced, then succeeds or fails.
    public enum Event: Sendable {
        /// A build starts; `changed` lists the files that changed (empty for the first build).
        case building(changed: [String])
        /// The build published (or found nothing to change), from `config`.
        case built(BuildReport, config: PipelineConfig)
        /// The config did not load or the build failed; the message says where and why.
        case failed(String)
        /// Another process (`holder`, when its lock file says) holds the output's build lock:
        /// this build changed nothing, and what that one publishes is what is served.
        case otherBuildRunning(holder: String?)

        /// What a build's outcome is, as an event.
        static func of(_ outcome: Result<BuildReport, BuildError>, config: PipelineConfig) -> Event {
            switch outcome {
            case .success(let report): return .built(report, config: config)
            case .failure(.locked(_, let holder)): return .otherBuildRunning(holder: holder.map(String.init(describing:)))
            case .failure(let error): return .failed(error.description)
            }
        }
    }

    /// The pipeline config.
    public var configFile: String
    /// The site directory, overriding the config's `output:`.
    public var outputDirectory: String?
    /// How often the files are looked at.
    public var interval: Duration
    /// How long the files must be still after a change before the build starts.
    public var settle: Duration

    /// Creates a watcher; it does nothing until ``run(_:)``.
    public init(configFile: String, outputDirectory: String? = nil, interval: Duration = .milliseconds(300), settle: Duration = .milliseconds(200)) {
        self.configFile = configFile
        self.outputDirectory = outputDirectory
        self.interval = interval
        self.settle = settle
    }

    /// Builds once, then again after every change, until the task is cancelled; `report` hears
    /// every ``Event`` (and is awaited before watching goes on).
    public func run(_ report: (Event) async -> Void) async {
        var config: PipelineConfig?
        var changed: [String] = []
        while true {
            await report(.building(changed: changed))
            let loaded = Result { () throws(ConfigError) in try PipelineConfig.load(file: configFile) }
            if case .success(let latest) = loaded { config = latest }
            // The files as they are when the build starts: a change during it shows next.
            let started = SourceSnapshot(files: watchedFiles(config))
            switch loaded {
            case .success(let latest): await report(await build(latest))
            case .failure(let error): await report(.failed(error.description))
            }
            guard let next = await change(since: started, config: config) else { return }
            changed = next
        }
    }

    /// The config file and what the last config that loaded reads.
    private func watchedFiles(_ config: PipelineConfig?) -> [String] {
        [configFile] + (config?.inputFiles() ?? [])
    }

    /// Waits for the files to differ from `started`, then for them to be still for ``settle``;
    /// returns the files that changed, or nil once the task is cancelled.
    private func change(since started: SourceSnapshot, config: PipelineConfig?) async -> [String]? {
        var current = started
        do {
            while current == started {
                try await Task.sleep(for: interval)
                current = SourceSnapshot(files: watchedFiles(config))
            }
            while true {
                try await Task.sleep(for: settle)
                let later = SourceSnapshot(files: watchedFiles(config))
                if later == current { break }
                current = later
            }
        } catch {
            return nil
        }
        return current.changes(since: started)
    }

    /// Builds on a thread of its own (a build is CPU-bound and blocking), as `bundlepress build`.
    private func build(_ config: PipelineConfig) async -> Event {
        let builder = SiteBuilder(config: config, outputDirectory: outputDirectory)
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do throws(BuildError) {
                    continuation.resume(returning: .of(.success(try builder.build()), config: config))
                } catch {
                    continuation.resume(returning: .of(.failure(error), config: config))
                }
            }
        }
    }
}
