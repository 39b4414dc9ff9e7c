import Foundation
import Testing

/// The SwiftPM plugins, for real: a consuming package that depends on this one by path runs
/// `swift package plugin --list`, `swift package ckschema lint|check`, and `swift build` with
/// the build-tool plugin attached. Building ckschema inside the consumer is slow the first
/// time (about two minutes on two cores); its build folder is kept in `.build/plugin-consumer`
/// so later runs are incremental. `CKSCHEMA_SKIP_PLUGIN_TESTS=1` skips the suite.
@Suite(.serialized) struct PluginTests {
    static let skip = ProcessInfo.processInfo.environment["CKSCHEMA_SKIP_PLUGIN_TESTS"] == "1"
    /// Outside this repository: ckschema looks for ckschema.yaml in parent folders too.
    /// One per checkout, so two checkouts testing at once do not share it.
    static let base = NSTemporaryDirectory() + "ckschema-plugin-consumer-" + String(UInt32(truncatingIfNeeded: Paths.root.utf8.reduce(5381) { ($0 &* 33) &+ Int($1) }), radix: 16)
    static let app = base + "/TrailApp"
    static let scratch = Paths.root + "/.build/plugin-consumer"

    /// A fresh consuming package at a fixed path (so the kept build folder stays valid).
    static func makeConsumer() throws {
        let fm = FileManager.default
        try? fm.removeItem(atPath: app)
        // SwiftPM names a path dependency after its folder: reach this repository through a
        // link named `ckschema`, as a clone of it is named, whatever this checkout's folder is.
        try? fm.removeItem(atPath: base + "/ckschema")
        try fm.createDirectory(atPath: base, withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: base + "/ckschema", withDestinationPath: Paths.root)
        try fm.createDirectory(atPath: app + "/Sources/TrailModel", withIntermediateDirectories: true)
        try writeManifest(plugins: #"plugins: [.plugin(name: "CKSchemaLint", package: "ckschema")]"#)
        try Data("public struct Trip { public init() {} }\n".utf8).write(to: URL(fileURLWithPath: app + "/Sources/TrailModel/Trip.swift"))
    }

    static func writeManifest(plugins: String) throws {
        try Data("""
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "TrailApp",
                dependencies: [.package(path: "../ckschema")],
                targets: [
                    .target(name: "TrailModel"\(plugins.isEmpty ? "" : ", " + plugins)),
                ]
            )

            """.utf8).write(to: URL(fileURLWithPath: app + "/Package.swift"))
    }

    static func swift(_ args: [String]) throws -> CLIResult {
        let swift = try #require(Tool.find("swift"))
        return try Tool.run(swift, args.first == "build" ? args + ["--scratch-path", scratch] : ["package", "--scratch-path", scratch] + args, cwd: app)
    }

    @Test(.enabled(if: !skip, "CKSCHEMA_SKIP_PLUGIN_TESTS=1: the SwiftPM plugin test (a consuming package built with swift build) is skipped"))
    func commandAndBuildToolPluginsWorkInAConsumingPackage() throws {
        try Self.makeConsumer()
        defer { try? FileManager.default.removeItem(atPath: Self.base) }
        #expect(try runCLI(["init", "--container", "iCloud.com.example.Trailmark"], cwd: Self.app).code == 0)

        let list = try Self.swift(["plugin", "--list"])
        #expect(list.code == 0, "\(list.stderr)")
        #expect(list.stdout.contains("‘ckschema’ (plugin ‘CKSchemaCommand’ in package ‘ckschema’)"), "\(list.stdout)")

        let lint = try Self.swift(["ckschema", "lint"])
        #expect(lint.code == 0, "\(lint.stdout)\(lint.stderr)")
        let check = try Self.swift(["ckschema", "check", "--format", "markdown"])
        #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("**ckschema check**: passed") && check.stdout.contains(": no findings"), "\(check.stdout)")

        let build = try Self.swift(["build"])
        #expect(build.code == 0, "\(build.stdout)\(build.stderr)")
        #expect(build.stdout.contains("ckschema lint (TrailModel)"), "the build-tool plugin ran: \(build.stdout)")

        // A schema error: the command plugin fails, and the build fails with the line Xcode shows.
        let dev = Self.app + "/Schemas/development.yaml"
        let text = try read(dev).replacingOccurrences(of: "body: { type: string, encrypted: true }", with: "body: { type: string, encrypted: true, indexes: [queryable] }")
        try Data(text.utf8).write(to: URL(fileURLWithPath: dev))
        let expected = "Schemas/development.yaml:15:55: error: field 'Note.body' is encrypted and cannot be queryable [CK105]"
        let badLint = try Self.swift(["ckschema", "lint"])
        #expect(badLint.code != 0)
        #expect(badLint.stdout.contains(expected), "\(badLint.stdout)\(badLint.stderr)")
        let badBuild = try Self.swift(["build"])
        #expect(badBuild.code != 0)
        #expect((badBuild.stdout + badBuild.stderr).contains(Self.app + "/" + expected), "\(badBuild.stdout)\(badBuild.stderr)")

        // A package with no schemas: the build-tool plugin says what is missing.
        try FileManager.default.removeItem(atPath: Self.app + "/ckschema.yaml")
        try Self.writeManifest(plugins: #"plugins: [.plugin(name: "CKSchemaLint", package: "ckschema")]"# + "/* again */")
        let none = try Self.swift(["build"])
        #expect(none.code != 0, "\(none.stdout)\(none.stderr)")
        #expect((none.stdout + none.stderr).contains("target 'TrailModel' has no schema (.ckdb, or .yaml under Schemas/) and the package has no ckschema.yaml"),
                "\(none.stdout)\(none.stderr)")
        // Without the build-tool plugin, the command plugin runs ckschema, which says what is missing (exit 2).
        try Self.writeManifest(plugins: "")
        let noConfig = try Self.swift(["ckschema", "check"])
        #expect(noConfig.code != 0)
        #expect((noConfig.stdout + noConfig.stderr).contains("no ckschema.yaml found"), "\(noConfig.stdout)\(noConfig.stderr)")
        #expect(noConfig.stderr.contains("could not do its job (exit 2)"), "\(noConfig.stderr)")
    }

    /// The CKSchemaGenerate build-tool plugin in a consuming package: the build compiles the
    /// code generated from the schema with the target's own code, and after a schema change the
    /// build fails at the stale call site. On Linux the consumer has stub `CloudKit` and
    /// `CoreLocation` targets made of Tests/Fixtures/codegen/sdk (on macOS the SDK's are used).
    @Test(.enabled(if: !skip, "CKSCHEMA_SKIP_PLUGIN_TESTS=1"))
    func theGeneratePluginRegeneratesOnEveryBuild() throws {
        try Self.makeConsumer()
        defer { try? FileManager.default.removeItem(atPath: Self.base) }
        #expect(try runCLI(["init", "--container", "iCloud.com.example.Trailmark"], cwd: Self.app).code == 0)
        let fm = FileManager.default
        var stubs = ""
        #if !canImport(Darwin)
        for module in ["CoreLocation", "CloudKit"] {
            try fm.createDirectory(atPath: Self.app + "/Sources/\(module)", withIntermediateDirectories: true)
            try fm.copyItem(atPath: Paths.fixture("codegen/sdk/\(module).swift"), toPath: Self.app + "/Sources/\(module)/\(module).swift")
        }
        stubs = #"""
                    .target(name: "CoreLocation"),
                    .target(name: "CloudKit", dependencies: ["CoreLocation"]),

            """#
        #endif
        let deps = stubs.isEmpty ? "" : #"dependencies: ["CloudKit"], "#
        try Data("""
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "TrailApp",
                dependencies: [.package(path: "../ckschema")],
                targets: [
            \(stubs)        .target(name: "TrailModel", \(deps)plugins: [.plugin(name: "CKSchemaGenerate", package: "ckschema")]),
                ]
            )

            """.utf8).write(to: URL(fileURLWithPath: Self.app + "/Package.swift"))
        try Data("""
            import CloudKit

            func heading(of note: CloudSchema.Note) -> String? { note.title }
            func titled(_ text: String) -> CKQuery { CloudSchema.Note.query(CloudSchema.Note.Key.title == text) }

            """.utf8).write(to: URL(fileURLWithPath: Self.app + "/Sources/TrailModel/Trip.swift"))

        let build = try Self.swift(["build"])
        #expect(build.code == 0, "\(build.stdout)\(build.stderr)")
        #expect(build.stdout.contains("ckschema generate swift (TrailModel)"), "the build-tool plugin ran: \(build.stdout)")

        // The field renamed in the schema: the next build regenerates, and the call site breaks.
        let dev = Self.app + "/Schemas/development.yaml"
        try Data(try read(dev).replacingOccurrences(of: "title: {", with: "heading: {").utf8).write(to: URL(fileURLWithPath: dev))
        let stale = try Self.swift(["build"])
        #expect(stale.code != 0)
        let log = stale.stdout + stale.stderr
        #expect(log.contains("ckschema generate swift (TrailModel)"), "\(log)")
        #expect(log.contains("Sources/TrailModel/Trip.swift:3:") && log.contains("has no member 'title'"), "\(log)")
    }
}
