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

/// Every record fixture (`Tests/Fixtures/records/*.{ndjson,json,yaml}`) has the exact output
/// of `ckschema validate` beside it in `<fixture>.expected`, as the lint fixtures do: the
/// text a user sees, through the built binary, with its exit code.
///
/// To write the files again after a deliberate change of wording, run
/// `CKSCHEMA_UPDATE_EXPECTED=1 swift test --filter RecordFixtureTests` and review the diff.
@Suite struct RecordFixtureTests {
    static let folder = "Tests/Fixtures/records"

    /// The fixtures, by name (the schema they are checked against is not one).
    static let fixtures: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Paths.root + "/" + folder)) ?? []
        return names.filter { ["ndjson", "json", "yaml"].contains(($0 as NSString).pathExtension) && $0 != "schema.yaml" }.sorted()
    }()

    /// The options a fixture needs beyond the production default: the development
    /// environment for what only development does, `--batch` for the batch checks (CK420's
    /// pass fixture is the same batch in cktool's shape, which is not a Web Services request).
    static func arguments(_ fixture: String) -> [String] {
        let code = String(fixture.prefix(5))
        var args: [String] = []
        if ["CK416", "CK417"].contains(code) { args += ["--env", "development"] }
        if code == "CK412" { args += ["--batch", "500"] }
        // 201 records in one batch: over Web Services' 200 operations, under the 400 items.
        if code == "CK420" { args += ["--batch", "300"] }
        if code == "CK414" || fixture.hasPrefix("CK407.batch") { args += ["--batch", "10"] }
        return args
    }

    @Test func everyFixtureIsFound() {
        #expect(Self.fixtures.count >= 36, "\(Self.fixtures)")
        #expect(Self.fixtures.contains("valid.yaml") && Self.fixtures.contains("CK400.fail.ndjson"))
    }

    @Test(arguments: fixtures)
    func binaryPrintsExpectedDiagnostics(fixture: String) throws {
        let path = Self.folder + "/" + fixture
        let result = try runCLI(["validate", "--schema", Self.folder + "/schema.yaml"] + Self.arguments(fixture) + [path])
        let expectedPath = Paths.root + "/" + path + ".expected"
        try expectMatchesFixture(result.stdout, expectedPath)
        let expected = try read(expectedPath)
        // Exit codes as validate promises them: 2 when a record is not JSON, 1 for an error, else 0.
        let code: Int32 = expected.contains("[CK400]") ? 2 : expected.contains(": error: ") ? 1 : 0
        #expect(result.code == code, "\(fixture): exit \(result.code)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        if fixture.hasSuffix(".pass.ndjson") || fixture.hasPrefix("valid.") {
            #expect(!expected.contains(": error: "), "\(fixture) is meant to be clean")
        }
    }
}
