import Foundation
import Testing
@testable import EdgeServer

/// serving.md §3 items 20–23 and the other path rules: traversal, symlinks, dotfiles, sidecars,
/// directories. Every case over a real socket.
@Suite(.timeLimit(.minutes(1)))
struct PathSafetyTests {
    /// A site in `<parent>/site` with a secret file next to it in `<parent>/secret.txt`.
    static func makeSite(_ label: String = #function) throws -> (parent: TestSite, site: TestSite) {
        let parent = try TestSite(label)
        try parent.write("secret.txt", "TOP SECRET")
        try parent.write("site/bundles/a.0123456789abcdef.bundle", "bundle")
        try parent.write("site/index.html", "<p>home</p>")
        try parent.write("site/docs/index.html", "<p>docs</p>")
        try parent.write("site/.env", "SECRET=1")
        try parent.write("site/.git/config", "[core]")
        try FileManager.default.createDirectory(atPath: parent.file("site/empty"), withIntermediateDirectories: true)
        return (parent, TestSite(existing: parent.file("site")))
    }

    @Test(arguments: [
        "/../secret.txt",
        "/bundles/../../secret.txt",
        "/bundles/%2e%2e/%2e%2e/secret.txt",
        "/bundles/..%2f..%2fsecret.txt",
        "/%2e%2e%2fsecret.txt",
        "/..\\secret.txt",
        "/x%00.bundle",
        "/bundles/a.0123456789abcdef.bundle%00.html",
    ])
    func traversalNeverReturnsFileBytes(target: String) async throws {
        let (parent, site) = try Self.makeSite()
        defer { parent.remove() }
        try await withServer(site: site) { server in
            let response = try await TestConnection.with(port: server.port) { try await $0.exchange("GET", target) }
            #expect(response.status == 400 || response.status == 404, "\(target): \(response.status)")
            #expect(!response.text.contains("TOP SECRET"))
            #expect(response["Cache-Control"] == "no-store")
        }
    }

    @Test func item22SymlinksLeavingTheRootAreHiddenOthersServed() async throws {
        let (parent, site) = try Self.makeSite()
        defer { parent.remove() }
        try site.symlink("escape.txt", to: parent.file("secret.txt"))
        try site.symlink("escape-dir", to: parent.path)
        try site.symlink("hostname", to: "/etc/hostname")
        try site.symlink("home.html", to: "index.html")
        try site.symlink("documents", to: "docs")
        try await withServer(site: site) { server in
            try await TestConnection.with(port: server.port) { connection in
                for path in ["/escape.txt", "/escape-dir/secret.txt", "/hostname"] {
                    let response = try await connection.exchange("GET", path)
                    #expect(response.status == 404, "\(path)")
                    #expect(!response.text.contains("TOP SECRET"))
                }
                #expect(try await connection.exchange("GET", "/home.html").text == "<p>home</p>")
                #expect(try await connection.exchange("GET", "/documents/").text == "<p>docs</p>")
            }
        }
    }

    @Test func items20And23DirectoriesDotfilesAndSidecars() async throws {
        let (parent, site) = try Self.makeSite()
        defer { parent.remove() }
        try site.writeWithSidecar("bundles/b.0123456789abcdef.bundle", sampleBytes(500))
        try await withServer(site: site) { server in
            try await TestConnection.with(port: server.port) { connection in
                for path in ["/bundles", "/bundles/", "/empty/", "/.env", "/.git/config", "/docs/.hidden", "/bundles/b.0123456789abcdef.bundle.gz",
                    "/index.html/", "/bundles/a.0123456789abcdef.bundle/"]
                {
                    let response = try await connection.exchange("GET", path, ["Accept-Encoding: gzip"])
                    #expect(response.status == 404, "\(path)")
                    #expect(response["Content-Encoding"] == nil)
                }
                #expect(try await connection.exchange("GET", "/").text == "<p>home</p>")
                #expect(try await connection.exchange("GET", "/docs").text == "<p>docs</p>")
                #expect(try await connection.exchange("GET", "/docs/")["Content-Type"] == "text/html; charset=utf-8")
            }
        }
    }

    @Test func gzipOnlyFilesAreDecompressedForIdentityClients() async throws {
        let site = try TestSite()
        defer { site.remove() }
        let bytes = sampleBytes(3_000)
        try site.writeGzip("bundles/c.0123456789abcdef.bundle", bytes)
        try site.write("bundles/broken.bundle.gz", "not gzip")
        try await withServer(site: site) { server in
            try await TestConnection.with(port: server.port) { connection in
                let identity = try await connection.exchange("GET", "/bundles/c.0123456789abcdef.bundle")
                #expect(identity.status == 200)
                #expect(identity.body == bytes)
                #expect(identity["Content-Encoding"] == nil)
                #expect(identity["ETag"] == "\"\(ServingChecklistTests.sha256(bytes))\"")
                let gzip = try await connection.exchange("GET", "/bundles/c.0123456789abcdef.bundle", ["Accept-Encoding: gzip"])
                #expect(gzip["Content-Encoding"] == "gzip")
                #expect(gzip["ETag"] == "\"\(ServingChecklistTests.sha256(bytes))-gz\"")
                let broken = try await connection.exchange("GET", "/bundles/broken.bundle")
                #expect(broken.status == 500)
                #expect(broken.text.contains("not valid gzip"))
            }
        }
    }

    @Test func aRebuiltFileIsServedWithItsNewValidators() async throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.write("bundles/manifest.json", "{\"v\":1}")
        try await withServer(site: site) { server in
            try await TestConnection.with(port: server.port) { connection in
                let first = try await connection.exchange("GET", "/bundles/manifest.json")
                #expect(try await connection.exchange("GET", "/bundles/manifest.json")["ETag"] == first["ETag"])
                // Publishing writes a new file and renames it over the old one.
                try site.write("bundles/manifest.json.tmp", "{\"v\":2}")
                try FileManager.default.removeItem(atPath: site.file("bundles/manifest.json"))
                try FileManager.default.moveItem(atPath: site.file("bundles/manifest.json.tmp"), toPath: site.file("bundles/manifest.json"))
                let second = try await connection.exchange("GET", "/bundles/manifest.json")
                #expect(second.text == "{\"v\":2}")
                #expect(second["ETag"] != first["ETag"])
                // A .gz written later is offered to clients that take gzip, decompressing to the file.
                #expect(try await connection.exchange("GET", "/bundles/manifest.json", ["Accept-Encoding: gzip"])["Content-Encoding"] == nil)
                try site.writeGzip("bundles/manifest.json", Array("{\"v\":2}".utf8))
                let gzip = try await connection.exchange("GET", "/bundles/manifest.json", ["Accept-Encoding: gzip"])
                #expect(gzip["Content-Encoding"] == "gzip")
                #expect(gzip["ETag"] == (second["ETag"].map { String($0.dropLast()) + "-gz\"" }))
                try FileManager.default.removeItem(atPath: site.file("bundles/manifest.json"))
                try FileManager.default.removeItem(atPath: site.file("bundles/manifest.json.gz"))
                #expect(try await connection.exchange("GET", "/bundles/manifest.json").status == 404)
            }
        }
    }
}

extension TestSite {
    /// A view of a directory another ``TestSite`` owns (removed with it).
    init(existing path: String) {
        self.path = path
    }
}
