// expect: value of type 'CloudSchema.Zones.Archive' has no member 'fetchChanges'
import CloudKit
import Everything
let token: CKServerChangeToken? = nil
let op = CloudSchema.Zones.Archive().fetchChanges(since: token)
