import CloudKit

/// Trailmark's CloudKit calls, the code `ckschema check` scans (ckschema.yaml's `code:`)
/// against Schemas/production.yaml: trips and waypoints live in the custom zone Journal.
enum TripField: String {
    case title, startedAt, distanceMeters, notes
}

final class TripStore {
    static let zoneID = CKRecordZone.ID(zoneName: "Journal")
    static let tripType = "Trip"
    let database = CKContainer(identifier: "iCloud.com.example.Trailmark").privateCloudDatabase

    /// The zone is created before the first write (a record saved to a missing zone fails).
    func prepare() async throws {
        _ = try await database.modifyRecordZones(saving: [CKRecordZone(zoneID: Self.zoneID)], deleting: [])
    }

    func save(title: String, notes: String, meters: Double) async throws {
        let id = CKRecord.ID(recordName: UUID().uuidString, zoneID: Self.zoneID)
        let trip = CKRecord(recordType: Self.tripType, recordID: id)
        trip[TripField.title.rawValue] = title
        trip[TripField.startedAt.rawValue] = Date()
        trip[TripField.distanceMeters.rawValue] = meters
        trip.encryptedValues[TripField.notes.rawValue] = notes
        _ = try await database.save(trip)
    }

    func recent(since date: Date) async throws -> [CKRecord] {
        let query = CKQuery(recordType: Self.tripType, predicate: NSPredicate(format: "%K > %@", TripField.startedAt.rawValue, date as NSDate))
        query.sortDescriptors = [NSSortDescriptor(key: TripField.startedAt.rawValue, ascending: false)]
        let (matches, _) = try await database.records(matching: query, inZoneWith: Self.zoneID)
        return matches.compactMap { try? $0.1.get() }
    }

    func title(of trip: CKRecord) -> String? {
        trip[TripField.title.rawValue] as? String
    }

    func subscribe() async throws {
        let subscription = CKQuerySubscription(recordType: Self.tripType, predicate: NSPredicate(value: true), subscriptionID: "trips", options: [.firesOnRecordCreation, .firesOnRecordUpdate])
        let info = CKSubscription.NotificationInfo()
        info.desiredKeys = [TripField.title.rawValue]
        subscription.notificationInfo = info
        _ = try await database.save(subscription)
    }

    func changes() async throws {
        _ = try await database.recordZoneChanges(inZoneWith: Self.zoneID, since: nil)
    }
}
