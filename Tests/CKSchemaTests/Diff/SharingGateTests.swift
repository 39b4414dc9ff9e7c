import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaDiff
@testable import CKSchemaConfig
@testable import CKSchemaScan

/// Sharing is a production requirement (issue 34, point 2): an app that shares, by its code
/// (`code:`) or by ckschema.yaml's `sharing: true`, fails `promote --check` and `check` while
/// production lacks `cloudkit.share` (CK320) or, for a Core Data model, a `CD_` type's
/// `CD_moveReceipt` (CK321). Each case is a folder under Tests/Fixtures/sharing, bad and fixed,
/// run through the built binary with its exact output.
@Suite struct SharingGateTests {
    static let folder = Paths.fixture("sharing")
    static let kinds = ["code", "coredata"]

    @Test(arguments: kinds)
    func productionWithoutWhatSharingWritesFailsTheGate(kind: String) throws {
        let dir = Self.folder + "/\(kind)-bad"
        let promote = try runCLI(["promote", "--check"], cwd: dir, environment: ["CI": "1"])
        try expectMatchesFixture(promote.stdout, Self.folder + "/\(kind)-bad.promote.expected")
        #expect(promote.code == 1, "\(promote.stderr)")
        let check = try runCLI(["check"], cwd: dir, environment: ["CI": "1"])
        try expectMatchesFixture(check.stdout, Self.folder + "/\(kind)-bad.check.expected")
        #expect(check.code == 1, "\(check.stderr)")
    }

    @Test(arguments: kinds)
    func productionWithItPasses(kind: String) throws {
        let dir = Self.folder + "/\(kind)-good"
        let promote = try runCLI(["promote", "--check"], cwd: dir, environment: ["CI": "1"])
        #expect(promote.stdout == "ckschema promote: passed: 0 errors, 0 warnings\n")
        #expect(promote.code == 0, "\(promote.stderr)")
        let check = try runCLI(["check"], cwd: dir, environment: ["CI": "1"])
        #expect(!check.stdout.contains("CK320") && !check.stdout.contains("CK321"), "\(check.stdout)")
        #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
    }

    /// `check` takes the code's sharing call from its scan (the sources lexed once), else, with
    /// no scan in its checks, reads the code for it: the same call, the same CK320 either way.
    @Test func checkFindsTheSharingCallWithAndWithoutItsScan() throws {
        let dir = Self.folder + "/code-bad"
        let use = try #require(CodeScan.sharingUse(paths: [dir + "/App"]))
        let scanned = try #require(CodeScan.run(paths: [dir + "/App"], schema: nil).sharing)
        #expect(scanned.what == use.what && scanned.at == use.at)
        var config = try Configuration.load(path: dir + "/ckschema.yaml")
        let withScan = Check.run(config)
        #expect(withScan.ran == ["lint", "promote", "scan"])
        config.checks = [.promote]
        let alone = Check.run(config)
        #expect(alone.ran == ["promote"])
        for report in [withScan, alone] {
            let found = report.diagnostics.filter { $0.code == "CK320" }
            #expect(found.count == 1 && found[0].message.contains("UICloudSharingController at \(use.at.description)"), "\(found.map(\.message))")
        }
    }

    /// `sharing: false` says the app does not share, whatever its code shows: no requirement.
    @Test func sharingFalseOverridesTheCode() throws {
        let dir = try makeTempDir("ckschema-sharing")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let copy = dir + "/app"
        try FileManager.default.copyItem(atPath: Self.folder + "/code-bad", toPath: copy)
        let config = copy + "/ckschema.yaml"
        try Data((try read(config) + "sharing: false\n").utf8).write(to: URL(fileURLWithPath: config))
        let r = try runCLI(["promote", "--check"], cwd: copy, environment: ["CI": "1"])
        #expect(r.stdout == "ckschema promote: passed: 0 errors, 0 warnings\n")
        #expect(r.code == 0)
        // A value that is not a boolean is refused at its place, as every other key.
        try Data((try read(Self.folder + "/code-bad/ckschema.yaml") + "sharing: often\n").utf8).write(to: URL(fileURLWithPath: config))
        let bad = try runCLI(["promote", "--check"], cwd: copy, environment: ["CI": "1"])
        #expect(bad.code == 2)
        #expect(bad.stderr.contains("ckschema.yaml:8:"), "\(bad.stderr)")
    }

    /// Through the library: only what neither side has is missing (development deploys the
    /// rest), a real (not on-demand) CD_moveReceipt in development counts, and `promote:`
    /// settings disable or re-grade the codes.
    @Test func onlyWhatNeitherSideHasIsReported() throws {
        let reason = SharingRequirement.Reason("CKShare(...)", at: SourceLocation(file: "App/Share.swift", line: 3, column: 9))
        let empty = Schema()
        var dev = Schema()
        dev.recordTypes = [RecordType(name: "cloudkit.share")]
        #expect(SharingRequirement.check(production: empty, development: dev, because: reason).isEmpty)
        let missing = SharingRequirement.check(production: empty, development: empty, because: reason)
        #expect(missing.map(\.code) == ["CK320"])
        #expect(missing.first?.message.contains("(CKShare(...) at App/Share.swift:3:9)") == true)
        var settings = RuleSettings()
        settings.disabled = ["CK320"]
        #expect(SharingRequirement.check(production: empty, development: empty, because: reason, settings: settings).isEmpty)
        settings = RuleSettings()
        settings.severities = ["CK320": .warning]
        #expect(SharingRequirement.check(production: empty, development: empty, because: reason, settings: settings).map(\.severity) == [.warning])
        // A model with CD_moveReceipt as a real field: it is deployed with the promotion.
        var model = try SchemaSource.load(path: Paths.fixture("coredata/DoneAndDone.xcdatamodeld"))
        model.recordTypes.append(RecordType(name: "cloudkit.share"))
        let receipts = SharingRequirement.check(production: empty, development: model, because: reason)
        #expect(receipts.map(\.code) == Array(repeating: "CK321", count: model.recordTypes.filter { $0.name.hasPrefix("CD_") }.count))
        for i in model.recordTypes.indices {
            for j in model.recordTypes[i].fields.indices where model.recordTypes[i].fields[j].name == "CD_moveReceipt" {
                model.recordTypes[i].fields[j].mayBeAbsent = false
            }
        }
        #expect(SharingRequirement.check(production: empty, development: model, because: reason).isEmpty)
    }
}
