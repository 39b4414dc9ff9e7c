import Foundation
import Testing
import CKSchemaTesting

/// `FakeCloudKit` through its public API: each error row of docs/testing.md, with CloudKit's
/// code, server code and words.
@Suite struct FakeCloudKitTests {
    static let schema = """
        ckschema: 1
        recordTypes:
          Note:
            system:
              recordName: [queryable]
            fields:
              title: { type: string, indexes: [queryable, sortable] }
              mood: { type: int64, indexes: [queryable] }
              body: string
              secret: { type: string, encrypted: true }
              parent: { type: reference, to: Note, action: deleteSelf }
          Memo:
            fields:
              text: string
          Post:
            database: public
            fields:
              text: string
        """

    static func cloud(_ env: FakeCloudKit.Environment = .production) throws -> FakeCloudKit {
        try FakeCloudKit(schema: schema, environment: env)
    }

    static func note(_ name: String, zone: String = CloudZone.defaultName, title: String = "Hi", mood: Int64 = 3) -> CloudRecord {
        var r = CloudRecord(recordType: "Note", recordName: name, zoneName: zone)
        r["title"] = .string(title)
        r["mood"] = .int64(mood)
        return r
    }

    static func error<T>(_ r: Result<T, CloudKitError>?) -> CloudKitError? {
        if case .failure(let e)? = r { return e }
        return nil
    }

    @Test func savesAndFetchesWithAChangeTag() async throws {
        let db = try Self.cloud().database(.private)
        var n = Self.note("n1")
        n.encrypted["secret"] = "s3"
        let saved = try await db.modifyRecords(saving: [n], deleting: []).saveResults[n.id]?.get()
        #expect(saved?.recordChangeTag?.isEmpty == false)
        #expect(saved?.creationDate != nil)
        let fetched = try await db.record(for: n.id)
        #expect(fetched["title"] == "Hi")
        #expect(fetched["mood"] == 3)
        #expect(fetched.encrypted["secret"] == "s3")
        #expect(fetched["secret"] == nil)
        #expect(fetched.recordChangeTag == saved?.recordChangeTag)
    }

    @Test func productionRefusesAFieldItLacks() async throws {
        let db = try Self.cloud().database(.private)
        var n = Self.note("n1")
        n["tags"] = ["a", "b"]
        let results = try await db.modifyRecords(saving: [n, Self.note("n2")], deleting: [])
        let e = try #require(Self.error(results.saveResults[n.id]))
        #expect(e.code == .invalidArguments)
        #expect(e.code.rawValue == 12)
        #expect(e.serverCode == 2006)
        #expect(e.message == "Cannot create or modify field 'tags' in record 'Note' in production schema")
        // Not atomic (the default zone): the other record is saved, and the operation's
        // completion is a partialFailure holding the per-record error.
        #expect((try? results.saveResults[CloudRecord.ID(recordName: "n2")]?.get()) != nil)
        let partial = try #require(CloudKitError.partialFailure(saveResults: results.saveResults))
        #expect(partial.code.rawValue == 2)
        #expect(partial.partialErrors?[n.id] == e)
    }

    @Test func productionRefusesATypeItLacks() async throws {
        let db = try Self.cloud().database(.private)
        var r = CloudRecord(recordType: "Journal", recordName: "j1")
        r["text"] = "x"
        let e = try #require(Self.error(try await db.modifyRecords(saving: [r], deleting: []).saveResults[r.id]))
        #expect(e.code == .invalidArguments && e.serverCode == 2006)
        #expect(e.message == "Cannot create new type Journal in production schema")
    }

    @Test func developmentAddsJustInTimeAndSaysWhat() async throws {
        let cloud = try Self.cloud(.development)
        let db = cloud.database(.private)
        var n = Self.note("n1")
        n["tags"] = ["a", "b"]
        var j = CloudRecord(recordType: "Journal", recordName: "j1")
        j["text"] = "x"
        let results = try await db.modifyRecords(saving: [n, j], deleting: [])
        #expect(CloudKitError.partialFailure(saveResults: results.saveResults) == nil)
        #expect(cloud.developmentAdditions.map(\.description) == ["field Note.tags (list<string>)", "record type Journal", "field Journal.text (string)"])
        #expect(try await db.record(for: n.id)["tags"] == ["a", "b"])
    }

