import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaConfig
@testable import CKSchemaRecords
@testable import CKSchemaStore
@testable import CKSchemaRuntime

/// The limits across records (CloudKit Web Services Reference, Data Size Limits): 750 deleteSelf
/// references to one target (CK418), 50 MB per asset file (CK419), through the built binary for
/// `validate` and `records import`. CK418's and CK420's validate fixtures run in RecordFixtureTests.
@Suite struct RecordLimitsTests {
    /// A folder with a store holding the record fixtures' schema in both environments.
    struct Sandbox {
        let root: String
        var store: String { root + "/store.sqlite" }

        init() throws {
            root = try makeTempDir("ckschema-limits")
            let store = try Store(path: root + "/store.sqlite")
            let schema = try SchemaSource.load(path: Paths.fixture("records/schema.yaml"))
            try store.db.transaction {
                for env in Environment.allCases { try store.writeSchema(schema, env: env) }
            }
        }

        func write(_ name: String, _ lines: [String]) throws -> String {
            let path = root + "/" + name
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
            return path
        }

        func cleanup() { try? FileManager.default.removeItem(atPath: root) }
    }

    static let trip = #"{"recordName":"t1","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":{"value":"Lakes","type":"STRING"}}}"#

    static func waypoint(_ i: Int, action: String = "DELETE_SELF") -> String {
        #"{"recordName":"w\#(i)","recordType":"Waypoint","zoneID":{"zoneName":"Journal"},"fields":{"trip":{"value":{"recordName":"t1","action":"\#(action)"},"type":"REFERENCE"}}}"#
    }

