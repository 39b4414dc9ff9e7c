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

/// Shared helpers: the fixture schema and a run that collects diagnostics.
enum RecordFixtures {
    static let schemaPath = Paths.fixture("records/schema.yaml")
    static let secret = "S3CRET-do-not-print"

    static func schema() throws -> Schema { try SchemaSource.load(path: schemaPath) }

    static func run(_ files: [String], env: Environment = .production, options: RecordValidator.Options = .init()) throws
        -> (diagnostics: [Diagnostic], summary: ValidationSummary) {
        let validator = RecordValidator(schema: try schema(), environment: env, options: options)
        var out: [Diagnostic] = []
        let summary = validator.validate(files: files) { out.append($0) }
        return (out, summary)
    }

    static func run(text: String, format: RecordFormat = .ndjson, env: Environment = .production,
                    options: RecordValidator.Options = .init()) throws -> [Diagnostic] {
        let validator = RecordValidator(schema: try schema(), environment: env, options: options)
        var out: [Diagnostic] = []
        _ = validator.validate(bytes: Array(text.utf8), file: "mem", format: format) { out.append($0) }
        return out
    }
}

@Suite struct RecordValidatorTests {
    /// Each check's fixture pair: `CKnnn.fail.ndjson` triggers it, `CKnnn.pass.ndjson` is clean.
    static let pairs: [(code: String, env: Environment, batch: Int?)] = [
        ("CK400", .production, nil), ("CK401", .production, nil), ("CK402", .production, nil),
        ("CK403", .production, nil), ("CK404", .production, nil), ("CK405", .production, nil),
        ("CK406", .production, nil), ("CK407", .production, nil), ("CK408", .production, nil),
        ("CK409", .production, nil), ("CK411", .production, nil), ("CK412", .production, 500), ("CK414", .production, 10),
        ("CK415", .production, nil), ("CK416", .development, nil), ("CK417", .development, nil),
    ]

    @Test(arguments: pairs)
    func fixtureTriggersAndPasses(code: String, env: Environment, batch: Int?) throws {
        let options = RecordValidator.Options(batchSize: batch)
        let fail = try RecordFixtures.run([Paths.fixture("records/\(code).fail.ndjson")], env: env, options: options)
        #expect(fail.diagnostics.contains { $0.code == code }, "\(code).fail.ndjson should trigger \(code)")
        let pass = try RecordFixtures.run([Paths.fixture("records/\(code).pass.ndjson")], env: env, options: options)
        #expect(!pass.diagnostics.contains { $0.code == code })
        #expect(pass.summary.errors == 0)
    }

    @Test(arguments: ["valid.ndjson", "valid.json", "valid.yaml"])
    func validFilesInEveryFormatAreClean(file: String) throws {
        let r = try RecordFixtures.run([Paths.fixture("records/" + file)])
        #expect(r.diagnostics.isEmpty, "\(r.diagnostics.map(\.message))")
        #expect(r.summary.records >= 2)
    }

    @Test func malformedLinesAreReportedAtTheirLineAndValidationContinues() throws {
        let r = try RecordFixtures.run([Paths.fixture("records/CK400.fail.ndjson")])
        let lines = r.diagnostics.filter { $0.code == "CK400" }.map { $0.location?.line }
        #expect(lines == [2, 3, 5])
        #expect(r.summary.records == 6)
        #expect(r.summary.malformedRecords == 3)
        #expect(r.diagnostics.first { $0.location?.line == 3 }?.message.contains("NaN") == true)
    }

    @Test func productionRefusalUsesCloudKitsWords() throws {
        let r = try RecordFixtures.run([Paths.fixture("records/CK402.fail.ndjson")])
        let d = try #require(r.diagnostics.first { $0.code == "CK402" })
        #expect(d.message == "record #1 't1', field 'subtitle': Cannot create or modify field 'subtitle' in record 'Trip' in production schema")
        #expect(d.location == SourceLocation(file: Paths.fixture("records/CK402.fail.ndjson"), line: 1, column: 94))
    }

