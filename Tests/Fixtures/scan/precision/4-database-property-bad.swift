import CloudKit

final class PlaceFeed {
    let container = CKContainer.default()
    var database: CKDatabase { container.sharedCloudDatabase }

    func subscribe() async throws {
        let subscription = CKQuerySubscription(recordType: "Place", predicate: NSPredicate(value: true), subscriptionID: "places", options: [.firesOnRecordCreation])
        _ = try await database.save(subscription)
    }
}

final class TripFeed {
    let database: CKDatabase

    init(container: CKContainer) {
        self.database = container.publicCloudDatabase
    }

    func subscribe() async throws {
        let subscription = CKRecordZoneSubscription(zoneID: CKRecordZone.ID(zoneName: "Journal"), subscriptionID: "journal")
        _ = try await database.save(subscription)
    }
}