    @Test func aQueryOnAFieldWithoutAnIndexIs2015() async throws {
        let db = try Self.cloud().database(.private)
        _ = try await db.modifyRecords(saving: [Self.note("n1", mood: 5), Self.note("n2", mood: 1)], deleting: [])
        let found = try await db.records(matching: CloudQuery(recordType: "Note", predicate: "mood > %@", arguments: [2]))
        #expect(found.matchResults.map(\.0.recordName) == ["n1"])
        do {
            _ = try await db.records(matching: CloudQuery(recordType: "Note", predicate: "body == 'x'"))
            Issue.record("a query on a field that is not queryable ran")
        } catch {
            #expect(error.code == .invalidArguments && error.serverCode == 2015)
            #expect(error.message == "Field 'body' is not marked queryable")
        }
        do {
            _ = try await db.records(matching: CloudQuery(recordType: "Note", sortedBy: [(key: "mood", ascending: true)]))
            Issue.record("a sort on a field that is not sortable ran")
        } catch {
            #expect(error.code == .invalidArguments && error.serverCode == 2015)
            #expect(error.message == "Field 'mood' is not marked sortable")
        }
        do {
            _ = try await db.records(matching: CloudQuery(recordType: "Memo"))
            Issue.record("a query-all without a queryable recordName ran")
        } catch {
            #expect(error.serverCode == 2015 && error.message == "Field 'recordName' is not marked queryable")
        }
    }

