// expect: static method 'ascending' requires that 'CloudSchema.Indexes.Queryable' conform to 'CloudSchema.IsSortable'
import Everything
let q = CloudSchema.Trip.query(.all, sortedBy: [.ascending(CloudSchema.Trip.Key.code)])
