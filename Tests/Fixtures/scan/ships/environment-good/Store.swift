import CloudKit

enum Store {
    static let database = CKContainer.default().privateCloudDatabase
}
