import Hosting
import PipelineLanguage

extension HostingFiles {
    /// The header files of a build of `config` whose manifest gives `stableURLs`: the config's
    /// header policy, the stable URLs' rules first, narrowed to what the build writes
    /// (``SitePolicy/HeaderPolicy/forProductionHosts(explorer:)``), so that a site generator's
    /// files in the same output keep their own headers.
    init(building config: PipelineConfig, stableURLs: StableBundleURLs) {
        self.init(policy: stableURLs.policy(over: config.headerPolicy).forProductionHosts(explorer: config.explorer), publicDirectory: config.output)
    }
}
