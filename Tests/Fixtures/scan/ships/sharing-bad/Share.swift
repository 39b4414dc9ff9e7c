import CloudKit
import UIKit

final class Sharing {
    let container = CKContainer(identifier: "iCloud.com.example.Ships")

    func share(_ root: CKRecord) -> UICloudSharingController {
        let share = CKShare(rootRecord: root)
        return UICloudSharingController(share: share, container: container)
    }
}
