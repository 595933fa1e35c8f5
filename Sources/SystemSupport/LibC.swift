// The C library, Glibc on Linux (Musl where Swift's static Linux SDK builds), and Darwin on
// Apple platforms, for every module that imports SystemSupport: `stat`, `open`, `fsync`,
// `rename` and the like without a preamble of its own.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#endif