    @Test func importCountsTheStoresReferencesToo() throws {
        let sb = try Sandbox()
        defer { sb.cleanup() }
        let first = try sb.write("a.ndjson", [Self.trip] + (1...750).map { Self.waypoint($0) })
        let a = try runCLI(["records", "import", "--store", sb.store, "--env", "production", first])
        #expect(a.code == 0, "\(a.stdout)\(a.stderr)")
        // Saving the same records again replaces their references: still 750, no error.
        let again = try runCLI(["records", "import", "--store", sb.store, "--env", "production", "--save-policy", "allKeys", first])
        #expect(again.code == 0, "\(again.stdout)\(again.stderr)")
        // A 751st, in another file and another run, is refused (Journal is an atomic zone: its
        // batch with it); a NONE reference is not counted.
        let second = try sb.write("b.ndjson", [Self.waypoint(751)])
        let b = try runCLI(["records", "import", "--store", sb.store, "--env", "production", second])
        #expect(b.code == 1)
        #expect(b.stdout == """
            \(second):1:132: error: record #1 'w751', field 'trip': record 't1' already has 750 references with the deleteSelf action; CloudKit allows at most 750 to one target and refuses this save [CK418]
            \(second):1:132: note: use the NONE action for the references beyond 750 and delete those records yourself, or point them at more than one parent
            1 error
            saved 0 records to production in 1 batch; 1 failed

            """, "\(b.stdout)")
        let third = try sb.write("c.ndjson", [Self.waypoint(752, action: "NONE")])
        let c = try runCLI(["records", "import", "--store", sb.store, "--env", "production", third])
        #expect(c.code == 0, "\(c.stdout)")
    }

    /// A sparse file: 50 MB and one byte without writing them.
    static func sparseFile(_ path: String, size: UInt64) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: size)
        try handle.close()
    }

    @Test func assetFilesOver50MBAreRefusedByValidateAndImport() throws {
        let sb = try Sandbox()
        defer { sb.cleanup() }
        try FileManager.default.createDirectory(atPath: sb.root + "/photos", withIntermediateDirectories: true)
        try Self.sparseFile(sb.root + "/photos/big.mov", size: 50 * 1_048_576 + 1)
        try Self.sparseFile(sb.root + "/photos/ok.mov", size: 50 * 1_048_576)
        // The plain shape names a local file, relative to the record file's folder.
        let file = try sb.write("trips.ndjson", [
            #"{"recordName":"a","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"cover":"photos/big.mov"}}"#,
            #"{"recordName":"b","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"cover":"photos/ok.mov"}}"#,
            #"{"recordName":"c","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"cover":"photos/missing.mov"}}"#,
        ])
        let expected = """
            \(file):1:89: error: record #1 'a', field 'cover': the asset file 'photos/big.mov' is 52428801 bytes; CloudKit's limit is 50 MB (52428800 bytes) per asset [CK419]
            \(file):1:89: note: split the file, compress it, or keep it outside CloudKit

            """
        let v = try runCLI(["validate", "--schema", Paths.fixture("records/schema.yaml"), file])
        #expect(v.code == 1)
        #expect(v.stdout == expected + "3 records, 1 error\n", "\(v.stdout)")
        // Journal is an atomic zone: the import is given the big file's record alone.
        let big = try sb.write("big.ndjson", [#"{"recordName":"a","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"cover":"photos/big.mov"}}"#])
        let i = try runCLI(["records", "import", "--store", sb.store, big])
        #expect(i.code == 1)
        #expect(i.stdout == expected.replacingOccurrences(of: file, with: big) + "1 error\nsaved 0 records to development in 1 batch; 1 failed\n", "\(i.stdout)")
        let fine = try sb.write("fine.ndjson", [#"{"recordName":"b","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"cover":"photos/ok.mov"}}"#])
        let f = try runCLI(["records", "import", "--store", sb.store, fine])
        #expect(f.code == 0, "\(f.stdout)")
    }

    /// References from one record (named `name` in zone Z; nil: no name) to `targets`.
    static func refs(_ targets: [String], name: String? = "r") -> DeleteSelfList {
        var list = DeleteSelfList()
        for t in targets { list.append(record: 0, zone: "Z", name: name, target: t, line: 0, column: 1, absoluteLine: false, field: "f") }
        return list
    }

    @Test func theCounterReplacesARecordsEarlierReferences() {
        var counter = RecordLimits.DeleteSelfCounter()
        let one = Self.refs(["t"]), two = Self.refs(["t", "t"])
        counter.preload(target: "Z\u{1}t", referrer: "Z\u{1}old", count: 749)
        #expect(counter.add(one, 0..<1, from: "Z\u{1}r").isEmpty)
        #expect(counter.add(one, 0..<1).isEmpty)  // saved again (the list names it r): still 750
        #expect(counter.add(one, 0..<1, from: "Z\u{1}s") == [0])
        #expect(counter.add(two, 0..<2, from: "Z\u{1}old").isEmpty)  // 749 -> 2: 3 in all
    }

    /// CloudKit replaces a record saved again whole: a record that now points at another target
    /// no longer counts against its old one (the counter kept the old count before issue 36).
    @Test func aRecordSavedAgainWithAnotherTargetLeavesItsOldOne() {
        func add(_ counter: inout RecordLimits.DeleteSelfCounter, _ targets: [String], from referrer: String) -> [String] {
            let list = Self.refs(targets)
            return counter.add(list, 0..<list.count, from: referrer).map(list.targetName)
        }
        var counter = RecordLimits.DeleteSelfCounter()
        counter.preload(target: "Z\u{1}t", referrer: "Z\u{1}others", count: 749)
        #expect(add(&counter, ["t"], from: "Z\u{1}r").isEmpty)        // t: 750
        #expect(add(&counter, ["u"], from: "Z\u{1}r").isEmpty)        // r moves to u: t 749
        #expect(add(&counter, ["t"], from: "Z\u{1}s").isEmpty)        // t: 750 again
        #expect(add(&counter, ["u", "t", "t"], from: "Z\u{1}q") == ["t"])  // t would be 752
        // Records without a name are never saved again: each counts, none replaces another.
        var anonymous = RecordLimits.DeleteSelfCounter()
        let unnamed = Self.refs(["t"], name: nil)
        for _ in 0..<750 { #expect(anonymous.add(unnamed, 0..<1).isEmpty) }
        #expect(anonymous.add(unnamed, 0..<1).map(unnamed.targetName) == ["t"])
    }
}
