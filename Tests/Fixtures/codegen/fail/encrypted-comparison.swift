// expect: requires that 'CloudSchema.Indexes.Encrypted' conform to 'CloudSchema.IsQueryable'
import Everything
let q = CloudSchema.Trip.query(CloudSchema.Trip.Key.notes == "x")
