import CloudKit

final class Sync {
    let database = CKContainer(identifier: "iCloud.com.example.Ships").privateCloudDatabase
    var engine: CKSyncEngine?

    func subscribe() async throws {
        let subscription = CKDatabaseSubscription(subscriptionID: "all")
        let info = CKSubscription.NotificationInfo()
        info.shouldSendContentAvailable = true
        subscription.notificationInfo = info
        try await database.save(subscription)
    }
}
