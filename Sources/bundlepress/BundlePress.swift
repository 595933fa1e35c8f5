import ArgumentParser
import Publishing

@main
struct BundlePress: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundlepress",
        abstract: "Publish Cloud Firestore data bundles as static files.",
        discussion: """
            Reads Firestore document exports, runs the named queries configured in pipeline.yml, \
            and writes content-hashed bundle files, their gzip copies and a manifest into a static \
            site directory any CDN can serve.

            Exit status: 0 success · 1 verification found problems · 3 a bundle is over its \
            size budget · 4 a bundle publishes a sensitive-looking field (exposure.mode: fail) · \
            64 usage error · 65 invalid input data · 66 input file missing · 69 cannot listen \
            (serve) or read the previous state (build) · 70 internal error (init wrote a config \
            that does not load) · 73 init would replace a config (--force) · 74 I/O error while \
            writing · 75 another build holds the output's lock · 78 configuration error.

            Documentation (in the source repository, docs/): cli.md every command and exit \
            status · pipeline.md the config · inputs.md export formats · serve.md local serving \
            and --watch · deploying.md hosts · cron.md schedules · returning-clients.md.
            """,
        version: Version.current,
        subcommands: [Init.self, Build.self, Serve.self, Inspect.self, Verify.self, QueryCommand.self, Convert.self, Schema.self]
    )
}
