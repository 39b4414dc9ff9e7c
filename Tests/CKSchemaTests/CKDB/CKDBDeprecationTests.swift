import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaCKDB

/// The `.ckdb` deprecation convention (moolah-native's CloudKit/schema.ckdb: a `// DEPRECATED`
/// comment on the line above a field), read as `deprecated` and written back by export,
/// through the built binary (issue 25, point 5).
@Suite struct CKDBDeprecationTests {
    static let folder = "Tests/Fixtures/ckdb/deprecated"

    @Test func theCommentAboveOrOnTheLineDeprecatesTheField() throws {
        let dir = try makeTempDir("ckdb-deprecated")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(["import", Self.folder + "/hand.ckdb", "-o", dir + "/s.yaml"])
        #expect(r.code == 0 && r.stderr.hasPrefix("wrote \(dir)/s.yaml ("), "\(r.stderr)")
        let yaml = try read(dir + "/s.yaml")
        #expect(yaml.contains("      rating: { type: int64, indexes: [queryable, sortable], deprecated: true }\n"))
        #expect(yaml.contains("      subtitle: { type: string, deprecated: true }\n"))
        // Prose that says "Deprecated" is not the marker, and marks nothing.
        #expect(yaml.contains("      title: { type: string, indexes: [queryable, searchable, sortable] }\n"))
        #expect(yaml.contains("      score: { type: int64, indexes: [queryable, sortable] }\n"))
        // Export writes the convention back, in cktool's layout, with no warning about it.
        let e = try runCLI(["export", dir + "/s.yaml", "--format", "ckdb"])
        #expect(e.code == 0)
        #expect(e.stdout == (try read(Self.folder + "/export.ckdb")), "\(e.stdout)")
        #expect(!e.stderr.contains("deprecat"), "\(e.stderr)")
    }

    @Test func theExportedFormComesBackByteForByte() throws {
        let dir = try makeTempDir("ckdb-deprecated")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try runCLI(["import", Self.folder + "/export.ckdb", "-o", dir + "/s.yaml"]).code == 0)
        let e = try runCLI(["export", dir + "/s.yaml", "--format", "ckdb"])
        #expect(e.stdout == (try read(Self.folder + "/export.ckdb")))
    }

    /// A `.ckdb` read as a schema source carries the deprecation: validate warns (CK411) on a
    /// record that still writes the field.
    @Test func aCKDBSourceKnowsTheFieldIsDeprecated() throws {
        let dir = try makeTempDir("ckdb-deprecated")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/trips.ndjson"
        try Data(#"{"recordName":"t1","recordType":"Trip","fields":{"rating":{"value":3,"type":"INT64"},"score":{"value":3,"type":"INT64"}}}"#.utf8).write(to: URL(fileURLWithPath: file))
        let r = try runCLI(["validate", "--schema", Self.folder + "/hand.ckdb", file])
        #expect(r.code == 0)
        #expect(r.stdout == """
            \(file):1:50: warning: record #1 't1', field 'rating': the field is deprecated [CK411]
            \(file):1:50: note: stop writing it; the schema keeps it only because production cannot delete it
            1 record, 1 warning

            """, "\(r.stdout)")
    }

    @Test func theMarkerIsTheUpperCaseWord() {
        func says(_ s: String) -> Bool {
            Array(s.utf8).withUnsafeBufferPointer { CKDBLexer.mentionsDeprecated($0, 0, $0.count) }
        }
        #expect(says(" DEPRECATED") && says(" DEPRECATED: replaced by score") && says("DEPRECATED"))
        #expect(!says(" deprecated in prose") && !says(" UNDEPRECATED") && !says(" DEPRECATEDX"))
    }
}
