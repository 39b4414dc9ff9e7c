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

/// Issue #11, defect 5 (and point 7 of #9): every record reader is linear with bounded
/// memory, `records import` caps a line as `validate` does, and reads standard input as
/// NDJSON with the same diagnostics as a file.
@Suite struct ReaderBoundsTests {
    static func note(_ name: String, _ fields: String) -> String {
        #"{"recordName":"\#(name)","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{\#(fields)}}"#
    }

    static func schemaFile(_ dir: String) throws -> String {
        let path = dir + "/s.yaml"
        try Data("""
            ckschema: 1
            zones:
              Notes: { database: private, capabilities: [fetchChanges] }
            recordTypes:
              Note:
                zone: Notes
                fields:
                  title: string

            """.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// 20,000 unknown fields on one line took minutes when each finding rescanned the record.
    @Test(.timeLimit(.minutes(1))) func manyFindingsInOneRecordAreLinear() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let n = 20_000
        let fields = (0..<n).map { #""f\#($0)":{"value":"x","type":"STRING"}"# }.joined(separator: ",")
        try Data((Self.note("wide", fields) + "\n").utf8).write(to: URL(fileURLWithPath: dir + "/w.ndjson"))
        let started = Date()
        let r = try runCLI(["validate", "--env", "production", "--schema", try Self.schemaFile(dir), dir + "/w.ndjson"], cwd: dir)
        let seconds = Date().timeIntervalSince(started)
        #expect(r.code == 1)
        #expect(r.stdout.hasSuffix("1 record, \(n) errors\n"), "\(r.stdout.suffix(200))")
        // The last finding's column is right: found by going on, not by rescanning.
        let last = #"\#(dir)/w.ndjson:1:\#(Self.note("wide", fields).utf8.count - #""f19999":{"value":"x","type":"STRING"}}}"#.utf8.count + 1): error: record #1 'wide', field 'f19999'"#
        #expect(r.stdout.contains(last), "\(r.stdout.suffix(400))")
        #expect(seconds < 20, "took \(seconds) s")
        // Development: the same record, 20,000 inferred fields.
        let dev = try runCLI(["validate", "--env", "development", "--schema", try Self.schemaFile(dir), dir + "/w.ndjson"], cwd: dir)
        #expect(dev.stdout.hasSuffix("1 record, \(n) notes\n"))
    }

    /// A minified one-line array was quadratic (every element's column counted from the line's start).
    @Test(.timeLimit(.minutes(1))) func aOneLineArrayIsLinear() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let n = 20_000
        let array = "[" + (0..<n).map { Self.note("n\($0)", #""title":{"value":"t","type":"STRING"}"#) }.joined(separator: ",") + #",{"recordName":"bad","recordType":"Nope"}]"#
        try Data(array.utf8).write(to: URL(fileURLWithPath: dir + "/a.json"))
        let started = Date()
        let r = try runCLI(["validate", "--schema", try Self.schemaFile(dir), dir + "/a.json"], cwd: dir)
        #expect(Date().timeIntervalSince(started) < 20)
        let column = array.utf8.count - #""Nope"}]"#.utf8.count + 1
        #expect(r.stdout.contains("a.json:1:\(column): error: record #\(n + 1) 'bad': record type 'Nope' is not in the production schema"), "\(r.stdout)")
    }

    @Test func importCapsALineAsValidateDoesAndKeepsTheRest() throws {
        let sb = try RecordIntegrityTests.sandbox()
        defer { sb.cleanup() }
        let long = Self.note("big", #""title":{"value":""# + String(repeating: "x", count: RecordChunkReader.maxRecordBytes + 10) + #"","type":"STRING"}"#)
        let file = sb.root + "/long.ndjson"
        try Data([Self.note("a", #""title":{"value":"t","type":"STRING"}"#), long, Self.note("b", #""title":{"value":"t","type":"STRING"}"#)]
            .joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        let r = try runCLI(["records", "import", "--store", sb.store, file], cwd: sb.root)
        #expect(r.code == 1)
        #expect(r.stdout.contains("long.ndjson:2:1: error: record #2: the line is 16.00 MB long, more than the 16 MB ckschema reads as one record"), "\(r.stdout)")
        #expect(r.stdout.contains("saved 0 records") || r.stdout.contains("saved 2 records"))
        // validate says the same of the same line.
        let v = try runCLI(["validate", "--env", "development", "--schema", try Self.schemaFile(sb.root), file], cwd: sb.root)
        #expect(v.stdout.contains("long.ndjson:2:1: error: record #2: the line is 16.00 MB long"), "\(v.stdout)")
    }

    @Test func anOverLongArrayElementIsNotFollowedByASpuriousTruncation() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let big = Self.note("big", #""title":{"value":""# + String(repeating: "x", count: RecordChunkReader.maxRecordBytes + 10) + #"","type":"STRING"}"#)
        try Data(("[" + big + "," + Self.note("ok", "") + "]").utf8).write(to: URL(fileURLWithPath: dir + "/a.json"))
        let r = try runCLI(["validate", "--env", "development", "--schema", try Self.schemaFile(dir), dir + "/a.json"], cwd: dir)
        #expect(r.stdout.contains("a record is larger than 16 MB; stopped reading this file [CK400]"))
        #expect(!r.stdout.contains("truncated"), "\(r.stdout)")
    }

    @Test func importFromStandardInputMatchesImportFromAFile() throws {
        let lines = [Self.note("a", #""title":{"value":"t","type":"STRING"}"#), #"{"recordName":"#, "not json", Self.note("c", #""views":{"value":"x","type":"INT64"}"#)]
        let text = lines.joined(separator: "\n") + "\n"
        let sb1 = try RecordIntegrityTests.sandbox(), sb2 = try RecordIntegrityTests.sandbox()
        defer { sb1.cleanup(); sb2.cleanup() }
        let file = sb1.root + "/in.ndjson"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let fromFile = try runCLI(["records", "import", "--store", sb1.store, file], cwd: sb1.root)
        let fromStdin = try runCLI(["records", "import", "--store", sb2.store, "-"], cwd: sb2.root, stdin: text)
        #expect(fromFile.code == 1)
        #expect(fromStdin.code == fromFile.code)
        #expect(fromStdin.stdout == fromFile.stdout.replacingOccurrences(of: file, with: "<stdin>"), "\(fromStdin.stdout)\n---\n\(fromFile.stdout)")
        #expect(fromStdin.stdout.contains("<stdin>:2:15: error: record #2: unexpected end of input; the record is truncated [CK400]"), "\(fromStdin.stdout)")
        #expect(fromStdin.stdout.contains("<stdin>:4:"))
        #expect(fromStdin.stdout.contains("record #4 'c', field 'views': expected an int64 but found a string"))
    }
}
