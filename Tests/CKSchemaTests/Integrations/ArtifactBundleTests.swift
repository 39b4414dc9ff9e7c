import CKSchemaModel
import Foundation
import Testing

/// `scripts/artifact-bundle.sh`, the release's SwiftPM artifact bundle for the binary plugins
/// (docs/integrations.md): made from the ckschema these tests run, once per test run, and
/// shared with `PluginTests`, whose consumer builds through it.
enum ArtifactBundle {
    /// The flag of this machine's variant, for the debug binary the tests run.
    static let hostFlag: String? = {
        #if os(Linux) && arch(x86_64)
        return "--linux-x86_64"
        #elseif os(Linux) && arch(arm64)
        return "--linux-aarch64"
        #else
        return nil // macOS's variant is a universal binary: scripts/build-release.sh makes one
        #endif
    }()
    static let hostVariant = hostFlag.map { "ckschema-\(CKSchemaVersion.current)-\($0.dropFirst(2))" } ?? ""
    static let hostTriple = hostFlag == "--linux-aarch64" ? "aarch64-unknown-linux-gnu" : "x86_64-unknown-linux-gnu"
    static let url = "https://github.com/ckschema/ckschema/releases/download/\(CKSchemaVersion.current)/ckschema.artifactbundle.zip"
    static let disabled = "the bundle of the debug binary the tests run is a Linux variant; on macOS it takes a universal binary (scripts/build-release.sh)"

    /// One folder per checkout, outside it (a run of the tests replaces it).
    static let out = NSTemporaryDirectory() + "ckschema-artifact-bundle-" + String(UInt32(truncatingIfNeeded: Paths.root.utf8.reduce(5381) { ($0 &* 33) &+ Int($1) }), radix: 16)

    /// The script run once on this machine's binary, with the release URL.
    static let made: CLIResult = {
        guard let flag = hostFlag, let bash = Tool.find("bash") else { return CLIResult(stdout: "", stderr: "no bash, or no Linux variant here", code: -1) }
        try? FileManager.default.removeItem(atPath: out)
        return (try? Tool.run(bash, [Paths.root + "/scripts/artifact-bundle.sh", out, flag, Paths.binary, "--release-url", url], cwd: Paths.root))
            ?? CLIResult(stdout: "", stderr: "scripts/artifact-bundle.sh did not run", code: -1)
    }()

    static func run(_ arguments: [String]) throws -> CLIResult {
        let bash = try #require(Tool.find("bash"))
        return try Tool.run(bash, [Paths.root + "/scripts/artifact-bundle.sh"] + arguments, cwd: Paths.root)
    }

    /// A file that begins as an executable of another machine does (what the script checks).
    static func fake(_ path: String, _ header: [UInt8]) throws {
        try Data(header + Array("not really a program\n".utf8)).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    }
    /// ELF, 64-bit, little-endian, ET_DYN, then e_machine: 0x3e x86_64, 0xb7 aarch64.
    static func elf(machine: UInt8) -> [UInt8] { [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0] + Array(repeating: 0, count: 8) + [3, 0, machine, 0] }
    /// A Mach-O universal ("fat") binary with two architectures.
    static let fat: [UInt8] = [0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2] + Array(repeating: 0, count: 12)
}

@Suite(.serialized) struct ArtifactBundleTests {
    static let canUnzip = Tool.find("unzip") != nil

