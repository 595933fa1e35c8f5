extension HeaderPolicy {
    /// This policy as the header files for production hosts carry it, for a build that writes
    /// ``bundlesDirectory`` and, with `explorer`, the explorer page into that folder of the output
    /// (`/`-separated plain names, as pipeline.yml's `explorer:` holds it; `""` for the output
    /// itself).
    ///
    /// The site's rules and CORS stay as they are: the site asked for them. The built-in rules
    /// and ``commonFields`` keep to the folders the build writes, so that the pages and assets a
    /// site generator writes into the same output keep the headers the site gives them:
    ///
    /// | built-in rule | for production hosts |
    /// |---|---|
    /// | those of the bundles, snapshots and manifest | as they are |
    /// | `*.html` | `/<explorer>/*.html` (and its directory URL `/<explorer>/`), only with `explorer` |
    /// | `/**` | `/<explorer>/**` with `explorer`, then `/bundles/**` |
    ///
    /// With the explorer at the output's root the build writes into every folder: the policy is
    /// this one. `bundlepress serve` answers with this policy whole, since it serves the whole
    /// folder.
    public func forProductionHosts(explorer: String?) -> HeaderPolicy {
        guard explorer != "" else { return self }
        let explorerFolder = explorer.map { Self.pattern("/\($0)/**") }
        var narrowed = self
        narrowed.builtInRules = Self.bundleRules
            + (explorer.map { [Self.cacheControl(Self.pattern("/\($0)/*.html"), Self.htmlCacheControl)] } ?? [])
            + (explorerFolder.map { [Self.cacheControl($0, Self.otherCacheControl)] } ?? [])
            + [Self.cacheControl(Self.bundlesDirectoryPattern, Self.otherCacheControl)]
        narrowed.commonFieldPatterns = (explorerFolder.map { [$0] } ?? []) + [Self.bundlesDirectoryPattern]
        return narrowed
    }
}