    @Test func queriesPageWithACursor() async throws {
        let db = try Self.cloud().database(.private)
        _ = try await db.modifyRecords(saving: (1...5).map { Self.note("n\($0)", title: "t\($0)") }, deleting: [])
        let first = try await db.records(matching: CloudQuery(recordType: "Note", sortedBy: [(key: "title", ascending: false)]), resultsLimit: 2)
        #expect(first.matchResults.map(\.0.recordName) == ["n5", "n4"])
        let cursor = try #require(first.cursor)
        let second = try await db.records(continuingMatchFrom: cursor)
        #expect(second.matchResults.map(\.0.recordName) == ["n3", "n2"])
        let third = try await db.records(continuingMatchFrom: try #require(second.cursor))
        #expect(third.matchResults.map(\.0.recordName) == ["n1"])
        #expect(third.cursor == nil)
    }

    @Test func aStaleChangeTagIsServerRecordChanged() async throws {
        let db = try Self.cloud().database(.private)
        let v1 = try await db.modifyRecords(saving: [Self.note("n1", title: "one")], deleting: []).saveResults.values.first!.get()
        var deviceA = v1, deviceB = v1
        deviceA["title"] = "A"
        let v2 = try await db.modifyRecords(saving: [deviceA], deleting: []).saveResults[v1.id]!.get()
        #expect(v2.recordChangeTag != v1.recordChangeTag)
        deviceB["title"] = "B"
        let e = try #require(Self.error(try await db.modifyRecords(saving: [deviceB], deleting: []).saveResults[v1.id]))
        #expect(e.code == .serverRecordChanged && e.code.rawValue == 14)
        #expect(e.serverRecord?["title"] == "A")
        #expect(e.clientRecord?["title"] == "B")
        #expect(e.ancestorRecord?["title"] == "one")
        // changedKeys writes only the keys given, allKeys replaces the record; neither conflicts.
        var partial = CloudRecord(recordType: "Note", recordName: "n1")
        partial["body"] = "b"
        let merged = try await db.modifyRecords(saving: [partial], deleting: [], savePolicy: .changedKeys).saveResults[v1.id]!.get()
        #expect(merged["title"] == "A" && merged["body"] == "b")
        let replaced = try await db.modifyRecords(saving: [partial], deleting: [], savePolicy: .allKeys).saveResults[v1.id]!.get()
        #expect(replaced["title"] == nil && replaced["body"] == "b")
    }

    @Test func aMissingRecordIsUnknownItem() async throws {
        let db = try Self.cloud().database(.private)
        let id = CloudRecord.ID(recordName: "nope")
        let fetched = try await db.records(for: [id])
        #expect(Self.error(fetched[id])?.code.rawValue == 11)
        let deleted = try await db.modifyRecords(saving: [], deleting: [id])
        #expect(Self.error(deleted.deleteResults[id])?.code == .unknownItem)
    }

    @Test func aZoneNeverCreatedOrDeletedIsZoneNotFound() async throws {
        let db = try Self.cloud().database(.private)
        let n = Self.note("n1", zone: "Notes")
        #expect(Self.error(try await db.modifyRecords(saving: [n], deleting: []).saveResults[n.id])?.code.rawValue == 26)
        _ = try await db.modifyRecordZones(saving: [CloudZone(name: "Notes")], deleting: [])
        #expect((try? await db.modifyRecords(saving: [n], deleting: []).saveResults[n.id]?.get()) != nil)
        #expect(try await db.allRecordZones().map(\.name) == ["_defaultZone", "Notes"])
        let gone = try await db.modifyRecordZones(saving: [], deleting: ["Notes"])
        #expect((try? gone.deleteResults["Notes"]?.get()) != nil)
        #expect(Self.error(try await db.records(for: [n.id])[n.id])?.code == .zoneNotFound)
        await #expect(throws: CloudKitError.self) { _ = try await db.recordZoneChanges(inZone: "Notes") }
    }

    @Test func theDefaultZoneHasNoChangesToFetch() async throws {
        let db = try Self.cloud().database(.private)
        do {
            _ = try await db.recordZoneChanges(inZone: CloudZone.defaultName)
            Issue.record("changes of the default zone were fetched")
        } catch {
            #expect(error.code == .invalidArguments)
            #expect(error.rule == "CK730")
        }
    }

    @Test func zoneChangesFollowTokensAndExpireWithTheZone() async throws {
        let db = try Self.cloud().database(.private)
        _ = try await db.modifyRecordZones(saving: [CloudZone(name: "Notes")], deleting: [])
        _ = try await db.modifyRecords(saving: (1...3).map { Self.note("n\($0)", zone: "Notes") }, deleting: [])
        let page1 = try await db.recordZoneChanges(inZone: "Notes", resultsLimit: 2)
        #expect(page1.modifications.map(\.id.recordName) == ["n1", "n2"] && page1.moreComing)
        let page2 = try await db.recordZoneChanges(inZone: "Notes", since: page1.changeToken)
        #expect(page2.modifications.map(\.id.recordName) == ["n3"] && !page2.moreComing)
        _ = try await db.modifyRecords(saving: [], deleting: [CloudRecord.ID(recordName: "n2", zoneName: "Notes")])
        let page3 = try await db.recordZoneChanges(inZone: "Notes", since: page2.changeToken)
        #expect(page3.deletions.map(\.recordName) == ["n2"] && page3.modifications.isEmpty)
        // The zone is deleted and made again: a token from before is changeTokenExpired.
        _ = try await db.modifyRecordZones(saving: [], deleting: ["Notes"])
        _ = try await db.modifyRecordZones(saving: [CloudZone(name: "Notes")], deleting: [])
        do {
            _ = try await db.recordZoneChanges(inZone: "Notes", since: page3.changeToken)
            Issue.record("a token from before the zone's reset was accepted")
        } catch {
            #expect(error.code == .changeTokenExpired && error.code.rawValue == 21)
        }
    }

    @Test func limitsOfOneRequest() async throws {
        let db = try Self.cloud().database(.private)
        do {
            _ = try await db.modifyRecords(saving: (0...400).map { Self.note("n\($0)") }, deleting: [])
            Issue.record("401 items were saved in one request")
        } catch {
            #expect(error.code == .limitExceeded && error.code.rawValue == 27)
        }
        // 400 is allowed (sqlite-data's fake refuses at 200).
        let ok = try await db.modifyRecords(saving: (0..<400).map { Self.note("n\($0)") }, deleting: [])
        #expect(CloudKitError.partialFailure(saveResults: ok.saveResults) == nil)
        // More than 1 MB in one record.
        var big = Self.note("big")
        big["body"] = .string(String(repeating: "x", count: 1_100_000))
        #expect(Self.error(try await db.modifyRecords(saving: [big], deleting: []).saveResults[big.id])?.code == .limitExceeded)
        // More than 2 MB in one request.
        let many = (0..<3).map { i -> CloudRecord in
            var r = Self.note("m\(i)")
            r["body"] = .string(String(repeating: "y", count: 800_000))
            return r
        }
        await #expect(throws: CloudKitError.self) { _ = try await db.modifyRecords(saving: many, deleting: []) }
    }

    @Test func inAnAtomicZoneOneBadRecordFailsTheBatch() async throws {
        let db = try Self.cloud().database(.private)
        _ = try await db.modifyRecordZones(saving: [CloudZone(name: "Notes", capabilities: [.fetchChanges, .atomic])], deleting: [])
        var bad = Self.note("bad", zone: "Notes")
        bad["nope"] = "x"
        let good = Self.note("good", zone: "Notes")
        let results = try await db.modifyRecords(saving: [good, bad], deleting: [])
        #expect(Self.error(results.saveResults[bad.id])?.serverCode == 2006)
        #expect(Self.error(results.saveResults[good.id])?.code.rawValue == 22)
        #expect(Self.error(try await db.records(for: [good.id])[good.id])?.code == .unknownItem)
    }

    @Test func encryptionMismatchesAndThePublicDatabase() async throws {
        let cloud = try Self.cloud()
        let db = cloud.database(.private)
        var plain = Self.note("n1")
        plain["secret"] = "written plain"
        #expect(Self.error(try await db.modifyRecords(saving: [plain], deleting: []).saveResults[plain.id])?.code == .invalidArguments)
        var reverse = Self.note("n2")
        reverse.encrypted["title"] = "encrypted, but the field is not"
        #expect(Self.error(try await db.modifyRecords(saving: [reverse], deleting: []).saveResults[reverse.id])?.code == .invalidArguments)
        var post = CloudRecord(recordType: "Post", recordName: "p1")
        post.encrypted["text"] = "x"
        let e = Self.error(try await cloud.database(.public).modifyRecords(saving: [post], deleting: []).saveResults[post.id])
        #expect(e?.code == .invalidArguments && e?.rule == "CK107")
        // The public database has no custom zones.
        let z = try await cloud.database(.public).modifyRecordZones(saving: [CloudZone(name: "Notes")], deleting: [])
        #expect(Self.error(z.saveResults["Notes"])?.code == .invalidArguments)
    }

    @Test func faultsOnDemandHaveCloudKitsShape() async throws {
        let cloud = try Self.cloud()
        let db = cloud.database(.private)
        cloud.inject(.requestRateLimited(retryAfter: 3), on: .modifyRecords, times: 2)
        for _ in 0..<2 {
            do {
                _ = try await db.modifyRecords(saving: [Self.note("n1")], deleting: [])
                Issue.record("the injected fault did not fire")
            } catch {
                #expect(error.code.rawValue == 7 && error.retryAfterSeconds == 3)
            }
        }
        #expect((try? await db.modifyRecords(saving: [Self.note("n1")], deleting: []).saveResults.values.first?.get()) != nil)
        let faults: [(CloudFault, Int)] = [(.zoneBusy(retryAfter: 1), 23), (.serviceUnavailable(retryAfter: 2), 6), (.quotaExceeded, 25),
                                           (.networkFailure, 4), (.notAuthenticated, 9), (.userDeletedZone, 28), (.changeTokenExpired, 21),
                                           (.serverRecordChanged, 14)]
        for (fault, code) in faults {
            cloud.inject(fault, on: .records)
            await #expect(throws: CloudKitError.self) { _ = try await db.records(for: [CloudRecord.ID(recordName: "n1")]) }
            cloud.inject(fault, on: .records)
            do { _ = try await db.record(for: CloudRecord.ID(recordName: "n1")) } catch { #expect(error.code.rawValue == code) }
        }
    }

    @Test func subscriptionsFireNotifications() async throws {
        let db = try Self.cloud().database(.private)
        try await db.save(CloudSubscription(id: "happy", kind: .query(recordType: "Note", predicate: "mood > 3", firesOn: [.create, .update])))
        #expect(try await db.allSubscriptions().map(\.id) == ["happy"])
        _ = try await db.modifyRecords(saving: [Self.note("n1", mood: 5), Self.note("n2", mood: 1)], deleting: [])
        #expect(try db.notifications.map { "\($0.subscriptionID) \($0.reason) \($0.recordID?.recordName ?? "")" } == ["happy recordCreated n1"])
        try await db.deleteSubscription(withID: "happy")
        await #expect(throws: CloudKitError.self) { try await db.deleteSubscription(withID: "happy") }
        // A subscription's query obeys the query rules.
        await #expect(throws: CloudKitError.self) {
            try await db.save(CloudSubscription(id: "bodies", kind: .query(recordType: "Note", predicate: "body == 'x'", firesOn: [.create])))
        }
    }

    @Test func twoDevicesShareOneContainerAndBadInputNeverTraps() async throws {
        let cloud = try Self.cloud()
        await withTaskGroup(of: Void.self) { group in
            for device in 0..<4 {
                group.addTask {
                    let db = cloud.database(.private)
                    for i in 0..<25 { _ = try? await db.modifyRecords(saving: [Self.note("d\(device)-\(i)")], deleting: []) }
                }
            }
        }
        let all = try await cloud.database(.private).records(matching: CloudQuery(recordType: "Note"))
        #expect(all.matchResults.count == 100)
        // A wrong value type, a refused name, a timestamp no int64 holds, a predicate CloudKit cannot run.
        let db = cloud.database(.private)
        var wrong = Self.note("w1")
        wrong["mood"] = "five"
        var odd = Self.note("")
        odd["title"] = .timestamp(Date(timeIntervalSince1970: 1e300))
        let results = try await db.modifyRecords(saving: [wrong, odd], deleting: [])
        #expect(Self.error(results.saveResults[wrong.id])?.code == .invalidArguments)
        #expect(Self.error(results.saveResults[odd.id])?.code == .invalidArguments)
        await #expect(throws: CloudKitError.self) { _ = try await db.records(matching: CloudQuery(recordType: "Note", predicate: "title ==")) }
        await #expect(throws: CloudKitError.self) { _ = try await db.records(matching: CloudQuery(recordType: "Note", predicate: "mood > %@")) }
    }

    /// A list in a list is refused however deep it goes (CloudKit's lists are flat), and a
    /// deep one is written without recursing through every level.
    @Test func aListInAListIsRefusedAtAnyDepth() async throws {
        let cloud = try FakeCloudKit(schema: """
            ckschema: 1
            recordTypes:
              Note:
                fields:
                  tags: list<string>
            """, environment: .production)
        let db = cloud.database(.private)
        var shallow = CloudRecord(recordType: "Note", recordName: "nested-2")
        shallow["tags"] = .list([.list([.string("a")])])
        var deep = CloudRecord(recordType: "Note", recordName: "nested-1000")
        var v = CloudValue.string("a")
        for _ in 0..<1_000 { v = .list([v]) }
        deep["tags"] = v
        var flat = CloudRecord(recordType: "Note", recordName: "flat")
        flat["tags"] = ["a", "b"]
        let results = try await db.modifyRecords(saving: [shallow, deep, flat], deleting: [])
        let a = try #require(Self.error(results.saveResults[shallow.id]))
        let b = try #require(Self.error(results.saveResults[deep.id]))
        #expect(a.code == .invalidArguments && b.code == .invalidArguments)
        #expect(a.message == b.message, "\(a.message) / \(b.message)")
        #expect(a.message.contains("found a list"), "\(a.message)")
        #expect(Self.error(results.saveResults[flat.id]) == nil)
    }

    // MARK: References, grants, atomicity, tokens, parallel writers (issue 33, points 2 and 3)

    static func child(_ name: String, of parent: String, zone: String = "Notes", action: CloudValue.ReferenceAction = .deleteSelf) -> CloudRecord {
        var r = note(name, zone: zone)
        r["parent"] = .reference(recordName: parent, action: action)
        return r
    }

    @Test func aDeleteSelfReferenceToAMissingRecordIsReferenceViolation() async throws {
        let db = try Self.cloud().database(.private)
        _ = try await db.modifyRecordZones(saving: [CloudZone(name: "Notes", capabilities: [.fetchChanges])], deleting: [])
        // Neither on the server nor in the request: referenceViolation 31, and nothing saved.
        let orphan = Self.child("c1", of: "nobody")
        let e = try #require(Self.error(try await db.modifyRecords(saving: [orphan], deleting: []).saveResults[orphan.id]))
        #expect(e.code == .referenceViolation && e.code.rawValue == 31)
        #expect(e.rule == "CK558")
        #expect(e.message == "holds a deleteSelf reference to \"nobody\", which is neither in zone 'Notes' nor saved with it")
        #expect(Self.error(try await db.records(for: [orphan.id])[orphan.id])?.code == .unknownItem)
        // The target saved in the same request, after the record that refers to it: both saved.
        let child = Self.child("c2", of: "p1"), parent = Self.note("p1", zone: "Notes")
        let both = try await db.modifyRecords(saving: [child, parent], deleting: [])
        #expect(CloudKitError.partialFailure(saveResults: both.saveResults) == nil)
        // A reference with the action none may name a record that does not exist.
        let loose = Self.child("c3", of: "nobody", action: .none)
        #expect((try? await db.modifyRecords(saving: [loose], deleting: []).saveResults[loose.id]?.get()) != nil)
    }

    @Test func deletingATargetCascadesThroughDeleteSelf() async throws {
        let db = try Self.cloud().database(.private)
        _ = try await db.modifyRecordZones(saving: [CloudZone(name: "Notes", capabilities: [.fetchChanges])], deleting: [])
        _ = try await db.modifyRecords(saving: [Self.note("p1", zone: "Notes"), Self.child("c1", of: "p1"), Self.child("g1", of: "c1"),
                                                Self.child("c2", of: "p1", action: .none)], deleting: [])
        let before = try await db.recordZoneChanges(inZone: "Notes")
        let parent = CloudRecord.ID(recordName: "p1", zoneName: "Notes")
        let deleted = try await db.modifyRecords(saving: [], deleting: [parent])
        #expect((try? deleted.deleteResults[parent]?.get()) != nil)
        // The child and the grandchild went with it; the reference with the action none stays.
        let ids = ["c1", "g1", "c2"].map { CloudRecord.ID(recordName: $0, zoneName: "Notes") }
        let fetched = try await db.records(for: ids)
        #expect(Self.error(fetched[ids[0]])?.code == .unknownItem)
        #expect(Self.error(fetched[ids[1]])?.code == .unknownItem)
        #expect((try? fetched[ids[2]]?.get()) != nil)
        let after = try await db.recordZoneChanges(inZone: "Notes", since: before.changeToken)
        #expect(after.deletions.map(\.recordName).sorted() == ["c1", "g1", "p1"])
    }

    @Test func aReferenceIntoAnotherZoneIsRefused() async throws {
        let db = try Self.cloud().database(.private)
        _ = try await db.modifyRecordZones(saving: [CloudZone(name: "Notes"), CloudZone(name: "Other")], deleting: [])
        _ = try await db.modifyRecords(saving: [Self.note("p1", zone: "Other")], deleting: [])
        var r = Self.note("c1", zone: "Notes")
        r["parent"] = .referenceInZone(recordName: "p1", zoneName: "Other", action: .none)
        let e = try #require(Self.error(try await db.modifyRecords(saving: [r], deleting: []).saveResults[r.id]))
        #expect(e.code == .invalidArguments && e.rule == "CK408")
        // Into its own zone, the zoned form is an ordinary reference.
        r["parent"] = .referenceInZone(recordName: "c1", zoneName: "Notes", action: .none)
        #expect(try await db.modifyRecords(saving: [r], deleting: []).saveResults[r.id]?.get()["parent"] == .reference(recordName: "c1", action: .none))
    }

    static let grantsSchema = """
        ckschema: 1
        recordTypes:
          Board:
            database: public
            system:
              recordName: [queryable]
            fields:
              text: string
            grants:
              _world: [read]
              _icloud: [read]
          Comment:
            database: public
            fields:
              text: string
            grants:
              _world: [read]
              _icloud: [create]
              _creator: [read]
          Post:
            database: public
            fields:
              text: string
        """

    @Test func thePublicDatabaseKeepsToTheSchemasGrants() async throws {
        let cloud = try FakeCloudKit(schema: Self.grantsSchema)
        let db = cloud.database(.public)
        // No role of an iCloud user may create a Board: permissionFailure 10.
        var board = CloudRecord(recordType: "Board", recordName: "b1")
        board["text"] = "x"
        let e = try #require(Self.error(try await db.modifyRecords(saving: [board], deleting: []).saveResults[board.id]))
        #expect(e.code == .permissionFailure && e.code.rawValue == 10)
        #expect(e.message == "CREATE operation not permitted: no role of this user has create on record type 'Board' in the public database")
        // A Comment may be created, but its creator may not write it again, nor delete it.
        var comment = CloudRecord(recordType: "Comment", recordName: "c1")
        comment["text"] = "first"
        let saved = try await db.modifyRecords(saving: [comment], deleting: []).saveResults[comment.id]!.get()
        var edit = saved
        edit["text"] = "second"
        #expect(Self.error(try await db.modifyRecords(saving: [edit], deleting: []).saveResults[comment.id])?.code == .permissionFailure)
        #expect(Self.error(try await db.modifyRecords(saving: [], deleting: [comment.id]).deleteResults[comment.id])?.code == .permissionFailure)
        #expect(try await db.record(for: comment.id)["text"] == "first")
        // A type whose schema names no grants has CloudKit's defaults: create, then write as its creator.
        var post = CloudRecord(recordType: "Post", recordName: "p1")
        post["text"] = "x"
        var v1 = try await db.modifyRecords(saving: [post], deleting: []).saveResults[post.id]!.get()
        v1["text"] = "y"
        #expect((try? await db.modifyRecords(saving: [v1], deleting: []).saveResults[post.id]?.get()) != nil)
        // The private database has no roles.
        var mine = CloudRecord(recordType: "Board", recordName: "b1")
        mine["text"] = "x"
        #expect((try? await cloud.database(.private).modifyRecords(saving: [mine], deleting: []).saveResults[mine.id]?.get()) != nil)
    }

    @Test func aNonAtomicRequestInAnAtomicZoneSavesWhatPasses() async throws {
        let db = try Self.cloud().database(.private)
        _ = try await db.modifyRecordZones(saving: [CloudZone(name: "Notes", capabilities: [.fetchChanges, .atomic])], deleting: [])
        var bad = Self.note("bad", zone: "Notes")
        bad["nope"] = "x"
        let good = Self.note("good", zone: "Notes")
        let results = try await db.modifyRecords(saving: [good, bad], deleting: [], atomically: false)
        #expect(Self.error(results.saveResults[bad.id])?.serverCode == 2006)
        #expect((try? results.saveResults[good.id]?.get()) != nil)
        #expect((try? await db.records(for: [good.id])[good.id]?.get()) != nil)
    }

    @Test func aForgedOrForeignChangeTokenIsCloudKitsError() async throws {
        let a = try Self.cloud().database(.private), b = try Self.cloud().database(.private)
        for db in [a, b] {
            _ = try await db.modifyRecordZones(saving: [CloudZone(name: "Notes"), CloudZone(name: "Other")], deleting: [])
            _ = try await db.modifyRecords(saving: [Self.note("n1", zone: "Notes")], deleting: [])
        }
        let foreign = try await b.recordZoneChanges(inZone: "Notes").changeToken
        // Another container's token for a zone of the same name: expired (refetch from nil).
        do {
            _ = try await a.recordZoneChanges(inZone: "Notes", since: foreign)
            Issue.record("another container's token was accepted")
        } catch {
            #expect(error.code == .changeTokenExpired && error.rule == "CK732")
        }
        // A token of another zone.
        let other = try await a.recordZoneChanges(inZone: "Other").changeToken
        do {
            _ = try await a.recordZoneChanges(inZone: "Notes", since: other)
            Issue.record("another zone's token was accepted")
        } catch {
            #expect(error.code == .invalidArguments && error.rule == "CK732")
        }
    }

    @Test func twoTasksSavingOneRecordSeeOneWinAndOneConflict() async throws {
        let db = try Self.cloud().database(.private)
        let v1 = try await db.modifyRecords(saving: [Self.note("n1", title: "one")], deleting: []).saveResults.values.first!.get()
        let outcomes = await withTaskGroup(of: CloudKitError.Code?.self) { group in
            for title in ["A", "B"] {
                group.addTask {
                    var r = v1
                    r["title"] = .string(title)
                    guard let result = try? await db.modifyRecords(saving: [r], deleting: []).saveResults[r.id] else { return .internalError }
                    return Self.error(result)?.code
                }
            }
            var out: [CloudKitError.Code?] = []
            for await o in group { out.append(o) }
            return out
        }
        // The writes are serialized: one saves over v1, the other meets its new change tag.
        #expect(outcomes.filter { $0 == nil }.count == 1)
        #expect(outcomes.filter { $0 == .serverRecordChanged }.count == 1)
    }
}

/// A save answers with the record as stored, without reading it back (the importer reports
/// the fields it wrote; a changedKeys merge is read). The answer must be the record a fetch
/// reads, for every kind of value, text that needs escaping and every save policy.
@Suite struct FakeCloudKitSavedRecordTests {
    static let schema = """
        ckschema: 1
        recordTypes:
          Place:
            fields:
              name: { type: string, indexes: [queryable, searchable] }
              count: int64
              ratio: double
              seenAt: timestamp
              photo: bytes
              spot: location
              parent: { type: reference, to: Place }
              cover: asset
              tags: list<string>
              scores: list<int64>
              secret: { type: string, encrypted: true }
        zones:
          Atlas: { capabilities: [fetchChanges] }
        """

