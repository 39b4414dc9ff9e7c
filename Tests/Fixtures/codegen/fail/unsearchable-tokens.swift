// expect: requires that 'CloudSchema.Indexes.Queryable' conform to 'CloudSchema.IsSearchable'
import Everything
let q = CloudSchema.Trip.query(CloudSchema.Trip.Key.code.containsTokens("x"))
