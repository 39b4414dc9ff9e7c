import CloudKit
import UIKit

final class ListSharing {
    let container = CKContainer(identifier: "iCloud.com.example.Lists")

    func share(_ list: CKRecord) -> UICloudSharingController {
        let share = CKShare(rootRecord: list)
        share[CKShare.SystemFieldKey.title] = "A list"
        return UICloudSharingController(share: share, container: container)
    }
}