    static func place(_ name: String, text: String) -> CloudRecord {
        var r = CloudRecord(recordType: "Place", recordName: name, zoneName: "Atlas")
        r["name"] = .string(text)
        r["count"] = .int64(-42)
        r["ratio"] = .double(0.1 + 0.2)
        // Sub-millisecond precision: CloudKit keeps whole milliseconds, and so must the answer.
        r["seenAt"] = .timestamp(Date(timeIntervalSince1970: 1_700_000_000.123456))
        r["photo"] = .bytes(Data([0, 1, 2, 0xFF]))
        r["spot"] = .location(latitude: 46.5, longitude: -7.25)
        r["parent"] = .reference(recordName: "root", action: .none)
        r["cover"] = .asset(URL(string: "https://example.com/a%20b.jpg")!)
        r["tags"] = ["alpine", "é\u{1}"]
        r["scores"] = [1, 2, 3]
        r.encrypted["secret"] = .string("s\"3\\")
        return r
    }

    @Test(arguments: [FakeCloudKit.Environment.production, .development])
    func eachSaveAnswersWithTheRecordAFetchReads(env: FakeCloudKit.Environment) async throws {
        let cloud = try FakeCloudKit(schema: Self.schema, environment: env)
        let db = cloud.database(.private)
        _ = try await db.modifyRecordZones(saving: [CloudZone(name: "Atlas")], deleting: [])
        let texts = ["plain", "a \"quote\", a \\ and ##[stop-commands]", "tab\tnew\nline \u{7F} \u{2028} 🏔", ""]
        var saved: [CloudRecord] = []
        for (i, text) in texts.enumerated() {
            let r = Self.place("p\(i)", text: text)
            saved.append(try #require(try await db.modifyRecords(saving: [r], deleting: []).saveResults[r.id]).get())
        }
        // An update under each policy: the stored record's tag, a replace, a merge of one key.
        var update = saved[0]
        update["count"] = .int64(7)
        let unchanged = try await db.modifyRecords(saving: [update], deleting: [], savePolicy: .ifServerRecordUnchanged).saveResults[update.id]!.get()
        var partial = CloudRecord(recordType: "Place", recordName: "p1", zoneName: "Atlas")
        partial["ratio"] = .double(2.5)
        let merged = try await db.modifyRecords(saving: [partial], deleting: [], savePolicy: .changedKeys).saveResults[partial.id]!.get()
        var replacement = CloudRecord(recordType: "Place", recordName: "p2", zoneName: "Atlas")
        replacement["name"] = "new"
        let replaced = try await db.modifyRecords(saving: [replacement], deleting: [], savePolicy: .allKeys).saveResults[replacement.id]!.get()
        for answer in [unchanged, merged, replaced, saved[3]] {
            let fetched = try await db.record(for: answer.id)
            #expect(answer == fetched)
            #expect(answer.creationDate != nil && answer.modificationDate != nil)
        }
        #expect(unchanged["count"] == .int64(7))
        #expect(unchanged.recordChangeTag != saved[0].recordChangeTag)
        #expect(unchanged.creationDate == saved[0].creationDate)
        #expect(merged["ratio"] == .double(2.5) && merged["name"] == .string(texts[1]))
        #expect(replaced["name"] == "new" && replaced["count"] == nil)
        #expect(saved[1]["name"] == .string(texts[1]))
        #expect(saved[2]["name"] == .string(texts[2]))
        #expect(saved[0]["seenAt"] == .timestamp(Date(timeIntervalSince1970: 1_700_000_000.123)))
        #expect(saved[0].encrypted["secret"] == .string("s\"3\\"))
    }
}

/// The ancestor of a conflict is the version the client holds, however old, kept as each
/// version is replaced or deleted (not as each is answered).
@Suite struct FakeCloudKitAncestorTests {
    @Test func theAncestorIsTheVersionTheClientHeld() async throws {
        let db = try FakeCloudKitTests.cloud().database(.private)
        let v1 = try await db.modifyRecords(saving: [FakeCloudKitTests.note("n1", title: "one")], deleting: []).saveResults.values.first!.get()
        var next = v1
        next["title"] = "two"
        let v2 = try await db.modifyRecords(saving: [next], deleting: []).saveResults[v1.id]!.get()
        var third = v2
        third["title"] = "three"
        _ = try await db.modifyRecords(saving: [third], deleting: []).saveResults[v1.id]!.get()
        // A device still holding v1 (two versions behind) and one holding v2.
        for (held, title) in [(v1, "one"), (v2, "two")] {
            var stale = held
            stale["title"] = "late"
            let e = try #require(FakeCloudKitTests.error(try await db.modifyRecords(saving: [stale], deleting: []).saveResults[v1.id]))
            #expect(e.code == .serverRecordChanged)
            #expect(e.serverRecord?["title"] == "three")
            #expect(e.ancestorRecord?["title"] == .string(title))
            #expect(e.ancestorRecord?.recordChangeTag == held.recordChangeTag)
            #expect(e.ancestorRecord?.creationDate == v1.creationDate)
        }
        // Deleted and created again: a device holding the deleted version conflicts with it as ancestor.
        let current = try await db.record(for: v1.id)
        _ = try await db.modifyRecords(saving: [], deleting: [v1.id])
        _ = try await db.modifyRecords(saving: [FakeCloudKitTests.note("n1", title: "reborn")], deleting: [])
        var late = current
        late["title"] = "late"
        let e = try #require(FakeCloudKitTests.error(try await db.modifyRecords(saving: [late], deleting: []).saveResults[v1.id]))
        #expect(e.code == .serverRecordChanged)
        #expect(e.serverRecord?["title"] == "reborn")
        #expect(e.ancestorRecord?["title"] == "three")
    }
}
