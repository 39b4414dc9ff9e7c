import Foundation
import Testing

/// The SwiftPM plugins, for real: a consuming package runs `swift package plugin --list`,
/// `swift package ckschema lint|check`, and `swift build` with the build-tool plugins attached.
///
/// Two forms of the same plugin sources (docs/integrations.md): the binary form
/// (BinaryPlugins/, whose tool is an artifact bundle) and the source form (this package, whose
/// tool is the `ckschema` target, compiled inside the consumer). Every test runs on the binary
/// form, with an artifact bundle made of the ckschema these tests run (`ArtifactBundle.made`,
/// once per run): no ckschema source is compiled, and all of them share one scratch build
/// folder, `.build/plugin-consumer-binary`. The source form's compile of ckschema (about two
/// minutes on two cores, most of the suite's time) runs with `CKSCHEMA_PLUGIN_SOURCE_BUILD=1`
/// (.ci/run sets it, in a stage of its own) and on macOS, where the debug binary is not the
/// bundle's universal variant; its manifest is checked on every run. `CKSCHEMA_SKIP_PLUGIN_TESTS=1`
/// skips the suite.
@Suite(.serialized) struct PluginTests {
    static let skip = ProcessInfo.processInfo.environment["CKSCHEMA_SKIP_PLUGIN_TESTS"] == "1"
    static let binary = !skip && ArtifactBundle.hostFlag != nil
    static let source = !skip && (ProcessInfo.processInfo.environment["CKSCHEMA_PLUGIN_SOURCE_BUILD"] == "1" || ArtifactBundle.hostFlag == nil)
    static let sourceReason: Comment = "the source form compiles ckschema inside the consumer (two minutes): set CKSCHEMA_PLUGIN_SOURCE_BUILD=1 (.ci/run does); the same assertions run on the binary form"
    /// Outside this repository: ckschema looks for ckschema.yaml in parent folders too.
    /// One per checkout, so two checkouts testing at once do not share it.
    static let base = NSTemporaryDirectory() + "ckschema-plugin-consumer-" + String(UInt32(truncatingIfNeeded: Paths.root.utf8.reduce(5381) { ($0 &* 33) &+ Int($1) }), radix: 16)
    static let app = base + "/TrailApp"

    /// How the consumer reaches the plugins.
    enum Form: String, CustomStringConvertible {
        /// `.package(path: "../ckschema-plugins")`: BinaryPlugins/'s manifest, its binaryTarget a local bundle.
        case binary = "ckschema-plugins"
        /// `.package(path: "../ckschema")`: this package.
        case source = "ckschema"
        var package: String { rawValue }
        /// One scratch build folder per form, shared by every test of that form and kept
        /// between runs (later source-form runs are incremental).
        var scratch: String { Paths.root + (self == .binary ? "/.build/plugin-consumer-binary" : "/.build/plugin-consumer") }
        var description: String { rawValue }
    }

    /// The binary-plugin package beside the consumer, once per run: BinaryPlugins/Package.swift
    /// with its release binaryTarget replaced by the local bundle made of the built ckschema,
    /// and its Plugins/ this tree's (links to ../../Plugins). Nil, or why it could not be made.
    static let binaryPackage: String? = {
        do {
            let made = ArtifactBundle.made
            guard made.code == 0 else { return "scripts/artifact-bundle.sh: exit \(made.code): \(made.stdout)\(made.stderr)" }
            let fm = FileManager.default
            let dir = base + "/ckschema-plugins"
            try? fm.removeItem(atPath: dir)
            try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try fm.copyItem(atPath: ArtifactBundle.out + "/ckschema.artifactbundle", toPath: dir + "/ckschema.artifactbundle")
            try fm.createSymbolicLink(atPath: dir + "/Plugins", withDestinationPath: Paths.root + "/BinaryPlugins/Plugins")
            let release = ".binaryTarget(name: \"CKSchemaBinary\", url: release.url, checksum: release.checksum)"
            let manifest = try read(Paths.root + "/BinaryPlugins/Package.swift")
            guard manifest.contains(release) else { return "BinaryPlugins/Package.swift has no line \(release)" }
            try Data(manifest.replacingOccurrences(of: release, with: ".binaryTarget(name: \"CKSchemaBinary\", path: \"ckschema.artifactbundle\")").utf8)
                .write(to: URL(fileURLWithPath: dir + "/Package.swift"))
            return nil
        } catch {
            return "the binary-plugin package could not be made: \(error)"
        }
    }()

