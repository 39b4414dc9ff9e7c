import CloudKit

func subscribe() async throws {
    let subscription = CKQuerySubscription(recordType: "Note", predicate: NSPredicate(format: "rank > 2"), subscriptionID: "ranked", options: [.firesOnRecordCreation])
    let info = CKSubscription.NotificationInfo()
    info.desiredKeys = ["text", "secret", "rank", "createdAt"]
    subscription.notificationInfo = info
    _ = try await CKContainer.default().sharedCloudDatabase.save(subscription)
}
