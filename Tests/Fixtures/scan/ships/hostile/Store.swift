import CloudKit

let database = CKContainer(identifier: "iCloud.com.example.Ships").privateCloudDatabase
