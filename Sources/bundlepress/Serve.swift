import ArgumentParser
import Authoring
import Dispatch
import EdgeServer
import Foundation
import PipelineLanguage
import Publishing
import SitePolicy

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the site locally with the headers and caching behaviour it gets on a CDN.",
        discussion: """
            Serves <dir> over HTTP/1.1: bundles as identity or from their .gz files \
            (Content-Encoding: gzip, chosen by Accept-Encoding), strong ETags per representation, \
            Last-Modified, Vary: Accept-Encoding, the headers: policy of pipeline.yml over the \
            built-in cache defaults, CORS, and an access log (Common Log Format) on standard error. \
            Prints one line, "Serving <dir> at http://<host>:<port>/", once it is listening. \
            SIGINT or SIGTERM stop it gracefully (requests in flight are answered); a second \
            signal stops it at once. The config (--config) gives the site directory (output:) \
            and the headers: policy; with --dir it is optional.

            With --watch it builds the site first, then again whenever pipeline.yml or a file \
            its inputs read changes (polled, one build at a time, through the same lock and \
            atomic publish as build), and tells open explorer pages to reload (server-sent \
            events at /_bundlepress/events). A failed build keeps the last good site served and \
            shows the error, with its file:line:column, in the terminal and on the page.

            With --upstream URL the edge is a caching reverse proxy in front of that HTTP origin \
            instead (the Firebase Hosting emulator, a function that builds bundles, a staging \
            server): every method and header is forwarded (hop-by-hop fields removed, Via added), \
            cacheable responses are stored and served as a shared cache (RFC 9111), and an \
            unreachable upstream gives 502, a silent one 504, each with a line on standard error.

            Reference: docs/serve.md (every header, the limits, --watch, --upstream), \
            docs/deploying.md (the same policy on production hosts).

            Examples:
              bundlepress serve
              bundlepress serve --watch
              bundlepress serve --dir public --port 5000 --quiet
              bundlepress serve --upstream http://127.0.0.1:5000 --port 8081
            """
    )

    @OptionGroup var config: ConfigOption

    @Option(help: "The site directory (default: the config's output:).")
    var dir: String?

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one (printed in the Serving line).")
    var port = 8080

    @Option(help: "Forward to this HTTP origin (http://host[:port][/prefix]) instead of serving a site directory.")
    var upstream: String?

    @Option(
        name: .customLong("upstream-host"),
        help: ArgumentHelp(
            "With --upstream: the one host name the site answers for, sent upstream as X-Forwarded-Host whatever Host a client sends (the cache then ignores Host). Without it, the client's Host is forwarded and is part of the cache key.",
            valueName: "name"))
    var upstreamHost: String?

    @Flag(
        name: .customLong("cache-set-cookie"),
        help: "With --upstream: store responses that carry Set-Cookie (by default they are passed on but not stored: the cookie is one client's).")
    var cacheSetCookie = false

    @Option(
        name: .customLong("max-body-memory"),
        help: ArgumentHelp(
            "The memory, in MiB, for request and upstream response bodies in flight and the edge's stored responses together (default 256); past it, new work gets 503 with Retry-After.",
            valueName: "MiB"))
    var maxBodyMemory = MemoryBudget.defaultLimit >> 20

    @Flag(name: .customLong("no-edge"), help: "Serve as a bare origin, without the simulated CDN edge cache in front.")
    var noEdge = false

    @Flag(name: .shortAndLong, help: "Build, then rebuild whenever pipeline.yml or an input changes, and reload open explorer pages.")
    var watch = false

    @Flag(name: .shortAndLong, help: "No access log.")
    var quiet = false

    func validate() throws {
        guard maxBodyMemory > 0 else {
            throw ValidationError("--max-body-memory must be a positive number of MiB, found \(maxBodyMemory)")
        }
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535 (0 picks a free port), found \(port)")
        }
        if let upstream {
            guard !watch else {
                throw ValidationError("--watch rebuilds a site from pipeline.yml; --upstream serves another origin")
            }
            guard !config.isGiven, dir == nil else {
                throw ValidationError("--upstream serves another origin: it takes neither --config nor --dir")
            }
            do {
                _ = try UpstreamAddress(parsing: upstream)
            } catch {
                throw ValidationError(error.description)
            }
        } else if upstreamHost != nil || cacheSetCookie {
            throw ValidationError("--upstream-host and --cache-set-cookie apply to --upstream")
        }
        if let upstreamHost, HostField.normalised(upstreamHost)?.isEmpty != false {
            throw ValidationError("--upstream-host must be a host name with an optional port, such as www.example.com, found \"\(upstreamHost)\"")
        }
    }

    func run() async throws {
        var terminal = Terminal()
        let budget = MemoryBudget(limit: maxBodyMemory << 20)
        if let upstream {
            let address = try UpstreamAddress(parsing: upstream)
            let upstreamConfiguration = UpstreamConfiguration(
                address: address, forwardedHost: upstreamHost.flatMap(HostField.normalised), memoryBudget: budget, failureLog: Self.logLine)
            let origin = UpstreamOrigin(configuration: upstreamConfiguration)
            let edge = EdgeConfiguration(inFrontOf: upstreamConfiguration, storesSetCookie: cacheSetCookie)
            let chain = ResponderChain.serve(origin: origin, edge: noEdge ? nil : edge)
            // Bodies go upstream (PUT, POST): allow more than a static site needs.
            let limits = ConnectionLimits(maxRequestBodyBytes: Self.upstreamRequestBodyBytes)
            try await serve(chain.responder, limits: limits, budget: budget, describing: address.description, terminal: &terminal)
            await origin.shutdown()
            return
        }
        // The explorer from the binary, for the paths the site has no file for.
        defer { try? FileManager.default.removeItem(atPath: Self.explorerDirectory) }
        if watch {
            HeapTuning.applyForReadingExports()
            try await serveWatching(budget: budget, terminal: &terminal)
            return
        }
        let (directory, policy) = try site(terminal: &terminal)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            terminal.error("the site directory \(directory) does not exist; run bundlepress build first, or pass --dir")
            throw ExitStatus.noInput
        }
        try await serve(
            siteChain(directory, policy: policy, budget: budget).responder, limits: ConnectionLimits(), budget: budget, describing: directory,
            terminal: &terminal)
    }

    /// The chain that serves a site directory with `policy` (the config's), its edge storing
    /// within `budget`. The stable URLs of the extension's spec bundles get their rules, as in the
    /// header files, from the manifest the site holds now: a chain is made again when it changes.
    private func siteChain(_ directory: String, policy: HeaderPolicy, budget: MemoryBudget) -> ResponderChain {
        // A new manifest on disk means "the site was redeployed": the edge purges everything.
        let edge =
            noEdge ? nil : EdgeConfiguration(watchedFile: (directory as NSString).appendingPathComponent("bundles/manifest.json"), memoryBudget: budget)
        let explorer = Self.explorerPage ? Self.explorerDirectory : nil
        let origin = SiteOrigin(directory: directory, policy: policy.withStableBundleURLs(ofSiteIn: directory), fallbackDirectory: explorer)
        return ResponderChain.serve(origin: origin, edge: edge)
    }

    /// This process's folder in the temporary directory for the explorer page from the binary.
    private static let explorerDirectory = (NSTemporaryDirectory() as NSString).appendingPathComponent("bundlepress-explorer-\(getpid())")

    /// Where the explorer from the binary is always found, even on a site with an `index.html`
    /// of its own.
    static let explorerPath = "_bundlepress/explorer"

    /// Writes the explorer page (``SiteAssets``) into ``explorerDirectory``, once, at its root
    /// and in ``explorerPath``; false when it cannot (the site is served without it).
    private static let explorerPage: Bool = {
        do {
            for file in SiteAssets.outputFiles(explorer: "") + SiteAssets.outputFiles(explorer: explorerPath) where !file.path.hasPrefix("bundles/") {
                let path = (explorerDirectory as NSString).appendingPathComponent(file.path)
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(file.bytes).write(to: URL(fileURLWithPath: path))
            }
            return true
        } catch {
            return false
        }
    }()

    /// `--watch`: the first build, then the server with live reload in front of the site while
    /// the watcher rebuilds; a rebuild that publishes or changes the header policy replaces the
    /// site's chain.
    private func serveWatching(budget: MemoryBudget, terminal: inout Terminal) async throws {
        let file = config.file
        let pipeline = try PipelineConfig.loadForCommand(file, terminal: &terminal)
        let directory = dir ?? pipeline.outputDirectory
        let events = SiteEventStream(run: String(UInt64(Date().timeIntervalSince1970 * 1_000), radix: 36))
        let live = LiveReloadResponder(wrapping: siteChain(directory, policy: pipeline.headerPolicy, budget: budget).responder, events: events)
        let (firstBuild, firstBuildDone) = AsyncStream.makeStream(of: Void.self)
        // Into the directory being served, even if `output:` changes while watching.
        let watcher = SiteWatcher(configFile: file, outputDirectory: directory)
        let watching = Task {
            var terminal = Terminal()
            var policy = pipeline.headerPolicy
            await watcher.run { event in
                switch event {
                case .building(let changed) where !changed.isEmpty:
                    terminal.note("\(Self.describe(changed)) changed: rebuilding")
                case .building:
                    terminal.note("building \(file)")
                case .built(let report, let config):
                    FileHandle.standardOutput.write(Data((report.summary(changedOnly: true) + "\n").utf8))
                    for warning in report.warnings { terminal.warning(warning) }
                    // A fresh chain (an empty edge cache) serves the new site at once: the
                    // edge itself notices a new manifest only within a second, and pages reload
                    // as soon as they hear of the build. (The stable URLs' rules come from the
                    // manifest: they change only with it.)
                    if report.manifestChanged || config.headerPolicy != policy {
                        policy = config.headerPolicy
                        live.replaceSite(with: siteChain(directory, policy: policy, budget: budget).responder)
                    }
                    events.send(.rebuilt(summary: report.totals))
                    firstBuildDone.yield()
                case .otherBuildRunning(let holder):
                    // Not a failure: the other build publishes into the directory served, and
                    // the edge purges itself when the manifest changes.
                    terminal.note("another build is running\(holder.map { " (\($0))" } ?? ""); serving what it publishes; watching for changes")
                    firstBuildDone.yield()
                case .failed(let message):
                    terminal.error(message)
                    terminal.note("still serving the last good site; watching for changes")
                    events.send(.buildFailed(message: message))
                    firstBuildDone.yield()
                }
            }
        }
        defer { watching.cancel() }
        for await _ in firstBuild { break }
        try await serve(live, limits: ConnectionLimits(), budget: budget, describing: directory, terminal: &terminal)
    }

    /// `pipeline.yml`, `a.json and b.json`, `a.json and 3 more files`.
    private static func describe(_ files: [String]) -> String {
        switch files.count {
        case 1: files[0]
        case 2: "\(files[0]) and \(files[1])"
        default: "\(files[0]) and \(files.count - 1) more files"
        }
    }

    /// The largest request body forwarded to an upstream.
    private static let upstreamRequestBodyBytes = 16 << 20

    /// Standard error, one line per call.
    private static let logLine: @Sendable (String) -> Void = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }

    /// Listens, prints the Serving line, and answers with `responder` until a signal stops the server.
    private func serve(
        _ responder: some Responder, limits: ConnectionLimits, budget: MemoryBudget, describing origin: String, terminal: inout Terminal
    ) async throws {
        let configuration = ServerConfiguration(host: host, port: port, limits: limits, accessLog: quiet ? nil : .standardError, memoryBudget: budget)
        let server: EdgeServer
        do {
            server = try await EdgeServer.start(configuration: configuration, responder: responder)
        } catch {
            terminal.error(error.description)
            throw ExitStatus.unavailable
        }
        if server.connectionCap < configuration.limits.maxConnections {
            terminal.warning(
                "the open-file limit (ulimit -n) holds \(server.connectionCap) connections at once, not "
                    + "\(configuration.limits.maxConnections); more get 503. Raise the hard limit (ulimit -Hn, or "
                    + "LimitNOFILE= for a systemd service) to hold more.")
        }
        let signals = Self.shutDownOnSignals(server)
        defer { signals.forEach { $0.cancel() } }
        let urlHost = host.contains(":") ? "[\(host)]" : host
        FileHandle.standardOutput.write(Data("Serving \(origin) at http://\(urlHost):\(server.port)/\n".utf8))
        await server.run()
    }

    /// The site directory and header policy: from the config, with `--dir` overriding its
    /// `output:`; with `--dir` and no config file, the built-in policy.
    private func site(terminal: inout Terminal) throws -> (String, HeaderPolicy) {
        let file = config.file
        if !config.isGiven, let dir, !FileManager.default.fileExists(atPath: file) {
            return (dir, .default)
        }
        let pipeline = try PipelineConfig.loadForCommand(file, terminal: &terminal)
        return (dir ?? pipeline.outputDirectory, pipeline.headerPolicy)
    }

    /// The first SIGINT or SIGTERM starts a graceful shutdown and restores the default action,
    /// so a second one ends the process at once.
    private static func shutDownOnSignals(_ server: EdgeServer) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                signal(SIGINT, SIG_DFL)
                signal(SIGTERM, SIG_DFL)
                server.shutdown()
            }
            source.resume()
            return source
        }
    }
}