    @Test func developmentAcceptsUnknownFieldsAndInfersThem() throws {
        let r = try RecordFixtures.run([Paths.fixture("records/CK416.fail.ndjson")], env: .development, options: .init(infer: true))
        #expect(r.summary.errors == 0)
        #expect(r.summary.inferred.yaml == """
            # The schema change CloudKit's development environment would make from these records.
            recordTypes:
              Trip:
                fields:
                  mood: string
                  score: int64
              Note:  # new record type
                fields:
                  body: string

            """)
        let conflict = try RecordFixtures.run([Paths.fixture("records/CK417.fail.ndjson")], env: .development)
        let d = try #require(conflict.diagnostics.first { $0.code == "CK417" })
        #expect(d.location?.line == 2)
        #expect(d.message.contains("written as int64 but an earlier record wrote it as string"))
    }

    /// The three record shapes, each with a value of the wrong type.
    @Test(arguments: [
        ("web services", #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":{"value":"x","type":"INT64"}}}"#, "CK403"),
        ("cktool", #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":{"type":"int64Type","value":1.5}}}"#, "CK403"),
        ("plain", #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":"x"}}"#, "CK403"),
        ("web services tag", #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":{"value":1,"type":"DOUBLE"}}}"#, "CK405"),
        ("cktool tag", #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":{"value":1,"type":"stringType"}}}"#, "CK405"),
        ("plain encrypted", #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"encryptedValues":{"steps":1}}"#, "CK406"),
        ("cktool encrypted", #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"notes":{"type":"stringType","value":"x"}}}"#, "CK406"),
        ("web services plaintext", #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":{"type":"STRING","value":"x","isEncrypted":true}}}"#, "CK406"),
    ])
    func eachShapeIsChecked(shape: String, record: String, code: String) throws {
        let d = try RecordFixtures.run(text: record + "\n")
        #expect(d.map(\.code) == [code], "\(shape): \(d.map(\.message))")
    }

    @Test func recordOverOneMegabyteIsRefused() throws {
        func record(_ size: Int) -> String {
            #"{"recordName":"big","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":""# + String(repeating: "x", count: size) + "\"}}\n"
        }
        #expect(try RecordFixtures.run(text: record(1_100_000)).map(\.code) == ["CK410"])
        #expect(try RecordFixtures.run(text: record(1_000_000)).isEmpty)
    }

    @Test func batchesFollowCloudKitsLimits() throws {
        let small = (0..<401).map { #"{"recordName":"r\#($0)","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":"x"}}"# }.joined(separator: "\n") + "\n"
        let over = try RecordFixtures.run(text: small, options: .init(batchSize: 500))
        #expect(over.map(\.code) == ["CK412"])
        #expect(over.first?.location?.line == 401)
        #expect(try RecordFixtures.run(text: small, options: .init(batchSize: 400)).isEmpty)
        let big = String(repeating: "x", count: 900_000)
        let heavy = (0..<3).map { #"{"recordName":"h\#($0)","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":"\#(big)"}}"# }.joined(separator: "\n") + "\n"
        #expect(try RecordFixtures.run(text: heavy, options: .init(batchSize: 3)).map(\.code) == ["CK413"])
        #expect(try RecordFixtures.run(text: heavy, options: .init(batchSize: 2)).isEmpty)
    }

    @Test func hostileInputNeverStopsTheRun() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let ok = #"{"recordName":"ok","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":"x"}}"# + "\n"
        var data = Data(ok.utf8)
        data.append(Data(String(repeating: "[", count: 100_000).utf8) + Data("\n".utf8))          // line 2: 100,000 deep
        data.append(Data(ok.utf8))
        data.append(Data(#"{"recordType":"Trip","fields":{"title":""#.utf8) + Data(count: 100 << 20) + Data("\"}}\n".utf8))  // line 4: 100 MB
        data.append(Data(ok.utf8))
        data.append(Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D, 0x0A]))                 // line 6: invalid UTF-8
        data.append(Data(#"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":99999999999999999999}}"#.utf8) + Data("\n".utf8))  // line 7
        data.append(Data(#"{"recordType":"Trip","fields":{"title":"cut"#.utf8))                  // line 8: truncated, no newline
        let path = dir + "/hostile.ndjson"
        try data.write(to: URL(fileURLWithPath: path))
        for jobs in [1, 2] {
            let r = try RecordFixtures.run([path], options: .init(jobs: jobs))
            #expect(r.diagnostics.map(\.code) == ["CK400", "CK400", "CK400", "CK403", "CK400"], "jobs \(jobs)")
            #expect(r.diagnostics.map { $0.location?.line ?? 0 } == [2, 4, 6, 7, 8], "jobs \(jobs)")
            #expect(r.summary.records == 8)
        }
    }

    @Test func parallelRunsKeepInputOrderAndLineNumbers() throws {
        // 30,000 records (several 1 MB chunks), every 1,000th with a wrong type.
        var lines: [String] = []
        for i in 1...30_000 {
            let steps = i % 1000 == 0 ? "\"x\"" : "\(i)"
            lines.append(#"{"recordName":"r\#(i)","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":"some title text here","steps":\#(steps)}}"#)
        }
        let text = lines.joined(separator: "\n") + "\n"
        for jobs in [1, 2, 3] {
            let d = try RecordFixtures.run(text: text, options: .init(jobs: jobs))
            #expect(d.map { $0.location?.line ?? 0 } == Array(stride(from: 1000, through: 30_000, by: 1000)), "jobs \(jobs)")
            #expect(d.first?.message.hasPrefix("record #1000 'r1000'") == true)
        }
        let limited = try RecordFixtures.run(text: text, options: .init(maxErrors: 3, jobs: 2))
        #expect(limited.count == 3)
    }

    @Test func jsonArrayAndYAMLRecordsHaveLinesAndIndexes() throws {
        let array = """
            [
              {"recordName": "a", "recordType": "Trip", "zoneID": {"zoneName": "Journal"}, "fields": {"steps": "x"}},
              {"recordName": "b", "recordType": "Trip", "zoneID": {"zoneName": "Journal"},
               "fields": {"title": 1}}
            ]
            """
        let d = try RecordFixtures.run(text: array, format: .json)
        #expect(d.map { "\($0.location!.line):\($0.location!.column) \($0.code)" } == ["2:100 CK403", "4:24 CK403"])
        #expect(d.last?.message.hasPrefix("record #2 'b', field 'title'") == true)
        let yaml = """
            - recordName: a
              recordType: Trip
              zoneID: { zoneName: Journal }
              fields:
                steps: many
            - recordName: b
              recordType: Nope
            """
        let y = try RecordFixtures.run(text: yaml, format: .yaml)
        #expect(y.map { "\($0.location!.line):\($0.location!.column) \($0.code)" } == ["5:12 CK403", "7:15 CK401"])
        #expect(y.last?.message.hasPrefix("record #2 'b'") == true)
    }

    @Test func recordNamesFollowCKRecordID() throws {
        let r = try RecordFixtures.run([Paths.fixture("records/CK409.fail.ndjson")])
        #expect(r.diagnostics.map(\.code) == ["CK409", "CK409", "CK409", "CK409"])
        #expect(r.diagnostics[0].message.contains("not ASCII"))
        #expect(r.diagnostics[1].message.contains("underscore"))
        #expect(r.diagnostics[2].message.contains("256 characters"))
        #expect(r.diagnostics[3].message.contains("empty"))
    }

    /// With --batch, a reference's target found in the files must be of the schema's type.
    @Test func referenceTargetTypeFromTheFiles() throws {
        let file = Paths.fixture("records/CK407.batch.fail.ndjson")
        let r = try RecordFixtures.run([file], options: .init(batchSize: 10))
        #expect(r.diagnostics.map(\.code) == ["CK407"])
        #expect(r.diagnostics.first?.message == "record #1 'w1', field 'trip': the reference points at 'w2', a 'Waypoint' record, but the schema says the field points at 'Trip'")
        #expect(r.diagnostics.first?.location?.line == 1)
        // Without --batch, record names are not kept and only an explicit recordType is checked.
        #expect(try RecordFixtures.run([file]).diagnostics.isEmpty)
    }

    @Test func malformedYAMLIsReportedAtItsLine() throws {
        let d = try RecordFixtures.run(text: "- recordName: a\n  recordType: [Trip\n", format: .yaml)
        #expect(d.count == 1)
        #expect(d.first?.code == "CK400")
        #expect(d.first?.location?.line == 3)
    }

    /// A JSON array larger than one read block: elements cut across blocks keep their
    /// lines, columns and indexes, also those that start in the middle of a line.
    @Test func largeJSONArraysKeepPositionsAcrossBlocks() throws {
        var lines = ["["]
        var expected: [String] = []
        func mark(_ needle: String, _ index: Int) {
            let l = lines.last!
            let col = l.utf8.count - (l.components(separatedBy: needle).last!.utf8.count + needle.utf8.count) + 1
            expected.append("\(lines.count):\(col) #\(index)")
        }
        for i in stride(from: 1, through: 20_000, by: 2) {
            // Two records a line, then the rest of the second on the next line.
            let steps = i % 1000 == 1 ? "\"x1\"" : "\(i)"
            var first = #"  {"recordName": "r\#(i)", "recordType": "Trip", "zoneID": {"zoneName": "Journal"}, "fields": {"title": "a title", "steps": \#(steps)}}, "#
            // Every second record's type is unknown: its diagnostic sits mid-line, so each
            // block that starts mid-line is checked for its columns.
            let type = "Nope"
            first += #"{"recordName": "r\#(i + 1)", "recordType": "\#(type)","#
            lines.append(first)
            if i % 1000 == 1 { mark("\"x1\"", i) }
            if type == "Nope" { mark("\"Nope\"", i + 1) }
            let steps2 = (i + 1) % 1000 == 0 ? "\"x2\"" : "\(i + 1)"
            lines.append(#"   "fields": {"steps": \#(steps2)}}"# + (i + 1 == 20_000 ? "" : ","))
            // (x2 is not reported: a record of an unknown type is not checked further.)
        }
        lines.append("]")
        let text = lines.joined(separator: "\n") + "\n"
        for jobs in [1, 2] {
            let d = try RecordFixtures.run(text: text, format: .json, options: .init(jobs: jobs))
            let got = d.map { "\($0.location!.line):\($0.location!.column) \($0.message.split(separator: " ")[1])" }
            #expect(got == expected, "jobs \(jobs): \(Array(zip(got, expected).filter { $0 != $1 }.prefix(3)))")
            #expect(got.count == 10_020)
        }
    }
}
