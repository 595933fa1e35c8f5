/// The version of BundlePress: the one place it is written.
///
/// `bundlepress --version` prints it, and `scripts/release.sh` reads it back from the built binary
/// to name the release tarball and to stamp the npm package, so a release cannot carry two
/// different versions.
enum Version {
    static let current = "0.1.0"
}