    /// The bundle of this machine's binary: info.json names exactly the binaries the zip holds
    /// (schemaVersion 1.0, one executable artifact `ckschema`), the missing variants are named,
    /// the checksum is the zip's SHA-256, and the binary in the zip runs.
    @Test(.enabled(if: ArtifactBundle.hostFlag != nil, "\(ArtifactBundle.disabled)"), .enabled(if: canUnzip, "no unzip on PATH"))
    func theBundleNamesExactlyTheBinariesItHolds() throws {
        let made = ArtifactBundle.made
        let v = CKSchemaVersion.current
        let out = ArtifactBundle.out
        let zip = out + "/ckschema.artifactbundle.zip"
        #expect(made.code == 0, "\(made.stdout)\(made.stderr)")
        let checksum = try read(zip + ".checksum").trimmingCharacters(in: .whitespacesAndNewlines)
        let missing = [("--linux-x86_64", "linux-x86_64", "x86_64-unknown-linux-gnu"), ("--linux-aarch64", "linux-aarch64", "aarch64-unknown-linux-gnu"),
                       ("--macos-universal", "macos-universal", "arm64-apple-macosx x86_64-apple-macosx")]
            .filter { $0.0 != ArtifactBundle.hostFlag }
            .map { "missing: ckschema-\(v)-\($0.1): no binary given (\($0.0) PATH); the bundle has no variant for \($0.2)\n" }.joined()
        #expect(made.stdout == """
            variant: \(ArtifactBundle.hostVariant)/bin/ckschema (\(ArtifactBundle.hostTriple))
            \(zip)
            checksum: \(checksum)
            \(out)/ckschema-plugins: binaryTarget \(ArtifactBundle.url), checksum \(checksum)

            """)
        #expect(made.stderr == missing + "warning: the bundle has 1 of 3 variants; 2 missing (above): give them to publish it\n")

        let unzip = try #require(Tool.find("unzip"))
        let list = try Tool.run(unzip, ["-Z1", zip])
        #expect(list.code == 0, "\(list.stderr)")
        let bin = "ckschema.artifactbundle/\(ArtifactBundle.hostVariant)/bin/ckschema"
        #expect(list.stdout.split(separator: "\n").map(String.init).sorted() == [
            "ckschema.artifactbundle/", "ckschema.artifactbundle/\(ArtifactBundle.hostVariant)/",
            "ckschema.artifactbundle/\(ArtifactBundle.hostVariant)/bin/", bin, "ckschema.artifactbundle/info.json",
        ].sorted())
        let json = try Tool.run(unzip, ["-p", zip, "ckschema.artifactbundle/info.json"])
        let info = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(info["schemaVersion"] as? String == "1.0")
        let artifacts = try #require(info["artifacts"] as? [String: Any])
        #expect(Array(artifacts.keys) == ["ckschema"])
        let artifact = try #require(artifacts["ckschema"] as? [String: Any])
        #expect(artifact["type"] as? String == "executable")
        #expect(artifact["version"] as? String == v)
        let variants = try #require(artifact["variants"] as? [[String: Any]])
        #expect(variants.count == 1)
        // Every path info.json names is a file in the zip, an executable one.
        for variant in variants {
            let path = try #require(variant["path"] as? String)
            #expect(list.stdout.split(separator: "\n").contains(Substring("ckschema.artifactbundle/" + path)), "\(path) is not in the zip")
            let mode = try Tool.run(unzip, ["-Z", zip, "ckschema.artifactbundle/" + path])
            #expect(mode.stdout.hasPrefix("-rwxr-xr-x"), "\(mode.stdout)")
        }
        #expect(variants.first?["supportedTriples"] as? [String] == [ArtifactBundle.hostTriple])

        // The zip's binary is the one given, and it runs.
        let dir = try makeTempDir("ckschema-bundle-unzip")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try Tool.run(unzip, ["-q", zip, "-d", dir]).code == 0)
        #expect(FileManager.default.contentsEqual(atPath: dir + "/" + bin, andPath: Paths.binary))
        let version = try Tool.run(dir + "/" + bin, ["--version"])
        #expect(version.code == 0 && version.stdout.contains(v), "\(version.stdout)\(version.stderr)")

        // The checksum SwiftPM checks: the zip's SHA-256.
        if let sha = Tool.find("sha256sum") {
            #expect(try Tool.run(sha, [zip]).stdout.hasPrefix(checksum + " "))
        }
        #expect(checksum.count == 64 && checksum.allSatisfy(\.isHexDigit))
    }

    /// The package to publish: BinaryPlugins/ with the plugin sources as files (not links) and
    /// its binaryTarget set to the release's URL and the bundle's checksum.
    @Test(.enabled(if: ArtifactBundle.hostFlag != nil, "\(ArtifactBundle.disabled)"))
    func thePublishedPluginPackageNamesTheBundle() throws {
        #expect(ArtifactBundle.made.code == 0, "\(ArtifactBundle.made.stderr)")
        let out = ArtifactBundle.out
        let checksum = try read(out + "/ckschema.artifactbundle.zip.checksum").trimmingCharacters(in: .whitespacesAndNewlines)
        let manifest = try read(out + "/ckschema-plugins/Package.swift")
        #expect(manifest.contains("    url: \"\(ArtifactBundle.url)\",\n    checksum: \"\(checksum)\"\n)"), "\(manifest)")
        #expect(manifest.contains(".binaryTarget(name: \"CKSchemaBinary\", url: release.url, checksum: release.checksum)"))
        // Only the checksum differs from the manifest in this tree (the URL is this version's
        // release, as the tree's is).
        let tree = try read(Paths.root + "/BinaryPlugins/Package.swift")
        #expect(manifest.split(separator: "\n").filter { !tree.split(separator: "\n").contains($0) } == ["    checksum: \"\(checksum)\""])
        for plugin in ["CKSchemaCommand", "CKSchemaLint", "CKSchemaGenerate"] {
            let file = out + "/ckschema-plugins/Plugins/\(plugin)/\(plugin).swift"
            let attributes = try FileManager.default.attributesOfItem(atPath: out + "/ckschema-plugins/Plugins/\(plugin)")
            #expect(attributes[.type] as? FileAttributeType == FileAttributeType.typeDirectory, "\(plugin) is a link, not the sources")
            #expect(FileManager.default.contentsEqual(atPath: file, andPath: Paths.root + "/Plugins/\(plugin)/\(plugin).swift"))
        }
    }

    /// This tree's binary-plugin package runs the same plugin sources as the ckschema package:
    /// its Plugins/ are links to ../../Plugins.
    @Test func theBinaryPluginPackageLinksThePluginSources() throws {
        for plugin in ["CKSchemaCommand", "CKSchemaLint", "CKSchemaGenerate"] {
            let link = Paths.root + "/BinaryPlugins/Plugins/" + plugin
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "../../Plugins/" + plugin)
            #expect(FileManager.default.contentsEqual(atPath: link + "/\(plugin).swift", andPath: Paths.root + "/Plugins/\(plugin)/\(plugin).swift"))
        }
    }

    /// Binaries for all three variants (the other machines' as files that begin as theirs do):
    /// info.json names each with its triples, and nothing is reported missing.
    @Test(.enabled(if: ArtifactBundle.hostFlag != nil, "\(ArtifactBundle.disabled)"), .enabled(if: canUnzip, "no unzip on PATH"))
    func allThreeVariants() throws {
        let dir = try makeTempDir("ckschema-bundle-three")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ArtifactBundle.fake(dir + "/x86_64", ArtifactBundle.elf(machine: 0x3e))
        try ArtifactBundle.fake(dir + "/aarch64", ArtifactBundle.elf(machine: 0xb7))
        try ArtifactBundle.fake(dir + "/universal", ArtifactBundle.fat)
        let r = try ArtifactBundle.run([dir + "/out", "--macos-universal", dir + "/universal", "--linux-aarch64", dir + "/aarch64", "--linux-x86_64", dir + "/x86_64"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stderr == "")
        let v = CKSchemaVersion.current
        let info = try read(dir + "/out/ckschema.artifactbundle/info.json")
        #expect(info == """
            {
              "schemaVersion": "1.0",
              "artifacts": {
                "ckschema": {
                  "version": "\(v)",
                  "type": "executable",
                  "variants": [
                    { "path": "ckschema-\(v)-linux-x86_64/bin/ckschema", "supportedTriples": ["x86_64-unknown-linux-gnu"] },
                    { "path": "ckschema-\(v)-linux-aarch64/bin/ckschema", "supportedTriples": ["aarch64-unknown-linux-gnu"] },
                    { "path": "ckschema-\(v)-macos-universal/bin/ckschema", "supportedTriples": ["arm64-apple-macosx", "x86_64-apple-macosx"] }
                  ]
                }
              }
            }

            """)
        let list = try Tool.run(try #require(Tool.find("unzip")), ["-Z1", dir + "/out/ckschema.artifactbundle.zip"])
        for variant in ["linux-x86_64", "linux-aarch64", "macos-universal"] {
            #expect(list.stdout.contains("ckschema.artifactbundle/ckschema-\(v)-\(variant)/bin/ckschema\n"), "\(list.stdout)")
            #expect(FileManager.default.contentsEqual(atPath: dir + "/out/ckschema.artifactbundle/ckschema-\(v)-\(variant)/bin/ckschema",
                                                      andPath: dir + "/" + ["linux-x86_64": "x86_64", "linux-aarch64": "aarch64", "macos-universal": "universal"][variant, default: ""]))
        }
        // The same binaries give the same zip: a release can be checked by rebuilding it.
        let again = try ArtifactBundle.run([dir + "/again", "--linux-x86_64", dir + "/x86_64", "--linux-aarch64", dir + "/aarch64", "--macos-universal", dir + "/universal"])
        #expect(again.code == 0)
        #expect(try read(dir + "/again/ckschema.artifactbundle.zip.checksum") == read(dir + "/out/ckschema.artifactbundle.zip.checksum"))
    }

    /// What the script cannot bundle it refuses (exit 2), saying why, and writes nothing: no
    /// binary, a binary that is not its variant's kind, a path with no file, a bad URL.
    @Test func refusesWhatItCannotBundle() throws {
        let dir = try makeTempDir("ckschema-bundle-refused")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ArtifactBundle.fake(dir + "/x86_64", ArtifactBundle.elf(machine: 0x3e))
        try ArtifactBundle.fake(dir + "/aarch64", ArtifactBundle.elf(machine: 0xb7))
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: dir + "/plain"))
        let usage = "usage: scripts/artifact-bundle.sh OUT [--linux-x86_64 BIN] [--linux-aarch64 BIN] [--macos-universal BIN] [--release-url URL]"
        let cases: [([String], String)] = [
            ([dir + "/out"], "error: artifact bundle: no binary given; \(usage)\n"),
            ([], "error: artifact bundle: no output folder; \(usage)\n"),
            ([dir + "/out", "--linux-aarch64", dir + "/x86_64"],
             "error: artifact bundle: --linux-aarch64 \(dir)/x86_64: not a 64-bit aarch64 ELF executable (its first bytes: 7f 45 4c 46 02 01 01 00 00 00 00 00 00 00 00 00 03 00 3e 00)\n"),
            ([dir + "/out", "--linux-x86_64", dir + "/x86_64", "--macos-universal", dir + "/aarch64"],
             "error: artifact bundle: --macos-universal \(dir)/aarch64: not a Mach-O universal binary (its first bytes: 7f 45 4c 46 02 01 01 00 00 00 00 00 00 00 00 00 03 00 b7 00); build it with scripts/build-release.sh on macOS\n"),
            ([dir + "/out", "--linux-x86_64", dir + "/nothing"], "error: artifact bundle: --linux-x86_64 \(dir)/nothing: no such file\n"),
            ([dir + "/out", "--linux-x86_64", dir + "/plain"], "error: artifact bundle: --linux-x86_64 \(dir)/plain: not executable (chmod +x it, or give the ckschema binary)\n"),
            ([dir + "/out", "--linux-x86_64"], "error: artifact bundle: --linux-x86_64 needs the path of a ckschema binary; \(usage)\n"),
            ([dir + "/out", "--linux-x86_64", dir + "/x86_64", "--release-url", "http://example.com/b.zip"],
             "error: artifact bundle: --release-url needs the https URL the zip is published at, ending in .zip; \(usage)\n"),
            ([dir + "/out", "--windows", dir + "/x86_64"], "error: artifact bundle: unknown argument '--windows'; \(usage)\n"),
        ]
        for (arguments, message) in cases {
            let r = try ArtifactBundle.run(arguments)
            #expect(r.code == 2, "\(arguments)")
            #expect(r.stdout == "", "\(arguments)")
            #expect(r.stderr == message)
            #expect(!FileManager.default.fileExists(atPath: dir + "/out"), "\(arguments) wrote \(dir)/out")
        }
    }
}
