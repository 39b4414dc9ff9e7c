import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaYAML
@testable import CKSchemaCKDB
@testable import CKSchemaCoreData
@testable import CKSchemaPredicate
@testable import CKSchemaLinter
@testable import CKSchemaDiff
@testable import CKSchemaConfig
@testable import CKSchemaRecords
@testable import CKSchemaCKTool
@testable import CKSchemaProduction
@testable import CKSchemaWire
@testable import CKSchemaStore
@testable import CKSchemaRuntime
@testable import CKSchemaMigrations
@testable import CKSchemaCheck

/// Every lint rule has a fixture that triggers it and one that does not.
@Suite struct LintRuleTests {
    /// The YAML-fixture rules; the Core Data rules (CK61x) read models: CoreDataLintTests; the
    /// SwiftData notes (CK64x) read Swift sources: SwiftDataMappingTests and SwiftDataCLITests.
    static let codes = LintRules.all.map(\.code).filter { !$0.hasPrefix("CK61") && !$0.hasPrefix("CK64") }

    @Test(arguments: codes)
    func badFixtureTriggersOnlyItsRule(code: String) throws {
        let path = Paths.fixture("lint/\(code)-bad.yaml")
        let schema = try SchemaSource.load(path: path)
        let found = Linter().lint(schema)
        #expect(!found.isEmpty, "\(code)-bad.yaml triggers nothing")
        #expect(found.allSatisfy { $0.code == code || ($0.code == "CK120" && code == "CK124") }, "\(found.map(\.code))")
        #expect(found.contains { $0.code == code })
    }

    /// `lint(_:only:)` (the scan's: only the rules whose codes it keeps run) gives what
    /// `lint(_:)` gives with the other codes' findings left out, in the same order, CK124
    /// kept: on every bad and good fixture, for the scan's codes, each code alone and none.
    @Test func onlyTheseCodesIsTheFilteredLint() throws {
        let scanCodes = Set(["CK110", "CK113", "CK118", "CK126", "CK710", "CK711", "CK712", "CK713", "CK714", "CK715"] + PredicateRules.all.map(\.code))
        var compared = 0
        for code in Self.codes {
            for kind in ["bad", "good"] {
                let schema = try SchemaSource.load(path: Paths.fixture("lint/\(code)-\(kind).yaml"))
                let all = Linter().lint(schema)
                for codes in [scanCodes, [code], []] as [Set<String>] {
                    let only = Linter().lint(schema, only: codes)
                    let expected = all.filter { codes.contains($0.code) || $0.code == LintRules.suppressionWithoutReason.code }
                    #expect(only == expected, "\(code)-\(kind).yaml, codes \(codes.sorted())")
                    compared += 1
                }
            }
        }
        #expect(compared > 100)
    }

    @Test(arguments: codes)
    func goodFixtureIsClean(code: String) throws {
        let schema = try SchemaSource.load(path: Paths.fixture("lint/\(code)-good.yaml"))
        let found = Linter().lint(schema)
        #expect(found.isEmpty, "\(found.map { "\($0.code) \($0.message)" })")
    }

    /// The exact text a user sees, through the built binary, and its exit code.
    @Test(arguments: codes)
    func binaryPrintsExpectedDiagnostics(code: String) throws {
        let rel = "Tests/Fixtures/lint/\(code)-bad.yaml"
        let result = try runCLI(["lint", rel])
        try expectMatchesFixture(result.stdout, Paths.fixture("lint/\(code)-bad.expected"))
        let severity = LintRules.all.first { $0.code == code }!.defaultSeverity
        #expect(result.code == (severity == .error ? 1 : 0))
        let good = try runCLI(["lint", "Tests/Fixtures/lint/\(code)-good.yaml"])
        #expect(good.code == 0)
        #expect(good.stdout == "ckschema lint: passed: 0 errors, 0 warnings\n")
    }

    @Test func failOnWarningFailsOnWarnings() throws {
        let result = try runCLI(["lint", "Tests/Fixtures/lint/CK120-bad.yaml", "--fail-on", "warning"])
        #expect(result.code == 1)
    }

    @Test func configurationDisablesAndRaisesRules() throws {
        let schema = try SchemaSource.load(path: Paths.fixture("lint/CK120-bad.yaml"))
        #expect(Linter(configuration: RuleSettings(disabled: ["CK120"])).lint(schema).isEmpty)
        let raised = Linter(configuration: RuleSettings(severities: ["CK120": .error])).lint(schema)
        #expect(raised.count == 2 && raised.allSatisfy { $0.severity == .error })
    }

    @Test func recordNameMessageIsCloudKits() throws {
        let schema = try SchemaSource.load(path: Paths.fixture("lint/CK110-bad.yaml"))
        let messages = Linter().lint(schema).map(\.message)
        #expect(messages.contains { $0.contains("Field 'recordName' is not marked queryable") })
    }

    @Test func exampleSchemasLintClean() throws {
        for name in ["development", "production"] {
            let schema = try SchemaSource.load(path: Paths.root + "/Schemas/\(name).yaml")
            #expect(Linter().lint(schema).isEmpty, "\(name)")
        }
    }

    /// CK126's reading of the grants: only _creator reads, whoever else creates or writes;
    /// a custom role does not widen it, _world or _icloud reading does.
    @Test(arguments: [
        ([("_creator", [Permission.read])], true),
        ([("_creator", [.read, .write]), ("_icloud", [.create])], true),
        ([("_creator", [.read]), ("Moderator", [.read])], true),
        ([("_creator", [.read]), ("_world", [.read])], false),
        ([("_icloud", [.read]), ("_creator", [.read, .write])], false),
        ([("_world", [.read]), ("_creator", [.write])], false),
        ([("_creator", [.write])], false),
        ([], false),
    ] as [([(String, Set<Permission>)], Bool)])
    func creatorOnlyReadsTheGrants(grants: [(String, Set<Permission>)], creatorOnly: Bool) {
        var t = RecordType(name: "Flag")
        t.grants = grants.map { Grant(role: $0.0, permissions: $0.1) }
        #expect(CreatorOnlyPublicQueryRule.isCreatorOnly(t) == creatorOnly)
    }
}
