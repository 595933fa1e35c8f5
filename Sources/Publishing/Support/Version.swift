/// The version of BundlePress: the one place it is written.
///
/// `bundlepress --version` prints it, a sharded build's partials carry it, and
/// `scripts/release.sh` reads it back from the built binary to name the release tarball and to
/// stamp the npm package, so a release cannot carry two different versions.
public enum Version {
    public static let current = "0.1.0"
}
