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

/// `ckschema query`: CloudKit's predicates over the store, refused where CloudKit refuses them.
@Suite struct QueryTests {
    @Test(arguments: [
        ("mood > 3", ["n1", "n3"]),
        ("mood == 2", ["n2"]),
        ("mood BETWEEN {2, 4}", ["n2", "n3"]),
        ("mood IN {2, 5}", ["n1", "n2"]),
        ("NOT mood IN {2, 5}", ["n3"]),
        ("title BEGINSWITH 'Trail'", ["n1", "n3"]),
        ("title == 'Rainy day'", ["n2"]),
        ("tags CONTAINS 'alps'", ["n1", "n3"]),
        ("ANY tags == 'home'", ["n2"]),
        ("'lake' IN tags", ["n1"]),
        ("self CONTAINS 'trail'", ["n1", "n3"]),
        ("self CONTAINS 'RAINY'", ["n2"]),
        ("self CONTAINS 'or'", []),
        ("due > CAST(0, \"NSDate\") AND due < CAST(750000000, \"NSDate\")", ["n1", "n2"]),
        // ISO 8601 text reads as the record shape reads it: n1 is due at 1700000000000 ms.
        ("due > CAST(\"2023-11-14T22:13:19Z\", \"NSDate\") AND due <= CAST('2023-11-14T23:13:20+01:00', 'NSDate')", ["n1"]),
        ("distanceToLocation:fromLocation:(place, {46.56, 7.97}) < 5000", ["n1"]),
        ("distanceToLocation:fromLocation:(place, {46.56, 7.97}) > 5000", ["n2"]),
        ("mood > 3 AND title BEGINSWITH 'Trail r'", ["n3"]),
    ])
    func predicatesSelectTheRecordsCloudKitWould(predicate: String, expected: [String]) throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        let got = try sb.names(RecordQuery(recordType: "Note", predicate: predicate))
        #expect((try? got.get()) == expected, "\(got)")
    }

    /// `CAST("…", "NSDate")` with ISO 8601 text agrees with seconds since 2001, through the
    /// binary; text that is no date is refused at its column.
    @Test func isoDatesInPredicatesThroughTheBinary() throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        // 1700000000 s after 1970 is 721692800 s after 2001.
        for p in [#"due == CAST("2023-11-14T22:13:20Z", "NSDate")"#, #"due == CAST(721692800, "NSDate")"#] {
            let r = try runCLI(["query", "Note", "--predicate", p, "--store", sb.storePath])
            #expect(r.code == 0, "\(r.stderr)")
            #expect(r.stdout.split(separator: "\n").map { $0.contains(#""recordName":"n1""#) } == [true], "\(p): \(r.stdout)")
        }
        let bad = try runCLI(["query", "Note", "--predicate", #"due > CAST("2023-13-01", "NSDate")"#, "--store", sb.storePath])
        #expect(bad.code == 1)
        #expect(bad.stderr.contains("<predicate>:1:12: error: '2023-13-01' is not an ISO 8601 date"), "\(bad.stderr)")
    }

    @Test func sortsAndLimits() throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        #expect(try sb.names(RecordQuery(recordType: "Note", predicate: "mood > 0", sort: [.init(field: "due", descending: true)])).get() == ["n3", "n1", "n2"])
        #expect(try sb.names(RecordQuery(recordType: "Note", predicate: "mood > 0", sort: [.init(field: "title")], limit: 2)).get() == ["n2", "n3"])
        #expect(try sb.names(RecordQuery(recordType: "Memo")).get() == ["m1"])
    }

    @Test(arguments: [
        (RecordQuery(recordType: "Note", predicate: "body == 'x'"), "CK704", "Field 'body' is not marked queryable"),
        (RecordQuery(recordType: "Note", predicate: "mood > 1", sort: [.init(field: "mood")]), "CK721", "Field 'mood' is not marked sortable"),
        (RecordQuery(recordType: "Note"), "CK704", "Field 'recordName' is not marked queryable"),
        (RecordQuery(recordType: "Note", predicate: "secret == 'x'"), "CK704", "Field 'secret' is not marked queryable"),
        (RecordQuery(recordType: "Memo", predicate: "self CONTAINS 'milk'"), "CK704", "no field of 'Memo' is marked searchable"),
        (RecordQuery(recordType: "Note", predicate: "mood > 1 OR mood < 0"), "CK701", "does not support OR"),
        (RecordQuery(recordType: "Note", predicate: "mood == 'three'"), "CK702", "a string cannot be compared"),
        (RecordQuery(recordType: "Nope"), "CK720", "Did not find record type: Nope"),
        (RecordQuery(recordType: "Note", predicate: "mood > 1", zone: "Elsewhere"), "CK722", "Zone 'Elsewhere' does not exist"),
    ])
    func refusesWhereCloudKitRefuses(query: RecordQuery, code: String, words: String) throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        guard case .failure(let r) = try sb.names(query) else { Issue.record("not refused"); return }
        #expect(r.diagnostics.contains { $0.code == code && $0.message.contains(words) }, "\(r.diagnostics.map(\.message))")
    }

    @Test func predicateProblemsPointInsideThePredicate() throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        guard case .failure(let r) = try sb.names(RecordQuery(recordType: "Note", predicate: "mood > 1 AND title == 'open")) else { Issue.record("not refused"); return }
        #expect(r.diagnostics.first?.location == SourceLocation(file: "<predicate>", line: 1, column: 23))
    }

    /// Values are bound: a quote or SQL in a value is only a value.
    @Test func valuesAreBoundNeverSpliced() throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        #expect(try sb.names(RecordQuery(recordType: "Note", predicate: "title == \"x' OR 1=1 --\"")).get() == [])
        #expect(try sb.names(RecordQuery(recordType: "Note", predicate: "self CONTAINS 'trail OR NEAR(x'")).get() == [])
        let c = try StoreQuery.compile(RecordQuery(recordType: "Note", predicate: "title == 'Robert''); DROP TABLE records; --'"),
                                       schema: sb.store.schema(.development), searchTables: [:])
        if case .success(let q) = c { #expect(!q.sql.contains("DROP")) }
        #expect(try sb.store.recordCount(.development) == 4)
    }

    /// Names and values from the command line reach a message escaped, never raw.
    @Test func controlCharactersInRefusalsAreEscaped() throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        for q in [RecordQuery(recordType: "No\u{1B}[31mpe"), RecordQuery(recordType: "Note", predicate: "mood > 1", zone: "Z\u{1B}"),
                  RecordQuery(recordType: "Note", predicate: "mood > 1", sort: [.init(field: "x\u{7}")]),
                  RecordQuery(recordType: "Note", predicate: "mood == 1 'a\u{1B}'")] {
            guard case .failure(let r) = try sb.names(q) else { Issue.record("not refused"); continue }
            let text = r.diagnostics.map(\.message).joined()
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 }, "\(text)")
            #expect(text.contains("\\u{1B}") || text.contains("\\u{7}"), "\(text)")
        }
    }

    @Test func encryptedValuesAreNeverPrinted() throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        for format in RecordLineFormat.allCases {
            var out = ""
            _ = try StoreQuery.run(RecordQuery(recordType: "Note", predicate: "mood > 0"), store: sb.store, format: format) { out += $0 }
            #expect(out.contains("n1"))
            #expect(!out.contains("s3cr3t"), "\(out)")
        }
    }

    /// The query uses the schema's SQLite indexes, not a scan of the records.
    @Test(arguments: [
        ("mood == 2", "ix:development:Note:mood"),
        ("title BEGINSWITH 'Tr'", "ix:development:Note:title"),
        ("due BETWEEN {CAST(0, 'NSDate'), CAST(1, 'NSDate')}", "ix:development:Note:due"),
    ])
    func indexedPredicatesUseTheStoresIndexes(predicate: String, index: String) throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        let btree = Dictionary(try sb.store.indexes(.development).filter { $0.kind == .btree && $0.recordType == "Note" }.map { ($0.field, $0.sqlName) },
                               uniquingKeysWith: { a, _ in a })
        guard case .success(let q) = StoreQuery.compile(RecordQuery(recordType: "Note", predicate: predicate),
                                                        schema: try sb.store.schema(.development), searchTables: [:], btreeIndexes: btree) else {
            Issue.record("refused")
            return
        }
        let plan = try sb.store.queryPlan(q)
        #expect(plan.contains { $0.contains("USING INDEX \(index)") }, "\(plan) \(q.sql)")
        #expect(!plan.contains { $0.hasPrefix("SCAN records") }, "\(plan)")
    }

    /// A store whose production was never migrated: the query says so and names the
    /// command, instead of listing no record types (issue 25, point 7).
    @Test func queryOnANeverMigratedProductionNamesTheCommand() throws {
        let root = try makeTempDir("ckschema-runtime")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try Store(path: root + "/store.sqlite")
        let schema = try SchemaSource.load(path: Paths.fixture("runtime/schema.yaml"))
        try store.db.transaction { try store.writeSchema(schema, env: .development) }
        let r = try runCLI(["query", "Note", "--env", "production", "--store", root + "/store.sqlite"])
        #expect(r.code == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "ckschema: error: Did not find record type: Note; the store's production schema has no record types: no migration was applied to production [CK720]\nckschema: note: run `ckschema migrate apply --env production` (or `ckschema promote --apply PLAN`) to give the store's production a schema\n")
        let dev = try runCLI(["query", "Nope", "--store", root + "/store.sqlite"])
        #expect(dev.stderr.contains("note: the development schema's record types: Note, Memo, Loose"), "\(dev.stderr)")
    }

    /// A query that finds nothing in its zone while the records sit in another says where
    /// they are (CK723, a note on stderr, exit 0; issue 32, point 6).
    @Test func emptyQuerySaysWhereTheRecordsAre() throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        let r = try runCLI(["query", "Memo", "--zone", "Notes", "--store", sb.storePath])
        #expect(r.code == 0)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "ckschema: note: no 'Memo' record in zone 'Notes', but the store holds 1 in zone 'Plain': a query searches one zone [CK723]\nckschema: note: query that zone with --zone Plain\n")
        // Found where it was looked for: no note.
        let found = try runCLI(["query", "Memo", "--store", sb.storePath])
        #expect(found.code == 0 && found.stderr.isEmpty, "\(found.stderr)")
    }

    @Test func binaryPrintsNDJSONAndRefusesWithCloudKitsWords() throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        let ok = try runCLI(["query", "Note", "--predicate", "mood > 3", "--sort", "title:desc", "--store", sb.storePath])
        #expect(ok.code == 0, "\(ok.stderr)")
        let lines = ok.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let first = try JSONValue.parse(String(lines[0]))
        #expect(first["recordName"] == .string("n1"))
        #expect(first["fields"]?["mood"] == .object([("value", .int(5)), ("type", .string("INT64"))]))
        let text = try runCLI(["query", "Memo", "--format", "text", "--store", sb.storePath])
        #expect(text.stdout == "Memo m1 (Plain) text=\"buy milk\"\n")
        let refused = try runCLI(["query", "Note", "--predicate", "body == 'x'", "--store", sb.storePath])
        #expect(refused.code == 1)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr == "<predicate>:1:1: error: Field 'body' is not marked queryable [CK704]\n<predicate>:1:1: note: add 'queryable' to the indexes of Note.fields.body\n")
        let sort = try runCLI(["query", "Note", "--predicate", "mood > 3", "--sort", "mood", "--store", sb.storePath])
        #expect(sort.code == 1)
        #expect(sort.stderr.contains("error: Field 'mood' is not marked sortable [CK721]"))
        let all = try runCLI(["query", "Note", "--store", sb.storePath])
        #expect(all.code == 1)
        #expect(all.stderr.contains("Field 'recordName' is not marked queryable"))
        let usage = try runCLI(["query", "--store", sb.storePath])
        #expect(usage.code == 2)
        let noStore = try runCLI(["query", "Note", "--store", sb.root + "/missing.sqlite"])
        #expect(noStore.code == 2)
    }
}
