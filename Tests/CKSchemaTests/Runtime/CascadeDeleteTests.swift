import Foundation
import Testing

/// Issue 32 point 7: the store deletes as CloudKit deletes. Deleting a record deletes every
/// record whose reference to it has the deleteSelf action, recursively, in the same transaction
/// (Apple, CKRecord.Reference.Action: https://developer.apple.com/documentation/cloudkit/ckrecord/reference/action);
/// a cycle of references terminates; `changes` and `notifications` show each cascaded
/// deletion, and `records delete --dry-run` lists them and deletes nothing.
/// Fixture: Tests/Fixtures/runtime/cascade (Trip <- Waypoint <- Photo, a Tag with no action,
/// and two Links that refer to each other).
@Suite struct CascadeDeleteTests {
    /// A project over the fixture's schema, migrated, with its records imported.
    static func project() throws -> String {
        let dir = try makeTempDir("ckschema-cascade")
        for f in ["schema.yaml", "records.ndjson"] { try FileManager.default.copyItem(atPath: Paths.fixture("runtime/cascade/" + f), toPath: dir + "/" + f) }
        try Data("ckschema: 1\nschemas:\n  development: schema.yaml\nmigrations: Migrations\nstore: store.sqlite\n".utf8).write(to: URL(fileURLWithPath: dir + "/ckschema.yaml"))
        try FileManager.default.createDirectory(atPath: dir + "/Migrations", withIntermediateDirectories: true)
        for args in [["migrate", "new", "initial"], ["migrate", "apply"], ["records", "import", "--env", "development", "records.ndjson"]] {
            let r = try runCLI(args, cwd: dir)
            #expect(r.code == 0, "\(args): \(r.stdout)\(r.stderr)")
        }
        return dir
    }

    @Test func deletingARecordDeletesWhatRefersToItWithDeleteSelf() throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let before = try runCLI(["records", "export", "--env", "development"], cwd: dir).stdout
        let dry = try runCLI(["records", "delete", "--zone", "Journal", "trip-1", "link-a", "--dry-run"], cwd: dir)
        #expect(dry.code == 0, "\(dry.stderr)")
        #expect(dry.stdout == """
            would delete "trip-1"
            would delete "link-a"
            would delete "wp-1": its reference to "trip-1" has the deleteSelf action
            would delete "wp-2": its reference to "trip-1" has the deleteSelf action
            would delete "link-b": its reference to "link-a" has the deleteSelf action
            would delete "photo-1": its reference to "wp-1" has the deleteSelf action
            would delete 6 records from development (--dry-run: nothing was deleted)

            """, "\(dry.stdout)")
        // The dry run changed nothing: the records, and no notification.
        #expect(try runCLI(["records", "export", "--env", "development"], cwd: dir).stdout == before)
        #expect(try runCLI(["notifications", "--format", "text"], cwd: dir).stdout == "")
        let changes = try runCLI(["changes", "--zone", "Journal"], cwd: dir)
        let token = try #require(changes.stdout.split(separator: "\n").last.flatMap { line -> String? in
            guard let data = String(line).data(using: .utf8), let o = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
            return o["serverChangeToken"] as? String
        }, "\(changes.stdout)")
        let del = try runCLI(["records", "delete", "--zone", "Journal", "trip-1", "link-a"], cwd: dir)
        #expect(del.code == 0, "\(del.stderr)")
        #expect(del.stdout == """
            deleted "wp-1": its reference to "trip-1" has the deleteSelf action
            deleted "wp-2": its reference to "trip-1" has the deleteSelf action
            deleted "link-b": its reference to "link-a" has the deleteSelf action
            deleted "photo-1": its reference to "wp-1" has the deleteSelf action
            deleted 6 records from development

            """, "\(del.stdout)")
        // Each cascaded deletion is a change of the zone, and a notification.
        let since = try runCLI(["changes", "--zone", "Journal", "--since", token], cwd: dir)
        #expect(since.code == 0, "\(since.stderr)")
        #expect(since.stdout.split(separator: "\n").dropLast().joined(separator: "\n") == ["trip-1", "link-a", "wp-1", "wp-2", "link-b", "photo-1"].map {
            #"{"recordName":"\#($0)","zoneID":{"zoneName":"Journal"},"deleted":true}"#
        }.joined(separator: "\n"), "\(since.stdout)")
        let notes = try runCLI(["notifications", "--format", "text"], cwd: dir)
        #expect(notes.stdout == """
            1 "links-gone" recordDeleted "link-a" in "Journal"
            2 "waypoints-gone" recordDeleted "wp-1" in "Journal"
            3 "waypoints-gone" recordDeleted "wp-2" in "Journal"
            4 "links-gone" recordDeleted "link-b" in "Journal"
            5 "photos-gone" recordDeleted "photo-1" in "Journal"

            """, "\(notes.stdout)")
        // What had no deleteSelf reference to a deleted record stays: the Tag (action none), the other trip.
        let left = try runCLI(["records", "export", "--env", "development"], cwd: dir).stdout
        for name in ["tag-1", "trip-2", "wp-3"] { #expect(left.contains("\"recordName\":\"\(name)\""), "\(name): \(left)") }
        #expect(!left.contains("\"wp-1\"") && !left.contains("\"photo-1\"") && !left.contains("\"link-b\""), "\(left)")
    }

    /// A name that does not exist is CK740 and takes nothing with it; the rest is deleted.
    @Test func aMissingNameCascadesNothing() throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(["records", "delete", "--zone", "Journal", "nope", "trip-2"], cwd: dir)
        #expect(r.code == 1)
        #expect(r.stdout == """
            ckschema: error: Record not found: "nope" in zone 'Journal' [CK740]
            ckschema: note: check the record name and --zone
            1 error
            deleted "wp-3": its reference to "trip-2" has the deleteSelf action
            deleted 2 records from development

            """, "\(r.stdout)")
    }
}
