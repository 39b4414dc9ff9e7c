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

/// Saves and deletes through the store produce CloudKit's notifications; `changes` follows a zone.
@Suite struct NotificationTests {
    static func notifications(_ sb: RuntimeSandbox, since: Int64 = 0) throws -> [JSONValue] {
        var lines: [String] = []
        try NotificationLog.read(store: sb.store, environment: .development, since: since) { lines.append($0) }
        return try lines.map { try JSONValue.parse($0) }
    }

    static func summary(_ n: [JSONValue]) -> [String] {
        n.map { j in
            [j["subscriptionID"]?.stringValue, j["queryNotificationReason"]?.stringValue ?? j["notificationType"]?.stringValue,
             j["recordID"]?["recordName"]?.stringValue].compactMap { $0 }.joined(separator: " ")
        }
    }

    @Test func importRecordsQueryZoneAndDatabaseNotifications() throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        let n = try Self.notifications(sb)
        #expect(Self.summary(n) == [
            "happy-notes recordCreated n1", "new-trail-notes recordCreated n1",
            "happy-notes recordCreated n3", "new-trail-notes recordCreated n3",
            "plain-memos recordCreated m1",  // other-zone-memos is limited to Notes: m1 is in Plain
            "notes-zone recordZone", "everything database",
        ])
        // CKQueryNotification's shape, the desired keys only.
        #expect(n[0].text == #"{"sequence":1,"notificationType":"query","subscriptionID":"happy-notes","queryNotificationReason":"recordCreated","recordID":{"recordName":"n1","zoneName":"Notes"},"recordFields":{"title":{"value":"Trail to the lake","type":"STRING"},"mood":{"value":5,"type":"INT64"}},"databaseScope":"private"}"#)
        #expect(n[1]["recordFields"] == .object([]))
    }

    @Test func updatesAndDeletesFireAsFiresOnSays() throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        let last = Int64(try Self.notifications(sb).count)
        // n2 starts matching (mood 2 -> 5), n3 stops (mood 4 -> 1): both are updates of a matching record.
        let file = sb.root + "/update.ndjson"
        try Data("""
            {"recordName":"n2","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"mood":{"value":5,"type":"INT64"}}}
            {"recordName":"n3","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"mood":{"value":1,"type":"INT64"}}}

            """.utf8).write(to: URL(fileURLWithPath: file))
        let r = try RecordImporter.importFiles([file], into: sb.store, options: .init(savePolicy: .changedKeys))
        #expect(r.failed == 0)
        let afterUpdate = try Self.notifications(sb, since: last)
        #expect(Self.summary(afterUpdate) == ["happy-notes recordUpdated n2", "happy-notes recordUpdated n3", "notes-zone recordZone", "everything database"])
        #expect(afterUpdate[0]["recordFields"]?["title"]?["value"] == .string("Rainy day"))
        let mark = afterUpdate.last?["sequence"]?.int64Value ?? 0
        let d = try RecordDeleter.delete(names: ["n1", "n2", "nope"], zone: "Notes", from: sb.store, environment: .development)
        #expect(d.deleted == 2)
        #expect(d.diagnostics.map(\.code) == ["CK740"])
        let afterDelete = try Self.notifications(sb, since: mark)
        #expect(Self.summary(afterDelete) == ["happy-notes recordDeleted n1", "happy-notes recordDeleted n2", "notes-zone recordZone", "everything database"])
        #expect(afterDelete[0]["recordFields"] == nil)
        // n3 is a conflict (no change tag), and Notes is atomic, so n2 (deleted, now new) is rolled
        // back with it: nothing is written and nothing is notified.
        let conflict = try RecordImporter.importFiles([file], into: sb.store, options: .init())
        #expect(conflict.failed == 2)
        #expect(try Self.notifications(sb, since: afterDelete.last?["sequence"]?.int64Value ?? 0).isEmpty)
    }

    /// CKDatabaseSubscription: the default zone of the private database does not take part.
    @Test func theDefaultZoneFiresNoDatabaseNotification() throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        let mark = Int64(try Self.notifications(sb).count)
        let file = sb.root + "/loose.ndjson"
        try Data(#"{"recordName":"l1","recordType":"Loose","fields":{"text":{"value":"x","type":"STRING"}}}"#.utf8 + [0x0A])
            .write(to: URL(fileURLWithPath: file))
        let r = try RecordImporter.importFiles([file], into: sb.store, options: .init())
        #expect(r.saved == 1)
        #expect(try Self.notifications(sb, since: mark).isEmpty)
    }

    @Test func encryptedValuesNeverReachANotification() throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        let all = try Self.notifications(sb).map(\.text).joined()
        #expect(!all.contains("s3cr3t"))
    }

    @Test func changesFollowAZoneWithTokens() throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        func fetch(_ zone: String, since: String?) throws -> ([JSONValue], ZoneChanges.Outcome) {
            var lines: [String] = []
            let o = try ZoneChanges.fetch(store: sb.store, environment: .development, zone: zone, since: since) { lines.append($0) }
            return (try lines.map { try JSONValue.parse($0) }, o)
        }
        let (first, _) = try fetch("Notes", since: nil)
        #expect(first.dropLast().map { $0["recordName"]?.stringValue } == ["n1", "n2", "n3"])
        let token = try #require(first.last?["serverChangeToken"]?.stringValue)
        #expect(!first.map(\.text).joined().contains("s3cr3t"))
        let (none, _) = try fetch("Notes", since: token)
        #expect(none.count == 1)
        _ = try RecordDeleter.delete(names: ["n1"], zone: "Notes", from: sb.store, environment: .development)
        let file = sb.root + "/n4.ndjson"
        try Data(#"{"recordName":"n4","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"mood":{"value":3,"type":"INT64"}}}"#.utf8 + [0x0A])
            .write(to: URL(fileURLWithPath: file))
        _ = try RecordImporter.importFiles([file], into: sb.store, options: .init())
        let (later, _) = try fetch("Notes", since: token)
        #expect(later.map(\.text).dropLast() == [
            #"{"recordName":"n1","zoneID":{"zoneName":"Notes"},"deleted":true}"#,
        ] + [later[1].text])
        #expect(later[1]["recordName"] == .string("n4"))
        let newer = try #require(later.last?["serverChangeToken"]?.stringValue)
        #expect(newer != token)
        // Refusals: CloudKit's for the default zone and a zone without fetchChanges; ours for a foreign token.
        guard case .refused(let d) = try fetch("_defaultZone", since: nil).1 else { Issue.record("default zone served"); return }
        #expect(d.map(\.code) == ["CK730"])
        guard case .refused(let p) = try fetch("Plain", since: nil).1 else { Issue.record("Plain served"); return }
        #expect(p.map(\.code) == ["CK731"])
        for bad in ["garbage", "ck1.AAAA.000000000000", token + "x"] {
            #expect(throws: InputError.self) { try fetch("Notes", since: bad) }
        }
        let other = try RuntimeSandbox()
        defer { other.cleanup() }
        var otherToken = ""
        _ = try ZoneChanges.fetch(store: other.store, environment: .development, zone: "Notes", since: nil) { otherToken = $0 }
        let foreign = try JSONValue.parse(otherToken)["serverChangeToken"]?.stringValue ?? ""
        do { _ = try fetch("Notes", since: foreign); Issue.record("foreign token taken") } catch let error as InputError {
            #expect(error.diagnostics.first?.message == "the change token was issued by another store")
            #expect(error.diagnostics.first?.code == "CK732")
        }
    }

    @Test func binaryRunsChangesNotificationsAndDelete() throws {
        let sb = try RuntimeSandbox()
        defer { sb.cleanup() }
        let changes = try runCLI(["changes", "--zone", "Notes", "--store", sb.storePath])
        #expect(changes.code == 0, "\(changes.stderr)")
        let token = try JSONValue.parse(String(changes.stdout.split(separator: "\n").last ?? ""))["serverChangeToken"]?.stringValue ?? ""
        let del = try runCLI(["records", "delete", "--zone", "Notes", "n3", "--store", sb.storePath])
        #expect(del.code == 0, "\(del.stdout)\(del.stderr)")
        #expect(del.stdout == "deleted 1 record from development\n")
        let since = try runCLI(["changes", "--zone", "Notes", "--since", token, "--store", sb.storePath])
        #expect(since.stdout.hasPrefix(#"{"recordName":"n3","zoneID":{"zoneName":"Notes"},"deleted":true}"# + "\n{\"serverChangeToken\":"))
        let wrongZone = try runCLI(["changes", "--zone", "Plain", "--since", token, "--store", sb.storePath])
        #expect(wrongZone.code == 1)
        #expect(wrongZone.stderr.contains("[CK731]"))
        let defaultZone = try runCLI(["changes", "--zone", "_defaultZone", "--store", sb.storePath])
        #expect(defaultZone.code == 1)
        #expect(defaultZone.stderr.contains("the default zone does not support fetching changes"))
        let garbage = try runCLI(["changes", "--zone", "Notes", "--since", "ck1.\u{1B}[31m.x", "--store", sb.storePath])
        #expect(garbage.code == 2)
        #expect(!garbage.stderr.contains("\u{1B}"))
        let text = try runCLI(["notifications", "--since", "7", "--format", "text", "--store", sb.storePath])
        #expect(text.code == 0)
        #expect(text.stdout == "8 \"happy-notes\" recordDeleted \"n3\" in \"Notes\"\n9 \"notes-zone\" recordZone zone \"Notes\"\n10 \"everything\" database\n")
        let json = try runCLI(["notifications", "--store", sb.storePath])
        #expect(json.stdout.split(separator: "\n").count == 10)
        let missing = try runCLI(["records", "delete", "--zone", "Notes", "n3", "--store", sb.storePath])
        #expect(missing.code == 1)
        #expect(missing.stdout.contains("Record not found: \"n3\" in zone 'Notes' [CK740]"))
    }
}
