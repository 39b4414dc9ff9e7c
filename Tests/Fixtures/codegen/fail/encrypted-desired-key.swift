// expect: static method 'desiredKeys' requires that 'CloudSchema.Indexes.Encrypted' conform to 'CloudSchema.Plaintext'
import Everything
let keys = CloudSchema.Trip.desiredKeys(CloudSchema.Trip.Key.notes)
