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

/// Every CK61x rule: a bad model that triggers only it, a good one that is clean, and the
/// exact text and exit code of the built binary.
@Suite struct CoreDataLintTests {
    static let codes = CoreDataLint.types.map { $0.info.code }

    @Test(arguments: codes)
    func badModelTriggersOnlyItsRule(code: String) throws {
        let found = Linter().lint(try coreDataFixture("lint/\(code)-bad.xcdatamodel"))
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { $0.code == code }, "\(found.map(\.code))")
        #expect(found.allSatisfy { $0.location?.file.hasSuffix("\(code)-bad.xcdatamodel/contents") == true })
    }

    @Test(arguments: codes)
    func goodModelIsClean(code: String) throws {
        let found = Linter().lint(try coreDataFixture("lint/\(code)-good.xcdatamodel"))
        #expect(found.isEmpty, "\(found.map { "\($0.code) \($0.message)" })")
    }

    @Test(arguments: codes)
    func binaryPrintsExpectedDiagnostics(code: String) throws {
        let bad = try runCLI(["lint", "Tests/Fixtures/coredata/lint/\(code)-bad.xcdatamodel"])
        try expectMatchesFixture(bad.stdout, Paths.fixture("coredata/lint/\(code)-bad.expected"))
        // An error fails lint; a note (CK618) is reported and passes.
        let info = try #require(CoreDataLint.types.first { $0.info.code == code }?.info)
        #expect(bad.code == (info.defaultSeverity == .error ? 1 : 0))
        let good = try runCLI(["lint", "Tests/Fixtures/coredata/lint/\(code)-good.xcdatamodel"])
        #expect(good.code == 0)
        #expect(good.stdout == "ckschema lint: passed: 0 errors, 0 warnings\n")
    }

    /// Done when: a uniqueness constraint or a required attribute without default is lint
    /// error 1 at the line in `contents`.
    @Test func doneWhenConstraintAndRequiredAttributeFailAtTheirLine() throws {
        let unique = try runCLI(["lint", "Tests/Fixtures/coredata/lint/CK610-bad.xcdatamodel"])
        #expect(unique.code == 1 && unique.stdout.hasPrefix("Tests/Fixtures/coredata/lint/CK610-bad.xcdatamodel/contents:7:13: error:"))
        let required = try runCLI(["lint", "Tests/Fixtures/coredata/lint/CK611-bad.xcdatamodel"])
        #expect(required.code == 1 && required.stdout.hasPrefix("Tests/Fixtures/coredata/lint/CK611-bad.xcdatamodel/contents:5:9: error:"))
    }

    @Test func aSchemaWithoutModelPassesEveryCoreDataRule() throws {
        let schema = try SchemaSource.load(path: Paths.root + "/Schemas/development.yaml")
        var findings: [LintFinding] = []
        let context = LintContext(schema)
        for rule in CoreDataLint.types { rule.init().check(context, into: &findings) }
        #expect(findings.isEmpty)
    }
}

/// Bad input: a diagnostic with a location and exit 2, never a crash.
@Suite struct CoreDataInputTests {
    static let cases = ["NotXML.xcdatamodel", "Truncated.xcdatamodel", "NoModel.xcdatamodel", "UnknownType.xcdatamodel",
                        "MissingEntity.xcdatamodel", "NoVersion.xcdatamodeld", "MissingCurrent.xcdatamodeld",
                        "NotUTF8.xcdatamodel", "DTD.xcdatamodel"]

    @Test(arguments: cases)
    func badModelExits2WithItsDiagnostic(name: String) throws {
        let result = try runCLI(["lint", "Tests/Fixtures/coredata/bad/\(name)"])
        #expect(result.code == 2)
        let stem = (name as NSString).deletingPathExtension
        try expectMatchesFixture(result.stderr, Paths.fixture("coredata/bad/\(stem).expected"))
        #expect(result.stdout.isEmpty)
    }

    @Test func everyTruncationOfAModelIsADiagnostic() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Paths.fixture("coredata/lint/CK613-good.xcdatamodel/contents")))
        for n in stride(from: 0, to: data.count - "</model>\n".utf8.count, by: 7) {
            do {
                let model = try CoreDataReader.parse(data.prefix(n), file: "contents", versionName: "T")
                _ = try? CoreDataMapping.schema(for: model)
                Issue.record("a truncation at \(n) bytes parsed as a whole model")
            } catch {
                #expect(error.diagnostics.allSatisfy { $0.location != nil && $0.code.hasPrefix("CK60") })
            }
        }
    }

    @Test func aVersionThatIsNotThereIsNamed() throws {
        let result = try runCLI(["lint", "Tests/Fixtures/coredata/versions/Notes.xcdatamodeld", "--model-version", "Notes 9"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("has no version 'Notes 9'; it has 'Notes', 'Notes 2' [CK602]"))
    }
}
