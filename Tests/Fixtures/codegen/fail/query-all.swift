// expect: requires that 'CloudSchema.Companion' conform to 'CloudSchema.RecordNameQueryable'
import Everything
let q = CloudSchema.Companion.query(CloudSchema.Predicate<CloudSchema.Companion>.all)
