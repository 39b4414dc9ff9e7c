// expect: referencing operator function '>' on 'CloudSchema.FieldKey' requires that 'CloudSchema.Indexes.Sortable' conform to 'CloudSchema.IsQueryable'
import Everything
let q = CloudSchema.Trip.query(CloudSchema.Trip.Key.distance > 1)
