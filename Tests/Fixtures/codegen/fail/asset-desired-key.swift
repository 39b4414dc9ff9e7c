// expect: static method 'desiredKeys' requires that 'CKAsset' conform to 'CloudSchema.Notifiable'
import Everything
let keys = CloudSchema.Trip.desiredKeys(CloudSchema.Trip.Key.cover)
