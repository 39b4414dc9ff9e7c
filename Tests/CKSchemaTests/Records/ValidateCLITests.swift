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

@Suite struct ValidateCLITests {
    static let schema = "Tests/Fixtures/records/schema.yaml"

    /// No output format, no environment, no error path prints an encrypted field's value.
    @Test(arguments: OutputFormat.allCases)
    func encryptedValuesNeverLeak(format: OutputFormat) throws {
        let files = ["leak.ndjson", "CK406.fail.ndjson", "CK403.fail.ndjson", "valid.ndjson", "valid.yaml"].map { "Tests/Fixtures/records/" + $0 }
        for env in ["production", "development"] {
            var args = ["validate", "--schema", Self.schema, "--env", env, "--format", format.rawValue, "--batch", "2"] + files
            if env == "development" { args.append("--infer") }
            let r = try runCLI(args)
            #expect(r.code == 2, "the leak fixture holds a malformed record")
            #expect(r.stdout.contains("CK406"), "the run must report findings for the test to mean anything")
            #expect(!r.stdout.contains(RecordFixtures.secret))
            #expect(!r.stderr.contains(RecordFixtures.secret))
            #expect(!r.stdout.contains("S3CRET"))
        }
        // The fixtures do hold the secret, in every encrypted form.
        let leak = try read(Paths.fixture("records/leak.ndjson"))
        #expect(leak.components(separatedBy: RecordFixtures.secret).count > 5)
    }

    @Test func exitCodesFollowTheCIContract() throws {
        let clean = try runCLI(["validate", "--schema", Self.schema, "Tests/Fixtures/records/valid.ndjson"])
        #expect(clean.code == 0)
        #expect(clean.stdout == "5 records\n")
        #expect(clean.stderr.isEmpty, "no progress line when standard error is not a terminal")
        let findings = try runCLI(["validate", "--schema", Self.schema, "Tests/Fixtures/records/CK402.fail.ndjson"])
        #expect(findings.code == 1)
        #expect(findings.stdout == """
            Tests/Fixtures/records/CK402.fail.ndjson:1:94: error: record #1 't1', field 'subtitle': Cannot create or modify field 'subtitle' in record 'Trip' in production schema [CK402]
            Tests/Fixtures/records/CK402.fail.ndjson:1:94: note: add the field in development and promote the schema before writing it
            1 record, 1 error

            """)
        let missing = try runCLI(["validate", "--schema", Self.schema, "Tests/Fixtures/records/nope.ndjson"])
        #expect(missing.code == 2)
        #expect(missing.stdout.contains("CK001"))
        let malformed = try runCLI(["validate", "--schema", Self.schema, "Tests/Fixtures/records/CK400.fail.ndjson"])
        #expect(malformed.code == 2)
        let warnings = try runCLI(["validate", "--schema", Self.schema, "--fail-on", "warning", "Tests/Fixtures/records/CK411.fail.ndjson"])
        #expect(warnings.code == 1)
        let usage = try runCLI(["validate", "--schema", Self.schema, "--jobs", "0", "x.ndjson"])
        #expect(usage.code == 2)
        #expect(usage.stderr.contains("--jobs needs a positive whole number"))
    }

    @Test func readsStandardInputAndStopsAtMaxErrors() throws {
        let input = (1...10).map { #"{"recordName":"r\#($0)","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":"x"}}"# }.joined(separator: "\n")
        let r = try runCLI(["validate", "--schema", Self.schema, "--max-errors", "2", "-"], stdin: input)
        #expect(r.code == 1)
        #expect(r.stdout.components(separatedBy: "<stdin>:").count - 1 == 2)
        #expect(r.stdout.contains("stopped after --max-errors 2"))
    }

    @Test func inferPrintsTheSchemaChange() throws {
        let r = try runCLI(["validate", "--schema", Self.schema, "--env", "development", "--infer", "Tests/Fixtures/records/CK416.fail.ndjson"])
        #expect(r.code == 0)
        #expect(r.stdout.hasSuffix("""
            recordTypes:
              Trip:
                fields:
                  mood: string
                  score: int64
              Note:  # new record type
                fields:
                  body: string

            """))
        let prod = try runCLI(["validate", "--schema", Self.schema, "--infer", "Tests/Fixtures/records/CK416.fail.ndjson"])
        #expect(prod.code == 2)
        #expect(prod.stderr.contains("--infer needs --env development"))
    }

    @Test func helpHasUsageAndExample() throws {
        for command in ["validate", "export"] {
            let r = try runCLI([command, "--help"])
            #expect(r.code == 0)
            #expect(r.stdout.hasPrefix("usage: ckschema \(command)"))
            #expect(r.stdout.contains("example:"))
        }
    }

    @Test func exportedJSONSchemaDescribesEveryRecordType() throws {
        let r = try runCLI(["export", "--format", "jsonschema", Self.schema])
        #expect(r.code == 0)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(doc["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        let defs = try #require(doc["$defs"] as? [String: Any])
        for name in ["Trip", "Waypoint", "OldThing", "recordName"] { #expect(defs[name] != nil, "\(name)") }
        let trip = try #require(defs["Trip"] as? [String: Any])
        let props = try #require(trip["properties"] as? [String: Any])
        let fields = try #require(props["fields"] as? [String: Any])
        #expect(fields["additionalProperties"] as? Bool == false)
        let fieldProps = try #require(fields["properties"] as? [String: Any])
        #expect(Set(fieldProps.keys) == ["title", "startedAt", "distance", "steps", "region", "notes", "cover", "tags", "counts", "thumbnail", "legacyRating"])
        let enc = try #require((props["encryptedValues"] as? [String: Any])?["properties"] as? [String: Any])
        #expect(Array(enc.keys) == ["notes"])
    }

    @Test func checkValidatesTheConfiguredRecordFiles() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: Paths.fixture("records/schema.yaml"), toPath: dir + "/schema.yaml")
        try FileManager.default.copyItem(atPath: Paths.fixture("records/CK402.fail.ndjson"), toPath: dir + "/bad.ndjson")
        try FileManager.default.copyItem(atPath: Paths.fixture("records/CK416.fail.ndjson"), toPath: dir + "/dev.ndjson")
        let config = """
            ckschema: 1
            schemas: { development: schema.yaml, production: schema.yaml }
            records:
              - { path: bad.ndjson, env: production }
              - { path: dev.ndjson, env: development }
            check: [validate]
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: dir + "/ckschema.yaml"))
        let r = try runCLI(["check"], cwd: dir)
        #expect(r.code == 1)
        #expect(r.stdout.contains("bad.ndjson:1:94: error: record #1 't1', field 'subtitle': Cannot create or modify field 'subtitle'"))
        #expect(r.stdout.contains("dev.ndjson:1:94: note:"))
        // The repository's own example validates clean.
        let own = try runCLI(["check"])
        #expect(own.code == 0)
    }

    /// On a terminal the text report shows source lines; never a record file's.
    @Test func sourceLinesOfRecordFilesAreNeverShown() throws {
        let file = Paths.fixture("records/leak.ndjson")
        let r = try RecordFixtures.run([file])
        #expect(!r.diagnostics.isEmpty)
        let text = DiagnosticRenderer(format: .text, command: "check", showSource: true).render(r.diagnostics)
        #expect(text.contains("CK406"))
        #expect(!text.contains("S3CRET"))
    }
}
