import CloudKit

func subscribe() async throws {
    let subscription = CKQuerySubscription(recordType: "Note", predicate: NSPredicate(format: "rank > 2"), subscriptionID: "ranked", options: [.firesOnRecordCreation])
    let info = CKSubscription.NotificationInfo()
    info.desiredKeys = ["text", "rank"]
    subscription.notificationInfo = info
    _ = try await CKContainer.default().privateCloudDatabase.save(subscription)
    let all = CKDatabaseSubscription(subscriptionID: "everything")
    _ = try await CKContainer.default().privateCloudDatabase.save(all)
}
