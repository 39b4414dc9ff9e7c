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

/// Issue #11, defect 5: `validate --format json` streams its report, `--format sarif` caps it
/// at code scanning's limit and says so; neither holds every diagnostic of a huge run.
@Suite struct StreamingReportTests {
    static func diagnostics(_ n: Int) -> [Diagnostic] {
        (0..<n).map { i in
            Diagnostic(code: i % 3 == 0 ? "CK403" : "CK402", severity: i % 5 == 0 ? .warning : .error,
                       location: SourceLocation(file: "r.ndjson", line: i + 1, column: 3), message: "record #\(i + 1): \"x\"\n\u{1B}", fix: i % 2 == 0 ? "fix it" : nil,
                       fixIt: i % 4 == 1 ? FixIt(replacing: 2, at: SourceLocation(file: "r.ndjson", line: i + 1, column: 3), with: "a\"b") : nil)
        }
    }

    @Test(arguments: [0, 1, 2, 7])
    func theStreamedJSONIsTheDocumentTheRendererWrites(count: Int) throws {
        let ds = Self.diagnostics(count)
        var report = StreamingReport(format: .json, command: "validate")
        var text = report.begin()
        for d in ds { text += report.add(d) }
        text += report.end()
        #expect(text == DiagnosticRenderer(format: .json, command: "validate").render(ds))
    }

    @Test func sarifKeepsTheLimitAndSaysHowManyItLeftOut() throws {
        var report = StreamingReport(format: .sarif, command: "validate", sarifLimit: 3)
        for d in Self.diagnostics(10) { #expect(report.add(d).isEmpty) }
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(report.end().utf8)) as? [String: Any])
        let runs = try #require(doc["runs"] as? [[String: Any]])
        let results = try #require(runs.first?["results"] as? [[String: Any]])
        #expect(results.count == 4)
        let note = try #require(results.first { ($0["ruleId"] as? String) == "CK030" })
        #expect(((note["message"] as? [String: Any])?["text"] as? String)?.contains("7 more were left out") == true)
    }

    @Test func validateStreamsJSONThroughTheBinary() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let n = 5000
        let lines = (0..<n).map { #"{"recordName":"r\#($0)","recordType":"Nope","fields":{}}"# }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: dir + "/r.ndjson"))
        let schema = try ReaderBoundsTests.schemaFile(dir)
        let r = try runCLI(["validate", "--format", "json", "--schema", schema, dir + "/r.ndjson"], cwd: dir)
        #expect(r.code == 1)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect((doc["diagnostics"] as? [Any])?.count == n)
        #expect((doc["summary"] as? [String: Int])?["errors"] == n)
        let sarif = try runCLI(["validate", "--format", "sarif", "--schema", schema, dir + "/r.ndjson"], cwd: dir)
        #expect(sarif.code == 1)
        #expect(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) is [String: Any])
    }
}
