// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "BundlePress",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "bundlepress", targets: ["bundlepress"]),
        .library(name: "FirestoreModel", targets: ["FirestoreModel"]),
        .library(name: "QueryEngine", targets: ["QueryEngine"]),
        .library(name: "BundleFormat", targets: ["BundleFormat"]),
        .library(name: "PipelineLanguage", targets: ["PipelineLanguage"]),
        .library(name: "Hosting", targets: ["Hosting"]),
        .library(name: "Publishing", targets: ["Publishing"]),
        .library(name: "Authoring", targets: ["Authoring"]),
        .library(name: "SitePolicy", targets: ["SitePolicy"]),
        .library(name: "EdgeServer", targets: ["EdgeServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["libz-dev"]), .brew(["zlib"])]
        ),
        // libdeflate, the fast path of the .gz copies (about 2.5× zlib's speed at the same size),
        // found at run time: linked into the release binary, else libdeflate.so.0 when the system
        // has it, else zlib. A source build needs no libdeflate header or library.
        .target(name: "CLibdeflate", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // Linux's sync_file_range(2), which Swift's Glibc module leaves out: a large file's pages
        // go to disk while it is written, so its fsync finds little left to do.
        .systemLibrary(name: "CWriteback"),
        .target(name: "JSONCore"),
        .target(name: "FirestoreModel", dependencies: ["JSONCore"]),
        // The C library (re-exported: no `#if canImport(Glibc)` preamble elsewhere) and the file
        // stamps built on `stat`; below every target that calls the C library.
        .target(name: "SystemSupport"),
        .target(name: "ParallelWork", dependencies: ["SystemSupport"]),
        .target(name: "ExportReader", dependencies: ["FirestoreModel", "JSONCore", "ParallelWork", "SystemSupport"]),
        .target(name: "QueryEngine", dependencies: ["FirestoreModel", "JSONCore", "ParallelWork"]),
        // gzip streams: one thread over zlib, parallel over libdeflate (zlib where the process has
        // none), and gunzip, for the .gz copies (BundleFormat, Publishing) and their serving (EdgeServer).
        .target(name: "Gzip", dependencies: ["CZlib", "CLibdeflate", "ParallelWork"]),
        .target(name: "BundleFormat", dependencies: ["FirestoreModel", "JSONCore", "Gzip", "ParallelWork"]),
        .target(name: "SitePolicy", dependencies: ["SystemSupport"]),
        // pipeline.yml: the config language (YAML → PipelineConfig, the query language, fan-out,
        // hints, headers, budgets, retention), validated once and passed down.
        .target(
            name: "PipelineLanguage",
            dependencies: [
                "FirestoreModel", "JSONCore", "ExportReader", "QueryEngine", "BundleFormat", "SitePolicy",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // Production header files (_headers, the firebase.json fragment, the nginx include)
        // rendered from a SitePolicy.HeaderPolicy.
        .target(name: "Hosting", dependencies: ["SitePolicy", "JSONCore"]),
        .target(
            name: "Publishing",
            dependencies: [
                "FirestoreModel", "JSONCore", "ExportReader", "QueryEngine", "BundleFormat", "SitePolicy",
                "PipelineLanguage", "Hosting", "ParallelWork", "SystemSupport", "CWriteback", "Gzip",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            plugins: ["EmbedSiteAssets"]
        ),
        // Authoring help: `bundlepress init` (a survey of the user's exports → a starter pipeline.yml).
        .target(name: "Authoring", dependencies: ["ExportReader", "FirestoreModel", "JSONCore", "PipelineLanguage", "Publishing", "QueryEngine", "SystemSupport"]),
        // Compiles site/*.html|js|css into Publishing (SiteAssets), so the binary carries them.
        .executableTarget(name: "SiteAssetEmbedder"),
        .plugin(name: "EmbedSiteAssets", capability: .buildTool(), dependencies: ["SiteAssetEmbedder"]),
        .target(
            name: "EdgeServer",
            dependencies: [
                "SitePolicy", "Gzip", "SystemSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // libFuzzer target for the managed-export reader (docs/development.md); a replayer otherwise.
        .executableTarget(name: "ExportReaderFuzzer", dependencies: ["ExportReader", "FirestoreModel"]),
        .executableTarget(
            name: "bundlepress",
            dependencies: [
                "Publishing", "Authoring", "PipelineLanguage", "BundleFormat", "QueryEngine", "FirestoreModel", "JSONCore", "ExportReader", "SitePolicy", "EdgeServer", "SystemSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "JSONCoreTests", dependencies: ["JSONCore"]),
        .testTarget(name: "ParallelWorkTests", dependencies: ["ParallelWork"]),
        .testTarget(name: "FirestoreModelTests", dependencies: ["FirestoreModel", "JSONCore"]),
        .testTarget(name: "ExportReaderTests", dependencies: ["ExportReader", "FirestoreModel", "JSONCore"], resources: [.copy("Fixtures")]),
        .testTarget(name: "QueryEngineTests", dependencies: ["QueryEngine", "FirestoreModel", "JSONCore"], resources: [.copy("Fixtures")]),
        .testTarget(name: "GzipTests", dependencies: ["Gzip", "CZlib"]),
        .testTarget(name: "BundleFormatTests", dependencies: ["BundleFormat", "Gzip", "FirestoreModel", "JSONCore"], resources: [.copy("Fixtures")]),
        .testTarget(name: "PipelineLanguageTests", dependencies: ["PipelineLanguage", "SitePolicy", "QueryEngine", "FirestoreModel", "JSONCore"]),
        .testTarget(
            name: "PublishingTests",
            dependencies: [
                "Publishing", "PipelineLanguage", "Hosting", "SitePolicy", "BundleFormat", "Gzip", "ExportReader", "FirestoreModel", "JSONCore", "QueryEngine", "SystemSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "SitePolicyTests", dependencies: ["SitePolicy"]),
        // Hosting's own pieces (ByteSet, GlobToken, the nginx snippet, checked by `nginx -t`);
        // what each host makes of all the files is in PublishingTests (HostingFilesTests).
        .testTarget(name: "HostingTests", dependencies: ["Hosting", "SitePolicy"]),
        .testTarget(name: "AuthoringTests", dependencies: ["Authoring", "ExportReader", "FirestoreModel", "PipelineLanguage", "Publishing", "QueryEngine"]),
        .testTarget(
            name: "EdgeServerTests",
            dependencies: [
                "EdgeServer", "SitePolicy", "Gzip", "SystemSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "Publishing", "Gzip", "SystemSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ]
)
