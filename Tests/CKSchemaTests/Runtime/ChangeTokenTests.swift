import Foundation
import Testing
@testable import CKSchemaStore

/// Change tokens never go backwards, as CloudKit's CKServerChangeToken does
/// (CKFetchRecordZoneChangesOperation): deleting the newest record leaves every token taken
/// before valid, `changes --since` shows the deletion, and a record saved afterwards gets a new
/// id (never the deleted one's), so the tokens see it. `records.id` has no AUTOINCREMENT; the
/// `records:high-water` trigger and `RecordsTable.insert` keep ids going forwards, and a store
/// written before them gains the trigger on its next write (docs/store.md).
@Suite struct ChangeTokenTests {
    /// A project from `init` (zone Notes with fetchChanges, type Note), migrated.
    static func project() throws -> String {
        let root = try makeTempDir("ckschema-tokens")
        let dir = root + "/repo"
        #expect(try runCLI(["init", dir, "--container", "iCloud.com.example.Notes"]).code == 0)
        for args in [["migrate", "new", "initial"], ["migrate", "apply"]] {
            let r = try runCLI(args, cwd: dir)
            #expect(r.code == 0, "\(args): \(r.stdout)\(r.stderr)")
        }
        return dir
    }

    static func importNotes(_ names: [String], in dir: String) throws {
        let lines = names.map { #"{"recordName":"\#($0)","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"title":{"value":"\#($0)","type":"STRING"}}}"# }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: dir + "/notes.ndjson"))
        let r = try runCLI(["records", "import", "notes.ndjson"], cwd: dir)
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
    }

    /// `changes --zone Notes [--since token]`: the record names (deletions marked), and the new token.
    static func changes(_ dir: String, since token: String? = nil) throws -> (names: [String], token: String) {
        let r = try runCLI(["changes", "--zone", "Notes"] + (token.map { ["--since", $0] } ?? []), cwd: dir)
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
        var names: [String] = [], next = ""
        for line in r.stdout.split(separator: "\n") {
            guard let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            if let t = o["serverChangeToken"] as? String { next = t; continue }
            let name = o["recordName"] as? String ?? "?"
            names.append((o["deleted"] as? Bool == true ? "-" : "") + name)
        }
        return (names, next)
    }

    static func deleteAndInsertAfterATokenAreSeen(_ dir: String) throws {
        let before = try Self.changes(dir)
        #expect(before.names == ["n1", "n2", "n3"])
        let del = try runCLI(["records", "delete", "--zone", "Notes", "n3"], cwd: dir)
        #expect(del.code == 0, "\(del.stderr)")
        // The token taken before the delete is still this store's, and shows the deletion.
        let afterDelete = try Self.changes(dir, since: before.token)
        #expect(afterDelete.names == ["-n3"])
        // A record saved now is seen by both tokens: its id is not the deleted one's.
        try Self.importNotes(["n4"], in: dir)
        #expect(try Self.changes(dir, since: afterDelete.token).names == ["n4"])
        #expect(try Self.changes(dir, since: before.token).names == ["-n3", "n4"])
        #expect(try Self.changes(dir).names == ["n1", "n2", "n4"])
    }

    @Test func deletingTheNewestRecordKeepsOlderTokensAndALaterSaveIsSeen() throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: (dir as NSString).deletingLastPathComponent) }
        try Self.importNotes(["n1", "n2", "n3"], in: dir)
        try Self.deleteAndInsertAfterATokenAreSeen(dir)
    }

    /// A store written before the high-water trigger (run-time tables, no trigger) still opens,
    /// gains it on its next write, and from then on behaves the same.
    @Test func aStoreWrittenBeforeTheTriggerGainsIt() throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: (dir as NSString).deletingLastPathComponent) }
        do {
            let store = try Store(path: dir + "/.ckschema/store.sqlite")
            try store.db.run(#"DROP TRIGGER "records:high-water""#)
        }
        try Self.importNotes(["n1", "n2", "n3"], in: dir)
        try Self.deleteAndInsertAfterATokenAreSeen(dir)
    }
}
