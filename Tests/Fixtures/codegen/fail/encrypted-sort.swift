// expect: static method 'descending' requires that 'CloudSchema.Indexes.Encrypted' conform to 'CloudSchema.IsSortable'
import Everything
let q = CloudSchema.Trip.query(.all, sortedBy: [.descending(CloudSchema.Trip.Key.notes)])