    /// A fresh consuming package at a fixed path (so the kept build folder stays valid).
    static func makeConsumer(_ form: Form) throws {
        let fm = FileManager.default
        try? fm.removeItem(atPath: app)
        try fm.createDirectory(atPath: base, withIntermediateDirectories: true)
        switch form {
        case .binary:
            if let failure = binaryPackage { throw PluginSetupError(message: failure) }
        case .source:
            // SwiftPM names a path dependency after its folder: reach this repository through a
            // link named `ckschema`, as a clone of it is named, whatever this checkout's folder is.
            try? fm.removeItem(atPath: base + "/ckschema")
            try fm.createSymbolicLink(atPath: base + "/ckschema", withDestinationPath: Paths.root)
        }
        try fm.createDirectory(atPath: app + "/Sources/TrailModel", withIntermediateDirectories: true)
        try writeManifest(form, plugins: #"plugins: [.plugin(name: "CKSchemaLint", package: "\#(form.package)")]"#)
        try Data("public struct Trip { public init() {} }\n".utf8).write(to: URL(fileURLWithPath: app + "/Sources/TrailModel/Trip.swift"))
    }

    struct PluginSetupError: Error, CustomStringConvertible { var message: String; var description: String { message } }

    static func writeManifest(_ form: Form, plugins: String) throws {
        try Data("""
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "TrailApp",
                dependencies: [.package(path: "../\(form.package)")],
                targets: [
                    .target(name: "TrailModel"\(plugins.isEmpty ? "" : ", " + plugins)),
                ]
            )

            """.utf8).write(to: URL(fileURLWithPath: app + "/Package.swift"))
    }

    static func swift(_ form: Form, _ args: [String]) throws -> CLIResult {
        let swift = try #require(Tool.find("swift"))
        return try Tool.run(swift, args.first == "build" ? args + ["--scratch-path", form.scratch] : ["package", "--scratch-path", form.scratch] + args, cwd: app)
    }

    /// ckschema's own modules (Sources/*): what the binary form must never compile.
    static let modules: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: Paths.root + "/Sources")) ?? []).sorted()

    /// The ckschema modules a log shows compiled or linked, and those the scratch folder holds
    /// a build folder of: both empty when the plugins ran ckschema without compiling it.
    static func ckschemaCompiled(log: String, scratch: String) -> [String] {
        let lines = log.split(whereSeparator: \.isNewline)
        var found = modules.filter { m in
            lines.contains { $0.contains("Compiling \(m) ") || $0.hasSuffix("Emitting module \(m)") || $0.hasSuffix("Linking \(m)") }
        }
        let e = FileManager.default.enumerator(atPath: scratch)
        while let path = e?.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            guard name.hasSuffix(".build") else { continue }
            if modules.contains(String(name.dropLast(6))) { found.append(path) }
            e?.skipDescendants()
        }
        return found
    }

    @Test(.enabled(if: binary, "CKSCHEMA_SKIP_PLUGIN_TESTS=1, or macOS (the binary form needs the Linux debug binary's bundle)"))
    func commandAndBuildToolPluginsWorkInAConsumingPackage() throws {
        let log = try commandAndBuildToolPlugins(.binary)
        // Point 5 of issue 36: the app built and ran the plugins without compiling ckschema.
        #expect(log.contains("Compiling TrailModel"), "the consumer was built: \(log)")
        #expect(Self.ckschemaCompiled(log: log, scratch: Form.binary.scratch) == [], "\(log)")
    }

    @Test(.enabled(if: source, sourceReason))
    func commandAndBuildToolPluginsBuiltFromSource() throws {
        _ = try commandAndBuildToolPlugins(.source)
        // The test above can fail: the source form compiles ckschema, and the check sees it.
        #expect(Self.ckschemaCompiled(log: "", scratch: Form.source.scratch).contains { $0.hasSuffix("/CKSchemaModel.build") })
    }

    @Test(.enabled(if: binary, "CKSCHEMA_SKIP_PLUGIN_TESTS=1, or macOS"))
    func theGeneratePluginRegeneratesOnEveryBuild() throws {
        let log = try generatePluginRegenerates(.binary)
        #expect(Self.ckschemaCompiled(log: log, scratch: Form.binary.scratch) == [], "\(log)")
    }

    @Test(.enabled(if: source, sourceReason))
    func theGeneratePluginBuiltFromSourceRegeneratesOnEveryBuild() throws {
        _ = try generatePluginRegenerates(.source)
    }

    /// The source form's manifest on every run, without compiling ckschema: a consumer that
    /// depends on this package lists its command plugin, and the two manifests declare the
    /// same plugin products, of the same kinds, with the same command verb.
    @Test(.enabled(if: !skip, "CKSCHEMA_SKIP_PLUGIN_TESTS=1"))
    func bothFormsOfferTheSamePlugins() throws {
        try Self.makeConsumer(.source)
        defer { try? FileManager.default.removeItem(atPath: Self.app) }
        let list = try Self.swift(.source, ["plugin", "--list"])
        #expect(list.code == 0, "\(list.stderr)")
        #expect(list.stdout.contains("‘ckschema’ (plugin ‘CKSchemaCommand’ in package ‘ckschema’)"), "\(list.stdout)")

        let swift = try #require(Tool.find("swift"))
        func plugins(_ folder: String) throws -> [String] {
            // A scratch folder of its own: the outer `swift test` holds this checkout's .build.
            let dump = try Tool.run(swift, ["package", "--scratch-path", Self.base + "/dump-package", "dump-package"], cwd: folder)
            let package = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any], "\(dump.stderr)")
            let targets = try #require(package["targets"] as? [[String: Any]])
            return targets.compactMap { t -> String? in
                guard t["type"] as? String == "plugin", let name = t["name"] as? String else { return nil }
                let capability = (try? JSONSerialization.data(withJSONObject: t["pluginCapability"] ?? [String: Any](), options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? ""
                return name + " " + capability
            }.sorted()
        }
        let source = try plugins(Paths.root)
        let binary = try plugins(Paths.root + "/BinaryPlugins")
        #expect(source.count == 3)
        #expect(source == binary)
    }

    /// The command plugin and the CKSchemaLint build-tool plugin, before and after a schema
    /// error, and without a schema; the log of every SwiftPM run.
    func commandAndBuildToolPlugins(_ form: Form) throws -> String {
        try Self.makeConsumer(form)
        defer { try? FileManager.default.removeItem(atPath: Self.app) }
        #expect(try runCLI(["init", "--container", "iCloud.com.example.Trailmark"], cwd: Self.app).code == 0)
        var runs = ""
        func swift(_ args: [String]) throws -> CLIResult {
            let r = try Self.swift(form, args)
            runs += r.stdout + r.stderr
            return r
        }

        let list = try swift(["plugin", "--list"])
        #expect(list.code == 0, "\(list.stderr)")
        #expect(list.stdout.contains("‘ckschema’ (plugin ‘CKSchemaCommand’ in package ‘\(form.package)’)"), "\(list.stdout)")

        let lint = try swift(["ckschema", "lint"])
        #expect(lint.code == 0, "\(lint.stdout)\(lint.stderr)")
        let check = try swift(["ckschema", "check", "--format", "markdown"])
        #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("**ckschema check**: passed") && check.stdout.contains(": no findings"), "\(check.stdout)")

        let build = try swift(["build"])
        #expect(build.code == 0, "\(build.stdout)\(build.stderr)")
        #expect(build.stdout.contains("ckschema lint (TrailModel)"), "the build-tool plugin ran: \(build.stdout)")

        // A schema error: the command plugin fails, and the build fails with the line Xcode shows.
        let dev = Self.app + "/Schemas/development.yaml"
        let text = try read(dev).replacingOccurrences(of: "body: { type: string, encrypted: true }", with: "body: { type: string, encrypted: true, indexes: [queryable] }")
        try Data(text.utf8).write(to: URL(fileURLWithPath: dev))
        let expected = "Schemas/development.yaml:15:55: error: field 'Note.body' is encrypted and cannot be queryable [CK105]"
        let badLint = try swift(["ckschema", "lint"])
        #expect(badLint.code != 0)
        #expect(badLint.stdout.contains(expected), "\(badLint.stdout)\(badLint.stderr)")
        let badBuild = try swift(["build"])
        #expect(badBuild.code != 0)
        #expect((badBuild.stdout + badBuild.stderr).contains(Self.app + "/" + expected), "\(badBuild.stdout)\(badBuild.stderr)")

        // A package with no schemas: the build-tool plugin says what is missing.
        try FileManager.default.removeItem(atPath: Self.app + "/ckschema.yaml")
        try Self.writeManifest(form, plugins: #"plugins: [.plugin(name: "CKSchemaLint", package: "\#(form.package)")]"# + "/* again */")
        let none = try swift(["build"])
        #expect(none.code != 0, "\(none.stdout)\(none.stderr)")
        #expect((none.stdout + none.stderr).contains("target 'TrailModel' has no schema (.ckdb, or .yaml under Schemas/) and the package has no ckschema.yaml"),
                "\(none.stdout)\(none.stderr)")
        // Without the build-tool plugin, the command plugin runs ckschema, which says what is missing (exit 2).
        try Self.writeManifest(form, plugins: "")
        let noConfig = try swift(["ckschema", "check"])
        #expect(noConfig.code != 0)
        #expect((noConfig.stdout + noConfig.stderr).contains("no ckschema.yaml found"), "\(noConfig.stdout)\(noConfig.stderr)")
        #expect(noConfig.stderr.contains("could not do its job (exit 2)"), "\(noConfig.stderr)")
        return runs
    }

    /// The CKSchemaGenerate build-tool plugin in a consuming package: the build compiles the
    /// code generated from the schema with the target's own code, and after a schema change the
    /// build fails at the stale call site. On Linux the consumer has stub `CloudKit` and
    /// `CoreLocation` targets made of Tests/Fixtures/codegen/sdk (on macOS the SDK's are used).
    func generatePluginRegenerates(_ form: Form) throws -> String {
        try Self.makeConsumer(form)
        defer { try? FileManager.default.removeItem(atPath: Self.app) }
        #expect(try runCLI(["init", "--container", "iCloud.com.example.Trailmark"], cwd: Self.app).code == 0)
        var runs = ""
        func swift(_ args: [String]) throws -> CLIResult {
            let r = try Self.swift(form, args)
            runs += r.stdout + r.stderr
            return r
        }
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
                dependencies: [.package(path: "../\(form.package)")],
                targets: [
            \(stubs)        .target(name: "TrailModel", \(deps)plugins: [.plugin(name: "CKSchemaGenerate", package: "\(form.package)")]),
                ]
            )

            """.utf8).write(to: URL(fileURLWithPath: Self.app + "/Package.swift"))
        try Data("""
            import CloudKit

            func heading(of note: CloudSchema.Note) -> String? { note.title }
            func titled(_ text: String) -> CKQuery { CloudSchema.Note.query(CloudSchema.Note.Key.title == text) }

            """.utf8).write(to: URL(fileURLWithPath: Self.app + "/Sources/TrailModel/Trip.swift"))

        let build = try swift(["build"])
        #expect(build.code == 0, "\(build.stdout)\(build.stderr)")
        #expect(build.stdout.contains("ckschema generate swift (TrailModel)"), "the build-tool plugin ran: \(build.stdout)")

        // The field renamed in the schema: the next build regenerates, and the call site breaks.
        let dev = Self.app + "/Schemas/development.yaml"
        try Data(try read(dev).replacingOccurrences(of: "title: {", with: "heading: {").utf8).write(to: URL(fileURLWithPath: dev))
        let stale = try swift(["build"])
        #expect(stale.code != 0)
        let log = stale.stdout + stale.stderr
        #expect(log.contains("ckschema generate swift (TrailModel)"), "\(log)")
        #expect(log.contains("Sources/TrailModel/Trip.swift:3:") && log.contains("has no member 'title'"), "\(log)")
        return runs
    }
}
