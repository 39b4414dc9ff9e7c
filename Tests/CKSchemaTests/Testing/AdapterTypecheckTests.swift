import Foundation
import Testing

/// The CloudKit adapter (`CloudDatabase`, `extension CKDatabase: CloudDatabase {}`,
/// `FakeCloudDatabase`) exists only where CloudKit does. On Linux it is type-checked against
/// the SDK stub in Tests/Fixtures/codegen/sdk (which holds the SDK's exact signatures of the
/// calls it needs), as a client of the built `CKSchemaTesting` module, with docs/testing.md's
/// app example (Tests/Fixtures/testing/AppUsage.swift), warnings as errors.
@Suite(.serialized) struct AdapterTypecheckTests {
    static let swiftc = Tool.find("swiftc")
    /// The modules `swift build` wrote (the test binary runs from that build).
    static let modules = Paths.root + "/.build/debug/Modules"
    static let built = FileManager.default.fileExists(atPath: modules + "/CKSchemaTesting.swiftmodule")

    static func run(_ files: [String], extra: [String] = []) throws -> CLIResult {
        let swiftc = try #require(swiftc)
        let dir = try makeTempDir("ckschema-adapter-typecheck")
        let sdk = Paths.fixture("codegen/sdk")
        let base = ["-swift-version", "6", "-parse-as-library", "-I", dir]
        for step in [["-emit-module", "-module-name", "CoreLocation", sdk + "/CoreLocation.swift", "-emit-module-path", dir + "/CoreLocation.swiftmodule"],
                     ["-emit-module", "-module-name", "CloudKit", sdk + "/CloudKit.swift", "-emit-module-path", dir + "/CloudKit.swiftmodule"]] {
            let r = try Tool.run(swiftc, base + step, cwd: dir)
            guard r.code == 0 else { return r }
        }
        return try Tool.run(swiftc, base + ["-typecheck", "-warnings-as-errors", "-D", "CKSCHEMA_ADAPTER_TYPECHECK", "-I", modules,
                                            "-I", Paths.root + "/Sources/CSQLite", "-I", Paths.root + "/Sources/CYAML"] + extra + files, cwd: dir)
    }

    @Test(.enabled(if: swiftc != nil && built, "needs swiftc and the debug build's modules (swift build --build-tests)"))
    func theAdapterTypeChecksAgainstTheSDKStub() throws {
        let r = try Self.run([Paths.root + "/Sources/CKSchemaTesting/CloudDatabase.swift", Paths.fixture("testing/AppUsage.swift")])
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr == "")
    }

    /// The check can fail: a requirement CKDatabase does not have breaks the conformance.
    @Test(.enabled(if: swiftc != nil && built, "needs swiftc and the debug build's modules (swift build --build-tests)"))
    func aSignatureTheSDKLacksFails() throws {
        let dir = try makeTempDir("ckschema-adapter-bad")
        let source = try String(contentsOfFile: Paths.root + "/Sources/CKSchemaTesting/CloudDatabase.swift", encoding: .utf8)
            .replacingOccurrences(of: "func allRecordZones() async throws -> [CKRecordZone]\n    func save", with: "func allRecordZones(limit: Int) async throws -> [CKRecordZone]\n    func save")
        #expect(source.contains("allRecordZones(limit: Int)"))
        try source.write(toFile: dir + "/CloudDatabase.swift", atomically: true, encoding: .utf8)
        let r = try Self.run([dir + "/CloudDatabase.swift"])
        #expect(r.code != 0)
        #expect(r.stderr.contains("does not conform to protocol 'CloudDatabase'"), "\(r.stderr)")
    }
}
