import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaPredicate
@testable import CKSchemaConfig
@testable import CKSchemaStore
@testable import CKSchemaMigrations

/// `migrate new NAME --rename Trip.rating:score` (issue 25, point 5), through the built binary:
/// the new field, the copy, the deprecation, the declared queries, and the plan's advice.
@Suite struct RenameTests {
    static let schema = """
        ckschema: 1
        zones:
          Journal: { database: private }
        recordTypes:
          Trip:
            zone: Journal
            fields:
              title: { type: string, indexes: [queryable] }
              # stars, 1 to 5
              rating: { type: int64, indexes: [queryable, sortable] }
        queries:
          - { recordType: Trip, filter: [rating], sort: [rating] }
          - { recordType: Trip, predicate: "rating >= 4 AND title == 'x'" }

        """

    /// A repository with the schema, its first migration applied, and two trips.
    struct Repo {
        let root: String
        /// The options of `migrate new` and `status`; `apply` takes all but `--schema`.
        var args: [String] { ["--schema", root + "/app.yaml"] + applyArgs }
        var applyArgs: [String] { ["--migrations", root + "/Migrations", "--store", root + "/store.sqlite"] }

        init() throws {
            root = try makeTempDir("ckschema-rename")
            try Data(RenameTests.schema.utf8).write(to: URL(fileURLWithPath: root + "/app.yaml"))
            for step in [["migrate", "new", "initial"] + args, ["migrate", "apply"] + applyArgs] {
                let r = try runCLI(step, cwd: root)
                precondition(r.code == 0, r.stdout + r.stderr)
            }
            try Data("""
                {"recordName":"a","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":{"value":"x","type":"STRING"},"rating":{"value":4,"type":"INT64"}}}
                {"recordName":"b","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":{"value":"y","type":"STRING"}}}

                """.utf8).write(to: URL(fileURLWithPath: root + "/trips.ndjson"))
            let r = try runCLI(["records", "import", "--store", root + "/store.sqlite", root + "/trips.ndjson"], cwd: root)
            precondition(r.code == 0, r.stdout + r.stderr)
        }

        func cleanup() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func renameAddsCopiesDeprecatesAndUpdatesTheQueries() throws {
        let repo = try Repo()
        defer { repo.cleanup() }
        let r = try runCLI(["migrate", "new", "rename_rating", "--rename", "Trip.rating:score"] + repo.args, cwd: repo.root)
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
        let migration = """
            description: "rename Trip.rating -> Trip.score. CloudKit cannot rename a deployed field: 'score' is a new field, the migration copies 'rating' into it and deprecates 'rating'. Until every client is updated, the app must read both ('score', else 'rating') and write 'score'; released clients still write 'rating' only."
            steps:
              - addField: { recordType: Trip, name: score, type: int64, indexes: [queryable, sortable] }
              - copy: { recordType: Trip, from: rating, to: score }
              - deprecate: { recordType: Trip, field: rating }

            """
        #expect(try read(repo.root + "/Migrations/0002_rename_rating.yaml") == migration)
        #expect(r.stdout == """
            wrote \(repo.root)/Migrations/0002_rename_rating.yaml, updated \(repo.root)/app.yaml (Trip.score added, Trip.rating deprecated, declared queries renamed) and ckschema.sum; review them, then run 'ckschema migrate apply'
            note: CloudKit cannot rename a deployed field: 'score' is a new field, the migration copies 'rating' into it and deprecates 'rating'. Until every client is updated, the app must read both ('score', else 'rating') and write 'score'; released clients still write 'rating' only.

            \(migration)
            """)
        // The schema file keeps its comment; the queries name the new field.
        #expect(try read(repo.root + "/app.yaml") == """
            ckschema: 1
            zones:
              Journal: { database: private }
            recordTypes:
              Trip:
                zone: Journal
                fields:
                  title: { type: string, indexes: [queryable] }
                  # stars, 1 to 5
                  rating: { type: int64, indexes: [queryable, sortable], deprecated: true }
                  score: { type: int64, indexes: [queryable, sortable] }
            queries:
              - { recordType: Trip, filter: [score], sort: [score] }
              - { recordType: Trip, predicate: "score >= 4 AND title == 'x'" }

            """)
        // Applying it copies the values; status, lint and a query on the new field agree.
        let apply = try runCLI(["migrate", "apply"] + repo.applyArgs, cwd: repo.root)
        #expect(apply.code == 0, "\(apply.stdout)\(apply.stderr)")
        let status = try runCLI(["migrate", "status"] + repo.args, cwd: repo.root)
        #expect(status.code == 0 && !status.stdout.contains("CK533"), "\(status.stdout)")
        let lint = try runCLI(["lint", repo.root + "/app.yaml"], cwd: repo.root)
        #expect(lint.code == 0, "\(lint.stdout)")
        let q = try runCLI(["query", "Trip", "--predicate", "score == 4", "--store", repo.root + "/store.sqlite"], cwd: repo.root)
        #expect(q.code == 0 && q.stdout.contains(#""recordName":"a""#) && !q.stdout.contains(#""recordName":"b""#), "\(q.stdout)\(q.stderr)")
    }

    @Test func aRenameThatCannotBeMadeIsRefusedWithNothingWritten() throws {
        let repo = try Repo()
        defer { repo.cleanup() }
        let before = try read(repo.root + "/app.yaml")
        let cases: [(String, String)] = [
            ("Trip.stars:score", "error: --rename Trip.stars:score: record type 'Trip' has no field 'stars' [CK538]"),
            ("Trip.rating:title", "error: --rename Trip.rating:title: the migrations already have 'Trip.title' [CK538]"),
            ("Trip.rating:2x", "error: --rename Trip.rating:2x: '2x' is not a CloudKit field name [CK538]"),
        ]
        for (argument, message) in cases {
            let r = try runCLI(["migrate", "new", "bad", "--rename", argument] + repo.args, cwd: repo.root)
            #expect(r.code == 2, "\(argument): \(r.stdout)\(r.stderr)")
            #expect(r.stderr.contains(message), "\(argument): \(r.stderr)")
        }
        let malformed = try runCLI(["migrate", "new", "bad", "--rename", "rating:score"] + repo.args, cwd: repo.root)
        #expect(malformed.code == 2)
        #expect(malformed.stderr.contains("--rename takes TYPE.OLD:NEW, like Trip.rating:score; found 'rating:score'"), "\(malformed.stderr)")
        #expect(try read(repo.root + "/app.yaml") == before)
        #expect(!FileManager.default.fileExists(atPath: repo.root + "/Migrations/0002_bad.yaml"))
        // Only `migrate new` takes --rename.
        let status = try runCLI(["migrate", "status", "--rename", "Trip.rating:score"] + repo.args, cwd: repo.root)
        #expect(status.code == 2)
    }

    @Test func predicateKeysAreRenamedAndNothingElse() {
        #expect(QueryPredicate.renamingKey(in: "rating >= 4 AND title == 'rating'", from: "rating", to: "score") == "score >= 4 AND title == 'rating'")
        #expect(QueryPredicate.renamingKey(in: "ratings > 1", from: "rating", to: "score") == "ratings > 1")
        #expect(QueryPredicate.renamingKey(in: "rating == 'open", from: "rating", to: "score") == nil)
    }
}
